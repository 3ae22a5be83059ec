"""Registration and update: SessionStart, Manual Registration and Session Update (seed 001).

Each workflow writes, re-reads and verifies before it returns; the Session ID is reported
only after the row is verified on disk. When the second of two writes fails, the first is
taken back, so a failed update never leaves a snapshot that the board does not match.
SessionStart itself lives in ``start`` (it writes no snapshot, and runs in a hook on every
new session); it is re-exported here with the rest of the lifecycle.
"""

from __future__ import annotations

import re

from .. import clock
from ..errors import FormatError, UsageError
from ..i18n.placeholders import is_summary
from .context import BoardContext
from .index import BoardEdit
from .model import (
    ACTIVE,
    IDLE,
    NO_REFERENCE,
    STATUSES,
    BoardRow,
    check_session_id,
    default_topic,
    manual_keywords,
    manual_summary,
)
from .references import add_reference, continuation_sources
from .snapshot import CURRENT_CONTEXT, SnapshotChange, continues_from, render_template
from .start import SessionResult, allocate_id, start_session

# ASCII punctuation ends a sentence only before a space (so "CLAUDE.md" stays whole).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")


def summary_from(text: str, limit: int = 200) -> str:
    """One or two sentences of a context paragraph, for the board's Summary column;
    redacted before its sentences are picked and cut."""
    from ..files.freetext import redacted, shorten

    lines = (line.strip().lstrip("-*").strip() for line in redacted(text).splitlines())
    flat = " ".join(" ".join(line for line in lines if line).split())
    sentences = [s for s in _SENTENCE_END.split(flat) if s]
    first = sentences[:2]
    summary = (
        "".join(
            part if i == 0 or first[i - 1][-1:] in "。！？" else " " + part
            for i, part in enumerate(first)
        )
        or flat
    )
    return shorten(summary, limit)


def register_session(
    ctx: BoardContext,
    *,
    topic: str | None = None,
    summary: str | None = None,
    keywords: str | None = None,
    context: str | None = None,
    sections: list[tuple[str, str]] | None = None,
    agent_name: str | None = None,
) -> SessionResult:
    """Manual registration: a new active row and its snapshot, both verified.

    A ``Continues From`` section makes it a continuation: each source is checked and its
    Referenced By lists the new session, in the same transaction.
    """
    name = ctx.agent_name(agent_name)
    now = clock.stamp(ctx.now())
    language = ctx.language()
    change = SnapshotChange()
    if context:
        change.add(CURRENT_CONTEXT, context)
    for section, text in sections or []:
        change.add(section, text)
    fallback = manual_summary(language)
    if summary is None:
        summary = summary_from(context) if context else fallback
    if CURRENT_CONTEXT not in change.prose and summary != fallback:
        change.add(CURRENT_CONTEXT, summary)
    with ctx.index.transaction() as board:
        sources = continuation_sources(ctx, board, change, None)
        session_id = allocate_id(ctx, board.ids(), name)
        row = BoardRow(
            session_id=session_id,
            agent_name=name,
            topic=(topic or "").strip() or default_topic(language),
            summary=summary,
            keywords=keywords or manual_keywords(ctx.platform),
            status=ACTIVE,
            referenced_by=NO_REFERENCE,
            started_at=now,
            updated_at=now,
        )
        board.append(row)
        change.metadata = _metadata(row)
        path = ctx.workspace.snapshot_file(session_id)
        template = render_template(_metadata(row), language)
        text = change.apply(template, path=ctx.store.show(path))
        notes = _link(board, session_id, sources, text, ctx.store.show(path))
        ctx.write_snapshot(session_id, text, board)
    return SessionResult(
        "register",
        session_id,
        row,
        files=[ctx.store.show(path), ctx.store.show(ctx.index.path)],
        notes=notes,
    )


def _link(board: BoardEdit, current_id: str, sources: list[str], text: str, path: str) -> list[str]:
    """Referenced By on every source, once the new snapshot text is known to list them all."""
    listed = continues_from(text)
    missing = [s for s in sources if s not in listed]
    if missing:
        raise FormatError(
            f"the snapshot would not list {', '.join(missing)} under Continues From; "
            "nothing was written",
            path=path,
        )
    return [
        f"{source} Referenced By now lists {current_id}"
        for source in sources
        if add_reference(board, source, current_id)
    ]


def _metadata(row: BoardRow) -> dict[str, str]:
    return {
        "Session ID": row.session_id,
        "Agent Name": row.agent_name,
        "Topic": row.topic,
        "Status": row.status,
        "Started At": row.started_at,
        "Updated At": row.updated_at,
    }


def update_session(
    ctx: BoardContext,
    session_id: str,
    *,
    topic: str | None = None,
    summary: str | None = None,
    keywords: str | None = None,
    status: str | None = None,
    change: SnapshotChange | None = None,
) -> SessionResult:
    """Session Update: merge the snapshot (create it if missing), then update the row."""
    check_session_id(session_id)
    if status is not None and status not in STATUSES:
        raise UsageError(f"unknown status {status!r}: use one of {', '.join(STATUSES)}")
    if status == IDLE:
        raise UsageError("an updated session has a snapshot, so it cannot be idle; use active")
    change = change or SnapshotChange()
    now = clock.stamp(ctx.now())
    with ctx.index.transaction() as board:
        row = board.require(session_id)
        sources = continuation_sources(ctx, board, change, session_id)
        context = "\n".join(change.prose.get(CURRENT_CONTEXT, []))
        if summary is None and context:
            # The row follows the snapshot: new Current Context gives a new Summary.
            summary = summary_from(context) or None
        # A placeholder ("Registered when the session started …") says nothing of the
        # work: it stays on the row and never becomes the snapshot's context.
        if summary is not None and CURRENT_CONTEXT not in change.prose and not is_summary(summary):
            change.add(CURRENT_CONTEXT, summary)
        row.topic = topic.strip() if topic and topic.strip() else row.topic
        row.summary = summary if summary is not None else row.summary
        row.keywords = keywords if keywords is not None else row.keywords
        row.status = status or ACTIVE
        row.updated_at = now
        board.put(row)
        change.metadata = _metadata(row)
        path = ctx.workspace.snapshot_file(session_id)
        existing = ctx.snapshot_text(session_id)
        base = existing
        if base is None:
            base = render_template(_metadata(row), ctx.language())
        text = change.apply(base, path=ctx.store.show(path))
        notes = _link(board, session_id, sources, text, ctx.store.show(path))
        ctx.write_snapshot(session_id, text, board)
    if existing is None:
        notes.insert(0, "snapshot created (none existed)")
    return SessionResult(
        "update",
        session_id,
        row,
        files=[ctx.store.show(path), ctx.store.show(ctx.index.path)],
        notes=notes,
    )


__all__ = [
    "SessionResult",
    "allocate_id",
    "register_session",
    "start_session",
    "summary_from",
    "update_session",
]
