"""The command hooks run: one that lasts, a warning when it will not, doctor when it broke."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workmem.cli import main
from workmem.doctor import run as run_doctor
from workmem.platforms.hook_command import development_venv, executable_of, shell_word
from workmem.platforms.setup import setup
from workmem.root import Workspace

from .util import workmem_script


def _venv(folder: Path) -> Path:
    """A virtualenv's shape: pyvenv.cfg and bin/workmem (the parts the check looks at)."""
    (folder / "bin").mkdir(parents=True)
    (folder / "pyvenv.cfg").write_text("home = /usr/bin\n")
    return workmem_script(folder / "bin")


def test_editable_install_in_a_clone_is_called_out(tmp_path: Path) -> None:
    clone = tmp_path / "workmem-clone"
    clone.mkdir()
    script = _venv(clone / ".venv")
    info = clone / ".venv" / "lib" / "python3.11" / "site-packages" / "workmem-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "direct_url.json").write_text(
        json.dumps({"url": f"file://{clone}", "dir_info": {"editable": True}})
    )
    warning = development_venv(script)
    assert warning is not None
    assert f"editable install of the source folder {clone}" in warning
    assert "pipx install" in warning and "--command" in warning


def test_a_projects_own_virtualenv_is_called_out(tmp_path: Path) -> None:
    project = tmp_path / "someproject"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    warning = development_venv(_venv(project / ".venv"))
    assert warning is not None and f"the virtualenv of the project {project}" in warning


def test_a_tool_install_behind_a_link_on_path_is_not(tmp_path: Path) -> None:
    """pipx and uv put a link in ~/.local/bin to a virtualenv of their own: that lasts."""
    real = _venv(tmp_path / "share" / "pipx" / "venvs" / "workmem")
    link = tmp_path / "local" / "bin" / "workmem"
    link.parent.mkdir(parents=True)
    link.symlink_to(real)
    assert development_venv(link) is None
    assert development_venv(real) is None


def test_setup_reports_the_development_virtualenv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    script = _venv(project / ".venv")
    monkeypatch.setenv("PATH", f"{script.parent}:/usr/bin:/bin")
    report = setup(project, home=tmp_path / "home", platforms=["cursor"])
    assert report.command is not None and report.command.path == script
    assert any("virtualenv of the project" in w for w in report.warnings)


@pytest.mark.parametrize(
    ("path", "word"),
    [
        ("/opt/tools/bin/workmem", "/opt/tools/bin/workmem"),
        ("/my tools/workmem", "'/my tools/workmem'"),
    ],
)
def test_command_is_one_shell_word(path: str, word: str) -> None:
    assert shell_word(Path(path)) == word
    assert executable_of(f"{word} hook SessionStart --platform codex") == path


def test_doctor_finds_a_hook_whose_command_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project, home = tmp_path / "proj", tmp_path / "home"
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("WORKMEM_ROOT", str(project))
    script = workmem_script(tmp_path / "moved-clone" / "bin")
    setup(project, home=home, platforms=["claude-code", "openclaw"], command=str(script))
    setup(project, home=home, platforms=["codex"], scope="user", command=str(script))
    broken = [f for f in run_doctor(Workspace(project)).findings if f.kind == "hook-command"]
    assert broken == []  # each command exists and answers --version

    script.unlink()  # the clone moved
    report = run_doctor(Workspace(project))
    found = [f.message for f in report.findings if f.kind == "hook-command"]
    assert len(found) == 3  # one per configuration, not one per event
    assert any(".claude/settings.local.json" in m for m in found)  # a path: the personal file
    assert any("hooks/workmem/HOOK.md" in m for m in found)
    assert any(str(home / ".codex" / "hooks.json") in m for m in found)
    assert all(f"{script} does not exist" in m for m in found)
    assert main(["doctor"]) == 1
    assert "run `workmem setup` again" in capsys.readouterr().out


def test_doctor_finds_a_command_that_does_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, home = tmp_path / "proj", tmp_path / "home"
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    script = workmem_script(tmp_path / "bin")
    setup(project, home=home, platforms=["gemini"], command=str(script))
    script.write_text("#!/bin/sh\necho 'No module named workmem' >&2\nexit 1\n")  # venv rebuilt
    findings = run_doctor(Workspace(project)).findings
    messages = [f.message for f in findings if f.kind == "hook-command"]
    assert len(messages) == 1 and "--version failed: No module named workmem" in messages[0]
