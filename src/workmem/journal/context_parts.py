"""The text of each loader phase, built from the files and fitted into its budget.

Kept apart from ``loader`` so the decision of what to load (strategy, branches) and the
writing of what was loaded can each be read on one screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..errors import WorkmemError
from .budget import PhaseText
from .daily import DailyLog, digest, list_logs
from .journal import Journal
from .strategy import (
    DEEP_RELOAD,
    EVENTS,
    FULL_RELOAD,
    KNOWN_THREAD,
    LIGHT,
    MAINTENANCE,
    NEW_TOPIC,
    RECALL,
    MessagePlan,
)
from .terms import term_set, terms

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .state import JournalState
    from .threads import Thread


@dataclass
class ContextInputs:
    """Everything a phase needs, read once by the loader and shared by the four phases."""

    journal: Journal
    now: datetime
    message: str
    state: JournalState | None
    strategy: str
    gap: float | None
    plan: MessagePlan
    threads: list[Thread]
    warnings: list[str]
    files_read: list[str] = field(default_factory=list)

    def read(self, path: Any) -> str | None:
        text = self.journal.safe_text(path, self.warnings)
        if text is not None:
            self.files_read.append(self.journal.show(path))
        return text


#: What each branch of the message plan loads, as the agent reads it (the branch names
#: themselves are the loader's own vocabulary and stay in the metadata).
#: Short: this line is paid for out of the same budget as the recalled passages.
_BRANCH_WORDS = {
    KNOWN_THREAD: "its thread",
    NEW_TOPIC: "a new topic",
    MAINTENANCE: "memory review due",
    EVENTS: "events by date",
    RECALL: "memory search",
}


def orient_phase(inputs: ContextInputs, phase: PhaseText) -> None:
    state = inputs.state
    lines = ["## Orientation (state.json)"]
    if state is None:
        lines.append("- No earlier session recorded.")
    else:
        inputs.files_read.append(inputs.journal.show(inputs.journal.paths.state))
        who = f" by {state.last_agent}" if state.last_agent else ""
        mood = f", mood: {state.last_mood}" if state.last_mood else ""
        when = state.last_session or "unknown"
        lines.append(f"- Last session: #{state.session_count} ended {when}{who}{mood}.")
        if state.last_summary:
            lines.append(f"- It was about: {state.last_summary}")
        if inputs.journal.review_due(state):
            lines.append(
                f"- Memory review due ({state.sessions_since_review} sessions since the last): "
                "curate MEMORY.md (`workmem curate`)."
            )
        flags = [f for f in state.raised_flags() if f != "memory_review_due"]
        if flags:
            lines.append(f"- Flags: {', '.join(flags)}")
        if state.active_threads:
            lines.append(f"- Active threads: {', '.join(state.active_threads[:8])}")
        pending = sum(len(s.get("notes", [])) for s in state.open_sessions.values())
        if pending:
            lines.append(
                f"- {pending} note(s) from a session that has not ended yet; "
                "the next `workmem end` writes them."
            )
    asked = [_BRANCH_WORDS.get(branch, branch) for branch in inputs.plan.branches]
    if asked:
        lines.append(f"- Loaded for this message: {', '.join(asked)}.")
    phase.add_clipped("state", "\n".join(lines))


def anchor_phase(inputs: ContextInputs, phase: PhaseText) -> None:
    text = inputs.read(inputs.journal.paths.resumption)
    if not text or not text.strip():
        return
    from .resumption import parse as parse_resumption

    note = parse_resumption(text)
    if not note.note.strip():
        return
    where = f" (session {note.session}, ended {note.ended})" if note.session else ""
    phase.add_clipped("resumption", f"## Resumption{where}\n\n{note.note.strip()}")
    for index, other in enumerate(note.parallel):
        if not phase.add(
            f"resumption:parallel-{index + 1}", f"### Also from a parallel session\n\n{other}"
        ):
            phase.omitted.append(f"resumption:parallel-{index + 1}")


def _memory_items(inputs: ContextInputs, *, everything: bool) -> list[tuple[str, str]]:
    text = inputs.read(inputs.journal.paths.memory_md)
    if not text or not text.strip():
        return []
    from ..facts.memory_md import read_tiers

    try:
        tiers = read_tiers(text)
    except WorkmemError as exc:
        inputs.warnings.append(f"MEMORY.md could not be read as tiers: {exc}")
        return [("memory:MEMORY.md", text)]
    wanted = set(terms(inputs.message))
    ranked = sorted(
        tiers.active.items(),
        key=lambda kv: len(wanted & term_set(f"{kv[0]} {kv[1]}")),
        reverse=True,
    )
    items: list[tuple[str, str]] = []
    if tiers.active_intro.strip() and everything:
        items.append(("memory:Active", tiers.active_intro.strip()))
    for title, body in ranked:
        if body.strip():
            items.append((f"memory:Active/{title}", f"### {title}\n{body.strip()}"))
    if not everything:
        best = [i for i in items if i[0].startswith("memory:Active/")]
        return best[:1]
    if MAINTENANCE in inputs.plan.branches or inputs.strategy == DEEP_RELOAD:
        if tiers.fading.strip():
            items.append(("memory:Fading", f"### Fading\n{tiers.fading.strip()}"))
        if tiers.maintenance_log.strip() and MAINTENANCE in inputs.plan.branches:
            tail = "\n".join(tiers.maintenance_log.strip().split("\n")[-8:])
            items.append(("memory:Maintenance Log", f"### Maintenance Log (latest)\n{tail}"))
    return items


def _recent_summaries(inputs: ContextInputs, count: int) -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    for log in reversed(list_logs(inputs.journal.workspace)[-count:] if count else []):
        text = inputs.read(log.path)
        if text is None:
            continue
        found = digest(text)
        threads = f" [{', '.join(found.threads[:4])}]" if found.threads else ""
        sessions = f" ({found.sessions} sessions)" if found.sessions > 1 else ""

        summary = found.summary or "(no summary)"
        items.append((f"log:{log.day}", f"- {log.day}{sessions}: {summary}{threads}"))
    return items


def _nested(text: str) -> str:
    """A thread's own headings one level down, so they sit under the phase's heading."""
    out = []
    fence = False
    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        out.append(
            "#" + line
            if not fence and line.startswith("#") and not line.startswith("######")
            else line
        )
    return "\n".join(out)


#: Share of the context phase the recent daily logs may take before anything else.
LOG_SHARE = 2


def _recent_logs_block(inputs: ContextInputs, phase: PhaseText) -> PhaseText:
    """The recent daily logs, funded first (up to half the phase), newest first: after a
    year the thread list and MEMORY.md alone fill the phase, and the newest log must be the
    last thing to go, not the first."""
    count = inputs.journal.settings.recent_logs
    if MAINTENANCE in inputs.plan.branches:
        count = max(count, inputs.journal.settings.review_every)
    block = PhaseText(phase.name, phase.cap // LOG_SHARE, phase.count)
    block.add_list("## Recent daily logs", _recent_summaries(inputs, count), what="daily summaries")
    return block


def context_phase(inputs: ContextInputs, phase: PhaseText) -> None:
    plan, strategy = inputs.plan, inputs.strategy
    heavy = strategy in (FULL_RELOAD, DEEP_RELOAD)
    logs = _recent_logs_block(inputs, phase) if heavy or MAINTENANCE in plan.branches else None
    if logs is not None:
        phase.cap -= logs.tokens + (1 if logs.tokens else 0)
    if plan.threads:
        inputs.files_read.append(inputs.journal.show(inputs.journal.paths.threads))
        phase.add_list(
            "## Threads this is about",
            [(f"thread:{m.thread.id}", _nested(m.thread.text())) for m in plan.threads],
            what="threads",
        )
    if EVENTS in plan.branches:
        _events_block(inputs, phase)
    if strategy != LIGHT or MAINTENANCE in plan.branches:
        everything = NEW_TOPIC in plan.branches or heavy or MAINTENANCE in plan.branches
        items = _memory_items(inputs, everything=everything)
        if items:
            title = "## Long-term memory (MEMORY.md)" if everything else "## From MEMORY.md"
            phase.add_list(title, items, what="MEMORY.md sections")
    if inputs.threads and ((NEW_TOPIC in plan.branches and strategy != LIGHT) or heavy):
        inputs.files_read.append(inputs.journal.show(inputs.journal.paths.threads))
        shown = {m.thread.id for m in plan.threads}
        ordered = sorted(
            (t for t in inputs.threads if t.id not in shown),
            key=lambda t: t.last_touched(),
            reverse=True,
        )
        phase.add_list(
            "## Threads (most recently touched first)",
            [(f"thread:{t.id}", t.header_line()) for t in ordered],
            what="threads",
        )
    if logs is not None:
        phase.cap += logs.tokens + (1 if logs.tokens else 0)
        phase.absorb(logs)
    if KNOWN_THREAD not in plan.branches and NEW_TOPIC in plan.branches and strategy == LIGHT:
        phase.notes.append(
            "light load: MEMORY.md and the thread list skipped (gap under light_hours)"
        )


def _events_block(inputs: ContextInputs, phase: PhaseText) -> None:
    from .event_rank import rank_events

    ledger = inputs.journal.safe_ledger(inputs.warnings)
    if ledger is None or not ledger.events:
        return
    inputs.files_read.append(inputs.journal.show(inputs.journal.paths.events))
    ranking = rank_events(ledger.events, inputs.message, inputs.now.date())
    if not ranking.matches:
        phase.notes.append("events: none matched the message")
        return
    ordering = ranking.ordering
    phase.add_list(
        f"## Events (events.json, {ordering})",
        [(f"event:{m.event.id}", m.event.line()) for m in ranking.matches],
        what="events",
    )


#: Hits asked of the index for deep recall: one per this many tokens of the phase (at
#: least ``RECALL_HITS``). The phase keeps as many as its budget holds, best first, so a
#: larger budget gets more evidence instead of an empty tail.
RECALL_HITS = 30
RECALL_TOKENS_PER_HIT = 25


def recall_hits(cap: int) -> int:
    return max(RECALL_HITS, cap // RECALL_TOKENS_PER_HIT)


def deep_phase(inputs: ContextInputs, phase: PhaseText) -> None:
    if phase.cap <= 0:
        return
    if RECALL in inputs.plan.branches and inputs.message.strip():
        from .recall import recall_into

        recall_into(
            phase,
            "## Deep recall (search)",
            inputs.journal,
            inputs.message,
            None,
            recall_hits(phase.cap),
            inputs.warnings,
        )
        return
    if inputs.strategy != DEEP_RELOAD:
        return
    logs = list_logs(inputs.journal.workspace)
    chosen, title = logs[-DEEP_LOGS:][::-1], "## Deep recall (newest daily logs)"
    if len(logs) > LOG_INDEX_AT:
        picked = _logs_from_index(inputs, logs)
        if picked:
            chosen, title = picked, "## Deep recall (daily logs chosen through log-index.md)"
    items = []
    for log in chosen:
        text = inputs.read(log.path)
        if text and text.strip():
            items.append((f"log:{log.day}", f"### {log.day}.md\n{text.strip()}"))
    phase.add_list(title, items, what="daily logs")


#: Daily logs the deep phase loads whole.
DEEP_LOGS = 5
#: Seed 004: the daily-log index is read "when daily logs exceed ~30".
LOG_INDEX_AT = 30


def _logs_from_index(inputs: ContextInputs, logs: list[DailyLog]) -> list[DailyLog]:
    """The logs to load, picked from ``memory/log-index.md``: the rows that share the most
    words with the message or name a thread it is about, then the newest. Empty when the
    index cannot be read (the newest logs are loaded instead, with a warning)."""
    from ..files.tables import TableDocument
    from .log_index import COLUMNS

    path = inputs.journal.paths.log_index
    text = inputs.read(path)
    if not text:
        return []
    try:
        doc = TableDocument.parse(text, expected_header=COLUMNS, path=inputs.journal.show(path))
    except WorkmemError as exc:
        inputs.warnings.append(f"the daily-log index could not be read: {exc}")
        return []
    by_day = {log.day.isoformat(): log for log in logs}
    wanted = set(terms(inputs.message))
    threads = {m.thread.id for m in inputs.plan.threads}
    scored: list[tuple[int, str]] = []
    for row in doc.rows:
        day = row.values[0]
        if day not in by_day:
            continue
        score = len(wanted & term_set(" ".join(row.values[2:])))
        score += 5 * len(threads & {t.strip() for t in row.values[3].split(",")})
        scored.append((score, day))
    matched = [day for score, day in sorted(scored, reverse=True) if score > 0]
    newest = [log.day.isoformat() for log in reversed(logs)]
    days = list(dict.fromkeys([*matched, *newest]))[:DEEP_LOGS]
    return [by_day[day] for day in days]
