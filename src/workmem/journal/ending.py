"""The end of a session (seed 004's ``end_session``): every file, in order, or a clear account.

An end writes five files: the daily-log entry (which also holds the resumption note and
every replaced thread position, so nothing the later writes replace is lost), ``threads.md``,
``resumption.md``, the log index and ``state.json``. Each write is locked and verified on
its own; what makes the five one operation is the reservation in ``state.json``:

* the first thing an end does is reserve its session number, with what it is about to
  replace (the old thread positions, a hand-written resumption note);
* a retry of an end that stopped part-way finds that reservation and finishes it: the same
  text skips what is already there, a changed text takes the place of the attempt (its
  daily-log entries are removed in the same write that adds the new one, and what it
  replaced is still recorded from the reservation), with the same session number;
* when a step fails, the error names the files already written and those not written.

The retry check covers everything a call writes: the summary, the note, the mood, every
thread update and the session's pending notes. Only an end that would write nothing new is
reported as already done.

Each end owns its reservation (``reservation``): ends running at once, even under one key,
never take over or remove one another's entries; only a reservation whose owner is gone is
finished by the next end.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from .. import clock
from ..files.freetext import neutralize_line
from . import reservation, resumption
from .daily import append_entry, remove_entries
from .end_account import Progress, verify_end
from .entry import EntryParts, compose, has_marker, positions_addendum, resumption_addendum
from .journal import Journal
from .log_index import update_days
from .session_input import checked_updates, clean, memory_lines, merge_notes
from .state import REVIEW_DUE, JournalState, update_state
from .thread_updates import ThreadUpdate, write_updates
from .threads import ThreadsDoc, stored_position

OVER_LIMIT = "memory_md_over_limit"
#: Characters of the summary kept in state.json (the loader's "It was about").
STATE_SUMMARY = 300


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
    #: an earlier attempt of this end that stopped part-way was finished (or replaced)
    resumed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def end_token(
    key: str,
    summary: str,
    note: str,
    mood: str,
    updates: Mapping[str, ThreadUpdate],
    notes: list[dict[str, Any]] | None = None,
) -> str:
    """The identity of what an end writes: every value, thread updates in full, and the
    pending notes (by their IDs) when there are any."""
    content: list[Any] = [key, summary, note, mood]
    content.append({t: asdict(u) for t, u in sorted(updates.items())})
    if notes:
        content.append([str(n.get("id")) for n in notes])
    payload = json.dumps(content, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _superseded(prior: dict[str, Any] | None, token: str) -> list[dict[str, str]]:
    """Earlier attempts (token and day) whose daily-log entries this end replaces."""
    if prior is None:
        return []
    found = [a for a in prior.get("superseded", []) if isinstance(a, dict) and a.get("token")]
    if prior.get("token") != token:
        found.append({"token": str(prior.get("token")), "day": str(prior.get("day", ""))})
    return [a for a in found if a["token"] != token]


def end_session(
    journal: Journal,
    *,
    key: str,
    agent: str,
    baseline: int | None,
    session_summary: str,
    resumption_note: str,
    thread_updates: Mapping[str, Mapping[str, Any]] | None = None,
    mood: str | None = None,
) -> EndReport:
    paths = journal.paths
    summary, n1 = clean(session_summary, "session summary", required=True)
    note, n2 = clean(resumption_note, "resumption note", required=True)
    mood_text, n3 = clean(mood, "mood")
    updates, n4 = checked_updates(thread_updates or {})
    redactions = n1 + n2 + n3 + n4
    now = clock.now()
    ended, day = clock.stamp(now), now.date()
    content = end_token(key, summary, note, mood_text, updates)

    # Strict reads first: a damaged file stops the end before anything is written.
    state_now = journal.state()
    record_now = state_now.open_sessions.get(key, {})
    if (
        state_now.extra.get("last_end_token") == content
        and not record_now.get("notes")
        and not reservation.stopped(record_now)
    ):
        return EndReport(
            state_now.session_count, ended, journal.show(paths.daily_log(day)), already_done=True
        )
    owner = reservation.new_owner()
    try:
        return _end(
            journal,
            key,
            agent,
            baseline,
            summary,
            note,
            mood_text,
            updates,
            owner,
            redactions=redactions,
            content=content,
        )
    finally:
        reservation.release(owner)


def _end(
    journal: Journal,
    key: str,
    agent: str,
    baseline: int | None,
    summary: str,
    note: str,
    mood_text: str,
    updates: dict[str, ThreadUpdate],
    owner: dict[str, Any],
    *,
    redactions: int,
    content: str,
) -> EndReport:
    store, paths = journal.store, journal.paths
    now = clock.now()
    ended, day = clock.stamp(now), now.date()
    attempt = str(owner["attempt"])
    doc = ThreadsDoc.parse(journal.text(paths.threads) or "")
    res_text = journal.text(paths.resumption)
    previous = resumption.parse(res_text) if res_text and res_text.strip() else None
    hand_written = previous.note if previous and resumption.hand_written(previous) else None

    plan: dict[str, Any] = {}

    def reserve(state: JournalState) -> None:
        record = state.open_session(key)
        held = reservation.reservations(record)
        prior_key = reservation.takeover(held)
        prior = held.pop(prior_key) if prior_key is not None else None
        if prior is not None:
            number = int(prior["number"])
        else:
            number = state.session_count + 1
            state.session_count = number
        busy = reservation.claimed_elsewhere(held, None)
        notes = [n for n in record["notes"] if str(n.get("id")) not in busy]
        token = end_token(key, summary, note, mood_text, updates, notes)
        merged, touched = merge_notes(notes, updates, day)
        first = dict(prior.get("old_positions") or {}) if prior else {}
        old_positions = dict(first)
        for thread_id in touched:
            found = doc.get(thread_id)
            if thread_id not in first and found is not None:
                old_positions[thread_id] = found.position()
        replaced = prior.get("replaced_resumption") if prior else hand_written
        mine = held[attempt] = {
            "token": token,
            "number": number,
            "day": day.isoformat(),
            "owner": owner,
            "claimed": [str(n.get("id")) for n in notes],
            "old_positions": old_positions,
            "replaced_resumption": replaced,
            "positions": {
                t: stored_position(u.current_position)
                for t, u in merged.items()
                if u.current_position
            },
            "superseded": _superseded(prior, token),
        }
        record[reservation.ENDINGS] = held
        plan.update(
            token=token,
            number=number,
            notes=notes,
            merged=merged,
            touched=touched,
            old_positions=old_positions,
            replaced=replaced,
            prior_positions=dict(prior.get("positions") or {}) if prior else {},
            superseded=mine["superseded"],
            baseline=record.get("baseline", baseline),
            resumed=prior is not None,
        )

    update_state(store, paths.state, reserve)
    token: str = plan["token"]
    number: int = plan["number"]
    notes: list[dict[str, Any]] = plan["notes"]
    stale = [a["token"] for a in plan["superseded"]]
    other_days = sorted(
        {d for a in plan["superseded"] if (d := _day(a.get("day"))) is not None and d != day}
    )
    log_path = paths.daily_log(day)
    progress = Progress(
        journal, [log_path, paths.threads, paths.resumption, paths.log_index, paths.state]
    )
    try:
        for other in other_days:  # an attempt that failed before midnight
            remove_entries(store, other, stale)
            progress.done(paths.daily_log(other))
        if not has_marker(journal.text(log_path) or "", token):
            parts = EntryParts(
                token,
                key,
                summary,
                mood_text or None,
                note,
                notes,
                updates,
                plan["touched"],
                plan["old_positions"],
                plan["replaced"],
            )
            heading = f"Session {number} · {now:%H:%M} · {agent}"
            append_entry(store, day, heading, compose(parts), replacing=stale)
        progress.done(log_path)
        changes = write_updates(
            store,
            paths.threads,
            plan["merged"],
            plan["touched"],
            when=f"{ended} (session {number})",
            day=day.isoformat(),
        )
        if plan["touched"]:
            progress.done(paths.threads)
        recorded = plan["old_positions"]
        tried = plan["prior_positions"]
        unrecorded = {
            t: p
            for t, p in changes.positions.items()
            if not _same(p[0], recorded.get(t, "")) and not _same(p[0], tried.get(t, ""))
        }
        if unrecorded:
            append_entry(
                store,
                day,
                f"Session {number} · thread positions replaced",
                positions_addendum(token, key, unrecorded),
            )
        hand = resumption.write(
            store,
            paths,
            note=note,
            session=number,
            ended=ended,
            agent=agent,
            mood=mood_text or None,
            began_after_session=plan["baseline"],
        )
        if hand is not None and hand.note != (plan["replaced"] or ""):
            append_entry(
                store,
                day,
                f"Session {number} · replaced resumption note",
                resumption_addendum(token, key, hand.note),
            )
        progress.done(paths.resumption)
        update_days(store, journal.workspace, [day, *other_days])
        progress.done(paths.log_index)
        final = _finish(journal, key, agent, content, ended, summary, mood_text, plan, attempt)
        progress.done(paths.state)
        verify_end(journal, number, token, [day, *other_days], stale, notes, note)
    except Exception as exc:
        failure = progress.failed(exc)
        if failure is exc:
            raise  # the same error, its message now naming the files
        raise failure from exc
    return EndReport(
        session=number,
        ended=ended,
        daily_log=journal.show(log_path),
        files=[journal.show(p) for p in progress.written],
        threads_touched=changes.touched,
        threads_created=changes.created,
        events=[str(n.get("event_id")) for n in notes if n.get("kind") == "event"],
        notes=len(notes),
        flags=final.raised_flags(),
        redactions=redactions,
        resumed=plan["resumed"],
    )


def _day(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _finish(
    journal: Journal,
    key: str,
    agent: str,
    token: str,
    ended: str,
    summary: str,
    mood: str,
    plan: dict[str, Any],
    attempt: str,
) -> JournalState:
    reviewed = journal.last_maintenance_date()
    over_limit = memory_lines(journal) > 200
    consumed = {n.get("id") for n in plan["notes"]}
    touched: list[str] = plan["touched"]

    def finish(state: JournalState) -> None:
        state.last_session, state.last_agent = ended, agent
        state.last_summary = neutralize_line(summary, limit=STATE_SUMMARY)
        state.last_mood = neutralize_line(mood) or None
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
        record = state.open_sessions.get(key)
        if record is not None:
            left = [n for n in record.get("notes", []) if n.get("id") not in consumed]
            found = reservation.reservations(record)
            found.pop(attempt, None)
            if left or found:
                record["notes"] = left
                if found:
                    record[reservation.ENDINGS] = found
                else:
                    record.pop(reservation.ENDINGS, None)
            else:
                del state.open_sessions[key]
        state.extra["last_end_token"] = token

    return update_state(
        journal.store, journal.paths.state, finish, check=lambda s: s.last_session == ended
    )
