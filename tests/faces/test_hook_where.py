"""A hook writes only where a project is.

The payload's ``cwd`` is the agent's word for where it runs. A folder that is no project
(no git, no ``workmem.toml``, ``MEMORY.md`` or ``memory/``), the home folder, the
filesystem's root: a hook told any of them answers nothing and leaves every byte as it
was, at every event, its log included. A git project, a folder that already holds memory,
or a root the user named, is acted on as before.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.cli import main
from workmem.hooks.where import holds_memory, hook_workspace, is_project
from workmem.root import CONFIG, CWD, ENV, GIT

from ..safety.util import changes, snapshot

EVENTS = ("SessionStart", "UserPromptSubmit", "PreCompact", "Stop", "SessionEnd")


@pytest.fixture
def no_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No root named by the user: the payload's cwd decides, as in a user-scope hook."""
    for name in ("WORKMEM_ROOT", "WORKMEM_SESSION_ID", "WORKMEM_AGENT_NAME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 13:18")
    monkeypatch.setenv("WORKMEM_HOOK_FOREGROUND", "1")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def fire(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    event: str,
    cwd: Path | str,
) -> str:
    payload = {"session_id": "s-1", "cwd": str(cwd), "prompt": "狀態更新", "source": "startup"}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    assert main(["hook", event, "--platform", "claude-code"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("event", EVENTS)
def test_a_folder_that_is_no_project_gets_nothing(
    event: str,
    no_root: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = no_root / "downloads" / "random"
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("someone's files")
    before = snapshot(no_root)
    assert fire(capsys, monkeypatch, event, folder) == ""
    assert changes(before, snapshot(no_root)) == []


def test_the_home_folder_is_no_project_even_as_a_git_repository(
    no_root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dotfiles repository in the home folder makes every folder under it a git folder;
    an agent started in ``~/Downloads`` is still in no project."""
    home = no_root / "home"
    (home / ".git").mkdir()
    (home / "Downloads").mkdir()
    before = snapshot(no_root)
    for event in EVENTS:
        assert fire(capsys, monkeypatch, event, home / "Downloads") == ""
        assert fire(capsys, monkeypatch, event, home) == ""
    assert changes(before, snapshot(no_root)) == []


def test_the_filesystems_root_is_no_project(monkeypatch: pytest.MonkeyPatch) -> None:
    """Judged without firing a hook there: a regression must not write to ``/``."""
    monkeypatch.delenv("WORKMEM_ROOT", raising=False)
    assert hook_workspace(None, Path("/")) is None
    assert not is_project(Path("/"), GIT) and not is_project(Path("/"), CWD)


def test_a_git_project_is_started_at_its_top_level_not_in_the_subfolder(
    no_root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = no_root / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "src" / "deep").mkdir(parents=True)
    out = fire(capsys, monkeypatch, "SessionStart", project / "src" / "deep")
    assert "Your Memory Session ID is" in out
    assert (project / "memory" / "index.md").is_file()
    assert not (project / "src" / "memory").exists()


def test_a_folder_that_already_holds_memory_is_a_project(
    no_root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No git, but the user started memory there (``workmem init`` or a MEMORY.md)."""
    notes = no_root / "notes"
    notes.mkdir()
    (notes / "MEMORY.md").write_text("# Memory\n")
    out = fire(capsys, monkeypatch, "SessionStart", notes)
    assert "Your Memory Session ID is" in out
    assert (notes / "memory" / "index.md").is_file()


def test_a_root_the_user_named_is_used_whatever_the_payload_says(
    no_root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = no_root / "chosen"
    chosen.mkdir()
    elsewhere = no_root / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv("WORKMEM_ROOT", str(chosen))
    out = fire(capsys, monkeypatch, "SessionStart", elsewhere)
    assert "Your Memory Session ID is" in out
    assert (chosen / "memory" / "index.md").is_file()
    assert list(elsewhere.iterdir()) == []


def test_what_counts_as_a_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    plain = tmp_path / "plain"
    plain.mkdir()
    assert not holds_memory(plain)
    assert not is_project(plain, CWD)
    assert is_project(plain, GIT)
    assert is_project(plain, CONFIG) and is_project(plain, ENV)
    (plain / "memory").mkdir()
    assert holds_memory(plain) and is_project(plain, CWD)
    home = tmp_path / "home"
    home.mkdir()
    assert not is_project(home, GIT)
    (home / "MEMORY.md").write_text("")
    assert is_project(home, GIT)  # memory the user keeps there
