"""One session's work as the parts of a document: plan, request, files, decisions, errors …

What is known about a session lives in several places: its transcript (the freshest source
for the plan, the request and the files), the running notes, the board snapshot, the relay
snapshot (only when written from this very transcript), the account of what came of it,
and the repository state its last save recorded. ``read_sources`` reads them once (each
failing alone: a corrupt file is a source done without) and ``work_parts`` turns them into
parts in the order the next steps need them, each fact from its best source. The resume
after a compaction and the handoff to another session show the same parts; only the
framing around them differs (``briefing``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..files.shorten import clip_words, flatten
from ..root import Workspace
from .fit import Part

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..files.sections import Document
    from ..notes.template import NotesFile
    from ..transcripts.account import SessionAccount
    from ..transcripts.facts import FileTouch, TranscriptFacts
    from ..transcripts.model import PlanItem, Transcript
    from .repo_state import Drift, RepoState

#: bytes of the transcript's end read (plus its head and plan lines)
READ_WINDOW = 4 * 1024 * 1024
#: seconds reading a transcript may take before the saved files stand in for it (the
#: session-start hook has 8 s in all; a loaded machine reads a few MB a second)
READ_SECONDS = 4.0
_PARSE_RATE = 4 * 1024 * 1024
_SCAN_RATE = 200 * 1024 * 1024
_SPACE = re.compile(r"\s+")
_DONE_MARK = re.compile(r"^\[(done|resolved|superseded)[^\]]*\]", re.I)
#: finished plan steps shown by name (the rest are counted)
DONE_SHOWN = 5


def key(text: str) -> str:
    """What makes two lines the same fact: words, case and trailing dots aside."""
    return _SPACE.sub(" ", text).strip().strip(".").casefold()


@dataclass
class Sources:
    transcript: Transcript | None = None
    facts: TranscriptFacts | None = None
    account: SessionAccount | None = None
    plan: list[PlanItem] = field(default_factory=list)
    notes: NotesFile | None = None
    snapshot: Document | None = None
    relay: Document | None = None
    repo: RepoState | None = None
    drift: Drift | None = None
    used: list[str] = field(default_factory=list)
    #: what could not be read, in words (a corrupt snapshot, a transcript gone)
    problems: list[str] = field(default_factory=list)


def affordable(transcript: Path) -> bool:
    """Whether reading the transcript fits the time a start has, by its size."""
    size = transcript.stat().st_size
    parsed = min(size, READ_WINDOW)
    return parsed / _PARSE_RATE + (size - parsed) / _SCAN_RATE <= READ_SECONDS


def saved_text(workspace: Workspace, path: Path) -> str | None:
    """A saved file's text through the store (a link out of the root is refused), or None."""
    from ..files.store import Store

    try:
        current = Store(workspace).read_text(path)
    except Exception:
        return None
    return current[0] if current else None


def _read_transcript(found: Sources, transcript: Path, platform: str | None) -> None:
    from ..transcripts.openclaw_paths import is_store_session

    try:
        if not is_store_session(transcript) and not (
            transcript.is_file() and affordable(transcript)
        ):
            found.problems.append(f"transcript {transcript} not readable in time or gone")
            return
        from ..transcripts.account import build_account
        from ..transcripts.facts import extract_facts
        from ..transcripts.read import read_transcript

        found.transcript = read_transcript(transcript, platform, max_bytes=READ_WINDOW)
        found.facts = extract_facts(found.transcript)
        found.account = build_account(found.transcript, found.facts)
        found.plan = list(found.transcript.plan)
        found.used.append("the transcript")
    except Exception as exc:  # an unreadable transcript: the saved files stand in for it
        found.transcript = found.facts = found.account = None
        found.problems.append(f"transcript unreadable ({type(exc).__name__})")


