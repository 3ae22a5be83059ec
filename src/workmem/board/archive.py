"""Single-session archive (seed 001): a finished session leaves the board, nothing leaves disk.

The row becomes ``memory/archive/<id>/index.md`` and its snapshot moves to ``session.md``
beside it; the sessions it continued from stop listing it in Referenced By; only then does
the row leave the board, all in one board transaction (a failure puts back what was done).
A row without a snapshot that still says something (a topic, a real summary) keeps its
values in an archive entry of its own, without ``session.md``; only a placeholder row (the
seed's idle row with default texts) is deleted outright. Organize's retention rule archives
stale rows through the same function.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field

from .. import clock
from ..errors import ConflictError
from ..files.freetext import neutralize_line
from ..files.tables import format_row
from ..files.text import encode
from .context import BoardContext
from .index import BoardEdit
from .model import BoardRow, check_session_id, join_references
from .references import inbound_references
from .snapshot import continues_from
from .start import SessionResult

NO_SNAPSHOT = "- Session: none (the session had no snapshot; its row is kept above)"


@dataclass
class Archived:
    """What archiving one row did: ``archive`` (an entry under archive/) or ``delete``."""

    action: str
    session_id: str
    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def archive_index(row: BoardRow, archived_at: str, has_session: bool) -> str:
    """The seed's Archive Index Template, filled from the row (every value one safe line)."""
    fields = [
        ("Session ID", row.session_id),
        ("Agent Name", row.agent_name),
        ("Topic", row.topic),
        ("Summary", row.summary),
        ("Keywords", row.keywords),
        ("Original Status", row.status),
        ("Referenced By", row.referenced_by),
        ("Started At", row.started_at),
        ("Updated At", row.updated_at),
        ("Archived At", archived_at),
    ]
    lines = [f"# Archived Session: {row.session_id}", "", "## Metadata", ""]
    lines += [format_row(["Field", "Value"]), "|---|---|"]
    lines += [format_row([name, neutralize_line(value)]) for name, value in fields]
    lines += ["", "## Files", "", "- Session: ./session.md" if has_session else NO_SNAPSHOT]
    return "\n".join(lines) + "\n"


def archive_row(ctx: BoardContext, board: BoardEdit, row: BoardRow) -> Archived:
    """Archive (or, for a placeholder, delete) one row inside ``board``'s transaction.

    The caller has checked that nothing references the row.
    """
    session_id = row.session_id
    shown_board = ctx.store.show(ctx.index.path)
    snapshot_path = ctx.workspace.snapshot_file(session_id)
    has_snapshot = snapshot_path.is_file()
    if not has_snapshot and not row.has_content:
        # Steps 3 and 10 of the seed: a placeholder has nothing to keep.
        board.remove(session_id)
        note = f"no snapshot and only default texts: the row was deleted (was {row.status})"
        return Archived("delete", session_id, [shown_board], [note])
    folder = ctx.workspace.archived_session_dir(session_id)
    if folder.exists():
        raise ConflictError(f"{ctx.store.show(folder)} already exists; nothing was changed")
    sources = continues_from(ctx.snapshot_text(session_id) or "") if has_snapshot else []
    index_file = folder / "index.md"
    moved_to = folder / "session.md"
    # Row changes first, so the transaction's note carries them (see BoardEdit.will_write).
    released = []
    for source_id in sources:
        source = board.get(source_id)
        if source is not None and session_id in source.references:
            source.referenced_by = join_references(
                [r for r in source.references if r != session_id]
            )
            board.put(source)
            released.append(source_id)
    board.remove(session_id)

    def undo_archive() -> None:
        if moved_to.exists() and not snapshot_path.exists():
            try:
                ctx.store.move(moved_to, snapshot_path)
            except Exception:
                return  # keep the archive folder: it holds the only copy
        shutil.rmtree(folder, ignore_errors=True)

    board.on_rollback(undo_archive)
    ctx.store.make_folder(folder)
    text = archive_index(row, clock.stamp(ctx.now()), has_snapshot)
    with ctx.store.lock(index_file):
        board.will_write(index_file, encode(text))
        ctx.store.write_text(index_file, text)
    files = [ctx.store.show(index_file)]
    notes = [f"released reference on {s}" for s in released]
    if has_snapshot:
        with ctx.store.lock(snapshot_path):
            board.will_write(moved_to, ctx.store.read_bytes(snapshot_path) or b"")
            ctx.store.move(snapshot_path, moved_to)
        files.append(ctx.store.show(moved_to))
    else:
        notes.append("no snapshot: the archive keeps the row's values only")
    return Archived("archive", session_id, [*files, shown_board], notes)


def archive_session(ctx: BoardContext, session_id: str) -> SessionResult:
    """Single-session archive: all fourteen steps of the seed, as one transaction."""
    check_session_id(session_id)
    with ctx.index.transaction() as board:
        row = board.require(session_id)
        inbound = inbound_references(ctx, board.rows()).get(session_id, [])
        if inbound:
            raise ConflictError(
                f"{session_id} is still referenced by {', '.join(inbound)}; release those "
                f"references first (workmem session release {session_id} --as ID)"
            )
        done = archive_row(ctx, board, row)
    return SessionResult(done.action, session_id, row, files=done.files, notes=done.notes)
