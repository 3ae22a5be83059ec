"""Redaction benchmark: what the write path adds to a write, and how fast text is scanned.

Prints, with the machine's load average (figures on a loaded machine are slower):
- the extra time one board write pays for redaction on boards of 1,000 and 10,000 rows
  (a row changed with and without a secret), measured in process by timing
  ``redact_write`` against the same old and new text the Store would see;
- ``Store.write_text`` of that board and ``Board.update`` on 10,000 rows, each with the
  redaction steps and with them replaced by stand-ins that do nothing (what a write cost
  before), interleaved in one process;
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
from functools import partial
from pathlib import Path

from workmem.files.store import Store
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
        store = Store(workspace)
        board = workspace.board_file
        board.parent.mkdir(parents=True)
        for rows in (1000, 10_000):
            old = board_text(rows)
            board.write_text(old)
            middle = f"summary of session {rows // 2} |"
            clean = old.replace(middle, f"summary of session {rows // 2}, updated |")
            secret = old.replace(middle, f"pushed with ghp_{'a1B2c3D4e5' * 4} |")
            clean_ms = median_ms(partial(redact_write, store, board, clean), runs)
            secret_ms = median_ms(partial(redact_write, store, board, secret), runs)
            print(f"{rows:>6}  {clean_ms:>10.2f}  {secret_ms:>16.2f}")


def store_write_ab(runs: int) -> None:
    """``Store.write_text`` of a 10,000-row board (one row changed), with the redaction
    step and with it replaced by the identity, interleaved in one process."""
    import workmem.redact as redact_package

    real = redact_package.redact_write
    samples: dict[str, list[float]] = {"with": [], "without": []}
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Workspace(Path(tmp)))
        board = store.workspace.board_file
        board.parent.mkdir(parents=True)
        old = board_text(10_000)
        board.write_text(old)
        with store.lock(board):
            for n in range(2 * runs):
                mode = ("with", "without")[n % 2]
                _install(real if mode == "with" else _identity)
                text = old.replace(f"session {5000 + n} |", f"session {5000 + n}, again |")
                start = time.perf_counter()
                store.write_text(board, text)
                samples[mode].append(time.perf_counter() - start)
        _install(real)
    with_ms, without_ms = (statistics.median(samples[m]) * 1000 for m in ("with", "without"))
    print("Store.write_text of a 10,000-row board (ms, median of interleaved runs)")
    print(f"  without the redaction step {without_ms:8.2f}")
    print(f"  with it                    {with_ms:8.2f}   (+{with_ms - without_ms:.2f})")


def board_update_ab(runs: int) -> None:
    """``Board.update`` on a 10,000-row board with the redaction step and without it.

    The two are interleaved in one process, so a change in the machine's load falls on
    both alike; "without" replaces the redaction steps (the write path's, the snapshot
    input's and the row check's) by stand-ins that do nothing: what a write cost before.
    """
    import shutil
    import sys

    import workmem.redact as redact_package
    from workmem.board import Board

    sys.path.insert(0, str(Path(__file__).parent))
    from board import build_board  # the board benchmark's own realistic board

    real = (redact_package.redact_write, redact_package.redact, redact_package.stored_row)
    off = (_identity, _nothing_found, _same_row)
    samples: dict[str, list[float]] = {"with": [], "without": []}
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "template"
        template.mkdir()
        active = build_board(template, 10_000)
        work = Path(tmp) / "work"
        os.environ["WORKMEM_ROOT"] = str(work)
        os.environ.setdefault("WORKMEM_NOW", "2026-05-25 13:18")
        for n in range(runs):
            for mode in ("with", "without") if n % 2 else ("without", "with"):
                shutil.rmtree(work, ignore_errors=True)
                shutil.copytree(template, work)
                _install(*(real if mode == "with" else off))
                start = time.perf_counter()
                Board().update(active, sections={"Decisions": "bench"}, summary="bench round")
                samples[mode].append(time.perf_counter() - start)
    _install(*real)
    with_ms, without_ms = (statistics.median(samples[m]) * 1000 for m in ("with", "without"))
    print("Board.update on 10,000 rows, in process (ms, median of interleaved runs)")
    print(f"  without the redaction step {without_ms:8.1f}")
    print(f"  with it                    {with_ms:8.1f}   (+{with_ms - without_ms:.1f})")


def _install(*steps: Callable[..., object]) -> None:
    """Put the redaction steps (or stand-ins that do nothing) where the writers look."""
    import workmem.redact as redact_package

    for name, step in zip(("redact_write", "redact", "stored_row"), steps, strict=False):
        setattr(redact_package, name, step)


def _identity(store: object, path: object, text: str) -> str:
    return text


def _nothing_found(text: str) -> tuple[str, int]:
    return text, 0


def _same_row(values: list[str]) -> list[str]:
    return values


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
        ms = median_ms(partial(redact, text), max(3, runs // 3))
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
        print(f"  {name:<24} {median_ms(partial(redact, text), 1):8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    options = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    write_path(options.runs)
    store_write_ab(options.runs)
    board_update_ab(options.runs)
    throughput(options.runs)
    hostile()


if __name__ == "__main__":
    main()
