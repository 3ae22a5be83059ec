"""HTML for the viewer: small functions that turn the core's objects into strings.

Every value that comes from a file passes ``esc`` (``html.escape``) on its way into the
page, and every link built from one is percent-encoded first, so a hand-edited board row or
snapshot cannot inject markup or script. Markdown documents are shown as text in ``<pre>``:
the viewer shows what the file says rather than an interpretation of it, and needs no
markdown library. Pages work without JavaScript, and the one stylesheet is inline so each
page is a single response. Each ``*_page`` function returns a ``Page`` (title and body);
``layout`` wraps it in the shared frame.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote, urlencode

from ..board.model import STATUSES

if TYPE_CHECKING:
    from ..journal.events import Event
    from ..retrieval.hits import Hit, Timeline
    from .reader import BoardPage, EventsPage, Paged, SearchRequest, SessionPage, ThreadsPage

STYLE = """
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans CJK TC",
"Noto Sans CJK SC","Noto Sans CJK JP","Noto Sans CJK KR","PingFang TC","Microsoft JhengHei",
sans-serif;color:#1f2328;background:#fff}
header{background:#f6f8fa;border-bottom:1px solid #d0d7de;padding:.5rem 1rem}
header nav{display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
header .brand{font-weight:700;color:#1f2328;text-decoration:none}
header form{margin-left:auto;display:flex;gap:.3rem}
header .root{margin:.2rem 0 0;color:#59636e;font-size:.8rem}
main{padding:1rem;max-width:80rem}
a{color:#0969da}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}
tr.current td{background:#fff8c5}
pre{white-space:pre-wrap;word-wrap:break-word;background:#f6f8fa;border:1px solid #d0d7de;
padding:.75rem;border-radius:6px;font:13px/1.45 ui-monospace,"SFMono-Regular",Menlo,Consolas,
"Noto Sans Mono CJK TC",monospace}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}
dt{font-weight:600}dd{margin:0}
.meta,.path,.empty{color:#59636e;font-size:.85rem}
.status{padding:0 .4rem;border-radius:1rem;background:#eaeef2;font-size:.85rem}
.status-active{background:#dafbe1}.status-stale{background:#fff1e5}.status-idle{background:#eaeef2}
ol.hits li{margin-bottom:.8rem}ol.hits p{margin:.2rem 0}
nav.pager{display:flex;gap:1rem;align-items:center;margin:.5rem 0}
form.search{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin-bottom:1rem}
form.search label{display:flex;flex-direction:column;font-size:.85rem;color:#59636e}
.when{white-space:nowrap}
.error{border-left:4px solid #cf222e;padding-left:1rem}
"""

BOARD_HEADERS = (
    "Session ID",
    "Agent",
    "Topic",
    "Summary",
    "Keywords",
    "Status",
    "Referenced By",
    "Started",
    "Updated",
)


class Page(NamedTuple):
    title: str
    body: str


def esc(value: object) -> str:
    """Text from a file, safe inside an element or a quoted attribute."""
    return html.escape(str(value), quote=True)


def href(prefix: str, value: str) -> str:
    """A link to ``prefix`` + one path segment taken from a file (encoded, then escaped)."""
    return esc(prefix + quote(value, safe=""))


def link(prefix: str, value: str, text: str | None = None) -> str:
    return f'<a href="{href(prefix, value)}">{esc(value if text is None else text)}</a>'


def pre(text: str) -> str:
    return f"<pre>{esc(text)}</pre>"


def _table(
    headers: Sequence[str], rows: Iterable[Sequence[str]], classes: Sequence[str] = ()
) -> str:
    """A table whose cells are already HTML (each caller escapes what it puts in)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = []
    for index, row in enumerate(rows):
        cls = classes[index] if index < len(classes) and classes[index] else ""
        attr = f' class="{esc(cls)}"' if cls else ""
        body.append(f"<tr{attr}>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _dl(pairs: Iterable[tuple[str, str]]) -> str:
    """A definition list; values are already HTML."""
    return "<dl>" + "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in pairs) + "</dl>"


def layout(page: Page, *, root: str, query: str = "") -> str:
    """The shared frame: navigation, a search box, the memory root, the page."""
    return (
        "<!doctype html>\n"
        '<html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(page.title)} · workmem</title><style>{STYLE}</style></head>\n"
        "<body><header><nav>"
        '<a class="brand" href="/">workmem</a>'
        '<a href="/">Board</a><a href="/threads">Threads</a><a href="/events">Events</a>'
        '<a href="/search">Search</a>'
        '<form action="/search" method="get" role="search">'
        f'<input type="search" name="q" value="{esc(query)}" placeholder="search memory"'
        ' aria-label="search memory"><button type="submit">Search</button></form>'
        f'</nav><p class="root">read-only view of {esc(root)}</p></header>\n'
        f"<main>{page.body}</main></body></html>\n"
    )


def when(stamp: str) -> str:
    """A time stamp kept on one line (a table cell would break it at the date's hyphens)."""
    return f'<span class="when">{esc(stamp)}</span>'


def status_badge(status: str) -> str:
    cls = f"status status-{status}" if status in STATUSES else "status"
    return f'<span class="{cls}">{esc(status)}</span>'


def references(ids: Sequence[str]) -> str:
    """Session IDs as links to their pages, or ``-``."""
    return ", ".join(link("/sessions/", sid) for sid in ids) if ids else "-"


def pager(paged: Paged[Any], path: str, params: Sequence[tuple[str, str]] = ()) -> str:
    """Where this page sits in the whole list, with links to the pages beside it.

    ``params`` are the other parameters of the page (a filter), kept in every link.
    """
    from .reader import PER_PAGE

    def to(page: int) -> str:
        query = [*params, ("page", str(page))]
        if paged.per_page != PER_PAGE:
            query.append(("per_page", str(paged.per_page)))
        return esc(f"{path}?{urlencode(query)}")

    shown = f"{paged.first:,}–{paged.last:,} of {paged.total:,}" if paged.total else "none"
    parts = [f"<span>{shown}</span>"]
    if paged.pages > 1:
        if paged.page > 1:
            parts.append(f'<a rel="prev" href="{to(paged.page - 1)}">← Previous</a>')
        parts.append(f"<span>page {paged.page:,} of {paged.pages:,}</span>")
        if paged.page < paged.pages:
            parts.append(f'<a rel="next" href="{to(paged.page + 1)}">Next →</a>')
    return f'<nav class="pager" aria-label="pages">{"".join(parts)}</nav>'


# ---- the board and its sessions ---------------------------------------------------------


def board_page(page: BoardPage) -> Page:
    """One page of the board; free text shown as its writer wrote it (escapes undone)."""
    statuses, paged = page.statuses, page.paged
    filters = ['<a href="/">all</a>'] + [
        f'<a href="/?{esc(urlencode({"status": s}))}">{esc(s)}</a>' for s in STATUSES
    ]
    shown = f" ({', '.join(statuses)})" if statuses else ""
    count = f"{paged.total:,} session{'s' if paged.total != 1 else ''}"
    intro = (
        f"<h1>Session board{esc(shown)}</h1>"
        f'<p class="meta">{count} · show {" · ".join(filters)} · '
        '<a href="/api/board">JSON</a></p>'
    )
    if not paged.total:
        return Page("Board", intro + '<p class="empty">No sessions on the board.</p>')
    cells = []
    for row in paged.items:
        values = row.to_dict()
        cells.append(
            [
                link("/sessions/", row.session_id),
                esc(row.agent_name),
                esc(values["topic"]),
                esc(values["summary"]),
                esc(values["keywords"]),
                status_badge(row.status),
                references(row.references),
                when(row.started_at),
                when(row.updated_at),
            ]
        )
    nav = pager(paged, "/", [("status", s) for s in statuses]) if paged.pages > 1 else ""
    return Page("Board", intro + nav + _table(BOARD_HEADERS, cells) + nav)


def session_page(page: SessionPage) -> Page:
    view = page.view
    parts = [f"<h1>{esc(view.session_id)}</h1>"]
    if view.archived:
        parts.append(
            f'<p class="meta">Archived in {esc(page.snapshot_path)}: no longer on the board.</p>'
        )
    row = view.row
    if row is not None:
        values = row.to_dict()
        parts.append(
            _dl(
                [
                    ("Agent", esc(row.agent_name)),
                    ("Topic", esc(values["topic"])),
                    ("Summary", esc(values["summary"])),
                    ("Keywords", esc(values["keywords"])),
                    ("Status", status_badge(row.status)),
                    ("Referenced By", references(row.references)),
                    ("Started", esc(row.started_at)),
                    ("Updated", esc(row.updated_at)),
                ]
            )
        )
    parts.append(f'<h2>Snapshot</h2><p class="path">{esc(page.snapshot_path)}</p>')
    if view.snapshot is None:
        parts.append('<p class="empty">No snapshot yet (nothing recorded for this session).</p>')
    else:
        parts.append(pre(view.snapshot))
    parts.append(f'<h2>Running notes</h2><p class="path">{esc(page.notes_path)}</p>')
    parts.append(pre(page.notes) if page.notes is not None else '<p class="empty">No notes.</p>')
    parts.append(f'<p class="meta">{link("/api/sessions/", view.session_id, "JSON")}</p>')
    return Page(view.session_id, "".join(parts))


# ---- the journal: threads and events ------------------------------------------------------


def threads_page(page: ThreadsPage) -> Page:
    """The threads as a table (free text shown as written), then each thread's own text."""
    from ..files.freetext import restore
    from ..journal.threads import OPEN

    head = f'<h1>Threads</h1><p class="path">{esc(page.path)}</p>'
    if page.doc is None or page.text is None:
        return Page("Threads", head + '<p class="empty">No threads yet.</p>')
    threads = page.doc.threads
    if not threads:
        return Page("Threads", head + pre(page.text))
    rows = []
    for number, thread in enumerate(threads, 1):
        opened = thread.part(OPEN)
        rows.append(
            [
                f'<a href="#t-{number}">{esc(thread.name)}</a>',
                esc(thread.id),
                esc(thread.status() or "-"),
                esc(thread.last_touched() or "-"),
                esc(" ".join(restore(thread.position()).split()) or "-"),
                str(len(opened.items()) if opened is not None else 0),
            ]
        )
    headers = ("Thread", "ID", "Status", "Last touched", "Current position", "Open questions")
    sections = [
        f'<section id="t-{number}"><h2>{esc(thread.name)}</h2>{pre(thread.text())}</section>'
        for number, thread in enumerate(threads, 1)
    ]
    return Page("Threads", head + _table(headers, rows) + "".join(sections))


def _when(event: Event) -> str:
    if event.normalized_date is None:
        said = f" ({event.date_text})" if event.date_text else ""
        return esc(f"undated{said}")
    text = event.normalized_date
    if event.date_end and event.date_end != event.normalized_date:
        text += f" – {event.date_end}"
    if event.date_granularity and event.date_granularity != "day":
        text += f" ({event.date_granularity})"
    said = f'<br><span class="meta">“{esc(event.date_text)}”</span>' if event.date_text else ""
    return esc(text) + said


def _event_rows(events: Sequence[Event]) -> list[list[str]]:
    return [
        [
            _when(e),
            esc(e.type),
            esc(e.text),
            esc(e.object_hint or "-"),
            esc(e.session_date or "-"),
            esc(e.source or "-"),
            esc(e.id),
        ]
        for e in events
    ]


def events_page(page: EventsPage) -> Page:
    headers = ("When", "Type", "What was said", "Object", "Said on", "Logged in", "ID")
    parts = [
        f'<h1>Events</h1><p class="path">{esc(page.path)} · newest first · '
        '<a href="/api/events">JSON</a></p>'
    ]
    if not page.paged.total:
        parts.append('<p class="empty">No events recorded.</p>')
    nav = pager(page.paged, "/events") if page.paged.pages > 1 else ""
    parts.append(nav)
    if page.dated:
        parts.append(_table(headers, _event_rows(page.dated)))
    if page.undated:
        parts.append("<h2>Undated</h2>")
        parts.append('<p class="meta">No date could be read from these; newest recorded first.</p>')
        parts.append(_table(headers, _event_rows(page.undated)))
    parts.append(nav)
    if page.skipped:
        parts.append(
            f'<p class="meta">{page.skipped} entr{"ies" if page.skipped != 1 else "y"} of the '
            "file could not be read as events and are not shown (the file is unchanged).</p>"
        )
    return Page("Events", "".join(parts))


# ---- search and the chunks it finds ---------------------------------------------------------


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
    facts = _dl(
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
        timeline += _table(("Date", "Kind", "Title", "Snippet"), rows, marks)
    body = f"<h1>{esc(hit.title or hit.id)}</h1>{facts}{pre(hit.text)}{timeline}"
    return Page(hit.title or hit.id, body)


def error_page(status: int, title: str, message: str) -> Page:
    body = (
        f'<div class="error"><h1>{esc(title)}</h1><p>{esc(message)}</p>'
        f'<p class="meta">HTTP {status}</p></div><p><a href="/">Back to the board</a></p>'
    )
    return Page(title, body)
