"""What a new user meets first: help, names, one platform name, transcripts, context."""

from __future__ import annotations

import hashlib
import io
import json
import re
import sys
from pathlib import Path

import pytest

from workmem.cli import COMMANDS, GROUPS, main
from workmem.demo_transcript import claude_code
from workmem.files.tables import TableDocument
from workmem.platforms.detect import Context, detect
from workmem.platforms.runtime import running_platform

REPO = Path(__file__).resolve().parents[2]
#: Words from the design documents and the code's layout that mean nothing to a user.
INTERNAL = re.compile(r"\bseed[- ]?\d|\bseeds? 0\d\d|\bSteps? \d|\broom\b|—\)|in its instructions")
AGENT_ENV = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_PROJECT_DIR", "CODEX_THREAD_ID")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture
def no_platform(root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A workspace run outside any agent: nothing in the environment names a platform."""
    monkeypatch.delenv("WORKMEM_PLATFORM")
    for name in AGENT_ENV:
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return root


def help_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def _help_texts(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    texts = {"workmem": help_of(capsys)}
    texts.update({name: help_of(capsys, name) for name in COMMANDS})
    return texts


def test_help_groups_every_command_by_what_a_user_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    grouped = [name for _, names in GROUPS for name in names]
    assert sorted(grouped) == sorted(COMMANDS)  # each command once, none forgotten
    out = help_of(capsys)
    titles = [line for line in out.splitlines() if line.endswith(":") and not line[0].isspace()]
    assert titles[-6:] == [f"{title}:" for title, _ in GROUPS]
    assert "Run `workmem setup` in your project" in out
    assert re.search(r"^  setup +set workmem up", out, re.M)
    assert "{session,organize" not in out  # argparse's flat list is gone


def test_help_and_readme_speak_of_what_the_user_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, text in _help_texts(capsys).items():
        assert not INTERNAL.search(text), (name, INTERNAL.search(text))
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = INTERNAL.search(readme)
    assert found is None, readme[max(found.start() - 80, 0) : found.end() + 80]


def test_mcp_help_says_how_each_agent_adds_the_server(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = help_of(capsys, "mcp")
    assert "claude mcp add workmem -- workmem mcp" in out
    assert "codex mcp add workmem -- workmem mcp" in out and "[mcp_servers.workmem]" in out
    assert '{"mcpServers": {"workmem": {"command": "workmem", "args": ["mcp"]}}}' in out
    assert "gemini mcp add workmem workmem mcp" in out
    assert out.startswith("usage: workmem mcp ")


def test_one_name_for_the_fallback_platform(
    no_platform: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = Context(no_platform, tmp_path / "home", {}, lambda _name: None)
    assert detect(empty).key == running_platform({}) == "universal"
    code, out = run(capsys, "platform", "--json")
    assert code == 0 and json.loads(out)["platform"] == "universal"
    code, out = run(capsys, "session", "start")
    assert "2026-05-25-1318-universal-main-agent" in out
    code, out = run(capsys, "bootstrap")
    assert code == 0 and "no agent was detected" in out
    assert not INTERNAL.search(out) and "Unknown" not in out
    code, out = run(capsys, "platform", "--json")
    assert json.loads(out)["name"] == "Universal"


def test_wrap_on_the_fallback_platform_says_where_the_directive_goes(
    no_platform: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    items = '[{"type": "project", "topic": "app", "description": "d", "content": "c"}]'
    monkeypatch.setattr(sys, "stdin", io.StringIO(items))
    code, out = run(capsys, "wrap", "--lang", "en")
    assert code == 0
    assert "no agent detected; paste it into its instructions" in out
    assert "add it by hand to —" not in out


def test_the_daily_log_names_the_agent_the_board_names(
    no_platform: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hook knows its platform from its command line, whatever the environment says."""
    transcript = claude_code(tmp_path / "s.jsonl", cwd=str(no_platform))
    base = {"session_id": "s-1", "transcript_path": str(transcript), "cwd": str(no_platform)}
    for event, extra in (("SessionStart", {"source": "startup"}), ("SessionEnd", {})):
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**base, **extra})))
        assert main(["hook", event, "--platform", "claude-code"]) == 0
    capsys.readouterr()
    board = TableDocument.parse((no_platform / "memory" / "index.md").read_text())
    agents = {r["Agent Name"] for r in board.records()}
    assert agents == {"claude-code-main-agent"}
    log = (no_platform / "memory" / "2026-05-25.md").read_text()
    headings = re.findall(r"^### Session \d+ · \d\d:\d\d · (\S+)", log, re.M)
    assert headings == ["claude-code-main-agent"]
    assert not (no_platform / "memory" / ".workmem" / "hook.log").exists()


