"""One real agent is killed mid-task; another real agent starts in the same project and is
given that work at its start.

Each case installs workmem's hooks for both clients (``workmem setup`` / ``hooks install``
as a user would), runs the first client against the fake model, which plans two steps
with the client's own plan tool (Claude Code's TaskCreate/TaskUpdate, Codex's
``update_plan``, Gemini CLI's ``write_todos``), writes ``ratelimit.py`` and then holds its
next answer; the test kills the whole client with SIGKILL while it waits, so no Stop and
no SessionEnd hook ever runs. Then the second client starts with an ordinary prompt, and
the model's first request (as the fake recorded it) must hold the open plan items, the
last request and the file, said to come from the killed session, stopped (its agent
process is gone, although it was active seconds ago).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from workmem.i18n.placeholders import START_SUMMARY

from .conftest import Sandbox, board_rows, client
from .fake_model import FakeModel, Recorded, Scenario, Step, hook_context, serve

pytestmark = pytest.mark.slow

#: what only the scripted edit writes: in a transcript once the client recorded the edit
WRITTEN = "class TokenBucket"
REQUEST = "[[build]] Write a token-bucket rate limiter in ratelimit.py"
PLAN = [("Write the rate limiter", "in_progress"), ("Add tests for the rate limiter", "pending")]
#: what the second session's user says: nothing about the work, so only workmem can tell
NEXT = "[[next]] What is the state of this project?"
GEMINI_MODEL = "gemini-2.5-flash"


def _scenarios(target: Path) -> list[Scenario]:
    killed = Scenario(
        "[[build]]",
        [
            Step("plan", items=list(PLAN)),
            Step("write", path=str(target), content=f"{WRITTEN}:\n    rate = 1.0\n"),
            Step("hold"),  # the next answer never comes: the agent is killed waiting
        ],
    )
    return [killed, Scenario("[[next]]", [Step("text", text="Looking at it.")])]


# -- the clients, pointed at the fake and with workmem's hooks --------------------------------
def _claude(sandbox: Sandbox, url: str) -> list[str]:
    sandbox.env.update(
        {
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "sk-ant-test-dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
    )
    _ok(sandbox.workmem("setup", "--platform", "claude-code"))
    tools = "Write TaskCreate TaskUpdate TodoWrite"
    flags = ["--permission-mode", "acceptEdits", "--allowedTools", tools]
    return [str(client("claude")), *flags, "-p"]


def _codex(sandbox: Sandbox, url: str) -> list[str]:
    # A model Codex knows (its bundled catalog), so it offers its own patch tool, as to a
    # real user; Codex 0.171 offers ``update_plan`` only when the user turns it on.
    config = sandbox.home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        'model = "gpt-5.5"\nmodel_provider = "fake"\n\n'
        "[tools.update_plan]\nenabled = true\n\n"
        '[model_providers.fake]\nname = "fake"\n'
        f'base_url = "{url}/v1"\nenv_key = "FAKE_MODEL_KEY"\nwire_api = "responses"\n',
        encoding="utf-8",
    )
    sandbox.env.update({"FAKE_MODEL_KEY": "dummy", "CODEX_HOME": str(config.parent)})
    # Codex runs only hooks the user trusted: workmem asks Codex's own app server.
    _ok(sandbox.workmem("hooks", "install", "--platform", "codex", "--scope", "user", "--trust"))
    flags = ["--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"]
    return [str(client("codex")), "exec", *flags]


def _gemini(sandbox: Sandbox, url: str) -> list[str]:
    folder = sandbox.home / ".gemini"
    folder.mkdir(parents=True, exist_ok=True)
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "general": {"disableAutoUpdate": True},
        "privacy": {"usageStatisticsEnabled": False},
    }
    (folder / "settings.json").write_text(json.dumps(settings))
    # Gemini CLI runs no hook in a folder the user has not trusted.
    (folder / "trustedFolders.json").write_text(json.dumps({str(sandbox.project): "TRUST_FOLDER"}))
    sandbox.env.update({"GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "dummy"})
    _ok(sandbox.workmem("setup", "--platform", "gemini"))
    return [str(client("gemini")), "--yolo", "-m", GEMINI_MODEL, "-p"]


def _ok(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0, proc.stderr or proc.stdout


# -- the run ------------------------------------------------------------------------------------
def _kill_mid_task(sandbox: Sandbox, argv: list[str], model: FakeModel) -> None:
    """Run the client until the model holds its answer, then SIGKILL it and all it started
    (its own process group): what a crash or a closed terminal leaves behind."""
    log = sandbox.project.parent / "killed-client.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            argv,
            cwd=sandbox.project,
            env=sandbox.env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 180
            while not model.holding.wait(0.2):
                failed = proc.poll() is not None or time.monotonic() > deadline
                assert not failed, f"never reached the held answer:\n{log.read_text()[-3000:]}"
            _wait_for_transcript(sandbox.home, WRITTEN, time.monotonic() + 30)
        finally:
            with contextlib.suppress(ProcessLookupError):  # a client that died on its own
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            model.release.set()


def _wait_for_transcript(home: Path, text: str, deadline: float) -> None:
    """Until the client's own transcript holds ``text``. A client writes its transcript
    behind its work (Claude Code 2.1 queues the entries and writes them a moment later), and
    a user closes a window seconds after the last edit, not within the same millisecond:
    what never reached the disk is no one's to hand over."""
    while time.monotonic() < deadline:
        for path in home.rglob("*.json*"):
            with contextlib.suppress(OSError):
                if path.is_file() and text in path.read_text(encoding="utf-8", errors="replace"):
                    return
        time.sleep(0.2)
    raise AssertionError(f"no transcript under {home} ever held {text!r}")


