"""SessionStart (seed 001): the idle row a new session gets, under an ID never used before.

Kept apart from manual registration and update (``lifecycle``), which write snapshots: the
session-start hook runs this on every new session and should compile none of that.
The row is verified on disk before the ID is returned, like every board workflow's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import clock
from .context import BoardContext
from .model import (
    DEFAULT_START_SUMMARY,
    DEFAULT_TOPIC,
    IDLE,
    NO_REFERENCE,
    BoardRow,
    base_session_id,
    start_keywords,
)


@dataclass
class SessionResult:
    """Outcome of a board workflow: the row as verified, and what was written."""

    action: str
    session_id: str
    row: BoardRow | None = None
    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "action": self.action,
            "session_id": self.session_id,
            "row": self.row.to_dict() if self.row else None,
            "files": self.files,
            "notes": self.notes,
        }


def allocate_id(ctx: BoardContext, taken: set[str], agent_name: str) -> str:
    """``YYYY-MM-DD-HHMM-agent`` or the first free ``-2``, ``-3``…; never reused or guessed."""
    base = base_session_id(ctx.now(), agent_name)
    candidate, suffix = base, 1
    while (
        candidate in taken
        or ctx.workspace.snapshot_file(candidate).exists()
        or ctx.workspace.archived_session_dir(candidate).exists()
    ):
        suffix += 1
        candidate = f"{base}-{suffix}"
    return candidate


def start_session(ctx: BoardContext, agent_name: str | None = None) -> SessionResult:
    """SessionStart registration: one idle row with default metadata, no snapshot."""
    name = ctx.agent_name(agent_name)
    now = clock.stamp(ctx.now())
    with ctx.index.transaction() as board:
        session_id = allocate_id(ctx, board.ids(), name)
        row = BoardRow(
            session_id=session_id,
            agent_name=name,
            topic=DEFAULT_TOPIC,
            summary=DEFAULT_START_SUMMARY,
            keywords=start_keywords(ctx.platform),
            status=IDLE,
            referenced_by=NO_REFERENCE,
            started_at=now,
            updated_at=now,
        )
        board.append(row)
    return SessionResult("start", session_id, row, files=[ctx.store.show(ctx.index.path)])
