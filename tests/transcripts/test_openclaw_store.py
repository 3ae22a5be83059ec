"""OpenClaw 2026.9's SQLite session store: read as the JSONL transcripts are, and never
written; each way a database can be wrong gives a clear error that names it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path

import pytest

from workmem.errors import FormatError, NotFoundError
from workmem.transcripts import openclaw_paths as paths
from workmem.transcripts import openclaw_store as store
from workmem.transcripts.discover import current_transcript, find_transcripts, resolve_transcript
from workmem.transcripts.jsonl import parse_lines
from workmem.transcripts.openclaw import parse
from workmem.transcripts.read import read_transcript

from .openclaw_db import append, conversation, database_path, header, make_store, message

SID = "7b5b42d9-d680-4c8e-b267-aa9c25219368"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


@pytest.fixture
def database(tmp_path: Path, workspace: Path) -> Path:
    long_prompt = "Write a token-bucket rate limiter\n" + "\n".join(
        f"- rule {n}: refill at a steady rate, never above capacity" for n in range(40)
    )
    return make_store(
        database_path(tmp_path / "home"), {SID: conversation(SID, workspace, long_prompt)}
    )


def test_reads_a_session_as_the_jsonl_reader_would(database: Path, workspace: Path) -> None:
    raw = sqlite3.connect(database).execute(
        "SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL"
    )
    assert raw.fetchone()[0] == 1, "the long request should be stored compressed"
    before = _digest(database)
    transcript = read_transcript(paths.session_path(database, SID))
    assert transcript.platform == "openclaw" and transcript.session_id == SID
    assert transcript.cwd == str(workspace) and transcript.model == "fake-model"
    requests = transcript.user_requests()
    assert len(requests) == 1 and "rule 39: refill" in requests[0]  # the decompressed entry
    calls = [c for m in transcript.messages for c in m.tool_calls]
    assert [(c.name, c.input["path"]) for c in calls] == [("write", "ratelimit.py")]
    results = [r for m in transcript.messages for r in m.tool_results]
    assert results[0].name == "write" and results[0].output == "Wrote ratelimit.py"
    assert transcript.messages[-1].usage is not None
    assert transcript.skipped_lines == transcript.unknown_records == 0
    assert transcript.bytes_read > 0 and transcript.skipped_bytes == 0
    assert _digest(database) == before, "reading changed the database"


def test_the_real_openclaw_fixture_reads_the_same_from_sqlite(
    fixtures: Path, tmp_path: Path
) -> None:
    """The recorded OpenClaw session, put into a store entry by entry: the same model."""
    source = fixtures / "openclaw" / "agentsessions-openclaw-small.jsonl"
    records = parse_lines(source.read_bytes())
    from_jsonl = parse(records, source)
    database = make_store(tmp_path / "openclaw-agent.sqlite", {"real-1": records.items})
    from_store = read_transcript(paths.session_path(database, "real-1"))
    assert [(m.role, m.text, m.kind) for m in from_store.messages] == [
        (m.role, m.text, m.kind) for m in from_jsonl.messages
    ]
    assert from_store.cwd == from_jsonl.cwd and from_store.model == from_jsonl.model
    assert len(from_store.compactions) == len(from_jsonl.compactions)
    assert from_store.unknown_records == from_jsonl.unknown_records


def test_a_reset_starts_a_new_conversation_in_the_same_session(
    tmp_path: Path, workspace: Path
) -> None:
    """2026.9's /new keeps the session id and writes a reset entry after the hook ran: the
    conversation before it was saved then, and is not the next one's."""
    entries = conversation(SID, workspace)
    entries.append({"type": "reset", "id": "r1", "parentId": "a2", "reason": "new"})
    entries.append(message("u2", "r1", "user", "A new task: the docs"))
    database = make_store(tmp_path / "openclaw-agent.sqlite", {SID: entries})
    transcript = read_transcript(paths.session_path(database, SID))
    assert transcript.user_requests() == ["A new task: the docs"]
    assert not any(m.tool_calls for m in transcript.messages)
    assert transcript.unknown_records == 0 and transcript.dropped_records == 4


