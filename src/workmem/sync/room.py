"""Room for both: the files that hold IDs, prepared for a merge that must keep two things
issued under one ID (``identity``).

Before a board or an event ledger is merged, the IDs both sides hold for different things
are found and the giving side's text is rewritten with new IDs. The merge that follows sees
two rows (two events) and keeps both; nothing of either is lost. Other files that refer to
those IDs (snapshots, daily logs) are renamed by the caller that sees them all
(``workmem sync``, the cloud-copy merge); a merge of one file can only keep its own.
"""

from __future__ import annotations

from collections.abc import Callable

from .identity import OURS, collisions, renames, rewrite

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (drivers pay for it)
if TYPE_CHECKING:
    from ..files.tables import TableDocument

#: (base, ours, theirs, path, renamed side) -> (ours, theirs, the renames)
Made = tuple[str, str, dict[str, str]]
Room = Callable[[str, str, str, str, str], Made]


def _apply(ours: str, theirs: str, mapping: dict[str, str], renamed: str) -> Made:
    if not mapping:
        return ours, theirs, {}
    if renamed == OURS:
        return rewrite(ours, mapping), theirs, mapping
    return ours, rewrite(theirs, mapping), mapping


def board_room(base: str, ours: str, theirs: str, path: str, renamed: str) -> Made:
    """Session IDs on both boards for two sessions.

    With an ancestor: a row both sides added with different values. Without one (a cloud
    conflict copy, whose other version may simply be older): rows that name two different
    real topics, which one session does not have at two times.
    """
    from .merge_tables import parse_board

    b = parse_board(base, path) if base.strip() else None
    o, t = parse_board(ours, path), parse_board(theirs, path)
    topic = o.column("Topic")

    def rows(doc: TableDocument) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for row in doc.rows:
            found.setdefault(row.key, row.values)
        return found

    o_rows, t_rows = rows(o), rows(t)
    if b is not None:
        b_rows = rows(b)
        found = collisions(
            {k: "\t".join(v) for k, v in b_rows.items()},
            {k: "\t".join(v) for k, v in o_rows.items()},
            {k: "\t".join(v) for k, v in t_rows.items()},
        )
    else:
        b_rows = {}
        found = [
            key
            for key, values in o_rows.items()
            if key in t_rows and two_sessions(values[topic], t_rows[key][topic])
        ]
    taken = set(o_rows) | set(t_rows) | set(b_rows)
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
