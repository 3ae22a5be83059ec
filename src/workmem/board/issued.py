"""The record of every session ID this memory root has handed out, so none is issued twice.

The board forgets an ID when organize deletes an idle row, and an idle row has no snapshot
or archive folder to remember it by. Yet the ID lives on outside the board: the hooks' map
from a platform's session to its memory session, notes files, an agent's own context. An
ID issued again would join two sessions into one (one's notes merged into the other's
snapshot). So every ID is written here when it is issued, before anyone hears it, and this
record outlives organize and archive.

It sits in ``memory/.workmem/`` beside the platform-session map, the other thing that points
at IDs from outside the files: deleting that folder loses both together, and what is left
(board, snapshots, notes, archive) is still checked by ``start.allocate_id``.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import WriteError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..files.store import Store

RECORD_NAME = "issued-session-ids.txt"
_HEADER = (
    "# Session IDs issued in this memory root, one a line. workmem never issues one of\n"
    "# them again, even after organize or archive removed its row. Keep this file.\n"
)


def record_path(store: Store) -> Path:
    return store.workspace.state_dir / RECORD_NAME


def _ids(text: str) -> set[str]:
    return {line.strip() for line in text.split("\n") if line.strip() and line[:1] != "#"}


def issued_ids(store: Store) -> set[str]:
    """Every ID in the record (one a line; spaces, comments and a missing last newline
    tolerated, since people open this file too)."""
    current = store.read_text(record_path(store))
    return _ids(current[0]) if current else set()


def record_issued(store: Store, session_id: str) -> None:
    """Add ``session_id`` to the record (locked, atomic, verified) before it is reported."""

    def change(text: str | None) -> str:
        body = text if text and text.startswith("#") else _HEADER + (text or "")
        if not body.endswith("\n"):
            body += "\n"
        return body if session_id in _ids(body) else f"{body}{session_id}\n"

    def verify(text: str) -> None:
        if session_id not in _ids(text):
            raise WriteError(f"the record of issued session IDs does not hold {session_id}")

    store.update(record_path(store), change, verify=verify)
