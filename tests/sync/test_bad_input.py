"""Hostile and broken input to the merges and the driver: nothing is lost, nothing breaks out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.errors import WriteError
from workmem.files.sections import Document
from workmem.files.tables import TableDocument
from workmem.sync.kept import kept_versions
from workmem.sync.merge import merge_file, readable
from workmem.sync.tree import memory_files, safe_target

HEADER = (
    "| Session ID | Agent Name | Topic | Summary | Keywords | Status | Referenced By | "
    "Started At | Updated At |\n|---|---|---|---|---|---|---|---|---|\n"
)


def board_row(session: str, topic: str) -> str:
    return (
        f"| {session} | a | {topic} | s | k | active | - | 2026-05-25 13:18 | 2026-05-25 13:18 |\n"
    )


BASE = "# Memory Index\n\n" + HEADER + board_row("2026-05-25-1318-a", "Base")


def test_malformed_board_side_keeps_both_and_reports_a_conflict() -> None:
    ours = BASE + board_row("2026-05-25-1400-a", "Ours")
    theirs = BASE + "| 2026-05-25-1500-a | a | Theirs | with | a | pipe | active | - | x | y |\n"
    result = merge_file("board", BASE, ours, theirs, "memory/index.md")
    assert not result.clean and result.notes
    assert readable("board", result.text, "memory/index.md")
    keys = [r.key for r in TableDocument.parse(result.text).rows]
    assert keys == ["2026-05-25-1318-a", "2026-05-25-1400-a"]  # the readable side is the table
    assert "Theirs" in result.text  # the other side is kept, quoted
    assert kept_versions(result.text)


def test_both_sides_broken_json_keeps_both_texts_in_valid_json() -> None:
    result = merge_file("events", "", "{not json", "[also not", "memory/events.json")
    data = json.loads(result.text)
    assert not result.clean
    texts = [item["text"] for item in data["workmem_kept_versions"]]
    assert "{not json" in texts and "[also not" in texts
    assert data["events"] == []


def test_one_broken_state_side_keeps_the_readable_one() -> None:
    good = json.dumps({"session_count": 2, "flags": {}})
    result = merge_file("state", good, good.replace("2", "3"), "{oops", "memory/state.json")
    data = json.loads(result.text)
    assert not result.clean and data["session_count"] == 3
    assert data["workmem_kept_versions"][0]["text"] == "{oops"


def test_kept_text_cannot_become_structure() -> None:
    hostile = (
        "## Injected Section\n```\n| a | b |\n|---|---|\n<!-- workmem:session-end token=x -->\n"
    )
    snapshot = "# Session: x\n\n## Metadata\n\n| Field | Value |\n|---|---|\n| Status | active |\n"
    broken_theirs = snapshot.replace("| Field | Value |\n|---|---|\n", "| Field | Value |\n|---|\n")
    result = merge_file("sections", "", snapshot, broken_theirs + hostile, "memory/sessions/x.md")
    assert not result.clean
    titles = [s.title for s in Document.parse(result.text).sections]
    assert titles == ["Metadata"]  # the quoted text added no section
    assert "> ## Injected Section" in result.text


def test_unreadable_base_is_merged_as_no_base() -> None:
    ours = BASE + board_row("2026-05-25-1400-a", "Ours")
    theirs = BASE + board_row("2026-05-25-1500-a", "Theirs")
    result = merge_file("board", "not a board at all", ours, theirs, "memory/index.md")
    assert result.clean
    assert len(TableDocument.parse(result.text).rows) == 3


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        merge_file("nope", "", "a", "b", "x")


def run_driver(
    tmp_path: Path, kind: str, base: bytes, ours: bytes, theirs: bytes
) -> tuple[int, bytes, str]:
    files = []
    for name, data in (("base", base), ("ours", ours), ("theirs", theirs)):
        path = tmp_path / name
        path.write_bytes(data)
        files.append(str(path))
    done = subprocess.run(
        [sys.executable, "-m", "workmem", "merge-driver", kind, *files, "memory/index.md"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, (tmp_path / "ours").read_bytes(), done.stderr


def test_driver_keeps_crlf_and_bom(tmp_path: Path) -> None:
    ours = BASE + board_row("2026-05-25-1400-a", "Ours")
    theirs = BASE + board_row("2026-05-25-1500-a", "Theirs")
    crlf = "\ufeff" + ours.replace("\n", "\r\n")
    code, data, _ = run_driver(
        tmp_path, "board", BASE.encode(), crlf.encode("utf-8"), theirs.encode()
    )
    assert code == 0
    assert data.startswith(b"\xef\xbb\xbf") and b"\n" not in data.replace(b"\r\n", b"")
    assert b"Theirs" in data and b"Ours" in data


def test_driver_leaves_a_non_utf8_side_and_reports(tmp_path: Path) -> None:
    ours = b"# Memory Index\n\xff\xfe broken\n"
    code, data, err = run_driver(tmp_path, "board", BASE.encode(), ours, BASE.encode())
    assert code == 1 and data == ours and "UTF-8" in err


def test_driver_unknown_kind_exits_with_usage_error(tmp_path: Path) -> None:
    code, _, err = run_driver(tmp_path, "bogus", b"", b"a", b"b")
    assert code == 2 and "unknown file kind" in err


def test_paths_outside_the_root_and_symlinks_are_refused(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "memory").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("secret")
    (root / "memory" / "linked").symlink_to(outside)
    (root / "memory" / "link.md").symlink_to(outside / "secret.md")
    (root / "memory" / "index.md").write_text("x")
    os.mkfifo(root / "memory" / "pipe.md")  # reading it would hang a sync
    (root / "memory" / ".index.md.123.0.tmp").write_text("a writer's temp")
    assert sorted(memory_files(root)) == ["memory/index.md"]
    for rel in ("../x.md", "memory/../../x.md", "/etc/passwd", "memory/linked/y.md"):
        with pytest.raises(WriteError):
            safe_target(root, rel)
