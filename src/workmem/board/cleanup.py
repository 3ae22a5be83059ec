"""Organize Memory (seed 001), with an optional retention rule.

Organize deletes idle placeholder rows and marks overdue active rows stale; it never
deletes a row with a snapshot or a reference. The seed never archives during organize; a
board used for a year is mostly stale rows, so ``[board] archive_stale_after_days`` (off
unless set) lets organize archive stale rows whose last update is older than that, by the
archive rules of the design: a referenced row is kept and reported, a row with content is
archived, never deleted. ``dry_run`` reports all of it and writes nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .. import clock
from ..errors import FormatError, UsageError
from .archive import archive_row, archive_session
from .context import BoardContext
from .index import BoardEdit
from .model import ACTIVE, IDLE, STALE, BoardRow
from .references import inbound_references
from .snapshot import SnapshotChange


@dataclass
class OrganizeReport:
    deleted_idle: list[str] = field(default_factory=list)
    marked_stale: list[str] = field(default_factory=list)
    kept_active: list[str] = field(default_factory=list)
    protected: dict[str, list[str]] = field(default_factory=dict)
    inconsistent: dict[str, str] = field(default_factory=dict)
    #: Marked stale on the board, but their snapshot still says active (time limit).
    snapshots_unmarked: list[str] = field(default_factory=list)
    #: Stale rows past ``archive_stale_after_days``, archived (or to be, in a dry run).
    archived: list[str] = field(default_factory=list)
    #: Stale rows past the retention age left for the next organize (time limit).
    archive_deferred: list[str] = field(default_factory=list)
    dry_run: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "dry_run": self.dry_run,
            "snapshots_unmarked": self.snapshots_unmarked,
            "deleted_idle": self.deleted_idle,
            "marked_stale": self.marked_stale,
            "kept_active": self.kept_active,
            "protected": self.protected,
            "inconsistent": self.inconsistent,
            "archived": self.archived,
            "archive_deferred": self.archive_deferred,
        }


#: How long one organize may spend on writes beside the board (marking snapshots stale,
#: archiving; each a locked, verified write of about a millisecond here). The first
#: organize of a big neglected board can have thousands; beyond this the board is still
#: organized, the rest are listed in the report and done at their next update or organize.
SNAPSHOT_MARKING_BUDGET_S = 2.0

__all__ = ["OrganizeReport", "archive_session", "organize"]


@dataclass
class _Plan:
    stale_cutoff: datetime
    archive_cutoff: datetime | None
    write: bool
    deadline: float


def organize(
    ctx: BoardContext,
    stale_days: int | None = None,
    *,
    archive_after_days: int | None = None,
    dry_run: bool = False,
) -> OrganizeReport:
    days = ctx.settings.board.stale_days if stale_days is None else stale_days
    if days < 0:
        raise UsageError("--stale-days must be zero or more")
    keep = (
        ctx.settings.board.archive_stale_after_days
        if archive_after_days is None
        else archive_after_days
    )
    if keep < 0:
        raise UsageError("archive_stale_after_days must be zero (off) or more")
    now = ctx.now()
    plan = _Plan(
        stale_cutoff=now - timedelta(days=days),
        archive_cutoff=now - timedelta(days=keep) if keep else None,
        write=not dry_run,
        deadline=time.monotonic() + SNAPSHOT_MARKING_BUDGET_S,
    )
    report = OrganizeReport(dry_run=dry_run)
    if dry_run:
        with ctx.index.locked():  # a consistent reading; the edits stay in memory
            _organize(ctx, ctx.index.read(), plan, report)
    else:
        with ctx.index.transaction() as board:
            _organize(ctx, board, plan, report)
    return report


def _organize(ctx: BoardContext, board: BoardEdit, plan: _Plan, report: OrganizeReport) -> None:
    rows = board.rows()
    snapshots = ctx.snapshot_ids()
    inbound = inbound_references(ctx, rows, snapshots)
    for row in rows:
        refs = inbound.get(row.session_id, [])
        if refs:
            report.protected[row.session_id] = refs
            continue
        if row.status == IDLE:
            if row.session_id in snapshots:
                report.inconsistent[row.session_id] = (
                    "idle row has a session snapshot; resolve by hand "
                    "(update it to active, or archive it) before organizing deletes it"
                )
            else:
                board.remove(row.session_id)
                report.deleted_idle.append(row.session_id)
        elif row.status == ACTIVE:
            overdue = _older_than(row.updated_at, plan.stale_cutoff)
            meaningful = row.session_id in snapshots or row.has_meaningful_summary
            if overdue and meaningful:
                _mark_stale(ctx, board, row, row.session_id in snapshots, plan, report)
            else:
                report.kept_active.append(row.session_id)
        cutoff = plan.archive_cutoff
        if row.status == STALE and cutoff is not None and _older_than(row.updated_at, cutoff):
            _retire(ctx, board, row, plan, report)


def _mark_stale(
    ctx: BoardContext,
    board: BoardEdit,
    row: BoardRow,
    has_snapshot: bool,
    plan: _Plan,
    report: OrganizeReport,
) -> None:
    row.status = STALE
    board.put(row)  # Updated At stays: it dates the last real work
    report.marked_stale.append(row.session_id)
    if not has_snapshot or not plan.write:
        return
    if time.monotonic() > plan.deadline:
        report.snapshots_unmarked.append(row.session_id)
        return
    problem = _mark_snapshot_stale(ctx, board, row.session_id)
    if problem:
        report.inconsistent[row.session_id] = problem


def _retire(
    ctx: BoardContext, board: BoardEdit, row: BoardRow, plan: _Plan, report: OrganizeReport
) -> None:
    """The retention rule: archive one unreferenced stale row past the retention age."""
    if not row.has_content and not ctx.has_snapshot(row.session_id):
        report.inconsistent[row.session_id] = (
            "stale row with only default texts and no snapshot; archive or delete it by hand"
        )
        return
    if not plan.write:
        report.archived.append(row.session_id)
        return
    if time.monotonic() > plan.deadline:
        report.archive_deferred.append(row.session_id)
        return
    archive_row(ctx, board, row)
    report.archived.append(row.session_id)


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
        ctx.write_snapshot(session_id, marked, board)
    return ""


def _older_than(stamp: str, cutoff: datetime) -> bool:
    try:
        return clock.parse_timestamp(stamp) < cutoff
    except UsageError:
        return False  # an unreadable date is never a reason to change a row
