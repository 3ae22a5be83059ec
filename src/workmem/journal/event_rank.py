"""Ranking ledger events for a question: by the dates it names, then by what it is about.

Events are few and structured, so this reads ``events.json`` directly instead of the search
index: "what did I buy in March?" needs a date filter (March of any year, since no year was
said) and "buy" to meet ``type: purchase``; "上週做了什麼" needs last week's events, newest
first, whatever their words. A question without dates ranks by words (object first, then
action and type, then the sentence), newest first among equals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from .dates import DAY, MONTH, ResolvedDate, find_dates
from .events import Event
from .terms import term_set, terms


@dataclass(frozen=True)
class EventMatch:
    event: Event
    score: int
    in_range: bool


@dataclass
class EventRanking:
    matches: list[EventMatch]
    ranges: list[ResolvedDate] = field(default_factory=list)
    #: Dated events outside the question's dates, and events with no date at all.
    out_of_range: int = 0
    undated: int = 0

    @property
    def date_filtered(self) -> bool:
        return bool(self.ranges)

    @property
    def ordering(self) -> str:
        """How the matches are listed, for the heading a person reads."""
        return "by date, newest first" if self.ranges else "by relevance"


def _without_spans(text: str, hits: list[ResolvedDate]) -> str:
    pieces: list[str] = []
    cursor = 0
    for hit in sorted(hits, key=lambda h: h.span):
        start, end = hit.span
        if start < cursor or end <= start:
            continue
        pieces.append(text[cursor:start])
        cursor = end
    pieces.append(text[cursor:])
    return " ".join(pieces)


def question_dates(query: str, reference: date) -> tuple[list[ResolvedDate], str]:
    """The resolved dates a question names, and its text with those words taken out."""
    hits = find_dates(query, reference)
    return [h for h in hits if h.resolved], _without_spans(query, hits)


def in_range(event: Event, wanted: ResolvedDate) -> bool:
    first = event.day
    if first is None or wanted.start is None or wanted.end is None:
        return False
    last = event.last_day or first
    if wanted.year_given:
        return first <= wanted.end and last >= wanted.start
    if wanted.granularity == MONTH:
        return first.month == wanted.start.month
    if wanted.granularity == DAY:
        return (first.month, first.day) == (wanted.start.month, wanted.start.day)
    return first <= wanted.end and last >= wanted.start


def lexical_score(query_terms: frozenset[str], event: Event) -> int:
    if not query_terms:
        return 0
    hint = term_set(event.object_hint or "")
    kind = term_set(f"{event.type} {event.action or ''}")
    body = term_set(event.text)
    return 3 * len(query_terms & hint) + 2 * len(query_terms & kind) + len(query_terms & body)


def rank_events(
    events: list[Event], query: str, reference: date, *, limit: int | None = None
) -> EventRanking:
    ranges, rest = question_dates(query, reference)
    query_terms = frozenset(terms(rest))
    matches: list[EventMatch] = []
    out_of_range = 0
    undated = 0
    for event in events:
        if ranges:  # the date filter first: it is cheap and leaves few events to score
            if event.day is None:
                undated += 1
                continue
            if not any(in_range(event, wanted) for wanted in ranges):
                out_of_range += 1
                continue
            matches.append(EventMatch(event, lexical_score(query_terms, event), True))
            continue
        score = lexical_score(query_terms, event)
        if score > 0:
            matches.append(EventMatch(event, score, False))
    if ranges:
        # date questions: events that also share the question's words are kept first when
        # the list is cut, then every kept event is listed by its date, newest first
        matches.sort(key=lambda m: (m.score > 0 or not query_terms, _day_key(m.event), m.score))
    else:
        matches.sort(key=lambda m: (m.score, _day_key(m.event)))
    matches.reverse()
    if limit is not None:
        matches = matches[:limit]
    if ranges:
        matches.sort(key=lambda m: (_day_key(m.event), m.score), reverse=True)
    return EventRanking(matches, ranges, out_of_range, undated)


def _day_key(event: Event) -> date:
    return event.day or date.min
