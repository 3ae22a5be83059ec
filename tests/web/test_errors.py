"""Bad requests and broken files: a clear page with a fitting status, and the server stays up."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from pathlib import Path

import pytest

from workmem.root import Workspace

from .conftest import Site
from .util import SID, Client, running

BOARD_HEADER = (
    "| Session ID | Agent Name | Topic | Summary | Keywords | Status | Referenced By "
    "| Started At | Updated At |\n|---|---|---|---|---|---|---|---|---|\n"
)
GOOD_ROW = (
    f"| {SID} | cursor-main-agent | Repaired | Fixed by hand | - | active | - "
    "| 2026-05-25 13:18 | 2026-05-25 13:18 |\n"
)


def _raw_get(client: Client, path: str) -> tuple[int, str]:
    """GET a path exactly as written (no client-side normalisation of ``..``)."""
    host, port = client.base.removeprefix("http://").split(":")
    con = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        con.request("GET", path)
        response = con.getresponse()
        return response.status, response.read().decode("utf-8")
    finally:
        con.close()


def test_unknown_session_is_a_404_page(site: Site) -> None:
    reply = site.client.get("/sessions/2026-01-01-0000-nobody-agent")
    assert reply.status == 404
    assert reply.headers["content-type"] == "text/html; charset=utf-8"
    assert "<h1>Not found</h1>" in reply.text
    assert "session 2026-01-01-0000-nobody-agent is neither on the board nor archived" in reply.text
    assert "Traceback" not in reply.text


@pytest.mark.parametrize(
    "path",
    [
        "/sessions/../x",
        "/sessions/..%2F..%2Fetc%2Fpasswd",
        "/sessions/..",
        "/sessions/x/../../index",
        "/sessions/Bad%20ID",
    ],
)
def test_malformed_or_traversing_session_ids_are_refused(site: Site, path: str) -> None:
    status, page = _raw_get(site.client, path)
    assert status == 400, page
    assert "<h1>Bad request</h1>" in page and "invalid session ID" in page
    assert "Traceback" not in page


def test_malformed_and_unknown_chunk_ids(site: Site) -> None:
    status, page = _raw_get(site.client, "/chunks/../../memory/index.md")
    assert status == 400 and "invalid hit ID" in page
    assert site.client.get("/chunks/zz").status == 400
    unknown = site.client.get("/chunks/000000000000")
    assert unknown.status == 404 and "no memory chunk 000000000000" in unknown.text


def test_unknown_pages_bad_parameters_and_writes(site: Site) -> None:
    nowhere = site.client.get("/no/such/page")
    assert nowhere.status == 404 and "nothing is at /no/such/page" in nowhere.text
    bad_k = site.client.get("/search?q=x&k=many")
    assert bad_k.status == 400 and "k takes a number of hits" in bad_k.text
    too_many = site.client.get("/search?q=x&k=100000")
    assert too_many.status == 400
    bad_kind = site.client.get("/search?q=x&kind=gossip")
    assert bad_kind.status == 400 and "unknown kind(s) gossip" in bad_kind.text
    bad_status = site.client.get("/?status=sleeping")
    assert bad_status.status == 400 and "unknown status" in bad_status.text
    post = site.client.get("/", method="POST")
    assert post.status == 405 and "only reads" in post.text
    head = site.client.get("/", method="HEAD")
    assert head.status == 200 and head.body == b""


def test_a_foreign_host_name_is_refused_on_loopback(site: Site) -> None:
    """DNS rebinding: a page on evil.example resolving to 127.0.0.1 must not read memory."""
    refused = site.client.get("/api/board", headers={"Host": "evil.example:8765"})
    assert refused.status == 400
    assert b"session_id" not in refused.body
    for host in ("localhost:8765", "127.0.0.1"):
        assert site.client.get("/", headers={"Host": host}).status == 200


@pytest.fixture
def broken(root: Path) -> Iterator[tuple[Path, Client]]:
    """A workspace whose board and event ledger are damaged, served for one test."""
    memory = root / "memory"
    memory.mkdir()
    (memory / "index.md").write_text(
        "# Memory Index\n\n| Session | Who |\n|---|---|\n| a | b |\n", encoding="utf-8"
    )
    (memory / "events.json").write_text('{"events": [\n  {"id": "evt-00001",\n', encoding="utf-8")
    (memory / "threads.md").write_text(
        "# Threads\n\n## thread-x\n\nStatus: active\n", encoding="utf-8"
    )
    with running(Workspace(root)) as client:
        yield root, client


def test_broken_files_give_error_pages_and_the_server_stays_up(
    broken: tuple[Path, Client],
) -> None:
    root, client = broken
    board = client.get("/")
    assert board.status == 500
    assert "<h1>A memory file could not be read</h1>" in board.text
    assert "memory/index.md:3: table header is" in board.text
    assert "Traceback" not in board.text
    api = client.get("/api/board")
    assert api.status == 500 and api.json()["kind"] == "FormatError"
    assert client.get(f"/sessions/{SID}").status == 500
    events = client.get("/events")
    assert events.status == 500 and "memory/events.json" in events.text
    # still answering, and other pages still work
    threads = client.get("/threads")
    assert threads.status == 200 and "thread-x" in threads.text
    assert client.get("/").status == 500

    # Repaired by hand: the next request reads the files afresh.
    (root / "memory" / "index.md").write_text(
        "# Memory Index\n\n" + BOARD_HEADER + GOOD_ROW, encoding="utf-8"
    )
    fixed = client.get("/")
    assert fixed.status == 200 and "Fixed by hand" in fixed.text
    # A file that is not UTF-8 is reported with its path and line, not decoded wrongly.
    notes = root / "memory" / "sessions" / f"{SID}.notes.md"
    notes.parent.mkdir()
    notes.write_bytes(b"# Notes\n\xff\xfe broken\n")
    session = client.get(f"/sessions/{SID}")
    assert session.status == 500
    assert f"memory/sessions/{SID}.notes.md:2: not valid UTF-8" in session.text


def test_an_unexpected_error_is_a_page_not_a_traceback(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.web.reader import MemoryReader

    def explode(self: MemoryReader) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(MemoryReader, "threads", explode)
    reply = site.client.get("/threads")
    assert reply.status == 500
    assert "<h1>Internal error</h1>" in reply.text and "RuntimeError" in reply.text
    assert "secret internals" not in reply.text and "Traceback" not in reply.text
    monkeypatch.undo()
    assert site.client.get("/threads").status == 200
