"""Redaction benchmark: what the write path adds to a write, and how fast text is scanned.

Prints, with the machine's load average (figures on a loaded machine are slower):
- the extra time one board write pays for redaction on boards of 1,000 and 10,000 rows
  (a row changed with and without a secret), measured in process by timing
  ``redact_write`` against the same old and new text the Store would see;
- ``redact()`` throughput on clean prose and on secret-dense text;
- the time of a few hostile inputs (one long line, thousands of names, a cut-off key).

    .venv/bin/python bench/redact.py [--runs 21]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from workmem.redact import redact
from workmem.redact.changes import redact_write
from workmem.root import Workspace

ROW = "| 2026-04-{day:02d}-{n:04d}-agent-{n} | agent-{n} | topic {n} | summary of session {n} |"


def median_ms(fn: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def board_text(rows: int) -> str:
    lines = ["# Memory Index", "", "| Session ID | Agent | Topic | Summary |", "|---|---|---|---|"]
    lines += [ROW.format(day=1 + n % 28, n=n) for n in range(rows)]
    return "\n".join(lines) + "\n"


def write_path(runs: int) -> None:
    print("write path: redact_write on one changed row (ms, median)")
    print(f"{'rows':>6}  {'clean row':>10}  {'row with secret':>16}")
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Workspace(Path(tmp))
        board = workspace.board_file
        board.parent.mkdir(parents=True)
        for rows in (1000, 10_000):
            old = board_text(rows)
            board.write_text(old)
            middle = f"summary of session {rows // 2} |"
            clean = old.replace(middle, f"summary of session {rows // 2}, updated |")
            secret = old.replace(middle, f"pushed with ghp_{'a1B2c3D4e5' * 4} |")
            clean_ms = median_ms(lambda: redact_write(workspace, board, clean), runs)
            secret_ms = median_ms(lambda: redact_write(workspace, board, secret), runs)
            print(f"{rows:>6}  {clean_ms:>10.2f}  {secret_ms:>16.2f}")


def throughput(runs: int) -> None:
    prose = (
        "We decided to keep the board as a markdown table and to verify every write. "
        "The hook reads the transcript tail and injects the snapshot at session start.\n"
    ) * 2000
    dense = (
        "export DB_PASS=Zq8xN2vL5p and token ghp_iS2G8NPRVdD53X83RZJzzzzgEOzdmenCkhvM; "
        "my password is Kettle9-Orchid. postgres://app:hunter2hunter2@db/prod\n"
    ) * 500
    print("redact() throughput (MB/s, median)")
    for name, text in (("clean prose", prose), ("secret-dense", dense)):
        ms = median_ms(lambda text=text: redact(text), max(3, runs // 3))
        print(f"  {name:<13} {len(text) / 1e6:5.2f} MB  {len(text) / 1e6 / (ms / 1000):8.1f} MB/s")


def hostile() -> None:
    cases = {
        "20k names on one line": "password=abcdefgh " * 20_000,
        "5k cut-off keys": "-----BEGIN PRIVATE KEY-----\n" * 5000,
        "mysql x20k, no -p": "mysql " * 20_000,
        "200k-char identifier": "a" * 200_000,
    }
    print("hostile inputs (ms, one run)")
    for name, text in cases.items():
        print(f"  {name:<24} {median_ms(lambda text=text: redact(text), 1):8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    options = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    write_path(options.runs)
    throughput(options.runs)
    hostile()


if __name__ == "__main__":
    main()
