"""The context given back after a compaction or on resume: one document, within a budget.

What was saved about a session lives in several places (the running notes, the board
snapshot, the relay snapshot) and the transcript itself is still there. Appended one after
another they repeat the same step, request and files three times, print empty sections as
"None", and can run past what the agent can take. This builds one document instead: each
fact once, from its best source, no empty sections, and in the order the next steps need
them, so that whatever the budget cuts is what matters least:

1. the plan's open steps (in progress, then pending)
2. the last request (and the last substantial one, when the last was a short follow-up)
3. the files in play, most recently touched first
4. decisions and errors of the current task, and the agent's own context and next steps
5. the last reply, commands, learnings, what is done, the first request

The transcript is the freshest source for the plan, the request and the files; what only
an agent or an extractor wrote (decisions, next actions, learnings) comes from the saved
files. Where the transcript cannot be read, the saved files stand in for it. What did not
fit is named at the end, with where to read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..root import Workspace
from .fit import Part, compose_within

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..files.sections import Document
    from ..notes.template import NotesFile
    from ..transcripts.facts import TranscriptFacts
    from ..transcripts.model import PlanItem, Transcript

DEFAULT_BUDGET = 2000
#: bytes of the transcript's end read at a resume (plus its head and plan lines)
RESUME_WINDOW = 4 * 1024 * 1024
#: seconds a resume may spend reading the transcript before it relies on saved files only
#: (the session-start hook has 8 s in all; a loaded machine reads a few MB a second)
READ_SECONDS = 4.0
#: read throughput assumed when deciding (bytes a second), kept low on purpose
_PARSE_RATE = 4 * 1024 * 1024
_SCAN_RATE = 200 * 1024 * 1024
_SPACE = re.compile(r"\s+")
_DONE_MARK = re.compile(r"^\[(done|resolved|superseded)[^\]]*\]", re.I)


@dataclass
class ResumeContext:
    text: str
    tokens: int
    left_out: list[str] = field(default_factory=list)
    shortened: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


def _key(text: str) -> str:
    return _SPACE.sub(" ", text).strip().strip(".").casefold()


def _clip(text: str, width: int) -> str:
    flat = _SPACE.sub(" ", text).strip()
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def _follow_up(request: str) -> bool:
    from .account import is_follow_up

    return is_follow_up(request)


def budget_of(workspace: Workspace) -> int:
    """``[hooks] resume_tokens`` in workmem.toml (default 2,000)."""
    from ..config import load_settings

    value = load_settings(workspace).section("hooks").get("resume_tokens", DEFAULT_BUDGET)
    if isinstance(value, bool) or not isinstance(value, int) or value < 200:
        return DEFAULT_BUDGET
    return value


# -- sources --------------------------------------------------------------------------


@dataclass
class Sources:
    transcript: Transcript | None = None
    facts: TranscriptFacts | None = None
    plan: list[PlanItem] = field(default_factory=list)
    notes: NotesFile | None = None
    snapshot: Document | None = None
    relay: Document | None = None
    used: list[str] = field(default_factory=list)


def _read_sources(
    workspace: Workspace,
    session_id: str | None,
    transcript: Path | None,
    platform: str | None,
    home: Path | None,
) -> Sources:
    from ..files.sections import Document

    found = Sources()
    from ..transcripts.openclaw_paths import is_store_session

    if transcript is not None and (
        is_store_session(transcript) or (transcript.is_file() and _affordable(transcript))
    ):  # a session in OpenClaw's database is read in a bounded window of its entries
        try:
            from ..transcripts.facts import extract_facts
            from ..transcripts.read import read_transcript

            found.transcript = read_transcript(transcript, platform, max_bytes=RESUME_WINDOW)
            found.facts = extract_facts(found.transcript)
            found.plan = list(found.transcript.plan)
            found.used.append("the transcript")
        except Exception:  # an unreadable transcript: the saved files stand in for it
            found.transcript = found.facts = None
    if found.transcript is not None and found.transcript.platform == "claude-code":
        from ..transcripts.plans import stored_claude_tasks

        stored = stored_claude_tasks(found.transcript.session_id, home)
        if stored:
            found.plan = stored
    if session_id:
        from ..notes import template
        from ..notes.workflow import notes_path

        text = _saved(workspace, notes_path(workspace, session_id))
        if text is not None:
            found.notes = template.read(text)
            found.used.append("the session notes")
        text = _saved(workspace, workspace.snapshot_file(session_id))
        if text is not None:
            found.snapshot = Document.parse(text)
            found.used.append("the session snapshot")
    found.relay = _relay_of(workspace, transcript)
    if found.relay is not None:
        found.used.append("the relay snapshot")
    return found


def _affordable(transcript: Path) -> bool:
    """Whether reading the transcript fits the resume's time, by its size (see READ_SECONDS)."""
    size = transcript.stat().st_size
    parsed = min(size, RESUME_WINDOW)
    return parsed / _PARSE_RATE + (size - parsed) / _SCAN_RATE <= READ_SECONDS


