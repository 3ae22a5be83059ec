"""One entry point for every kind: ``merge_file(kind, base, ours, theirs, path)``.

The same function serves a git merge driver (three versions) and a cloud conflict copy
(no base). It never returns conflict markers: it returns the merged text, or, when it
cannot decide (a side it cannot read, a result that would lose something or that its own
reader refuses), the readable version with the other one kept inside it, and ``clean``
false so the caller reports a conflict.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

from ..errors import FormatError
from . import kinds
from .identity import OURS
from .identity import note as rename_note
from .kept import kept_json, kept_markdown
from .room import ROOM as _ROOM
from .textmerge import Merged, merge_lines

MergeFn = Callable[[str, str, str, str], Merged]


def _check_board(text: str, path: str) -> None:
    from .merge_tables import parse_board

    parse_board(text, path)


def _check_log_index(text: str, path: str) -> None:
    from .merge_tables import parse_log_index

    parse_log_index(text, path)


def _check_events(text: str, path: str) -> None:
    from ..journal.events import parse_ledger

    parse_ledger(text, path)


def _check_state(text: str, path: str) -> None:
    from ..journal.state import parse_state

    parse_state(text, path)


def _check_sections(text: str, path: str) -> None:
    if path.endswith(".notes.md") and text.strip():
        from ..notes.template import parse

        parse(text, path)
        return
    from ..files.sections import Document
    from ..files.tables import TableDocument

    metadata = Document.parse(text).get("Metadata")
    if metadata is not None and "|" in metadata.content():
        TableDocument.parse(metadata.content(), expected_header=("Field", "Value"), path=path)


def _check_typed(text: str, path: str) -> None:
    from ..facts.frontmatter import split

    split(text, path)


def _no_check(text: str, path: str) -> None:
    return None


#: Where each kind's merge lives (module of this package, function); imported on use, so a
#: driver run for one kind loads only its own merger.
_MERGERS: dict[str, tuple[str, str]] = {
    kinds.BOARD: ("merge_tables", "merge_board"),
    kinds.LOG_INDEX: ("merge_tables", "merge_log_index"),
    kinds.EVENTS: ("merge_json", "merge_events"),
    kinds.STATE: ("merge_json", "merge_state"),
    kinds.LOG: ("merge_logs", "merge_entries"),
    kinds.RESUMPTION: ("merge", "merge_resumption"),
    kinds.TEXT: ("merge", "merge_text"),
    kinds.SECTIONS: ("merge_docs", "merge_sections"),
    kinds.THREADS: ("merge_docs", "merge_threads"),
    kinds.MEMORY: ("merge_docs", "merge_memory_md"),
    kinds.TYPED: ("merge_docs", "merge_typed"),
}


def _merge_fn(kind: str) -> MergeFn:
    from importlib import import_module

    module, name = _MERGERS[kind]
    merger: MergeFn = getattr(import_module(f".{module}", __package__), name)
    return merger


_CHECKS: dict[str, Callable[[str, str], None]] = {
    kinds.BOARD: _check_board,
    kinds.LOG_INDEX: _check_log_index,
    kinds.EVENTS: _check_events,
    kinds.STATE: _check_state,
    kinds.SECTIONS: _check_sections,
    kinds.TYPED: _check_typed,
}
JSON_KINDS = (kinds.EVENTS, kinds.STATE)
#: Kinds whose merge works around a part it cannot read (a snapshot's Metadata table).
LENIENT_KINDS = (kinds.SECTIONS,)


def readable(kind: str, text: str, path: str) -> bool:
    try:
        _CHECKS.get(kind, _no_check)(text, path)
    except FormatError:
        return False
    return True


def merge_file(
    kind: str,
    base: str | None,
    ours: str,
    theirs: str,
    path: str,
    *,
    origin: str = "the other side",
    renamed: str | None = OURS,
) -> Merged:
    """Merge three versions (``base`` None or "" without an ancestor) of a ``kind`` file.

    Where both sides hold one ID for two different things (``identity``), the ``renamed``
    side's ID gives way first, so the merge keeps both; the notes say so, one line each.
    ``renamed`` None: the caller settled the IDs already (``workmem sync``).
    """
    if kind not in kinds.DESCRIPTIONS:
        raise ValueError(f"unknown kind {kind!r}")
    if ours == theirs:
        return Merged(ours)
    mapping: dict[str, str] = {}
    if kind in _ROOM and renamed is not None:
        with contextlib.suppress(FormatError):  # a side that cannot be read: kept whole below
            ours, theirs, mapping = _ROOM[kind](base or "", ours, theirs, path, renamed)
    merged = _merge(kind, base, ours, theirs, path, origin)
    what = "event" if kind == kinds.EVENTS else "session"
    merged.notes[:0] = [
        rename_note(old, new, renamed or OURS, what) for old, new in mapping.items()
    ]
    merged.renamed = mapping
    return merged


def _merge(kind: str, base: str | None, ours: str, theirs: str, path: str, origin: str) -> Merged:
    if kind in LENIENT_KINDS:  # their merge reads around damage, so check the sides first
        for side, text in (("this side", ours), (origin, theirs)):
            if not readable(kind, text, path):
                reason = f"{side}'s version cannot be read"
                return keep_both(kind, ours, theirs, path, reason=reason, origin=origin)
    merge = _merge_fn(kind)
    check = _CHECKS.get(kind, _no_check)
    base_text = base or ""
    try:
        try:
            result = merge(base_text, ours, theirs, path)
        except FormatError:
            if not base_text or readable(kind, base_text, path):
                raise
            # an unreadable ancestor is no ancestor: merged as a union
            result = merge("", ours, theirs, path)
        check(result.text, path)
    except FormatError as exc:
        return keep_both(kind, ours, theirs, path, reason=str(exc), origin=origin)
    return result


def keep_both(kind: str, ours: str, theirs: str, path: str, *, reason: str, origin: str) -> Merged:
    """The readable version as the file, the other one kept inside it; never clean."""
    ours_ok = readable(kind, ours, path)
    theirs_ok = readable(kind, theirs, path)
    primary, other, other_origin = ours, theirs, origin
    if not ours_ok and theirs_ok:
        primary, other, other_origin = theirs, ours, "this side"
    note = f"{path}: kept both versions ({reason})"
    if kind in JSON_KINDS:
        return Merged(_json_keep(kind, primary, other, other_origin, reason), False, [note])
    return Merged(kept_markdown(primary, other, origin=other_origin, reason=reason), False, [note])


def _json_keep(kind: str, primary: str, other: str, origin: str, reason: str) -> str:
    try:
        data: Any = json.loads(primary) if primary.strip() else {}
    except ValueError:
        data = None
    if isinstance(data, list):
        data = {"version": 1, "events": data}
    if not isinstance(data, dict):
        data = {"version": 1, "events": []} if kind == kinds.EVENTS else {}
        return kept_json(kept_json_base(data, primary), other, origin=origin, reason=reason)
    return kept_json(data, other, origin=origin, reason=reason)


def kept_json_base(data: dict[str, Any], unreadable: str) -> dict[str, Any]:
    """Neither side reads as JSON: an empty document holding this side's text too."""
    return {**data, "workmem_kept_versions": [{"from": "this side", "text": unreadable}]}


