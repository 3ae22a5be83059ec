"""Natural questions over a few days of memory written through the hooks and the CLI.

    .venv/bin/python bench/natural.py [--memory DIR] [--embedder none,auto] [--json]

Builds the memory from the recorded sessions in ``$WORKMEM_SHARED/data/continuity`` (default
``../shared``) and the CLI writes of ``bench/natural_questions.toml``, then asks its
questions with each embedder and prints hit@1 / hit@5 and the time per query, for the
tuning part and the held-out part apart. ``--memory DIR`` keeps the memory (and its
index, vectors included) for the next run; an existing one there is reused.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _default_data() -> Path:
    shared = os.environ.get("WORKMEM_SHARED") or str(HERE.parent.parent / "shared")
    return Path(shared) / "data" / "continuity"


def _line(name: str, block: dict[str, Any]) -> str:
    line = (
        f"  {name:<22} {block['questions']:>3} questions  hit@1 {block['hit@1']:.3f}"
        f"  hit@5 {block['hit@5']:.3f}  hit@10 {block['hit@10']:.3f}"
    )
    if block["not_in_memory"]:
        line += (
            f"  ({block['not_in_memory']} not in memory;"
            f" hit@5 of the rest {block['answerable_hit@5']:.3f})"
        )
    return line


def _print(report: dict[str, Any], embedders: list[str]) -> None:
    print(f"Natural questions asked at {report['asked_at']}")
    for embedder in embedders:
        result = report[embedder]
        print(f"\nembedder {embedder} (index {result['index_s']} s)")
        print(_line("all", result["all"]))
        for part in ("tune", "held"):
            print(_line(part, result[part]))
            for name, block in result[part]["by_topic"].items():
                print("  " + _line(name, block))
            for name, block in result[part]["by_language"].items():
                print("  " + _line(f"lang {name}", block))
        wall, cpu = result["wall_ms"], result["cpu_ms"]
        print(
            f"  time per query: wall p50 {wall['p50']} ms, p95 {wall['p95']} ms;"
            f" CPU p50 {cpu['p50']} ms, p95 {cpu['p95']} ms"
        )
        for miss in result["tune_misses"]:
            where = "" if miss["in_memory"] else ", not in memory"
            print(f"  tune miss (rank {miss['rank'] or '-'}{where}): {miss['question']}")
            for line in miss["top"]:
                print(f"      {line}")


def main(argv: list[str]) -> int:
    from workmem.retrieval.bench_questions import load, run

    parser = argparse.ArgumentParser(prog="bench/natural.py")
    parser.add_argument("--questions", default=str(HERE / "natural_questions.toml"))
    parser.add_argument("--data", default=str(_default_data()))
    parser.add_argument("--memory", help="build (or reuse) the memory here")
    parser.add_argument("--embedder", default="none,auto")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    spec = load(Path(args.questions))
    embedders = [e for e in args.embedder.split(",") if e]
    with tempfile.TemporaryDirectory(prefix="workmem-natural-") as tmp:
        memory = Path(args.memory) if args.memory else Path(tmp) / "project"
        note = None if args.json else (lambda line: print(line, file=sys.stderr))
        report = run(spec, Path(args.data), memory.resolve(), embedders=embedders, progress=note)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        _print(report, embedders)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
