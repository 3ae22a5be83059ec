"""Cloud-folder conflict copies, named the way each service names them."""

from __future__ import annotations

import io
import json
import shutil
import sys
from datetime import datetime
from pathlib import Path

import pytest

from tests.sync.util import Machine
from workmem.board import Board
from workmem.cli import main
from workmem.doctor import run
from workmem.files.tables import TableDocument
from workmem.journal.writer import MemoryWriter
from workmem.sync.copies import ARCHIVE_DIR, classify, copies_notice, find_copies, merge_copies

T0 = datetime(2026, 5, 25, 13, 18)

#: (service, the copy's name for memory/index.md)
BOARD_COPIES = [
    ("Syncthing", "index.sync-conflict-20260525-131800-ABCDEFG.md"),
    ("Dropbox", "index (Alice's conflicted copy 2026-05-25).md"),
    ("Dropbox", "index (conflicted copy 2026-05-25).md"),
    ("Dropbox", "index (Case Conflict).md"),
    ("Dropbox", "index (Selective Sync Conflict).md"),
    ("Obsidian Sync", "index (Conflicted copy MacBook 202605251318).md"),
    ("Google Drive", "index (1).md"),
    ("OneDrive", "index-DESKTOP-AB12CD3.md"),
    ("iCloud Drive", "index 2.md"),
]


@pytest.mark.parametrize(("service", "name"), BOARD_COPIES)
def test_each_service_name_is_recognised(service: str, name: str) -> None:
    copy = classify(f"memory/{name}")
    assert copy is not None
    assert (copy.service, copy.canonical_rel, copy.kind) == (service, "memory/index.md", "board")


@pytest.mark.parametrize(
    ("rel", "canonical", "kind"),
    [
        ("memory/2026-05-25 (1).md", "memory/2026-05-25.md", "log"),
        (
            "memory/events.sync-conflict-20260525-131800-ABCDEFG.json",
            "memory/events.json",
            "events",
        ),
        ("memory/state (Bob's conflicted copy 2026-05-25).json", "memory/state.json", "state"),
        ("MEMORY (Case Conflict).md", "MEMORY.md", "memory"),
        (
            "memory/sessions/2026-05-25-1318-a-agent 2.md",
            "memory/sessions/2026-05-25-1318-a-agent.md",
            "sections",
        ),
        ("memory/project_api-LAPTOP-7.md", "memory/project_api.md", "typed"),
    ],
)
def test_copies_of_every_kind(rel: str, canonical: str, kind: str) -> None:
    copy = classify(rel)
    assert copy is not None and (copy.canonical_rel, copy.kind) == (canonical, kind)


@pytest.mark.parametrize(
    "rel",
    [
        "memory/index.md",
        "MEMORY.md",
        "memory/2026-05-25.md",
        "memory/project_auth-v2.md",  # a real topic, not OneDrive's computer name
        "memory/sessions/2026-05-25-1318-cursor-main-agent-2.md",
        "memory/log-index.md",
        "memory/notes (draft).md",  # not a copy of anything workmem owns
        "memory/index (1) (1).md",  # a copy of a copy is not a copy of ours
    ],
)
def test_our_own_names_are_not_copies(rel: str) -> None:
    assert classify(rel) is None


def two_versions(tmp_path: Path) -> tuple[Machine, str, str]:
    """A workspace whose board a cloud service split: the file and the other machine's copy."""
    main_root = Machine("here", tmp_path / "vault")
    main_root.root.mkdir()
    with main_root.env(T0):
        Board(main_root.root).register(topic="Shared")
        MemoryWriter(main_root.root).end_session(session_summary="first", resumption_note="r")
    other = Machine("there", tmp_path / "other")
    shutil.copytree(main_root.root, other.root)
    with main_root.env(T0.replace(hour=14)):
        here_id = Board(main_root.root).register(topic="Here").session_id
    with other.env(T0.replace(hour=15)):
        there_id = Board(other.root).register(topic="There").session_id
    return main_root, here_id, there_id


