"""The viewer's long-term memory, daily log and timeline pages over a day of work the hooks
made (``journal_site``): what each shows, in what order, and how bad requests are told."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from .conftest import Journal
from .journal_site import COMPACTED_AT, MEMORY_NAME
from .util import memory_files


def test_long_term_memory_renders_memory_md_and_lists_the_typed_memories(
    journal: Journal,
) -> None:
    client = journal.site.client
    page = client.get("/memory").text
    assert "<h1>Long-term memory</h1>" in page
    doc = page[page.index('<article class="doc">') :]
    assert "<h2>Active</h2>" in doc and "<h3>Project</h3>" in doc  # MEMORY.md, rendered
    # its index line leads to the memory's own page
    assert f'<a href="/memory/{MEMORY_NAME}">rate limiter</a> — Token bucket per IP' in doc
    assert f'<a href="/memory/{MEMORY_NAME}">rate limiter</a></td><td>project</td>' in page
    api = client.get("/api/memory").json()
    assert api["path"] == "MEMORY.md" and "## Active" in api["text"]
    assert [m["file"] for m in api["memories"]] == [f"{MEMORY_NAME}.md"]


def test_a_typed_memory_shows_its_frontmatter_and_its_body_rendered(journal: Journal) -> None:
    client = journal.site.client
    page = client.get(f"/memory/{MEMORY_NAME}").text
    assert "<h1>rate limiter</h1>" in page
    assert "<dt>Type</dt><dd>project</dd>" in page and "<dt>Expires</dt><dd>2026-06-24</dd>" in page
    doc = page[page.index('<article class="doc">') :]
    assert "We use a <strong>token bucket</strong>" in doc
    assert "<td>burst</td><td>5</td>" in doc
    assert '<a href="https://www.rfc-editor.org/rfc/rfc6585" rel="noopener' in doc
    assert "[this](javascript:alert(1))" in doc and 'href="javascript' not in page
    api = client.get(f"/api/memory/{MEMORY_NAME}.md").json()
    assert api["frontmatter"]["type"] == "project" and "token bucket" in api["body"]


def test_daily_logs_list_newest_first_and_each_day_renders(journal: Journal) -> None:
    client = journal.site.client
    days = client.get("/days").text
    assert '<a href="/days/2026-05-25">2026-05-25</a></td><td>1</td>' in days
    day = client.get("/days/2026-05-25").text
    assert "<h1>Daily log 2026-05-25</h1>" in day
    doc = day[day.index('<article class="doc">') :]
    assert "<h3>Session Relay Auto-Save (09:40)</h3>" in doc
    assert "<h3>Session 1 · 10:15 · claude-code-main-agent</h3>" in doc
    assert "<blockquote><p>I was working in memory session" in doc  # the resumption note
    assert "workmem:session-end" not in day  # the entry's marker is bookkeeping
    api = client.get("/api/days").json()
    assert api["days"][0]["day"] == "2026-05-25" and api["days"][0]["sessions"] == 1


def test_the_timeline_tells_the_day_in_order(journal: Journal) -> None:
    first, second = journal.ids["first"], journal.ids["second"]
    compacted = datetime.fromisoformat(COMPACTED_AT.replace("Z", "+00:00")).astimezone()
    api = journal.site.client.get("/api/timeline").json()
    seen = [(a["when"], a["kind"], a["title"], a["session_id"]) for a in api["activity"]]
    assert seen == sorted(seen, key=lambda s: s[0], reverse=True)  # newest first
    expected = [
        ("2026-05-25 12:00", "archive", "the session", first),
        ("2026-05-25 11:05", "handoff", "snapshot written", None),
        ("2026-05-25 11:05", "compaction", "saved before it", second),
        ("2026-05-25 10:30", "start", "by claude-code-main-agent", second),
        ("2026-05-25 10:20", "handoff", "taken up by the next session", None),
        ("2026-05-25 10:15", "handoff", "snapshot written", None),
        ("2026-05-25 10:15", "end", "by claude-code-main-agent", first),
        (compacted.strftime("%Y-%m-%d %H:%M"), "compaction", "context compacted (auto)", first),
        ("2026-05-25 09:40", "save", "the handoff snapshot, in the daily log", None),
        ("2026-05-25 09:00", "start", "by claude-code-main-agent", first),
    ]
    for item in expected:
        assert item in seen, item
    # each thing happened once: the last save is not also counted as its daily-log entry
    assert len([s for s in seen if s[0] == "2026-05-25 11:05"]) == 2
    page = journal.site.client.get("/timeline").text
    assert '<h2><a href="/days/2026-05-25">2026-05-25</a></h2>' in page
    assert page.index("Archived") < page.index("Compaction") < page.index("Session started")
    assert f'<a href="/sessions/{first}">{first}</a>' in page  # archived: its page answers
    assert journal.site.client.get(f"/sessions/{first}").status == 200


def test_bad_names_and_days_are_told_plainly(journal: Journal) -> None:
    client = journal.site.client
    cases = {
        "/memory/../MEMORY": 400,
        "/memory/project_none": 404,
        "/memory/notes": 400,
        "/days/2026-02-30": 400,
        "/days/yesterday": 400,
        "/days/2026-05-24": 404,
        "/days/..%2F..%2Fetc": 400,
        "/api/days/2026-13-01": 400,
        "/api/memory/%3Cscript%3E": 400,
        "/timeline?page=9": 404,
    }
    for path, status in cases.items():
        reply = client.get(path)
        assert reply.status == status, (path, reply.status, reply.text[:300])
        if not path.startswith("/api/"):  # JSON carries the value as sent; a page escapes it
            assert "<script>" not in reply.text
    assert "is not a typed memory name" in client.get("/memory/notes").text
    assert "there is no daily log for 2026-05-24" in client.get("/days/2026-05-24").text


def test_the_new_pages_write_nothing(journal: Journal) -> None:
    root = journal.site.root
    before = memory_files(root)
    for path in ("/memory", f"/memory/{MEMORY_NAME}", "/days", "/days/2026-05-25", "/timeline"):
        assert journal.site.client.get(path).status == 200
        assert journal.site.client.get("/api" + path).status == 200
    assert memory_files(root) == before


def test_the_timeline_reads_whatever_the_files_hold(tmp_path: Path) -> None:
    """Hand-written logs, a damaged save record, a broken archive entry, a transcript that is
    gone: the timeline shows what it can read and never fails for the rest."""
    from workmem.activity import activity
    from workmem.root import Workspace

    root = tmp_path / "ws"
    memory = root / "memory"
    (memory / ".workmem").mkdir(parents=True)
    (memory / "2026-05-20.md").write_text(
        "# 20 May\n\n### 14:30 Pairing with Ana\nWe split the parser.\n\n"
        "### Notes without a time\n- one\n\n```\n### Session 9 · 10:00 · not-an-entry\n```\n",
        encoding="utf-8",
    )
    (memory / ".workmem" / "last-save.json").write_text("{not json", encoding="utf-8")
    (memory / ".workmem" / "platform-sessions.json").write_text(
        '{"claude-code:x": {"memory_session_id": "2026-05-20-1000-a-agent",'
        ' "transcript": "/nonexistent/x.jsonl"}}',
        encoding="utf-8",
    )
    broken = memory / "archive" / "2026-05-19-0900-b-agent"
    broken.mkdir(parents=True)
    (broken / "index.md").write_bytes(b"\xff\xfe not a table")
    found = [(a.when, a.kind, a.title) for a in activity(Workspace(root))]
    assert found == [
        ("2026-05-20 14:30", "log", "14:30 Pairing with Ana"),
        ("2026-05-20", "log", "Notes without a time"),
    ]
    assert not (memory / "index.md").exists()  # read only: nothing was made
