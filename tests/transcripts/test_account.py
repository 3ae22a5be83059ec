"""The account of a session: what happened, from the transcript, never invented."""

from __future__ import annotations

from pathlib import Path

from tests.transcripts.util import ClaudeWriter
from workmem.continuity.account_text import headline
from workmem.files.shorten import clip_words
from workmem.transcripts.account import (
    FINISHED,
    IN_PROGRESS,
    UNKNOWN,
    WAITING,
    build_account,
)
from workmem.transcripts.model import Transcript
from workmem.transcripts.read import read_transcript


def _read(w: ClaudeWriter, tmp_path: Path) -> Transcript:
    path = w.write(tmp_path / "s.jsonl")
    return read_transcript(path, "claude-code")


def _todo(w: ClaudeWriter, tool_id: str, *items: tuple[str, str]) -> None:
    todos = [{"content": text, "status": status, "activeForm": text} for text, status in items]
    w.assistant(tools=[w.tool_use("TodoWrite", tool_id, todos=todos)])
    w.result(tool_id, "Todos have been modified successfully")


def _bash(w: ClaudeWriter, tool_id: str, command: str, output: str, *, error: bool = False) -> None:
    w.assistant(tools=[w.tool_use("Bash", tool_id, command=command)])
    w.result(tool_id, output, is_error=error)


def test_a_finished_plan_with_a_commit_and_passing_tests_is_told_as_done(tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(tmp_path))
    w.user("Port the utility library from Python to Rust and keep the tests green")
    _todo(w, "t1", ("Port string utils", "in_progress"), ("Run tests and lint", "pending"))
    _bash(w, "b1", "cargo test 2>&1", "test result: ok. 12 passed; 0 failed; 0 ignored")
    _bash(
        w,
        "b2",
        "git add -A && git commit -m \"$(cat <<'EOF'\nPort utils to Rust\n\nBody\nEOF\n)\"",
        "[main 7e2d976] Port utils to Rust\n 5 files changed",
    )
    _todo(w, "t2", ("Port string utils", "completed"), ("Run tests and lint", "completed"))
    w.assistant(
        "Now let me check the tree.\n\nThe library has been fully ported to Rust. All tests pass."
    )
    account = build_account(_read(w, tmp_path))
    assert account.status == FINISHED
    assert account.open == [] and account.done == ["Port string utils", "Run tests and lint"]
    assert account.commits == ["7e2d976 Port utils to Rust"]
    assert account.tests[-1].passed and account.tests[-1].figures == "12 passed"
    line = headline(account)
    assert line.startswith("Done: The library has been fully ported to Rust")
    assert "in progress" not in line.casefold() and "last request" not in line.casefold()
    assert "7e2d976 Port utils to Rust" in line and "tests passed (12 passed)" in line


def test_an_open_plan_is_in_progress_and_never_done(tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(tmp_path))
    w.user("Add rate limiting to the login endpoint with tests for both limits")
    _todo(
        w,
        "t1",
        ("Write the middleware", "completed"),
        ("Add metrics", "in_progress"),
        ("Write the tests", "pending"),
        ("Old idea", "cancelled"),
    )
    w.assistant("Done with the middleware. Now the metrics.")
    account = build_account(_read(w, tmp_path))
    assert account.status == IN_PROGRESS
    assert account.open == [("in_progress", "Add metrics"), ("pending", "Write the tests")]
    assert account.dropped == ["Old idea"]
    line = headline(account)
    assert line.startswith("In progress: Add metrics. next: Write the tests. 1 of 4 steps done")
    assert "Done:" not in line


def test_failing_tests_are_not_called_passing(tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(tmp_path))
    w.user("Fix the flaky parser test in the tokenizer module please")
    failed = "FAILED tests/test_parse.py::test_bom\n1 failed, 9 passed"
    _bash(w, "b1", "pytest -q", failed, error=True)
    w.assistant("I changed the tokenizer; the BOM test still fails.")
    account = build_account(_read(w, tmp_path))
    assert not account.tests[-1].passed
    assert account.status == UNKNOWN  # "changed" is not a claim that the work is done
    assert "tests failing (1 failed, 9 passed)" in headline(account)


