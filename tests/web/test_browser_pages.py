"""The viewer's rendered documents, long-term memory, daily logs and timeline in a real
headless Chromium: what a person sees and clicks, nothing of a file running or becoming
markup, and a screenshot of each page (``WORKMEM_SCREENSHOTS=DIR`` keeps them)."""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from .browser import Browser, Tab
from .conftest import Journal, Site, served
from .journal_site import MEMORY_NAME
from .test_browser import _assert_inert, _open
from .util import ATTACKS, SID, build_hostile_site

SCREENSHOTS = "WORKMEM_SCREENSHOTS"


@pytest.fixture
def tab(browser: Browser) -> Tab:
    return browser.tab()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    sid: list[str] = []
    with served(tmp_path_factory, lambda root: sid.append(build_hostile_site(root)), "bad") as s:
        yield s, sid[0]


def test_a_session_opens_with_done_and_next_and_its_documents_rendered(
    tab: Tab, site: Site
) -> None:
    _open(tab, site, f"/sessions/{SID}")
    # the first thing under the title: what was done and what is next
    first = tab.evaluate("document.querySelector('main h1').nextElementSibling.className")
    assert first == "digest"
    assert tab.text("section.digest .done ul") == "Write the API docs"
    assert tab.text("section.digest .next ul") == "寫中介軟體"
    background = tab.evaluate("getComputedStyle(document.querySelector('.digest')).background")
    assert "rgb(246, 248, 250)" in background  # the stylesheet applies to it (the CSP lets it)
    # the snapshot, rendered on the server: real headings, list items, the metadata table
    headings = tab.evaluate(
        "[...document.querySelectorAll('article.doc h2')].map(h => h.innerText)"
    )
    assert {"Metadata", "Decisions", "Next Actions"} <= set(headings)
    items = tab.evaluate("[...document.querySelectorAll('article.doc li')].map(l => l.innerText)")
    assert "Limit by IP" in items and "[done] Write the API docs" in items
    assert tab.count("article.doc table td") >= 12
    assert tab.count("script") == 0


def test_memory_daily_logs_and_the_timeline_by_clicking(tab: Tab, journal: Journal) -> None:
    site, first = journal.site, journal.ids["first"]
    _open(tab, site, "/")
    tab.click("header a[href='/memory']")
    assert tab.text("h1") == "Long-term memory"
    assert "Project" in tab.evaluate(
        "[...document.querySelectorAll('article.doc h3')].map(h => h.innerText).join(' ')"
    )
    tab.click(f"article.doc a[href='/memory/{MEMORY_NAME}']")  # MEMORY.md's index line
    assert tab.text("h1") == "rate limiter"
    assert tab.text("article.doc strong") == "token bucket"
    assert tab.text("article.doc table tbody") == "burst\t5"
    tab.click("header a[href='/timeline']")
    assert tab.text("h1") == "Timeline"
    kinds = tab.evaluate("[...document.querySelectorAll('ol.feed .kind')].map(k => k.innerText)")
    assert {"Session started", "Session ended", "Compaction", "Handoff", "Archived"} <= set(kinds)
    feed = tab.text("ol.feed")
    assert feed.index("Archived") < feed.index("Compaction") < feed.rindex("Session started")
    tab.click(f'ol.feed a[href="/sessions/{first}"]')
    assert tab.text("h1") == first and "Archived in" in tab.text("main")
    tab.click("header a[href='/timeline']")
    tab.click('section.day h2 a[href="/days/2026-05-25"]')
    assert tab.text("h1") == "Daily log 2026-05-25"
    assert tab.count("article.doc blockquote") >= 1  # the resumption note
    assert "workmem:session-end" not in tab.text()
    tab.click("main nav.pager a[href='/days']")
    assert tab.text("h1") == "Daily logs" and "2026-05-25" in tab.text("main table")


def test_memory_files_full_of_markup_stay_text_on_the_new_pages(
    tab: Tab, hostile: tuple[Site, str]
) -> None:
    site, sid = hostile
    shown = {}
    for path in (
        f"/sessions/{sid}",
        "/memory",
        "/memory/project_hostile",
        "/days",
        "/days/2026-05-24",
        "/timeline",
    ):
        shown[path] = _assert_inert(tab, site, path)
    for label, payload in ATTACKS.items():
        for path in ("/memory", "/memory/project_hostile", "/days/2026-05-24"):
            assert payload in shown[path], (label, path)
    # the markdown link to a javascript: address is shown as its text, not as a link
    assert "[open me too](javascript:pwned('md-link'))" in shown["/memory"]


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_screenshots_of_the_pages(
    browser: Browser, site: Site, journal: Journal, tmp_path: Path
) -> None:
    folder = Path(os.environ.get(SCREENSHOTS) or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    tab = browser.tab(width=1280, height=900)
    pages = {
        "board": (site, "/"),
        "session": (site, f"/sessions/{SID}"),
        "timeline": (journal.site, "/timeline"),
        "memory": (journal.site, "/memory"),
        "typed-memory": (journal.site, f"/memory/{MEMORY_NAME}"),
        "daily-logs": (journal.site, "/days"),
        "daily-log": (journal.site, "/days/2026-05-25"),
    }
    for name, (where, path) in pages.items():
        _open(tab, where, path)
        shot = folder / f"{name}.png"
        tab.screenshot(shot)
        assert _png_size(shot) == (1280, 900), name
        assert shot.stat().st_size > 20_000, f"{name}: an empty-looking page"
