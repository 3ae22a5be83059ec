"""Reading the board: list, show, and the doctor's consistency report (seed 001)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import clock
from ..doctor import DoctorReport
from ..errors import FormatError, NotFoundError, UsageError
from ..files.markers import UnfinishedMergeError
from ..root import Workspace
from .context import BoardContext
from .model import ACTIVE, IDLE, STALE, STATUSES, BoardRow, check_session_id
from .snapshot import continues_from

_STATUS_ORDER = {ACTIVE: 0, STALE: 1, IDLE: 2}


def _relevance(row: BoardRow) -> tuple[int, int, str]:
    """Meaningful rows first, idle placeholders last, newest first within each group."""
    placeholder = 1 if row.is_placeholder else 0
    return (placeholder, _STATUS_ORDER.get(row.status, 3), _desc(row.updated_at))


def _desc(stamp: str) -> str:
    # Invert digits so a plain ascending sort puts the newest timestamp first.
    return "".join(chr(ord("9") - ord(c) + ord("0")) if c.isdigit() else c for c in stamp)


def list_sessions(ctx: BoardContext, statuses: list[str] | None = None) -> list[BoardRow]:
    for status in statuses or []:
        if status not in STATUSES:
            raise UsageError(f"unknown status {status!r}: use one of {', '.join(STATUSES)}")
    rows = ctx.index.read().rows()
    if statuses:
        rows = [r for r in rows if r.status in statuses]
    return sorted(rows, key=_relevance)


#: What ``session list`` shows unless asked for more: the sessions still in play.
LISTED_BY_DEFAULT = (ACTIVE, IDLE)


@dataclass
class Listing:
    """The rows to show, and how many of each other status were left out."""

    rows: list[BoardRow]
    hidden: dict[str, int]


def session_listing(
    ctx: BoardContext, statuses: list[str] | None = None, *, show_all: bool = False
) -> Listing:
    """Active and idle rows (meaningful first) and a count of the rest; all with ``show_all``.

    After a year a board holds hundreds of stale rows; listing them all buries the few
    sessions still in play. Asking for a status, or for all, shows exactly that.
    """
    rows = list_sessions(ctx, statuses)
    if statuses or show_all:
        return Listing(rows, {})
    hidden: dict[str, int] = {}
    for row in rows:
        if row.status not in LISTED_BY_DEFAULT:
            hidden[row.status] = hidden.get(row.status, 0) + 1
    return Listing([r for r in rows if r.status in LISTED_BY_DEFAULT], hidden)


@dataclass
class SessionView:
    session_id: str
    row: BoardRow | None
    snapshot: str | None
    archived: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "session_id": self.session_id,
            "row": self.row.to_dict() if self.row else None,
            "snapshot": self.snapshot,
            "archived": self.archived,
        }


def show_session(ctx: BoardContext, session_id: str) -> SessionView:
    check_session_id(session_id)
    row = ctx.index.read().get(session_id)
    if row is not None:
        return SessionView(session_id, row, ctx.snapshot_text(session_id), archived=False)
    folder = ctx.workspace.archived_session_dir(session_id)
    if folder.is_dir():
        session = ctx.store.read_text(folder / "session.md")
        index = ctx.store.read_text(folder / "index.md")
        text = "\n".join(part[0] for part in (index, session) if part)
        return SessionView(session_id, None, text or None, archived=True)
    raise NotFoundError(f"session {session_id} is neither on the board nor archived")


def check_board(workspace: Workspace, report: DoctorReport) -> None:
    """The board's part of ``workmem doctor``; with ``report.fix``, repairs come first
    (an unfinished merge left in the board first of all: its two versions are merged)."""
    if report.fix:
        from ..sync.unfinished import settle, unfinished_files

        if unfinished_files(workspace, ["memory/index.md"]):
            done = settle(workspace, "memory/index.md")
            if done is not None:
                report.fixed(done)
    ctx = BoardContext.open(workspace.root)
    if report.fix:
        from .repair import repair_board

        repair_board(ctx, report)
    board_findings(ctx, report)


def doctor(ctx: BoardContext) -> DoctorReport:
    """Every inconsistency between the board, the snapshots and the archive, without fixing."""
    report = DoctorReport()
    board_findings(ctx, report)
    return report


def board_findings(ctx: BoardContext, report: DoctorReport) -> None:
    """Add the board's inconsistencies (board, snapshots, archive) to ``report``."""
    try:
        rows = ctx.index.read().rows()
    except UnfinishedMergeError as exc:
        report.add("unfinished-merge", None, str(exc))
        return
    except FormatError as exc:
        report.add("malformed-board", None, str(exc))
        return
    report.rows = len(rows)
    try:
        interrupted = ctx.index.pending_intent()
    except UsageError as exc:
        report.add("interrupted-write", None, f"{exc}; workmem doctor --fix removes it")
    else:
        if interrupted is not None:
            files = ", ".join(rel for rel, _ in interrupted.files) or "the board"
            report.add(
                "interrupted-write",
                None,
                f"a command was stopped while writing {files}; the next board command "
                "completes it, or run workmem doctor --fix",
            )
    on_board = {}
    for row in rows:
        if row.session_id in on_board:
            report.add("duplicate-row", row.session_id, "Session ID appears more than once")
        on_board[row.session_id] = row
        try:
            check_session_id(row.session_id)
        except UsageError:
            report.add("invalid-id", row.session_id, "Session ID is not a safe lowercase ID")
            continue
        if row.status not in STATUSES:
            report.add("invalid-status", row.session_id, f"status {row.status!r} is not known")
        for name, stamp in (("Started At", row.started_at), ("Updated At", row.updated_at)):
            try:
                clock.parse_timestamp(stamp)
            except UsageError:
                report.add("invalid-time", row.session_id, f"{name} {stamp!r} is not a time")
        has_file = ctx.has_snapshot(row.session_id)
        if row.status == IDLE and has_file:
            report.add("idle-with-snapshot", row.session_id, "idle row has a session snapshot")
        if row.status in (ACTIVE, STALE) and not has_file:
            report.add("row-without-snapshot", row.session_id, f"{row.status} row has no snapshot")
    archived = (
        {p.name for p in ctx.workspace.archive_dir.iterdir() if p.is_dir()}
        if ctx.workspace.archive_dir.is_dir()
        else set()
    )
    for row in on_board.values():
        for ref in row.references:
            if ref not in on_board:
                where = "archived" if ref in archived else "unknown"
                report.add(
                    "dangling-reference",
                    row.session_id,
                    f"Referenced By lists {ref}, which is {where}",
                )
            elif ctx.has_snapshot(ref) and row.session_id not in continues_from(
                ctx.snapshot_text(ref) or ""
            ):
                report.add(
                    "one-sided-reference",
                    row.session_id,
                    f"Referenced By lists {ref}, but {ref}'s Continues From does not list it",
                )
        if ctx.has_snapshot(row.session_id):
            try:
                sources = continues_from(ctx.snapshot_text(row.session_id) or "")
            except FormatError as exc:
                report.add("unreadable-snapshot", row.session_id, str(exc))
                continue
            for source in sources:
                if source in on_board and row.session_id not in on_board[source].references:
                    report.add(
                        "one-sided-reference",
                        row.session_id,
                        f"Continues From lists {source}, whose Referenced By does not list it",
                    )
                elif source not in on_board and source not in archived:
                    report.add(
                        "dangling-reference",
                        row.session_id,
                        f"Continues From lists {source}, which is unknown",
                    )
    if ctx.workspace.sessions_dir.is_dir():
        for path in sorted(ctx.workspace.sessions_dir.glob("*.md")):
            stem = path.name[: -len(".notes.md")] if path.name.endswith(".notes.md") else path.stem
            if stem not in on_board and stem not in archived:
                report.add(
                    "file-without-row",
                    stem,
                    f"{ctx.store.show(path)} has no row on the board and is not archived",
                )
    for name in sorted(archived):
        if not (ctx.workspace.archive_dir / name / "index.md").is_file():
            report.add("archive-without-index", name, "archive folder has no index.md")
    for leftover in leftover_temp_files(ctx.workspace.memory_dir):
        report.add(
            "leftover-temp",
            None,
            f"{ctx.store.show(leftover)} was left by a writer that died mid-write; the file "
            "beside it is intact, this one can be deleted",
        )


