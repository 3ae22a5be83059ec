"""Board benchmark: registration, update and organize on boards of 10, 1,000 and 10,000 rows.

Prints wall-time medians for CLI calls (a fresh process each, as a hook or agent would
run them) and for in-process library calls. Target: CLI registration on a 10,000-row
board under 150 ms median on a 2-core machine.

    .venv/bin/python bench/board.py [--sizes 10,1000,10000] [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from workmem.board import Board
from workmem.board.model import COLUMNS
from workmem.files.tables import format_row


def build_board(root: Path, rows: int) -> str:
    """A realistic board: a third idle, the rest active with snapshots; returns an active ID."""
    memory = root / "memory"
    sessions = memory / "sessions"
    sessions.mkdir(parents=True)
    lines = ["# Memory Index", "", format_row(COLUMNS), "|" + "---|" * len(COLUMNS)]
    active_id = ""
    for n in range(rows):
        sid = f"2026-04-{1 + n % 28:02d}-{n // 60 % 24:02d}{n % 60:02d}-agent-{n}"
        status = "idle" if n % 3 == 0 else "active"
        lines.append(
            format_row(
                [
                    sid,
                    f"agent-{n}",
                    f"topic {n}",
                    f"summary of session {n}",
                    "k1, k2",
                    status,
                    "-",
                    "2026-04-01 09:00",
                    "2026-04-02 09:00",
                ]
            )
        )
        if status == "active":
            active_id = sid
            (sessions / f"{sid}.md").write_text(
                f"# Session: {sid}\n\n## Metadata\n\n| Field | Value |\n|---|---|\n"
                f"| Session ID | {sid} |\n| Updated At | 2026-04-02 09:00 |\n\n"
                "## Decisions\n\n- one\n"
            )
    (memory / "index.md").write_text("\n".join(lines) + "\n")
    return active_id


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def timed(fn: Callable[[], object], runs: int, reset: Callable[[], None] | None = None) -> float:
    samples = []
    for _ in range(runs):
        if reset:
            reset()
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return median_ms(samples)


def cli(*args: str) -> Callable[[], object]:
    exe = shutil.which("workmem", path=str(Path(sys.executable).parent)) or "workmem"

    def call() -> object:
        return subprocess.run([exe, *args], check=True, capture_output=True)

    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,1000,10000")
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    os.environ["WORKMEM_NOW"] = "2026-05-25 13:18"
    os.environ["WORKMEM_PLATFORM"] = "cursor"
    baseline = timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 7)
    print(f"python -c pass: {baseline:.1f} ms (median)")
    header = f"{'rows':>6}  {'op':<9} {'CLI ms':>8} {'in-proc ms':>11}"
    print(header)
    print("-" * len(header))
    for size in (int(s) for s in options.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            template = Path(tmp) / "template"
            template.mkdir()
            active = build_board(template, size)
            work = Path(tmp) / "work"

            def reset(template: Path = template, work: Path = work) -> None:
                shutil.rmtree(work, ignore_errors=True)
                shutil.copytree(template, work)

            os.environ["WORKMEM_ROOT"] = str(work)
            ops: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
                ("start", cli("session", "start"), lambda: Board().start()),
                (
                    "update",
                    cli("session", "update", active, "--section", "Decisions=bench"),
                    partial(lambda sid: Board().update(sid, sections={"Decisions": "b"}), active),
                ),
                ("organize", cli("organize"), lambda: Board().organize()),
            ]
            for name, cli_call, lib_call in ops:
                cli_ms = timed(cli_call, options.runs, reset)
                lib_ms = timed(lib_call, options.runs, reset)
                print(f"{size:>6}  {name:<9} {cli_ms:>8.1f} {lib_ms:>11.1f}")


if __name__ == "__main__":
    main()
