"""The viewer's search form, its hits, and a hit opened whole with its neighbours in time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .html import Page, dl, esc, link, pre, table

if TYPE_CHECKING:
    from ..retrieval.hits import Hit, Timeline
    from .reader import SearchRequest


def _hit_meta(hit: Hit) -> str:
    bits = [hit.date or "undated", hit.kind, _where(hit), f"{hit.tokens} tokens"]
    return " · ".join(esc(b) for b in bits)


def _where(hit: Hit) -> str:
    lines = f"{hit.line_start}" + (f"-{hit.line_end}" if hit.line_end != hit.line_start else "")
    return f"{hit.path}:{lines}"


def _field(label: str, control: str) -> str:
    return f"<label>{esc(label)} {control}</label>"


def search_form(asked: SearchRequest, all_kinds: Sequence[str]) -> str:
    """Every filter the core search takes: kind, time, session, number of hits."""
    wanted = set(asked.kinds)
    options = ['<option value="">all kinds</option>'] + [
        f'<option value="{esc(kind)}"{" selected" if kind in wanted else ""}>{esc(kind)}</option>'
        for kind in all_kinds
    ]
    since = asked.since.isoformat() if asked.since else ""
    until = asked.until.isoformat() if asked.until else ""
    return (
        '<form class="search" action="/search" method="get">'
        + _field(
            "Search for",
            f'<input type="search" name="q" value="{esc(asked.query)}" size="40">',
        )
        + _field("Kind", f'<select name="kind">{"".join(options)}</select>')
        + _field("Since", f'<input type="date" name="since" value="{esc(since)}">')
        + _field("Until", f'<input type="date" name="until" value="{esc(until)}">')
        + _field(
            "Session",
            f'<input type="text" name="session" value="{esc(asked.session or "")}"'
            ' size="34" placeholder="any session">',
        )
        + _field("Hits", f'<input type="number" name="k" value="{asked.k}" min="1" max="100">')
        + '<button type="submit">Search</button></form>'
    )


def search_page(asked: SearchRequest, hits: Sequence[Hit] | None, all_kinds: Sequence[str]) -> Page:
    """The search form; hits when a query was given (``None`` when none was)."""
    from ..retrieval.bounds import MAX_QUERY_CHARS, was_cut

    parts = ["<h1>Search</h1>", search_form(asked, all_kinds)]
    if asked.query and was_cut(asked.query):
        parts.append(
            f'<p class="meta">A long query: only its first {MAX_QUERY_CHARS:,} characters '
            "were searched.</p>"
        )
    if hits is None:
        parts.append(
            '<p class="empty">Search every memory file: the board, snapshots, notes, '
            "daily logs, typed memories, threads, events, archives.</p>"
        )
    elif not hits:
        parts.append(f'<p class="empty">No memory matches “{esc(asked.query)}”.</p>')
    else:
        items = [
            f"<li>{link('/chunks/', h.id, h.title or h.id)}"
            f'<div class="meta">{_hit_meta(h)}</div><p>{esc(h.snippet)}</p></li>'
            for h in hits
        ]
        parts.append(f'<ol class="hits">{"".join(items)}</ol>')
    query = asked.query
    return Page(f"Search: {query}" if query else "Search", "".join(parts))


def chunk_page(view: Timeline) -> Page:
    hit = view.anchor
    session = link("/sessions/", hit.session_id) if hit.session_id else "-"
    facts = dl(
        [
            ("ID", esc(hit.id)),
            ("Kind", esc(hit.kind)),
            ("File", esc(_where(hit))),
            ("Date", esc(hit.date or "undated")),
            ("Session", session),
            ("Tokens", esc(hit.tokens)),
        ]
    )
    around = [*view.before, hit, *view.after]
    marks = ["current" if h is hit else "" for h in around]
    rows = [
        [
            esc(h.date or "-"),
            esc(h.kind),
            esc(h.title) if h is hit else link("/chunks/", h.id, h.title or h.id),
            esc(h.snippet),
        ]
        for h in around
    ]
    timeline = "<h2>Around it in time</h2>"
    if len(around) == 1:
        timeline += '<p class="empty">Nothing else in memory sits next to it.</p>'
    else:
        timeline += table(("Date", "Kind", "Title", "Snippet"), rows, marks)
    body = f"<h1>{esc(hit.title or hit.id)}</h1>{facts}{pre(hit.text)}{timeline}"
    return Page(hit.title or hit.id, body)
