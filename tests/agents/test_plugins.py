"""workmem installed the way each agent's users install things, by the real client, from a
local clone of this repository: a Claude Code plugin marketplace, the same marketplace in
Codex, a Gemini CLI extension, an OpenClaw hook pack. Each test installs, runs one session
against the fake model (the hooks fire, their context reaches the model), then uninstalls
with the client and checks that nothing of it is left in the client's settings.

The "clone" holds the files a clone has for this (``.claude-plugin/`` and ``plugins/``),
copied from the working tree so uncommitted changes are tested too.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from workmem.platforms.codex_trust import list_ours, trust_ours

from .conftest import REPO, Sandbox, board_rows, client
from .fake_model import Scenario, Step, hook_context, serve

pytestmark = pytest.mark.slow


def _clone(sandbox: Sandbox) -> Path:
    # The session runs in a project (hooks start memory only in one): a git repository.
    subprocess.run(["git", "init", "-q", str(sandbox.project)], check=True, env=sandbox.env)
    clone = sandbox.project.parent / "workmem-clone"
    for part in (".claude-plugin", "plugins"):
        shutil.copytree(REPO / part, clone / part, symlinks=True)
    return clone


def test_claude_code_plugin_from_the_marketplace(sandbox: Sandbox) -> None:
    claude = str(client("claude"))
    clone = _clone(sandbox)
    sandbox.run_ok([claude, "plugin", "marketplace", "add", str(clone)])
    sandbox.run_ok([claude, "plugin", "install", "workmem@workmem"])
    settings = sandbox.home / ".claude" / "settings.json"
    assert json.loads(settings.read_text())["enabledPlugins"] == {"workmem@workmem": True}

    with serve([Scenario("[[hello]]", [Step("text", text="Hello.")])]) as (url, model):
        sandbox.env.update(
            {
                "ANTHROPIC_BASE_URL": url,
                "ANTHROPIC_API_KEY": "sk-ant-test-dummy",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_AUTOUPDATER": "1",
            }
        )
        sandbox.run_ok([claude, "-p", "[[hello]] hi", "--output-format", "json"])
        rows = board_rows(sandbox.project)
        assert len(rows) == 1, f"the plugin's SessionStart did not register\n{sandbox.hook_log()}"
        (sid,) = rows
        asked = [r for r in model.model_requests() if "[[hello]]" in r.text]
        assert asked, "the prompt never reached the model"
        seen = hook_context(asked[-1], "SessionStart hook additional context:")
        assert f"Your Memory Session ID is: {sid}" in seen
        # the skills users call by what they say
        assert all(f"workmem:{name}" in asked[-1].text for name in ("handoff", "save", "search"))

        sandbox.run_ok([claude, "plugin", "uninstall", "workmem@workmem"])
        sandbox.run_ok([claude, "plugin", "marketplace", "remove", "workmem"])
        after = json.loads(settings.read_text())
        assert not after.get("enabledPlugins") and not after.get("extraKnownMarketplaces")
        installed = json.loads(
            (sandbox.home / ".claude" / "plugins" / "installed_plugins.json").read_text()
        )
        assert "workmem@workmem" not in installed["plugins"]
        sandbox.run_ok([claude, "-p", "[[hello]] again", "--output-format", "json"])
    assert list(board_rows(sandbox.project)) == [sid], "a hook still fired after uninstall"
    assert sandbox.hook_log() == "", sandbox.hook_log()


def test_codex_plugin_from_the_same_marketplace(sandbox: Sandbox) -> None:
    codex = str(client("codex"))
    clone = _clone(sandbox)
    with serve([Scenario("[[hello]]", [Step("text", text="Hello.")])]) as (url, model):
        home = sandbox.home / ".codex"
        home.mkdir()
        config = home / "config.toml"
        config.write_text(
            'model = "fake-model"\nmodel_provider = "fake"\n\n[model_providers.fake]\n'
            f'name = "fake"\nbase_url = "{url}/v1"\nenv_key = "FAKE_MODEL_KEY"\n'
            'wire_api = "responses"\n',
            encoding="utf-8",
        )
        sandbox.env.update({"FAKE_MODEL_KEY": "dummy", "CODEX_HOME": str(home)})
        before = config.read_text()
        sandbox.run_ok([codex, "plugin", "marketplace", "add", str(clone)])
        sandbox.run_ok([codex, "plugin", "add", "workmem@workmem"])
        # Codex lists the plugin's hooks, untrusted: the user's one step (/hooks), taken
        # through Codex's own app server as workmem's --trust does
        listed = list_ours(sandbox.project, sandbox.home, env=sandbox.env)
        assert {h.event for h in listed} == {
            "sessionStart", "userPromptSubmit", "preCompact", "stop", "sessionEnd"
        }  # fmt: skip
        assert all("/plugins/cache/workmem/" in h.source_path for h in listed)
        trusted = trust_ours(sandbox.project, sandbox.home, env=sandbox.env)
        assert {h.trust for h in trusted} == {"trusted"}
        flags = ["--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"]
        sandbox.run_ok([codex, "exec", *flags, "[[hello]] hi"])
        rows = board_rows(sandbox.project)
        assert len(rows) == 1, f"the plugin's SessionStart did not register\n{sandbox.hook_log()}"
        (sid,) = rows
        asked = [r for r in model.model_requests() if "[[hello]]" in r.text]
        seen = hook_context(asked[-1], "Your Memory Session ID is:")
        assert f"Your Memory Session ID is: {sid}" in seen

        sandbox.run_ok([codex, "plugin", "remove", "workmem@workmem"])
        sandbox.run_ok([codex, "plugin", "marketplace", "remove", "workmem"])
        after = config.read_text()
        assert after.startswith(before) and "[plugins." not in after and "marketplaces" not in after
        assert list_ours(sandbox.project, sandbox.home, env=sandbox.env) == []
        sandbox.run_ok([codex, "exec", *flags, "[[hello]] again"])
    assert list(board_rows(sandbox.project)) == [sid], "a hook still fired after uninstall"
    assert sandbox.hook_log() == "", sandbox.hook_log()


def test_gemini_cli_extension(sandbox: Sandbox) -> None:
    gemini = str(client("gemini"))
    clone = _clone(sandbox)
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
    (sandbox.home / ".gemini" / "trustedFolders.json").write_text(
        json.dumps({str(sandbox.project): "TRUST_FOLDER"})  # the user's one step
    )
    # Gemini CLI asks whether to trust the extension's folder: the user says yes
    source = clone / "plugins" / "workmem-gemini"
    done = subprocess.run(
        [gemini, "extensions", "install", str(source), "--consent"],
        input="y\n",
        cwd=sandbox.project,
        env=sandbox.env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (sandbox.home / ".gemini" / "extensions" / "workmem" / "hooks" / "hooks.json").is_file()
    with serve([Scenario("[[hello]]", [Step("text", text="Hello.")])]) as (url, model):
        sandbox.env.update({"GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "dummy"})
        run = [gemini, "--yolo", "-m", "gemini-2.5-flash", "-o", "json", "-p"]
        sandbox.run_ok([*run, "[[hello]] hi"])
        rows = board_rows(sandbox.project)
        assert len(rows) == 1, (
            f"the extension's SessionStart did not register\n{sandbox.hook_log()}"
        )
        (sid,) = rows
        asked = [r for r in model.model_requests() if "[[hello]]" in r.text]
        seen = hook_context(asked[-1], "<hook_context>Your Memory Session ID is:")
        assert f"Your Memory Session ID is: {sid}" in seen

        sandbox.run_ok([gemini, "extensions", "uninstall", "workmem"])
        assert not (sandbox.home / ".gemini" / "extensions" / "workmem").exists()
        assert "workmem" not in settings.read_text()  # (Gemini CLI reformats the file itself)
        sandbox.run_ok([*run, "[[hello]] again"])
    assert list(board_rows(sandbox.project)) == [sid], "a hook still fired after uninstall"
    assert sandbox.hook_log() == "", sandbox.hook_log()
