"""``memory/events.json``: the ledger of dated things the user said happened.

A question such as "what did I buy in March?" needs dates, not prose, so each event keeps
the sentence as said, its type, action and object, and the date normalized against the day
it was said (``dates``). A date that cannot be resolved keeps its raw words and no date.

The file is shared by every writer and sometimes edited by hand, so reading is tolerant
(a bare list or ``{"events": [...]}``; entries we cannot use are kept verbatim and skipped)
and writing is not: a file that is not JSON is refused with its line number, never
overwritten. Appends happen under the file's lock against the latest content.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import FormatError, UsageError, WriteError
from ..files.jsondoc import parse_json
from ..files.store import Store
from .dates import ResolvedDate, parse_iso_day

VERSION = 1
_KNOWN = (
    "id",
    "type",
    "text",
    "action",
    "object_hint",
    "normalized_date",
    "date_text",
    "date_granularity",
    "date_end",
    "session_date",
    "recorded_at",
    "source",
)
#: ``evt-00012``, or ``evt-00012-k3x9`` where several writers share the memory (their tag)
_ID = re.compile(r"^evt-(\d+)(?:-[a-z][a-z0-9]{1,11})?$")
MAX_TEXT = 4000


@dataclass
class Event:
    id: str
    type: str
    text: str
    action: str | None = None
    object_hint: str | None = None
    normalized_date: str | None = None
    date_text: str | None = None
    date_granularity: str | None = None
    date_end: str | None = None
    session_date: str | None = None
    recorded_at: str | None = None
    source: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def day(self) -> date | None:
        return parse_iso_day(self.normalized_date) if self.normalized_date else None

    @property
    def last_day(self) -> date | None:
        end = parse_iso_day(self.date_end) if self.date_end else None
        return end or self.day

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type, "text": self.text}
        for key in _KNOWN[3:]:
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        data.update(self.extra)
        return data

    def line(self) -> str:
        """One line for a context block: date, type, object, the sentence.

        Every value is free text (the ledger is JSON anyone may edit), so each is folded to
        one neutral line: an event can never add a heading to the markdown it is shown in.
        """
        from ..files.freetext import neutralize_line as one

        when = self.normalized_date or f"undated ({self.date_text or 'no date'})"
        if self.date_granularity and self.date_granularity != "day" and self.normalized_date:
            when = f"{self.normalized_date} ({self.date_granularity} of)"
        hint = f" [{one(self.object_hint)}]" if self.object_hint else ""
        return f"- {one(when)} · {one(self.type)}{hint}: {one(self.text)}"

    @classmethod
    def from_json(cls, item: Any) -> Event | None:
        if not isinstance(item, dict):
            return None
        text, kind = item.get("text"), item.get("type") or item.get("event_type")
        if not isinstance(text, str) or not text.strip():
            return None
        values: dict[str, Any] = {}
        for key in _KNOWN[3:]:
            value = item.get(key)
            values[key] = value if isinstance(value, str) else None
        if values["normalized_date"] is None and isinstance(item.get("date"), str):
            values["normalized_date"] = item["date"] if parse_iso_day(item["date"]) else None
        extra = {k: v for k, v in item.items() if k not in _KNOWN and k != "event_type"}
        return cls(
            id=str(item.get("id") or ""),
            type=str(kind) if isinstance(kind, str) and kind else "event",
            text=text,
            extra=extra,
            **values,
        )


@dataclass
class Ledger:
    """The file as read: usable events, plus everything else kept for writing back."""

    items: list[Any]
    events: list[Event]
    shape: str = "object"  # "object" ({"version", "events"}) or "list" (a bare list)
    top: dict[str, Any] = field(default_factory=dict)
    skipped: int = 0

    def render(self) -> str:
        if self.shape == "list":
            payload: Any = self.items
        else:
            payload = {**self.top, "version": self.top.get("version", VERSION)}
            payload["events"] = self.items
        return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"

    def next_id(self, suffix: str = "") -> str:
        """The next number after every event's (any writer's); ``suffix`` is ``-<writer>``
        where several writers share the memory (``sync.writers``)."""
        highest = 0
        for event in self.events:
            match = _ID.match(event.id)
            if match:
                highest = max(highest, int(match.group(1)))
        return f"evt-{highest + 1:05d}{suffix}"

    def timeline(self) -> tuple[list[Event], list[Event]]:
        """Dated events newest first (by the day they happened, then when they were
        recorded); undated events apart, the most recently recorded first.

        An undated event has no place in time, so it is not guessed into one: it is listed
        after the timeline instead of being placed at the day it was mentioned.
        """
        order = {id(event): position for position, event in enumerate(self.events)}

        def recorded(event: Event) -> tuple[str, int]:
            return (event.recorded_at or "", order[id(event)])

        dated = [e for e in self.events if e.day is not None]
        undated = [e for e in self.events if e.day is None]
        dated.sort(key=lambda e: (e.normalized_date or "", *recorded(e)), reverse=True)
        undated.sort(key=recorded, reverse=True)
        return dated, undated

    def find_same(self, event: Event) -> Event | None:
        for existing in self.events:
            if (
                existing.text.strip() == event.text.strip()
                and existing.type == event.type
                and existing.normalized_date == event.normalized_date
            ):
                return existing
        return None


def empty_text() -> str:
    return Ledger([], []).render()


def parse_ledger(text: str, path: str = "memory/events.json") -> Ledger:
    """Read the ledger tolerantly; raise ``FormatError`` (with the line) on broken JSON."""
    if not text.strip():
        return Ledger([], [])
    data = parse_json(text, path)
    if isinstance(data, list):
        items, shape, top = data, "list", {}
    elif isinstance(data, dict) and isinstance(data.get("events", []), list):
        items, shape = list(data.get("events", [])), "object"
        top = {k: v for k, v in data.items() if k != "events"}
    else:
        raise FormatError(
            'expected a list of events or {"events": [...]}; nothing was written', path=path
        )
    events: list[Event] = []
    skipped = 0
    for index, item in enumerate(items):
        event = Event.from_json(item)
        if event is None:
            skipped += 1
            continue
        if not event.id:
            event.id = f"evt-legacy-{index + 1}"
        events.append(event)
    return Ledger(items, events, shape, top, skipped)


def read_ledger(store: Store, path: Path) -> Ledger:
    current = store.read_text(path)
    if current is None:
        return Ledger([], [])
    return parse_ledger(current[0], store.show(path))


@dataclass(frozen=True)
class NewEvent:
    event_type: str
    text: str
    action: str | None
    object_hint: str | None
    when: ResolvedDate | None
    session_date: date
    recorded_at: str
    source: str | None = None


def build_event(new: NewEvent) -> Event:
    kind = " ".join(new.event_type.split())
    if not kind:
        raise UsageError("an event needs a type (purchase, meeting, issue, milestone, …)")
    text = new.text.strip()
    if not text:
        raise UsageError("an event needs its text (what the user said happened)")
    if len(text) > MAX_TEXT:
        raise UsageError(f"event text is {len(text):,} characters; keep it under {MAX_TEXT:,}")
    when = new.when
    event = Event(
        id="",
        type=kind,
        text=text,
        action=(new.action or "").strip() or None,
        object_hint=(new.object_hint or "").strip() or None,
        date_text=when.raw if when and when.raw else None,
        session_date=new.session_date.isoformat(),
        recorded_at=new.recorded_at,
        source=new.source,
    )
    if when is not None and when.date is not None:
        event.normalized_date = when.date.isoformat()
        if when.granularity != "day":
            event.date_granularity = when.granularity
            event.date_end = when.end.isoformat() if when.end else None
    return event


def append_events(store: Store, path: Path, new_events: list[Event]) -> list[Event]:
    """Add events to the ledger (locked, re-read, verified); repeats are not added twice.

    Returns the events as stored (an already-recorded repeat comes back with its old ID).
    """
    from ..config import load_settings
    from ..sync.writers import id_suffix

    suffix = id_suffix(store.workspace.root, load_settings(store.workspace))
    stored: list[Event] = []

    def change(current: str | None) -> str:
        stored.clear()
        ledger = parse_ledger(current or "", store.show(path))
        for event in new_events:
            same = ledger.find_same(event)
            if same is not None:
                stored.append(same)
                continue
            event.id = ledger.next_id(suffix)
            ledger.items.append(event.to_json())
            ledger.events.append(event)
            stored.append(event)
        return ledger.render()

    def verify(text: str) -> None:
        ids = {e.id for e in parse_ledger(text, store.show(path)).events}
        missing = [e.id for e in stored if e.id not in ids]
        if missing:
            raise WriteError(f"{store.show(path)}: events {missing} missing after writing")

    store.update(path, change, verify=verify)
    return list(stored)
