"""``workmem transcripts list|history|status`` through the command module's own parser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .util import ClaudeWriter, claude_project, run_cli

MOD = "workmem.cli.transcripts_cmds"
SECRET = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def home(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    w = ClaudeWriter(session="abc-123", cwd=str(root))
    for n in range(4):
        w.user(f"request {n}")
        w.assistant(f"answer {n}", tools=[w.tool_use("Bash", f"t{n}", command=f"echo {n}")])
        w.result(f"t{n}", f"{n}")
    w.user(f"my key is {SECRET}")
    w.assistant("noted")
    w.write(claude_project(home, root) / "abc-123.jsonl")
    return home


def test_list_history_status(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, MOD, "transcripts", "list", "--json")
    listed = json.loads(out)
    assert code == 0 and [r["session_id"] for r in listed] == ["abc-123"]
    code, out, _ = run_cli(capsys, MOD, "transcripts", "history", "abc-123", "--rounds", "2")
    assert code == 0
    assert out.splitlines() == [
        "**[User]** request 3",
        "**[Assistant]** answer 3",
        "**[User]** my key is [REDACTED:anthropic-key]",
        "**[Assistant]** noted",
    ]
    code, out, _ = run_cli(
        capsys,
        MOD,
        "transcripts",
        "history",
        "abc-123",
        "--rounds",
        "1",
        "--include-tools",
        "--json",
    )
    payload = json.loads(out)
    assert SECRET not in out and payload["messages"][0]["text"].endswith("[REDACTED:anthropic-key]")
    code, out, _ = run_cli(capsys, MOD, "transcripts", "status", "abc-123", "--json")
    status = json.loads(out)
    assert status["summary"]["tool_calls"] == 4 and status["summary"]["user_messages"] == 5
    assert status["usage"]["source"] == "recorded" and status["zone"]["name"] == "none"


def test_errors_have_exit_codes(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, MOD, "transcripts", "status", "no-such-session")
    assert code == 3 and "no transcript" in err
    code, out, _ = run_cli(capsys, MOD, "transcripts", "history", "../x", "--json")
    assert code == 2 and json.loads(out)["ok"] is False
