"""Every shared fixture parses, and its figures match values computed here independently.

The independent computations read the raw JSON with the simplest rule that defines each
figure (count the tool_use blocks, sum the usage of distinct responses, …), not with the
readers' code, so a reader bug shows up as a mismatch.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from workmem.relay.usage import context_usage
from workmem.transcripts import read_transcript

PLATFORM_OF_FOLDER = {
    "claude-code": "claude-code",
    "codex": "codex",
    "gemini-cli": "gemini",
    "cursor": "cursor",
    "openclaw": "openclaw",
}


def raw(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_bytes().splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def all_fixture_files(fixtures: Path) -> list[Path]:
    return sorted(
        p for p in fixtures.rglob("*.json*") if p.is_file() and not p.name.endswith(".meta.json")
    )


def test_every_fixture_parses_with_and_without_the_platform_named(fixtures: Path) -> None:
    files = all_fixture_files(fixtures)
    assert len(files) >= 20
    for path in files:
        platform = PLATFORM_OF_FOLDER[path.relative_to(fixtures).parts[0]]
        named = read_transcript(path, platform)
        assert named.platform == platform
        # the rate-limit fixture holds only token counts: those must then be read
        assert named.messages or named.last_usage, f"{path.name}: nothing read"
        assert named.skipped_lines == 0
        if "schema_drift" not in path.name:  # the drift file has no platform marks at all
            detected = read_transcript(path)
            assert detected.platform == platform, path.name
            assert len(detected.messages) == len(named.messages)


# ---- Claude Code --------------------------------------------------------------------------


def claude_main(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Main-chain records by the plainest rule: walk parents from the newest message."""
    messages = [r for r in records if r.get("type") in ("user", "assistant")]
    main = [r for r in messages if not r.get("isSidechain")] or messages
    by_id = {r["uuid"]: r for r in records if "uuid" in r}
    on_chain: set[str] = set()
    node: dict[str, Any] | None = main[-1]
    while node is not None and node["uuid"] not in on_chain:
        on_chain.add(node["uuid"])
        parent = node.get("parentUuid") or node.get("logicalParentUuid")
        node = by_id.get(parent) if parent else None
    return [r for r in main if r["uuid"] in on_chain or not _has_sibling(r, main, on_chain)]


def _has_sibling(record: dict[str, Any], main: list[dict[str, Any]], chain: set[str]) -> bool:
    """A record off the chain whose ancestor is a chain record with another chain child."""
    by_id = {r["uuid"]: r for r in main}
    node: dict[str, Any] | None = record
    seen = set()
    while node is not None and node["uuid"] not in seen:
        seen.add(node["uuid"])
        parent = node.get("parentUuid")
        if parent in chain:
            return any(r.get("parentUuid") == parent and r["uuid"] in chain for r in main)
        node = by_id.get(parent) if isinstance(parent, str) else None
    return False


