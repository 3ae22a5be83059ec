"""Organize Memory (seed 001), with an optional retention rule.

Organize deletes idle placeholder rows and marks overdue active rows stale; it never
deletes a row with a snapshot or a reference, nor a session that is still running (the
caller's own, or one whose row, hooks or transcript were active lately: ``running``); a
running session is not marked stale or archived either. The seed never archives during organize; a
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
from ..errors import ConflictError, FormatError, UsageError, WriteError
from .archive import archive_row, archive_session
from .context import BoardContext
from .index import BoardEdit
from .model import ACTIVE, IDLE, STALE
from .references import inbound_references
from .snapshot import SnapshotChange


@dataclass
class OrganizeReport:
    deleted_idle: list[str] = field(default_factory=list)
    marked_stale: list[str] = field(default_factory=list)
    kept_active: list[str] = field(default_factory=list)
    #: Still running (the caller's own, or active lately): kept as they are, and why.
    kept_running: dict[str, str] = field(default_factory=dict)
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
            "kept_running": self.kept_running,
            "protected": self.protected,
            "inconsistent": self.inconsistent,
            "archived": self.archived,
            "archive_deferred": self.archive_deferred,
        }


#: How long one organize may spend on writes beside the board (marking snapshots stale,
#: archiving; each a few locked, verified writes). The first organize of a big neglected
#: board can have thousands; beyond this the board is still organized, the rest are listed
#: in the report and done at their next update or the next organize.
SNAPSHOT_MARKING_BUDGET_S = 2.0

__all__ = ["OrganizeReport", "archive_session", "organize"]


@dataclass
class _Plan:
    stale_cutoff: datetime
    archive_cutoff: datetime | None
    #: stale rows past the retention age, unreferenced: archived after the row changes
    to_archive: list[str] = field(default_factory=list)
    #: rows marked stale whose snapshot says so too once the board is written
    to_mark: list[str] = field(default_factory=list)
    #: the caller's own session, never swept
    current: str | None = None


def organize(
    ctx: BoardContext,
    stale_days: int | None = None,
    *,
    archive_after_days: int | None = None,
    dry_run: bool = False,
    current: str | None = None,
) -> OrganizeReport:
    """Delete idle rows, mark overdue active rows stale, then apply the retention rule.

    ``current`` is the session asking (its row is kept even while it is an idle
    placeholder); sessions still running are kept whatever their status (``running``).

    All under the board lock, in three steps that each leave a consistent board: the row
    changes in one transaction; then each stale row's snapshot Metadata (a kill here
    leaves a snapshot saying active under a stale row, which its next update corrects);
    then one archive transaction per retired row. ``dry_run`` does the first step in
    memory only and writes nothing.
    """
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
        current=current,
    )
    report = OrganizeReport(dry_run=dry_run)
    with ctx.index.locked():
        if dry_run:
            _plan_rows(ctx, ctx.index.read(), plan, report)  # edits stay in memory
            report.archived = plan.to_archive
            return report
        with ctx.index.transaction() as board:
            _plan_rows(ctx, board, plan, report)
        deadline = time.monotonic() + SNAPSHOT_MARKING_BUDGET_S
        for session_id in plan.to_mark:
            if time.monotonic() > deadline:
                report.snapshots_unmarked.append(session_id)
                continue
            problem = _mark_snapshot_stale(ctx, session_id)
            if problem:
                report.inconsistent[session_id] = problem
        for session_id in plan.to_archive:
            if time.monotonic() > deadline:
                report.archive_deferred.append(session_id)
                continue
            try:
                with ctx.index.transaction() as board:
                    archive_row(ctx, board, board.require(session_id))
            except (ConflictError, WriteError) as exc:  # rolled back; the others go on
                report.inconsistent[session_id] = f"not archived: {exc}"
                continue
            report.archived.append(session_id)
    return report


def _plan_rows(ctx: BoardContext, board: BoardEdit, plan: _Plan, report: OrganizeReport) -> None:
    """The row changes of organize, made on ``board``; what follows them goes in ``plan``."""
    from .running import running_sessions

    rows = board.rows()
    snapshots = ctx.snapshot_ids()
    inbound = inbound_references(ctx, rows, snapshots)
    running = running_sessions(ctx, rows, current=plan.current)
    for row in rows:
        refs = inbound.get(row.session_id, [])
        if refs:
            report.protected[row.session_id] = refs
            continue
        if row.session_id in running:
            report.kept_running[row.session_id] = running[row.session_id]
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
            if overdue and (row.session_id in snapshots or row.has_meaningful_summary):
                row.status = STALE
                board.put(row)  # Updated At stays: it dates the last real work
                report.marked_stale.append(row.session_id)
                if row.session_id in snapshots:
                    plan.to_mark.append(row.session_id)
            else:
                report.kept_active.append(row.session_id)
        cutoff = plan.archive_cutoff
        if row.status == STALE and cutoff is not None and _older_than(row.updated_at, cutoff):
            if row.has_content or row.session_id in snapshots:
                plan.to_archive.append(row.session_id)
            else:
                report.inconsistent[row.session_id] = (
                    "stale row with only default texts and no snapshot; "
                    "archive or delete it by hand"
                )


def _mark_snapshot_stale(ctx: BoardContext, session_id: str) -> str:
    """Keep the snapshot's Metadata Status in step with its row (Updated At unchanged).

    Runs under the board lock, after the board says stale. A snapshot whose Metadata
    cannot be read does not stop the organize: the problem is reported, not written over.
    """
    path = ctx.workspace.snapshot_file(session_id)
    with ctx.store.lock(path):
        current = ctx.store.read_text(path)
        if current is None:
            return ""
        text, style = current
        try:
            marked = SnapshotChange(metadata={"Status": STALE}).apply(
                text, path=ctx.store.show(path)
            )
        except FormatError as exc:
            return (
                f"marked stale on the board, but its snapshot's Metadata was left as it was "
                f"({exc}); fix the snapshot by hand"
            )
        if marked != text:
            ctx.store.write_text(path, marked, style)
    return ""


def _older_than(stamp: str, cutoff: datetime) -> bool:
    try:
        return clock.parse_timestamp(stamp) < cutoff
    except UsageError:
        return False  # an unreadable date is never a reason to change a row
