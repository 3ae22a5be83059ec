"""Conflict markers: never written from text, recognised by every reader, merged by doctor."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.sync.util import git
from workmem.board import Board
from workmem.board.inspect import board_notice
from workmem.cli import main
from workmem.doctor import run
from workmem.errors import FormatError
from workmem.files.freetext import neutralize_block, neutralize_line, restore
from workmem.files.markers import UnfinishedMergeError, marker_line, split
from workmem.journal.writer import MemoryWriter
from workmem.root import Workspace
from workmem.sync.tree import memory_files
from workmem.sync.unfinished import start_notice

CONFLICT = "intro\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> feature\ntail"


def with_conflict(text: str, line_prefix: str, ours: str, theirs: str) -> str:
    """``text`` with the line starting ``line_prefix`` replaced by a git conflict block."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(line_prefix))
    lines[at : at + 1] = ["<<<<<<< HEAD", ours, "=======", theirs, ">>>>>>> other"]
    return "\n".join(lines)


def two_row_conflict(root: Path) -> tuple[str, str]:
    """The board after a plain merge of two branches that each registered a session."""
    first = Board(root).register(topic="Ours", sections={"Decisions": "D1"}).session_id
    board = root / "memory" / "index.md"
    text = board.read_text()
    row = next(line for line in text.split("\n") if line.startswith(f"| {first} "))
    other = row.replace(first, first + "-x").replace("| Ours |", "| Theirs |")
    board.write_text(with_conflict(text, f"| {first} ", row, other))
    return first, first + "-x"


def test_free_text_never_writes_a_marker_and_reads_back_as_written() -> None:
    safe = neutralize_block(CONFLICT)
    assert marker_line(safe) is None
    assert restore(safe) == CONFLICT
    assert neutralize_block(safe) == safe
    assert marker_line(neutralize_line("<<<<<<< HEAD")) is None
    assert marker_line("a\n<<<<<<<< eight is no marker\n") is None
    assert marker_line("a\n    <<<<<<< indented is no marker\n") is None


def test_text_given_to_commands_never_becomes_a_marker(root: Path) -> None:
    """Every command that takes free text: a pasted conflict is stored escaped."""
    text = CONFLICT
    sid = Board(root).register(topic="t", context=text, sections={"Decisions": text}).session_id
    Board(root).update(
        sid, summary=text, sections={"Next Actions": text}, fragment=f"## Notes\n{text}"
    )
    assert main(["session", "update", sid, "--context", text]) == 0
    assert main(["relay", "snapshot", "--force", "--in-progress", text, "--decision", text]) == 0
    assert main(["memory", "add", "--type", "project", "--topic", "auth", "--content", text]) == 0
    MemoryWriter(root).note_decision(text, text)
    MemoryWriter(root).end_session(session_summary=text, resumption_note=text)
    files = memory_files(root)
    assert len(files) > 8
    for rel, path in files.items():
        assert marker_line(path.read_text()) is None, rel
    assert "<<<<<<< HEAD" in restore((root / "memory" / "resumption.md").read_text())


def test_the_broken_board_is_said_to_be_an_unfinished_merge(root: Path) -> None:
    ours, theirs = two_row_conflict(root)
    with pytest.raises(UnfinishedMergeError) as caught:
        Board(root).list()
    message = str(caught.value)
    assert "memory/index.md:5:" in message and "unfinished merge" in message
    assert "no markdown table" not in message
    notice = board_notice(Workspace(root))
    assert notice is not None and "unfinished merge" in notice and "workmem doctor --fix" in notice
    report = run(Workspace(root))
    assert [f.kind for f in report.findings] == ["unfinished-merge"]
    fixed = run(Workspace(root), fix=True)
    assert any("merged the two versions" in line for line in fixed.repairs)
    assert {row.topic for row in Board(root).list()} == {"Ours", "Theirs"}
    assert {row.session_id for row in Board(root).list()} == {ours, theirs}
    assert board_notice(Workspace(root)) is None


def test_other_damage_gets_the_doctor_line_not_silence(root: Path) -> None:
    Board(root).start()
    (root / "memory" / "index.md").write_text("# Memory Index\n\nno table here\n")
    notice = board_notice(Workspace(root))
    assert notice is not None and "no markdown table found" in notice and "workmem doctor" in notice