def test_a_reset_with_nothing_after_it_leaves_the_conversation_it_ended_readable(
    tmp_path: Path, workspace: Path
) -> None:
    """The save at /new runs in the background and can read the database after OpenClaw
    wrote the reset: it must still find the conversation that /new ended, not nothing."""
    entries = conversation(SID, workspace, "Write a token-bucket rate limiter")
    entries.append({"type": "reset", "id": "r1", "parentId": "a2", "reason": "new"})
    database = make_store(tmp_path / "openclaw-agent.sqlite", {SID: entries})
    transcript = read_transcript(paths.session_path(database, SID))
    assert transcript.user_requests() == ["Write a token-bucket rate limiter"]
    assert any(m.tool_calls for m in transcript.messages)
    # A second /new straight after the first: still the last conversation with words in it.
    connection = sqlite3.connect(database)
    append(connection, SID, [{"type": "reset", "id": "r2", "parentId": "r1", "reason": "new"}])
    connection.commit()
    connection.close()
    again = read_transcript(paths.session_path(database, SID))
    assert again.user_requests() == ["Write a token-bucket rate limiter"]


def test_a_leaf_entry_moves_the_live_end_back(tmp_path: Path, workspace: Path) -> None:
    entries = conversation(SID, workspace)
    entries.append({"type": "leaf", "id": "l1", "parentId": "a2", "targetId": "u1"})
    database = make_store(tmp_path / "openclaw-agent.sqlite", {SID: entries})
    transcript = read_transcript(paths.session_path(database, SID))
    assert [m.role for m in transcript.messages] == ["user"]
    assert transcript.dropped_records == 3


def _long_session(database: Path, workspace: Path, reset_at: int | None = None) -> Path:
    """600 entries after a first request, a plan set at the 300th, maybe a reset."""
    entries = conversation(SID, workspace, "First request")
    parent = "a2"
    for n in range(600):
        uid = f"x{n}"
        if n == 300:
            plan = [{"type": "toolCall", "id": "p1", "name": "update_plan", "arguments": {
                "plan": [{"step": "Write the limiter", "status": "in_progress"}]}}]  # fmt: skip
            entries.append(message(uid, parent, "assistant", plan))
        elif n == reset_at:
            entries.append({"type": "reset", "id": uid, "parentId": parent, "reason": "new"})
        else:
            text = f"Working on part {n} of the limiter; " + "details " * 30
            entries.append(message(uid, parent, "user" if n % 2 else "assistant", text))
        parent = uid
    entries.append(message("last", parent, "user", "The last request"))
    make_store(database, {SID: entries})
    return paths.session_path(database, SID)


