"""Which sessions on the board are still running: organize never deletes one.

Seed 001's organize deletes every idle row, on the premise that an idle row is a chat
nobody is in any more. A chat whose agent is still in it is not one: deleting its row makes
its next save register a second session, and its hooks look for a row that is gone. So a
session counts as running, and organize keeps it, when

* it is the caller's own (the session that asked to organize), whatever its age;
* its row was started or updated within ``[board] running_minutes`` (default 120;
  0 spares the caller's own session only);
* the hooks saw it within that time: a platform session mapped to it, its activity
  record's last sign of life (``continuity.activity``), or its transcript written (the
  agent is still talking in it);
* its agent's process is alive (the activity record names it), however long it has been
  quiet: a chat left open over lunch is still open. A session that ended is not running.

Looking costs one read of the hooks' map, the activity records of the most recently active
sessions, and one ``stat`` per transcript; no transcript is opened.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from .. import clock
from ..errors import UsageError
from .context import BoardContext
from .model import BoardRow

#: why a session counts as running, as organize reports it
CALLER, RECENT_ROW, RECENT_HOOK, RECENT_TRANSCRIPT, AGENT_ALIVE = (
    "the caller's own session",
    "started or updated lately",
    "its hooks ran lately",
    "its transcript was written lately",
    "its agent is still running",
)
#: activity records read (the most recently written first): more than run at once
ACTIVITY_RECORDS = 64


def _at(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    try:
        return clock.parse_timestamp(stamp)
    except UsageError:
        return None


def _written_at(transcript: str) -> datetime | None:
    """When a transcript was last written. An OpenClaw session is named
    ``<database>/<session id>``: the database file's time stands in for it."""
    from ..files.oscompat import outside_path

    path = Path(outside_path(transcript))
    for candidate in (path, path.parent):
        try:
            if candidate.is_file():
                return datetime.fromtimestamp(candidate.stat().st_mtime)
        except (OSError, ValueError):
            continue
    return None


def running_sessions(
    ctx: BoardContext,
    rows: list[BoardRow],
    *,
    current: str | None = None,
    minutes: int | None = None,
) -> dict[str, str]:
    """Session ID -> why it is still running, for the idle and active ``rows``."""
    window = ctx.settings.board.running_minutes if minutes is None else minutes
    if window < 0:
        raise UsageError("[board] running_minutes must be zero or more")
    now = ctx.now()
    since = now - timedelta(minutes=window)
    wanted = {row.session_id: row for row in rows if row.status in ("idle", "active")}
    found: dict[str, str] = {}
    if current and current in wanted:
        found[current] = CALLER
    if window == 0:  # set to 0: only the caller's own session is spared
        return found
    for sid, row in wanted.items():
        if sid in found:
            continue
        latest = max((t for t in (_at(row.started_at), _at(row.updated_at)) if t), default=None)
        if latest is not None and latest >= since:
            found[sid] = RECENT_ROW
    for sid, why in _from_activity(ctx, wanted, found, since).items():
        found[sid] = why
    from ..hooks.session_map import entries

    for mapped in entries(ctx.store):
        sid = mapped.memory_session_id
        if sid not in wanted or sid in found:
            continue
        hooked = _at(mapped.updated)
        if hooked is not None and hooked >= since:
            found[sid] = RECENT_HOOK
            continue
        written = _written_at(mapped.transcript) if mapped.transcript else None
        # A transcript's time is the machine's clock; ``now`` may be pinned (tests), so
        # a time in the future of ``now`` counts as recent too.
        if written is not None and written >= since:
            found[sid] = RECENT_TRANSCRIPT
    return found


def _from_activity(
    ctx: BoardContext, wanted: dict[str, BoardRow], found: dict[str, str], since: datetime
) -> dict[str, str]:
    """What the sessions' own hooks recorded: the last sign of life, the transcript, the
    agent's process (alive: running however quiet; an ended session is not)."""
    from ..continuity.activity import read_recent
    from ..files.oscompat import still_running

    running: dict[str, str] = {}
    for record in read_recent(ctx.workspace, ACTIVITY_RECORDS):
        sid = record.session_id
        if sid not in wanted or sid in found or record.ended:
            continue
        if still_running(record.data.get("agent")):
            running[sid] = AGENT_ALIVE
            continue
        seen = _at(record.last_seen)
        if seen is not None and seen >= since:
            running[sid] = RECENT_HOOK
            continue
        transcript = record.text("transcript")
        written = _written_at(transcript) if transcript else None
        if written is not None and written >= since:
            running[sid] = RECENT_TRANSCRIPT
    return running
