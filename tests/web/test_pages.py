"""The HTML pages of a running viewer over a real workspace: what each one shows."""

from __future__ import annotations

import html
import re

from .conftest import Site
from .util import DOCS_SID, IDLE_SID, IMG, OLD_SID, SCRIPT, SID, memory_files


def _links(page: str, prefix: str) -> list[str]:
    return re.findall(rf'href="{re.escape(prefix)}([^"]+)"', page)


def test_board_lists_every_session_with_a_link_to_its_page(site: Site) -> None:
    reply = site.client.get("/")
    assert reply.status == 200
    assert reply.headers["content-type"] == "text/html; charset=utf-8"
    page = reply.text
    assert "<h1>Session board</h1>" in page
    linked = _links(page, "/sessions/")
    # meaningful sessions first, the idle placeholder last (the board's own order)
    assert linked[-1] == IDLE_SID
    assert {SID, DOCS_SID, IDLE_SID} <= set(linked)
    assert OLD_SID not in linked  # archived: no longer on the board
    assert "Wrote the README" in page and "Docs" in page
    assert '<span class="status status-active">active</span>' in page
    assert '<span class="status status-idle">idle</span>' in page
    # SID is referenced by DOCS_SID (continue_from): the Referenced By cell links to it
    row = page[page.index(f'href="/sessions/{SID}"') :]
    row = row[: row.index("</tr>")]
    assert f'<a href="/sessions/{DOCS_SID}">{DOCS_SID}</a>' in row


def test_board_filters_by_status(site: Site) -> None:
    page = site.client.get("/?status=idle").text
    assert _links(page, "/sessions/") == [IDLE_SID]
    assert "1 session ·" in page


def test_session_page_shows_its_row_snapshot_and_notes(site: Site) -> None:
    reply = site.client.get(f"/sessions/{SID}")
    assert reply.status == 200
    page = reply.text
    assert f"<h1>{SID}</h1>" in page
    assert f"memory/sessions/{SID}.md" in page
    snapshot = page[page.index('<article class="doc">') :]
    # the snapshot rendered from its markdown: headings, lists, the metadata table
    assert f"<h1>Session: {SID}</h1>" in snapshot
    assert "<h2>Decisions</h2>" in snapshot and "<li>Limit by IP</li>" in snapshot
    assert "<li>寫中介軟體</li>" in snapshot
    assert f"<td>Session ID</td><td>{SID}</td>" in snapshot
    assert f"memory/sessions/{SID}.notes.md" in page
    assert "<p>Rate limiting 限流 middleware" in page and "<em>A short title</em>" in page
    # the continuing session's snapshot names where it continues from
    docs = site.client.get(f"/sessions/{DOCS_SID}").text
    assert "<h2>Continues From</h2>" in docs and SID in docs
    assert "No notes." in docs


def test_session_page_opens_with_what_was_done_and_what_is_next(site: Site) -> None:
    page = site.client.get(f"/sessions/{SID}").text
    top = page[page.index(f"<h1>{SID}</h1>") : page.index("<dl>")]  # before everything else
    assert 'class="digest"' in top
    done = top[top.index("<h2>Done</h2>") : top.index("<h2>Next</h2>")]
    assert "<li>Write the API docs</li>" in done
    upcoming = top[top.index("<h2>Next</h2>") :]
    assert "<li>寫中介軟體</li>" in upcoming and "Write the API docs" not in upcoming
    assert "登入限流：每個 IP 每分鐘五次" in top  # the summary
    api = site.client.get(f"/api/sessions/{SID}").json()["digest"]
    assert api["done"] == ["Write the API docs"] and api["next"] == ["寫中介軟體"]
    # a session with nothing recorded says so rather than showing empty boxes
    idle = site.client.get(f"/sessions/{IDLE_SID}").text
    assert "Nothing marked done yet." in idle and "No next step recorded." in idle


def test_values_from_files_are_escaped_never_markup(site: Site) -> None:
    for path in ("/", f"/sessions/{SID}", f"/api/sessions/{SID}"):
        reply = site.client.get(path)
        assert reply.status == 200
        if path.startswith("/api/"):
            assert reply.headers["content-type"] == "application/json"
            assert SCRIPT in reply.json()["row"]["topic"]  # JSON carries the value as written
            continue
        page = reply.text
        assert SCRIPT not in page and "<b>not bold</b>" not in page
        assert html.escape(SCRIPT) in page
        csp = reply.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script" not in csp
    session = site.client.get(f"/sessions/{SID}").text
    assert IMG not in session and html.escape(IMG) in session
    assert html.escape("<b>not bold</b>") in session


