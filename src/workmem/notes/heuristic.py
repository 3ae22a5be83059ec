"""The default extractor: the ten sections from the transcript alone, no network.

Current state from the agent's own plan (Claude Code ``TodoWrite``, Codex
``update_plan``, Gemini ``write_todos``) and the last request; the task from the user's
requests; workflow from shell commands in the order first run; files and functions from
edit and read calls; errors from failed tool results with what the agent did next, and
the user's corrections; a worklog per round. What only the conversation says comes from
``transcripts.statements``: the agent's explanations of how the code works (Codebase
Documentation, beside the files read), lessons and the user's standing rules (Learnings),
and results worth repeating verbatim (Key Results: tables, reported figures, the answer to
each question the user asked; never an ordinary sentence of a reply). What an earlier
extraction, the LLM extractor or a person wrote there is kept, the new items after it.
"""

from __future__ import annotations

import re

from ..files.freetext import clip, redacted, shorten
from ..transcripts.facts import TranscriptFacts, describe_file, extract_facts, shell_command
from ..transcripts.model import Transcript
from ..transcripts.statements import codebase_notes, key_results, learnings

_CORRECTION = re.compile(
    r"^\s*(no\b|nope|don'?t|do not|stop|instead|wrong|that'?s not|actually"
    r"|不要|别|不是|錯|错|やめて|違う)",
    re.I,
)


def _clip(text: str, width: int = 240) -> str:
    """One line of at most ``width`` characters, redacted before it is cut."""
    return shorten(text, width, fold=True)


def _title(transcript: Transcript, previous: str) -> str:
    if previous.strip():
        return previous.strip()
    if transcript.title:
        return _clip(transcript.title, 80)
    requests = transcript.user_requests()
    if not requests:
        return ""
    words = redacted(requests[0]).split()  # redacted before its first words are taken
    return " ".join(words[:10]) + ("…" if len(words) > 10 else "")


def _current_state(transcript: Transcript, facts: TranscriptFacts) -> str:
    lines: list[str] = []
    for status, label in (("in_progress", "In progress"), ("pending", "Pending")):
        for item in facts.plan_items(status):
            lines.append(f"- {label}: {_clip(item)}")
    done = facts.plan_items("completed")
    if done:
        lines.append(f"- Done ({len(done)}): " + "; ".join(_clip(d, 80) for d in done[-5:]))
    if facts.requests:
        lines.append(f"- Last request: {_clip(facts.requests[-1], 400)}")
    if facts.final_replies:
        lines.append(f"- Last reply: {_clip(facts.final_replies[-1], 400)}")
    open_errors = [e for e in facts.errors if not e.resolved]
    if open_errors:
        last = open_errors[-1]
        lines.append(
            f"- Last unresolved error: {last.tool} {_clip(last.subject, 120)}: "
            f"{_clip(last.error, 200)}"
        )
    if transcript.compactions:
        lines.append(f"- Context compacted {len(transcript.compactions)} time(s) so far")
    return "\n".join(lines)


def _task(transcript: Transcript) -> str:
    requests = transcript.user_requests()
    if not requests:
        return ""
    lines = [f"- First request: {_clip(requests[0], 600)}"]
    later = requests[1:]
    if len(later) > 8:
        lines.append(f"- ({len(later) - 8} earlier follow-ups omitted)")
    lines += [f"- Then: {_clip(r, 300)}" for r in later[-8:]]
    return "\n".join(lines)


def _workflow(facts: TranscriptFacts) -> str:
    counts: dict[str, int] = {}
    for run in facts.commands:
        counts[run.command] = counts.get(run.command, 0) + 1
    lines = []
    for command, count in list(counts.items())[:20]:
        times = f" (×{count})" if count > 1 else ""
        lines.append(f"- `{_clip(command, 200)}`{times}")
    if len(counts) > 20:
        lines.append(f"- … and {len(counts) - 20} other commands")
    return "\n".join(lines)


def _files(facts: TranscriptFacts) -> str:
    edited = [f"- `{f.path}` — {describe_file(f)}" for f in facts.edited[:40]]
    return "\n".join(edited)


_FILES_READ = "Files read for context: "
#: lines a section keeps at most (the oldest of ours go first)
SECTION_LINES = 40


