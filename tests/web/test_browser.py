"""The viewer in a real headless Chromium: what a person sees, clicks and types.

The HTTP tests check the markup the server sends; these check what a browser makes of it:
every page laid out with its data (Chinese painted with a CJK font), links and both search
forms leading where they say, the Content-Security-Policy enforced by the browser itself,
and nothing any memory file holds ever running as script. Skipped with the reason when no
browser is installed (``make browser``); ``.ci/run`` installs one and makes a skip a failure.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from .browser import Browser, Tab
from .conftest import BIG_BOARD_ROWS, Site, browser_missing, served
from .util import (
    ATTACKS,
    DOCS_SID,
    IDLE_SID,
    OLD_SID,
    SID,
    big_session_id,
    build_hostile_site,
)


@pytest.fixture
def tab(browser: Browser) -> Tab:
    return browser.tab()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    sid: list[str] = []
    with served(
        tmp_path_factory, lambda root: sid.append(build_hostile_site(root)), "hostile"
    ) as s:
        yield s, sid[0]


def _open(tab: Tab, site: Site, path: str) -> str:
    """Open ``path``; the page's visible text. Nothing may have been blocked by the CSP."""
    tab.forget_calls()
    tab.goto(site.client.base + path)
    tab.settle(0.1)
    assert tab.calls("cspViolation") == [], f"{path}: the CSP blocked part of the page"
    return tab.text()


def _hit_ids(site: Site, query: str, k: int = 10) -> list[str]:
    hits = site.client.get(f"/api/search?q={quote(query)}&k={k}").json()["hits"]
    return [str(h["id"]) for h in hits]


# ---- every page, with its data ---------------------------------------------------------------


def test_every_page_renders_with_its_data(tab: Tab, site: Site) -> None:
    (chunk,) = _hit_ids(site, "quokka", 1)
    expected = {
        "/": (
            "Session board",
            [SID, DOCS_SID, IDLE_SID, "登入限流：每個 IP 每分鐘五次", "Not set"],
        ),
        f"/sessions/{SID}": (
            SID,
            ["Running notes", "Rate limiting 限流 middleware", "寫中介軟體", "Write the API docs"],
        ),
        f"/sessions/{OLD_SID}": (OLD_SID, [f"Archived in memory/archive/{OLD_SID}"]),
        "/threads": (
            "Threads",
            ["thread-storage", "SQLite chosen; FTS5 next.", "Vacuum schedule?"],
        ),
        "/events": ("Events", ["我昨天買了一台咖啡機", "I once visited Kyoto.", "Undated"]),
        "/search": ("Search", ["Search every memory file"]),
        "/search?q=quokka": ("Search", ["Compared databases; the quokka benchmark won."]),
        f"/chunks/{chunk}": ("Session 1 · 13:18 · cursor-main-agent", ["Around it in time"]),
    }
    for path, (heading, texts) in expected.items():
        text = _open(tab, site, path)
        assert tab.status == 200, path
        assert tab.text("h1") == heading, path
        for wanted in texts:
            assert wanted in text, f"{path}: {wanted!r} not shown"
        # the inline stylesheet applies (the CSP allows it): the header has its colour
        background = tab.evaluate("getComputedStyle(document.querySelector('header')).background")
        assert "rgb(246, 248, 250)" in background, path
        assert "read-only view of" in tab.text("header")
    missing = _open(tab, site, "/sessions/2026-01-01-0000-nobody-agent")
    assert tab.status == 404 and tab.text("h1") == "Not found"
    assert "neither on the board nor archived" in missing


