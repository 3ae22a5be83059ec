"""The one document an agent is given: at a session start, after a compaction, at a handoff.

Everything a session can be told about its project lives in several parts (the board,
snapshots, running notes, the relay snapshot, the journal, long-term memories, the
transcripts the hooks saw). Glued one after another they repeat the same request four
times and run past any budget; here they are one document, each fact once, always in the
same order, so a reader learns it once:

1. where the work stands: the session whose work this one picks up (after a compaction,
   its own) with its outcome, plan, request, files, decisions, errors, last reply,
   commands and the repository's state, then one line for each other session (one still
   running in another window is named as such and its plan is never shown as this one's);
2. long-term memory: the user's and feedback memories in their own words, MEMORY.md's
   ``## Active`` entries, the index of the rest, expired and stale ones marked;
3. how to use memory: where the files are, how to search them and record a decision.

Each part fails alone (a broken board still gives the rest, with one line saying so), and
the whole stays within its budget (``[hooks] start_tokens``, default 1,200;
``resume_tokens``, default 2,000; ``handoff_tokens``, default 2,000), by a count at or
above the real tokenizer's. What did not fit is named, with the file that holds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .. import clock
from ..root import Workspace
from .fit import Part, compose_within, dedupe

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .roster import Roster, SessionView
    from .work import Sources

START, RESUME, HANDOFF = "start", "resume", "handoff"
DEFAULT_BUDGETS = {START: 1200, RESUME: 2000, HANDOFF: 2000}
_SETTING = {START: "start_tokens", RESUME: "resume_tokens", HANDOFF: "handoff_tokens"}
#: other sessions named in one line each
OTHERS_SHOWN = 4
USING_MEMORY = [
    "- Files: MEMORY.md (long-term), memory/index.md (the session board), "
    "memory/sessions/ (each session's snapshot and notes), memory/YYYY-MM-DD.md (daily logs).",
    '- `workmem search "…"` finds past work, `workmem handoff` shows the last session in full, '
    '`workmem note decision "…"` records a decision (also MCP tools when connected).',
]
WELCOME = [
    "No earlier session is recorded in this project. workmem keeps this one as you work: "
    "its plan, requests, files, decisions and outcome are saved at each turn's end, before "
    "a compaction and at the end, and the next session, in any agent, starts from them.",
]


@dataclass
class Briefing:
    text: str
    tokens: int
    kind: str
    #: the session whose work is shown (its own after a compaction)
    session_shown: str | None = None
    running: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    shortened: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


def budget_for(workspace: Workspace, kind: str) -> int:
    from ..config import load_settings

    value = load_settings(workspace).section("hooks").get(_SETTING[kind], DEFAULT_BUDGETS[kind])
    if isinstance(value, bool) or not isinstance(value, int) or value < 200:
        return DEFAULT_BUDGETS[kind]
    return value


def _platform_name(platform: str | None) -> str:
    from ..transcripts.naming import DISPLAY_NAMES

    return DISPLAY_NAMES.get(platform or "", platform or "an agent")


def _hhmm(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M") if moment else "?"


def session_line(view: SessionView, now: datetime) -> str:
    """One line naming another session: agent, ID, topic, state, outcome."""
    from ..files.shorten import clip_words
    from .roster import age_words

    who = f"{_platform_name(view.platform)} session `{view.session_id}`"
    topic = f" (“{clip_words(view.topic, 70)}”)" if view.topic else ""
    seen = age_words(view.last_active, now)
    if view.running:
        state = f"running now in another window, last active {seen}: its work is its own"
    elif view.ended:
        state = f"ended, last active {seen}"
    else:
        state = f"stopped without ending, last active {seen}"
    outcome = f". {clip_words(view.outcome, 160)}" if view.outcome and not view.running else ""
    branch = f" on branch {view.branch}" if view.branch else ""
    return f"- {who}{topic}{branch}: {state}{outcome}"


def _intro(view: SessionView, src: Sources, now: datetime) -> list[str]:
    """Whose work this is, how long ago, whether it ended, and what came of it."""
    from .account_text import headline
    from .roster import age_words

    who = f"{_platform_name(view.platform)} session `{view.session_id}`"
    title = f" (“{view.topic}”)" if view.topic else ""
    span = f"{_hhmm(view.started)} to {_hhmm(view.last_active)}"
    if view.ended:
        state = f"it ended {age_words(view.last_active, now)}"
    else:
        state = (
            f"it stopped without ending {age_words(view.last_active, now)} (a crash, a closed "
            "window or a usage limit): its work is yours to pick up if the user goes on with it"
        )
    lines = [f"The last session: {who}{title}, {span}; {state}."]
    # Told from the transcript beside the work it shows; the last save's words stand in
    # only where the transcript could not be read.
    if src.account is not None:
        outcome = headline(src.account, beside_work=True) if not src.account.empty else ""
    else:
        outcome = view.outcome
    if outcome:
        lines.append(f"Outcome: {outcome}")
    return lines


def _other_lines(roster: Roster | None, shown: str | None, current: str | None) -> list[str]:
    if roster is None:
        return []
    now = clock.now()
    others = [s for s in roster.others(current) if s.session_id != shown]
    running = [s for s in others if s.running]
    rest = [s for s in others if not s.running and s.has_work][
        : max(OTHERS_SHOWN - len(running), 1)
    ]
    return [session_line(v, now) for v in running + rest]


def _resumption_note(workspace: Workspace) -> list[str]:
    """The note an agent (or a person) left in ``memory/resumption.md`` with ``workmem end``:
    its own words for the next session. A note a save wrote from the transcript says what
    the handoff above says already, and is left out."""
    from .work import saved_text

    raw = saved_text(workspace, workspace.memory_dir / "resumption.md")
    if raw is None:
        return []
    from ..files.freetext import restore
    from ..i18n import LANGUAGES, text
    from ..journal.resumption import TEMPLATE, parse

    if raw.strip() == TEMPLATE.strip():
        return []
    try:
        note = restore(parse(raw).note).strip()
    except Exception:
        return []
    automatic = {
        text(lang, "save.resumption", sid="", stamp="", state="")[:12] for lang in LANGUAGES
    }
    if not note or any(note.startswith(prefix) for prefix in automatic):
        return []
    return [line for line in note.splitlines() if line.strip()][:20]


def _memory_part(workspace: Workspace) -> Part:
    from .memories import memory_lines

    try:
        lines = memory_lines(workspace, clock.now().date())
    except Exception as exc:  # long-term memory fails alone
        lines = [
            f"- Long-term memory could not be read ({type(exc).__name__}): run `workmem doctor`."
        ]
    # funded its share early, grown only after the work's first needs (rank 1)
    return Part("Long-term memory", lines, 0.25, level=2, rank=1)


def _notices(workspace: Workspace, session_id: str | None, roster: Roster | None) -> list[str]:
    """One line each: a failed save, a broken board, cloud conflict copies."""
    lines: list[str] = []
    for make in (_save_notice, _board_notice, _unfinished_notice, _copies_notice):
        try:
            line = make(workspace, session_id, roster)
        except Exception:  # a notice that cannot be made is no notice
            line = None
        if line:
            lines.append(line)
    return lines


def _save_notice(
    workspace: Workspace, session_id: str | None, _roster: Roster | None
) -> str | None:
    from .save import failure_line

    return failure_line(workspace, session_id)


def _board_notice(workspace: Workspace, _s: str | None, roster: Roster | None) -> str | None:
    if roster is None or roster.board_problem is None:
        return None
    from ..board.inspect import board_notice

    said = board_notice(workspace)  # names an unfinished merge as one
    if said:
        return said
    return (
        "Note: the session board (memory/index.md) could not be read, so other sessions may "
        "be missing below; `workmem doctor` shows why and offers the fix."
    )


def _unfinished_notice(workspace: Workspace, _s: str | None, _roster: Roster | None) -> str | None:
    """One line when a memory file other than the board holds an unfinished merge."""
    from ..sync.unfinished import start_notice

    return start_notice(workspace)


def _copies_notice(workspace: Workspace, _s: str | None, _roster: Roster | None) -> str | None:
    from ..sync.copies import copies_notice

    return copies_notice(workspace)


def _compose(
    workspace: Workspace,
    kind: str,
    top: list[str],
    parts: list[Part],
    budget: int | None,
    files: list[str],
    seen: set[int] | None = None,
) -> tuple[str, int, list[str], list[str]]:
    from .fit import named_before

    _redact(top, parts)
    dedupe(top, parts, seen)
    files = [] if named_before(files, seen) else files  # said once, by the earlier document
    fitted = compose_within(top, parts, budget or budget_for(workspace, kind), files)
    return fitted.text, fitted.tokens, fitted.left_out, fitted.shortened


def _redact(top: list[str], parts: list[Part]) -> None:
    """What a transcript or a memory file said passes the one redactor before any agent
    reads it here, and before any line is cut to fit (a cut never leaves half a key)."""
    from ..redact import redact

    top[:] = [redact(line)[0] for line in top]
    for part in parts:
        part.lines = [redact(line)[0] for line in part.lines]


def _session_files(workspace: Workspace, session_id: str | None) -> list[str]:
    if not session_id:
        return []
    paths = (
        workspace.sessions_dir / f"{session_id}.notes.md",
        workspace.snapshot_file(session_id),
    )
    return [workspace.relative(p) for p in paths if p.is_file()]


def _work_of(workspace: Workspace, view: SessionView, home: Path | None, *, drift: bool) -> Sources:
    from .work import read_sources

    return read_sources(
        workspace,
        view.session_id if view.row is not None or view.activity is not None else None,
        view.transcript,
        view.platform,
        home,
        repo=view.repo,
        with_drift=drift,
    )


def _safe_roster(workspace: Workspace) -> Roster | None:
    from .roster import read_roster

    try:
        return read_roster(workspace)
    except Exception:
        return None


def build_start(
    workspace: Workspace,
    *,
    session_id: str | None,
    home: Path | None = None,
    cwd: str | None = None,
    header: list[str] | None = None,
    budget: int | None = None,
) -> Briefing:
    """The briefing at a new session's start (see the module docstring)."""
    from .roster import choose_handoff
    from .work_parts import work_parts

    now = clock.now()
    roster = _safe_roster(workspace)
    top = [*(header or []), f"# Working memory · {clock.stamp(now)}"]
    top += _notices(workspace, None, roster)  # a failed save of any session is worth a line
    parts: list[Part] = []
    target = choose_handoff(roster, session_id, cwd=cwd) if roster is not None else None
    if target is None:
        target = _unrecorded_session(workspace, home, roster, session_id)
    shown: str | None = None
    sources: list[str] = []
    files: list[str] = []
    if target is not None:
        src = _work_of(workspace, target, home, drift=True)
        shown, sources = target.session_id, src.used
        parts.append(Part("Where the work stands", _intro(target, src, now), 0.12, level=2))
        parts += work_parts(src)
        files = _session_files(workspace, target.session_id)
    note = _resumption_note(workspace)
    if note:
        parts.append(Part("The note left for the next session", note, 0.12, level=3, rank=1))
    others = _other_lines(roster, shown, session_id)
    if others:
        parts.append(Part("Other sessions", others, 0.18, level=2))
    if target is None and not others:
        parts.append(Part("Welcome", WELCOME, 0.12, level=2))
    parts.append(_memory_part(workspace))
    parts.append(Part("Using memory", USING_MEMORY, 0.15, level=2))
    text, tokens, left_out, shortened = _compose(workspace, START, top, parts, budget, files)
    running = [s.session_id for s in roster.others(session_id) if s.running] if roster else []
    return Briefing(text, tokens, START, shown, running, left_out, shortened, sources)