@pytest.mark.parametrize(("service", "name"), BOARD_COPIES)
def test_doctor_finds_and_merge_copies_merges_each_service(
    tmp_path: Path, service: str, name: str
) -> None:
    machine, here_id, there_id = two_versions(tmp_path)
    other_board = (tmp_path / "other" / "memory" / "index.md").read_text()
    (machine.root / "memory" / name).write_text(other_board)
    (machine.root / "memory" / "sessions" / f"{there_id}.md").write_bytes(
        (tmp_path / "other" / "memory" / "sessions" / f"{there_id}.md").read_bytes()
    )
    with machine.env(T0.replace(hour=16)):
        report = run(machine.workspace)
        kinds = [f.kind for f in report.findings]
        assert kinds == ["file-without-row", "conflict-copy"]
        assert service in report.findings[1].message
        notice = copies_notice(machine.workspace)
        assert notice is not None and "--merge-copies" in notice and "\n" not in notice
        merged = merge_copies(machine.workspace)
        assert [m["copy"] for m in merged.merged] == [f"memory/{name}"] and not merged.conflicts
        board = {
            r["Session ID"]
            for r in TableDocument.parse(
                (machine.root / "memory" / "index.md").read_text()
            ).records()
        }
        assert {here_id, there_id} <= board
        assert not (machine.root / "memory" / name).exists()
        archived = list((machine.root / ARCHIVE_DIR).rglob(name))
        assert len(archived) == 1 and archived[0].read_text() == other_board
        assert run(machine.workspace).healthy
        assert find_copies(machine.workspace) == []


def test_a_name_without_its_original_beside_it_is_no_copy(tmp_path: Path) -> None:
    """Only a file whose original is there is a copy: nothing else is ever moved."""
    machine, _, _ = two_versions(tmp_path)
    log = machine.root / "memory" / "2026-05-25.md"
    text = log.read_text()
    log.unlink()
    lone = machine.root / "memory" / "2026-05-25 (1).md"
    lone.write_text(text)
    with machine.env(T0):
        assert find_copies(machine.workspace) == []
        assert merge_copies(machine.workspace).merged == []
    assert lone.read_text() == text and not log.exists()


def test_a_broken_copy_is_kept_inside_and_reported(tmp_path: Path) -> None:
    machine, _, _ = two_versions(tmp_path)
    with machine.env(T0):
        MemoryWriter(machine.root).note_event("purchase", "I bought a lamp on 3/15.")
    (machine.root / "memory" / "events (1).json").write_text("{broken")
    with machine.env(T0):
        report = merge_copies(machine.workspace)
        assert report.conflicts
        findings = [f.kind for f in run(machine.workspace).findings]
    assert findings == ["kept-version"]
    assert (
        "{broken"
        in json.loads((machine.root / "memory/events.json").read_text())["workmem_kept_versions"][
            0
        ]["text"]
    )


def test_doctor_fix_merges_copies(tmp_path: Path) -> None:
    machine, _, _ = two_versions(tmp_path)
    (machine.root / "memory" / "index 2.md").write_text(
        (tmp_path / "other" / "memory" / "index.md").read_text()
    )
    with machine.env(T0):
        report = run(machine.workspace, fix=True)
    assert any("merged conflict copy" in line for line in report.repairs)
    assert not any(f.kind == "conflict-copy" for f in report.findings)


def test_session_start_hook_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, _, _ = two_versions(tmp_path)
    (machine.root / "memory" / "index (1).md").write_text(
        (tmp_path / "other" / "memory" / "index.md").read_text()
    )
    payload = {"session_id": "abc", "source": "startup", "cwd": str(machine.root)}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    with machine.env(T0):
        assert main(["hook", "SessionStart", "--platform", "claude-code"]) == 0
    context = json.loads(capsys.readouterr().out)["hookSpecificOutput"]["additionalContext"]
    lines = [line for line in context.splitlines() if "conflict copies" in line]
    assert len(lines) == 1 and "memory/index (1).md" in lines[0]


def test_merge_copies_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    machine, _, _ = two_versions(tmp_path)
    (machine.root / "memory" / "index (1).md").write_text(
        (tmp_path / "other" / "memory" / "index.md").read_text()
    )
    with machine.env(T0):
        assert main(["sync", "--merge-copies"]) == 0
        assert "Merged memory/index (1).md (Google Drive) into memory/index.md" in (
            capsys.readouterr().out
        )
        assert main(["sync", "--merge-copies"]) == 0
    assert "No conflict copies found." in capsys.readouterr().out
