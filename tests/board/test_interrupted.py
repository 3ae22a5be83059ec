"""A command killed between its two writes is completed by the next command or doctor --fix.

The kill is real: a child process runs the workflow with the pause hook
``workmem.board.index.between_writes`` replaced by "signal the parent, then sleep", and the
parent sends SIGKILL while it sleeps, after the snapshot was written and before the board.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.index import INTENT_NAME
from workmem.board.intent import Intent, digest
from workmem.board.snapshot import continues_from
from workmem.cli import main
from workmem.files.tables import TableDocument

SRC = Path(__file__).resolve().parents[2] / "src"

KILLED_BETWEEN_WRITES = """
import sys, time
from pathlib import Path
import workmem.board.index as index

def pause() -> None:
    Path(sys.argv[1]).touch()
    time.sleep(300)

index.between_writes = pause
from workmem.board import Board
board = Board()
if sys.argv[2] == "continue":
    board.continue_from(sys.argv[3], as_id=sys.argv[4])
elif sys.argv[2] == "register":
    board.register(topic="Killed mid-registration", context="It had real content.")
elif sys.argv[2] == "archive":
    board.archive(sys.argv[3])
print("not killed")
"""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r for r in doc.records()}


def kill_between_writes(tmp_path: Path, *args: str) -> None:
    """Run a workflow in a real process and SIGKILL it between its snapshot and board writes."""
    flag = tmp_path / "paused"
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(KILLED_BETWEEN_WRITES), str(flag), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )
    deadline = time.monotonic() + 60
    while not flag.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            out, err = proc.communicate()
            pytest.fail(f"the workflow did not reach its pause point: {out} {err}")
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL


def one_sided_continuation(root: Path, tmp_path: Path) -> tuple[str, str]:
    board = Board()
    source = board.register(topic="Source work").session_id
    current = board.start().session_id
    kill_between_writes(tmp_path, "continue", source, current)
    # The kill left exactly one side: the snapshot says it continues, the board does not.
    assert continues_from((root / "memory" / "sessions" / f"{current}.md").read_text()) == [source]
    assert rows(root)[source]["Referenced By"] == "-"
    assert rows(root)[current]["Status"] == "idle"
    assert (root / "memory" / ".workmem" / INTENT_NAME).is_file()
    return source, current


def assert_both_sides(root: Path, source: str, current: str) -> None:
    assert rows(root)[source]["Referenced By"] == current
    assert rows(root)[current]["Status"] == "active"
    assert continues_from((root / "memory" / "sessions" / f"{current}.md").read_text()) == [source]
    assert not (root / "memory" / ".workmem" / INTENT_NAME).exists()
    assert Board().doctor().healthy


@pytest.mark.slow
def test_kill_during_continue_is_completed_by_the_next_command(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, current = one_sided_continuation(root, tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "workmem", "session", "start"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert_both_sides(root, source, current)


@pytest.mark.slow
def test_kill_during_continue_is_reported_and_completed_by_doctor_fix(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, current = one_sided_continuation(root, tmp_path)
    assert main(["doctor", "--json"]) == 1
    kinds = {f["kind"] for f in json.loads(capsys.readouterr().out)["findings"]}
    assert {"interrupted-write", "one-sided-reference"} <= kinds
    assert main(["doctor", "--fix"]) == 0
    out = capsys.readouterr().out
    assert "repaired: completed a board change that a stopped command left half-written" in out
    assert_both_sides(root, source, current)


@pytest.mark.slow
def test_kill_during_registration_still_gets_its_row(root: Path, tmp_path: Path) -> None:
    kill_between_writes(tmp_path, "register")
    sessions = list((root / "memory" / "sessions").glob("*.md"))
    assert len(sessions) == 1 and not (root / "memory" / "index.md").exists()
    sid = sessions[0].stem
    Board().start()  # the next command
    row = rows(root)[sid]
    assert (row["Topic"], row["Status"]) == ("Killed mid-registration", "active")
    assert Board().doctor().healthy


@pytest.mark.slow
def test_kill_during_archive_is_completed_by_the_next_command(root: Path, tmp_path: Path) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    done = board.register(topic="Done", sections={"Continues From": source}).session_id
    kill_between_writes(tmp_path, "archive", done)
    folder = root / "memory" / "archive" / done
    assert (folder / "index.md").is_file() and (folder / "session.md").is_file()
    assert done in rows(root)  # the board was not written yet
    Board().start()
    assert done not in rows(root)
    assert rows(root)[source]["Referenced By"] == "-"
    assert Board().doctor().healthy


def write_intent(
    root: Path, files: list[tuple[str, str]], rows: dict[str, list[str] | None]
) -> Path:
    path = root / "memory" / ".workmem" / INTENT_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(Intent(files=files, rows=rows, pid=999999).to_json())
    return path


def test_a_note_whose_files_were_never_written_is_dropped(root: Path) -> None:
    board = Board()
    sid = board.register(topic="T").session_id
    before = rows(root)[sid]
    changed = [*before.values()]
    changed[2] = "Never written"
    snapshot = f"memory/sessions/{sid}.md"
    path = write_intent(root, [(snapshot, digest(b"other content"))], {sid: changed})
    board.start()
    assert rows(root)[sid] == before
    assert not path.exists()


def test_a_corrupt_note_is_reported_then_dropped_and_the_command_proceeds(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board()
    board.start()
    path = root / "memory" / ".workmem" / INTENT_NAME
    path.write_bytes(b'{"files": [[1, 2, 3]], "rows": "\xff')
    assert main(["doctor"]) == 1
    assert "unreadable note of an interrupted board change" in capsys.readouterr().out
    second = board.start().session_id
    assert second in rows(root) and not path.exists()


def test_a_note_naming_a_file_outside_the_root_is_not_followed(root: Path, tmp_path: Path) -> None:
    board = Board()
    sid = board.register(topic="T").session_id
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"attacker-chosen bytes")
    forged = [*rows(root)[sid].values()]
    forged[2] = "Forged"
    path = write_intent(root, [("../outside.txt", digest(outside.read_bytes()))], {sid: forged})
    board.start()
    assert rows(root)[sid]["Topic"] == "T"
    assert not path.exists()


def test_a_note_with_a_traversal_id_is_refused(root: Path) -> None:
    board = Board()
    board.start()
    path = write_intent(root, [], {"../../etc": ["../../etc"] + ["x"] * 8})
    board.start()
    assert "../../etc" not in rows(root)
    assert not path.exists()


def test_a_failed_transaction_rolls_back_and_leaves_no_note(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.errors import WriteError
    from workmem.files.store import Store

    board = Board()
    sid = board.register(topic="T").session_id
    snap = root / "memory" / "sessions" / f"{sid}.md"
    before = snap.read_bytes(), (root / "memory" / "index.md").read_bytes()
    real = Store.write_text

    def failing(self: Store, path: Path, text: str, *args: object) -> None:
        if path.name == "index.md":
            raise WriteError("disk full")
        real(self, path, text, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "write_text", failing)
    with pytest.raises(WriteError):
        board.update(sid, sections={"Decisions": "lost?"})
    monkeypatch.undo()
    assert (snap.read_bytes(), (root / "memory" / "index.md").read_bytes()) == before
    assert not (root / "memory" / ".workmem" / INTENT_NAME).exists()


def test_doctor_fix_completes_a_continuation_recorded_only_in_the_snapshot(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    current = board.register(topic="Current").session_id
    snap = root / "memory" / "sessions" / f"{current}.md"
    # An older version, or a person, wrote only the snapshot side.
    snap.write_text(
        snap.read_text().replace("## Continues From\n\nNone", f"## Continues From\n\n- {source}")
    )
    assert main(["doctor"]) == 1
    assert "one-sided-reference" in capsys.readouterr().out
    assert main(["doctor", "--fix"]) == 0
    assert f"repaired: {source} Referenced By now lists {current}" in capsys.readouterr().out
    assert rows(root)[source]["Referenced By"] == current


def test_the_note_on_disk_is_indented_utf8_json_with_the_writers_pid(root: Path) -> None:
    from workmem.board.context import BoardContext
    from workmem.board.intent import clear_intent
    from workmem.board.intent import write_intent as write_note
    from workmem.board.model import COLUMNS

    board = Board()
    sid = board.start().session_id
    row = [sid, "agent", "Überblick 日本", *["-"] * (len(COLUMNS) - 3)]
    store = BoardContext.open().store
    write_note(store, Intent(files=[("memory/sessions/a.md", "ab")], rows={sid: row}))
    path = root / "memory" / ".workmem" / INTENT_NAME
    cells = "".join(f',\n   "{cell}"' for cell in row[1:])
    assert path.read_text(encoding="utf-8") == (
        f'{{\n "pid": {os.getpid()},\n "files": [\n  [\n   "memory/sessions/a.md",\n   "ab"\n'
        f'  ]\n ],\n "rows": {{\n  "{sid}": [\n   "{sid}"{cells}\n  ]\n }}\n}}\n'
    )
    clear_intent(store)
    assert not path.exists()
    clear_intent(store)  # a note already gone (completed by another process) is no error
    assert not path.exists()


def test_the_note_of_a_crlf_snapshot_update_hashes_the_bytes_written(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The next command rolls forward only when the file holds the hashed bytes: the note
    # must hash the snapshot as written, in its own newlines and BOM.
    from workmem.board import index as board_index

    board = Board()
    sid = board.register(topic="Work").session_id
    path = root / "memory" / "sessions" / f"{sid}.md"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    notes: list[dict[str, list[list[str]]]] = []

    def capture() -> None:
        notes.append(json.loads((root / "memory" / ".workmem" / INTENT_NAME).read_text()))

    monkeypatch.setattr(board_index, "between_writes", capture)
    board.update(sid, sections={"Decisions": "Keep CRLF"})
    written = path.read_bytes()
    assert written.startswith(b"\xef\xbb\xbf# Session") and b"- Keep CRLF\r\n" in written
    assert b"\n" not in written.replace(b"\r\n", b"")
    assert dict(notes[0]["files"]) == {f"memory/sessions/{sid}.md": digest(written)}
