"""The four-phase loader of seed 004: orient, anchor, context, deep recall, within budget.

Phase 1 reads ``state.json`` and picks a strategy from the time since the last session;
Phase 2 reads the resumption note; Phase 3 loads what the opening message needs (a known
thread, or MEMORY.md and the thread list for a new topic, MEMORY.md and recent summaries
when a review is due, ranked events when the question is about dates); Phase 4 recalls
from the daily logs and the archive when the gap is long or the message asks to remember.
Each phase has its own cap and the total is never exceeded; what did not fit is said in
the text and listed in the metadata. A damaged file is skipped with a warning: loading
never writes, so it can never make anything worse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import clock
from .budget import PHASES, BudgetConfig, PhaseText, SessionContext
from .context_parts import ContextInputs, anchor_phase, context_phase, deep_phase, orient_phase
from .journal import Journal
from .strategy import RECALL, STRATEGY_WORDS, gap_hours, plan_message, strategy_for

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any


@dataclass
class Lookup:
    """A Phase 4 answer: text to inject mid-session, its cost, and the items behind it."""

    text: str
    total_tokens: int
    items: list[dict[str, Any]] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.items)


class MemoryLoader:
    """``MemoryLoader(root).load_session_context(user_message)`` at session start."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.journal = Journal.open(root)

    @property
    def root(self) -> Path:
        return self.journal.workspace.root

    def load_session_context(
        self, user_message: str = "", budget: BudgetConfig | None = None
    ) -> SessionContext:
        from ..retrieval.tokens import count_tokens, tokenizer_name

        journal = self.journal
        budget = budget or journal.settings.budget
        now = clock.now()
        warnings: list[str] = []
        state = journal.safe_state(warnings)
        last = state.last_session_time() if state else None
        gap = gap_hours(last, now)
        strategy = strategy_for(gap, journal.settings)
        threads = journal.safe_threads(warnings)
        review_due = journal.review_due(state)
        plan = plan_message(user_message, threads, today=now.date(), review_due=review_due)
        inputs = ContextInputs(
            journal=journal,
            now=now,
            message=user_message,
            state=state,
            strategy=strategy,
            gap=gap,
            plan=plan,
            threads=threads,
            warnings=warnings,
        )
        header = f"# Working memory · {clock.stamp(now)} · {STRATEGY_WORDS[strategy]}" + (
            f" · last session {_gap_text(gap)} ago" if gap is not None else ""
        )
        used = count_tokens(header + "\n\n")
        if used > budget.total:
            header, used = "", 0
        builders = {
            "orient": orient_phase,
            "anchor": anchor_phase,
            "context": context_phase,
            "deep": deep_phase,
        }
        # A question is answered by recall: the deep phase is funded before the broad
        # context, so a small budget goes to the passages that answer it. The text keeps
        # the seed's phase order either way.
        order = PHASES
        if RECALL in plan.branches:
            order = ("orient", "anchor", "deep", "context")
        built: dict[str, PhaseText] = {}
        for name in order:
            cap = max(0, min(budget.cap(name), budget.total - used))
            phase = PhaseText(name, cap, count_tokens)
            builders[name](inputs, phase)
            built[name] = phase
            used += phase.tokens + (1 if phase.tokens else 0)
        phases = [built[name] for name in PHASES]
        text, total = _assemble(header, phases, budget.total, count_tokens)
        metadata: dict[str, Any] = {
            "now": clock.stamp(now),
            "strategy": strategy,
            "gap_hours": round(gap, 2) if gap is not None else None,
            "branches": plan.branches,
            "matched_threads": [m.thread.id for m in plan.threads],
            "date_words": plan.date_words,
            "budget": budget.__dict__.copy(),
            "tokenizer": tokenizer_name(),
            "phases": {p.name: p.summary() for p in phases},
            "omitted": [k for p in phases for k in p.omitted],
            "files": sorted(set(inputs.files_read)),
            "warnings": warnings,
        }
        return SessionContext(text=text, total_tokens=total, metadata=metadata)

    def phase_4_event_lookup(
        self, query: str, *, limit: int = 20, budget_tokens: int | None = None
    ) -> Lookup:
        """Events for a question, from ``events.json``: by the dates it names, then by words."""
        from ..retrieval.tokens import count_tokens
        from .event_rank import rank_events

        journal = self.journal
        ledger = journal.ledger()
        now = clock.now()
        ranking = rank_events(ledger.events, query, now.date(), limit=limit)
        cap = budget_tokens if budget_tokens is not None else journal.settings.budget.deep
        phase = PhaseText("events", cap, count_tokens)
        ordering = ranking.ordering
        items = [(f"event:{m.event.id}", m.event.line()) for m in ranking.matches]
        phase.add_list(f"## Events for “{query.strip()}” ({ordering})", items, what="events")
        loaded = {k.split(":", 1)[1] for k in phase.loaded if k.startswith("event:")}
        return Lookup(
            text=phase.text() if ranking.matches else "",
            total_tokens=phase.tokens if ranking.matches else 0,
            items=[
                {**m.event.to_json(), "score": m.score}
                for m in ranking.matches
                if m.event.id in loaded
            ],
            metadata={
                "date_ranges": [r.to_dict() for r in ranking.ranges],
                "out_of_range": ranking.out_of_range,
                "undated_skipped": ranking.undated,
                "matched": len(ranking.matches),
                "omitted": [k for k in phase.omitted if k.startswith("event:")],
                "skipped_entries": ledger.skipped,
            },
        )

    def phase_4_search(
        self,
        query: str,
        *,
        kinds: list[str] | None = None,
        k: int = 8,
        budget_tokens: int | None = None,
    ) -> Lookup:
        """Deep recall over logs, archive and threads through the search index."""
        from ..retrieval.tokens import count_tokens
        from .recall import recall_into

        cap = budget_tokens if budget_tokens is not None else self.journal.settings.budget.deep
        phase = PhaseText("deep", cap, count_tokens)
        warnings: list[str] = []
        title = f"## Recall for “{query.strip()}”"
        recalled = recall_into(phase, title, self.journal, query, kinds, k, warnings)
        return Lookup(
            text=phase.text() if recalled else "",
            total_tokens=phase.tokens if recalled else 0,
            items=recalled.items(),
            metadata={"omitted": phase.omitted, "warnings": warnings},
        )


def _gap_text(gap: float) -> str:
    if gap < 1:
        return f"{round(gap * 60)} min"
    if gap < 48:
        return f"{gap:.1f} h"
    return f"{gap / 24:.1f} days"


def _assemble(header: str, phases: list[PhaseText], total: int, count: Any) -> tuple[str, int]:
    """Join the phases and check the real count of the whole against the total cap."""
    chunks = [header + "\n"] if header else []
    chunks += [p.text() for p in phases if p.tokens]
    text = "\n".join(chunks)
    tokens: int = count(text)
    while tokens > total and chunks:
        # BPE merges across joins can differ from the sum of parts; drop from the end
        chunks.pop()
        text = "\n".join(chunks)
        tokens = count(text)
    return text, tokens
