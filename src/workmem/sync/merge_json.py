"""The two JSON files: the event ledger by event, ``state.json`` by key.

``events.json``: the union of events by ID; an event both sides changed keeps the version
recorded later. Two writers that each added a different event under one number both keep
theirs: ``merge.merge_file`` renames one side's first (``room``, ``identity``), so this
merge sees two events.

``state.json``: counters take both sides' increases (two machines that each ended a
session ended two sessions) or, without a common ancestor, the larger; flags are OR-ed;
timestamps and the ``last_*`` details that go with them come from the side whose last
session ended later; lists and open sessions are merged as sets. A key only one side
changed takes that side's value.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import FormatError
from ..files.jsondoc import parse_json
from ..journal.events import Event
from ..journal.state import parse_state
from .textmerge import Merged, pick

_COUNTERS = ("session_count", "sessions_since_review")
_LAST_GROUP = ("last_session", "last_summary", "last_mood", "last_agent", "last_end_token")
_TIMESTAMPS = ("last_review",)


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _canon(item: Any) -> str:
    return json.dumps(item, ensure_ascii=False, sort_keys=True)


def merge_events(base: str, ours: str, theirs: str, path: str) -> Merged:
    b = _ledger(base, path)
    o = _ledger(ours, path)
    t = _ledger(theirs, path)
    base_by = {key: item for key, item in _pairs(b[0])}
    ours_pairs = _pairs(o[0])
    theirs_pairs = _pairs(t[0])
    theirs_by = dict(theirs_pairs)
    ours_ids = {key for key, _ in ours_pairs}
    notes: list[str] = []
    items: list[Any] = [item for item in o[0] if not _is_event(item)]
    for key, item in ours_pairs:
        other = theirs_by.get(key)
        was = base_by.get(key)
        if other is None:
            if was is None or was != item:
                items.append(item)
            continue
        if item == other:
            items.append(item)
            continue
        chosen, both = pick(was, item, other)
        if both:
            chosen = max(item, other, key=_recorded)
        items.append(chosen)
    for key, item in theirs_pairs:
        if key in ours_ids:
            continue
        was = base_by.get(key)
        if was is None or was != item:
            items.append(item)
    known = {_canon(item) for item in items if not _is_event(item)}
    items += [i for i in t[0] if not _is_event(i) and _canon(i) not in known]
    if o[1] is None:
        return Merged(_dump(items), True, notes)
    top = _merge_keys(b[1] or {}, o[1], t[1] or {})
    return Merged(_dump({**top, "events": items}), True, notes)


def _ledger(text: str, path: str) -> tuple[list[Any], dict[str, Any] | None]:
    """The events list and the other top-level keys (None for a bare list), as the ledger
    reader accepts them; anything else is a ``FormatError``."""
    if not text.strip():
        return [], {"version": 1}
    data = parse_json(text, path)
    if isinstance(data, list):
        return data, None
    if isinstance(data, dict) and isinstance(data.get("events", []), list):
        return list(data.get("events", [])), {k: v for k, v in data.items() if k != "events"}
    raise FormatError('expected a list of events or {"events": [...]}', path=path)


def _is_event(item: Any) -> bool:
    """What the ledger reader counts as an event (a dict with a non-empty text)."""
    return (
        isinstance(item, dict) and isinstance(item.get("text"), str) and bool(item["text"].strip())
    )


def _pairs(items: list[Any]) -> list[tuple[str, Any]]:
    pairs = []
    for index, item in enumerate(items):
        if _is_event(item):
            pairs.append((str(item.get("id") or f"evt-legacy-{index + 1}"), item))
    return pairs


def event_pairs(text: str, path: str) -> list[tuple[str, Any]]:
    """(ID, event) of every event the ledger ``text`` holds (``identity`` asks)."""
    return _pairs(_ledger(text, path)[0])


def same_event(a: Any, b: Any) -> bool:
    """Two versions of one event (what, which kind, when), not two events."""
    return _same_event(a, b)


def _same_event(a: Any, b: Any) -> bool:
    first, second = Event.from_json(a), Event.from_json(b)
    if first is None or second is None:
        return False
    return (first.text.strip(), first.type, first.normalized_date) == (
        second.text.strip(),
        second.type,
        second.normalized_date,
    )


def _recorded(item: Any) -> tuple[str, str]:
    return (str(item.get("recorded_at") or ""), _canon(item))


def _merge_keys(
    base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]
) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for key in [*ours, *(k for k in theirs if k not in ours)]:
        was = base.get(key)
        if key not in theirs:
            if key in base and _canon(ours[key]) == _canon(was):
                continue  # removed on their side
            merged[key] = ours[key]
        elif key not in ours:
            if key in base and _canon(theirs[key]) == _canon(was):
                continue
            merged[key] = theirs[key]
        else:
            chosen, _ = pick(_canon(was), _canon(ours[key]), _canon(theirs[key]))
            merged[key] = ours[key] if chosen == _canon(ours[key]) else theirs[key]
    return merged


def merge_state(base: str, ours: str, theirs: str, path: str) -> Merged:
    # The reader checks types and refuses a broken file; the merge works on the raw objects
    # so keys it does not know are carried through as they are.
    for text in (ours, theirs):
        parse_state(text, path)
    b = _object(base, path)
    o = _object(ours, path)
    t = _object(theirs, path)
    merged = _merge_keys(b, o, t)
    for key in _COUNTERS:
        merged[key] = _counter(b.get(key), o.get(key), t.get(key), has_base=bool(b))
    if _changed_both(b, o, t, "last_session"):
        # Both machines ended a session: the details all come from the one that ended later.
        later = t if str(t.get("last_session")) > str(o.get("last_session")) else o
        for key in _LAST_GROUP:
            if key in later:
                merged[key] = later[key]
            else:
                merged.pop(key, None)
    for key in _TIMESTAMPS:
        if _changed_both(b, o, t, key):
            values = [v for v in (o.get(key), t.get(key)) if isinstance(v, str) and v]
            merged[key] = max(values) if values else None
    merged["flags"] = _flags(b.get("flags"), o.get("flags"), t.get("flags"))
    merged["active_threads"] = _set_list(
        b.get("active_threads"), o.get("active_threads"), t.get("active_threads")
    )
    sessions = _open_sessions(
        b.get("open_sessions"), o.get("open_sessions"), t.get("open_sessions")
    )
    if sessions:
        merged["open_sessions"] = sessions
    else:
        merged.pop("open_sessions", None)
    return Merged(_dump(merged))


def _changed_both(b: dict[str, Any], o: dict[str, Any], t: dict[str, Any], key: str) -> bool:
    mine, other, was = _canon(o.get(key)), _canon(t.get(key)), _canon(b.get(key))
    return mine != other and mine != was and other != was


def _object(text: str, path: str) -> dict[str, Any]:
    from ..files.jsondoc import parse_json_object

    return parse_json_object(text, path)


def _int(value: Any) -> int:
    try:
        return max(int(value), 0) if not isinstance(value, bool) and value is not None else 0
    except (TypeError, ValueError):
        return 0


def _counter(base: Any, ours: Any, theirs: Any, *, has_base: bool) -> int:
    was, mine, other = _int(base), _int(ours), _int(theirs)
    if has_base and mine >= was and other >= was:
        return was + (mine - was) + (other - was)
    if has_base and mine == was:
        return other
    if has_base and other == was:
        return mine
    return max(mine, other)


def _flags(base: Any, ours: Any, theirs: Any) -> dict[str, Any]:
    b = base if isinstance(base, dict) else {}
    o = ours if isinstance(ours, dict) else {}
    t = theirs if isinstance(theirs, dict) else {}
    merged: dict[str, Any] = {}
    for key in [*o, *(k for k in t if k not in o)]:
        chosen, both = pick(b.get(key), o.get(key), t.get(key))
        merged[key] = (bool(o.get(key)) or bool(t.get(key))) if both else chosen
    return merged


def _set_list(base: Any, ours: Any, theirs: Any) -> list[Any]:
    b = base if isinstance(base, list) else []
    o = ours if isinstance(ours, list) else []
    t = theirs if isinstance(theirs, list) else []
    out = [x for x in o if not (x in b and x not in t)]
    out += [x for x in t if x not in out and x not in b]
    return out


def _open_sessions(base: Any, ours: Any, theirs: Any) -> dict[str, Any]:
    """Notes of sessions still open: by session key, notes as a list union; a session one
    side closed stays closed unless the other side noted something new in it."""
    b = base if isinstance(base, dict) else {}
    o = ours if isinstance(ours, dict) else {}
    t = theirs if isinstance(theirs, dict) else {}
    merged: dict[str, Any] = {}
    for key in [*o, *(k for k in t if k not in o)]:
        mine, other, was = o.get(key), t.get(key), b.get(key)
        if mine is None or other is None:
            present = mine if mine is not None else other
            if was is not None and _canon(present) == _canon(was):
                continue  # closed on the other side, untouched here
            merged[key] = present
            continue
        record = dict(mine)
        notes = list(mine.get("notes") or [])
        base_notes = list(was.get("notes") or []) if isinstance(was, dict) else []
        for note in other.get("notes") or []:
            if note not in notes and note not in base_notes:
                notes.append(note)
        record["notes"] = notes
        for extra_key, value in other.items():
            record.setdefault(extra_key, value)
        merged[key] = record
    return merged
