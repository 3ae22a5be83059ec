"""Organize Memory and Single-session archive (seed 001).

Organize deletes idle placeholder rows and marks overdue active rows stale; it never
archives and never deletes a row with a snapshot or a reference. Archive moves a finished
session under ``memory/archive/<id>/`` as one transaction: the archive index and the moved
snapshot are written first, the board row is removed last, and any failure puts back
what was already done.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .. import clock
from ..errors import ConflictError, FormatError, UsageError
from ..files.tables import format_row
from .context import BoardContext
from .index import BoardEdit
from .lifecycle import SessionResult
from .model import ACTIVE, IDLE, STALE, BoardRow, check_session_id, join_references
from .snapshot import SnapshotChange, continues_from


@dataclass
class OrganizeReport:
    deleted_idle: list[str] = field(default_factory=list)
    marked_stale: list[str] = field(default_factory=list)
    kept_active: list[str] = field(default_factory=list)
    protected: dict[str, list[str]] = field(default_factory=dict)
    inconsistent: dict[str, str] = field(default_factory=dict)
    #: Marked stale on the board, but their snapshot still says active (time limit).
    snapshots_unmarked: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "snapshots_unmarked": self.snapshots_unmarked,
            "deleted_idle": self.deleted_idle,
            "marked_stale": self.marked_stale,
            "kept_active": self.kept_active,
            "protected": self.protected,
            "inconsistent": self.inconsistent,
        }


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


#: How long one organize may spend marking snapshots stale (each is a locked, verified
#: write, ~0.8 ms here). The first organize of a big neglected board can mark thousands
#: of sessions at once; beyond this the board is still organized, the rest of the
#: snapshots are listed in the report and take their Status at their next update.
SNAPSHOT_MARKING_BUDGET_S = 2.0


def organize(ctx: BoardContext, stale_days: int | None = None) -> OrganizeReport:
    days = ctx.settings.board.stale_days if stale_days is None else stale_days
    if days < 0:
        raise UsageError("--stale-days must be zero or more")
    cutoff = ctx.now() - timedelta(days=days)
    report = OrganizeReport()
    snapshot_deadline = time.monotonic() + SNAPSHOT_MARKING_BUDGET_S
    with ctx.index.transaction() as board:
        rows = board.rows()
        snapshots = ctx.snapshot_ids()
        inbound = inbound_references(ctx, rows, snapshots)
        for row in rows:
            refs = inbound.get(row.session_id, [])
            if row.status == IDLE:
                if refs:
                    report.protected[row.session_id] = refs
                elif row.session_id in snapshots:
                    report.inconsistent[row.session_id] = (
                        "idle row has a session snapshot; resolve by hand "
                        "(update it to active, or archive it) before organizing deletes it"
                    )
                else:
                    board.remove(row.session_id)
                    report.deleted_idle.append(row.session_id)
            elif row.status == ACTIVE:
                if refs:
                    report.protected[row.session_id] = refs
                    continue
                overdue = _older_than(row.updated_at, cutoff)
                meaningful = row.session_id in snapshots or row.has_meaningful_summary
                if overdue and meaningful:
                    row.status = STALE
                    board.put(row)  # Updated At stays: it dates the last real work
                    report.marked_stale.append(row.session_id)
                    if row.session_id not in snapshots:
                        continue
                    if time.monotonic() > snapshot_deadline:
                        report.snapshots_unmarked.append(row.session_id)
                        continue
                    problem = _mark_snapshot_stale(ctx, board, row.session_id)
                    if problem:
                        report.inconsistent[row.session_id] = problem
                else:
                    report.kept_active.append(row.session_id)
            elif refs:
                report.protected[row.session_id] = refs
    return report


def _mark_snapshot_stale(ctx: BoardContext, board: BoardEdit, session_id: str) -> str:
    """Keep the snapshot's Metadata Status in step with its row (Updated At unchanged).

    A snapshot whose Metadata cannot be read does not stop the organize: the row is still
    marked, and the problem is reported instead of written over.
    """
    path = ctx.workspace.snapshot_file(session_id)
    text = ctx.snapshot_text(session_id)
    if text is None:
        return ""
    try:
        marked = SnapshotChange(metadata={"Status": STALE}).apply(text, path=ctx.store.show(path))
    except FormatError as exc:
        return (
            f"marked stale on the board, but its snapshot's Metadata was left as it was "
            f"({exc}); fix the snapshot by hand"
        )
    if marked != text:
        board.on_rollback(ctx.write_snapshot(session_id, marked).restore)
    return ""


def _older_than(stamp: str, cutoff: datetime) -> bool:
    try:
        return clock.parse_timestamp(stamp) < cutoff
    except UsageError:
        return False  # an unreadable date is never a reason to change a row


def _archive_index(row: BoardRow, archived_at: str, has_session: bool) -> str:
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
    lines += [format_row([name, value]) for name, value in fields]
    lines += ["", "## Files", "", "- Session: ./session.md" if has_session else "- None"]
    return "\n".join(lines) + "\n"


def archive_session(ctx: BoardContext, session_id: str) -> SessionResult:
    """Single-session archive: all fourteen steps of the seed, as one transaction."""
    check_session_id(session_id)
    snapshot_path = ctx.workspace.snapshot_file(session_id)
    folder = ctx.workspace.archived_session_dir(session_id)
    with ctx.index.transaction() as board:
        row = board.require(session_id)
        has_snapshot = snapshot_path.is_file()
        inbound = inbound_references(ctx, board.rows()).get(session_id, [])
        if inbound:
            raise ConflictError(
                f"{session_id} is still referenced by {', '.join(inbound)}; release those "
                f"references first (workmem session release {session_id} --as ID)"
            )
        if not has_snapshot:
            # Steps 3 and 10: nothing retained to archive, so the row is deleted instead.
            board.remove(session_id)
            return SessionResult(
                "delete",
                session_id,
                row,
                files=[ctx.store.show(ctx.index.path)],
                notes=[
                    "no snapshot: the row was deleted instead of archived "
                    f"(was {row.status}; topic {row.topic!r}; summary {row.summary!r})"
                ],
            )
        if folder.exists():
            raise ConflictError(f"{ctx.store.show(folder)} already exists; nothing was changed")
        sources = continues_from(ctx.snapshot_text(session_id) or "")
        archived_at = clock.stamp(ctx.now())
        index_file = folder / "index.md"
        moved_to = folder / "session.md"

        def undo_archive() -> None:
            if moved_to.exists() and not snapshot_path.exists():
                try:
                    ctx.store.move(moved_to, snapshot_path)
                except Exception:
                    return  # keep the archive folder: it holds the only copy
            shutil.rmtree(folder, ignore_errors=True)

        board.on_rollback(undo_archive)
        ctx.store.make_folder(folder)
        with ctx.store.lock(index_file):
            ctx.store.write_text(index_file, _archive_index(row, archived_at, True))
        with ctx.store.lock(snapshot_path):
            ctx.store.move(snapshot_path, moved_to)
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
    notes = [f"released reference on {s}" for s in released]
    return SessionResult(
        "archive",
        session_id,
        row,
        files=[
            ctx.store.show(index_file),
            ctx.store.show(moved_to),
            ctx.store.show(ctx.index.path),
        ],
        notes=notes,
    )