def leftover_temp_files(folder: Path) -> list[Path]:
    """Temp files of ``atomic_write_bytes`` whose writer process no longer exists.

    A writer killed between creating its temp file and renaming it leaves the temp behind
    (the target itself is always whole). Only temps of dead PIDs are listed, so a write in
    progress in another process is never reported.
    """
    from ..files.locks import pid_alive

    found = []
    for path in folder.rglob(".*.tmp") if folder.is_dir() else []:
        if ".workmem" in path.parts:
            continue
        parts = path.name.rsplit(".", 3)  # .<name>.<pid>.<n>.tmp
        if len(parts) == 4 and parts[1].isdigit() and not pid_alive(int(parts[1])):
            found.append(path)
    return sorted(found)


def board_notice(workspace: Workspace) -> str | None:
    """One line for the session start when the board cannot be read, else None.

    The start gives everything else it has; this line tells the agent (and the person) why
    the sessions are missing and that ``workmem doctor`` settles it: an unfinished merge
    is named as one, any other damage with the reader's own words.
    """
    from ..files.store import Store
    from ..files.tables import TableDocument
    from ..i18n import message
    from .model import COLUMNS

    store = Store(workspace, read_only=True)
    path = workspace.board_file
    shown = store.show(path)
    try:
        current = store.read_text(path)
        if current is None or not current[0].strip():
            return None
        TableDocument.parse(current[0], expected_header=COLUMNS, path=shown)
    except UnfinishedMergeError as exc:
        return message(workspace, "board.unfinished_merge", path=shown, line=exc.line or 1)
    except FormatError as exc:
        return message(workspace, "board.needs_doctor", path=shown, problem=_problem(exc, shown))
    return None


def _problem(exc: FormatError, shown: str) -> str:
    """The reader's words without the path prefix the message already carries."""
    text = str(exc)
    for prefix in (f"{shown}:{exc.line}: ", f"{shown}: "):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text