def test_chinese_text_is_served_as_utf8(site: Site) -> None:
    reply = site.client.get("/")
    assert '<meta charset="utf-8">' in reply.text
    assert "登入限流：每個 IP 每分鐘五次".encode() in reply.body
    events = site.client.get("/events")
    assert "我昨天買了一台咖啡機".encode() in events.body


def test_archived_session_is_shown_from_the_archive(site: Site) -> None:
    page = site.client.get(f"/sessions/{OLD_SID}").text
    assert f"Archived in memory/archive/{OLD_SID}" in page
    assert "Finished long ago" in page


def test_threads_page_shows_each_thread_and_its_state(site: Site) -> None:
    reply = site.client.get("/threads")
    assert reply.status == 200
    page = reply.text
    assert "memory/threads.md" in page
    assert "<td>thread-storage</td>" in page
    assert "<td>SQLite chosen; FTS5 next.</td>" in page
    assert "<li>Vacuum schedule?</li>" in page  # the thread's text rendered
    assert "Chose SQLite over Postgres — no server to run" in page


def test_events_are_a_timeline_newest_first_with_undated_apart(site: Site) -> None:
    page = site.client.get("/events").text
    coffee = page.index("我昨天買了一台咖啡機")  # said on 05-25, happened 05-24
    meeting = page.index("Met the design team on May 20.")
    sneakers = page.index("I bought white Adidas sneakers on 3/15.")
    undated = page.index("<h2>Undated</h2>")
    kyoto = page.index("I once visited Kyoto.")
    assert coffee < meeting < sneakers < undated < kyoto
    assert "2026-05-24" in page[:meeting] and "“昨天”" in page[:meeting]
    assert "white adidas sneakers" in page


def test_search_finds_a_daily_log_entry_and_opens_it_with_provenance(site: Site) -> None:
    reply = site.client.get("/search?q=quokka+benchmark&kind=daily")
    assert reply.status == 200
    page = reply.text
    assert '<option value="daily" selected>daily</option>' in page
    assert 'value="quokka benchmark"' in page
    first = page[page.index('<ol class="hits">') :]
    first = first[: first.index("</li>")]
    (chunk_id,) = _links(first, "/chunks/")
    assert re.fullmatch(r"[0-9a-f]{12}", chunk_id)
    assert "2026-05-25 · daily · memory/2026-05-25.md:" in first
    assert re.search(r"· \d+ tokens", first)
    assert "the quokka benchmark won." in first  # the snippet

    chunk = site.client.get(f"/chunks/{chunk_id}")
    assert chunk.status == 200
    view = chunk.text
    assert re.search(r"<dt>File</dt><dd>memory/2026-05-25\.md:\d+(-\d+)?</dd>", view)
    assert "<dt>Date</dt><dd>2026-05-25</dd>" in view
    assert "<dt>Kind</dt><dd>daily</dd>" in view
    assert "**Summary:** Compared databases; the quokka benchmark won." in view
    # the timeline around it: the hit itself marked, its neighbours linked
    assert '<tr class="current">' in view
    neighbours = _links(view[view.index("Around it in time") :], "/chunks/")
    assert neighbours and chunk_id not in neighbours
    assert site.client.get(f"/chunks/{neighbours[0]}").status == 200


def test_search_page_without_a_query_and_without_a_match(site: Site) -> None:
    empty = site.client.get("/search")
    assert empty.status == 200 and '<form action="/search"' in empty.text
    assert '<ol class="hits">' not in empty.text
    none = site.client.get("/search?q=xylophonequartet")
    assert none.status == 200
    assert "No memory matches “xylophonequartet”." in none.text


def test_the_viewer_never_changes_a_memory_file(site: Site) -> None:
    before = memory_files(site.root)
    for path in (
        "/",
        f"/sessions/{SID}",
        "/threads",
        "/events",
        "/search?q=SQLite",
        "/api/board",
        "/api/events",
        "/api/threads",
        f"/api/sessions/{SID}",
        "/api/search?q=SQLite",
        "/sessions/../x",
    ):
        site.client.get(path)
    assert memory_files(site.root) == before


def test_parallel_requests_are_all_answered(site: Site) -> None:
    """Pages run in the server's thread pool; the board lock and the index serve them all."""
    from concurrent.futures import ThreadPoolExecutor

    paths = ["/", f"/sessions/{SID}", "/threads", "/events", "/search?q=SQLite"] * 4
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(lambda p: site.client.get(p).status, paths))
    assert statuses == [200] * len(paths)
