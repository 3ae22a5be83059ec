"""Agent transcripts as an optional search source: indexed by reindex, redacted, removable."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.errors import FormatError
from workmem.retrieval.database import db_path
from workmem.retrieval.search import get, reindex, search
from workmem.retrieval.transcript_source import _pieces
from workmem.root import Workspace

from ..transcripts.util import ClaudeWriter, claude_project

SECRET = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "OPENCLAW_STATE_DIR", "WORKMEM_EMBEDDER"):
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.fixture
def ws(root: Path, home: Path) -> Workspace:
    (root / "workmem.toml").write_text("[search]\ntranscripts = true\n", encoding="utf-8")
    (root / "memory").mkdir()
    (root / "memory" / "2026-05-25.md").write_text(
        "# 2026-05-25\n\n### 09:00 Plan\n\nPort the exporter.\n", encoding="utf-8"
    )
    return Workspace(root)


def write_session(home: Path, ws: Workspace, *extra_user: str) -> Path:
    chat = ClaudeWriter(session="sess-flamingo", cwd=str(ws.root))
    chat.user(f"Why does the flamingo importer drop rows? my key is {SECRET}")
    chat.assistant(
        "The flamingo importer skips rows whose date column is empty.",
        tools=[chat.tool_use("Bash", "t1", command="grep -n date importer.py")],
    )
    chat.result("t1", "importer.py:12: if not row.date: continue  # pelicanword")
    for text in extra_user:
        chat.user(text)
    return chat.write(claude_project(home, ws.root) / "sess-flamingo.jsonl")


def test_transcripts_are_searchable_after_reindex_and_redacted(ws: Workspace, home: Path) -> None:
    assert search(ws, "exporter")  # the index exists before the session is written
    path = write_session(home, ws)
    assert search(ws, "flamingo importer") == []  # a query never reads transcripts
    report = reindex(ws)
    assert report.files_changed == 1
    hits = search(ws, "flamingo importer rows", k=5)
    assert {h.kind for h in hits} == {"transcript"}
    first = hits[0]
    assert first.path == str(path)
    assert first.session_id == "sess-flamingo"
    assert first.date == "2026-05-25"
    assert first.title in ("user (claude-code)", "assistant (claude-code)")
    assert get(ws, first.id).text == first.text
    # The secret never reaches the index, and tool output is not part of it.
    texts = " ".join(h.text for h in hits)
    assert SECRET not in texts and "[REDACTED" in texts
    assert SECRET.encode() not in db_path(ws).read_bytes()
    assert search(ws, "pelicanword") == []
    # Memory files are still found as before, beside the transcripts.
    assert [h.kind for h in search(ws, "exporter")] == ["daily"]


def test_kind_filter_and_a_later_message_after_the_next_reindex(ws: Workspace, home: Path) -> None:
    write_session(home, ws)
    reindex(ws)
    assert [h.kind for h in search(ws, "flamingo", kinds=["daily"])] == []
    write_session(home, ws, "Also the heron exporter times out")
    assert search(ws, "heron") == []  # until the next reindex
    search(ws, "flamingo")  # a query's refresh keeps the indexed transcript as it was
    assert search(ws, "flamingo", kinds=["transcript"])
    reindex(ws)
    found = search(ws, "heron")
    assert found[0].kind == "transcript" and "heron exporter" in found[0].text


def test_a_deleted_transcript_or_the_setting_turned_off_drops_them(
    ws: Workspace, home: Path
) -> None:
    path = write_session(home, ws)
    reindex(ws)
    path.unlink()
    assert search(ws, "flamingo")  # still there: only a reindex looks
    reindex(ws)
    assert search(ws, "flamingo") == []

    write_session(home, ws)
    reindex(ws, full=True)  # a rebuild reads them too
    assert search(ws, "flamingo")
    (ws.root / "workmem.toml").write_text("[search]\ntranscripts = false\n", encoding="utf-8")
    reindex(ws)
    assert search(ws, "flamingo") == []
    assert search(ws, "exporter")


def test_the_setting_must_be_a_boolean(ws: Workspace) -> None:
    (ws.root / "workmem.toml").write_text('[search]\ntranscripts = "yes"\n', encoding="utf-8")
    with pytest.raises(FormatError, match="transcripts and warm must be true or false"):
        search(ws, "anything")


def test_a_broken_transcript_line_does_not_stop_the_rest(ws: Workspace, home: Path) -> None:
    path = write_session(home, ws)
    with path.open("ab") as handle:
        handle.write(b'{"type": "user", "message": {"role": "user", "content": "cut off')
    reindex(ws)
    assert search(ws, "flamingo")


def test_long_messages_are_cut_at_paragraphs_without_losing_text() -> None:
    paragraphs = [f"paragraph {n} " + "word " * 60 for n in range(12)]
    text = "\n\n".join(paragraphs) + "\n\n" + "x" * 3500
    pieces = _pieces(text, limit=500)
    assert all(len(p) <= 500 for p in pieces)
    assert "".join("".join(pieces).split()) == "".join(text.split())
    assert pieces[0].startswith("paragraph 0 ")
    assert _pieces("   ") == []


def test_every_platforms_recorded_transcript_becomes_clean_chunks(fixtures: Path) -> None:
    from workmem.redact import redact
    from workmem.retrieval import kinds
    from workmem.retrieval.chunker import MAX_CHUNK_CHARS
    from workmem.retrieval.transcript_source import chunk_transcript
    from workmem.transcripts.read import read_transcript

    files = sorted(p for p in fixtures.rglob("*") if p.suffix in (".jsonl", ".json"))
    platforms = set()
    for path in files:
        where = str(path)
        chunks = chunk_transcript(kinds.MemoryFile(where, kinds.TRANSCRIPT, location=where))
        transcript = read_transcript(path)
        assert len(chunks) >= len(transcript.conversation), path.name
        for chunk in chunks:
            assert 0 < len(chunk.text) <= MAX_CHUNK_CHARS
            assert redact(chunk.text)[1] == 0, f"{path.name}: a secret left in a chunk"
            assert chunk.title.endswith(f"({transcript.platform})")
        if chunks:
            platforms.add(transcript.platform)
    assert platforms == {"claude-code", "codex", "cursor", "gemini", "openclaw"}


def test_transcripts_are_searched_by_their_words_never_embedded(ws: Workspace, home: Path) -> None:
    pytest.importorskip("numpy", reason="the dense extra (numpy) is not installed")
    import sqlite3

    (ws.root / "workmem.toml").write_text(
        '[search]\ntranscripts = true\nembedder = "hash:64"\n', encoding="utf-8"
    )
    write_session(home, ws)
    report = reindex(ws)
    assert report.vectors_added == 1  # the daily-log entry, not the two messages
    con = sqlite3.connect(db_path(ws))
    embedded = con.execute(
        "SELECT c.kind, count(*) FROM vectors v JOIN chunks c ON c.id = v.chunk GROUP BY c.kind"
    ).fetchall()
    con.close()
    assert embedded == [("daily", 1)]
    assert search(ws, "flamingo importer")[0].kind == "transcript"


def test_an_openclaw_session_in_its_database_is_indexed_and_refreshed_on_its_own_writes(
    ws: Workspace, home: Path
) -> None:
    """OpenClaw 2026.9 keeps sessions in SQLite: reindex and the session-end hook index them
    like files, and a write to another session of the same database changes nothing here."""
    import sqlite3

    from workmem.retrieval.search import index_transcript
    from workmem.transcripts.openclaw_paths import session_path

    from ..transcripts.openclaw_db import append, conversation, database_path, make_store, message

    assert search(ws, "exporter")  # the index exists before the sessions are written
    database = make_store(
        database_path(home),
        {
            "s-heron": conversation("s-heron", ws.root, f"Fix the heron exporter, key {SECRET}"),
            "s-other": conversation("s-other", home / "elsewhere", "Unrelated kingfisher work"),
        },
    )
    assert reindex(ws).files_changed == 1  # the session started in this folder only
    hits = search(ws, "heron exporter", k=5, kinds=["transcript"])
    assert hits and hits[0].path == str(session_path(database, "s-heron"))
    assert hits[0].session_id == "s-heron" and hits[0].title == "user (openclaw)"
    assert SECRET not in " ".join(h.text for h in hits)
    assert search(ws, "kingfisher", kinds=["transcript"]) == []

    # Another session's write moves the database's own time and size, not this session's.
    connection = sqlite3.connect(database)
    append(connection, "s-other", [message("u9", "a2", "user", "more kingfisher")])
    connection.commit()
    assert reindex(ws).files_changed == 0

    # The session-end hook indexes the session it names, new words included.
    append(connection, "s-heron", [message("u9", "a2", "user", "and the egret importer")])
    connection.execute(
        "UPDATE session_windows SET transcript_updated_at = transcript_updated_at + 5000 "
        "WHERE session_id = 's-heron'"
    )
    connection.commit()
    connection.close()
    assert index_transcript(ws, session_path(database, "s-heron")).files_changed == 1
    assert search(ws, "egret importer", kinds=["transcript"])


def test_an_unreadable_openclaw_database_is_passed_over(ws: Workspace, home: Path) -> None:
    from workmem.errors import NotFoundError
    from workmem.retrieval.search import index_transcript
    from workmem.transcripts.openclaw_paths import session_path

    from ..transcripts.openclaw_db import database_path

    database = database_path(home)
    database.parent.mkdir(parents=True)
    database.write_bytes(b"not a database at all" * 100)
    assert reindex(ws).problems == {}  # the memory files are indexed as ever
    assert [h.kind for h in search(ws, "exporter")] == ["daily"]
    with pytest.raises(NotFoundError, match="no transcript"):
        index_transcript(ws, session_path(database, "s-heron"))