def blocks(record: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    content = record.get("message", {}).get("content")
    return (
        [b for b in content if isinstance(b, dict) and b.get("type") == kind]
        if isinstance(content, list)
        else []
    )


@pytest.mark.parametrize(
    "name",
    [
        "ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
        "cclog-dag_compact_after_rewind.jsonl",
        "ccviewer-agent-test-hash-123.jsonl",
        "agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl",
    ],
)
def test_claude_figures(fixtures: Path, name: str) -> None:
    path = fixtures / "claude-code" / name
    records = raw(path)
    main = claude_main(records)
    t = read_transcript(path)
    tool_uses = sum(len(blocks(r, "tool_use")) for r in main if r["type"] == "assistant")
    errors = sum(
        1
        for r in main
        if r["type"] == "user"
        for b in blocks(r, "tool_result")
        if b.get("is_error")
    )
    assert len(t.tool_calls) == tool_uses
    assert sum(1 for r in t.tool_results if r.is_error) == errors
    # usage: one count per (message.id, requestId), however many lines repeat it
    distinct: dict[tuple[Any, Any], dict[str, int]] = {}
    for r in main:
        if r["type"] == "assistant" and "usage" in r["message"]:
            distinct.setdefault((r["message"].get("id"), r.get("requestId")), r["message"]["usage"])
    assert t.total_usage.input_tokens == sum(u.get("input_tokens", 0) for u in distinct.values())
    assert t.total_usage.output_tokens == sum(u.get("output_tokens", 0) for u in distinct.values())
    assert t.total_usage.cache_read_tokens == sum(
        u.get("cache_read_input_tokens", 0) for u in distinct.values()
    )
    with_usage = [r for r in main if r["type"] == "assistant" and "usage" in r["message"]]
    if with_usage:
        last = with_usage[-1]["message"]["usage"]
        expected = (
            last.get("input_tokens", 0)
            + last.get("cache_creation_input_tokens", 0)
            + last.get("cache_read_input_tokens", 0)
        )
        assert t.last_usage is not None and t.last_usage.context_tokens == expected
        usage = context_usage(path)
        assert usage.source == "recorded" and usage.used_tokens == expected
        assert usage.window == 200_000
        assert usage.percent == round(100 * expected / 200_000, 1)
    assert len(t.compactions) == sum(1 for r in records if r.get("subtype") == "compact_boundary")
    # assistant messages: one per distinct response id on the main chain
    assert len([m for m in t.messages if m.role == "assistant"]) == len(
        {r["message"].get("id") or r["uuid"] for r in main if r["type"] == "assistant"}
    )


def test_claude_rewind_drops_the_abandoned_branch(fixtures: Path) -> None:
    t = read_transcript(fixtures / "claude-code" / "cclog-dag_compact_after_rewind.jsonl")
    texts = [m.text for m in t.messages]
    assert "First attempt" not in texts and "First answer" not in texts
    assert texts[:2] == ["Start", "Ready"]
    assert texts[-2:] == ["After compaction", "Final answer"]
    assert t.dropped_records == 2
    assert t.compactions[0].pre_tokens == 150000 and t.compactions[0].trigger == "auto"
    assert t.compactions[0].summary.startswith("This session is being continued")
    assert [m.kind for m in t.messages].count("compact_summary") == 1


def test_claude_todo_plan_and_failed_write(fixtures: Path) -> None:
    path = fixtures / "claude-code" / "ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
    records = raw(path)
    todos = [
        b["input"]["todos"]
        for r in records
        for b in blocks(r, "tool_use")
        if b["name"] == "TodoWrite"
    ]
    t = read_transcript(path)
    assert [(p.text, p.status) for p in t.plan] == [(x["content"], x["status"]) for x in todos[-1]]
    assert t.cwd == "/path/to/Demo" and t.session_id == path.stem.removeprefix("ccviewer-")
    failed = [r for r in t.tool_results if r.is_error]
    assert failed[0].name == "Write" and "permissions" in failed[0].output
    assert t.conversation[0].text == "/init" and t.conversation[0].kind == "command"


def test_claude_subagents_and_sidechains(fixtures: Path) -> None:
    parent = (
        fixtures
        / "claude-code"
        / "agentsessions-subagent"
        / ("0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl")
    )
    t = read_transcript(parent)
    assert len(t.subagents) == 1
    child = t.subagents[0]
    assert [m.text for m in child.conversation] == [
        "Search the repo for TODO comments",
        "Searching.",
    ]
    assert child.tool_calls[0].input == {"command": "grep -rn TODO"}
    small = read_transcript(fixtures / "claude-code" / "agentsessions-claude-small.jsonl")
    side = [
        r
        for r in raw(fixtures / "claude-code" / "agentsessions-claude-small.jsonl")
        if r.get("type") in ("user", "assistant") and r.get("isSidechain")
    ]
    assert len(small.sidechain) == len(side)
    assert small.title == "Stage0 small fixture"  # custom title wins over the AI title


# ---- Codex --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "agentsessions-codex-small.jsonl",
        "agentsessions-codex_053_rate_limit.jsonl",
        "cclog-rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl",
    ],
)
def test_codex_figures(fixtures: Path, name: str) -> None:
    path = fixtures / "codex" / name
    records = raw(path)
    items = [r["payload"] for r in records if r.get("type") == "response_item"]
    calls = [
        i
        for i in items
        if i.get("type")
        in ("function_call", "custom_tool_call", "local_shell_call", "web_search_call")
    ]
    t = read_transcript(path)
    assert len(t.tool_calls) == len(calls)
    assert len(t.compactions) == sum(1 for r in records if r.get("type") == "compacted")
    infos = [
        r["payload"]["info"]
        for r in records
        if r.get("type") == "event_msg"
        and r["payload"].get("type") == "token_count"
        and r["payload"].get("info")
        and r["payload"]["info"]["last_token_usage"]["total_tokens"] > 0
    ]
    if infos:
        assert t.last_usage is not None
        assert t.last_usage.context_tokens == infos[-1]["last_token_usage"]["total_tokens"]
        usage = context_usage(path)
        assert usage.window == infos[-1]["model_context_window"]
        assert usage.source == "recorded"
    conversation = [
        i for i in items if i.get("type") == "message" and i.get("role") in ("user", "assistant")
    ]
    assert len(
        [m for m in t.messages if m.role in ("user", "assistant") and m.kind == "message"]
    ) >= len(conversation)


