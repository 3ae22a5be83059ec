"""``MemoryWriter``: notes during a session, and the end-of-session write to every file.

Notes (``note_decision`` …) are kept in ``state.json`` under the session's key as they are
taken, so CLI calls in separate processes add up and a crash loses nothing. ``end_session``
then writes every file of the session (``workmem.journal.ending``): a retried end with the
same content does not write twice, an end that stopped part-way is finished (or replaced)
by the next one, and two agents ending at once each get their own session number and lose
nothing of each other's.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from .. import clock
from ..errors import UsageError, WorkmemError
from ..platforms.runtime import default_agent_name, running_platform
from .ending import OVER_LIMIT, EndReport, end_session
from .events import Event, NewEvent, append_events, build_event
from .journal import Journal
from .session_input import MAX_NOTE, clean, event_date, session_day
from .state import REVIEW_DUE, JournalState, check_session_key, update_state
from .threads import check_thread_id

SESSION_ENV = "WORKMEM_SESSION_ID"
DEFAULT_KEY = "default"

__all__ = ["OVER_LIMIT", "EndReport", "MemoryWriter"]


class MemoryWriter:
    def __init__(
        self,
        root: str | Path | None = None,
        *,
        session_key: str | None = None,
        agent_name: str | None = None,
    ) -> None:
        self.journal = Journal.open(root)
        self.key = check_session_key(session_key or os.environ.get(SESSION_ENV) or DEFAULT_KEY)
        configured = self.journal.settings_file
        platform = running_platform(configured=configured.platform)
        self.agent = agent_name or configured.agent_name or default_agent_name(platform)
        self.redactions = 0
        try:
            self._baseline: int | None = self.journal.state().session_count
        except WorkmemError:
            self._baseline = None

    # notes ---------------------------------------------------------------------------
    def _note(self, kind: str, **fields: Any) -> dict[str, Any]:
        note = {"id": secrets.token_hex(4), "kind": kind, "at": clock.stamp(), **fields}

        def add(state: JournalState) -> None:
            record = state.open_session(self.key)
            record.setdefault("started", note["at"])
            if self._baseline is not None:
                record.setdefault("baseline", self._baseline)
            record["notes"].append(note)

        def check(state: JournalState) -> bool:
            notes = state.open_sessions.get(self.key, {}).get("notes", [])
            return any(n.get("id") == note["id"] for n in notes)

        update_state(self.journal.store, self.journal.paths.state, add, check=check)
        return note

    def _text(self, text: str, what: str) -> str:
        if len((text or "").strip()) > MAX_NOTE:
            raise UsageError(f"{what} is too long; keep notes under {MAX_NOTE:,} characters")
        value, count = clean(text, what, required=True)
        self.redactions += count
        return value

    def note_decision(
        self, decision: str, reasoning: str = "", *, thread: str | None = None
    ) -> dict[str, Any]:
        return self._note(
            "decision",
            text=self._text(decision, "decision"),
            reasoning=clean(reasoning, "reasoning")[0] or None,
            thread=check_thread_id(thread) if thread else None,
        )

    def note_open_question(self, question: str, *, thread: str | None = None) -> dict[str, Any]:
        return self._note(
            "question",
            text=self._text(question, "question"),
            thread=check_thread_id(thread) if thread else None,
        )

    def note_pattern(self, pattern: str) -> dict[str, Any]:
        return self._note("pattern", text=self._text(pattern, "pattern"))

    def note_thread_touched(self, thread_id: str) -> dict[str, Any]:
        return self._note("thread", thread=check_thread_id(thread_id))

    def note_event(
        self,
        event_type: str,
        text: str,
        action: str | None = None,
        object_hint: str | None = None,
        normalized_date: str | None = None,
        *,
        date_text: str | None = None,
        session_date: date | str | None = None,
    ) -> Event:
        """Record a dated event now (events.json), normalized against the session's date."""
        on = session_day(session_date)
        body = self._text(text, "event text")
        when = event_date(body, on, normalized_date, date_text, event_type)
        event = build_event(
            NewEvent(
                event_type=clean(event_type, "event type", required=True)[0],
                text=body,
                action=clean(action, "action")[0] or None,
                object_hint=clean(object_hint, "object hint")[0] or None,
                when=when,
                session_date=on,
                recorded_at=clock.stamp(),
                source=f"memory/{clock.now():%Y-%m-%d}.md",
            )
        )
        stored = append_events(self.journal.store, self.journal.paths.events, [event])[0]
        self._note(
            "event",
            event_id=stored.id,
            type=stored.type,
            text=stored.text,
            date=stored.normalized_date,
            date_text=stored.date_text,
        )
        return stored

    def pending_notes(self) -> list[dict[str, Any]]:
        return list(self.journal.state().open_sessions.get(self.key, {}).get("notes", []))

    # end of session ------------------------------------------------------------------
    def end_session(
        self,
        session_summary: str,
        resumption_note: str,
        thread_updates: Mapping[str, Mapping[str, Any]] | None = None,
        mood: str | None = None,
    ) -> EndReport:
        """Write every output of the session (``workmem.journal.ending``), verified."""
        report = end_session(
            self.journal,
            key=self.key,
            agent=self.agent,
            baseline=self._baseline,
            session_summary=session_summary,
            resumption_note=resumption_note,
            thread_updates=thread_updates,
            mood=mood,
        )
        report.redactions += self.redactions
        return report

    def run_curation(self, *, dry_run: bool = False) -> Any:
        """Curate MEMORY.md now (``workmem.facts.curate``) with the patterns the daily logs
        confirm, and clear the review flag (a dry run only reports)."""
        from ..facts.curate import CurationSettings, curate
        from ..files.store import Store
        from .patterns import repeated_patterns

        workspace = self.journal.workspace
        settings = CurationSettings.from_workspace(workspace)
        # A dry run reads only: a read-only store takes no lock and writes no lock file.
        store = Store(workspace, read_only=True) if dry_run else self.journal.store
        report = curate(
            workspace,
            now=clock.now(),
            store=store,
            dry_run=dry_run,
            settings=settings,
            patterns=repeated_patterns(self.journal, settings.pattern_repeats),
        )
        if dry_run:
            return report
        stamp = clock.stamp()

        def reviewed(state: JournalState) -> None:
            state.last_review, state.sessions_since_review = stamp, 0
            state.flags[REVIEW_DUE] = False

        update_state(self.journal.store, self.journal.paths.state, reviewed)
        return report
