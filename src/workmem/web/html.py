"""The viewer's frame and the small pieces every page is made of.

Every value that comes from a file passes ``esc`` (``html.escape``) on its way into the
page, and every link built from one is percent-encoded first, so a hand-edited board row or
snapshot cannot inject markup or script; markdown documents are rendered by ``markdown``,
which lets no HTML of theirs through. Pages work without JavaScript, and the one stylesheet
is inline so each page is a single response. Each page function returns a ``Page`` (title
and body); ``layout`` wraps it in the shared frame.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote, urlencode

from ..board.model import STATUSES

if TYPE_CHECKING:
    from .reader import Paged

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
article.doc{max-width:60rem}
article.doc h1{font-size:1.4rem}article.doc h2{font-size:1.2rem;border-bottom:1px solid #d0d7de}
article.doc h3{font-size:1.05rem}article.doc h4{font-size:1rem}
article.doc code,.digest code{background:#f6f8fa;border-radius:4px;padding:0 .2rem;
font:13px ui-monospace,"SFMono-Regular",Menlo,Consolas,"Noto Sans Mono CJK TC",monospace}
article.doc pre code{background:none;padding:0}
blockquote{margin:.5rem 0;padding:0 1rem;color:#59636e;border-left:4px solid #d0d7de}
.digest{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.5rem 1rem;
margin-bottom:1rem}
.digest .summary{font-size:1.05rem;font-weight:600}
.digest .columns{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.digest h2{font-size:1rem;margin:.3rem 0}.digest h3{font-size:.9rem;margin:.5rem 0 .2rem}
.label{font-weight:600;margin-right:.3rem}
ol.feed{list-style:none;padding:0;margin:0 0 1rem}
ol.feed li{border-left:3px solid #d0d7de;padding:.2rem .6rem;margin:.3rem 0}
ol.feed .when{display:inline-block;min-width:3.2rem;color:#59636e}
ol.feed .kind{font-weight:600;margin-right:.3rem}
ol.feed .meta{margin-left:.4rem}ol.feed .detail{margin:.1rem 0 0 3.2rem;color:#1f2328}
li.kind-start{border-color:#1a7f37}li.kind-end{border-color:#8250df}
li.kind-compaction{border-color:#bf8700}li.kind-handoff{border-color:#0969da}
li.kind-save{border-color:#57606a}li.kind-archive{border-color:#cf222e}
"""


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


def table(
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


def dl(pairs: Iterable[tuple[str, str]]) -> str:
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
        '<a href="/">Board</a><a href="/timeline">Timeline</a><a href="/memory">Memory</a>'
        '<a href="/days">Daily logs</a><a href="/threads">Threads</a><a href="/events">Events</a>'
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


def error_page(status: int, title: str, message: str) -> Page:
    body = (
        f'<div class="error"><h1>{esc(title)}</h1><p>{esc(message)}</p>'
        f'<p class="meta">HTTP {status}</p></div><p><a href="/">Back to the board</a></p>'
    )
    return Page(title, body)
