"""The sessions of this project as the next session sees them: who worked last, whether each
ended, stopped without ending, or is still running in another window.

A session that ended (its end hook ran) or stopped (a crash, a closed terminal, a usage
limit: no end hook, no activity for a while, or its agent process gone) left work that the
next session may pick up. One that is still running is another agent's work in progress:
the next session hears of it in one line and never takes its plan as its own. "Still
running" is decided from the agent's process where it can be read (gone: stopped for
certain) and otherwise from the last sign of life: the transcript's last write and the
hooks' last record, within ``[handoff] running_minutes`` (default 10).

The sessions come from the hooks' activity records and the board; a board that cannot be
read costs its rows only (``board_problem`` says so).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from .. import clock
from ..root import Workspace
from .activity import Activity

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..board.model import BoardRow
    from .repo_state import RepoState

RUNNING_MINUTES = 10
#: sessions looked at (the most recently active ones): enough for a handoff and its lines,
#: and a start stays as cheap on a board of thousands of rows as on a new one
RECENT = 24


@dataclass
class SessionView:
    session_id: str
    platform: str | None = None
    row: BoardRow | None = None
    activity: Activity | None = None
    transcript: Path | None = None
    started: datetime | None = None
    last_active: datetime | None = None
    ended: bool = False
    running: bool = False
    #: its agent process is known to be gone
    process_gone: bool = False
    cwd: str | None = None

    @property
    def stopped(self) -> bool:
        """Not running and not ended: a crash, a closed window, a usage limit."""
        return not self.running and not self.ended

    @property
    def repo(self) -> RepoState | None:
        from .repo_state import RepoState

        return RepoState.from_dict(self.activity.data.get("repo")) if self.activity else None

    @property
    def branch(self) -> str | None:
        repo = self.repo
        return repo.branch if repo else None

    @property
    def worktree(self) -> str | None:
        repo = self.repo
        return repo.worktree if repo else self.cwd

    @property
    def topic(self) -> str:
        from ..files.freetext import restore

        if self.row is not None and not self.row.has_placeholder_topic:
            return restore(self.row.topic)
        return ""

    @property
    def outcome(self) -> str:
        """What the last save said came of it (the board Summary when the agent wrote one)."""
        from ..files.freetext import restore

        if self.activity is not None and self.activity.text("outcome"):
            return self.activity.text("outcome") or ""
        if self.row is not None and self.row.has_meaningful_summary:
            return restore(self.row.summary)
        return ""

    @property
    def has_work(self) -> bool:
        """Anything to hand over: a transcript, or a save that recorded something."""
        if self.transcript is not None:
            return True
        if self.activity is not None and (
            self.activity.text("outcome") or self.activity.data.get("last_save")
        ):
            return True
        return self.row is not None and self.row.has_content


@dataclass
class Roster:
    sessions: list[SessionView] = field(default_factory=list)
    board_problem: str | None = None

    def others(self, current: str | None) -> list[SessionView]:
        return [s for s in self.sessions if s.session_id != current]


def running_window(workspace: Workspace) -> timedelta:
    from ..config import load_settings

    value = load_settings(workspace).section("handoff").get("running_minutes", RUNNING_MINUTES)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        value = RUNNING_MINUTES
    return timedelta(minutes=value)


def _moment(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        if len(text) == 16 and text[4] == "-" and text[10] == " ":  # the board's own form
            return datetime(
                int(text[:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]), int(text[14:])
            )
        return clock.parse_timestamp(text)
    except ValueError:
        return None


def _file_time(path: Path | None) -> datetime | None:
    from ..transcripts.openclaw_paths import transcript_exists

    if path is None:
        return None
    try:
        if not transcript_exists(path):
            return None
        target = path if path.exists() else path.parent  # an OpenClaw store: the database
        return datetime.fromtimestamp(target.stat().st_mtime).replace(microsecond=0)
    except OSError:
        return None


def _view(activity: Activity | None, row: BoardRow | None, session_id: str) -> SessionView:
    from ..files.oscompat import still_running

    view = SessionView(session_id, row=row, activity=activity)
    times: list[datetime] = []
    if activity is not None:
        view.platform = activity.platform
        view.cwd = activity.text("cwd")
        view.started = _moment(activity.text("started"))
        view.ended = activity.ended is not None
        seen = _moment(activity.last_seen)
        if seen:
            times.append(seen)
        written = _file_time(activity.transcript)
        if written is not None:
            view.transcript = activity.transcript
            times.append(written)
        view.process_gone = still_running(activity.data.get("agent")) is False
    if row is not None:
        updated = _moment(row.updated_at)
        if updated:
            times.append(updated)
        view.started = view.started or _moment(row.started_at)
        if view.platform is None and row.agent_name.endswith("-main-agent"):
            view.platform = row.agent_name[: -len("-main-agent")]
    view.last_active = max(times) if times else None
    return view


def read_roster(workspace: Workspace, *, now: datetime | None = None) -> Roster:
    """Every session of this project, the most recently active first."""
    from . import activity as records

    roster = Roster()
    rows: dict[str, BoardRow] = {}
    try:
        from ..board.index import BoardIndex
        from ..files.store import Store

        store = Store(workspace)
        rows = {r.session_id: r for r in BoardIndex(workspace, store).read().rows()}
    except Exception as exc:  # a broken board costs its rows, never the rest of a start
        roster.board_problem = f"{type(exc).__name__}: {exc}"
    seen: set[str] = set()
    for activity in records.read_recent(workspace, RECENT):
        seen.add(activity.session_id)
        roster.sessions.append(_view(activity, rows.get(activity.session_id), activity.session_id))
    # Rows the hooks never saw (another machine's, a CLI registration): the latest few,
    # by their Updated At (the board's timestamps sort as text).
    unseen = [r for sid, r in rows.items() if sid not in seen and r.status != "idle"]
    unseen.sort(key=lambda r: r.updated_at, reverse=True)
    roster.sessions += [_view(None, row, row.session_id) for row in unseen[:RECENT]]
    moment = now or clock.now()
    window = running_window(workspace)
    for view in roster.sessions:
        recent = view.last_active is not None and moment - view.last_active < window
        view.running = not view.ended and not view.process_gone and recent
    roster.sessions.sort(key=lambda v: v.last_active or datetime.min, reverse=True)
    return roster


def choose_handoff(
    roster: Roster, current: str | None, *, cwd: str | None = None
) -> SessionView | None:
    """The session whose work the next one picks up: the most recent one that is not
    running and has work, in this worktree when one there has any."""
    candidates = [s for s in roster.others(current) if not s.running and s.has_work]
    if cwd:
        here = [s for s in candidates if s.worktree and _same_tree(s.worktree, cwd)]
        if here:
            return here[0]
    return candidates[0] if candidates else None


def _same_tree(worktree: str, cwd: str) -> bool:
    tree, here = Path(worktree), Path(cwd)
    return here == tree or tree in here.parents


def find(roster: Roster, wanted: str) -> SessionView | None:
    """A session by its ID, its platform's own session id, or words of its topic."""
    for view in roster.sessions:
        if wanted in (view.session_id, view.activity and view.activity.text("platform_session_id")):
            return view
    lowered = wanted.casefold()
    for view in roster.sessions:
        if lowered and lowered in view.topic.casefold():
            return view
    return None


def age_words(moment: datetime | None, now: datetime) -> str:
    """'3 min ago', '2.5 h ago', 'yesterday' … for how long ago a session was active."""
    if moment is None:
        return "at an unknown time"
    minutes = max((now - moment).total_seconds() / 60, 0)
    if minutes < 1:
        return "just now"
    if minutes < 90:
        return f"{round(minutes)} min ago"
    hours = minutes / 60
    if hours < 36:
        return f"{hours:.1f} h ago"
    return f"{hours / 24:.1f} days ago"
