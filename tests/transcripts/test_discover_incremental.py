"""Discovery under a fake home, incremental reading with offsets, usage and zones."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from workmem.errors import NotFoundError, UsageError
from workmem.files.store import Store
from workmem.relay.usage import context_usage, model_window
from workmem.relay.zones import zone_for
from workmem.root import Workspace
from workmem.transcripts import find_transcripts, read_transcript, resolve_transcript
from workmem.transcripts.incremental import TranscriptTail

from .util import ClaudeWriter, claude_project, write_jsonl


def populate(home: Path, ws: Path) -> dict[str, Path]:
    made: dict[str, Path] = {}
    w = ClaudeWriter(cwd=str(ws))
    w.user("hello")
    w.assistant("hi")
    project = claude_project(home, ws)
    made["claude"] = w.write(project / "0a1b2c3d-aaaa-bbbb-cccc-000000000001.jsonl")
    w.write(project / "agent-sidefile.jsonl")  # old-style subagent file: not a session
    other = ClaudeWriter(cwd="/elsewhere")
    other.user("not ours")
    other.write(claude_project(home, Path("/elsewhere")) / "x.jsonl")
    codex_dir = home / ".codex" / "sessions" / "2026" / "05" / "25"
    uid = "11111111-2222-4333-8444-555555555555"
    made["codex"] = write_jsonl(
        codex_dir / f"rollout-2026-05-25T10-00-00-{uid}.jsonl",
        [{"type": "session_meta", "payload": {"id": uid, "cwd": str(ws / "sub")}}],
    )
    write_jsonl(
        codex_dir / "rollout-2026-05-25T11-00-00-other.jsonl",
        [{"type": "session_meta", "payload": {"id": "other", "cwd": "/elsewhere"}}],
    )
    gemini_dir = home / ".gemini" / "tmp" / hashlib.sha256(str(ws).encode()).hexdigest() / "chats"
    gemini_dir.mkdir(parents=True)
    made["gemini"] = gemini_dir / "session-2026-05-25T10-00-g1.json"
    made["gemini"].write_text(json.dumps({"sessionId": "g1", "messages": []}))
    cursor_dir = (
        home
        / ".cursor"
        / "projects"
        / str(ws).strip("/").replace("/", "-")
        / "agent-transcripts"
        / "cur-1"
    )
    made["cursor"] = write_jsonl(
        cursor_dir / "cur-1.jsonl", [{"role": "user", "message": {"content": "q"}}]
    )
    write_jsonl(
        cursor_dir / "subagents" / "child.jsonl", [{"role": "user", "message": {"content": "c"}}]
    )
    made["openclaw"] = write_jsonl(
        home / ".openclaw" / "agents" / "main" / "sessions" / "oc-1.jsonl",
        [{"type": "session", "version": 3, "id": "oc-1", "cwd": str(ws)}],
    )
    return made


def test_find_transcripts_per_platform_under_home(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    made = populate(home, ws)
    found = {r.platform: r for r in find_transcripts(ws, home=home)}
    assert set(found) == {"claude-code", "codex", "gemini", "cursor", "openclaw"}
    for key, platform in (
        ("claude", "claude-code"),
        ("codex", "codex"),
        ("gemini", "gemini"),
        ("cursor", "cursor"),
        ("openclaw", "openclaw"),
    ):
        assert found[platform].path == made[key]
    assert found["codex"].session_id == "11111111-2222-4333-8444-555555555555"
    assert [r.platform for r in find_transcripts(ws, "claude", home=home)] == ["claude-code"]
    os.utime(made["cursor"], (4_000_000_000, 4_000_000_000))
    assert find_transcripts(ws, home=home)[0].platform == "cursor"  # newest first


def test_find_uses_home_env_when_no_home_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    made = populate(home, ws)
    monkeypatch.setenv("HOME", str(home))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "OPENCLAW_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)
    assert {r.path for r in find_transcripts(ws)} == set(made.values())


def test_resolve_by_id_prefix_path_and_refusals(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    made = populate(home, ws)
    assert (
        resolve_transcript("0a1b2c3d-aaaa-bbbb-cccc-000000000001", ws, home=home) == made["claude"]
    )
    assert resolve_transcript("11111111-2222", ws, home=home) == made["codex"]
    assert resolve_transcript(str(made["gemini"]), ws, home=home) == made["gemini"]
    for bad in ("../../no-such-dir/x", "a/b", ".hidden", ""):
        with pytest.raises(UsageError):
            resolve_transcript(bad, ws, home=home)
    with pytest.raises(NotFoundError):
        resolve_transcript("zzzzzzzz", ws, home=home)


def test_incremental_reads_only_new_complete_lines(tmp_path: Path, fixtures: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.root.mkdir()
    tail = TranscriptTail(Store(ws))
    source = fixtures / "claude-code" / "ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
    data = source.read_bytes()
    lines = data.split(b"\n")
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(lines[:10]) + b"\n" + lines[10][:40])  # a half-written line
    first = tail.update(path, "claude-code")
    assert first.summary.offset == len(b"\n".join(lines[:10]) + b"\n")
    path.write_bytes(data)
    second = tail.update(path)
    full = read_transcript(source)
    assert second.summary.offset == len(data)
    assert second.summary.messages == len(full.messages)
    assert second.summary.tool_calls == len(full.tool_calls)
    assert second.summary.context_tokens == full.last_usage.context_tokens  # type: ignore[union-attr]
    assert second.read_bytes == len(data) - first.summary.offset
    state = json.loads(tail.state_path(path).read_text())
    assert (
        state["offset"] == len(data)
        and tail.state_path(path).parent == ws.state_dir / "transcripts"
    )
    third = tail.update(path)
    assert third.read_bytes == 0 and third.new_messages == []
    assert context_usage(path, store=Store(ws)).used_tokens == full.last_usage.context_tokens  # type: ignore[union-attr]


def test_incremental_starts_over_when_the_file_is_replaced(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.root.mkdir()
    tail = TranscriptTail(Store(ws))
    w = ClaudeWriter()
    w.user("one")
    w.assistant("two")
    path = w.write(tmp_path / "t.jsonl")
    assert tail.update(path).summary.messages == 2
    v = ClaudeWriter(session="other")
    v.user("fresh")
    v.write(path)
    update = tail.update(path)
    assert update.reset and update.summary.messages == 1
    tail.state_path(path).write_text("{corrupt")
    assert tail.update(path).summary.messages == 1  # damaged derived state is rebuilt


def test_gemini_document_is_reread_when_it_changes(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.root.mkdir()
    tail = TranscriptTail(Store(ws))
    path = tmp_path / "session-1.json"
    messages: list[dict[str, Any]] = [{"id": "1", "type": "user", "content": "a"}]
    doc = {"sessionId": "g", "messages": messages}
    path.write_text(json.dumps(doc))
    assert tail.update(path).summary.messages == 1
    messages.append(
        {"id": "2", "type": "gemini", "content": "b", "tokens": {"input": 500, "output": 3}}
    )
    path.write_text(json.dumps(doc, indent=1))
    update = tail.update(path)
    assert update.summary.messages == 2 and [m.text for m in update.new_messages] == ["b"]
    assert update.summary.context_tokens == 500


@pytest.mark.parametrize(
    ("percent", "relay", "wrap"),
    [
        (0, "none", "normal"),
        (39.9, "none", "normal"),
        (40, "none", "awareness"),
        (50, "none", "checkpoint"),
        (59.9, "none", "active-management"),
        (60, "warm", "active-management"),
        (74.9, "warm", "active-management"),
        (75, "hot", "full-save"),
        (80, "hot", "full-save"),
        (85, "hot", "critical"),
        (85.1, "critical", "critical"),
        (120, "critical", "critical"),
    ],
)
def test_zone_boundaries(percent: float, relay: str, wrap: str) -> None:
    assert zone_for(percent).name == relay
    assert zone_for(percent, "wrap").name == wrap
    assert 0 <= zone_for(percent).level <= 3


def test_zone_levels_and_unknown_profile() -> None:
    assert [zone_for(p).level for p in (10, 65, 80, 90)] == [0, 1, 2, 3]
    assert zone_for(90).action == "force-save" and zone_for(80).action == "full-snapshot"
    with pytest.raises(UsageError):
        zone_for(50, "fast")


def test_context_windows_and_estimates(tmp_path: Path) -> None:
    assert model_window("claude-opus-4-1-20250805") == 200_000
    assert model_window("claude-sonnet-4-5[1m]") == 1_000_000
    assert model_window("gemini-2.5-pro") == 1_048_576
    assert model_window(None, "codex") == 272_000
    w = ClaudeWriter()
    w.user("fill it")
    w.assistant(
        "ok",
        usage={
            "input_tokens": 2,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 250_000,
            "output_tokens": 1,
        },
    )
    big = context_usage(w.write(tmp_path / "big.jsonl"))
    assert big.window == 1_000_000 and big.used_tokens == 250_002  # past 200k: the 1M window
    assert context_usage(tmp_path / "big.jsonl", window=500_000).percent == 50.0
    cursor = write_jsonl(
        tmp_path / "c.jsonl", [{"role": "user", "message": {"content": "x " * 4000}}]
    )
    estimate = context_usage(cursor, "cursor")
    assert estimate.source == "estimated" and 1000 <= estimate.used_tokens <= 8000


def test_discovery_is_fine_without_any_agent_folders(tmp_path: Path) -> None:
    assert find_transcripts(tmp_path, home=tmp_path / "empty-home") == []
    shutil.rmtree(tmp_path / "empty-home", ignore_errors=True)
