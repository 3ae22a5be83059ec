"""The viewer's pages of long-term memory, the daily logs and the timeline.

Documents are rendered from their markdown (``markdown``: nothing of theirs passes as
HTML); MEMORY.md's links to typed memories lead to their pages. The timeline is the feed a
person keeps open: what happened, newest first, a day at a time.
"""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING
from urllib.parse import quote

from ..activity import KINDS
from .html import Page, dl, esc, link, pager, table
from .markdown import render

if TYPE_CHECKING:
    from .memory_reader import DayPage, DaysPage, LongTermPage, TimelinePage, TypedPage


def typed_link(address: str) -> str | None:
    """The viewer's page of a typed memory a document links to (``memory/x.md``)."""
    from ..facts.typed import parse_filename

    path = address.split("#", 1)[0].removeprefix("./")
    name = path.removeprefix("memory/")
    if "/" in name or parse_filename(name) is None:
        return None
    return "/memory/" + quote(name.removesuffix(".md"), safe="")


def document(text: str) -> str:
    """A memory file's markdown, rendered, in the frame documents share."""
    return f'<article class="doc">{render(text, local=typed_link)}</article>'


# ---- long-term memory ------------------------------------------------------------------------


def long_term_page(page: LongTermPage) -> Page:
    parts = [
        "<h1>Long-term memory</h1>",
        f'<p class="path">{esc(page.path)} · <a href="/api/memory">JSON</a></p>',
    ]
    if page.memories:
        rows = [
            [
                link("/memory/", m.filename.removesuffix(".md"), m.name),
                esc(m.type),
                esc(m.description or "-"),
                esc(m.updated.isoformat() if m.updated else "-"),
                esc(m.stale_reason(page.today) or "-"),
            ]
            for m in page.memories
        ]
        parts.append("<h2>Typed memories</h2>")
        parts.append(table(("Memory", "Type", "Description", "Updated", "Stale"), rows))
    for name, error in page.problems:
        parts.append(f'<p class="meta">{esc(name)} could not be read: {esc(error)}</p>')
    if page.text is None:
        parts.append('<p class="empty">No MEMORY.md yet: a wrap-up writes it.</p>')
    else:
        parts.append(f"<h2>{esc(page.path)}</h2>{document(page.text)}")
    return Page("Long-term memory", "".join(parts))


def typed_page(page: TypedPage) -> Page:
    memory = page.memory
    facts = dl(
        [
            ("Type", esc(memory.type)),
            ("Description", esc(memory.description or "-")),
            ("Updated", esc(memory.updated.isoformat() if memory.updated else "-")),
            ("Expires", esc(memory.expires.isoformat() if memory.expires else "never")),
            ("Stale", esc(memory.stale_reason(page.today) or "no")),
        ]
    )
    api = link("/api/memory/", memory.filename.removesuffix(".md"), "JSON")
    body = (
        f"<h1>{esc(memory.name)}</h1>"
        f'<p class="path">{esc(page.path)} · <a href="/memory">all memories</a> · {api}</p>'
        f"{facts}{document(memory.body)}"
    )
    return Page(memory.name, body)


# ---- daily logs -------------------------------------------------------------------------------


def days_page(page: DaysPage) -> Page:
    paged = page.paged
    head = '<h1>Daily logs</h1><p class="meta">newest first · <a href="/api/days">JSON</a></p>'
    if not paged.total:
        return Page("Daily logs", head + '<p class="empty">No daily logs yet.</p>')
    rows = [
        [
            link("/days/", row.day.isoformat()),
            str(row.digest.sessions),
            esc(row.digest.summary or "-"),
            esc(", ".join(row.digest.threads) or "-"),
        ]
        for row in paged.items
    ]
    nav = pager(paged, "/days") if paged.pages > 1 else ""
    body = head + nav + table(("Day", "Sessions", "Summary", "Threads"), rows) + nav
    return Page("Daily logs", body)


def day_page(page: DayPage) -> Page:
    day = page.day.isoformat()
    around = []
    if page.previous:
        previous = page.previous.isoformat()
        around.append(f'<a rel="prev" href="/days/{previous}">← {previous}</a>')
    around.append('<a href="/days">all days</a>')
    if page.following:
        following = page.following.isoformat()
        around.append(f'<a rel="next" href="/days/{following}">{following} →</a>')
    nav = f'<nav class="pager" aria-label="days">{"".join(around)}</nav>'
    body = (
        f"<h1>Daily log {esc(day)}</h1>"
        f'<p class="path">{esc(page.path)} · {link("/api/days/", day, "JSON")}</p>'
        f"{nav}{document(page.text)}{nav}"
    )
    return Page(f"Daily log {day}", body)


# ---- the timeline -----------------------------------------------------------------------------


def timeline_page(page: TimelinePage) -> Page:
    paged = page.paged
    head = (
        "<h1>Timeline</h1>"
        '<p class="meta">what happened, newest first: sessions, saves, compactions, '
        'handoffs · <a href="/api/timeline">JSON</a></p>'
    )
    if not paged.total:
        return Page("Timeline", head + '<p class="empty">Nothing has happened here yet.</p>')
    days = []
    for day, items in groupby(paged.items, key=lambda a: a.when[:10]):
        entries = []
        for item in items:
            time = item.when[11:16] if len(item.when) > 10 else ""
            kind = KINDS.get(item.kind, item.kind)
            session = f" · {link('/sessions/', item.session_id)}" if item.session_id else ""
            detail = f'<p class="detail">{esc(item.detail)}</p>' if item.detail else ""
            entries.append(
                f'<li class="kind-{esc(item.kind)}"><span class="when">{esc(time)}</span>'
                f'<span class="kind">{esc(kind)}</span> {esc(item.title)}'
                f'<span class="meta">{session} · {esc(item.source)}</span>{detail}</li>'
            )
        title = link("/days/", day) if day in page.logged else esc(day)
        feed = "".join(entries)
        days.append(f'<section class="day"><h2>{title}</h2><ol class="feed">{feed}</ol></section>')
    nav = pager(paged, "/timeline") if paged.pages > 1 else ""
    return Page("Timeline", head + nav + "".join(days) + nav)