def _saved(workspace: Workspace, path: Path) -> str | None:
    """A saved file's text through the store (a link out of the root is refused), or None:
    a file that cannot be read is a source the resume does without."""
    from ..files.store import Store

    try:
        current = Store(workspace).read_text(path)
    except Exception:
        return None
    return current[0] if current else None


def _relay_of(workspace: Workspace, transcript: Path | None) -> Document | None:
    """The relay snapshot, only when it was written from this very transcript."""
    import json

    from ..files.sections import Document

    if transcript is None:
        return None
    try:
        state = json.loads(_saved(workspace, workspace.state_dir / "relay.json") or "null")
    except ValueError:
        return None
    if not isinstance(state, dict) or state.get("transcript") != str(transcript):
        return None
    text = _saved(workspace, workspace.memory_dir / "relay-snapshot.md")
    return Document.parse(text) if text is not None else None


def _items(document: Document | None, *titles: str) -> list[str]:
    """The live items of a section (placeholders, template hints and finished items left out)."""
    from ..files.sections import is_placeholder_text

    if document is None:
        return []
    found: list[str] = []
    for title in titles:
        section = document.get(title)
        if section is None:
            continue
        for item in section.items():
            text = re.sub(r"^\d+\.\s*", "", item).strip()
            if not text or is_placeholder_text(text) or _DONE_MARK.match(text):
                continue
            if text.startswith("List ") and text.endswith((".", "`None`.")):
                continue  # the template's own hint
            found.append(text)
    return found


def _notes_lines(notes: NotesFile | None, section: str, prefix: str = "") -> list[str]:
    if notes is None:
        return []
    lines = [line.strip() for line in notes.sections.get(section, "").split("\n")]
    return [line for line in lines if line and line.startswith(prefix)]


# -- the parts ------------------------------------------------------------------------


def _plan_part(src: Sources) -> tuple[list[str], list[str]]:
    """(open steps, finished steps) of the plan."""
    if src.plan:
        doing = [f"- [in progress] {p.text}" for p in src.plan if p.status == "in_progress"]
        pending = [f"- [pending] {p.text}" for p in src.plan if p.status == "pending"]
        done = [p.text for p in src.plan if p.status == "completed"]
        return doing + pending, done
    saved = _notes_lines(src.notes, "Current State", "- In progress:") + _notes_lines(
        src.notes, "Current State", "- Pending:"
    )
    steps = [
        "- [in progress] " + line.split(":", 1)[1].strip()
        if line.startswith("- In progress:")
        else "- [pending] " + line.split(":", 1)[1].strip()
        for line in saved
    ]
    if not steps and src.relay is not None:
        steps = [f"- [pending] {item}" for item in _items(src.relay, "Pending")]
    return steps, []


def _request_part(src: Sources) -> list[str]:
    from ..files.freetext import neutralize_block

    requests = src.transcript.user_requests() if src.transcript is not None else []
    requests = [r for r in requests if r.strip()]
    if not requests:
        saved = _notes_lines(src.notes, "Current State", "- Last request:")
        return [line.split(":", 1)[1].strip() for line in saved[-1:]]
    chosen = [requests[-1]]
    if _follow_up(requests[-1]):
        earlier = next((r for r in reversed(requests[:-1]) if not _follow_up(r)), None)
        if earlier is not None:
            chosen.insert(0, earlier)
    lines: list[str] = []
    for number, text in enumerate(chosen):
        if len(chosen) > 1:
            lines.append("Earlier request:" if number == 0 else "Then:")
        lines += [f"> {line}" if line else ">" for line in neutralize_block(text).split("\n")]
    return lines


def _files_part(src: Sources) -> list[str]:
    if src.facts is not None and src.facts.files:
        lines = []
        for touch in src.facts.recent_files()[:20]:
            what = touch.action
            if touch.functions:
                what += ": " + ", ".join(touch.functions[:5])
            lines.append(f"- `{touch.path}` ({what})")
        return lines
    saved = _notes_lines(src.notes, "Files and Functions", "-")
    return saved[:20]


def _errors_part(src: Sources) -> list[str]:
    lines: list[str] = []
    if src.facts is not None:
        for error in [e for e in src.facts.errors if not e.resolved][-3:]:
            what = f" `{_clip(error.subject, 100)}`" if error.subject else ""
            lines.append(f"- {error.tool}{what} failed: {_clip(error.error, 160)}")
    lines += _notes_lines(src.notes, "Errors and Corrections", "- User correction:")[-3:]
    if not lines:
        lines = [
            line
            for line in _notes_lines(src.notes, "Errors and Corrections", "-")
            if "(unresolved)" in line
        ][-3:]
    return lines