def test_codex_events_do_not_double_messages(fixtures: Path) -> None:
    path = (
        fixtures
        / "codex"
        / "cclog-rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"
    )
    t = read_transcript(path)
    assert [(m.role, m.text) for m in t.conversation] == [
        ("user", "List the synthetic files."),
        ("assistant", "The synthetic files are alpha.txt and beta.txt."),
    ]
    names = [c.name for c in t.tool_calls]
    assert names == ["exec_command", "apply_patch", "mcp__synthetic__lookup"]
    assert t.tool_calls[0].input == {"cmd": "find . -maxdepth 1 -type f"}
    assert t.tool_results[0].output == "./alpha.txt\n./beta.txt"
    assert t.unknown_records == 1  # the future_synthetic_record at the end
    assert t.cwd == "/workspace/synthetic-project" and t.model == "synthetic-model"


def test_codex_drifted_records_are_read_loosely(fixtures: Path) -> None:
    t = read_transcript(fixtures / "codex" / "agentsessions-codex-schema_drift.jsonl", "codex")
    assert [(m.role, m.text) for m in t.conversation] == [
        ("user", "Translate 'hello' to Spanish"),
        ("assistant", '"hola"'),
    ]
    assert t.tool_calls[0].name == "translate" and t.tool_results[0].output == "hola"


# ---- Gemini, Cursor, OpenClaw -------------------------------------------------------------


def test_gemini_figures(fixtures: Path) -> None:
    for name in ("agentsessions-gemini-small.json", "agentsessions-gemini-large.json"):
        path = fixtures / "gemini-cli" / name
        document = json.loads(path.read_text())
        t = read_transcript(path)
        assert len(t.messages) == len(document["messages"])
        assert len(t.tool_calls) == sum(len(m.get("toolCalls", [])) for m in document["messages"])
        tokens = [m["tokens"] for m in document["messages"] if "tokens" in m]
        assert t.total_usage.output_tokens == sum(x["output"] + x["thoughts"] for x in tokens)
        assert t.last_usage is not None and t.last_usage.context_tokens == tokens[-1]["input"]
    large = read_transcript(fixtures / "gemini-cli" / "agentsessions-gemini-large.json")
    assert [r.is_error for r in large.tool_results] == [False, True]  # "Exit Code: 1"
    lines = raw(fixtures / "gemini-cli" / "agentsessions-gemini-jsonl_v040.jsonl")
    t = read_transcript(fixtures / "gemini-cli" / "agentsessions-gemini-jsonl_v040.jsonl")
    messages = [r for r in lines if "type" in r]
    assert len(t.messages) == len(messages)
    assert t.session_id == lines[0]["sessionId"]
    assert (
        t.last_usage is not None and t.last_usage.context_tokens == messages[-1]["tokens"]["input"]
    )
    assert t.tool_calls[0].input["command"] == "ls -F"


def test_cursor_figures(fixtures: Path) -> None:
    for path in sorted((fixtures / "cursor").glob("*.jsonl")):
        records = raw(path)
        t = read_transcript(path)
        tool_uses = sum(
            1
            for r in records
            for b in r.get("message", {}).get("content", [])
            if b.get("type") == "tool_use"
        )
        assert len(t.tool_calls) == tool_uses
        assert len(t.messages) == sum(1 for r in records if "role" in r)
        assert context_usage(path).source == "estimated"
    session = read_transcript(fixtures / "cursor" / "agentsessionstests-cursor-test-session.jsonl")
    assert session.user_requests() == ["run ls command", "now show me the git status"]
    assert all("[REDACTED]" not in m.text for m in session.messages)
    parent = read_transcript(fixtures / "cursor" / "agentsessions-subagent" / "parent.jsonl")
    assert next(m.text for m in parent.subagents[0].conversation) == "List files"


def test_openclaw_figures(fixtures: Path) -> None:
    for path in sorted((fixtures / "openclaw").glob("*.jsonl")):
        records = raw(path)
        t = read_transcript(path)
        calls = sum(
            1
            for r in records
            if r.get("type") == "message"
            for b in (
                r["message"].get("content") if isinstance(r["message"].get("content"), list) else []
            )
            if b.get("type") == "toolCall"
        )
        results = sum(
            1
            for r in records
            if r.get("type") == "message" and r["message"].get("role") == "toolResult"
        )
        assert len(t.tool_calls) == calls
        assert len(t.tool_results) == results
        assert t.cwd == records[0]["cwd"] and t.session_id == records[0]["id"]
    large = read_transcript(fixtures / "openclaw" / "agentsessions-openclaw-large.jsonl")
    assert large.model == "openclaw-large"
    assert (
        large.tool_results[0].name == "run_terminal"
        and large.tool_results[0].output == "M file1\nM file2"
    )
