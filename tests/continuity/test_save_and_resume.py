"""A session saved by the hooks comes back after a compaction: real prose, failing parts,
no saved notes, a plan kept with the Task tools, a budget."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from tests.continuity.sessions import LAST_REQUEST, PLAN, hazardous_session
from tests.transcripts.util import claude_project
from workmem.cli import main
from workmem.continuity import save
from workmem.files.sections import Document
from workmem.files.tables import TableDocument
from workmem.journal.daily import digest
from workmem.notes import template
from workmem.relay.template import SECTIONS, section_key


@pytest.fixture
def session(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    path = hazardous_session(claude_project(home, root) / "sess-hazard.jsonl", str(root))
    return {"session_id": "sess-hazard", "transcript_path": str(path), "cwd": str(root)}


def hook(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    event: str,
    payload: dict[str, str],
    platform: str = "claude-code",
) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    assert main(["hook", event, "--platform", platform]) == 0
    return capsys.readouterr().out


def context_of(out: str) -> str:
    return str(json.loads(out)["hookSpecificOutput"]["additionalContext"])


def start(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    base: dict[str, str],
    source: str,
) -> str:
    return context_of(hook(monkeypatch, capsys, "SessionStart", {**base, "source": source}))


def sid_of(context: str) -> str:
    return context.splitlines()[0].removeprefix("Your Memory Session ID is: ")


def test_real_prose_goes_through_every_save_path_and_every_file_still_reads(
    root: Path,
    session: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sid = sid_of(start(monkeypatch, capsys, session, "startup"))
    out = hook(monkeypatch, capsys, "PreCompact", {**session, "trigger": "auto"})
    assert "failed" not in out and "notes, snapshot, relay" in out
    # The wrap-up trigger phrase and the session end write the same files again.
    hook(monkeypatch, capsys, "UserPromptSubmit", {**session, "prompt": "收工"})
    assert hook(monkeypatch, capsys, "SessionEnd", {**session, "reason": "exit"}) == ""
    assert not (root / "memory" / ".workmem" / "hook.log").exists()

    memory = root / "memory"
    notes = template.read((memory / "sessions" / f"{sid}.notes.md").read_text())
    assert notes.problems == [] and notes.extra == []
    # Key Results holds the replies' results verbatim (here their tables), not their prose
    assert "| src/parse.py | strict mode |" in notes.sections["Key Results"]
    assert "## Summary" not in notes.sections["Key Results"]
    snapshot = Document.parse((memory / "sessions" / f"{sid}.md").read_text())
    assert [s.title for s in snapshot.sections] == [
        "Metadata",
        "Current Context",
        "Decisions",
        "Files / Artifacts",
        "Open Questions",
        "Next Actions",
        "Continues From",
        "Superseded / Resolved",
    ]
    relay = (memory / "relay-snapshot.md").read_text()
    found = [section_key(line[3:]) for line in relay.split("\n") if line.startswith("## ")]
    assert found == [key for key, _ in SECTIONS]
    daily = next(memory.glob("2026-*.md")).read_text()
    assert "Session 42" not in "\n".join(x for x in daily.splitlines() if x.startswith("#"))
    log_index = TableDocument.parse((memory / "log-index.md").read_text())
    assert len(list(log_index.records())) == 1
    assert digest(daily).sessions >= 1
    board = TableDocument.parse((memory / "index.md").read_text())
    row = next(board.records())
    assert row["Status"] == "active" and "Implement the following plan" in row["Topic"]


def test_a_failing_part_costs_only_itself_and_the_next_start_says_so(
    root: Path,
    session: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def broken(job: save.SaveInput) -> str:
        raise RuntimeError("the notes writer broke")

    monkeypatch.setitem(save.PARTS, save.NOTES, broken)
    sid = sid_of(start(monkeypatch, capsys, session, "startup"))
    out = hook(monkeypatch, capsys, "PreCompact", {**session, "trigger": "auto"})
    assert "failed: notes" in out
    memory = root / "memory"
    assert (memory / "sessions" / f"{sid}.md").is_file()
    assert (memory / "relay-snapshot.md").is_file()
    assert not (memory / "sessions" / f"{sid}.notes.md").exists()
    log = (memory / ".workmem" / "hook.log").read_text()
    assert "claude-code:pre-compact/notes: RuntimeError: the notes writer broke" in log
    record = json.loads((memory / ".workmem" / "last-save.json").read_text())
    assert record["failed"] == {"notes": "RuntimeError: the notes writer broke"}

    context = start(monkeypatch, capsys, session, "compact")
    assert "Note: the last save (pre-compact" in context and "failed for: notes" in context
    assert "[in progress] Handle CRLF line endings in the tokenizer" in context
    # A new session is told too, naming whose save it was.
    other = start(monkeypatch, capsys, {**session, "session_id": "another"}, "startup")
    assert f"Note: the last save of session {sid} (pre-compact" in other

    code = main(["doctor", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    hooks = [f for f in report["findings"] if f["kind"] == "hook-failure"]
    assert len(hooks) == 1 and "failed 1 time(s)" in hooks[0]["message"]
    assert "the notes writer broke" in hooks[0]["message"]
    main(["doctor", "--fix"])
    capsys.readouterr()
    main(["doctor", "--json"])
    again = json.loads(capsys.readouterr().out)
    assert not [f for f in again["findings"] if f["kind"] == "hook-failure"]


def test_resume_without_any_save_gives_back_plan_request_and_files_from_the_transcript(
    root: Path,
    session: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    start(monkeypatch, capsys, session, "startup")
    context = start(monkeypatch, capsys, session, "compact")
    assert "[in progress] Handle CRLF line endings in the tokenizer" in context
    assert f"[pending] {PLAN[2]}" in context
    assert f"[done] {PLAN[0]}" in context  # finished: shown as done, never as an open step
    assert f"[in progress] {PLAN[0]}" not in context and f"[pending] {PLAN[0]}" not in context
    assert LAST_REQUEST in " ".join(context.split())
    assert "src/parse.py" in context and "src/lexer.py" in context
    assert "None" not in context


def test_resume_says_each_fact_once(
    root: Path,
    session: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    start(monkeypatch, capsys, session, "startup")
    hook(monkeypatch, capsys, "PreCompact", {**session, "trigger": "auto"})
    context = start(monkeypatch, capsys, session, "compact")
    assert context.count("Handle CRLF line endings in the tokenizer") == 1
    assert context.count("add regression tests for the byte order mark case") == 1
    assert context.count("`src/parse.py` (modified") == 1 and context.count("## Files") == 1


def test_claude_codes_stored_task_files_are_the_live_plan(
    root: Path,
    session: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tasks = tmp_path / "home" / ".claude" / "tasks" / "sess-hazard"
    tasks.mkdir(parents=True)
    for number, (subject, status) in enumerate(
        [(PLAN[0], "completed"), (PLAN[1], "completed"), ("Ship the strict parser", "in_progress")],
        1,
    ):
        (tasks / f"{number}.json").write_text(
            json.dumps(
                {
                    "id": str(number),
                    "subject": subject,
                    "description": "",
                    "activeForm": subject,
                    "status": status,
                    "blocks": [],
                    "blockedBy": [],
                }
            )
        )
    start(monkeypatch, capsys, session, "startup")
    context = start(monkeypatch, capsys, session, "compact")
    assert "[in progress] Ship the strict parser" in context
    assert "[in progress] Handle CRLF" not in context


def test_the_resume_fits_its_budget_and_names_what_it_left_out(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.transcripts.util import ClaudeWriter
    from workmem.retrieval.tokens import count_tokens

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    (root / "workmem.toml").write_text("[hooks]\nresume_tokens = 800\n")
    w = ClaudeWriter(session="big", cwd=str(root))
    w.user("Refactor everything. " + " ".join(f"detail{n} matters" for n in range(3000)))
    todos = [
        {"content": f"Step {n}: " + "word " * 25, "status": "pending", "activeForm": "x"}
        for n in range(40)
    ]
    todos[0]["status"] = "in_progress"
    w.assistant(tools=[w.tool_use("TodoWrite", "t1", todos=todos)])
    w.result("t1", "Todos have been modified successfully")
    for n in range(30):
        w.assistant(
            tools=[
                w.tool_use(
                    "Edit", f"e{n}", file_path=f"{root}/src/m{n}.py", old_string="a", new_string="b"
                )
            ]
        )
        w.result(f"e{n}", "ok")
    path = w.write(claude_project(home, root) / "big.jsonl")
    base = {"session_id": "big", "transcript_path": str(path), "cwd": str(root)}
    start(monkeypatch, capsys, base, "startup")
    context = start(monkeypatch, capsys, base, "compact")
    assert count_tokens(context) <= 800
    assert "[in progress] Step 0:" in context
    assert "To stay within 800 tokens" in context and "shortened: Plan" in context


def test_a_short_follow_up_comes_back_with_the_request_it_follows(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.transcripts.util import ClaudeWriter

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    w = ClaudeWriter(session="f", cwd=str(root))
    w.user("Review the retry logic in the uploader and make backoff exponential with jitter")
    w.assistant("Here is my review.")
    w.user("yes, do it")
    w.assistant("Doing it.")
    path = w.write(claude_project(home, root) / "f.jsonl")
    base = {"session_id": "f", "transcript_path": str(path), "cwd": str(root)}
    start(monkeypatch, capsys, base, "startup")
    context = start(monkeypatch, capsys, base, "compact")
    request = context.split("## Last request")[1]
    assert "Earlier request:" in request and "make backoff exponential with jitter" in request
    assert request.index("exponential") < request.index("yes, do it")


def test_the_agents_own_summary_and_topic_win_over_a_saves(
    root: Path,
    session: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sid = sid_of(start(monkeypatch, capsys, session, "startup"))
    hook(monkeypatch, capsys, "PreCompact", {**session, "trigger": "auto"})
    row = next(TableDocument.parse((root / "memory" / "index.md").read_text()).records())
    # from the account: the step in progress, never the request alone
    assert row["Summary"].startswith("In progress: Handle CRLF line endings")
    assert (
        main(
            [
                "session",
                "update",
                sid,
                "--topic",
                "Strict parser",
                "--summary",
                "The parser rejects malformed rows.",
            ]
        )
        == 0
    )
    capsys.readouterr()
    hook(monkeypatch, capsys, "PreCompact", {**session, "trigger": "auto"})
    row = next(TableDocument.parse((root / "memory" / "index.md").read_text()).records())
    assert row["Topic"] == "Strict parser"
    assert row["Summary"] == "The parser rejects malformed rows."
