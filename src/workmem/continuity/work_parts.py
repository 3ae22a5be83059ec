"""One session's work as the parts of a document: plan, request, files, decisions, errors …

``work_parts`` turns what ``work.read_sources`` read into parts in the order the next steps
need them, each fact from its best source and said once (a question the user answered
since is no open question, an answer the request part quotes is no separate decision). The
resume after a compaction and the handoff to another session show the same parts; only the
framing around them differs (``briefing``).
"""

from __future__ import annotations

import re

from ..files.shorten import clip_words, flatten
from .fit import Part
from .work import Sources, items, key, notes_lines

#: finished plan steps shown by name (the rest are counted)
DONE_SHOWN = 5

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..transcripts.facts import FileTouch
    from ..transcripts.model import Transcript


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


def last_reply(src: Sources, said: str = "") -> list[str]:
    """The agent's last words, unless the request part quotes them already (``said``: the
    words it quotes; the question a short follow-up answers)."""
    if src.facts is None or not src.facts.final_replies:
        return []
    reply = clip_words(src.facts.final_replies[-1], 600)
    return [] if _within(reply, said) else [reply]


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
    said = _words(" ".join(line for line in request if line.startswith(">")))
    # a pair whose answer is the request, quoted there with its question, is said already
    decisions = [d for d in decisions if not _within(d.partition(" → ")[2], said)]
    answered = {_words(d[2:].partition(" → ")[0]) for d in decisions if " → " in d}
    questions = [q for q in questions if not _answered_since(q, answered, said)]
    preferences = [f"- {item}" for item in items(src.relay, "User Preferences")]
    if src.account is not None:
        preferences += [
            f"- {clip_words(item, 240)}"
            for item in src.account.instructions
            if not _within(item, said)
        ]
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
        Part("User preferences", preferences, 0.06, level=3),
        Part("The last reply", last_reply(src, said), 0.08, level=3, rank=2),
        Part("Commands used", command_lines(src), 0.05, level=3, rank=2),
        Part("Learnings", learnings(src), 0.06, level=3, rank=2),
        Part("The session began with", first_request(src, request), 0.05, level=3, rank=2),
    ]


def _words(text: str) -> str:
    """Only the words of ``text``, for comparing a title with a message however either was
    escaped or marked up."""
    return " ".join(re.sub(r"[\W_]+", " ", text).split()).casefold()


def _within(text: str, said: str) -> bool:
    """Whether ``said`` (the words of what the request part quotes) holds ``text`` already."""
    words = _words(text.rstrip(" .…"))
    return len(words) >= 4 and words in said


def _answered_since(question: str, answered: set[str], said: str) -> bool:
    """An open question the user has answered since: a decision pairs it with its answer
    (``answered``: those questions' words), or the request part quotes it with its answer."""
    asked = _words(question.removeprefix("- "))
    return len(asked) >= 8 and (asked in answered or asked in said)


def title_of(src: Sources) -> str | None:
    """The session's title, unless it is only the start of its first message (some clients
    name a chat so): the document shows that message where it began."""
    title = src.transcript.title if src.transcript is not None else None
    if not title and src.notes is not None:
        title = src.notes.sections.get("Session Title")
    if not title:
        return None
    requests = src.transcript.user_requests() if src.transcript is not None else []
    start = _words(title.rstrip(" .…"))[:60]
    if requests and start and _words(requests[0]).startswith(start):
        return None
    return clip_words(title, 80)
