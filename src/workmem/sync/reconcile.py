"""What a file-by-file merge cannot see: one machine archived a session while another
continued from it.

Archive refuses a referenced session, but the machine that archived it had not yet seen
the reference. The board merge keeps the row (deleted on one side, changed on the other);
the snapshot, untouched on the continuing side, went with the archive. The session is
therefore brought back: its snapshot is copied from ``archive/<id>/session.md`` to
``sessions/<id>.md`` (the archive folder stays as it is; nothing is removed).
"""

from __future__ import annotations

from pathlib import Path

from ..board.model import ACTIVE, STALE, check_session_id
from ..errors import FormatError, UsageError, WriteError
from ..files.store import atomic_write_bytes, read_bytes
from ..files.text import decode
from .merge_tables import parse_board


def restore_archived_rows(tree: Path) -> list[str]:
    """Session IDs whose snapshot was copied back; files under ``tree`` (a memory root)."""
    board = tree / "memory" / "index.md"
    data = read_bytes(board)
    if data is None:
        return []
    try:
        rows = parse_board(decode(data, "memory/index.md")[0], "memory/index.md").records()
        wanted = [r["Session ID"] for r in rows if r["Status"] in (ACTIVE, STALE)]
    except FormatError:
        return []
    restored = []
    for session_id in wanted:
        try:
            check_session_id(session_id)
        except UsageError:
            continue
        snapshot = tree / "memory" / "sessions" / f"{session_id}.md"
        archived = tree / "memory" / "archive" / session_id / "session.md"
        if snapshot.exists() or archived.is_symlink() or not archived.is_file():
            continue
        content = read_bytes(archived)
        if content is None:
            continue
        atomic_write_bytes(snapshot, content)
        if read_bytes(snapshot) != content:
            raise WriteError(f"restoring the snapshot of {session_id} did not verify")
        restored.append(session_id)
    return restored
