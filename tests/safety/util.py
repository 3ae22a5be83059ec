"""Running workmem as a real process, and taking a picture of a folder to compare."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
NOW = "2026-05-25 13:18"


def workmem(
    *args: str,
    root: Path | None = None,
    cwd: Path | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m workmem ARGS`` in its own process, with a pinned clock and platform."""
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("WORKMEM_ROOT", "WORKMEM_SESSION_ID", "WORKMEM_AGENT_NAME")
    }
    environ.update(
        {
            "PYTHONPATH": str(SRC),
            "WORKMEM_NOW": NOW,
            "WORKMEM_PLATFORM": "cursor",
            "WORKMEM_EMBEDDER": "none",
        }
    )
    if root is not None:
        environ["WORKMEM_ROOT"] = str(root)
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "workmem", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environ,
        timeout=120,
    )


Entry = tuple[str, bytes | str, int]


def snapshot(folder: Path, *, skip: tuple[str, ...] = ()) -> dict[str, Entry]:
    """Every entry under ``folder``: kind, content (or link target) and mtime, so a rewrite
    with the same bytes shows too. ``skip``: relative path prefixes left out."""
    found: dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            rel = path.relative_to(folder).as_posix()
            if any(rel == s or rel.startswith(s + "/") for s in skip):
                continue
            info = path.lstat()
            if path.is_symlink():
                found[rel] = ("link", str(path.readlink()), 0)
            elif path.is_dir():
                found[rel] = ("dir", "", 0)
            else:
                found[rel] = ("file", path.read_bytes(), info.st_mtime_ns)
    return found


def changes(before: dict[str, Entry], after: dict[str, Entry]) -> list[str]:
    """What differs, one line each ("+ new", "- gone", "~ changed")."""
    lines = [f"+ {k}" for k in sorted(after.keys() - before.keys())]
    lines += [f"- {k}" for k in sorted(before.keys() - after.keys())]
    lines += [f"~ {k}" for k in sorted(before.keys() & after.keys()) if before[k] != after[k]]
    return lines


#: The derived search index: the one thing a read (a search) may create or change.
DERIVED_INDEX = (
    "memory/.workmem/search.sqlite",
    "memory/.workmem/search.sqlite-journal",
    "memory/.workmem/locks/search-index.lock",
)
