"""What one `workmem search` costs as a user runs it: a new process per question.

    .venv/bin/python bench/search_cli.py --memory DIR [--workmem PATH] [--runs 8]
        [--embedder auto] [--after-write] [--json]

Runs the natural questions of ``bench/natural_questions.toml`` one process each against
the memory at DIR (build one with ``bench/natural.py --memory DIR``), with the embedder
set for the run, and reports each search's wall time and the CPU time of its process
(user + system, from the kernel). ``--workmem`` takes any install's command (a pipx or
uv tool install, say): the installed copy's own Python, bytecode and dependencies are
what is measured. ``--after-write`` writes a note and ends a session (through the same
command) before every search, so each search is the first one after new memory was
written, as after a day's work; ``--no-warm`` turns the background warmer off (``warm =
false``). The machine's load is printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: list[str], root: Path, env: dict[str, str]) -> tuple[float, float, str]:
    started, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:3])} failed: {done.stderr.strip()[-400:]}")
    return time.perf_counter() - started, _cpu() - cpu, done.stdout


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/search_cli.py")
    parser.add_argument("--memory", required=True)
    parser.add_argument("--workmem", default=str(Path(sys.executable).parent / "workmem"))
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--embedder", default="auto")
    parser.add_argument("--after-write", action="store_true")
    parser.add_argument("--no-warm", action="store_true", help="warm = false in workmem.toml")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    root = Path(args.memory).resolve()
    spec = tomllib.loads((HERE / "natural_questions.toml").read_text(encoding="utf-8"))
    questions = [q["text"] for q in spec["question"]][: args.runs]
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKMEM_")}
    env.update(WORKMEM_ROOT=str(root), WORKMEM_NOW=str(spec["asked_at"]))
    warm = "false" if args.no_warm else "true"
    (root / "workmem.toml").write_text(
        f'[search]\nembedder = "{args.embedder}"\nwarm = {warm}\n', encoding="utf-8"
    )
    runs: list[dict[str, Any]] = []
    for n, question in enumerate(questions):
        if args.after_write:
            note = f"Chose option {n} for the cache layer after measuring it"
            _run([args.workmem, "note", "decision", note], root, env)
            summary, resume = f"Cache layer round {n}", "Next: measure the cache again."
            _run([args.workmem, "end", "--summary", summary, "--resumption", resume], root, env)
        wall, cpu, out = _run([args.workmem, "search", question, "--json"], root, env)
        hits = json.loads(out)["hits"]
        runs.append(
            {
                "question": question,
                "wall_s": round(wall, 3),
                "cpu_s": round(cpu, 3),
                "hits": len(hits),
            }
        )
    walls = [r["wall_s"] for r in runs]
    cpus = [r["cpu_s"] for r in runs]
    report = {
        "workmem": args.workmem,
        "embedder": args.embedder,
        "after_write": args.after_write,
        "warm": not args.no_warm,
        "load": os.getloadavg(),
        "wall_s": {"median": round(statistics.median(walls), 3), "max": max(walls)},
        "cpu_s": {"median": round(statistics.median(cpus), 3), "max": max(cpus)},
        "runs": runs,
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return 0
    print(f"{args.workmem} · embedder {args.embedder} · after a write: {args.after_write}")
    for run in runs:
        print(f"  wall {run['wall_s']:6.2f} s  CPU {run['cpu_s']:5.2f} s  {run['question']}")
    print(
        f"  median wall {report['wall_s']['median']} s (max {report['wall_s']['max']}),"
        f" CPU {report['cpu_s']['median']} s (max {report['cpu_s']['max']});"
        f" load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