def read_sources(
    workspace: Workspace,
    session_id: str | None,
    transcript: Path | None,
    platform: str | None,
    home: Path | None,
    *,
    repo: RepoState | None = None,
    with_drift: bool = False,
) -> Sources:
    from ..files.sections import Document

    found = Sources(repo=repo)
    if transcript is not None:
        _read_transcript(found, transcript, platform)
    if found.transcript is not None and found.transcript.platform == "claude-code":
        from ..transcripts.plans import stored_claude_tasks

        stored = stored_claude_tasks(found.transcript.session_id, home)
        if stored:
            found.plan = stored
            if found.facts is not None:  # Claude Code's task files are fresher than its log
                from ..transcripts.account import build_account

                found.facts.plan = list(stored)
                found.account = build_account(found.transcript, found.facts)
    if session_id:
        from ..notes import template
        from ..notes.workflow import notes_path

        text = saved_text(workspace, notes_path(workspace, session_id))
        if text is not None:
            try:
                found.notes = template.read(text)
                found.used.append("the session notes")
            except Exception:
                found.problems.append("the session notes could not be read")
        text = saved_text(workspace, workspace.snapshot_file(session_id))
        if text is not None:
            try:
                found.snapshot = Document.parse(text)
                found.used.append("the session snapshot")
            except Exception:
                found.problems.append("the session snapshot could not be read")
    found.relay = _relay_of(workspace, transcript)
    if found.relay is not None:
        found.used.append("the relay snapshot")
    if with_drift and repo is not None:
        from .repo_state import drift_since

        found.drift = drift_since(repo)
    return found


def _relay_of(workspace: Workspace, transcript: Path | None) -> Document | None:
    """The relay snapshot, only when it was written from this very transcript."""
    import json

    from ..files.sections import Document

    if transcript is None:
        return None
    try:
        state = json.loads(saved_text(workspace, workspace.state_dir / "relay.json") or "null")
    except ValueError:
        return None
    if not isinstance(state, dict) or state.get("transcript") != str(transcript):
        return None
    text = saved_text(workspace, workspace.memory_dir / "relay-snapshot.md")
    try:
        return Document.parse(text) if text is not None else None
    except Exception:
        return None


def items(document: Document | None, *titles: str) -> list[str]:
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


def notes_lines(notes: NotesFile | None, section: str, prefix: str = "") -> list[str]:
    if notes is None:
        return []
    lines = [line.strip() for line in notes.sections.get(section, "").split("\n")]
    return [line for line in lines if line and line.startswith(prefix)]


# -- the parts ------------------------------------------------------------------------


def plan_lines(src: Sources) -> list[str]:
    """Open steps first (the budget cuts from the end), then the last finished ones."""
    if src.plan:
        lines = [f"- [in progress] {p.text}" for p in src.plan if p.status == "in_progress"]
        lines += [f"- [pending] {p.text}" for p in src.plan if p.status == "pending"]
        done = [p.text for p in src.plan if p.status == "completed"]
        lines += [f"- [done] {text}" for text in done[-DONE_SHOWN:]]
        earlier = len(done) - DONE_SHOWN
        if earlier > 0:
            lines.append(f"- ({earlier} earlier step{'s' if earlier > 1 else ''} done)")
        lines += [f"- [dropped] {p.text}" for p in src.plan if p.status == "cancelled"]
        return lines
    saved = notes_lines(src.notes, "Current State", "- In progress:") + notes_lines(
        src.notes, "Current State", "- Pending:"
    )
    steps = [
        "- [in progress] " + line.split(":", 1)[1].strip()
        if line.startswith("- In progress:")
        else "- [pending] " + line.split(":", 1)[1].strip()
        for line in saved
    ]
    if not steps and src.relay is not None:
        steps = [f"- [pending] {item}" for item in items(src.relay, "Pending")]
    return steps


def request_lines(src: Sources) -> list[str]:
    """The last request; a short follow-up ("do 1 and 3", "yes") comes with what it answers
    (the agent's words just before it) and the last request that means something alone."""
    from ..files.freetext import neutralize_block
    from ..transcripts.account import is_follow_up, meaningful_words

    requests = src.transcript.user_requests() if src.transcript is not None else []
    requests = [r for r in requests if r.strip()]
    if not requests:
        saved = notes_lines(src.notes, "Current State", "- Last request:")
        return [line.split(":", 1)[1].strip() for line in saved[-1:]]

    def quoted(text: str) -> list[str]:
        return [f"> {line}" if line else ">" for line in neutralize_block(text).split("\n")]

    last = requests[-1]
    answered = _answered(src.transcript)
    # a short answer to the agent's question ("draft the plan, add it to the roadmap")
    # follows up as much as a "yes" does
    asked = flatten(answered).rstrip(" *_`").endswith(("?", "？"))
    answering = asked and meaningful_words(last) < 6
    if not is_follow_up(last) and not answering:
        return quoted(last)
    lines: list[str] = []
    earlier = next((r for r in reversed(requests[:-1]) if not is_follow_up(r)), None)
    if earlier is not None:
        lines += ["Earlier request:", *quoted(earlier)]
    if answered:
        lines += ["It answers the agent's:", *quoted(clip_words(answered, 500))]
    return [*lines, "Then:", *quoted(last)] if lines else quoted(last)


