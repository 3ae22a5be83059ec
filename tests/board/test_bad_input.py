"""Bad input gets a clear error and leaves every file exactly as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.errors import FormatError, UsageError

GOOD_HEADER = (
    "| Session ID | Agent Name | Topic | Summary | Keywords | Status | Referenced By "
    "| Started At | Updated At |\n|---|---|---|---|---|---|---|---|---|\n"
)
ROW = (
    "| 2026-05-01-0900-cursor-main-agent | cursor-main-agent | T | S | k | active | - "
    "| 2026-05-01 09:00 | 2026-05-01 09:00 |\n"
)


def _board_file(root: Path) -> Path:
    path = root / "memory" / "index.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize(
    "content, line",
    [
        ("| Session | Agent |\n|---|---|\n| a | b |\n", 1),
        (GOOD_HEADER + ROW + "| only | three | cells |\n", 4),
        ("# Memory Index\n\nno table here\n", None),
    ],
)
def test_malformed_board_is_reported_and_untouched(
    root: Path, content: str, line: int | None
) -> None:
    path = _board_file(root)
    path.write_text(content)
    before = path.read_bytes()
    with pytest.raises(FormatError) as info:
        Board().start()
    assert info.value.line == line
    assert path.read_bytes() == before


def test_crlf_bom_board_gets_a_row_in_its_own_style(root: Path) -> None:
    path = _board_file(root)
    path.write_bytes(
        ("\ufeff# Memory Index\r\n\r\n" + GOOD_HEADER + ROW)
        .replace("\n", "\r\n")
        .replace("\r\r\n", "\r\n")
        .encode()
    )
    sid = Board().start().session_id
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf# Memory Index\r\n")
    assert data.count(b"\r\n") == data.count(b"\n")
    assert sid.encode() in data
    assert ROW.strip().encode() in data  # the existing row is byte-identical


def test_non_utf8_board_is_refused(root: Path) -> None:
    path = _board_file(root)
    path.write_bytes((GOOD_HEADER + ROW).encode() + "| caf\xe9 |".encode("latin-1"))
    before = path.read_bytes()
    with pytest.raises(FormatError, match="UTF-8"):
        Board().start()
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "bad", ["../../etc/passwd", "a/b", "x\x00y", "UPPER", "with space", "", "-lead", "a--b"]
)
def test_unsafe_ids_and_agent_names_are_refused_before_writing(root: Path, bad: str) -> None:
    board = Board()
    with pytest.raises(UsageError):
        board.update(bad)
    if bad:  # an empty name means "not given" and falls back to the default
        with pytest.raises(UsageError):
            board.start(agent_name=bad)
    with pytest.raises(UsageError):
        board.continue_from(bad)
    with pytest.raises(UsageError):
        board.archive(bad)
    assert not (root / "memory").exists()


def test_values_with_pipes_and_newlines_cannot_break_the_table(root: Path) -> None:
    board = Board()
    sid = board.register(topic="a | b", summary="line one\nline two | more").session_id
    row = board.show(sid).row
    assert row is not None
    assert row.topic == "a | b"
    # A cell is one line: the line break folds to a space, the pipe stays a pipe.
    assert row.summary == "line one line two | more"
    assert board.doctor().healthy


def test_hand_edited_snapshot_without_metadata_is_refused(root: Path) -> None:
    board = Board()
    sid = board.start().session_id
    path = root / "memory" / "sessions" / f"{sid}.md"
    path.parent.mkdir(parents=True)
    path.write_text("# my notes\n\n## Decisions\n\n- keep me\n")
    index_before = (root / "memory" / "index.md").read_bytes()
    with pytest.raises(FormatError, match="Metadata"):
        board.update(sid, sections={"Decisions": "new"})
    assert path.read_text() == "# my notes\n\n## Decisions\n\n- keep me\n"
    assert (root / "memory" / "index.md").read_bytes() == index_before


def test_failed_board_write_takes_the_snapshot_back(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import index as index_module
    from workmem.errors import WriteError

    board = Board()
    sid = board.start().session_id
    snapshot = root / "memory" / "sessions" / f"{sid}.md"

    def failing_verify(self: object, edit: object) -> None:
        raise WriteError("simulated verification failure")

    monkeypatch.setattr(index_module.BoardIndex, "_verify", failing_verify)
    index = root / "memory" / "index.md"
    before = index.read_bytes()
    with pytest.raises(WriteError):
        board.update(sid, sections={"Decisions": "never lands"})
    assert not snapshot.exists()
    assert index.read_bytes() == before


def test_doctor_reports_temp_files_left_by_a_dead_writer(root: Path) -> None:
    import subprocess
    import sys

    board = Board()
    board.start()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    pid = int(dead.stdout)
    leftover = root / "memory" / f".index.md.{pid}.0.tmp"
    leftover.write_text("half a board")
    live = root / "memory" / f".index.md.{os.getpid()}.7.tmp"  # a write in progress
    live.write_text("being written")
    findings = [f for f in board.doctor().findings if f.kind == "leftover-temp"]
    assert len(findings) == 1
    assert f".index.md.{pid}.0.tmp" in findings[0].message
