"""OpenClaw itself (``openclaw`` from npm): its Gateway on loopback with the fake model as a
custom provider, workmem's hook pack installed with OpenClaw's own ``openclaw plugins
install`` from a local clone, an agent turn and the next one, then the hook disabled and
removed.

Internal hooks run only inside the Gateway (``openclaw agent --local`` loads none), so the
test starts one (bounded, stopped at the end). OpenClaw 2026.9 keeps sessions in the agent's
SQLite database, not in JSONL files: ``/new`` fires ``command:new`` before OpenClaw writes
its reset boundary, and workmem saves the conversation from that database. What 2026.9 does
not give a test here: ``message:received`` fires only for messages from a chat channel,
``/compact`` is not accepted from ``openclaw agent``, and ``/new`` from it keeps the same
session id (a ``reset`` entry starts the next conversation inside it).
"""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from .conftest import REPO, Sandbox, board_rows, client, read_json, wait_for
from .fake_model import Scenario, Step, serve

pytestmark = pytest.mark.slow

GATEWAY_START_SECONDS = 120
#: over OpenClaw's 1 KiB threshold and repetitive: stored as a zstd-compressed entry
SPEC = "\n".join(
    f"- rule {n}: the bucket refills at a steady rate and never holds more than its capacity"
    for n in range(30)
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _configure(sandbox: Sandbox, url: str, port: int) -> Path:
    state = sandbox.home / ".openclaw"
    state.mkdir(parents=True, exist_ok=True)
    model = {
        "id": "fake-model",
        "name": "Fake",
        "reasoning": False,
        "input": ["text"],
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
        "contextWindow": 128000,
        "maxTokens": 8000,
    }
    config = {
        "gateway": {"port": port, "bind": "loopback", "auth": {"mode": "token", "token": "t"}},
        "agents": {
            "defaults": {"workspace": str(sandbox.project), "model": {"primary": "fake/fake-model"}}
        },
        "models": {
            "mode": "merge",
            "providers": {
                "fake": {
                    "baseUrl": f"{url}/v1",
                    "apiKey": "dummy",
                    "api": "openai-completions",
                    "models": [model],
                }
            },
        },
    }
    path = state / "openclaw.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    sandbox.env["OPENCLAW_GATEWAY_TOKEN"] = "t"
    return path


def _agent(sandbox: Sandbox, openclaw: Path, message: str) -> None:
    sandbox.run_ok(
        [str(openclaw), "agent", "--agent", "main", "-m", message, "--json", "--timeout", "150"],
        timeout=240,
    )


def _workmem_context(text: str) -> str:
    """What the hook added: OpenClaw puts bootstrap files into its system prompt."""
    marker = "WORKMEM.md\nYour Memory Session ID is: "
    assert marker in text, "the WORKMEM.md bootstrap file is not in the system prompt"
    return text[text.index(marker) + len("WORKMEM.md\n") :]


def test_openclaw_gateway_bootstrap_injects_workmem(sandbox: Sandbox) -> None:
    openclaw = client("openclaw")
    port = _free_port()
    scenarios = [
        Scenario(
            "[[build]]",
            [
                Step("write", path="ratelimit.py", content="class TokenBucket:\n    pass\n"),
                Step("text", text="I wrote ratelimit.py."),
            ],
        ),
        Scenario("[[again]]", [Step("text", text="Hello again.")]),
        Scenario("[[next]]", [Step("text", text="On to the next task.")]),
    ]
    with serve(scenarios, lifetime=900) as (url, model):
        config = _configure(sandbox, url, port)
        # workmem's hook pack, installed the way OpenClaw installs one (from a local clone's
        # plugins/workmem-openclaw); the install enables the hook
        pack = sandbox.project.parent / "clone" / "plugins" / "workmem-openclaw"
        shutil.copytree(REPO / "plugins" / "workmem-openclaw", pack)
        sandbox.run_ok([str(openclaw), "plugins", "install", str(pack), "--force"], timeout=180)
        entries = json.loads(config.read_text())["hooks"]["internal"]["entries"]
        assert entries["workmem"]["enabled"] is True

        log = (sandbox.project.parent / "gateway.log").open("w")
        gateway = subprocess.Popen(
            [str(openclaw), "gateway", "--port", str(port), "--allow-unconfigured"],
            cwd=sandbox.project,
            env=sandbox.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + GATEWAY_START_SECONDS
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, "the OpenClaw Gateway did not start"
                    assert gateway.poll() is None, "the OpenClaw Gateway exited"
                    time.sleep(1)

            _agent(sandbox, openclaw, f"[[build]] Write a token-bucket rate limiter\n{SPEC}")
            rows = board_rows(sandbox.project)
            assert len(rows) == 1, f"agent:bootstrap did not register\n{sandbox.hook_log()}"
            (first,) = rows
            requests = [r for r in model.model_requests() if "[[build]]" in r.text]
            assert requests
            context = _workmem_context(requests[0].text)
            assert context.startswith(f"Your Memory Session ID is: {first}")

            # The next turn bootstraps again: the same OpenClaw session finds the same
            # memory session, and its context is in the prompt again.
            _agent(sandbox, openclaw, "[[again]] hello")
            assert list(board_rows(sandbox.project)) == [first]
            later = [r for r in model.model_requests() if "[[again]]" in r.text]
            assert _workmem_context(later[-1].text).startswith(
                f"Your Memory Session ID is: {first}"
            )

            # /new ends the conversation: command:new saves it from OpenClaw's database.
            database = sandbox.home / ".openclaw" / "agents" / "main" / "agent"
            database /= "openclaw-agent.sqlite"
            assert not list((sandbox.home / ".openclaw").rglob("*.jsonl")), "JSONL is back"
            assert _compressed_entries(database) > 0, "no zstd entry to read: SPEC too short?"
            _agent(sandbox, openclaw, "/new")
            memory = sandbox.project / "memory"
            wait_for(
                lambda: (
                    (memory / ".workmem" / "last-save.json").is_file()
                    and (memory / "resumption.md").is_file()
                ),
                what=f"the save at /new\n{sandbox.hook_log()}",
            )
            # The next conversation (the same OpenClaw session id) is a new memory session.
            _agent(sandbox, openclaw, "[[next]] now the docs")
            rows = board_rows(sandbox.project)
            assert len(rows) == 2 and first in rows, rows
            (second,) = set(rows) - {first}
            latest = [r for r in model.model_requests() if "[[next]]" in r.text]
            assert _workmem_context(latest[-1].text).startswith(
                f"Your Memory Session ID is: {second}"
            )
        finally:
            gateway.terminate()
            try:
                gateway.wait(timeout=60)
            except subprocess.TimeoutExpired:
                gateway.kill()
                gateway.wait(timeout=10)
            log.close()
        # OpenClaw 2026.9.6's `plugins uninstall` refuses a hook pack ("not associated with
        # a tracked package install"): the way out is its own `hooks disable`, then the
        # pack's folder removed (the README says so)
        sandbox.run_ok([str(openclaw), "hooks", "disable", "workmem"], timeout=120)
        entries = json.loads(config.read_text())["hooks"]["internal"]["entries"]
        assert entries["workmem"]["enabled"] is False
        shutil.rmtree(sandbox.home / ".openclaw" / "hooks" / "workmem-openclaw")
    assert sandbox.hook_log() == "", sandbox.hook_log()
    saved = read_json(memory / ".workmem" / "last-save.json")
    assert isinstance(saved, dict)
    assert saved["reason"] == "session-end" and saved["session_id"] == first
    assert str(saved["transcript"]).startswith(f"{database}/"), saved["transcript"]
    assert not saved["failed"], saved["failed"]
    assert {"notes", "snapshot", "relay", "journal"} <= set(saved["done"]), saved
    # What was saved came from the SQLite transcript: the request (its long, compressed
    # form) and the file the scripted write made.
    assert (sandbox.project / "ratelimit.py").is_file(), "the scripted write was not made"
    snapshot = (memory / "sessions" / f"{first}.md").read_text(encoding="utf-8")
    assert "token-bucket rate limiter" in snapshot and "ratelimit.py" in snapshot, snapshot
    daily = [p.read_text(encoding="utf-8") for p in memory.glob("20??-??-??.md")]
    assert any(first in text for text in daily), daily
    assert first in (memory / "resumption.md").read_text(encoding="utf-8")


def _compressed_entries(database: Path) -> int:
    """Transcript entries OpenClaw stored zstd-compressed (read-only, as workmem reads)."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)
    try:
        row = connection.execute(
            "SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL"
        ).fetchone()
    finally:
        connection.close()
    return int(row[0])