def _answered(transcript: Transcript | None) -> str:
    """The agent's last words before the user's last message (what a "yes" agrees to)."""
    if transcript is None:
        return ""
    conversation = transcript.conversation
    last_user = max((i for i, m in enumerate(conversation) if m.role == "user"), default=-1)
    for message in reversed(conversation[:last_user]):
        if message.role == "user":
            return ""
        if message.role == "assistant" and message.text.strip():
            paragraphs = [p for p in message.text.strip().split("\n\n") if p.strip()]
            return "\n\n".join(paragraphs[-2:])
    return ""


def files_lines(src: Sources) -> list[str]:
    """The files in play, most recently touched first; a file the open plan or the last
    request names comes before the rest (the agent goes back to it next)."""
    if src.facts is not None and src.facts.files:
        lines: list[str] = []
        for touch in _named_first(src, src.facts.recent_files()):
            if touch.action == "read" and _elsewhere(touch.path):
                continue  # an agent's own file or a temp file it read: not in play
            if len(lines) >= 20:
                break
            what = touch.action
            if touch.functions:
                what += ": " + ", ".join(touch.functions[:5])
            lines.append(f"- `{touch.path}` ({what})")
        return lines
    return notes_lines(src.notes, "Files and Functions", "-")[:20]


#: where an agent reads files that are not the project's: its skills, plugins, temp files
_ELSEWHERE = ("/.claude/", "/.codex/", "/.gemini/", "/.cursor/", "/.openclaw/", "/node_modules/")


def _elsewhere(path: str) -> bool:
    return path.startswith(("/tmp/", "/var/folders/", "/private/")) or any(
        part in path for part in _ELSEWHERE
    )


def _named_first(src: Sources, touches: list[FileTouch]) -> list[FileTouch]:
    named = " ".join(
        [p.text for p in src.plan if p.status in ("in_progress", "pending")]
        + (src.transcript.user_requests()[-1:] if src.transcript is not None else [])
    ).casefold()
    if not named:
        return touches

    def mentioned(touch: FileTouch) -> bool:
        base = touch.path.rsplit("/", 1)[-1].casefold()
        return len(base) > 3 and base in named

    return sorted(touches, key=lambda t: not mentioned(t))  # stable: recency kept within


def error_lines(src: Sources) -> list[str]:
    lines: list[str] = []
    if src.facts is not None:
        for error in [e for e in src.facts.errors if not e.resolved][-3:]:
            what = f" `{clip_words(error.subject, 100)}`" if error.subject else ""
            lines.append(f"- {error.tool}{what} failed: {clip_words(error.error, 160)}")
    lines += notes_lines(src.notes, "Errors and Corrections", "- User correction:")[-3:]
    if not lines:
        lines = [
            line
            for line in notes_lines(src.notes, "Errors and Corrections", "-")
            if "(unresolved)" in line
        ][-3:]
    return lines


def agent_context(src: Sources) -> list[str]:
    """What the agent itself wrote about where things stand (not a save's own summary)."""
    from ..i18n.placeholders import is_auto_saved, is_context_hint, is_summary

    lines: list[str] = []
    if src.snapshot is not None:
        section = src.snapshot.get("Current Context")
        if section is not None:
            for block in section.blocks():
                text = block.text.strip()
                placeholder = is_context_hint(text) or is_summary(text)
                if text and not is_auto_saved(text) and not placeholder:
                    lines.append(clip_words(text, 600))
    return lines[-3:]


def last_reply(src: Sources) -> list[str]:
    if src.facts is None or not src.facts.final_replies:
        return []
    return [clip_words(src.facts.final_replies[-1], 600)]


def command_lines(src: Sources) -> list[str]:
    if src.facts is None:
        return []
    seen: dict[str, None] = {}
    for run in reversed(src.facts.commands):
        seen.setdefault(clip_words(run.command, 160), None)
        if len(seen) >= 6:
            break
    return [f"- `{command}`" for command in seen]


