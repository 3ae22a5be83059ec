"""workmem's MCP server added to each real client the way the README says, beside its
hooks: the model calls ``session_start`` and gets the session the hooks registered for
the same conversation, not a second one (Claude Code, Codex, Gemini CLI)."""

from __future__ import annotations

import json

import pytest

from .conftest import WORKMEM, Sandbox, board_rows, client
from .fake_model import FakeModel, Scenario, Step, _strings, serve

pytestmark = pytest.mark.slow

PROMPT = "[[mcp]] Which memory session is this?"
SCENARIO = Scenario(
    "[[mcp]]", [Step("call", path="session_start"), Step("text", text="This is our session.")]
)


def _tool_result(model: FakeModel) -> dict[str, object]:
    """The session_start result the client sent back to the model (each client wraps it
    its own way: a text block, a function output, JSON in a string)."""
    for request in model.model_requests():
        for text in _strings(request.body):
            if '"registered"' not in text or "{" not in text:
                continue
            try:
                found = json.loads(text[text.index("{") : text.rindex("}") + 1])
            except ValueError:
                continue
            if isinstance(found, dict) and "session_id" in found:
                return found
    raise AssertionError("no session_start result reached the model")


def _one_session(sandbox: Sandbox, model: FakeModel) -> None:
    rows = board_rows(sandbox.project)
    assert len(rows) == 1, f"a second session was registered: {list(rows)}\n{sandbox.hook_log()}"
    (sid,) = rows
    result = _tool_result(model)
    assert result["session_id"] == sid and result["registered"] is False, result
    assert result["found_by"] in ("agent", "platform session")


def test_claude_code_mcp_finds_the_hooks_session(sandbox: Sandbox) -> None:
    claude = client("claude")
    assert sandbox.workmem("setup", "--platform", "claude-code").returncode == 0
    added = sandbox.run([str(claude), "mcp", "add", "workmem", "--", str(WORKMEM), "mcp"])
    assert added.returncode == 0, added.stderr
    # In -p mode the first request goes out while MCP servers still connect; the model
    # waits for them with Claude Code's own tool, as a real model does.
    waits = Scenario("[[mcp]]", [Step("call", path="WaitForMcpServers"), *SCENARIO.steps])
    with serve([waits]) as (url, model):
        sandbox.env.update(
            {
                "ANTHROPIC_BASE_URL": url,
                "ANTHROPIC_API_KEY": "sk-ant-test-dummy",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_AUTOUPDATER": "1",
                # MCP tools offered with the requests, not loaded on demand
                "ENABLE_TOOL_SEARCH": "false",
            }
        )
        sandbox.run_ok(
            [str(claude), "-p", PROMPT, "--output-format", "json", "--allowedTools", "mcp__workmem"]
        )
    _one_session(sandbox, model)


def test_codex_mcp_finds_the_hooks_session(sandbox: Sandbox) -> None:
    codex = client("codex")
    # Codex sends the first request without waiting for its MCP servers and adds their
    # tools to a later one: until they are offered, the model runs a short command.
    pause = Step("call", path="exec_command", arguments={"cmd": "sleep 1"})
    call = Step("call", path="session_start", until_offered=pause)
    with serve([Scenario("[[mcp]]", [call, *SCENARIO.steps[1:]])]) as (url, model):
        config = sandbox.home / ".codex" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(
            'model = "fake-model"\nmodel_provider = "fake"\n\n[model_providers.fake]\n'
            f'name = "fake"\nbase_url = "{url}/v1"\nenv_key = "FAKE_MODEL_KEY"\n'
            'wire_api = "responses"\n',
            encoding="utf-8",
        )
        sandbox.env.update({"FAKE_MODEL_KEY": "dummy", "CODEX_HOME": str(config.parent)})
        installed = sandbox.workmem(
            "hooks", "install", "--platform", "codex", "--scope", "user", "--trust"
        )
        assert installed.returncode == 0, installed.stderr
        added = sandbox.run([str(codex), "mcp", "add", "workmem", "--", str(WORKMEM), "mcp"])
        assert added.returncode == 0, added.stderr
        assert "[mcp_servers.workmem]" in config.read_text()
        flags = ["--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"]
        # MCP tools offered with the requests, not behind Codex's tool search
        flags += ["--disable", "tool_search_always_defer_mcp_tools"]
        done = sandbox.run_ok([str(codex), "exec", *flags, PROMPT])
        print("STDERR", done.stderr[-3000:])
    _one_session(sandbox, model)


def test_gemini_cli_mcp_finds_the_hooks_session(sandbox: Sandbox) -> None:
    gemini = client("gemini")
    settings = sandbox.home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(
        json.dumps(
            {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "general": {"disableAutoUpdate": True},
                "privacy": {"usageStatisticsEnabled": False},
            }
        )
    )
    trusted = sandbox.home / ".gemini" / "trustedFolders.json"
    trusted.write_text(json.dumps({str(sandbox.project): "TRUST_FOLDER"}))
    with serve([SCENARIO]) as (url, model):
        sandbox.env.update({"GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "dummy"})
        assert sandbox.workmem("setup", "--platform", "gemini").returncode == 0
        added = sandbox.run([str(gemini), "mcp", "add", "workmem", str(WORKMEM), "mcp"])
        assert added.returncode == 0, added.stderr
        project_settings = json.loads((sandbox.project / ".gemini" / "settings.json").read_text())
        assert "workmem" in project_settings["mcpServers"] and "hooks" in project_settings
        sandbox.run_ok(
            [str(gemini), "--yolo", "-m", "gemini-2.5-flash", "-o", "json", "-p", PROMPT]
        )
    _one_session(sandbox, model)
