"""``workmem setup``: detect, scaffold, hooks, directive, git-ignore; idempotent, undoable."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from workmem.cli import main
from workmem.errors import FormatError, OutsideRootError, UsageError
from workmem.hooks.events import PLATFORM_EVENTS, PLATFORMS
from workmem.platforms.bootstrap import MARKER
from workmem.platforms.hook_command import installed_commands
from workmem.platforms.hook_line import program_of
from workmem.platforms.setup import setup

from .util import tree, workmem_script

USER_SETTINGS = {
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]},
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git project with a Codex AGENTS.md, a home with ~/.claude, nothing of workmem."""
    folder = tmp_path / "proj"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    (folder / "AGENTS.md").write_text("# House rules\n\n- Run the tests.\n")
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no workmem on PATH unless a test adds one
    for name in ("WORKMEM_ROOT", "WORKMEM_PLATFORM", "WORKMEM_AGENT_NAME", "CODEX_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name in ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_PROJECT_DIR", "GEMINI_CLI"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def command(tmp_path: Path) -> Path:
    return workmem_script(tmp_path / "tools" / "bin")


def test_detected_agents_get_memory_hooks_directive_and_ignore(
    project: Path, command: Path
) -> None:
    report = setup(project, home=project.parent / "home", command=str(command))
    assert [key for key, _, _ in report.platforms] == ["claude-code", "codex"]
    assert report.verified and report.changed
    for name in ("MEMORY.md", "workmem.toml", "memory/state.json", "memory/threads.md"):
        assert (project / name).is_file(), name
    home = project.parent / "home"
    for platform in ("claude-code", "codex"):
        found = installed_commands(platform, "project", project, home)
        assert len(found) == len(PLATFORM_EVENTS[platform])
        assert all(program_of(c) == str(command) for c in found)
    agents = (project / "AGENTS.md").read_text()
    assert agents.startswith("# House rules\n\n- Run the tests.\n") and MARKER in agents
    assert not (project / "CLAUDE.md").exists()  # Claude Code has its own memory
    assert (project / "memory" / ".workmem" / ".gitignore").read_text().splitlines()[-1] == "*"
    ignored = subprocess.run(
        ["git", "-C", str(project), "check-ignore", "-q", "memory/.workmem/search.sqlite"],
        check=False,
    )
    assert ignored.returncode == 0  # git itself agrees
    status = subprocess.run(
        ["git", "-C", str(project), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert ".workmem" not in status


def test_second_run_changes_nothing(project: Path, command: Path) -> None:
    setup(project, home=project.parent / "home", command=str(command))
    before = tree(project)
    again = setup(project, home=project.parent / "home", command=str(command))
    assert not again.changed and again.verified
    assert {s.action for s in again.steps} <= {"unchanged", "skipped"}
    assert tree(project) == before


def test_dry_run_writes_nothing_and_shows_each_change(project: Path, command: Path) -> None:
    before = tree(project, skip_locks=False)
    plan = setup(project, home=project.parent / "home", command=str(command), dry_run=True)
    assert tree(project, skip_locks=False) == before
    assert not (project / "memory").exists()
    assert plan.changed and not plan.verified
    actions = {(s.part, s.platform): s.action for s in plan.steps}
    assert actions[("hooks", "codex")] == "would-add"
    assert actions[("boot directive", "codex")] == "would-add"
    assert actions[("settings", None)] == "would-create"
    changes = {name: after for s in plan.steps for name, (_, after) in s.changes.items()}
    assert MARKER in changes["AGENTS.md"] and changes["AGENTS.md"].startswith("# House rules")
    # a path of this user's goes to Claude Code's personal settings file
    assert "hook SessionStart --platform claude-code" in changes[".claude/settings.local.json"]
    # and the real run then writes exactly what the dry run showed
    setup(project, home=project.parent / "home", command=str(command))
    for name, after in changes.items():
        assert (project / name).read_text() == after, name


def test_uninstall_leaves_the_project_as_it_was_plus_the_memory(
    project: Path, command: Path
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(USER_SETTINGS, indent=2) + "\n")
    before = tree(project)
    setup(project, home=project.parent / "home", platforms=list(PLATFORMS), command=str(command))
    (project / "memory" / "2026-05-25.md").write_text("# 2026-05-25\n\nkept\n")
    memory_before = {k: v for k, v in tree(project).items() if k.startswith("memory/")}
    report = setup(project, home=project.parent / "home", uninstall=True)
    assert report.verified and report.changed
    after = tree(project)
    memory = {"MEMORY.md", "workmem.toml"}
    assert {k: v for k, v in after.items() if not k.startswith("memory/") and k not in memory} == (
        before
    )  # the user's own hook and settings byte for byte; every file setup made is gone
    assert {k: v for k, v in after.items() if k.startswith("memory/")} == memory_before
    assert not (project / ".codex").exists() and not (project / "hooks").exists()
    again = setup(project, home=project.parent / "home", uninstall=True)
    assert not again.changed


def test_agent_name_is_kept_in_workmem_toml_and_names_sessions(
    project: Path, command: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup(
        project,
        home=project.parent / "home",
        platforms=["codex"],
        agent_name="backend-bot",
        command=str(command),
    )
    assert 'agent_name = "backend-bot"' in (project / "workmem.toml").read_text()
    assert main(["session", "start", "--now", "2026-05-25 13:18"]) == 0
    assert "2026-05-25-1318-backend-bot" in capsys.readouterr().out


def test_agent_name_asked_for_is_written_into_existing_settings(
    project: Path, command: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--agent-name on a project that has a workmem.toml: its line is replaced (or added on
    top), every other line kept, and the summary says so; not silently ignored."""
    toml = project / "workmem.toml"
    toml.write_text('# ours\nagent_name = "mine"\n[board]\nstale_days = 3\n')
    report = setup(project, home=project.parent / "home", agent_name="other", command=str(command))
    assert toml.read_text() == '# ours\nagent_name = "other"\n[board]\nstale_days = 3\n'
    step = next(s for s in report.steps if s.part == "settings")
    assert step.action == "updated" and 'was "mine"' in step.detail
    toml.write_text('[board]\nstale_days = 3\nagent_name = "board-only"\n')  # not top level
    setup(project, home=project.parent / "home", agent_name="third", command=str(command))
    assert toml.read_text().startswith('agent_name = "third"\n[board]\n')
    assert (
        main(["setup", "--platform", "codex", "--agent-name", "fourth", "--command", str(command)])
        == 0
    )
    assert "updated       settings: workmem.toml" in capsys.readouterr().out
    again = setup(project, home=project.parent / "home", agent_name="fourth", command=str(command))
    assert not again.changed


@pytest.mark.parametrize("name", ["../escape", "a/b", "Big Name", ""])
def test_hostile_agent_names_are_refused_before_writing(
    project: Path, command: Path, name: str
) -> None:
    before = tree(project, skip_locks=False)
    with pytest.raises(UsageError):
        setup(project, home=project.parent / "home", agent_name=name, command=str(command))
    assert tree(project, skip_locks=False) == before


def test_no_agent_found_says_what_it_looked_for_and_writes_nothing(
    project: Path, command: Path
) -> None:
    (project / "AGENTS.md").unlink()
    empty_home = project.parent / "empty-home"
    empty_home.mkdir()
    with pytest.raises(UsageError, match="no agent found") as caught:
        setup(project, home=empty_home, command=str(command))
    assert "--platform" in str(caught.value) and "~/.claude/" in str(caught.value)
    assert tree(project, skip_locks=False) == {}


def test_broken_agent_config_stops_setup_before_any_write(project: Path, command: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"hooks": {"SessionStart": [')
    before = tree(project, skip_locks=False)
    with pytest.raises(FormatError, match=r"settings\.json"):
        setup(project, home=project.parent / "home", command=str(command))
    assert tree(project, skip_locks=False) == before  # not even the memory files


def test_legacy_workspace_is_sent_to_migrate(project: Path, command: Path) -> None:
    (project / "AGENT.md").write_text("# Agent\n")
    (project / "MEMORY.md").write_text("# Memory\n\n- likes tea\n")
    (project / "memory").mkdir()
    (project / "memory" / "2026-05-20.md").write_text("# 2026-05-20\n\n- did things\n")
    before = tree(project, skip_locks=False)
    with pytest.raises(UsageError, match="migrate"):
        setup(project, home=project.parent / "home", command=str(command))
    assert tree(project, skip_locks=False) == before


def test_instructions_file_linked_out_of_the_project_is_refused(
    project: Path, command: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("someone else's file\n")
    (project / "AGENTS.md").unlink()
    (project / "AGENTS.md").symlink_to(outside)
    with pytest.raises(OutsideRootError, match=r"AGENTS\.md leads outside"):
        setup(project, home=project.parent / "home", command=str(command))
    assert outside.read_text() == "someone else's file\n"
    assert not (project / "memory").exists()


def test_linked_config_folder_is_refused(project: Path, command: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / ".claude").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OutsideRootError):
        setup(project, home=project.parent / "home", command=str(command))
    assert list(elsewhere.iterdir()) == []
    assert not (project / "memory").exists()


@pytest.mark.parametrize(
    ("value", "message"),
    [("relative/workmem", "absolute path"), ("/no/such/workmem", "not an executable")],
)
def test_command_option_is_checked(project: Path, value: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        setup(project, home=project.parent / "home", command=value)
    assert not (project / "memory").exists()


def test_workmem_on_path_is_the_default_command(
    project: Path, command: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", f"{command.parent}:/usr/bin:/bin")
    report = setup(project, home=project.parent / "home", platforms=["cursor"])
    assert report.command is not None and report.command.path == command
    assert report.command.source == f"on your PATH: {command}" and report.command.warning is None
    # by name, not by path: the shared file holds nothing of this user's machine
    assert report.command.program == "workmem" and not report.command.personal
    found = installed_commands("cursor", "project", project, project.parent / "home")
    assert found and all(program_of(c) == "workmem" for c in found)
    assert str(command.parent) not in (project / ".cursor" / "hooks.json").read_text()


def test_user_scope_writes_hooks_in_home(project: Path, command: Path) -> None:
    home = project.parent / "home"
    setup(project, home=home, platforms=["gemini"], scope="user", command=str(command))
    assert installed_commands("gemini", "user", project, home)
    assert not installed_commands("gemini", "project", project, home)
    assert MARKER in (project / "GEMINI.md").read_text()


def test_cli_prints_what_it_did_then_nothing_to_change(
    project: Path, command: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["setup", "--platform", "codex,gemini", "--command", str(command)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"hooks run: {command}" in out
    assert "added         Codex (OpenAI) hooks: .codex/hooks.json" in out
    assert "Done: every change above was read back from disk." in out
    assert main(argv) == 0
    assert "Nothing to change" in capsys.readouterr().out
    assert main([*argv, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] and payload["verified"] and not payload["changed"]


def test_cli_dry_run_prints_a_diff(
    project: Path, command: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["setup", "--platform", "codex", "--command", str(command), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "+++ AGENTS.md (after)" in out and f"+# {MARKER}" in out
    assert "Dry run: nothing was written." in out
    assert not (project / "memory").exists()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("AGENTS.md", b"# Regeln f\xfcr das Team\n"),  # not UTF-8
        ("workmem.toml", b"agent_name = \n"),  # not TOML
        (".codex/hooks.json", b"[1, 2]\n"),  # JSON, but not an object
    ],
)
def test_unreadable_files_stop_setup_with_nothing_written(
    project: Path, command: Path, name: str, data: bytes
) -> None:
    target = project / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    before = tree(project, skip_locks=False)
    with pytest.raises(FormatError, match=name.replace(".", r"\.")):
        setup(project, home=project.parent / "home", command=str(command))
    assert tree(project, skip_locks=False) == before


def test_uninstall_keeps_crlf_instructions_byte_for_byte(project: Path, command: Path) -> None:
    agents = project / "AGENTS.md"
    original = "\ufeff# House rules\r\n\r\n- Run the tests.\r\n".encode()
    agents.write_bytes(original)
    setup(project, home=project.parent / "home", platforms=["codex"], command=str(command))
    assert MARKER.encode() in agents.read_bytes()
    setup(project, home=project.parent / "home", uninstall=True)
    assert agents.read_bytes() == original