def learnings(src: Sources) -> list[str]:
    lines = notes_lines(src.notes, "Learnings")
    docs = [
        line
        for line in notes_lines(src.notes, "Codebase Documentation")
        if not line.startswith("Files read for context")
    ]
    return (lines + docs)[:12]


def outcome_lines(src: Sources) -> list[str]:
    """Commits made and the last test run: what the plan does not say."""
    if src.account is None:
        return []
    lines = [f"- committed {clip_words(c, 120)}" for c in src.account.commits[-3:]]
    run = src.account.last_tests
    if run is not None:
        result = "passed" if run.passed else "failed"
        figures = f" ({run.figures})" if run.figures else ""
        lines.append(f"- tests {result}{figures}: `{run.command}`")
    return lines


def first_request(src: Sources, shown: list[str]) -> list[str]:
    if src.transcript is None:
        return notes_lines(src.notes, "Task Specification", "- First request:")[:1]
    requests = src.transcript.user_requests()
    if len(requests) < 2:
        return []
    first = clip_words(requests[0], 400)
    return [] if key(first)[:60] in key(" ".join(shown)) else [first]


def repo_lines(src: Sources) -> list[str]:
    """The repository at the last save, and whether the tree moved since."""
    repo, drift = src.repo, src.drift
    if repo is None:
        return []
    where = f"branch {repo.branch}" if repo.branch else "a detached HEAD"
    head = f" at {repo.head[:9]}" if repo.head else ""
    lines = [f"- At the last save ({repo.at}): {where}{head} in `{repo.worktree}`"]
    if repo.dirty:
        lines.append("- Uncommitted then: " + ", ".join(f"`{d}`" for d in repo.dirty[:8]))
    if drift is not None:
        if drift.switched:
            lines.append(f"- The branch is now {drift.branch_now}: check before going on")
        if drift.new_commits:
            lines.append(
                f"- {len(drift.new_commits)} commit(s) since: "
                + "; ".join(clip_words(c, 80) for c in drift.new_commits[:5])
            )
        if drift.changed_since:
            lines.append(
                "- Changed after the save: "
                + ", ".join(f"`{f}`" for f in drift.changed_since[:8])
                + " (the plan may be behind the tree)"
            )
        if not drift.moved:
            lines.append("- The tree has not moved since.")
    return lines


def work_parts(src: Sources) -> list[Part]:
    """The session's work as parts, most needed first (see the module docstring)."""
    request = request_lines(src)
    next_steps = [f"- {item}" for item in items(src.snapshot, "Next Actions")]
    questions = [f"- {item}" for item in items(src.snapshot, "Open Questions")]
    decisions = [f"- {item}" for item in items(src.snapshot, "Decisions")]
    decisions += [f"- {item}" for item in items(src.relay, "Decisions")]
    if src.account is not None:
        decisions += [f"- {item}" for item in src.account.decisions]
    preferences = [f"- {item}" for item in items(src.relay, "User Preferences")]
    # rank: what is funded first when the budget is short (0: the plan, the request, the
    # files; 1: what shapes the next step; 2: what helps but can be looked up)
    return [
        Part("Plan", plan_lines(src), 0.30, level=3),
        Part("Last request", request, 0.30, level=3),
        Part("Files in play", files_lines(src), 0.12, level=3),
        Part("Outcome so far", outcome_lines(src), 0.05, level=3, rank=1),
        Part("Decisions", decisions, 0.10, level=3, rank=1),
        Part("Errors to keep in mind", error_lines(src), 0.07, level=3, rank=1),
        Part("Notes of where things stand", agent_context(src), 0.10, level=3, rank=1),
        Part("Next actions and open questions", next_steps + questions, 0.08, level=3, rank=1),
        Part("Repository", repo_lines(src), 0.06, level=3, rank=1),
        Part("User preferences", preferences, 0.04, level=3, rank=1),
        Part("The last reply", last_reply(src), 0.08, level=3, rank=2),
        Part("Commands used", command_lines(src), 0.05, level=3, rank=2),
        Part("Learnings", learnings(src), 0.06, level=3, rank=2),
        Part("The session began with", first_request(src, request), 0.05, level=3, rank=2),
    ]


def title_of(src: Sources) -> str | None:
    if src.transcript is not None and src.transcript.title:
        return clip_words(src.transcript.title, 80)
    if src.notes is not None and src.notes.sections.get("Session Title"):
        return clip_words(src.notes.sections["Session Title"], 80)
    return None
