"""Agents' settings as people keep them: byte for byte after an uninstall, comments and
one-line arrays kept, links edited through, read-only refused, only workmem's own entries
taken for workmem's, and one command line whichever entry point wrote it."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from workmem.cli import main
from workmem.errors import WriteError
from workmem.files.store import Store
from workmem.hooks.events import PLATFORM_EVENTS
from workmem.hooks.install import install
from workmem.platforms.hook_command import installed_commands
from workmem.platforms.setup import setup
from workmem.root import Workspace

from .util import tree, workmem_script

#: Each platform's settings as a user might have left them: their own hooks (one of them
#: mentioning `workmem hook`, a wrapper of their own), odd layouts, comments where the
#: platform reads JSONC (Gemini CLI), a one-line array, tabs, four spaces.
USER_FILES: dict[str, tuple[str, str]] = {
    "claude-code": (
        ".claude/settings.json",
        '{\n  "permissions": {"allow": ["Bash(npm test)"]},\n  "hooks": {\n'
        '    "SessionStart": [{"hooks": [{"type": "command", "command": '
        '"~/bin/log-start.sh workmem hook SessionStart"}]}],\n'
        '    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", '
        '"command": "lint.sh"}]}]\n  }\n}\n',
    ),
    "codex": (
        ".codex/hooks.json",
        '{\n\t"hooks": {\n\t\t"Stop": [\n\t\t\t{"hooks": [{"type": "command", '
        '"command": "notify-send done"}]}\n\t\t]\n\t}\n}\n',
    ),
    "cursor": (
        ".cursor/hooks.json",
        '{\n    "version": 1,\n    "hooks": {"stop": [{"command": "say done"}]}\n}\n',
    ),
    "gemini": (
        ".gemini/settings.json",
        '// my Gemini settings\n{\n  /* theme first */\n  "ui": {"theme": "GitHub"}, '
        '// keep\n  "hooks": {\n    "AfterAgent": [ // mine\n      {"hooks": '
        '[{"type": "command", "command": "echo after"}]},\n    ],\n  },\n}\n',
    ),
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    for name in ("WORKMEM_ROOT", "WORKMEM_PLATFORM", "CODEX_HOME", "OPENCLAW_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A lasting `workmem` on PATH (a tool's link): hooks call it by name."""
    script = workmem_script(tmp_path / "tools" / "bin")
    monkeypatch.setenv("PATH", f"{script.parent}:/usr/bin:/bin")
    return script


@pytest.mark.parametrize("scope", ["project", "user"])
@pytest.mark.parametrize("platform", sorted(USER_FILES))
def test_uninstall_gives_every_config_file_back_byte_for_byte(
    project: Path, on_path: Path, platform: str, scope: str
) -> None:
    home = project.parent / "home"
    name, original = USER_FILES[platform]
    base = project if scope == "project" else home
    path = base / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(original.encode())
    setup(project, home=home, platforms=[platform], scope=scope)
    merged = path.read_text()
    assert merged != original and "workmem hook" in merged
    assert merged.startswith(original.split("hooks")[0])  # what comes before is untouched
    assert len(installed_commands(platform, scope, project, home)) == len(PLATFORM_EVENTS[platform])
    setup(project, home=home, platforms=[platform], scope=scope, uninstall=True)
    assert path.read_bytes() == original.encode()
    assert installed_commands(platform, scope, project, home) == []


def test_a_file_setup_made_is_removed_and_crlf_files_keep_their_bytes(
    project: Path, on_path: Path
) -> None:
    home = project.parent / "home"
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = (
        b'\xef\xbb\xbf{\r\n  "model": "opus",\r\n  "hooks": {"Stop": [{"hooks": []}]}\r\n}\r\n'
    )
    settings.write_bytes(original)
    before = tree(project)
    setup(project, home=home, platforms=["claude-code", "codex", "cursor", "gemini", "openclaw"])
    assert b"\r\n" in settings.read_bytes() and b"\n\n" not in settings.read_bytes()
    setup(project, home=home, uninstall=True)
    after = {k: v for k, v in tree(project).items() if not k.startswith(("memory/", "MEMORY"))}
    after.pop("workmem.toml")
    # the user's own (odd) Stop entry comes back as it was. (A list that was empty before
    # setup goes with workmem's entry: nothing tells it from one workmem made.)
    assert after == before
    for folder in (".codex", ".cursor", ".gemini", "hooks"):
        assert not (project / folder).exists(), folder