def _merged(previous: str, new: list[str], *, drop: str | None = None) -> str:
    """``previous`` (what an earlier extraction, the LLM or a person wrote) with the new
    items after it, each once; past ``SECTION_LINES`` the oldest items go first."""
    kept = [
        line
        for line in previous.strip().split("\n")
        if line.strip() and not (drop and drop in line)
    ]
    have = {" ".join(line.split()) for line in kept}
    for item in new:
        line = f"- {_clip(item, 400)}"
        if " ".join(line.split()) not in have:
            have.add(" ".join(line.split()))
            kept.append(line)
    while len(kept) > SECTION_LINES and any(line.startswith("- ") for line in kept):
        kept.remove(next(line for line in kept if line.startswith("- ")))
    return "\n".join(kept)


def _codebase(transcript: Transcript, facts: TranscriptFacts, previous: str) -> str:
    text = _merged(previous, codebase_notes(transcript), drop=_FILES_READ)
    read_only = [f.path for f in facts.files if not (f.edits or f.created)]
    if read_only:
        listed = _FILES_READ + ", ".join(f"`{p}`" for p in read_only[:30])
        text = f"{text}\n{listed}" if text else listed
    return text


def _errors(transcript: Transcript, facts: TranscriptFacts) -> str:
    lines = []
    for error in facts.errors[-15:]:
        state = "resolved" if error.resolved else "unresolved"
        what = f" `{_clip(error.subject, 150)}`" if error.subject else ""
        line = f"- {error.tool}{what} failed ({state}): {_clip(error.error, 200)}"
        if error.next_step:
            line += f" → next: {_clip(error.next_step, 160)}"
        lines.append(line)
    for request in transcript.user_requests():
        if _CORRECTION.match(request):
            lines.append(f"- User correction: {_clip(request, 240)}")
    return "\n".join(lines[-25:])


#: result blocks Key Results keeps (the newest)
RESULT_BLOCKS = 12


def _results(transcript: Transcript, previous: str) -> str:
    """Earlier results, then the new ones (verbatim, each once): blocks apart by a blank line."""
    blocks = [b.strip() for b in previous.split("\n\n") if b.strip()]
    for result in key_results(transcript):
        text = clip(result, 3000)  # redacted before it is cut
        if text not in blocks:
            blocks.append(text)
    return "\n\n".join(blocks[-RESULT_BLOCKS:])


def _worklog(transcript: Transcript) -> str:
    lines = []
    messages = transcript.messages
    index = 0
    rounds: list[tuple[str, str, list[str]]] = []
    while index < len(messages):
        message = messages[index]
        if message.is_conversation and message.role == "user":
            actions: list[str] = []
            rounds.append((message.time or "", message.text, actions))
        elif rounds:
            for call in message.tool_calls:
                command = shell_command(call)
                target = command or str(call.input.get("file_path") or call.input.get("path") or "")
                actions.append(f"{call.name} {_clip(target, 60)}".strip())
        index += 1
    for time, text, actions in rounds[-30:]:
        stamp = time[11:16] if len(time) >= 16 and time[10] in "T " else ""
        summary = f"{len(actions)} tool call(s)" if actions else "no tools"
        detail = "; ".join(dict.fromkeys(actions))
        prefix = f"{stamp} " if stamp else ""
        lines.append(
            f"- {prefix}{_clip(text, 100)} → {summary}"
            + (f": {_clip(detail, 200)}" if detail else "")
        )
    return "\n".join(lines)


def extract_sections(transcript: Transcript, previous: dict[str, str]) -> dict[str, str]:
    """New contents for every section (previous contents where the transcript is silent)."""
    facts = extract_facts(transcript)
    return {
        "Session Title": _title(transcript, previous.get("Session Title", "")),
        "Current State": _current_state(transcript, facts),
        "Task Specification": _task(transcript),
        "Workflow": _workflow(facts),
        "Files and Functions": _files(facts),
        "Codebase Documentation": _codebase(
            transcript, facts, previous.get("Codebase Documentation", "")
        ),
        "Errors and Corrections": _errors(transcript, facts),
        "Key Results": _results(transcript, previous.get("Key Results", "")),
        "Learnings": _merged(previous.get("Learnings", ""), learnings(transcript)),
        "Worklog": _worklog(transcript),
    }
