"""The agent's memory list (YAML/JSON) and the context window guardian."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.errors import FormatError, UsageError
from workmem.wrap.guardian import context_report, estimate_tokens
from workmem.wrap.inputs import parse_items, read_items


def test_yaml_and_json_lists() -> None:
    yaml_text = "- type: user\n  topic: style\n  description: terse\n  content: Prefers terse\n"
    json_text = '[{"type": "user", "topic": "style", "description": "terse", "content": "x"}]'
    assert parse_items(yaml_text)[0].filename == "user_style.md"
    assert parse_items(json_text)[0].content == "x"
    wrapped = "memories:\n  - {type: project, topic: a, content: b}\n"
    assert parse_items(wrapped)[0].type == "project"
    assert parse_items("") == [] and parse_items("[]") == [] and parse_items("memories:\n") == []


def test_bad_lists_are_refused() -> None:
    with pytest.raises(UsageError, match="item 1: type is required"):
        parse_items('[{"topic": "a", "content": "b"}]')
    with pytest.raises(UsageError, match="expected a list"):
        parse_items('"just text"')
    with pytest.raises(FormatError, match="neither JSON nor YAML"):
        parse_items("- type: user\n  topic: [oops\n")
    with pytest.raises(UsageError, match=r"both name user_a\.md"):
        parse_items("- {type: user, topic: a, content: x}\n- {type: user, topic: A, content: y}\n")
    with pytest.raises(UsageError, match="looks like a path"):
        parse_items("- {type: user, topic: ../../etc, content: x}\n")


def test_read_items_from_file_with_bom_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_bytes("\ufeff- type: user\r\n  topic: t\r\n  content: 你好\r\n".encode())
    assert read_items(str(path))[0].content == "你好"
    with pytest.raises(UsageError, match="cannot read"):
        read_items(str(tmp_path / "missing.yaml"))
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"- type: user\n  content: caf\xe9\n")
    with pytest.raises(FormatError, match="UTF-8"):
        read_items(str(bad))


def test_seed_estimate_formula_and_zones() -> None:
    assert estimate_tokens(10, 20, 10) == 10 * 800 + 20 * 1500 + 10 * 600
    # 30 turns, 60 tool calls ("long sessions ... likely past 50%") on Claude Code's 200K.
    report = context_report(user_turns=30, tool_results=60, responses=30, platform="claude-code")
    assert report.used_tokens == 30 * 800 + 60 * 1500 + 30 * 600 == 132_000
    assert report.window == 200_000 and report.percent == 66.0
    assert report.zone == "active-management" and report.source == "estimated"
    low = context_report(user_turns=1, responses=1, platform="gemini")
    assert low.window == 1_000_000 and low.zone == "normal"
    cursor = context_report(user_turns=20, tool_results=30, responses=20, platform="cursor")
    assert cursor.window == 128_000 and cursor.percent == 57.0  # 73,000 / 128,000
    relay = context_report(user_turns=30, tool_results=60, responses=30, profile="relay")
    assert relay.window == 128_000 and relay.zone == "critical"  # 103 %: over the window
    with pytest.raises(UsageError):
        context_report(user_turns=-1)
    with pytest.raises(UsageError):
        context_report(window=0)
    with pytest.raises(UsageError, match="profile"):
        context_report(profile="loud")


def test_thresholds_follow_the_seed_table() -> None:
    exact = {
        10: "normal",
        45: "awareness",
        52: "checkpoint",
        65: "active-management",
        75: "full-save",
        90: "critical",
    }
    for pct, name in exact.items():
        window = 600 * 1000
        responses = pct * 10  # 600 tokens each: pct % of a 600,000 window
        assert context_report(responses=responses, window=window).zone == name


def test_transcript_usage_from_shared_fixtures(shared_dir: Path) -> None:
    path = shared_dir / "fixtures" / "transcripts" / "codex" / "agentsessions-codex-small.jsonl"
    report = context_report(transcript=path, platform="codex")
    assert report.source == "recorded" and report.used_tokens > 0
    assert 0 < report.percent < 100 and report.zone == "normal"
    assert report.method.startswith("transcript ")


def test_transcript_usage_from_a_small_claude_file(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    line = (
        '{"type":"assistant","sessionId":"s1","uuid":"u1","timestamp":"2026-05-25T10:00:00Z",'
        '"message":{"role":"assistant","model":"claude-sonnet-4-5","content":'
        '[{"type":"text","text":"hi"}],"usage":{"input_tokens":100000,'
        '"cache_creation_input_tokens":0,"cache_read_input_tokens":20000,"output_tokens":10}}}\n'
    )
    path.write_text(line)
    report = context_report(transcript=path, platform="claude-code")
    assert report.used_tokens == 120_000 and report.window == 200_000
    assert report.percent == 60.0 and report.zone == "active-management"


def test_very_long_session_note() -> None:
    report = context_report(user_turns=120, responses=120, window=1_000_000)
    assert report.zone == "normal" and "checkpoint" in report.note
    assert context_report(user_turns=5).note == ""