def merge_text(base: str, ours: str, theirs: str, path: str) -> Merged:
    """Any other memory note: line by line (both sides' new lines kept)."""
    lines = merge_lines(base.split("\n"), ours.split("\n"), theirs.split("\n"))
    text = "\n".join(lines)
    return Merged(text if text.endswith("\n") or not text else text + "\n")


def merge_resumption(base: str, ours: str, theirs: str, path: str) -> Merged:
    """The newer handoff note on top; the other one kept as a parallel session's note."""
    import re

    from ..journal import resumption

    o, t = resumption.parse(ours), resumption.parse(theirs)
    if not (o.written_by_workmem and t.written_by_workmem):
        return merge_text(base, ours, theirs, path)
    b = resumption.parse(base) if base.strip() else None
    if b is not None and (b.note, b.ended, b.session) == (o.note, o.ended, o.session):
        return Merged(theirs)
    if b is not None and (b.note, b.ended, b.session) == (t.note, t.ended, t.session):
        return Merged(ours)
    newer, older, newer_text = (
        (t, o, theirs) if (t.ended, t.note) > (o.ended, o.note) else (o, t, ours)
    )
    mood = re.search(r"· mood: (.*)\*\s*$", newer_text, re.MULTILINE)
    parallel = list(newer.parallel)
    header = f"*Session {older.session} ended {older.ended} ({older.agent or 'agent'})*"
    for note in [f"{header}\n\n{older.note}", *older.parallel]:
        if " ".join(note.split()) not in {" ".join(p.split()) for p in parallel}:
            parallel.append(note)
    text = resumption.render(
        newer.note,
        newer.session or 0,
        newer.ended or "",
        newer.agent or "agent",
        mood.group(1) if mood else None,
        parallel,
    )
    return Merged(text)
