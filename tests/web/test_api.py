"""The JSON under /api/: the core objects' own dictionaries, wrapped in ``{"ok": true}``."""

from __future__ import annotations

from .conftest import Site
from .util import DOCS_SID, IDLE_SID, NOTES, SID


def test_board_as_json_in_the_board_order(site: Site) -> None:
    reply = site.client.get("/api/board")
    assert reply.status == 200 and reply.headers["content-type"] == "application/json"
    data = reply.json()
    assert data["ok"] is True
    sessions = data["sessions"]
    assert [s["session_id"] for s in sessions][-1] == IDLE_SID
    first = next(s for s in sessions if s["session_id"] == SID)
    assert first["summary"] == "登入限流：每個 IP 每分鐘五次"
    assert first["referenced_by"] == DOCS_SID
    assert set(first) == {
        "session_id",
        "agent_name",
        "topic",
        "summary",
        "keywords",
        "status",
        "referenced_by",
        "started_at",
        "updated_at",
    }
    idle = site.client.get("/api/board?status=idle").json()["sessions"]
    assert [s["session_id"] for s in idle] == [IDLE_SID]


def test_session_as_json_with_snapshot_and_notes(site: Site) -> None:
    data = site.client.get(f"/api/sessions/{SID}").json()
    assert data["ok"] is True and data["session_id"] == SID and data["archived"] is False
    assert data["row"]["status"] == "active"
    assert "- Limit by IP" in data["snapshot"]
    assert data["notes"] == NOTES
    assert data["snapshot_path"] == f"memory/sessions/{SID}.md"
    assert data["notes_path"] == f"memory/sessions/{SID}.notes.md"


def test_events_as_json_newest_first(site: Site) -> None:
    data = site.client.get("/api/events").json()
    assert data["path"] == "memory/events.json"
    dated = [(e["id"], e["normalized_date"]) for e in data["events"]]
    assert dated == [
        ("evt-00003", "2026-05-24"),
        ("evt-00002", "2026-05-20"),
        ("evt-00001", "2026-03-15"),
    ]
    assert [e["id"] for e in data["undated"]] == ["evt-00004"]
    assert data["skipped"] == 0


def test_threads_as_json(site: Site) -> None:
    (thread,) = site.client.get("/api/threads").json()["threads"]
    assert thread["id"] == "thread-storage"
    assert thread["position"] == "SQLite chosen; FTS5 next."
    assert thread["open_questions"] == ["Vacuum schedule?"]
    assert thread["status"] == "active"


def test_search_and_chunk_as_json(site: Site) -> None:
    data = site.client.get("/api/search?q=quokka&k=3").json()
    assert data["ok"] is True and data["query"] == "quokka"
    top = data["hits"][0]
    assert (top["kind"], top["path"], top["date"]) == (
        "daily",
        "memory/2026-05-25.md",
        "2026-05-25",
    )
    assert "text" not in top and top["tokens"] > 0  # compact, as `workmem search --json`
    chunk = site.client.get(f"/api/chunks/{top['id']}").json()
    anchor = chunk["anchor"]
    assert anchor["id"] == top["id"] and "quokka benchmark won" in anchor["text"]
    assert anchor["line_start"] == top["line_start"]
    assert chunk["before"] or chunk["after"]
    only_events = site.client.get("/api/search?q=sneakers&kind=event").json()["hits"]
    assert only_events and {h["kind"] for h in only_events} == {"event"}


def test_api_errors_are_json_with_the_error_class(site: Site) -> None:
    bad = site.client.get("/api/sessions/..%2Fx")
    assert bad.status == 400
    assert bad.json() == {
        "ok": False,
        "error": bad.json()["error"],
        "kind": "UsageError",
    }
    assert "invalid session ID '../x'" in bad.json()["error"]
    missing = site.client.get("/api/sessions/2026-01-01-0000-nobody")
    assert missing.status == 404 and missing.json()["kind"] == "NotFoundError"
    no_query = site.client.get("/api/search")
    assert no_query.status == 400 and "q=" in no_query.json()["error"]
    assert site.client.get("/api/chunks/zz").json()["kind"] == "UsageError"
    nowhere = site.client.get("/api/nothing-here")
    assert nowhere.status == 404 and nowhere.json()["ok"] is False