def test_a_long_session_is_read_in_a_bounded_window(
    tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Head, the plan of the middle, and the tail: never every entry."""
    monkeypatch.setattr(store, "HEAD_BYTES", 4096)
    path = _long_session(tmp_path / "openclaw-agent.sqlite", workspace)
    whole = read_transcript(path)
    window = read_transcript(path, max_bytes=16 * 1024)
    assert whole.skipped_bytes == 0 and window.skipped_bytes > 0
    assert window.bytes_read < whole.bytes_read / 4
    assert window.bytes_read + window.skipped_bytes == whole.bytes_read
    requests = window.user_requests()
    assert requests[0] == "First request" and requests[-1] == "The last request"
    assert [item.text for item in window.plan] == ["Write the limiter"]
    assert len(window.messages) < len(whole.messages) / 4


def test_a_reset_in_the_skipped_middle_still_ends_the_earlier_conversation(
    tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "HEAD_BYTES", 4096)
    path = _long_session(tmp_path / "openclaw-agent.sqlite", workspace, reset_at=450)
    window = read_transcript(path, max_bytes=16 * 1024)
    assert window.skipped_bytes > 0
    assert "First request" not in window.user_requests() and window.plan == []
    assert window.user_requests()[-1] == "The last request"
    assert read_transcript(path).user_requests()[0] == "Working on part 451 of the limiter; " + (
        "details " * 30
    )


def test_one_session_is_listed_by_its_id_with_the_same_figures(
    tmp_path: Path, workspace: Path
) -> None:
    database = make_store(
        tmp_path / "openclaw-agent.sqlite",
        {SID: conversation(SID, workspace), "other-1": conversation("other-1", tmp_path)},
    )
    every = {s.session_id: s for s in store.list_sessions(database)}
    assert set(every) == {SID, "other-1"}
    assert store.list_sessions(database, SID) == [every[SID]]
    assert store.list_sessions(database, "missing-1") == []
    assert store.list_sessions(database, "x' OR '1'='1") == []  # a parameter, never SQL


def test_discovery_finds_store_sessions_of_this_workspace_only(
    tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    elsewhere = tmp_path / "other-project"
    make_store(
        database_path(home),
        {SID: conversation(SID, workspace), "other-1": conversation("other-1", elsewhere)},
    )
    refs = find_transcripts(workspace, "openclaw", home)
    assert [(r.platform, r.session_id) for r in refs] == [("openclaw", SID)]
    assert refs[0].path == paths.session_path(database_path(home), SID)
    assert refs[0].size > 0 and refs[0].modified > 1.7e9
    assert resolve_transcript(SID[:8], workspace, "openclaw", home) == refs[0].path
    assert find_transcripts(workspace, None, home)[0].path == refs[0].path
    # $WORKMEM_TRANSCRIPT may name a store session as it names a file
    monkeypatch.setenv("WORKMEM_TRANSCRIPT", str(refs[0].path))
    named = current_transcript(workspace, None, home)
    assert named is not None and (named.platform, named.path) == ("openclaw", refs[0].path)
    monkeypatch.setenv("WORKMEM_TRANSCRIPT", str(paths.session_path(tmp_path / "no.sqlite", SID)))
    with pytest.raises(NotFoundError):
        current_transcript(workspace, None, home)
    # a database discovery cannot read is passed over, not an error
    database_path(home, "broken").parent.mkdir(parents=True)
    database_path(home, "broken").write_bytes(b"not a database at all" * 100)
    assert [r.session_id for r in find_transcripts(workspace, "openclaw", home)] == [SID]


def test_reading_while_the_gateway_writes(database: Path, workspace: Path) -> None:
    """WAL: a write transaction held open by another connection does not block the read,
    which sees the entries committed before it."""
    writer = sqlite3.connect(database, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        append(writer, SID, [message("u9", "a2", "user", "not committed yet")])
        transcript = read_transcript(paths.session_path(database, SID))
        assert "not committed yet" not in transcript.user_requests()
        writer.execute("COMMIT")
    finally:
        writer.close()
    assert read_transcript(paths.session_path(database, SID)).user_requests()[-1] == (
        "not committed yet"
    )


def test_a_locked_database_is_a_clear_error_after_the_busy_timeout(
    tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "BUSY_TIMEOUT_SECONDS", 0.2)
    path = make_store(tmp_path / "openclaw-agent.sqlite", {SID: conversation(SID, workspace)})
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode = DELETE")  # no WAL: a writer locks readers out
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(FormatError, match="locked by OpenClaw") as caught:
            read_transcript(paths.session_path(path, SID))
        assert str(path) in str(caught.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_missing_corrupt_and_foreign_databases(tmp_path: Path) -> None:
    missing = tmp_path / "gone" / "openclaw-agent.sqlite"
    missing.parent.mkdir()
    with pytest.raises(NotFoundError, match="not found"):
        store.list_sessions(missing)
    corrupt = tmp_path / "corrupt" / "openclaw-agent.sqlite"
    corrupt.parent.mkdir()
    corrupt.write_bytes(b"\x00garbage" * 1000)
    with pytest.raises(FormatError, match="not a readable SQLite database") as caught:
        store.list_sessions(corrupt)
    assert str(corrupt) in str(caught.value)
    foreign = tmp_path / "foreign" / "openclaw-agent.sqlite"
    foreign.parent.mkdir()
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE transcript_events (session_id TEXT, body TEXT)")
    before = _digest(foreign)
    with pytest.raises(FormatError, match=r"lacks transcript_events\.seq") as caught:
        read_transcript(paths.session_path(foreign, SID))
    assert str(foreign) in str(caught.value) and "nothing was read" in str(caught.value)
    assert _digest(foreign) == before
    folder = tmp_path / "folder.sqlite"
    folder.mkdir()
    with pytest.raises(FormatError, match="not a file"):
        store.list_sessions(folder)


def test_unknown_and_archived_sessions(database: Path) -> None:
    with pytest.raises(NotFoundError, match="no OpenClaw session nope-1"):
        read_transcript(paths.session_path(database, "nope-1"))
    with sqlite3.connect(database) as connection:
        connection.execute("DELETE FROM transcript_events WHERE session_id = ?", (SID,))
    with pytest.raises(NotFoundError, match="archived it at a reset or deletion"):
        read_transcript(paths.session_path(database, SID))
    assert store.list_sessions(database) == []


def test_a_symlinked_database_is_not_followed(tmp_path: Path, database: Path) -> None:
    link = tmp_path / "linked" / "openclaw-agent.sqlite"
    link.parent.mkdir()
    link.symlink_to(database)
    with pytest.raises(FormatError, match="symbolic link") as caught:
        read_transcript(paths.session_path(link, SID))
    assert str(link) in str(caught.value)


def test_bad_compressed_entries_are_counted_and_the_rest_read(database: Path) -> None:
    with sqlite3.connect(database) as connection:
        connection.execute(
            "UPDATE transcript_events SET event_zstd = ? WHERE event_zstd IS NOT NULL",
            (b"\x28\xb5\x2f\xfd not really zstd",),
        )
    transcript = read_transcript(paths.session_path(database, SID))
    assert transcript.skipped_lines == 1 and transcript.user_requests() == []
    assert transcript.messages[-1].text == "I wrote ratelimit.py."
    with sqlite3.connect(database) as connection:  # a frame that claims more than it holds
        from backports.zstd import compress

        connection.execute(
            "UPDATE transcript_events SET event_zstd = ?, event_utf8_bytes = 5000 "
            "WHERE event_zstd IS NOT NULL",
            (compress(json.dumps({"type": "message"}).encode()),),
        )
    assert read_transcript(paths.session_path(database, SID)).skipped_lines == 1


def test_session_paths_never_name_another_folder(tmp_path: Path) -> None:
    db = tmp_path / "openclaw-agent.sqlite"
    assert paths.split_session_path(db / SID) == (db, SID)
    for hostile in ("..", "../x", ".hidden", "a:b", "", "x" * 300):
        assert paths.split_session_path(db / hostile) is None if hostile else True
        assert not paths.valid_id(hostile)
    assert paths.split_session_path(tmp_path / "sessions" / SID) is None
    assert paths.database_for("../../etc") is None and paths.database_for("a/b") is None
    assert paths.session_from_marker(
        f"sqlite:main:{SID}:/s/agents/main/sessions/sessions.json"
    ) == (Path("/s/agents/main/agent/openclaw-agent.sqlite") / SID)
    assert paths.session_from_marker("sqlite:main:../x:/s/sessions.json") is None
    assert paths.database_from_store_path("/etc/passwd") is None


def test_concurrent_reads_share_the_database(database: Path) -> None:
    """Hooks of several agents read at once: read-only connections do not trip each other."""
    errors: list[BaseException] = []

    def read() -> None:
        try:
            for _ in range(20):
                read_transcript(paths.session_path(database, SID))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors


def test_header_only_session_reads_empty(tmp_path: Path, workspace: Path) -> None:
    database = make_store(tmp_path / "openclaw-agent.sqlite", {SID: [header(SID, workspace)]})
    transcript = read_transcript(paths.session_path(database, SID))
    assert transcript.messages == [] and transcript.cwd == str(workspace)
