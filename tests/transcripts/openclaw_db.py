"""A small OpenClaw 2026.9 session database for the tests, built as OpenClaw lays it out.

The tables and columns workmem reads, as observed in the ``openclaw-agent.sqlite`` that
OpenClaw 2026.9.6 wrote in the end-to-end test (``tests/agents/test_openclaw.py``): session
rows in ``session_nodes`` and ``session_windows``, transcript entries in
``transcript_events`` as Pi-entry JSON, an entry of 1 KiB or more zstd-compressed (with its
UTF-8 size) when that saves at least a tenth, the database in WAL mode. Only what workmem
needs is declared; OpenClaw's own tables hold much more.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from backports.zstd import compress

DDL = """
CREATE TABLE schema_meta (
  meta_key TEXT NOT NULL PRIMARY KEY, role TEXT NOT NULL, schema_version INTEGER NOT NULL,
  agent_id TEXT, app_version TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE session_nodes (
  session_key TEXT NOT NULL PRIMARY KEY, current_session_id TEXT NOT NULL,
  entry_json TEXT NOT NULL, updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE session_windows (
  session_id TEXT NOT NULL PRIMARY KEY, session_key TEXT NOT NULL,
  previous_session_id TEXT, reason TEXT, created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL, transcript_updated_at INTEGER DEFAULT NULL,
  model_provider TEXT, model TEXT
) STRICT;
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT,
  created_at INTEGER NOT NULL, event_zstd BLOB, event_utf8_bytes INTEGER,
  navigation_json TEXT,
  PRIMARY KEY (session_id, seq),
  FOREIGN KEY (session_id) REFERENCES session_windows(session_id) ON DELETE CASCADE,
  CHECK ((event_json IS NOT NULL AND event_zstd IS NULL)
      OR (event_json IS NULL AND event_zstd IS NOT NULL AND event_utf8_bytes IS NOT NULL))
) STRICT;
"""
STAMP = 1796169907000
DATABASE = "openclaw-agent.sqlite"


def database_path(home: Path, agent: str = "main") -> Path:
    return home / ".openclaw" / "agents" / agent / "agent" / DATABASE


def make_store(path: Path, sessions: dict[str, list[dict[str, Any]]]) -> Path:
    """A database at ``path`` holding ``sessions`` (session id -> its entries in order)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.executescript(DDL)
        connection.execute(
            "INSERT INTO schema_meta VALUES ('primary', 'agent', 23, 'main', '2026.9.6', ?, ?)",
            (STAMP, STAMP),
        )
        for number, (session_id, entries) in enumerate(sessions.items()):
            key = f"agent:main:s{number}"
            connection.execute(
                "INSERT INTO session_nodes VALUES (?, ?, ?, ?)",
                (key, session_id, json.dumps({"sessionId": session_id}), STAMP),
            )
            connection.execute(
                "INSERT INTO session_windows (session_id, session_key, reason, created_at, "
                "updated_at, transcript_updated_at) VALUES (?, ?, 'initial', ?, ?, ?)",
                (session_id, key, STAMP, STAMP + number, STAMP + 1000 * number),
            )
            append(connection, session_id, entries)
        connection.commit()
    finally:
        connection.close()
    return path


def append(connection: sqlite3.Connection, session_id: str, entries: list[dict[str, Any]]) -> None:
    """Entries stored as OpenClaw stores them: compressed when long and compressible."""
    row = connection.execute(
        "SELECT coalesce(max(seq) + 1, 0) FROM transcript_events WHERE session_id = ?",
        (session_id,),
    ).fetchone()
    for seq, entry in enumerate(entries, start=int(row[0])):
        text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        raw = text.encode()
        packed = compress(raw) if len(raw) >= 1024 and entry.get("type") != "session" else None
        if packed is not None and len(packed) <= len(raw) - max(64, len(raw) // 10):
            values: tuple[Any, ...] = (None, packed, len(raw), '{"version":1}')
        else:
            values = (text, None, len(raw), None)
        connection.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, created_at, "
            "event_zstd, event_utf8_bytes, navigation_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (session_id, seq, values[0], STAMP + seq, values[1], values[2], values[3]),
        )


def header(session_id: str, cwd: Path | str) -> dict[str, Any]:
    return {
        "type": "session",
        "version": 4,
        "id": session_id,
        "timestamp": "2026-12-02T00:05:16.786Z",
        "cwd": str(cwd),
    }


def message(uid: str, parent: str | None, role: str, content: Any, **extra: Any) -> dict[str, Any]:
    return {
        "type": "message",
        "id": uid,
        "parentId": parent,
        "timestamp": "2026-12-02T00:05:17.428Z",
        "message": {"role": role, "content": content, **extra},
    }


def conversation(
    session_id: str, cwd: Path | str, prompt: str = "Write a rate limiter"
) -> list[dict[str, Any]]:
    """A session as the e2e test's: a request, a write tool call and its result, an answer."""
    usage = {"input": 1200, "output": 40, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 1240}
    return [
        header(session_id, cwd),
        {
            "type": "model_change",
            "provider": "fake",
            "modelId": "fake-model",
            "id": "m0",
            "parentId": None,
            "timestamp": "2026-12-02T00:05:16.816Z",
        },
        message("u1", "m0", "user", prompt),
        message(
            "a1",
            "u1",
            "assistant",
            [
                {
                    "type": "toolCall",
                    "id": "call_1",
                    "name": "write",
                    "arguments": {"path": "ratelimit.py", "content": "class TokenBucket: ..."},
                }
            ],
            model="fake-model",
            usage=usage,
        ),
        message(
            "t1",
            "a1",
            "toolResult",
            [{"type": "text", "text": "Wrote ratelimit.py"}],
            toolCallId="call_1",
            toolName="write",
            isError=False,
        ),
        message(
            "a2",
            "t1",
            "assistant",
            [{"type": "text", "text": "I wrote ratelimit.py."}],
            model="fake-model",
            usage=usage,
        ),
    ]