def test_a_users_own_hook_that_mentions_workmem_is_not_taken_for_ours(
    project: Path, on_path: Path
) -> None:
    home = project.parent / "home"
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    mine = {"type": "command", "command": "/usr/local/bin/wrap workmem hook SessionStart"}
    exact = {"type": "command", "command": "workmem hook Stop --platform cursor"}  # other agent
    settings.write_text(
        json.dumps({"hooks": {"SessionStart": [{"hooks": [mine]}], "Stop": [{"hooks": [exact]}]}})
    )
    original = settings.read_bytes()
    setup(project, home=home, platforms=["claude-code"])
    setup(project, home=home, platforms=["claude-code"])
    data = json.loads(settings.read_text())
    assert data["hooks"]["SessionStart"][0] == {"hooks": [mine]}
    assert data["hooks"]["Stop"][0] == {"hooks": [exact]}
    assert len(data["hooks"]["SessionStart"]) == 2  # theirs and ours, once
    setup(project, home=home, uninstall=True)
    assert settings.read_bytes() == original


def test_an_entry_an_earlier_workmem_wrote_is_recognised_and_replaced(
    project: Path, on_path: Path
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    old = {"type": "command", "command": "/old/venv/bin/workmem hook SessionStart --platform "
           "claude-code", "timeout": 10}  # fmt: skip
    settings.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [old]}]}}, indent=2))
    setup(project, home=project.parent / "home", platforms=["claude-code"])
    starts = json.loads(settings.read_text())["hooks"]["SessionStart"]
    assert len(starts) == 1 and starts[0]["hooks"][0]["command"].startswith("command -v workmem")


