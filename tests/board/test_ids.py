"""Session IDs: never issued twice, and one platform session is one memory session.

The parallel tests run real ``workmem hook SessionStart`` processes released together by a
file barrier, as hooks installed at user and project scope fire for one platform session.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.issued import RECORD_NAME
from workmem.errors import FormatError
from workmem.files.tables import TableDocument

SRC = Path(__file__).resolve().parents[2] / "src"
BASE = "2026-05-25-1318-cursor-main-agent"

HOOK_AFTER_BARRIER = """
import os, sys, time
from pathlib import Path
barrier = Path(sys.argv[1])
(barrier / f"ready-{os.getpid()}").touch()
while not (barrier / "go").exists():
    time.sleep(0.002)
from workmem.cli import main
sys.exit(main(["hook", "SessionStart", "--platform", sys.argv[2]]))
"""


def board_ids(root: Path) -> list[str]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return [r["Session ID"] for r in doc.records()]


def record(root: Path) -> list[str]:
    text = (root / "memory" / ".workmem" / RECORD_NAME).read_text()
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def start_hooks_at_once(
    root: Path, tmp_path: Path, payloads: list[dict[str, str]], platform: str = "claude-code"
) -> list[str]:
    """Run one SessionStart hook process per payload, all released at the same moment."""
    barrier = tmp_path / "barrier"
    barrier.mkdir(parents=True)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    procs = []
    for payload in payloads:
        proc = subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(HOOK_AFTER_BARRIER), str(barrier), platform],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(payload))
        proc.stdin.close()
        procs.append(proc)
    deadline = time.monotonic() + 60
    while len(list(barrier.glob("ready-*"))) < len(procs):
        assert time.monotonic() < deadline, "hook processes did not start"
        time.sleep(0.01)
    (barrier / "go").touch()
    ids = []
    for proc in procs:
        assert proc.stdout is not None and proc.stderr is not None
        out = proc.stdout.read()
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 0, err
        context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
        ids.append(context.splitlines()[0].removeprefix("Your Memory Session ID is: "))
    log = root / "memory" / ".workmem" / "hook.log"
    assert not log.exists(), log.read_text()
    return ids


@pytest.mark.slow
def test_parallel_session_start_hooks_of_one_platform_session_share_one_id(
    root: Path, tmp_path: Path
) -> None:
    # Three rounds: one race can miss by luck, three in a row rarely do.
    mapping_file = root / "memory" / ".workmem" / "platform-sessions.json"
    seen: list[str] = []
    for round_ in range(3):
        payload = {"session_id": f"plat-{round_}", "cwd": str(root), "source": "startup"}
        ids = start_hooks_at_once(root, tmp_path / str(round_), [payload] * 3)
        assert len(set(ids)) == 1, ids
        seen.append(ids[0])
        assert board_ids(root) == seen  # one row per platform session
        mapping = json.loads(mapping_file.read_text())
        assert mapping[f"claude-code:plat-{round_}"]["memory_session_id"] == ids[0]
    assert record(root) == seen


@pytest.mark.slow
def test_parallel_session_starts_of_different_platform_sessions_get_their_own_ids(
    root: Path, tmp_path: Path
) -> None:
    payloads = [
        {"session_id": f"plat-{n}", "cwd": str(root), "source": "startup"} for n in range(3)
    ]
    ids = start_hooks_at_once(root, tmp_path, payloads)
    assert len(set(ids)) == 3
    assert sorted(board_ids(root)) == sorted(ids)
    mapping = json.loads((root / "memory" / ".workmem" / "platform-sessions.json").read_text())
    assert {k: v["memory_session_id"] for k, v in mapping.items()} == {
        f"claude-code:plat-{n}": ids[n] for n in range(3)
    }


def not_running(root: Path) -> None:
    """Organize in the same minute as the start: no session counts as still running (a
    session started this minute is kept otherwise, see ``test_organize_running``)."""
    (root / "workmem.toml").write_text("[board]\nrunning_minutes = 0\n")


def test_organize_deleting_an_idle_row_then_a_start_in_the_same_minute_gets_a_new_id(
    root: Path,
) -> None:
    not_running(root)
    board = Board()
    first = board.start().session_id
    assert board.organize().deleted_idle == [first]
    assert board_ids(root) == []
    second = board.start().session_id
    assert second == f"{BASE}-2"
    assert record(root) == [first, second]


def test_after_organize_a_new_platform_session_never_gets_the_deleted_sessions_id(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    from workmem.cli import main

    def hook(session: str) -> str:
        payload = {"session_id": session, "cwd": str(root), "source": "startup"}
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
        assert main(["hook", "SessionStart", "--platform", "claude-code"]) == 0
        context = json.loads(capsys.readouterr().out)["hookSpecificOutput"]["additionalContext"]
        return str(context.splitlines()[0].removeprefix("Your Memory Session ID is: "))

    not_running(root)
    first = hook("plat-a")
    assert main(["organize", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deleted_idle"] == [first]
    second = hook("plat-b")  # same minute
    assert second != first
    mapping = json.loads((root / "memory" / ".workmem" / "platform-sessions.json").read_text())
    assert mapping["claude-code:plat-a"]["memory_session_id"] == first
    assert mapping["claude-code:plat-b"]["memory_session_id"] == second


def test_a_deleted_placeholder_or_an_id_with_only_notes_is_never_issued_again(
    root: Path,
) -> None:
    board = Board()
    placeholder = board.start().session_id
    assert board.archive(placeholder).action == "delete"
    # Notes written for a session whose row is gone by other means still hold its ID.
    sessions = root / "memory" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / f"{BASE}-3.notes.md").write_text("# Session Title\n")
    assert board.start().session_id == f"{BASE}-2"
    assert board.start().session_id == f"{BASE}-4"


def test_the_record_of_issued_ids_survives_organize_and_archive(root: Path) -> None:
    not_running(root)
    board = Board()
    kept = board.register(topic="Real work").session_id
    idle = board.start().session_id
    board.organize()
    board.archive(kept)
    assert board_ids(root) == []
    assert record(root) == [kept, idle]
    assert board.start().session_id == f"{BASE}-3"


def test_an_unreadable_record_of_issued_ids_refuses_to_issue_and_writes_nothing(
    root: Path,
) -> None:
    Board().start()
    path = root / "memory" / ".workmem" / RECORD_NAME
    path.write_bytes(b"# header\n\xff\xfe broken\n")
    before = (root / "memory" / "index.md").read_bytes()
    with pytest.raises(FormatError, match=r"issued-session-ids\.txt.*UTF-8"):
        Board().start()
    assert (root / "memory" / "index.md").read_bytes() == before
    assert path.read_bytes() == b"# header\n\xff\xfe broken\n"


def test_a_record_edited_by_hand_still_counts_every_line(root: Path) -> None:
    path = root / "memory" / ".workmem" / RECORD_NAME
    path.parent.mkdir(parents=True)
    path.write_text(f"{BASE}\r\n{BASE}-2")  # CRLF, no header, no final newline
    assert Board().start().session_id == f"{BASE}-3"
    assert record(root) == [BASE, f"{BASE}-2", f"{BASE}-3"]
