"""The CLI twins, run through ``journal_cmds.main`` (and ``workmem`` once it is registered)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.cli import journal_cmds


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = journal_cmds.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_whole_session_through_the_cli(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, "init", "--agent-name", "MyBot")
    assert code == 0 and "created MEMORY.md" in out
    assert run(capsys, "note", "decision", "Chose X over Y", "--why", "reasoning here")[0] == 0
    assert (
        run(capsys, "note", "question", "Should we revisit Z?", "--thread", "thread-alpha")[0] == 0
    )
    assert run(capsys, "note", "pattern", "User likes examples")[0] == 0
    assert run(capsys, "note", "thread", "thread-alpha")[0] == 0
    code, out, _ = run(
        capsys,
        "event", "add", "--type", "purchase", "--text", "I bought white Adidas sneakers on 3/15.",
        "--object", "white adidas sneakers", "--on", "2023-03-20",
    )  # fmt: skip
    assert code == 0 and "evt-00001" in out and "2023-03-15" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("I finished the API design.\nTesting is next.\n"))
    code, out, _ = run(
        capsys,
        "end", "--summary", "API designed", "--resumption", "-", "--mood", "focused",
        "--position", "thread-alpha=Testing the API", "--open", "thread-alpha=Auth tokens?",
        "--close", "thread-alpha=Which framework?",
    )  # fmt: skip
    assert code == 0 and "Session 1 ended 2026-05-25 13:18; 5 note(s) written." in out
    log = (root / "memory/2026-05-25.md").read_text("utf-8")
    assert "> I finished the API design.\n> Testing is next." in log
    threads = (root / "memory/threads.md").read_text("utf-8")
    assert "Testing the API" in threads and "Which framework? (closed 2026-05-25)" in threads

    code, out, _ = run(capsys, "event", "find", "white adidas sneakers")
    assert code == 0 and "2023-03-15 · purchase [white adidas sneakers]" in out
    code, out, _ = run(capsys, "--json", "load", "let's keep testing thread-alpha")
    payload = json.loads(out)
    assert payload["ok"] and payload["metadata"]["matched_threads"] == ["thread-alpha"]
    assert payload["total_tokens"] <= 4000
    code, out, _ = run(capsys, "load", "--total", "60", "what did I buy in March?")
    assert code == 0 and out.startswith("# Working memory")


def test_end_from_one_json_document(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    document = {
        "session_summary": "High-level summary of what happened",
        "resumption_note": "First-person handoff to next session self...",
        "thread_updates": {
            "thread-project-alpha": {
                "current_position": "Finished the API design. Moving to testing.",
                "new_open_questions": ["How to handle auth tokens?"],
                "closed_questions": ["Which framework to use?"],
            }
        },
        "mood": "focused, productive",
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(document)))
    code, out, _ = run(capsys, "--json", "end", "--from-json", "-")
    assert code == 0
    report = json.loads(out)
    assert report["session"] == 1 and report["threads_created"] == ["thread-project-alpha"]


def test_errors_are_exit_codes_not_tracebacks(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "end", "--summary", "only a summary")
    assert code == 2 and "resumption note is required" in err
    code, _, err = run(
        capsys, "end", "--summary", "s", "--resumption", "n", "--position", "no-equals"
    )
    assert code == 2 and "THREAD-ID=TEXT" in err
    code, _, err = run(capsys, "note", "thread", "../../etc")
    assert code == 2 and "invalid thread ID" in err
    (root / "memory").mkdir()
    (root / "memory/state.json").write_text("[1,", "utf-8")
    code, out, _ = run(capsys, "--json", "note", "pattern", "x")
    assert code == 5 and json.loads(out)["kind"] == "FormatError"
    assert (root / "memory/state.json").read_text("utf-8") == "[1,"


def test_migrate_dry_run_from_the_cli(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (root / "MEMORY.md").write_text("# Memory\n- a fact\n", "utf-8")
    (root / "memory").mkdir()
    (root / "memory/2026-05-20.md").write_text("# 2026-05-20\n\nDid things.\n", "utf-8")
    code, out, err = run(capsys, "init")
    assert code == 2 and "workmem migrate" in err
    code, out, _ = run(capsys, "migrate", "--dry-run")
    assert code == 0 and out.startswith("Plan (dry run, nothing written)")
    assert not (root / "memory/state.json").exists()


def test_workmem_command_when_registered(root: Path) -> None:
    from workmem.cli import COMMANDS

    if "load" not in COMMANDS:
        pytest.skip("journal commands are not registered in workmem.cli.COMMANDS yet")
    done = subprocess.run(
        [sys.executable, "-m", "workmem", "load", "hello", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["metadata"]["strategy"] == "deep_reload"
