"""The board side of a continuation: Referenced By, and the sources a change names.

A continuation is written on both sides in one board transaction: ``Continues From`` in
the referencing snapshot, ``Referenced By`` on each source row. Whatever asks for one (the
``continue`` workflow, or an update or registration that brings a ``Continues From``
section) goes through here, so every continuation is checked the same way: the source is a
valid ID, on the board, and not the session itself.
"""

from __future__ import annotations

from ..errors import NotFoundError, UsageError
from ..files.sections import is_placeholder_text
from .context import BoardContext
from .index import BoardEdit
from .model import BoardRow, check_session_id, join_references
from .snapshot import CONTINUES_FROM, SnapshotChange, continues_from

RELEASE_HINT = "to end a continuation use: workmem session release SOURCE --as ID"


def continuation_sources(
    ctx: BoardContext, board: BoardEdit, change: SnapshotChange, current_id: str | None
) -> list[str]:
    """The source IDs a change's Continues From names, each checked; nothing is written.

    An item is a session ID, optionally followed by words ("X (the auth work)"). A status
    marker ("[done] X") is refused: a continuation is ended by a release, which clears
    both sides, never by editing one of them.
    """
    sources: list[str] = []
    for raw in change.items.get(CONTINUES_FROM, []):
        text = raw.strip()
        if text.startswith(("- ", "* ")):
            text = text[2:].strip()
        if not text or is_placeholder_text(text):
            continue
        token = text.strip("`").split()[0].strip("`")
        if token.startswith("["):
            raise UsageError(f"Continues From lists session IDs, got {text!r}; {RELEASE_HINT}")
        check_session_id(token)
        if token == current_id:
            raise UsageError("a session cannot continue from itself")
        if board.get(token) is None:
            raise source_not_found(ctx, token)
        if token not in sources:
            sources.append(token)
    return sources


def source_not_found(ctx: BoardContext, source_id: str) -> NotFoundError:
    archived = ctx.workspace.archived_session_dir(source_id).is_dir()
    hint = " (it is archived)" if archived else ""
    return NotFoundError(f"source session {source_id} is not on the board{hint}")


def add_reference(board: BoardEdit, source_id: str, current_id: str) -> bool:
    """List ``current_id`` in the source row's Referenced By; False when it already was."""
    source = board.require(source_id)
    refs = source.references
    if current_id in refs:
        return False
    source.referenced_by = join_references([*refs, current_id])
    board.put(source)
    return True


def inbound_references(
    ctx: BoardContext, rows: list[BoardRow], snapshots: set[str] | None = None
) -> dict[str, list[str]]:
    """Who references each session: Referenced By, plus Continues From of other snapshots.

    The snapshot side is the seed's fallback for continuations recorded halfway.
    """
    inbound: dict[str, list[str]] = {row.session_id: list(row.references) for row in rows}
    snapshots = ctx.snapshot_ids() if snapshots is None else snapshots
    for row in rows:
        if row.session_id not in snapshots:
            continue
        for source in continues_from(ctx.snapshot_text(row.session_id) or ""):
            refs = inbound.setdefault(source, [])
            if row.session_id not in refs:
                refs.append(row.session_id)
    return inbound