def _first_request(model: FakeModel, before: int) -> Recorded:
    """The second session's first request for an answer, which must carry its prompt."""
    requests = model.model_requests()[before:]
    assert requests, "the second session never asked the model"
    assert "[[next]]" in requests[0].text, "the first request is not the session's own"
    return requests[0]


def _sections(text: str) -> dict[str, str]:
    """The briefing's parts by their headings (``## …`` and ``### …``)."""
    found: dict[str, str] = {}
    for block in re.split(r"^#{2,3} ", text, flags=re.M)[1:]:
        title, _, body = block.partition("\n")
        found[title.strip()] = body
    return found


def _assert_handed_over(seen: str, killed: str, platform: str) -> None:
    """The killed session's work, named as such and as stopped (its agent process is gone,
    though it was active seconds ago): the open plan items, the last request, the file."""
    parts = _sections(seen)
    assert "Where the work stands" in parts, seen
    intro = parts["Where the work stands"]
    assert f"{platform} session `{killed}`" in intro, seen
    assert "stopped without ending" in intro, seen
    plan = parts.get("Plan", "")
    assert "[in progress] Write the rate limiter" in plan, seen
    assert "[pending] Add tests for the rate limiter" in plan, seen
    assert "token-bucket rate limiter" in parts.get("Last request", ""), seen
    assert "ratelimit.py" in parts.get("Files in play", ""), seen


def _killed_session(sandbox: Sandbox) -> str:
    rows = board_rows(sandbox.project)
    assert len(rows) == 1, f"the first session did not register\n{sandbox.hook_log()}"
    (sid,) = rows
    return sid


#: each client: how it is set up and started, its name in the briefing, and how it labels
#: what a SessionStart hook added (Codex: a developer message of the hook's own text)
CLIENTS: dict[str, tuple[Callable[[Sandbox, str], list[str]], str, str]] = {
    "claude": (_claude, "Claude Code", "SessionStart hook additional context:"),
    "codex": (_codex, "Codex", "Your Memory Session ID is:"),
    "gemini": (_gemini, "Gemini CLI", "<hook_context>Your Memory Session ID is:"),
}


@pytest.mark.parametrize(
    ("killed", "then"),
    [("claude", "codex"), ("codex", "claude"), ("gemini", "claude")],
    ids=["claude-code-to-codex", "codex-to-claude-code", "gemini-cli-to-claude-code"],
)
def test_an_agent_killed_mid_task_is_picked_up_by_another(
    sandbox: Sandbox, killed: str, then: str
) -> None:
    setup_killed, name, _label = CLIENTS[killed]
    setup_next, _name, label = CLIENTS[then]
    target = sandbox.project / "ratelimit.py"
    with serve(_scenarios(target)) as (url, model):
        first_client, next_client = setup_killed(sandbox, url), setup_next(sandbox, url)
        _kill_mid_task(sandbox, [*first_client, REQUEST], model)
        assert target.is_file(), "the scripted edit was not made"
        sid = _killed_session(sandbox)
        before = len(model.model_requests())
        sandbox.run_ok([*next_client, NEXT])
        first = _first_request(model, before)
    seen = hook_context(first, label)
    _assert_handed_over(seen, sid, name)
    # what a save wrote before the first request (Gemini CLI's PreCompress fires before
    # every request) is no note of the agent's
    assert START_SUMMARY["en"] not in seen, seen
    assert sandbox.hook_log() == "", sandbox.hook_log()
