"""Searches, appends and full rebuilds from several processes at once lose nothing."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from workmem.retrieval.search import search
from workmem.root import Workspace

WRITER = textwrap.dedent(
    """
    import sys
    from datetime import date
    from workmem.files.store import Store
    from workmem.journal.daily import append_entry
    from workmem.root import Workspace
    store = Store(Workspace(__import__("pathlib").Path(sys.argv[1])))
    for n in range(int(sys.argv[2])):
        append_entry(store, date(2026, 5, 24), f"entry {n}", f"zebracode{n} was logged")
    """
)
SEARCHER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from workmem.retrieval.search import reindex, search
    from workmem.root import Workspace
    ws = Workspace(Path(sys.argv[1]))
    for n in range(int(sys.argv[2])):
        if sys.argv[3] == "rebuild" and n % 5 == 0:
            reindex(ws, full=True)
        search(ws, f"zebracode{n} logged")
    """
)


@pytest.mark.slow
def test_parallel_writers_searchers_and_rebuilds(root: Path) -> None:
    (root / "memory").mkdir()
    count = 120
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root), str(count)],
            stderr=subprocess.PIPE,
            text=True,
        )
    ]
    for mode in ("search", "rebuild", "search"):
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", SEARCHER, str(root), str(count), mode],
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    workspace = Workspace(root)
    for n in (0, count // 2, count - 1):
        hits = search(workspace, f"zebracode{n}", k=1)
        assert hits and f"zebracode{n} " in hits[0].text + " "
    total = search(workspace, "logged", k=count + 10)
    assert len({h.id for h in total}) == count
