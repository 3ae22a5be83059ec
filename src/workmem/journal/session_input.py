"""What the agent hands the writer, turned into what may be stored.

Every text passes ``workmem.redact`` (an agent pastes a key into a decision as easily as a
transcript does) and a size check; dates are normalized against the session's day; the
seed's ``thread_updates`` dict is checked key by key; decisions and questions noted for a
thread join that thread's update. Kept apart from ``writer`` so the end-of-session order
of writes reads on one screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from datetime import date
from typing import Any

from .. import clock
from ..errors import UsageError, WorkmemError
from .dates import ResolvedDate, anchor_year, first_date, parse_iso_day, resolve_date
from .journal import Journal
from .thread_updates import ThreadUpdate
from .threads import check_thread_id

MAX_NOTE = 4000


def clean(text: str | None, what: str, *, required: bool = False) -> tuple[str, int]:
    """Text as it may be stored: secrets replaced (``workmem.redact``), size checked."""
    value = (text or "").strip()
    if required and not value:
        raise UsageError(f"{what} is required and was empty")
    if len(value) > MAX_NOTE * 4:
        raise UsageError(f"{what} is {len(value):,} characters; keep it under {MAX_NOTE * 4:,}")
    from ..redact import redact

    return redact(value) if value else ("", 0)


def session_day(value: date | str | None) -> date:
    if value is None:
        return clock.now().date()
    if isinstance(value, date):
        return value
    parsed = parse_iso_day(value)
    if parsed is None:
        raise UsageError(f"session date {value!r} is not YYYY-MM-DD")
    return parsed


#: Words that make an event a plan or a deadline: its year-less date lies ahead, not behind.
_PLAN_WORDS = (
    r"\b(?:plan|plans|planned|planning|will|going\s+to|gonna|scheduled?|deadline|due|"
    r"upcoming|intend|intends|expected|remind(?:er)?|by|until|before|must|need\s+to|"
    r"have\s+to|next)\b|'ll\b"
    r"|計劃|计划|打算|預計|预计|預定|预定|將|将要|截止|期限|到期|安排|準備|准备|"
    r"予定|締め切り|締切|つもり|예정|마감|계획|기한"
)
_PLAN_TYPES = frozenset(
    {"plan", "deadline", "reminder", "todo", "task", "due", "goal", "appointment", "schedule"}
)


def is_plan(text: str, event_type: str = "") -> bool:
    """True when the event is something to come (a plan, a deadline), not something done."""
    import re

    if event_type.strip().casefold() in _PLAN_TYPES:
        return True
    return re.search(_PLAN_WORDS, text, re.IGNORECASE) is not None


def event_date(
    text: str,
    on: date,
    normalized: str | None,
    date_text: str | None,
    event_type: str = "",
) -> ResolvedDate | None:
    """The event's date: given, or read from its words against the day it was said.

    A month and day without a year is the most recent such day (events are things that
    happened), or the next one for a plan or a deadline (``dates.anchor_year``).
    """
    if normalized:
        day = parse_iso_day(normalized)
        if day is None or len(normalized.strip()) != 10:
            raise UsageError(f"normalized_date {normalized!r} is not YYYY-MM-DD")
        raw = date_text or (hit.raw if (hit := first_date(text, on)) else normalized)
        return ResolvedDate(raw, day, day, day, "day", "given")
    found = resolve_date(date_text, on) if date_text else first_date(text, on)
    if found is None or not found.resolved:
        return found
    return anchor_year(found, on, ahead=is_plan(f"{text} {date_text or ''}", event_type))


def checked_updates(raw: Mapping[str, Mapping[str, Any]]) -> tuple[dict[str, ThreadUpdate], int]:
    out: dict[str, ThreadUpdate] = {}
    count = 0
    for thread_id, data in raw.items():
        if not isinstance(data, Mapping):
            raise UsageError(f"thread update for {thread_id} must be a mapping")
        update = ThreadUpdate.from_mapping(thread_id, data)
        for field_name in ("current_position", "title", "status"):
            value = getattr(update, field_name)
            if value:
                cleaned_value, n = clean(value, field_name)
                setattr(update, field_name, cleaned_value)
                count += n
        for name in ("new_open_questions", "closed_questions", "new_decisions"):
            cleaned = [clean(v, name) for v in getattr(update, name)]
            count += sum(n for _, n in cleaned)
            setattr(update, name, [v for v, _ in cleaned])
        out[check_thread_id(thread_id)] = update
    return out, count


def merge_notes(
    notes: list[dict[str, Any]], updates: dict[str, ThreadUpdate], day: date
) -> tuple[dict[str, ThreadUpdate], list[str]]:
    """Decisions and questions noted for a thread join that thread's update."""
    merged = {k: ThreadUpdate(**asdict(v)) for k, v in updates.items()}
    touched: list[str] = []
    for note in notes:
        thread = note.get("thread")
        if not thread:
            continue
        touched.append(thread)
        update = merged.setdefault(thread, ThreadUpdate())
        if note.get("kind") == "decision":
            why = f" — {note['reasoning']}" if note.get("reasoning") else ""
            update.new_decisions.append(f"{day.isoformat()}: {note['text']}{why}")
        elif note.get("kind") == "question":
            update.new_open_questions.append(str(note["text"]))
    touched += list(updates)
    return merged, list(dict.fromkeys(touched))


def memory_lines(journal: Journal) -> int:
    try:
        text = journal.text(journal.paths.memory_md)
    except WorkmemError:
        return 0
    return len(text.rstrip("\n").split("\n")) if text else 0