def test_setup_and_hooks_install_write_the_same_command(
    project: Path, on_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Either entry point after the other rewrites nothing (Codex keeps its trust)."""
    assert main(["setup", "--platform", "codex,claude-code"]) == 0
    before = tree(project)
    for platform in ("codex", "claude-code"):
        assert main(["hooks", "install", "--platform", platform]) == 0
        assert "nothing to change (already installed)" in capsys.readouterr().out
    assert tree(project) == before
    assert main(["setup", "--platform", "codex,claude-code"]) == 0
    assert tree(project) == before
    hooks = json.loads((project / ".codex" / "hooks.json").read_text())["hooks"]
    assert hooks["Stop"][0]["hooks"][0]["command"] == (
        "command -v workmem >/dev/null 2>&1 && workmem hook Stop --platform codex || true"
    )
    assert str(on_path.parent) not in json.dumps(hooks)  # nothing of this machine in it


def test_a_path_of_ones_own_goes_to_the_personal_settings_and_moves_back(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project.parent / "home"
    script = workmem_script(tmp_path / "elsewhere")
    report = setup(project, home=home, platforms=["claude-code", "gemini"], command=str(script))
    local = project / ".claude" / "settings.local.json"
    assert str(script) in local.read_text() and not (project / ".claude" / "settings.json").exists()
    assert any(".gemini/settings.json names a path on your machine" in w for w in report.warnings)
    # workmem installed as a tool later: the hooks move to the shared file, by name
    tool = workmem_script(tmp_path / "tools" / "bin")
    monkeypatch.setenv("PATH", f"{tool.parent}:/usr/bin:/bin")
    setup(project, home=home, platforms=["claude-code"])
    assert not local.exists() or "workmem" not in local.read_text()
    shared = (project / ".claude" / "settings.json").read_text()
    assert "command -v workmem " in shared and str(tmp_path) not in shared


def test_the_commit_line_says_what_belongs_in_git(
    project: Path, on_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["setup", "--platform", "codex"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "What to commit: commit .codex/hooks.json (the hooks call `workmem` from PATH)" in out
    assert "`workmem sync init` keeps memory on a branch of its own" in out
    (project / "workmem.toml").write_text("[sync]\nmachine_ids = true\n")
    assert main(["setup", "--platform", "codex", "--json"]) == 0
    commit = json.loads(capsys.readouterr().out)["commit"]
    assert "memory is shared by `workmem sync` on its own branch" in commit


def test_a_linked_user_config_is_edited_through_the_link(project: Path, on_path: Path) -> None:
    home = project.parent / "home"
    dotfiles = project.parent / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    original = b'{\n  "model": "opus"\n}\n'
    dotfiles.write_bytes(original)
    link = home / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(dotfiles)
    setup(project, home=home, platforms=["claude-code"], scope="user")
    assert link.is_symlink() and "command -v workmem" in dotfiles.read_text()
    setup(project, home=home, platforms=["claude-code"], scope="user", uninstall=True)
    assert link.is_symlink() and dotfiles.read_bytes() == original


def test_a_dangling_link_and_a_read_only_file_are_refused_untouched(
    project: Path, on_path: Path
) -> None:
    home = project.parent / "home"
    link = home / ".gemini" / "settings.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(project.parent / "gone.json")
    with pytest.raises(WriteError, match="which does not exist"):
        setup(project, home=home, platforms=["gemini"], scope="user")
    assert link.is_symlink() and not (project / "memory").exists()  # refused before any write

    link.unlink()
    link.write_text('{"ui": {}}\n')
    link.chmod(0o444)
    with pytest.raises(WriteError, match="is read-only: workmem does not replace it"):
        setup(project, home=home, platforms=["gemini"], scope="user")
    assert link.read_text() == '{"ui": {}}\n'
    assert stat.S_IMODE(link.stat().st_mode) == 0o444 and not (project / "memory").exists()


def test_a_broken_jsonc_file_names_the_line(project: Path, on_path: Path) -> None:
    settings = project / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  // fine\n  "ui": {\n  /* never closed\n}\n')
    with pytest.raises(
        Exception, match=r"settings\.json:4: not valid JSON \(a comment is never closed\)"
    ):
        setup(project, home=project.parent / "home", platforms=["gemini"])
    assert not (project / "memory").exists()


@pytest.mark.parametrize("present", [True, False])
def test_a_hook_whose_workmem_is_gone_exits_0_without_a_word(
    project: Path, on_path: Path, present: bool
) -> None:
    store = Store(Workspace(project))
    install(store, "cursor", project=project, home=project.parent / "home", command="workmem")
    hooks = json.loads((project / ".cursor" / "hooks.json").read_text())["hooks"]
    command = hooks["sessionStart"][0]
    env = {**os.environ, "WORKMEM_ROOT": str(project)}
    if not present:
        env["PATH"] = "/usr/bin:/bin"  # the tool was removed before the hooks
    done = subprocess.run(
        ["/bin/sh", "-c", command["command"]],
        input=json.dumps({"conversation_id": "c1", "cwd": str(project)}),
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert ("Your Memory Session ID is" in done.stdout) is present
    assert (project / "memory" / "index.md").exists() is present


def test_setup_says_when_the_plugin_runs_hooks_too(project: Path, on_path: Path) -> None:
    home = project.parent / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"enabledPlugins": {"workmem@workmem": True}})
    )
    (home / ".gemini" / "extensions" / "workmem").mkdir(parents=True)
    (home / ".gemini" / "extensions" / "workmem" / "gemini-extension.json").write_text("{}")
    report = setup(project, home=home, platforms=["claude-code", "gemini", "codex"])
    both = [w for w in report.warnings if "its hooks run as well as these" in w]
    assert len(both) == 2 and "Claude Code" in both[0] and "Gemini CLI" in both[1]
