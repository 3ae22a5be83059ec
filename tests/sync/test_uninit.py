"""``workmem sync uninit`` undoes ``sync init``: every file byte for byte, the drivers gone."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import pytest

from tests.sync.util import Machine, git
from workmem.board import Board
from workmem.cli import main
from workmem.sync.git_sync import sync
from workmem.sync.setup import init_sync
from workmem.sync.unsetup import uninit_sync

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
T0 = datetime(2026, 5, 25, 13, 18)


def project(tmp_path: Path, settings: str | None) -> Machine:
    top = tmp_path / "project"
    top.mkdir()
    git(top, "init", "--quiet")
    git(top, "config", "user.email", "t@example.invalid")
    (top / ".gitattributes").write_text("*.png binary\r\n")  # the user's own, CRLF kept
    (top / ".gitignore").write_bytes(b"build/\nnode_modules/")  # no newline at the end
    if settings is not None:
        (top / "workmem.toml").write_text(settings)
    return Machine("solo", top)


def files(machine: Machine) -> dict[str, bytes | None]:
    top = machine.root
    paths = [".gitattributes", ".gitignore", "workmem.toml", ".git/info/exclude", ".git/config"]
    return {p: (top / p).read_bytes() if (top / p).exists() else None for p in paths}


@pytest.mark.parametrize(
    "settings",
    [None, 'agent_name = "tester-agent"\n', '[sync]\nbranch = "mem"\n', "[board]\nx = 1"],
)
def test_uninit_puts_every_file_back_byte_for_byte(tmp_path: Path, settings: str | None) -> None:
    machine = project(tmp_path, settings)
    before = files(machine)
    with machine.env(T0):
        init_sync(machine.workspace)
        Board(machine.root).register(topic="Kept memory")
        sync(machine.workspace)
        assert files(machine) != before
        assert main(["sync", "uninit"]) == 0
    assert files(machine) == before
    assert "workmem-" not in git(machine.root, "config", "--list", "--local")
    assert not (machine.root / ".git" / "workmem").exists()  # the derived work tree went
    branch = "mem" if settings and "mem" in settings else "workmem"
    assert "Kept memory" in git(machine.root, "show", f"{branch}:memory/index.md")
    assert "Kept memory" in (machine.root / "memory" / "index.md").read_text()
    with machine.env(T0):
        assert main(["sync"]) == 2  # set up again first
        assert init_sync(machine.workspace).changes  # and it can be


def test_a_file_changed_since_keeps_the_change(tmp_path: Path) -> None:
    machine = project(tmp_path, None)
    with machine.env(T0):
        init_sync(machine.workspace)
    attributes = machine.root / ".gitattributes"
    attributes.write_bytes(attributes.read_bytes() + b"*.jpg binary\n")
    with machine.env(T0):
        report = uninit_sync(machine.workspace)
    assert ".gitattributes" in report.restored
    assert attributes.read_bytes() == b"*.png binary\r\n*.jpg binary\n"


def test_without_a_record_only_workmems_part_goes(tmp_path: Path) -> None:
    """A clone set up by an older workmem, which kept no record."""
    machine = project(tmp_path, 'agent_name = "tester-agent"\n')
    with machine.env(T0):
        init_sync(machine.workspace)
    (machine.root / ".git" / "workmem" / "init.json").unlink()
    with machine.env(T0):
        uninit_sync(machine.workspace)
    assert (machine.root / ".gitattributes").read_bytes() == b"*.png binary\r\n"
    assert (machine.root / ".gitignore").read_bytes() == b"build/\nnode_modules/\n"
    assert (machine.root / "workmem.toml").read_text() == 'agent_name = "tester-agent"\n'
    assert "memory/" not in (machine.root / ".git" / "info" / "exclude").read_text()


def test_a_dry_run_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    machine = project(tmp_path, None)
    with machine.env(T0):
        init_sync(machine.workspace)
    after_init = files(machine)
    with machine.env(T0):
        assert main(["sync", "uninit", "--dry-run"]) == 0
    assert files(machine) == after_init
    assert "dry run" in capsys.readouterr().out
