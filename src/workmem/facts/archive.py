"""``memory/archive.md``: where demoted memories go instead of being deleted (seed 004).

Curation, the MEMORY.md line budget and compression of typed files all move text here.
Each move is one ``##`` block with a time stamp and, per origin, a ``###`` heading and the
lines exactly as they were, so the text stays searchable and can be moved back by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import WriteError
from ..files.store import Store
from ..root import Workspace

ARCHIVE_HEADER = (
    "# Archive\n\n"
    "Demoted long-term memories: searchable and recoverable. Curation moves entries here\n"
    "from MEMORY.md's Fading tier and compression moves old history here; nothing is deleted.\n"
)


def archive_file(workspace: Workspace) -> Path:
    return workspace.memory_dir / "archive.md"


def memory_file(workspace: Workspace) -> Path:
    return workspace.root / "MEMORY.md"


def archive_block(stamp: str, source: str, groups: Sequence[tuple[str, list[str]]]) -> str:
    """The text appended for one move: ``groups`` are (origin, lines) pairs."""
    merged: dict[str, list[str]] = {}
    for origin, lines in groups:
        if lines:
            merged.setdefault(origin, []).extend(lines)
    out = [f"## Archived {stamp} ({source})", ""]
    for origin, lines in merged.items():
        while lines and not lines[-1].strip():
            lines = lines[:-1]
        out.extend([f"### From {origin}", "", *lines, ""])
    return "\n".join(out)


def append_archive(store: Store, block: str) -> None:
    """Append ``block`` to archive.md (created with a header) and verify it is there."""
    path = archive_file(store.workspace)

    def change(current: str | None) -> str:
        base = ARCHIVE_HEADER if current is None or not current.strip() else current
        base = base.rstrip("\n") + "\n\n"
        return base + block.rstrip("\n") + "\n"

    def verify(text: str) -> None:
        if block.rstrip("\n") not in text:
            raise WriteError(f"{store.show(path)}: archived text not found after writing")

    store.update(path, change, verify=verify)
