"""The CLI face: same behaviour as the library, text and JSON, exit codes that mean something."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_start_reports_the_id_only_after_writing(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "session", "start")
    assert code == 0
    assert out.splitlines()[0] == "Your Memory Session ID is: 2026-05-25-1318-cursor-main-agent"
    assert "2026-05-25-1318-cursor-main-agent" in (root / "memory" / "index.md").read_text()


def test_failed_start_reports_no_id(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = root / "memory" / "index.md"
    board.parent.mkdir(parents=True)
    board.write_text("| broken | header |\n|---|---|\n")
    code, out, err = run(capsys, "session", "start")
    assert code == 5
    assert "Memory Session ID" not in out
    assert "memory/index.md:1" in err and "expected" in err


def test_json_output_and_global_options_after_the_command(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "session", "register", "--topic", "T", "--now", "2026-07-01 08:05", "--json"
    )
    payload = json.loads(out)
    assert code == 0 and payload["ok"] is True
    assert payload["session_id"] == "2026-07-01-0805-cursor-main-agent"
    assert payload["row"]["status"] == "active"


def test_update_reads_sections_from_stdin_file(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run(capsys, "session", "start")
    sid = "2026-05-25-1318-cursor-main-agent"
    fragment = tmp_path / "update.md"
    fragment.write_text("## Decisions\n\n- Ship it\n\n## Next Actions\n\n- Tag release\n")
    code, out, _ = run(capsys, "session", "update", sid, "--from-file", str(fragment))
    assert code == 0, out
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("Context from stdin."))
    code, _, _ = run(capsys, "session", "update", sid, "--context", "-", "--section", "files=a.py")
    assert code == 0
    code, out, _ = run(capsys, "session", "show", sid)
    assert "- Ship it" in out and "- Tag release" in out and "- a.py" in out
    assert "Context from stdin." in out


def test_errors_have_distinct_exit_codes(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "session", "update", "2026-01-01-0000-ghost")
    assert code == 3 and "not on the board" in err
    code, _, err = run(capsys, "session", "update", "../escape")
    assert code == 2 and "invalid session ID" in err
    code, out, _ = run(capsys, "session", "update", "../escape", "--json")
    assert json.loads(out)["kind"] == "UsageError"
    code, _, err = run(capsys, "session", "release", "2026-01-01-0000-ghost")
    assert code == 2 and "--as" in err


def test_organize_doctor_and_list(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "session", "start")
    run(capsys, "session", "register", "--topic", "Work")
    code, out, _ = run(capsys, "session", "list", "--json")
    assert [r["status"] for r in json.loads(out)] == ["active", "idle"]
    code, out, _ = run(capsys, "organize", "--now", "2026-06-20 10:00", "--json")
    report = json.loads(out)
    assert report["deleted_idle"] == ["2026-05-25-1318-cursor-main-agent"]
    assert report["marked_stale"] == ["2026-05-25-1318-cursor-main-agent-2"]
    code, out, _ = run(capsys, "doctor")
    assert code == 0 and "consistent" in out
    sessions = root / "memory" / "sessions"
    (sessions / "2026-01-01-0000-orphan.md").write_text("# Session\n")
    code, out, _ = run(capsys, "doctor", "--json")
    assert code == 1
    assert json.loads(out)["findings"][0]["kind"] == "file-without-row"


def test_organize_says_when_snapshots_wait_for_their_next_update(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import cleanup

    run(capsys, "session", "register", "--topic", "Work")
    monkeypatch.setattr(cleanup, "SNAPSHOT_MARKING_BUDGET_S", -1.0)
    code, out, _ = run(capsys, "organize", "--now", "2026-06-20 10:00")
    assert code == 0
    assert "1 snapshot(s) still say active (time limit)" in out


def test_console_script_runs_as_a_real_process(root: Path) -> None:
    env = {**os.environ, "WORKMEM_NOW": "2026-05-25 13:18"}
    proc = subprocess.run(
        [sys.executable, "-m", "workmem", "session", "start", "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["session_id"].startswith("2026-05-25-1318-")