def test_zero_failed_is_a_pass(tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(tmp_path))
    w.user("Run the whole test suite and tell me how it went")
    _bash(w, "b1", "go test ./...", "ok  \tpkg/a\t0.1s\n5 passed, 0 failed")
    account = build_account(_read(w, tmp_path))
    assert account.tests[-1].passed and account.tests[-1].figures == "5 passed"


def test_a_question_at_the_end_without_a_plan_waits_for_the_user(tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(tmp_path))
    w.user("Cherry-pick the ignore-file fix onto the release branch and test it")
    w.assistant("Tests pass on the branch.\n\nWant me to open a PR, or merge it into main?")
    account = build_account(_read(w, tmp_path))
    assert account.status == WAITING
    assert headline(account).startswith(
        "Waiting for the user's answer: Want me to open a PR, or merge it into main?"
    )


def test_decisions_come_in_the_transcripts_own_words(tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(tmp_path))
    w.user("Pick a storage backend for the single-user app and wire it in")
    w.assistant("Should I use SQLite or Postgres for this?")
    w.user("SQLite, it is single-user")
    w.assistant(
        "Let me use the Read tool on the config.\n"
        "We'll use SQLite instead of Postgres because the app has one user."
    )
    account = build_account(_read(w, tmp_path))
    assert account.decisions == [
        "Should I use SQLite or Postgres for this? → SQLite, it is single-user",
        "We'll use SQLite instead of Postgres because the app has one user.",
    ]


def test_a_session_with_only_questions_says_what_was_asked_not_an_outcome(tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(tmp_path))
    w.user("How does the session board decide which rows are stale?")
    w.assistant("Rows untouched for fourteen days are marked stale by organize.")
    account = build_account(_read(w, tmp_path))
    assert account.status == UNKNOWN and not account.commits and not account.tests
    line = headline(account)
    assert line.startswith("Worked on: How does the session board decide which rows are stale?")
    assert "Done" not in line


def test_a_plan_that_contradicts_the_last_words_follows_the_plan(tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(tmp_path))
    w.user("Migrate the settings loader to TOML and update every caller")
    _todo(w, "t1", ("Write the TOML loader", "completed"), ("Update the callers", "pending"))
    w.assistant("All done! Everything is migrated.")
    account = build_account(_read(w, tmp_path))
    assert account.status == IN_PROGRESS
    assert headline(account).startswith("next: Update the callers. 1 of 2 steps done")


def test_the_account_speaks_the_users_language(tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(tmp_path))
    w.user("請幫我把設定檔的載入改成 TOML 格式並更新所有呼叫的地方")
    _todo(w, "t1", ("寫 TOML 載入器", "completed"), ("更新呼叫端", "in_progress"))
    account = build_account(_read(w, tmp_path))
    line = headline(account, "zh-TW")
    assert line.startswith("進行中：更新呼叫端") and line.endswith("。")


def test_clipping_never_cuts_mid_word() -> None:
    text = "The coverage is now 100% complete across every module of the crate"
    clipped = clip_words(text, 30)
    assert clipped.endswith("…") and len(clipped) <= 30
    assert clipped[:-1].split()[-1] in text.split()
    assert clip_words("短い文章です" * 20, 10).endswith("…")


def test_an_openclaw_channels_envelope_is_not_the_users_words() -> None:
    from workmem.transcripts.openclaw import without_envelope

    wrapped = (
        'Conversation info (untrusted metadata):\n```json\n{\n  "timestamp": '
        '"Mon 2026-03-02 21:02 GMT+8"\n}\n```\n\nIs the PR green yet?'
    )
    assert without_envelope(wrapped) == "Is the PR green yet?"
    assert without_envelope("[Mon 2026-03-02 16:03 GMT+8] look at PR 31437") == "look at PR 31437"
    assert (
        without_envelope("see [Mon 2026-03-02 16:03 GMT+8]") == "see [Mon 2026-03-02 16:03 GMT+8]"
    )
    assert without_envelope("[Mon 2026-03-02 16:03 GMT+8]") == "[Mon 2026-03-02 16:03 GMT+8]"
