"""Redaction benchmark: what the write path adds to a write, and how fast text is scanned.

Prints, with the machine's load average (figures on a loaded machine are slower):
- the extra time one board write pays for redaction on boards of 1,000 and 10,000 rows
  (a row changed with and without a secret), measured in process by timing
  ``redact_write`` against the same old and new text the Store would see;
- ``Store.write_text`` of that board and ``Board.update`` on 10,000 rows, each with the
  redaction steps and with them replaced by stand-ins that do nothing (what a write cost
  before), interleaved in one process;
- ``redact()`` throughput on clean prose, a coding session's notes, CJK prose and
  secret-dense text;
- the time of hostile inputs (one long line, thousands of names, cut-off keys, inputs
  built for each pattern to backtrack on).

``--against SRC`` loads another version's ``src/workmem`` beside this one and measures
both in the same process, interleaved (a loaded machine slows both alike):

    .venv/bin/python bench/redact.py [--runs 21] [--against ../old/src] [--only throughput]
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


def _nothing_found(text: str, **_options: object) -> tuple[str, int]:
    return text, 0


def _same_row(values: list[str]) -> list[str]:
    return values


def _texts() -> dict[str, str]:
    prose = (
        "We decided to keep the board as a markdown table and to verify every write. "
        "The hook reads the transcript tail and injects the snapshot at session start.\n"
    ) * 2000
    dense = (
        "export DB_PASS=Zq8xN2vL5p and token ghp_iS2G8NPRVdD53X83RZJzzzzgEOzdmenCkhvM; "
        "my password is Kettle9-Orchid. postgres://app:hunter2hunter2@db/prod\n"
    ) * 500
    session = (  # what a coding session's notes and tool output look like, no secret
        "- 14:02 Ran `pytest -q tests/auth` → 3 failed: test_token_refresh, test_import\n"
        '{"tool": "Edit", "file_path": "/home/dev/src/auth/session.py", "old": "import os"}\n'
        "--- PASS: TestWriteCommitted_BranchField (0.01s)\n"
        "commit 3f9a1c2b7d4e5f60718293a4b5c6d7e8f9012345 Merge: 1a2b3c4 5d6e7f8\n"
        "| 2026-05-25-1318-claude-code | auth | Export the connection settings | done |\n"
    ) * 800
    cjk = (
        "我們決定把看板保留為 markdown 表格，每次寫入都要驗證。密碼規則改成至少十二個字元。"
        "フックはトランスクリプトの末尾を読みます。비밀번호 정책을 바꿨습니다.\n"
    ) * 1500
    return {"clean prose": prose, "session notes": session, "CJK prose": cjk, "secret-dense": dense}


def _load(src: str) -> Callable[[str], tuple[str, int]]:
    """``redact`` of another version of workmem (its ``src`` folder), loaded beside this one
    under another package name, so both run in one process on the same texts."""
    import importlib
    import sys

    holder = Path(tempfile.mkdtemp())
    (holder / "workmem_other").symlink_to(Path(src).resolve() / "workmem")
    sys.path.insert(0, str(holder))
    return importlib.import_module("workmem_other.redact").redact  # type: ignore[no-any-return]


def throughput(runs: int, against: str | None) -> None:
    """MB/s of ``redact()``; with ``against``, that version's in the same runs, interleaved."""
    versions: dict[str, Callable[[str], tuple[str, int]]] = {"this": redact}
    if against:
        versions = {"other": _load(against), "this": redact}
    print(f"redact() throughput (MB/s, median of {max(5, runs)} interleaved runs)")
    print(f"  {'text':<14} {'MB':>5}  " + "  ".join(f"{name:>8}" for name in versions))
    for name, text in _texts().items():
        samples: dict[str, list[float]] = {v: [] for v in versions}
        for _ in range(max(5, runs)):
            for version, run in versions.items():
                start = time.perf_counter()
                run(text)
                samples[version].append(time.perf_counter() - start)
        rates = [len(text) / 1e6 / statistics.median(samples[v]) for v in versions]
        print(f"  {name:<14} {len(text) / 1e6:5.2f}  " + "  ".join(f"{r:8.1f}" for r in rates))


def hostile(against: str | None) -> None:
    """Inputs built to make a pattern backtrack: each must stay roughly linear."""
    cases = {
        "20k names on one line": "password=abcdefgh " * 20_000,
        "5k cut-off keys": "-----BEGIN PRIVATE KEY-----\n" * 5000,
        "mysql x20k, no -p": "mysql " * 20_000,
        "200k-char identifier": "a" * 200_000,
        "20k PuTTY headers": "PuTTY-User-Key-File-3: ssh-rsa\n" * 20_000,
        "sqlplus, long words": "sqlplus " + ("a" * 150 + " ") * 3000 + "/@",
        "50k colon labels": "password: " * 50_000,
        "50k key chains": "token: a: " * 50_000,
        "base64 key runs": "LS0tLS1CRUdJTi" + ("A" * 16 + " ") * 20_000,
        "50k Korean labels": "비밀번호는 abc-" * 50_000,
        "PASS then 200k chars": "PASS: " + "a" * 200_000,
    }
    versions: dict[str, Callable[[str], tuple[str, int]]] = {"this": redact}
    if against:
        versions = {"other": _load(against), "this": redact}
    print("hostile inputs (ms, one run)")
    print(f"  {'input':<24} " + "  ".join(f"{name:>8}" for name in versions))
    for name, text in cases.items():
        times = [median_ms(partial(run, text), 1) for run in versions.values()]
        print(f"  {name:<24} " + "  ".join(f"{t:8.1f}" for t in times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument(
        "--against", metavar="SRC", help="another version's src folder, measured beside this one"
    )
    parser.add_argument(
        "--only", choices=["throughput", "hostile"], help="run one part (the fast ones)"
    )
    options = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if options.only is None:
        write_path(options.runs)
        store_write_ab(options.runs)
        board_update_ab(options.runs)
    if options.only in (None, "throughput"):
        throughput(options.runs, options.against)
    if options.only in (None, "hostile"):
        hostile(options.against)


if __name__ == "__main__":
    main()