def _agent_context(src: Sources) -> list[str]:
    """What the agent itself wrote about where things stand (not a save's own summary)."""
    from ..i18n.placeholders import is_auto_saved, is_context_hint

    lines: list[str] = []
    if src.snapshot is not None:
        section = src.snapshot.get("Current Context")
        if section is not None:
            for block in section.blocks():
                text = block.text.strip()
                if text and not is_auto_saved(text) and not is_context_hint(text):
                    lines.append(_clip(text, 600))
    return lines[-3:]


def _last_reply(src: Sources) -> list[str]:
    if src.facts is None or not src.facts.final_replies:
        return []
    return [_clip(src.facts.final_replies[-1], 600)]


def _commands_part(src: Sources) -> list[str]:
    if src.facts is None:
        return []
    seen: dict[str, None] = {}
    for run in reversed(src.facts.commands):
        seen.setdefault(_clip(run.command, 160), None)
        if len(seen) >= 6:
            break
    return [f"- `{command}`" for command in seen]


def _learnings(src: Sources) -> list[str]:
    lines = _notes_lines(src.notes, "Learnings")
    docs = [
        line
        for line in _notes_lines(src.notes, "Codebase Documentation")
        if not line.startswith("Files read for context")
    ]
    return (lines + docs)[:12]


def _task_part(src: Sources, request_lines: list[str]) -> list[str]:
    if src.transcript is None:
        return _notes_lines(src.notes, "Task Specification", "- First request:")[:1]
    requests = src.transcript.user_requests()
    if len(requests) < 2:
        return []
    first = _clip(requests[0], 400)
    shown = _key(" ".join(request_lines))
    return [] if _key(first)[:60] in shown else [first]


def _parts(src: Sources) -> list[Part]:
    steps, done = _plan_part(src)
    request = _request_part(src)
    next_steps = [f"- {item}" for item in _items(src.snapshot, "Next Actions")]
    questions = [f"- {item}" for item in _items(src.snapshot, "Open Questions")]
    decisions = [f"- {item}" for item in _items(src.snapshot, "Decisions")]
    decisions += [f"- {item}" for item in _items(src.relay, "Decisions")]
    preferences = [f"- {item}" for item in _items(src.relay, "User Preferences")]
    done_line = (
        [f"- {len(done)} done: " + "; ".join(_clip(d, 80) for d in done[-6:])] if done else []
    )
    return [
        Part("Plan", steps, 0.35),
        Part("Last request", request, 0.35),
        Part("Files in play", _files_part(src), 0.12),
        Part("Decisions", decisions, 0.10),
        Part("Errors to keep in mind", _errors_part(src), 0.07),
        Part("Where things stand (your notes)", _agent_context(src), 0.10),
        Part("Next actions and open questions", next_steps + questions, 0.08),
        Part("User preferences", preferences, 0.04),
        Part("Your last reply", _last_reply(src), 0.08),
        Part("Commands used", _commands_part(src), 0.05),
        Part("Learnings", _learnings(src), 0.06),
        Part("Done so far", done_line, 0.05),
        Part("The session began with", _task_part(src, request), 0.05),
    ]


def _dedupe(parts: list[Part]) -> None:
    """Each fact once: a line already shown in an earlier part is dropped from later ones."""
    seen: set[str] = set()
    for part in parts:
        kept = []
        for line in part.lines:
            key = _key(re.sub(r"^[-*>]\s*(\[[a-z ]+\]\s*)?", "", line))
            if len(key) > 12 and key in seen:
                continue
            seen.add(key)
            kept.append(line)
        part.lines = kept


def build_resume_context(
    workspace: Workspace,
    *,
    session_id: str | None,
    transcript: Path | None,
    platform: str | None = None,
    home: Path | None = None,
    budget: int | None = None,
    header: list[str] | None = None,
) -> ResumeContext:
    """The document (see the module docstring); ``header`` lines go first, in the budget."""
    from .save import failure_line

    budget = budget or budget_of(workspace)
    src = _read_sources(workspace, session_id, transcript, platform, home)
    top = list(header or [])
    warning = failure_line(workspace, session_id)
    if warning:
        top.append(warning)
    title = None
    if src.transcript is not None and src.transcript.title:
        title = _clip(src.transcript.title, 80)
    elif src.notes is not None and src.notes.sections.get("Session Title"):
        title = _clip(src.notes.sections["Session Title"], 80)
    intro = "Where you left off" + (f" ({title})" if title else "")
    if src.used:
        intro += ", rebuilt by workmem from " + ", ".join(src.used)
    top.append(intro + ".")
    parts = _parts(src)
    _dedupe(parts)
    files = [
        workspace.relative(path)
        for path in (
            workspace.sessions_dir / f"{session_id}.notes.md" if session_id else None,
            workspace.snapshot_file(session_id) if session_id else None,
        )
        if path is not None and path.is_file()
    ]
    fitted = compose_within(top, parts, budget, files)
    return ResumeContext(fitted.text, fitted.tokens, fitted.left_out, fitted.shortened, src.used)