def test_chinese_is_painted_with_a_cjk_font(tab: Tab, site: Site) -> None:
    _open(tab, site, "/events")
    fonts = tab.fonts("main table tbody tr:first-child td:nth-child(3)")  # 我昨天買了一台咖啡機
    cjk = {family: glyphs for family, glyphs in fonts.items() if "CJK" in family}
    if not cjk:
        listed = (
            subprocess.run(
                ["fc-list", ":lang=zh", "family"], capture_output=True, text=True, check=False
            ).stdout.strip()
            if shutil.which("fc-list")
            else ""
        )
        if not listed:
            browser_missing("a Chinese font (fonts-noto-cjk)")
        pytest.fail(f"Chinese text was painted with {fonts}, not a CJK font: {listed[:200]}")
    assert sum(cjk.values()) >= len("我昨天買了一台咖啡機")


# ---- links and forms --------------------------------------------------------------------------


def test_links_lead_where_they_say(tab: Tab, site: Site) -> None:
    _open(tab, site, "/")
    tab.click(f'main a[href="/sessions/{SID}"]')
    assert tab.url.endswith(f"/sessions/{SID}") and tab.text("h1") == SID
    tab.click("header a[href='/']")
    # the Referenced By cell of SID's row links to the session continuing it
    row = f'//a[@href="/sessions/{SID}"]/ancestor::tr'
    assert DOCS_SID in tab.evaluate(f"document.evaluate('{row}', document).iterateNext().innerText")
    tab.click(f'main td:nth-child(7) a[href="/sessions/{DOCS_SID}"]')
    assert tab.text("h1") == DOCS_SID and "Continues From" in tab.text()
    tab.click("header a[href='/threads']")
    assert tab.text("h1") == "Threads"
    tab.click('main a[href="#t-1"]', navigates=False)
    assert urlsplit(tab.url).fragment == "t-1"
    tab.click("header a[href='/events']")
    assert tab.text("h1") == "Events"
    tab.click("header a.brand")
    assert tab.text("h1") == "Session board"
    # every link of every page leads to a page that answers
    seen: set[str] = set()
    for path in ("/", f"/sessions/{SID}", "/threads", "/events", "/search?q=SQLite"):
        _open(tab, site, path)
        hrefs = tab.evaluate("[...document.querySelectorAll('a[href]')].map(a => a.href)")
        for href in hrefs:
            parts = urlsplit(href)
            assert f"{parts.scheme}://{parts.netloc}" == site.client.base, href
            target = parts.path + (f"?{parts.query}" if parts.query else "")
            if target not in seen:
                seen.add(target)
                assert site.client.get(target).status == 200, f"{path} links to {target}"
    assert len(seen) > 12


def test_the_header_search_box(tab: Tab, site: Site) -> None:
    _open(tab, site, "/")
    tab.type_into("header input[name=q]", "quokka benchmark")
    tab.press_enter()
    assert parse_qs(urlsplit(tab.url).query) == {"q": ["quokka benchmark"]}
    hits = tab.text("ol.hits")
    # snippets are plain words: no markdown markup, no workmem marker
    assert "Summary: Compared databases; the quokka benchmark won." in hits
    assert "**" not in hits and "<!--" not in hits and "workmem:" not in hits
    tab.click("ol.hits li:first-child a")
    assert tab.text("h1") == "Session 1 · 13:18 · cursor-main-agent"
    assert "**Summary:** Compared databases" in tab.text("main pre")  # the file as it is


def _fill_search(tab: Tab, fields: dict[str, str]) -> None:
    """Type the query, set the other fields as a date picker or a list would, submit."""
    tab.type_into("form.search input[name=q]", fields.pop("q"))
    for name, value in fields.items():
        tab.evaluate(
            f"(() => {{ const f = document.querySelector('form.search [name={name}]');"
            f" f.value = {json.dumps(value)}; f.dispatchEvent(new Event('change')); }})()"
        )
    tab.click("form.search button[type=submit]")


