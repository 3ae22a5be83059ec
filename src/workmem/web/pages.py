"""The viewer's pages of the board, a session, the threads and the events ledger.

Free text the board keeps escaped is shown as its writer wrote it; documents (a snapshot,
running notes, a thread) are rendered from their markdown (``markdown``: no HTML of theirs
passes). A session's page opens with what it did and what comes next (``board.digest``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from ..board.model import STATUSES
from .html import Page, dl, esc, link, pager, pre, references, status_badge, table, when
from .markdown import inline

if TYPE_CHECKING:
    from ..board.digest import SessionDigest
    from ..journal.events import Event
    from .reader import BoardPage, EventsPage, SessionPage, ThreadsPage

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
    return Page("Board", intro + nav + table(BOARD_HEADERS, cells) + nav)


def _items(items: Sequence[str], empty: str) -> str:
    if not items:
        return f'<p class="empty">{esc(empty)}</p>'
    return "<ul>" + "".join(f"<li>{inline(i)}</li>" for i in items) + "</ul>"


def digest_part(digest: SessionDigest) -> str:
    """The top of a session's page: its summary, what is done, what is next."""
    parts = ['<section class="digest" aria-label="at a glance">']
    if digest.summary:
        parts.append(f'<p class="summary">{inline(digest.summary)}</p>')
    parts.append(
        '<div class="columns">'
        f'<div class="done"><h2>Done</h2>{_items(digest.done, "Nothing marked done yet.")}</div>'
        f'<div class="next"><h2>Next</h2>{_items(digest.next, "No next step recorded.")}</div>'
        "</div>"
    )
    if digest.last_request:
        parts.append(
            f'<p><span class="label">Last request</span> {inline(digest.last_request)}</p>'
        )
    if digest.files:
        parts.append(f"<h3>Files</h3>{_items(digest.files, '')}")
    if digest.recent:
        parts.append(f"<h3>Recent work</h3>{_items(digest.recent, '')}")
    parts.append("</section>")
    return "".join(parts)


def session_page(page: SessionPage) -> Page:
    from .memory_pages import document

    view = page.view
    parts = [f"<h1>{esc(view.session_id)}</h1>"]
    if view.archived:
        parts.append(
            f'<p class="meta">Archived in {esc(page.snapshot_path)}: no longer on the board.</p>'
        )
    parts.append(digest_part(page.digest))
    row = view.row
    if row is not None:
        values = row.to_dict()
        parts.append(
            dl(
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
        parts.append(document(view.snapshot))
    parts.append(f'<h2>Running notes</h2><p class="path">{esc(page.notes_path)}</p>')
    notes = document(page.notes) if page.notes is not None else '<p class="empty">No notes.</p>'
    parts.append(notes)
    parts.append(f'<p class="meta">{link("/api/sessions/", view.session_id, "JSON")}</p>')
    return Page(view.session_id, "".join(parts))


# ---- the journal: threads and events ------------------------------------------------------


def threads_page(page: ThreadsPage) -> Page:
    """The threads as a table (free text shown as written), then each thread's own text."""
    from ..files.freetext import restore
    from ..journal.threads import OPEN
    from .memory_pages import document

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
        f'<section id="t-{number}"><h2>{esc(thread.name)}</h2>{document(thread.text())}</section>'
        for number, thread in enumerate(threads, 1)
    ]
    return Page("Threads", head + table(headers, rows) + "".join(sections))


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
        parts.append(table(headers, _event_rows(page.dated)))
    if page.undated:
        parts.append("<h2>Undated</h2>")
        parts.append('<p class="meta">No date could be read from these; newest recorded first.</p>')
        parts.append(table(headers, _event_rows(page.undated)))
    parts.append(nav)
    if page.skipped:
        parts.append(
            f'<p class="meta">{page.skipped} entr{"ies" if page.skipped != 1 else "y"} of the '
            "file could not be read as events and are not shown (the file is unchanged).</p>"
        )
    return Page("Events", "".join(parts))
