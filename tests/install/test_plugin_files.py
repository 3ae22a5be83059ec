"""The plugin and extension folders in the repository are what ``make plugins`` makes, and
their hooks run the same ``workmem hook`` arguments setup writes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from workmem.hooks.events import PLATFORM_EVENTS
from workmem.platforms import plugin_files

REPO = Path(__file__).resolve().parents[2]


def test_the_repository_holds_exactly_what_make_plugins_makes() -> None:
    stale = [
        rel
        for rel, text in plugin_files.files().items()
        if not (REPO / rel).is_file() or (REPO / rel).read_text(encoding="utf-8") != text
    ]
    assert stale == [], f"run `make plugins`: {stale}"
    for launcher in REPO.glob("plugins/*/scripts/workmem"):
        assert os.access(launcher, os.X_OK), launcher


def test_every_platform_hook_runs_workmem_hook_with_setups_arguments() -> None:
    for platform, rel in (
        ("claude-code", "plugins/workmem/hooks/claude-code.json"),
        ("codex", "plugins/workmem/hooks/codex.json"),
        ("gemini", "plugins/workmem-gemini/hooks/hooks.json"),
    ):
        hooks = json.loads((REPO / rel).read_text())["hooks"]
        assert set(hooks) == set(PLATFORM_EVENTS[platform])
        for event, groups in hooks.items():
            command = groups[0]["hooks"][0]["command"]
            assert command.endswith(f'/scripts/workmem" hook {event} --platform {platform}')
    manifest = json.loads((REPO / "plugins/workmem-openclaw/package.json").read_text())
    assert manifest["openclaw"]["hooks"] == ["./workmem"]


def test_the_launcher_without_workmem_says_one_line_at_session_start_only(tmp_path: Path) -> None:
    launcher = REPO / "plugins" / "workmem" / "scripts" / "workmem"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["/bin/sh", str(launcher), *args],
            input="{}",
            capture_output=True,
            text=True,
            env=env,
            timeout=30,
            check=False,
        )

    start = run("hook", "SessionStart", "--platform", "claude-code")
    assert start.returncode == 0 and start.stderr == ""
    assert "workmem is not installed" in json.loads(start.stdout)["systemMessage"]
    prompt = run("hook", "UserPromptSubmit", "--platform", "claude-code")
    assert (prompt.returncode, prompt.stdout, prompt.stderr) == (0, "", "")
    mcp = run("mcp")
    assert mcp.returncode == 127 and "workmem is not installed" in mcp.stderr


def test_the_readme_lists_every_english_trigger_phrase() -> None:
    from workmem.phrases import SEED_PHRASES

    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    missing = [
        phrase
        for _workflow, phrase in SEED_PHRASES
        if phrase.isascii()
        and any(c.isalpha() for c in phrase)
        and f"`{phrase.replace('<id>', 'ID')}`" not in readme
    ]
    assert missing == [], f"English trigger phrases not in the README: {missing}"
