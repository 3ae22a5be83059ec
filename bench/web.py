"""Viewer benchmark: a 10,000-row board and a 2,500-event ledger in pages, and bounded search.

Prints medians of real HTTP requests to a viewer on 127.0.0.1 (the page as a browser gets
it), and of the core search for a 60 KB date-heavy query with the query bounds on and, for
comparison, lifted. Targets: a board or events page under 1 s on a 2-core machine with a
10,000-row board; the 60 KB query in well under a second (it took seconds unbounded).

    .venv/bin/python bench/web.py [--rows 10000] [--events 2500] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the viewer's test helpers: its server and its big lists

from tests.web.util import Client, running, write_big_board, write_big_ledger  # noqa: E402

from workmem.retrieval import bounds  # noqa: E402
from workmem.retrieval.search import search  # noqa: E402
from workmem.root import Workspace  # noqa: E402

DATES = "on May 8, 2023 and last Tuesday 上週二 三天前 2024-03-15 between March 3 and March 10 "


def median_ms(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time of this process (server thread included), ms.

    On a loaded machine the wall time grows with the load; the CPU time much less.
    """
    action()  # warm: imports, the page cache of the file
    wall, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        action()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def get(client: Client, path: str) -> Callable[[], object]:
    return lambda: client.get(path)


BOUNDS = ("MAX_QUERY_CHARS", "MAX_DATE_CHARS", "MAX_DATES", "MAX_TERMS")


def unbounded() -> Callable[[], None]:
    """Lift every query bound (as the code was before them); returns the undo."""
    saved = {name: getattr(bounds, name) for name in BOUNDS}
    for name in BOUNDS:
        setattr(bounds, name, 10**9)

    def undo() -> None:
        for name, value in saved.items():
            setattr(bounds, name, value)

    return undo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=2_500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"viewer benchmark ({os.cpu_count()} cores, load average {load:.1f})")
    with tempfile.TemporaryDirectory(prefix="workmem-bench-web-") as folder:
        root = Path(folder)
        os.environ.update(
            WORKMEM_ROOT=str(root), WORKMEM_EMBEDDER="none", WORKMEM_NOW="2026-05-25 13:18"
        )
        write_big_board(root, args.rows)
        write_big_ledger(root, args.events)
        (root / "memory" / "2023-05-08.md").write_text(
            "# 2023-05-08\n\n### 10:00 Planning\n\nWe planned the March release.\n",
            encoding="utf-8",
        )
        workspace = Workspace(root)
        started = time.perf_counter()
        search(workspace, "first search builds the index", k=1)
        print(
            f"  first search (indexes {args.rows:,} rows, {args.events:,} events): "
            f"{time.perf_counter() - started:.1f} s"
        )
        with running(workspace) as client:
            pages = {
                f"board page 1 of {args.rows:,} rows": "/",
                "board page 50": "/?page=50",
                "board page of 1,000 rows": "/?per_page=1000",
                "board as JSON, one page": "/api/board",
                f"events page 1 of {args.events:,}": "/events",
                "15 KB date-heavy query": "/search?q=" + quote((DATES * 200)[:15_000]),
            }
            for label, path in pages.items():
                size = len(client.get(path).body)
                wall, cpu = median_ms(get(client, path), args.runs)
                print(
                    f"  GET {label:<30} {wall:7.1f} ms wall, {cpu:7.1f} ms CPU (medians)"
                    f"  {size / 1024:,.0f} KiB"
                )
        huge = (DATES * (60_000 // len(DATES) + 1))[:60_000]
        wall, cpu = median_ms(lambda: search(workspace, huge, k=10), args.runs)
        print(f"  search, 60 KB date-heavy query     {wall:7.1f} ms wall, {cpu:7.1f} ms CPU")
        undo = unbounded()
        try:
            wall, cpu = median_ms(lambda: search(workspace, huge, k=10), max(1, args.runs // 2))
        finally:
            undo()
        print(f"  the same with the bounds lifted    {wall:7.1f} ms wall, {cpu:7.1f} ms CPU")


if __name__ == "__main__":
    main()
