"""``workmem merge-driver KIND %O %A %B %P``: what git runs to merge one memory file.

git hands over three temporary files (ancestor, ours, theirs) and the path; the driver
writes the merged text over "ours" and exits 0, or exits 1 when it kept both versions in
the file (git then reports a conflict, but the file holds no markers and every reader
accepts it). The file's own encoding style (BOM, CRLF) is kept, as the writers keep it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import FormatError, UsageError
from ..files.store import atomic_write_bytes, read_bytes
from ..files.text import TextStyle, decode, encode
from . import kinds


@dataclass
class DriverResult:
    clean: bool
    notes: list[str] = field(default_factory=list)


def _read(path: Path, shown: str) -> tuple[str, TextStyle]:
    data = read_bytes(path)
    return decode(data or b"", shown)


def run_driver(kind: str, base: Path, ours: Path, theirs: Path, shown: str) -> DriverResult:
    """Merge the files git gave; the result replaces ``ours``."""
    from .merge import merge_file

    if kind not in kinds.DESCRIPTIONS:
        raise UsageError(f"unknown file kind {kind!r}; known: {', '.join(kinds.DESCRIPTIONS)}")
    try:
        base_text = _read(base, f"{shown} (common ancestor)")[0]
        ours_text, style = _read(ours, f"{shown} (this side)")
        theirs_text = _read(theirs, f"{shown} (other side)")[0]
    except FormatError as exc:
        # Not text we can read (not UTF-8, too large): leave this side's file as it is and
        # let git report the conflict; the other side's version stays in git's index.
        return DriverResult(False, [f"{exc}; left this side's version, resolve by hand"])
    import os

    from .identity import IDS_SETTLED, OURS

    notes: list[str] = []
    renamed: str | None = None  # ``workmem sync`` renamed colliding IDs before its merge
    if not os.environ.get(IDS_SETTLED):
        from .driver_ids import decide

        mapping = decide(shown)
        renamed = OURS if mapping is None else None  # None: decided for the whole merge
        if mapping:
            ours_text, notes, moved = _give_way(kind, shown, ours_text, theirs_text, mapping)
            if moved:
                return _keep(ours, theirs_text, style, notes)
    merged = merge_file(
        kind, base_text, ours_text, theirs_text, shown, origin="the other branch", renamed=renamed
    )
    merged.notes[:0] = notes
    data = encode(merged.text, style)
    if data != read_bytes(ours):
        atomic_write_bytes(ours, data)
    return DriverResult(merged.clean, merged.notes)


def main(kind: str, base: str, ours: str, theirs: str, shown: str) -> int:
    result = run_driver(kind, Path(base), Path(ours), Path(theirs), shown)
    for note in result.notes:
        sys.stderr.write(f"workmem merge: {note}\n")
    return 0 if result.clean else 1


def _give_way(
    kind: str, shown: str, ours: str, theirs: str, mapping: dict[str, str]
) -> tuple[str, list[str], bool]:
    """This branch's text with its colliding IDs renamed; for a snapshot or notes file of a
    renamed session both branches created, this branch's file goes under the new name
    (True: the other branch's is the merge result)."""
    from .driver_ids import session_file
    from .identity import OURS, note, rewrite

    renamed = rewrite(ours, mapping)
    if kind == kinds.BOARD:
        sessions = {k: v for k, v in mapping.items() if not k.startswith("evt-")}
        return renamed, [note(o, n, OURS) for o, n in sessions.items()], False
    if kind == kinds.EVENTS:
        events = {k: v for k, v in mapping.items() if k.startswith("evt-")}
        return renamed, [note(o, n, OURS, "event") for o, n in events.items()], False
    found = session_file(shown, mapping) if kind == kinds.SECTIONS else None
    if found is None or not theirs.strip():
        return renamed, [], False
    old, rel = found
    target = Path.cwd() / rel
    if target.exists():
        return renamed, [], False
    atomic_write_bytes(target, renamed.encode("utf-8"))
    return (
        renamed,
        [
            f"{shown}: session {old} was created on both branches; this branch's file is now "
            f"{rel} (add it to the merge commit: git add {rel})"
        ],
        True,
    )


def _keep(ours: Path, text: str, style: TextStyle, notes: list[str]) -> DriverResult:
    data = encode(text, style)
    if data != read_bytes(ours):
        atomic_write_bytes(ours, data)
    return DriverResult(True, notes)
