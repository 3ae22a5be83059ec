"""The filters a search, a timeline and every face share: kinds, a day range, a session.

Each face (CLI, MCP, web) hands its text through ``filter_day`` so a bad date reads the
same everywhere; ``where_clause`` is the SQL every query of the index adds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from ..errors import UsageError
from .kinds import KINDS

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def filter_day(value: str | None, name: str) -> date | None:
    """A ``since``/``until`` value as a date; anything but a real ``YYYY-MM-DD`` day is a
    ``UsageError`` that names the option (every face passes its text through here)."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if _DAY.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    from ..files.freetext import shorten

    shown = shorten(text, 41)
    raise UsageError(f"{name} takes a date YYYY-MM-DD, got {shown!r}")


def check_filters(kinds: Sequence[str] | None, since: date | None, until: date | None) -> None:
    """Unknown kinds and a reversed date range are ``UsageError``s naming them."""
    unknown = sorted(set(kinds or ()) - set(KINDS))
    if unknown:
        raise UsageError(f"unknown kind(s) {', '.join(unknown)}: use {', '.join(KINDS)}")
    if since and until and since > until:
        raise UsageError(f"--since {since} is after --until {until}")


def where_clause(
    kinds: Sequence[str] | None, since: date | None, until: date | None, session: str | None
) -> tuple[str, list[object]]:
    """SQL conditions on ``chunks c`` for the filters, each starting with ``AND``, and their
    parameters."""
    clauses: list[str] = []
    params: list[object] = []
    if kinds:
        clauses.append(f"c.kind IN ({','.join('?' * len(kinds))})")
        params.extend(kinds)
    if since:
        clauses.append("c.date >= ?")
        params.append(since.isoformat())
    if until:
        clauses.append("c.date IS NOT NULL AND c.date <= ?")
        params.append(until.isoformat())
    if session:
        clauses.append("c.session_id = ?")
        params.append(session)
    return "".join(f" AND {c}" for c in clauses), params
