"""What a file-by-file merge cannot see: one file derived from others, and a session
archived on one machine while another worked on it.

The daily-log index is derived from the daily logs (its rows are checked against them), so
after daily logs were merged its rows are written again from the merged logs, through the
journal's own writer, instead of being guessed from the two indexes.


Archive refuses a referenced session, but the machine that archived it had not yet seen
the reference. The board merge keeps the row (deleted on one side, changed on the other);
the snapshot, untouched on the continuing side, went with the archive. The session is
therefore brought back: its snapshot is copied from ``archive/<id>/session.md`` to
``sessions/<id>.md`` (the archive folder stays as it is; nothing is removed).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
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


def daily_log_days(paths: Iterable[str]) -> list[date]:
    """The days of the daily logs among ``paths`` (relative to a memory root)."""
    from ..journal.paths import day_of_log

    days = []
    for rel in paths:
        folder, _, name = rel.rpartition("/")
        day = day_of_log(name) if folder == "memory" else None
        if day is not None:
            days.append(day)
    return sorted(set(days))


def refresh_log_index(root: Path, days: Iterable[date] | None = None) -> bool:
    """Rewrite the index rows of ``days`` (every log when None) from the logs under ``root``;
    True when the index changed."""
    from ..files.store import Store
    from ..journal.daily import list_logs
    from ..journal.log_index import update_days
    from ..root import Workspace

    workspace = Workspace(root)
    wanted = [log.day for log in list_logs(workspace)] if days is None else list(days)
    if not wanted:
        return False
    return update_days(Store(workspace), workspace, wanted).changed
