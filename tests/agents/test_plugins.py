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
from pathlib import Path

import pytest

from .conftest import REPO, Sandbox, board_rows, client
from .fake_model import Scenario, Step, hook_context, serve

pytestmark = pytest.mark.slow


def _clone(sandbox: Sandbox) -> Path:
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
        installed = json.loads((sandbox.home / ".claude" / "plugins" / "installed_plugins.json").read_text())
        assert "workmem@workmem" not in installed["plugins"]
        sandbox.run_ok([claude, "-p", "[[hello]] again", "--output-format", "json"])
    assert list(board_rows(sandbox.project)) == [sid], "a hook still fired after uninstall"
    assert sandbox.hook_log() == "", sandbox.hook_log()