def test_the_search_form_filters_by_kind_time_and_session(tab: Tab, site: Site) -> None:
    _open(tab, site, "/search")
    _fill_search(tab, {"q": "purchase", "kind": "event"})
    every = tab.text("ol.hits")
    assert "我昨天買了一台咖啡機" in every and "white Adidas sneakers" in every

    _fill_search(tab, {"q": "purchase", "since": "2026-05-01", "until": "2026-05-31"})
    asked = parse_qs(urlsplit(tab.url).query)
    assert asked["since"] == ["2026-05-01"] and asked["until"] == ["2026-05-31"]
    assert asked["kind"] == ["event"]  # the form keeps what was chosen before
    in_may = tab.text("ol.hits")
    assert "我昨天買了一台咖啡機" in in_may and "sneakers" not in in_may
    assert tab.evaluate("document.querySelector('form.search [name=since]').value") == "2026-05-01"

    _open(tab, site, "/search")
    _fill_search(tab, {"q": "限流", "session": SID})
    mine = tab.text("ol.hits")
    assert "登入限流" in mine and f"memory/sessions/{SID}.md" in mine
    _fill_search(tab, {"q": "限流", "session": DOCS_SID})
    theirs = tab.text("ol.hits")  # the continuing session quotes the same words
    assert f"memory/sessions/{DOCS_SID}.md" in theirs and f"{SID}.md" not in theirs
    api = site.client.get(f"/api/search?q={quote('限流')}&session={DOCS_SID}").json()["hits"]
    assert api and {hit["session_id"] for hit in api} == {DOCS_SID}

    # a date that does not exist is refused with the reason, not searched
    _open(tab, site, "/search")
    _fill_search(tab, {"q": "purchase", "since": "", "until": ""})
    tab.goto(site.client.base + "/search?q=purchase&since=2026-02-30")
    assert tab.status == 400 and tab.text("h1") == "Bad request"
    assert "since takes a date YYYY-MM-DD, got '2026-02-30'" in tab.text()


# ---- the CSP and hostile memory files -----------------------------------------------------------


def _inject(tab: Tab) -> None:
    """Put script into the shown page the way an injection would: an inline handler and an
    inline script element."""
    tab.evaluate(
        "document.body.insertAdjacentHTML('beforeend',"
        ' `<img src="missing.png" onerror="pwned(\'injected-handler\')">`);'
        "const s = document.createElement('script');"
        "s.textContent = \"pwned('injected-script')\"; document.body.append(s); true"
    )
    tab.settle(0.5)


def test_the_browser_enforces_the_csp(tab: Tab, site: Site) -> None:
    _open(tab, site, "/")
    tab.evaluate("pwned('control')")  # the detector works: a call that runs is seen
    tab.settle(0.1)
    assert tab.calls("pwned") == ["control"]
    tab.forget_calls()
    _inject(tab)
    assert tab.calls("pwned") == []
    blocked = " ".join(tab.calls("cspViolation"))
    assert "script-src-attr" in blocked and "script-src-elem" in blocked
    assert "img-src" in blocked  # default-src 'none': nothing is fetched from anywhere

    # the same injection with the policy switched off runs: the CSP is what stopped it
    tab.send("Page.setBypassCSP", {"enabled": True})
    _open(tab, site, "/")
    _inject(tab)
    assert sorted(tab.calls("pwned")) == ["injected-handler", "injected-script"]


_NOT_MARKUP = """(() => {
  const all = [...document.querySelectorAll('*')];
  return {
    elements: ['script', 'iframe', 'img', 'svg', 'base', 'object', 'embed', 'i[x]',
               'meta[http-equiv]'].filter(s => document.querySelector(s)).join(' '),
    styles: document.querySelectorAll('style').length,
    handlers: all.filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
    mains: document.querySelectorAll('main').length,
    hidden: getComputedStyle(document.querySelector('main')).display === 'none',
    links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  };
})()"""


def _assert_inert(tab: Tab, site: Site, path: str) -> str:
    text = _open(tab, site, path)
    tab.settle(0.3)
    assert tab.calls("pwned") == [], f"{path}: memory text ran as script"
    found = tab.evaluate(_NOT_MARKUP)
    assert found["elements"] == "", f"{path}: file text became markup: {found['elements']}"
    assert found["styles"] == 1 and found["handlers"] == 0 and found["mains"] == 1, path
    assert not found["hidden"], path
    for href in found["links"]:
        parts = urlsplit(href)
        assert f"{parts.scheme}://{parts.netloc}" == site.client.base, f"{path}: {href}"
        assert not parts.path.startswith("/hijacked/"), f"{path}: {href}"
    return text