def _unrecorded_session(
    workspace: Workspace, home: Path | None, roster: Roster | None, current: str | None
) -> SessionView | None:
    """Where no session of this project has anything to hand over yet (workmem was just set
    up), the most recent transcript an agent left here before it: its plan and request are
    better than no start at all."""
    if roster is not None and any(s.has_work for s in roster.others(current)):
        return None
    from ..transcripts.discover import find_transcripts
    from .roster import SessionView

    try:
        refs = find_transcripts(workspace.root, None, home)
    except Exception:
        return None
    known = {str(s.transcript) for s in roster.sessions if s.transcript} if roster else set()
    refs = [r for r in refs if str(r.path) not in known]
    if not refs:
        return None
    latest = max(refs, key=lambda r: r.modified)
    moment = datetime.fromtimestamp(latest.modified).replace(microsecond=0)
    return SessionView(
        session_id=latest.session_id,
        platform=latest.platform,
        transcript=latest.path,
        last_active=moment,
    )


def build_resume(
    workspace: Workspace,
    *,
    session_id: str | None,
    transcript: Path | None,
    platform: str | None = None,
    home: Path | None = None,
    budget: int | None = None,
    header: list[str] | None = None,
) -> Briefing:
    """After a compaction or on resume: this session's own work first, then the rest."""
    from .account_text import headline
    from .work import read_sources
    from .work_parts import title_of, work_parts

    src = read_sources(workspace, session_id, transcript, platform, home)
    roster = _safe_roster(workspace)
    top = list(header or [])
    top += _notices(workspace, session_id, roster)
    title = title_of(src)
    intro = "# Where you left off" + (f" ({title})" if title else "")
    if src.used:
        intro += ", rebuilt by workmem from " + ", ".join(src.used)
    top.append(intro)
    told = headline(src.account, beside_work=True) if src.account is not None else ""
    if told:
        top.append("Outcome so far: " + told)
    parts = [_as_level(p, 2) for p in work_parts(src)]
    running = [s for s in roster.others(session_id) if s.running] if roster else []
    if running:
        now = clock.now()
        lines = [session_line(s, now) for s in running]
        parts.append(Part("Other sessions", lines, 0.06, level=2))
    parts.append(_memory_part(workspace))
    parts[-1].share, parts[-1].rank = 0.12, 2
    parts.append(Part("Using memory", USING_MEMORY, 0.08, level=2, rank=1))
    files = _session_files(workspace, session_id)
    text, tokens, left_out, shortened = _compose(workspace, RESUME, top, parts, budget, files)
    names = [s.session_id for s in running]
    return Briefing(text, tokens, RESUME, session_id, names, left_out, shortened, src.used)


