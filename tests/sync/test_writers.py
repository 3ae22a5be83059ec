"""IDs unique per writer: two clones on one machine, cloud folders, the seed's form alone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from tests.sync.util import Machine, git, make_machines
from workmem.board import Board
from workmem.config import load_settings
from workmem.journal.writer import MemoryWriter
from workmem.root import Workspace
from workmem.sync.git_sync import sync
from workmem.sync.writers import cloud_service, several_writers, writer_tag

T0 = datetime(2026, 5, 25, 13, 18)
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def same_machine(machines: list[Machine]) -> list[Machine]:
    """The clones as one computer: one machine name for all of them."""
    return [Machine("desk", m.root) for m in machines]


@needs_git
def test_two_clones_on_one_machine_never_issue_the_same_id(tmp_path: Path) -> None:
    one, two = same_machine(make_machines(tmp_path, 2))
    ids = []
    for machine in (one, two):
        with machine.env(T0):
            ids.append(Board(machine.root).register(topic=f"on {machine.root.name}").session_id)
    assert ids[0] != ids[1]
    assert ids[0] == "2026-05-25-1318-cursor-main-agent-desk"
    assert ids[1] == "2026-05-25-1318-cursor-main-agent-desk2"
    for machine in (one, two, one):
        with machine.env(T0):
            sync(machine.workspace)
    for machine in (one, two):
        topics = {row.topic for row in Board(machine.root).list()}
        assert topics == {"on clone0", "on clone1"}


def test_a_root_keeps_its_tag_and_a_renamed_machine_gets_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKMEM_MACHINE", "desk")
    first, second = tmp_path / "a", tmp_path / "b"
    assert (writer_tag(first), writer_tag(second), writer_tag(first)) == ("desk", "desk2", "desk")
    monkeypatch.setenv("WORKMEM_MACHINE", "laptop")
    assert writer_tag(second) == "laptop"
    assert writer_tag(first) == "laptop2"


def test_roots_asking_at_once_get_different_tags(tmp_path: Path) -> None:
    """The registry is locked: processes registering roots in parallel never share a tag."""
    code = (
        "import sys; from pathlib import Path; from workmem.sync.writers import writer_tag; "
        "print(writer_tag(Path(sys.argv[1])))"
    )
    env = {**os.environ, "WORKMEM_MACHINE": "desk"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path / f"root{n}")],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for n in range(6)
    ]
    tags = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert len(set(tags)) == 6, tags


@pytest.mark.parametrize(
    ("where", "service"),
    [
        ("Dropbox/notes", "Dropbox"),
        ("OneDrive - Contoso/work", "OneDrive"),
        ("Library/CloudStorage/GoogleDrive-me@example.com/My Drive/vault", "Google Drive"),
        ("Library/Mobile Documents/iCloud~md~obsidian/Documents/vault", "iCloud Drive"),
    ],
)
def test_cloud_folders_are_recognised_by_their_names(
    tmp_path: Path, where: str, service: str
) -> None:
    root = tmp_path / where
    root.mkdir(parents=True)
    assert cloud_service(root) == service


def test_cloud_folders_are_recognised_by_their_marks(tmp_path: Path) -> None:
    synced = tmp_path / "shared"
    (synced / "vault").mkdir(parents=True)
    assert cloud_service(synced / "vault") is None
    (synced / ".stfolder").mkdir()
    assert cloud_service(synced / "vault") == "Syncthing"
    vault = tmp_path / "obsidian"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / ".obsidian" / "core-plugins.json").write_text(json.dumps({"sync": False}))
    assert cloud_service(vault) is None
    (vault / ".obsidian" / "core-plugins.json").write_text(json.dumps({"sync": True}))
    assert cloud_service(vault) == "Obsidian Sync"
    assert cloud_service(tmp_path / "plain") is None
    assert cloud_service(Path("design-API")) is None


def test_two_machines_on_a_cloud_folder_issue_different_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No sync set up: the folder's service is enough to tag IDs, sessions and events."""
    root = tmp_path / "Dropbox" / "project"
    root.mkdir(parents=True)
    monkeypatch.setenv("WORKMEM_ROOT", str(root))
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 13:18")
    monkeypatch.setenv("WORKMEM_PLATFORM", "cursor")
    ids, events = [], []
    for name in ("alpha", "beta"):
        monkeypatch.setenv("WORKMEM_MACHINE", name)
        ids.append(Board(root).register(topic=name).session_id)
        events.append(MemoryWriter(root).note_event("purchase", f"{name} bought a lamp").id)
    assert ids == [
        "2026-05-25-1318-cursor-main-agent-alpha",
        "2026-05-25-1318-cursor-main-agent-beta",
    ]
    assert events == ["evt-00001-alpha", "evt-00002-beta"]
    assert "Dropbox" in str(several_writers(root, load_settings(Workspace(root))))
    (root / "workmem.toml").write_text("[sync]\nmachine_ids = false\n")
    assert Board(root).start().session_id == "2026-05-25-1318-cursor-main-agent"


def test_one_writer_keeps_the_seeds_form(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKMEM_MACHINE", "desk")
    assert Board(root).start().session_id == "2026-05-25-1318-cursor-main-agent"
    assert MemoryWriter(root).note_event("purchase", "I bought a lamp").id == "evt-00001"


def test_an_unwritable_home_still_separates_roots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the config folder should be")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))
    monkeypatch.setenv("WORKMEM_MACHINE", "desk")
    first, second = writer_tag(tmp_path / "a"), writer_tag(tmp_path / "b")
    assert first != second and first == writer_tag(tmp_path / "a")


@needs_git
def test_the_memory_commit_names_the_writer(tmp_path: Path) -> None:
    one, two = same_machine(make_machines(tmp_path, 2))
    with one.env(T0):
        Board(one.root).start()
    with two.env(T0):
        Board(two.root).start()
        sync(two.workspace)
    message = git(two.root, "log", "-1", "--format=%s", "workmem")
    assert "desk2" in message