def test_nothing_a_memory_file_holds_runs_as_script(tab: Tab, hostile: tuple[Site, str]) -> None:
    site, sid = hostile
    chunks = _hit_ids(site, "pwned", 40)
    assert len(chunks) >= 8  # board, snapshot, notes, daily logs, threads, events, …
    shown: dict[str, str] = {}
    for path in ("/", f"/sessions/{sid}", "/threads", "/events", "/search?q=pwned&k=40"):
        shown[path] = _assert_inert(tab, site, path)
    for chunk in chunks:
        _assert_inert(tab, site, f"/chunks/{chunk}")
    # shown as the text it is, every payload whole
    for label, payload in ATTACKS.items():
        assert payload in shown[f"/sessions/{sid}"], label
        assert payload in shown["/"], label
        assert payload in shown["/threads"], label
    assert "## Continues From" in shown[f"/sessions/{sid}"]  # as text, under Next Actions
    # the search snippets show the payloads as words too
    assert ATTACKS["script"] in shown["/search?q=pwned&k=40"]

    # what a request carries is shown back as text as well
    reflected = {
        "/search?q=" + quote(ATTACKS["script"]): 200,
        "/search?q=x&session=" + quote(ATTACKS["attribute"]): 200,
        "/search?q=x&since=" + quote(ATTACKS["script"]): 400,
        "/search?q=x&k=" + quote(ATTACKS["img"]): 400,
        "/sessions/" + quote(ATTACKS["script"], safe=""): 400,
        "/chunks/" + quote(ATTACKS["img"], safe=""): 400,
        "/nothing/" + quote(ATTACKS["svg"], safe=""): 404,
    }
    for path, status in reflected.items():
        _assert_inert(tab, site, path)
        assert tab.status == status, path


# ---- long lists in pages ------------------------------------------------------------------------


def _rows(tab: Tab) -> list[str]:
    return [
        str(r)
        for r in tab.evaluate(
            "[...document.querySelectorAll('main tbody tr td:first-child')].map(td => td.innerText)"
        )
    ]


def test_a_large_board_comes_in_pages(tab: Tab, big: Site) -> None:
    _open(tab, big, "/")
    first = _rows(tab)
    assert len(first) == 100
    assert first[0] == big_session_id(BIG_BOARD_ROWS - 1)  # newest first
    assert "1–100 of 10,000" in tab.text("nav.pager") and "page 1 of 100" in tab.text()
    assert tab.count('a[rel="prev"]') == 0
    tab.click('main nav.pager a[rel="next"]')
    assert parse_qs(urlsplit(tab.url).query) == {"page": ["2"]}
    second = _rows(tab)
    assert len(second) == 100 and not set(first) & set(second)
    assert second[0] == big_session_id(BIG_BOARD_ROWS - 101)
    tab.click('main nav.pager a[rel="prev"]')
    assert _rows(tab) == first
    _open(tab, big, "/?page=100")
    assert _rows(tab)[-1] == big_session_id(0) and tab.count('a[rel="next"]') == 0
    tab.goto(big.client.base + "/?page=101")
    assert tab.status == 404 and "there is no page 101" in tab.text()


def test_a_large_ledger_comes_in_pages(tab: Tab, big: Site) -> None:
    _open(tab, big, "/events")
    assert tab.count("main tbody tr") == 100
    assert "1–100 of 2,500" in tab.text("nav.pager")
    assert "Event number 0 事件" in tab.text("main tbody tr:first-child")
    tab.click('main nav.pager a[rel="next"]')
    assert "Event number 100 事件" in tab.text("main tbody tr:first-child")
    assert "101–200 of 2,500" in tab.text("nav.pager")
