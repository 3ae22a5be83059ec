"""Continue Memory and Release Reference: the two-sided link between sessions (seed 001).

A continuation is recorded twice, on purpose: ``Continues From`` in the referencing
snapshot (full context) and ``Referenced By`` on the source row (archive protection and
quick lookup). Both sides are written in one board transaction and verified; if either
fails, neither is claimed, and a process killed between the two writes is completed by the
next command (``intent``).
"""

from __future__ import annotations

from .. import clock
from ..errors import ConflictError, UsageError
from .context import BoardContext
from .lifecycle import SessionResult, register_session, update_session
from .model import check_session_id, join_references
from .references import source_not_found
from .snapshot import (
    CONTINUES_FROM,
    CURRENT_CONTEXT,
    SnapshotChange,
    continues_from,
    remove_continues_from,
)


def continue_session(
    ctx: BoardContext, source_id: str, *, as_id: str | None = None, context: str | None = None
) -> SessionResult:
    """Pick up work from ``source_id``; registers the current session first when it has no ID.

    Both sides are written in one board transaction (snapshot first, then the board with
    the current row and the source's Referenced By), then re-read and checked here.
    """
    check_session_id(source_id)
    if as_id is not None:
        check_session_id(as_id)
        if as_id == source_id:
            raise UsageError("a session cannot continue from itself")
    with ctx.index.locked():
        source = ctx.index.read().get(source_id)
        if source is None:
            raise source_not_found(ctx, source_id)
        intro = f"Continuing from {source_id}: {source.topic} — {source.summary}"
        notes: list[str] = []
        if as_id is None:
            result = register_session(
                ctx,
                topic=source.topic,
                context=context or intro,
                sections=[(CONTINUES_FROM, source_id)],
            )
            notes.append(f"registered {result.session_id} first (no Memory Session ID was given)")
        else:
            change = SnapshotChange()
            change.add(CURRENT_CONTEXT, context or intro)
            change.add(CONTINUES_FROM, source_id)
            # Our own one-line intro does not replace a Summary the session already has.
            current = ctx.index.read().get(as_id)
            keep = current.summary if current and current.has_meaningful_summary else None
            result = update_session(ctx, as_id, summary=None if context else keep, change=change)
        current_id = result.session_id
        check_continuation(ctx, current_id, source_id)
    return SessionResult(
        "continue",
        current_id,
        result.row,
        files=[
            ctx.store.show(ctx.workspace.snapshot_file(current_id)),
            ctx.store.show(ctx.index.path),
        ],
        notes=[*notes, f"{source_id} Referenced By now lists {current_id}"],
    )


def check_continuation(ctx: BoardContext, current_id: str, source_id: str) -> None:
    """Re-read both sides; ``ConflictError`` unless each names the other."""
    text = ctx.snapshot_text(current_id) or ""
    if source_id not in continues_from(text):
        raise ConflictError(
            f"continuation incomplete: {current_id}'s snapshot does not list {source_id}"
        )
    source = ctx.index.read().get(source_id)
    if source is None or current_id not in source.references:
        raise ConflictError(
            f"continuation incomplete: {source_id}'s Referenced By does not list {current_id}"
        )


def release_reference(ctx: BoardContext, source_id: str, *, as_id: str) -> SessionResult:
    """Remove ``as_id`` from the source's Referenced By and the source from its Continues From."""
    check_session_id(source_id)
    check_session_id(as_id)
    now = clock.stamp(ctx.now())
    note = f"[resolved] Released reference to {source_id} ({now})"
    notes: list[str] = []
    with ctx.index.transaction() as board:
        current = board.require(as_id)
        source = board.get(source_id)
        if source is not None:
            refs = [r for r in source.references if r != as_id]
            if refs != source.references:
                source.referenced_by = join_references(refs)
                board.put(source)
                notes.append(f"removed {as_id} from {source_id} Referenced By")
        else:
            notes.append(f"{source_id} is not on the board; only the snapshot was changed")
        text = ctx.snapshot_text(as_id)
        if text is not None and source_id in continues_from(text):
            path = ctx.store.show(ctx.workspace.snapshot_file(as_id))
            new_text = remove_continues_from(text, source_id, note, path=path)
            ctx.write_snapshot(as_id, new_text, board)
            notes.append(f"removed {source_id} from {as_id} Continues From")
        if not any(n.startswith("removed") for n in notes):
            raise ConflictError(f"{as_id} does not reference {source_id}; nothing to release")
    files = [ctx.store.show(ctx.index.path)]
    if any(n.endswith("Continues From") for n in notes):
        files.insert(0, ctx.store.show(ctx.workspace.snapshot_file(as_id)))
    return SessionResult("release", as_id, current, files=files, notes=notes)