def _as_level(part: Part, level: int) -> Part:
    part.level = level
    return part


def build_handoff(
    workspace: Workspace,
    view: SessionView,
    *,
    roster: Roster | None = None,
    current: str | None = None,
    home: Path | None = None,
    budget: int | None = None,
    header: list[str] | None = None,
    seen: set[int] | None = None,
) -> Briefing:
    """One session's work in full, for the session (or person) that picks it up; ``seen``:
    what this session's start showed already, left out here (see ``fit.fact_keys``)."""
    from .work_parts import work_parts

    now = clock.now()
    src = _work_of(workspace, view, home, drift=True)
    top = [*(header or []), f"# Handoff · {clock.stamp(now)}"]
    if seen:
        top.append(
            f"This session's start showed the work of `{view.session_id}` already; "
            "below is only what it had no room for."
        )
    parts = [Part("Where the work stands", _intro(view, src, now), 0.12, level=2)]
    parts += work_parts(src)
    if view.running:
        parts[0].lines.insert(
            0,
            "Careful: this session still looks active (last sign of life "
            f"{_hhmm(view.last_active)}); two agents on one plan collide.",
        )
    others = _other_lines(roster, view.session_id, current)
    if others:
        parts.append(Part("Other sessions", others, 0.08, level=2, rank=1))
    files = _session_files(workspace, view.session_id)
    text, tokens, left_out, shortened = _compose(
        workspace, HANDOFF, top, parts, budget, files, seen
    )
    running = [s.session_id for s in roster.others(current) if s.running] if roster else []
    return Briefing(text, tokens, HANDOFF, view.session_id, running, left_out, shortened, src.used)
