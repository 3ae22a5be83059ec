"""What search returns: compact hits that can be opened whole, and a chunk's place in time.

Rows of the ``chunks`` table become ``Hit`` objects here, in one place, so ``search``,
``get`` and ``timeline`` describe a chunk the same way.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field, fields
from datetime import date
from functools import cached_property
from typing import Any

from ..errors import UsageError
from . import analyze

_CID = re.compile(r"^[0-9a-f]{12}(?:-\d{1,6})?$")
COLUMNS = "id, cid, kind, path, line_start, line_end, date, session_id, title, text, tokens, label"


@dataclass(frozen=True)
class Hit:
    """One search result. Its snippet is made when first read: making readable snippets is
    about a third of a lexical query's time, and callers that pack hits into a context (the
    loader, the benchmarks) never read them."""

    id: str
    kind: str
    path: str
    line_start: int
    line_end: int
    date: str | None
    session_id: str | None
    title: str
    text: str
    score: float
    tokens: int
    #: other places holding the same text ("path:line"), shown as one hit (``one_per_text``)
    also: tuple[str, ...] = ()
    #: the query's words the snippet is centred on
    needles: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @cached_property
    def snippet(self) -> str:
        return analyze.snippet(self.text, list(self.needles))

    def to_dict(self, *, compact: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for column in fields(self):
            if column.name == "needles" or (compact and column.name == "text"):
                continue
            data[column.name] = getattr(self, column.name)
            if column.name == "title":
                data["snippet"] = self.snippet
        return data


@dataclass(frozen=True)
class Timeline:
    anchor: Hit
    before: list[Hit]
    after: list[Hit]

    def to_dict(self) -> dict[str, Any]:
        return {
            "anchor": self.anchor.to_dict(),
            "before": [h.to_dict(compact=True) for h in self.before],
            "after": [h.to_dict(compact=True) for h in self.after],
        }


#: Marks that set two copies of one text apart without changing its words: list and quote
#: marks, emphasis, code ticks, heading hashes.
_MARKS = str.maketrans("", "", "*_`>#-+")
#: Characters at the end of a text compared before the whole of it (``one_per_text``).
_TAIL = 12


def same_text(text: str) -> str:
    """What two chunks must share to be one hit: their words, whatever list marks, emphasis
    or spacing set them apart (the same file list item in a snapshot and in its notes)."""
    return " ".join(text.translate(_MARKS).split()).casefold()


def one_per_text(rows: list[tuple[Any, ...]]) -> list[tuple[tuple[Any, ...], tuple[str, ...]]]:
    """``rows`` (best first) with each text of a day once, and the other places it is
    found ("path:line", in rank order): later copies become places of the first.

    A copy is the same words on the same day (or both undated): a snapshot's file list and
    its notes' copy, a relay's list in the day's log and in its archive. The same sentence
    on two days is two entries (the standup that discussed the flaky test twice).
    Copies end alike, so the full comparison (``same_text``) is made only between rows
    whose texts end in the same characters: most queries compare nothing.
    """
    by_tail: dict[str, list[int]] = {}
    out: list[tuple[tuple[Any, ...], list[str]]] = []
    for row in rows:
        text: str = row[9]
        end = "".join(text[-3 * _TAIL :].translate(_MARKS).split())[-_TAIL:].casefold()
        tail = f"{row[6]}\0{end}"
        at = None
        for index in by_tail.get(tail, ()):
            if same_text(out[index][0][9]) == same_text(text):
                at = index
                break
        if at is None:
            by_tail.setdefault(tail, []).append(len(out))
            out.append((row, []))
            continue
        kept, places = out[at]
        place = f"{row[3]}:{row[4]}"
        if place not in places and (kept[3], kept[4]) != (row[3], row[4]):
            places.append(place)
    return [(row, tuple(places)) for row, places in out]


def fetch(con: sqlite3.Connection, ids: list[int]) -> dict[int, tuple[Any, ...]]:
    out: dict[int, tuple[Any, ...]] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        rows = con.execute(
            f"SELECT {COLUMNS} FROM chunks c WHERE id IN ({','.join('?' * len(part))})", part
        )
        out.update((row[0], row) for row in rows)
    return out


def day(value: str | None) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def make_hit(
    row: tuple[Any, ...], score: float, needles: list[str], also: tuple[str, ...] = ()
) -> Hit:
    _, cid, kind, path, start, end, day, sid, _heading, text, tokens, label = row
    return Hit(
        id=cid,
        kind=kind,
        path=path,
        line_start=start,
        line_end=end,
        date=day,
        session_id=sid,
        title=label,
        text=text,
        score=round(score, 6),
        tokens=tokens,
        also=also,
        needles=tuple(needles),
    )


def check_id(chunk_id: str) -> str:
    value = chunk_id.strip().lower()
    if not _CID.match(value):
        raise UsageError(f"invalid hit ID {chunk_id!r}: IDs look like 3f9a1c2b7e04 (from search)")
    return value