def test_context_reads_the_platform_from_the_transcript(
    no_platform: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = claude_code(tmp_path / "s.jsonl")
    code, out = run(capsys, "context", "--transcript", str(transcript), "--json")
    assert code == 0, out
    report = json.loads(out)
    assert report["source"] == "recorded" and report["used_tokens"] > 0


@pytest.mark.parametrize(
    ("platform", "name"),
    [
        ("codex", "codex/agentsessions-codex-small.jsonl"),
        ("gemini", "gemini-cli/agentsessions-gemini-small.json"),
        ("gemini", "gemini-cli/agentsessions-gemini-jsonl_v040.jsonl"),
        ("cursor", "cursor/agentsessions-cursor-small.jsonl"),
        ("openclaw", "openclaw/agentsessions-openclaw-small.jsonl"),
    ],
)
def test_context_of_each_platforms_recorded_transcript(
    no_platform: Path, fixtures: Path, capsys: pytest.CaptureFixture[str], platform: str, name: str
) -> None:
    code, out = run(capsys, "context", "--transcript", str(fixtures / name), "--json")
    assert code == 0, out
    code, status = run(capsys, "transcripts", "status", str(fixtures / name), "--json")
    assert json.loads(status)["summary"]["platform"] == platform


def _gemini_chat(home: Path, workspace: Path, session: str, suffix: str) -> Path:
    chats = home / ".gemini" / "tmp" / hashlib.sha256(str(workspace).encode()).hexdigest()
    path = chats / "chats" / f"session-2026-05-25T13-00-{session[:8]}{suffix}"
    path.parent.mkdir(parents=True, exist_ok=True)
    message = {"id": "m1", "timestamp": "2026-05-25T13:00:01Z", "type": "user", "content": "Hi"}
    if suffix == ".json":
        doc = {"sessionId": session, "startTime": "2026-05-25T13:00:00Z", "messages": [message]}
        path.write_text(json.dumps(doc, indent=2))
    else:
        path.write_text(json.dumps({"sessionId": session, "kind": "main"}) + "\n")
        path.write_text(path.read_text() + json.dumps(message) + "\n")
    return path


def test_transcripts_list_and_status_use_one_id(
    no_platform: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    _gemini_chat(home, no_platform, "4f1c2b7e-aaaa-bbbb-cccc-000000000001", ".json")
    _gemini_chat(home, no_platform, "9d3e5a10-aaaa-bbbb-cccc-000000000002", ".jsonl")
    code, out = run(capsys, "transcripts", "list", "--json")
    listed = {r["session_id"] for r in json.loads(out)}
    assert listed == {
        "4f1c2b7e-aaaa-bbbb-cccc-000000000001",
        "9d3e5a10-aaaa-bbbb-cccc-000000000002",
    }
    for session in listed:
        code, out = run(capsys, "transcripts", "status", session, "--json")
        assert code == 0, out
        assert json.loads(out)["summary"]["session_id"] == session


def test_transcripts_list_says_where_it_looked(
    no_platform: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(capsys, "transcripts", "list")
    assert code == 0
    home = tmp_path / "home"
    assert f"No transcripts found for {no_platform}. Looked in:" in out
    dashed = re.sub(r"[^A-Za-z0-9]", "-", str(no_platform))
    assert str(home / ".claude" / "projects" / dashed) in out
    assert str(home / ".codex" / "sessions") in out
    assert str(home / ".gemini" / "tmp") in out and str(home / ".openclaw" / "agents") in out
    assert str(home / ".cursor" / "projects") in out
    code, out = run(capsys, "transcripts", "list", "--platform", "codex")
    assert ".claude" not in out and ".codex" in out


def test_developing_maps_every_package_and_command() -> None:
    guide = (REPO / "docs" / "DEVELOPING.md").read_text(encoding="utf-8")
    code_map = guide[guide.index("## Map of the code") : guide.index("## Which command")]
    source = REPO / "src" / "workmem"
    names = [p.name for p in source.iterdir() if p.is_dir() and (p / "__init__.py").is_file()]
    names += [p.stem for p in source.glob("*.py") if not p.stem.startswith("_")]
    for name in names:
        assert f"`{name}" in code_map, f"docs/DEVELOPING.md does not map {name}"
    commands = guide[guide.index("## Which command lives where") :]
    for command in COMMANDS:
        assert f"`{command}" in commands, f"docs/DEVELOPING.md does not place `{command}`"