@pytest.mark.parametrize(
    ("rel", "reader"),
    [
        ("memory/events.json", "events"),
        ("memory/state.json", "state"),
        ("memory/project_auth.md", "typed"),
        ("memory/sessions/SID.md", "snapshot"),
        ("memory/log-index.md", "log-index"),
    ],
)
def test_every_structured_reader_names_the_unfinished_merge(
    root: Path, rel: str, reader: str
) -> None:
    sid = Board(root).register(topic="t", sections={"Decisions": "D1"}).session_id
    writer = MemoryWriter(root)
    writer.note_event("purchase", "I bought a lamp on 3/15.")
    writer.end_session(session_summary="s", resumption_note="r")
    assert main(["memory", "add", "--type", "project", "--topic", "auth", "--content", "x"]) == 0
    path = root / rel.replace("SID", sid)
    text = path.read_text()
    first = next(line for line in text.split("\n")[1:] if line.strip())
    path.write_text(with_conflict(text, first, first, first + " changed"))
    with pytest.raises(FormatError) as caught:
        if reader == "events":
            MemoryWriter(root).journal.ledger()
        elif reader == "state":
            MemoryWriter(root).journal.state()
        elif reader == "typed":
            from workmem.facts.typed import read_memory
            from workmem.files.store import Store

            read_memory(Store(Workspace(root)), path)
        elif reader == "snapshot":
            Board(root).update(sid, sections={"Decisions": "D2"})
        else:
            from workmem.journal.log_index import update_days

            writer = MemoryWriter(root)
            update_days(writer.journal.store, writer.journal.workspace, [])
            from workmem.files.tables import TableDocument

            TableDocument.parse(path.read_text(), path=rel)
    assert isinstance(caught.value, UnfinishedMergeError), caught.value
    assert "unfinished merge" in str(caught.value)
    report = run(Workspace(root))
    assert any(
        f.kind == "unfinished-merge" and rel.replace("SID", sid) in f.message
        for f in report.findings
    ), report.findings
    fixed = run(Workspace(root), fix=True)
    assert fixed.repairs and marker_line(path.read_text()) is None
    assert "changed" in path.read_text()  # both versions are in the merged file


def test_the_start_hears_of_memory_files_left_unfinished(root: Path) -> None:
    MemoryWriter(root).end_session(session_summary="s", resumption_note="r")
    assert start_notice(Workspace(root)) is None
    memory_md = root / "MEMORY.md"
    memory_md.write_text("# Memory\n\n<<<<<<< HEAD\n- a\n=======\n- b\n>>>>>>> x\n")
    notice = start_notice(Workspace(root))
    assert notice is not None and "MEMORY.md" in notice and "doctor --fix" in notice


def test_split_gives_both_versions_and_the_ancestor() -> None:
    text = "a\n<<<<<<< HEAD\nb\n||||||| base\nc\n=======\nd\n>>>>>>> x\ne\n"
    assert split(text) == ("a\nc\ne\n", "a\nb\ne\n", "a\nd\ne\n")
    assert split("a\n<<<<<<< HEAD\nb\n") is None  # no partner: left for a person
    assert split("a\n>>>>>>> x\n") is None


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_plain_git_merge_without_drivers_is_settled_by_doctor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real thing: two branches register sessions, git merges with no workmem drivers."""
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "--quiet", "-b", "main")
    git(project, "config", "user.email", "t@example.invalid")
    git(project, "config", "user.name", "tester")
    monkeypatch.setenv("WORKMEM_ROOT", str(project))
    monkeypatch.setenv("WORKMEM_PLATFORM", "cursor")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 13:18")
    assert main(["init"]) == 0
    Board(project).register(topic="Base", sections={"Decisions": "D0"})
    git(project, "add", "-A")
    git(project, "commit", "--quiet", "-m", "base")
    git(project, "checkout", "--quiet", "-b", "other")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 14:00")
    Board(project).register(topic="Other", sections={"Decisions": "D2"})
    git(project, "add", "-A")
    git(project, "commit", "--quiet", "-m", "other")
    git(project, "checkout", "--quiet", "main")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 14:05")
    Board(project).register(topic="Main", sections={"Decisions": "D1"})
    git(project, "add", "-A")
    git(project, "commit", "--quiet", "-m", "main")
    import subprocess

    merged = subprocess.run(["git", "merge", "other"], cwd=project, capture_output=True, text=True)
    assert merged.returncode != 0  # the board conflicts
    assert marker_line((project / "memory" / "index.md").read_text()) is not None
    notice = board_notice(Workspace(project))
    assert notice is not None and "unfinished merge" in notice
    report = run(Workspace(project), fix=True)
    assert any("memory/index.md" in line for line in report.repairs), report.repairs
    assert {row.topic for row in Board(project).list()} == {"Base", "Other", "Main"}
    assert not run(Workspace(project)).findings
