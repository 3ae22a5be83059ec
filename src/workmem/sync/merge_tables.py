"""The two tables merged by row: the session board and the daily-log index.

A row is identified by its first cell (Session ID, Date). Rows only one side added are
kept; a row one side deleted is gone only when the other side left it as it was (deleted
on one side and changed on the other, it stays); a row both sides changed is merged field
by field. Rows nobody touched are written back byte for byte, as the writers do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..board.index import empty_board
from ..board.model import ACTIVE, IDLE, STALE, STATUSES, join_references, split_references
from ..board.model import COLUMNS as BOARD_COLUMNS
from ..files.tables import Row, TableDocument
from ..i18n.placeholders import is_summary, is_topic
from ..journal.log_index import COLUMNS as LOG_INDEX_COLUMNS
from ..journal.log_index import template as log_index_template
from .textmerge import Merged, merge_lines

Values = list[str]
Combine = Callable[[Values | None, Values, Values], Values]

_UPDATED = BOARD_COLUMNS.index("Updated At")
_STATUS = BOARD_COLUMNS.index("Status")
_REFERENCES = BOARD_COLUMNS.index("Referenced By")


def _is_start_keywords(value: str) -> bool:
    return value.strip().startswith("sessionStart") or not value.strip()


#: Fields a new row holds placeholders in; a merge keeps real words over them.
_PLACEHOLDERS: dict[int, Callable[[str], bool]] = {
    BOARD_COLUMNS.index("Topic"): is_topic,
    BOARD_COLUMNS.index("Summary"): is_summary,
    BOARD_COLUMNS.index("Keywords"): _is_start_keywords,
}


def parse_board(text: str, path: str) -> TableDocument:
    if not text.strip():
        return empty_board()
    return TableDocument.parse(text, expected_header=BOARD_COLUMNS, path=path)


def parse_log_index(text: str, path: str) -> TableDocument:
    if not text.strip():
        return TableDocument.parse(log_index_template())
    return TableDocument.parse(text, expected_header=LOG_INDEX_COLUMNS, path=path)


def merge_references(base: str | None, ours: str, theirs: str) -> str:
    """Referenced By as a set: additions from both sides, a release on either side holds."""
    base_refs = split_references(base or "")
    ours_refs = split_references(ours)
    theirs_refs = split_references(theirs)
    merged = [
        ref
        for ref in [*ours_refs, *(r for r in theirs_refs if r not in ours_refs)]
        if not (ref in base_refs and (ref not in ours_refs or ref not in theirs_refs))
    ]
    return join_references(merged)


def _newer(ours: Values, theirs: Values) -> Values:
    """The row with the later Updated At; on a tie, a fixed order so every merge agrees."""

    def rank(values: Values) -> tuple[str, int, Values]:
        status = values[_STATUS]
        return (values[_UPDATED], STATUSES.index(status) if status in STATUSES else -1, values)

    return max(ours, theirs, key=rank)


def combine_board_rows(base: Values | None, ours: Values, theirs: Values) -> Values:
    """One session changed on both sides, field by field.

    A field only one side changed takes that change; one both changed takes the newer
    row's value, except that a placeholder never replaces real words. Updated At follows
    the newer row; so does Status when both changed it, or when one side's organize marked
    stale a session the other side worked on later (it is active). A session one side made
    active (a snapshot was written) is never idle again after the merge. Referenced By is
    merged as a set.
    """
    newer = _newer(ours, theirs)
    older = theirs if newer is ours else ours
    merged: Values = []
    for position in range(len(BOARD_COLUMNS)):
        was = base[position] if base is not None else None
        if position == _REFERENCES:
            merged.append(merge_references(was, ours[position], theirs[position]))
        elif (
            position in _PLACEHOLDERS
            and _PLACEHOLDERS[position](newer[position])
            and not (_PLACEHOLDERS[position](older[position]))
        ):
            merged.append(older[position])  # a placeholder never replaces real words
        elif position == _STATUS:
            merged.append(_status(was, ours, theirs, newer))
        elif position == _UPDATED or (ours[position] != was and theirs[position] != was):
            merged.append(newer[position])
        elif ours[position] != was:
            merged.append(ours[position])
        else:
            merged.append(theirs[position])
    return merged


def _status(was: str | None, ours: Values, theirs: Values, newer: Values) -> str:
    mine, other = ours[_STATUS], theirs[_STATUS]
    if was is not None and mine != other and (mine == was or other == was):
        changed, kept = (ours, theirs) if mine != was else (theirs, ours)
        later_work = kept[_UPDATED] > changed[_UPDATED]
        if changed[_STATUS] != STALE or not later_work:
            return changed[_STATUS]  # only one side changed it
    chosen = newer[_STATUS]
    if chosen == IDLE and ACTIVE in (mine, other):
        return ACTIVE  # a snapshot was written on one side: never idle again
    return chosen


def _union_list(ours: str, theirs: str, sep: str) -> str:
    parts = [p.strip() for p in ours.split(sep.strip()) if p.strip()]
    for part in (p.strip() for p in theirs.split(sep.strip())):
        if part and part not in parts:
            parts.append(part)
    return sep.join(parts)


def combine_log_index_rows(base: Values | None, ours: Values, theirs: Values) -> Values:
    """One day written on both machines: the larger count, every summary, thread and topic."""

    def count(value: str) -> int:
        return int(value) if value.strip().isdigit() else 0

    was, mine, other = count(base[1]) if base else 0, count(ours[1]), count(theirs[1])
    both_grew = base is not None and mine >= was and other >= was
    return [
        ours[0],
        str(was + (mine - was) + (other - was) if both_grew else max(mine, other)),
        _union_list(ours[2], theirs[2], " / "),
        _union_list(ours[3], theirs[3], ", "),
        _union_list(ours[4], theirs[4], ", "),
    ]


def merge_table(
    base: TableDocument,
    ours: TableDocument,
    theirs: TableDocument,
    combine: Combine,
    *,
    newest_first: bool = False,
) -> Merged:
    base_rows = _by_key(base.rows)
    ours_rows = _by_key(ours.rows)
    theirs_rows = _by_key(theirs.rows)
    notes: list[str] = []
    rows: list[Row] = []
    for key, row in ours_rows.items():
        other = theirs_rows.get(key)
        was = base_rows.get(key)
        if other is None:
            if was is not None and _same(was, row):
                continue  # deleted on their side, untouched on ours
            if was is not None:
                notes.append(f"kept {key}: deleted on one side, changed on the other")
            rows.append(row)
        elif _same(other, row) or (was is not None and _same(other, was)):
            rows.append(row)
        elif was is not None and _same(row, was):
            rows.append(other)
        else:
            rows.append(Row(combine(was.values if was else None, row.values, other.values)))
    for key, other in theirs_rows.items():
        if key in ours_rows:
            continue
        was = base_rows.get(key)
        if was is not None and _same(was, other):
            continue  # deleted on our side, untouched on theirs
        if was is not None:
            notes.append(f"kept {key}: deleted on one side, changed on the other")
        rows.append(other)
    if newest_first:
        rows.sort(key=lambda r: r.key, reverse=True)
    merged = TableDocument(
        header=ours.header,
        rows=[*rows, *_duplicates(ours.rows)],
        before=merge_lines(base.before, ours.before, theirs.before),
        after=merge_lines(base.after, ours.after, theirs.after),
        header_raw=ours.header_raw,
        separator_raw=ours.separator_raw,
        trailing_newline=ours.trailing_newline,
    )
    return Merged(merged.render(), True, notes)


def _same(a: Row, b: Row) -> bool:
    """Equal values; the same source line says so without unescaping 9 cells (10,000 rows)."""
    if a.raw is not None and a.raw == b.raw:
        return True
    return a.values == b.values


def _by_key(rows: Sequence[Row]) -> dict[str, Row]:
    found: dict[str, Row] = {}
    for row in rows:
        found.setdefault(row.key, row)
    return found


def _duplicates(rows: Sequence[Row]) -> list[Row]:
    """Rows repeating a key already seen: kept as written (doctor reports them)."""
    seen: set[str] = set()
    extra = []
    for row in rows:
        if row.key in seen:
            extra.append(row)
        seen.add(row.key)
    return extra


def merge_board(base: str, ours: str, theirs: str, path: str) -> Merged:
    return merge_table(
        parse_board(base, path),
        parse_board(ours, path),
        parse_board(theirs, path),
        combine_board_rows,
    )


def merge_log_index(base: str, ours: str, theirs: str, path: str) -> Merged:
    return merge_table(
        parse_log_index(base, path),
        parse_log_index(ours, path),
        parse_log_index(theirs, path),
        combine_log_index_rows,
        newest_first=True,
    )
