"""``MemoryWriter``: notes during a session, and the end-of-session write to every file.

Notes (``note_decision`` …) are kept in ``state.json`` under the session's key as they are
taken, so CLI calls in separate processes add up and a crash loses nothing. ``end_session``
then writes, each step locked and verified: the daily-log entry (which also holds the
resumption note and every replaced thread position), ``threads.md``, ``resumption.md``,
the log index and finally ``state.json`` (count, time, flags), which releases the notes.
A retried end with the same content finds its token and does not write twice; two agents
ending at once each get their own session number and lose nothing of each other's.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from .. import clock
from ..errors import UsageError, WorkmemError, WriteError
from ..platforms.runtime import default_agent_name, running_platform
from . import resumption
from .daily import append_entry
from .entry import EntryParts, compose, has_marker, positions_addendum
from .events import Event, NewEvent, append_events, build_event
from .journal import Journal
from .log_index import update_days
from .session_input import (
    MAX_NOTE,
    checked_updates,
    clean,
    event_date,
    memory_lines,
    merge_notes,
    session_day,
)
from .state import REVIEW_DUE, JournalState, check_session_key, update_state
from .thread_updates import write_updates
from .threads import ThreadsDoc, check_thread_id

SESSION_ENV = "WORKMEM_SESSION_ID"
DEFAULT_KEY = "default"
OVER_LIMIT = "memory_md_over_limit"


@dataclass
class EndReport:
    session: int
    ended: str
    daily_log: str
    files: list[str] = field(default_factory=list)
    threads_touched: list[str] = field(default_factory=list)
    threads_created: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    notes: int = 0
    flags: list[str] = field(default_factory=list)
    redactions: int = 0
    already_done: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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
        when = event_date(body, on, normalized_date, date_text)
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
        journal, store, paths = self.journal, self.journal.store, self.journal.paths
        summary, n1 = clean(session_summary, "session summary", required=True)
        note, n2 = clean(resumption_note, "resumption note", required=True)
        mood_text, n3 = clean(mood, "mood")
        updates, n4 = checked_updates(thread_updates or {})
        redactions = n1 + n2 + n3 + n4
        now = clock.now()
        ended, day = clock.stamp(now), now.date()
        token = hashlib.sha256(
            "\x1f".join([self.key, summary, note, repr(sorted(updates))]).encode()
        ).hexdigest()[:16]

        # Strict reads first: a damaged file stops the end before anything is written.
        state_now = journal.state()
        if state_now.extra.get("last_end_token") == token:
            return EndReport(
                state_now.session_count,
                ended,
                journal.show(paths.daily_log(day)),
                already_done=True,
            )
        doc = ThreadsDoc.parse(journal.text(paths.threads) or "")
        res_text = journal.text(paths.resumption)
        previous = resumption.parse(res_text) if res_text and res_text.strip() else None

        reserved: dict[str, Any] = {}

        def reserve(state: JournalState) -> None:
            record = state.open_session(self.key)
            ending = record.get("ending")
            if isinstance(ending, dict) and ending.get("token") == token:
                number = int(ending["number"])
            else:
                number = state.session_count + 1
                state.session_count = number
                record["ending"] = {"token": token, "number": number}
            reserved.update(
                number=number,
                notes=list(record["notes"]),
                baseline=record.get("baseline", self._baseline),
            )

        update_state(store, paths.state, reserve)
        number: int = reserved["number"]
        notes: list[dict[str, Any]] = reserved["notes"]
        merged, touched = merge_notes(notes, updates, day)
        old_positions = {t: th.position() for t in touched if (th := doc.get(t)) is not None}
        replaced = None
        if previous and not previous.written_by_workmem and previous.note.strip():
            replaced = (
                None if previous.note.startswith("*No session has ended yet.") else previous.note
            )
        parts = EntryParts(
            token,
            self.key,
            summary,
            mood_text or None,
            note,
            notes,
            updates,
            touched,
            old_positions,
            replaced,
        )
        log_path = paths.daily_log(day)
        heading = f"Session {number} · {now:%H:%M} · {self.agent}"
        if not has_marker(journal.text(log_path) or "", token):
            append_entry(store, day, heading, compose(parts))
        changes = write_updates(
            store,
            paths.threads,
            merged,
            touched,
            when=f"{ended} (session {number})",
            day=day.isoformat(),
        )
        unrecorded = {
            t: p
            for t, p in changes.positions.items()
            if " ".join(p[0].split()) != " ".join(old_positions.get(t, "").split())
        }
        if unrecorded:
            append_entry(
                store,
                day,
                f"Session {number} · thread positions replaced",
                positions_addendum(token, self.key, unrecorded),
            )
        hand = resumption.write(
            store,
            paths,
            note=note,
            session=number,
            ended=ended,
            agent=self.agent,
            mood=mood_text or None,
            began_after_session=reserved["baseline"],
        )
        if hand is not None and hand.note != (replaced or ""):
            append_entry(
                store,
                day,
                f"Session {number} · replaced resumption note",
                "\n".join(f"> {line}" for line in hand.note.split("\n")),
            )
        update_days(store, journal.workspace, [day])
        final = self._finish(number, token, ended, summary, mood_text, touched, notes)
        self._verify(number, token, day, notes, note)
        return EndReport(
            session=number,
            ended=ended,
            daily_log=journal.show(log_path),
            files=[
                journal.show(p)
                for p in (log_path, paths.threads, paths.resumption, paths.log_index, paths.state)
            ],
            threads_touched=changes.touched,
            threads_created=changes.created,
            events=[str(n.get("event_id")) for n in notes if n.get("kind") == "event"],
            notes=len(notes),
            flags=final.raised_flags(),
            redactions=redactions + self.redactions,
        )

    def _finish(
        self,
        number: int,
        token: str,
        ended: str,
        summary: str,
        mood: str,
        touched: list[str],
        notes: list[dict[str, Any]],
    ) -> JournalState:
        journal = self.journal
        reviewed = journal.last_maintenance_date()
        over_limit = memory_lines(journal) > 200
        consumed = {n.get("id") for n in notes}

        def finish(state: JournalState) -> None:
            state.last_session, state.last_agent = ended, self.agent
            state.last_summary = summary if len(summary) <= 300 else summary[:299] + "…"
            state.last_mood = mood or None
            # a Maintenance Log date newer than the last review means curation ran since
            if reviewed and reviewed > (state.last_review or "")[:10]:
                state.last_review, state.sessions_since_review = reviewed, 0
                due = False
            else:
                state.sessions_since_review += 1
                due = state.flag(REVIEW_DUE)  # stays raised until a review happens
            every = journal.settings.review_every
            counted = every > 0 and state.sessions_since_review >= every
            state.flags[REVIEW_DUE] = due or counted
            if over_limit:
                state.flags[OVER_LIMIT] = True
            else:
                state.flags.pop(OVER_LIMIT, None)
            state.active_threads = list(dict.fromkeys([*touched, *state.active_threads]))[:10]
            record = state.open_sessions.get(self.key)
            if record is not None:
                left = [n for n in record.get("notes", []) if n.get("id") not in consumed]
                if left:
                    record["notes"] = left
                    record.pop("ending", None)
                else:
                    del state.open_sessions[self.key]
            state.extra["last_end_token"] = token

        return update_state(
            journal.store, journal.paths.state, finish, check=lambda s: s.last_session == ended
        )

    def _verify(
        self, number: int, token: str, day: date, notes: list[dict[str, Any]], note_text: str
    ) -> None:
        journal = self.journal
        log = journal.text(journal.paths.daily_log(day)) or ""
        if not has_marker(log, token):
            raise WriteError(f"{journal.show(journal.paths.daily_log(day))}: session entry missing")
        res_text = journal.text(journal.paths.resumption) or ""
        res = resumption.parse(res_text)
        kept = note_text is not None and " ".join(note_text.split()) in " ".join(res_text.split())
        if res.session is None or (res.session <= number and not kept):
            raise WriteError("memory/resumption.md: the new note is not there")
        ids = {e.id for e in journal.ledger().events}
        missing = [
            n["event_id"] for n in notes if n.get("kind") == "event" and n["event_id"] not in ids
        ]
        if missing:
            raise WriteError(f"memory/events.json: events {missing} are missing")

    def run_curation(self) -> Any:
        """Curate MEMORY.md now (``workmem.facts.curate``) and clear the review flag."""
        from ..facts.curate import curate

        report = curate(self.journal.workspace, now=clock.now(), store=self.journal.store)
        stamp = clock.stamp()

        def reviewed(state: JournalState) -> None:
            state.last_review, state.sessions_since_review = stamp, 0
            state.flags[REVIEW_DUE] = False

        update_state(self.journal.store, self.journal.paths.state, reviewed)
        return report
