"""Long lists in pages, the search form's filters, and board text shown as it was written."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from workmem.board import Board

from .conftest import BIG_BOARD_ROWS, BIG_LEDGER, Site, served
from .util import DOCS_SID, SID, big_session_id


def _ids(page: str) -> list[str]:
    return re.findall(r'<td><a href="/sessions/([^"]+)">', page)


# ---- paging --------------------------------------------------------------------------------


def test_a_large_board_is_served_a_page_at_a_time(big: Site) -> None:
    first = big.client.get("/")
    assert first.status == 200
    assert len(_ids(first.text)) == 100
    assert "10,000 sessions" in first.text and "1–100 of 10,000" in first.text
    assert len(first.body) < 100_000  # a page, not the whole 1.7 MB board
    assert 'rel="next" href="/?page=2"' in first.text and 'rel="prev"' not in first.text
    last = big.client.get("/?page=100")
    assert _ids(last.text)[-1] == big_session_id(0) and 'rel="next"' not in last.text
    wide = big.client.get("/?page=3&per_page=1000")
    rows = _ids(wide.text)
    assert len(rows) == 1000 and rows[0] == big_session_id(BIG_BOARD_ROWS - 2001)
    assert 'href="/?page=4&amp;per_page=1000"' in wide.text  # the page size is kept


def test_the_board_api_pages_too(big: Site) -> None:
    data = big.client.get("/api/board?page=2&per_page=250").json()
    assert (data["page"], data["pages"], data["per_page"], data["total"]) == (2, 40, 250, 10_000)
    names = [s["session_id"] for s in data["sessions"]]
    assert len(names) == 250 and names[0] == big_session_id(BIG_BOARD_ROWS - 251)
    assert data["sessions"][0]["topic"].endswith("主題")


def test_a_filtered_board_keeps_its_filter_across_pages(big: Site) -> None:
    page = big.client.get("/?status=active&page=2").text
    assert "Session board (active)" in page
    assert 'href="/?status=active&amp;page=3"' in page
    assert 'href="/?status=active&amp;page=1"' in page


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("page=0", 400, "page takes a number of the page"),
        ("page=-3", 400, "page takes a number of the page"),
        ("page=two", 400, "page takes a number of the page"),
        ("page=101", 404, "there is no page 101: the list has 100 page(s)"),
        ("per_page=0", 400, "per_page takes a number of rows"),
        ("per_page=1001", 400, "per_page takes a number of rows (1 to 1000), got 1001"),
        ("page=" + "9" * 5000, 400, "page takes a number of the page"),
    ],
)
def test_bad_page_requests_are_refused_with_the_reason(
    big: Site, query: str, status: int, message: str
) -> None:
    for base in ("/", "/api/board", "/events"):
        reply = big.client.get(f"{base}?{query}")
        if base == "/events" and "page=101" in query:
            assert reply.status == 404 and "the list has 25 page(s)" in reply.text
            continue
        assert reply.status == status, (base, query)
        assert html.escape(message) in reply.text or message in reply.text, reply.text[:300]
        assert "Traceback" not in reply.text


def test_the_ledger_is_served_a_page_at_a_time(big: Site) -> None:
    page = big.client.get("/events?page=25").text
    assert "2,401–2,500 of 2,500" in page and f"Event number {BIG_LEDGER - 1} 事件" in page
    data = big.client.get("/api/events?page=3&per_page=10").json()
    assert [e["id"] for e in data["events"]] == [f"evt-{n:05d}" for n in range(21, 31)]
    assert (data["page"], data["pages"], data["total"]) == (3, 250, BIG_LEDGER)


def test_a_page_can_hold_dated_and_undated_events(site: Site) -> None:
    """Dated events newest first, then undated: a page boundary may fall between them."""
    first = site.client.get("/api/events?per_page=2").json()
    assert [e["id"] for e in first["events"]] == ["evt-00003", "evt-00002"]
    assert first["undated"] == []
    second = site.client.get("/api/events?per_page=2&page=2").json()
    assert [e["id"] for e in second["events"]] == ["evt-00001"]
    assert [e["id"] for e in second["undated"]] == ["evt-00004"]
    shown = site.client.get("/events?per_page=2&page=2").text
    assert "<h2>Undated</h2>" in shown and "I once visited Kyoto." in shown
    assert "Met the design team" not in shown


def test_small_lists_show_no_pager(site: Site) -> None:
    for path in ("/", "/events"):
        assert 'class="pager"' not in site.client.get(path).text


# ---- the search form ---------------------------------------------------------------------


def test_the_search_form_has_every_filter_and_keeps_what_was_asked(site: Site) -> None:
    page = site.client.get(
        f"/search?q=purchase&kind=event&since=2026-05-01&until=2026-05-31&session={SID}&k=5"
    ).text
    assert 'name="since" value="2026-05-01"' in page and 'type="date"' in page
    assert 'name="until" value="2026-05-31"' in page
    assert f'name="session" value="{SID}"' in page
    assert '<option value="event" selected>event</option>' in page
    assert 'name="k" value="5"' in page


def test_search_filters_reach_the_core(site: Site) -> None:
    every = site.client.get("/api/search?q=purchase&kind=event").json()["hits"]
    assert {h["date"] for h in every} >= {"2026-03-15", "2026-05-24"}
    may = site.client.get("/api/search?q=purchase&kind=event&since=2026-05-01").json()["hits"]
    assert may and all(h["date"] >= "2026-05-01" for h in may)
    march = site.client.get("/api/search?q=purchase&until=2026-03-31").json()["hits"]
    assert march and all(h["date"] <= "2026-03-31" for h in march)
    mine = site.client.get(f"/api/search?q=IP&session={DOCS_SID}").json()["hits"]
    assert mine and {h["session_id"] for h in mine} == {DOCS_SID}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("since=2026-02-30", "since takes a date YYYY-MM-DD, got '2026-02-30'"),
        ("until=2026-13-01", "until takes a date YYYY-MM-DD, got '2026-13-01'"),
        ("since=last+week", "since takes a date YYYY-MM-DD, got 'last week'"),
        ("since=2026-05-02&until=2026-05-01", "--since 2026-05-02 is after --until 2026-05-01"),
        ("since=" + "1" * 3000, "since takes a date YYYY-MM-DD, got '1111"),
    ],
)
def test_a_bad_since_or_until_is_a_400(site: Site, query: str, message: str) -> None:
    page = site.client.get(f"/search?q=x&{query}")
    assert page.status == 400 and "<h1>Bad request</h1>" in page.text
    assert html.escape(message) in page.text
    assert len(page.body) < 20_000  # the value is not echoed whole
    api = site.client.get(f"/api/search?q=x&{query}")
    assert api.status == 400 and api.json()["kind"] == "UsageError"
    assert message in api.json()["error"]


def test_a_long_date_heavy_query_is_answered_and_says_it_was_cut(site: Site) -> None:
    """Over HTTP a query is at most what the server reads of a request line (~15 KB)."""
    dates = "on May 8, 2023 and last Tuesday 上週二 三天前 2024-03-15 quokka "
    query = (dates * 400)[:5000]
    reply = site.client.get("/search?q=" + quote(query))
    assert reply.status == 200
    assert "only its first 2,000 characters were searched" in reply.text
    assert site.client.get("/api/search?q=" + quote(query)).status == 200


def test_snippets_are_plain_words_on_the_page(site: Site) -> None:
    page = site.client.get("/search?q=quokka+benchmark&kind=daily").text
    hits = page[page.index('<ol class="hits">') :]
    assert "<p>Summary: Compared databases; the quokka benchmark won.</p>" in hits
    assert "**" not in hits and "&lt;!--" not in hits and "workmem:" not in hits


# ---- free text shown as written ------------------------------------------------------------


@pytest.fixture(scope="module")
def escaped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    sid: list[str] = []

    def build(root: Path) -> None:
        board = Board(root)
        sid.append(board.start().session_id)
        board.update(
            sid[0],
            topic="## Not a heading | with a pipe",
            summary="--- keeps <!-- this --> as text",
            keywords="# one, two",
        )
        (root / "memory" / "threads.md").write_text(
            "# Threads\n\n## thread-plan\n\nStatus: active\n\n### Current Position\n\n"
            "\\## Plan B <\\!-- chosen -->\n",
            encoding="utf-8",
        )

    with served(tmp_path_factory, build, "escaped") as shown:
        yield shown, sid[0]


def test_board_text_the_board_keeps_escaped_is_shown_as_written(
    escaped: tuple[Site, str],
) -> None:
    site, sid = escaped
    board_file = (site.root / "memory" / "index.md").read_text(encoding="utf-8")
    assert "\\## Not a heading" in board_file and "<\\!--" in board_file  # kept escaped
    session = site.client.get(f"/sessions/{sid}").text
    row_part = session[session.index("<dl>") : session.index("</dl>")]
    snapshot = session[session.index('<article class="doc">') :]
    # the snapshot rendered: what the board escaped reads as written, and stays text
    assert html.escape("## Not a heading | with a pipe") in snapshot
    assert "<h2>Not a heading" not in snapshot and "\\##" not in snapshot
    for page in (site.client.get("/").text, row_part):
        assert html.escape("## Not a heading | with a pipe") in page
        assert html.escape("--- keeps <!-- this --> as text") in page
        assert html.escape("# one, two") in page
        assert "\\##" not in page and "&lt;\\!--" not in page
    row = site.client.get("/api/board").json()["sessions"][0]
    assert row["topic"] == "## Not a heading | with a pipe"
    threads = site.client.get("/threads").text
    assert f"<td>{html.escape('## Plan B <!-- chosen -->')}</td>" in threads
