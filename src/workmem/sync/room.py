"""Room for both: the files that hold IDs, prepared for a merge that must keep two things
issued under one ID (``identity``).

Before a board or an event ledger is merged, the IDs both sides hold for different things
are found and the giving side's text is rewritten with new IDs. The merge that follows sees
two rows (two events) and keeps both; nothing of either is lost. Other files that refer to
those IDs (snapshots, daily logs) are renamed by the caller that sees them all
(``workmem sync``, the cloud-copy merge); a merge of one file can only keep its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .identity import OURS, collisions, renames, rewrite

#: (base, ours, theirs, path, renamed side) -> (ours, theirs, the renames)
Made = tuple[str, str, dict[str, str]]
Room = Callable[[str, str, str, str, str], Made]


def _apply(ours: str, theirs: str, mapping: dict[str, str], renamed: str) -> Made:
    if not mapping:
        return ours, theirs, {}
    if renamed == OURS:
        return rewrite(ours, mapping), theirs, mapping
    return ours, rewrite(theirs, mapping), mapping


_ROW = re.compile(r"^\|[ \t]*([^|\s]+)[ \t]*\|.*$", re.MULTILINE)


def board_rows(text: str) -> dict[str, str]:
    """Each table row's line by its first cell (the first line of a repeated ID), found by
    one scan: a 10,000-row board is not parsed cell by cell to learn its IDs."""
    found: dict[str, str] = {}
    for match in _ROW.finditer(text):
        found.setdefault(match.group(1), match.group(0))
    return found


def _values(line: str) -> list[str]:
    from ..files.tables import split_cells, unescape_cell

    return [unescape_cell(cell) for cell in split_cells(line)]


def board_room(base: str, ours: str, theirs: str, path: str, renamed: str) -> Made:
    """Session IDs on both boards for two sessions.

    With an ancestor: a row both sides added with different values. Without one (a cloud
    conflict copy, whose other version may simply be older): rows that name two different
    real topics, which one session does not have at two times.
    """
    from ..board.model import COLUMNS

    topic = COLUMNS.index("Topic")
    o_rows, t_rows = board_rows(ours), board_rows(theirs)
    b_keys = set(board_rows(base)) if base.strip() else None
    found = []
    for key, line in o_rows.items():
        other = t_rows.get(key)
        if other is None or other == line or (b_keys is not None and key in b_keys):
            continue
        mine, theirs_values = _values(line), _values(other)
        if len(mine) != len(COLUMNS) or len(theirs_values) != len(COLUMNS):
            continue  # the header, the separator, or a row the merge reports as malformed
        if b_keys is not None:
            if mine != theirs_values:
                found.append(key)
        elif two_sessions(mine[topic], theirs_values[topic]):
            found.append(key)
    taken = set(o_rows) | set(t_rows) | (b_keys or set())
    return _apply(ours, theirs, renames(found, taken), renamed)


def two_sessions(topic: str, other: str) -> bool:
    """Without an ancestor: two rows of one ID are two sessions when they name two real
    topics (a session's topic is set once, at registration; a placeholder is no topic)."""
    from ..i18n.placeholders import is_topic

    def real(text: str) -> str:
        text = text.strip()
        return "" if not text or is_topic(text) else " ".join(text.split()).casefold()

    return bool(real(topic)) and bool(real(other)) and real(topic) != real(other)


def events_room(base: str, ours: str, theirs: str, path: str, renamed: str) -> Made:
    """Event IDs both ledgers hold for two different events (what happened differs)."""
    from .merge_json import event_pairs, same_event

    b = dict(event_pairs(base, path)) if base.strip() else None
    o, t = dict(event_pairs(ours, path)), dict(event_pairs(theirs, path))
    found = [key for key in collisions(b, o, t) if not same_event(o[key], t[key])]
    taken = set(o) | set(t) | set(b or {})
    return _apply(ours, theirs, renames(found, taken, events=True), renamed)


ROOM: dict[str, Room] = {}


def _register() -> None:
    from . import kinds

    ROOM[kinds.BOARD] = board_room
    ROOM[kinds.EVENTS] = events_room


_register()
