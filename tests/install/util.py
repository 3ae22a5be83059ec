"""Helpers for the set-up tests: a project and home of their own, a real hook command."""

from __future__ import annotations

import stat
import sys
from pathlib import Path


def tree(folder: Path, *, skip_locks: bool = True) -> dict[str, bytes]:
    """Every file under ``folder`` (links as their target text) -> content, for comparing."""
    found: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if rel.startswith(".git/") or (skip_locks and "/.workmem/locks/" in f"/{rel}"):
            continue
        if path.is_symlink():
            found[rel] = f"-> {path.readlink()}".encode()
        elif path.is_file():
            found[rel] = path.read_bytes()
    return found


def workmem_script(folder: Path, name: str = "workmem") -> Path:
    """An executable ``workmem`` that runs this checkout's workmem: a real hook command."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m workmem "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return script
