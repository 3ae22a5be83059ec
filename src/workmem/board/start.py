"""SessionStart (seed 001): the idle row a new session gets, under an ID never used before.

Kept apart from manual registration and update (``lifecycle``), which write snapshots: the
session-start hook runs this on every new session and should compile none of that.
The row is verified on disk before the ID is returned, like every board workflow's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import clock
from .context import BoardContext
from .issued import issued_ids, record_issued
from .model import (
    IDLE,
    NO_REFERENCE,
    BoardRow,
    base_session_id,
    default_topic,
    start_keywords,
    start_summary,
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
    """``YYYY-MM-DD-HHMM-agent`` or the first free ``-2``, ``-3``…; never reused or guessed.
    Where several writers share the memory, the writer's tag follows the agent name.

    Free means: not on the board, no snapshot, notes or archive under that name, and never
    issued before (``issued``). The chosen ID is recorded as issued before it is returned;
    callers hold the board lock, so two allocations never pick the same one.
    """
    from ..sync.writers import id_suffix  # "-<writer>" where several writers share memory

    issued = issued_ids(ctx.store)
    base = base_session_id(ctx.now(), agent_name) + id_suffix(ctx.workspace.root, ctx.settings)
    candidate, suffix = base, 1
    while candidate in taken or candidate in issued or _on_disk(ctx, candidate):
        suffix += 1
        candidate = f"{base}-{suffix}"
    record_issued(ctx.store, candidate)
    return candidate


def _on_disk(ctx: BoardContext, session_id: str) -> bool:
    sessions = ctx.workspace.sessions_dir
    return (
        ctx.workspace.snapshot_file(session_id).exists()
        or (sessions / f"{session_id}.notes.md").exists()
        or ctx.workspace.archived_session_dir(session_id).exists()
    )


def start_session(ctx: BoardContext, agent_name: str | None = None) -> SessionResult:
    """SessionStart registration: one idle row with default metadata, no snapshot."""
    name = ctx.agent_name(agent_name)
    now = clock.stamp(ctx.now())
    language = ctx.language()
    with ctx.index.transaction() as board:
        session_id = allocate_id(ctx, board.ids(), name)
        row = BoardRow(
            session_id=session_id,
            agent_name=name,
            topic=default_topic(language),
            summary=start_summary(language),
            keywords=start_keywords(ctx.platform),
            status=IDLE,
            referenced_by=NO_REFERENCE,
            started_at=now,
            updated_at=now,
        )
        board.append(row)
    return SessionResult("start", session_id, row, files=[ctx.store.show(ctx.index.path)])
