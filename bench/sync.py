"""Merge-driver benchmark: what git waits for when two machines' memory meets.

Cases (each side diverged from a common ancestor, as in a real merge):
- board: a 10,000-row board; each side changed 500 rows and added 500 (1,000 rows each),
  with 100 rows changed on both sides;
- daily log: a busy day of 200 session entries; each side appended 100 more;
- events: a 5,000-event ledger; each side added 500 events, numbered as each machine would;
- the session-start hook's look for cloud conflict copies among 10,000 snapshots.

For each: the merge in process (median of runs) and the driver as git runs it, a fresh
``workmem merge-driver`` process (median wall time, and its CPU time, which a loaded
machine does not inflate as much). Target: driver under 1 s.

    .venv/bin/python bench/sync.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from workmem.board.model import COLUMNS
from workmem.files.tables import format_row
from workmem.sync.merge import merge_file

TARGET_S = 1.0


def board_row(n: int, topic: str = "", updated: str = "2026-04-02 09:00") -> str:
    sid = f"2026-04-{1 + n % 28:02d}-{n // 60 % 24:02d}{n % 60:02d}-agent-{n}"
    return format_row(
        [
            sid,
            f"agent-{n % 7}",
            topic or f"topic {n}",
            f"summary of session {n}",
            "k1, k2",
            "active" if n % 3 else "idle",
            "-",
            "2026-04-01 09:00",
            updated,
        ]
    )


def boards(rows: int = 10_000) -> tuple[str, str, str]:
    head = ["# Memory Index", "", format_row(COLUMNS), "|" + "---|" * len(COLUMNS)]
    base = [board_row(n) for n in range(rows)]
    ours, theirs = list(base), list(base)
    for n in range(0, 1000, 2):  # 500 changed on each side; 100 of them on both
        ours[n] = board_row(n, f"ours {n}", "2026-05-01 10:00")
    for n in range(800, 1800, 2):
        theirs[n] = board_row(n, f"theirs {n}", "2026-05-01 11:00")
    ours += [board_row(rows + n, "new on ours") for n in range(500)]
    theirs += [board_row(rows + 500 + n, "new on theirs") for n in range(500)]

    def text(lines: list[str]) -> str:
        return "\n".join(head + lines) + "\n"

    return text(base), text(ours), text(theirs)


def entry(n: int, who: str) -> str:
    hour, minute = 8 + n // 40 % 12, n % 60
    return (
        f"### Session {n} · {hour:02d}:{minute:02d} · {who}-agent\n\n"
        f"<!-- workmem:session-end token={who}{n:06d} key=default -->\n"
        f"**Summary:** work item {n} on {who}\n\n#### Decisions\n- decided {n}\n\n"
        f"#### Resumption note\n> continue {n}\n"
    )


def daily_logs() -> tuple[str, str, str]:
    base = "# 2026-05-25\n\n" + "\n".join(entry(n, "base") for n in range(200))
    ours = base + "\n" + "\n".join(entry(n, "ours") for n in range(200, 300))
    theirs = base + "\n" + "\n".join(entry(n, "theirs") for n in range(200, 300))
    return base, ours, theirs


def ledgers() -> tuple[str, str, str]:
    def event(n: int, who: str) -> dict[str, str]:
        return {
            "id": f"evt-{n:05d}",
            "type": "purchase",
            "text": f"{who} bought item {n}",
            "recorded_at": f"2026-05-{1 + n % 28:02d} 10:00",
        }

    base = [event(n, "base") for n in range(1, 5001)]
    ours = base + [event(n, "ours") for n in range(5001, 5501)]
    theirs = base + [event(n, "theirs") for n in range(5001, 5501)]

    def text(items: list[dict[str, str]]) -> str:
        return json.dumps({"version": 1, "events": items}, indent=2) + "\n"

    return text(base), text(ours), text(theirs)


def median(
    fn: Callable[[], object], runs: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    times = []
    for _ in range(runs):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def driver_wall(
    kind: str, versions: tuple[str, str, str], path: str, runs: int
) -> tuple[float, float]:
    """Median wall time and CPU time of a fresh driver process."""
    times = []
    cpu = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(runs):
            files = []
            for name, text in zip(("base", "ours", "theirs"), versions, strict=True):
                file = Path(folder) / name
                file.write_text(text, encoding="utf-8")
                files.append(str(file))
            command = [sys.executable, "-m", "workmem", "merge-driver", kind, *files, path]
            start, start_cpu = time.perf_counter(), children_cpu()
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            times.append(time.perf_counter() - start)
            cpu.append(children_cpu() - start_cpu)
            if done.returncode != 0:
                raise SystemExit(f"driver failed: {done.stderr}")
    return statistics.median(times), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cases = [
        ("board 10,000 rows, 1,000 diverged each", "board", boards(), "memory/index.md"),
        ("daily log 200 entries + 100 each", "log", daily_logs(), "memory/2026-05-25.md"),
        ("events 5,000 + 500 each", "events", ledgers(), "memory/events.json"),
    ]
    print(f"load average before: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    print(f"{'case':<42} {'in process':>11} {'driver':>9} {'driver CPU':>11}  target")
    for label, kind, versions, path in cases:
        result = merge_file(kind, *versions, path)
        assert result.clean, result.notes
        inproc = median(partial(merge_file, kind, *versions, path), args.runs)
        wall, cpu = driver_wall(kind, versions, path, args.runs)
        verdict = "ok" if wall < TARGET_S else "OVER"
        times = f"{inproc * 1000:>8.0f} ms {wall * 1000:>6.0f} ms {cpu * 1000:>8.0f} ms"
        print(f"{label:<42} {times}  <{TARGET_S:.0f} s {verdict}")
    board = merge_file("board", *boards(), "memory/index.md").text
    print(f"merged board rows: {board.count(chr(10)) - 4:,} (10,000 + 500 + 500 new)")
    print(f"session-start conflict-copy scan, 10,000 snapshots: {copy_scan(args.runs):.1f} ms")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def copy_scan(runs: int) -> float:
    """What the session-start hook adds: looking for conflict copies in a big memory folder."""
    from workmem.root import Workspace
    from workmem.sync.copies import copies_notice

    with tempfile.TemporaryDirectory() as folder:
        sessions = Path(folder) / "memory" / "sessions"
        sessions.mkdir(parents=True)
        for n in range(10_000):
            (sessions / f"2026-04-01-0900-agent-{n}.md").write_text("x")
        workspace = Workspace(Path(folder))
        return median(partial(copies_notice, workspace), runs) * 1000


if __name__ == "__main__":
    main()
