"""The handoff benchmark: each platform's layout and hook JSON as workmem reads them, the
turns of a replay, clocks that agree, and one small run end to end."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

import pytest

from tests.transcripts.util import ClaudeWriter
from workmem.continuity import hook_shapes as shapes
from workmem.continuity.handoff_bench import run
from workmem.continuity.handoff_replay import (
    FIRST_PROMPT,
    chosen_turns,
    replay_source,
    turns_before,
)
from workmem.continuity.handoff_report import pair_lines, summary_lines
from workmem.continuity.layouts import TARGETS, Placed, add_prompt, new_session, transcript_path
from workmem.continuity.sandbox import Sandbox, call_here
from workmem.continuity.truth import read_recording
from workmem.hooks.events import canonical_event
from workmem.hooks.io import parse_input
from workmem.transcripts.discover import find_transcripts
from workmem.transcripts.read import read_transcript

MOMENT = datetime(2026, 5, 25, 10, 0).timestamp()


def handoff_session(path: Path) -> Path:
    """Two turns: a plan set and started; then a second request, the plan moved on, and
    edits of a file read before (the cut falls after the second plan update)."""
    w = ClaudeWriter(session="hand-1", cwd="/proj")
    w.user("Please port the csv importer to streaming rows and keep the tests green")
    todos = [
        {"content": "Stream rows", "status": "in_progress", "activeForm": "Streaming"},
        {"content": "Update tests", "status": "pending", "activeForm": "Updating"},
    ]
    w.assistant(tools=[w.tool_use("TodoWrite", "t1", todos=todos)])
    w.result("t1", "ok")
    for n in range(4):
        w.assistant(tools=[w.tool_use("Read", f"r{n}", file_path=f"/proj/src/m{n}.py")])
        w.result(f"r{n}", "code")
    w.assistant("Streaming is in place; the tests are next.")
    w.user("Now also update the tests for the streaming rows importer please")
    later = [{**todos[0], "status": "completed"}, {**todos[1], "status": "in_progress"}]
    w.assistant(tools=[w.tool_use("TodoWrite", "t2", todos=later)])
    w.result("t2", "ok")
    for n in range(10):
        target = "/proj/src/m0.py" if n % 2 else f"/proj/tests/t{n}.py"
        edit = w.tool_use("Edit", f"e{n}", file_path=target, old_string="a", new_string="b")
        w.assistant(tools=[edit])
        w.result(f"e{n}", "ok")
    return w.write(path)


@pytest.mark.parametrize("platform", TARGETS)
def test_a_new_session_is_where_and_as_its_platform_writes_it(
    platform: str, tmp_path: Path
) -> None:
    home, root = tmp_path / "home", tmp_path / "project"
    root.mkdir()
    sid = "0b6f7c1e-2f4b-4c55-9d43-1b2f3a4c5d6e"
    path = transcript_path(platform, home, root, sid, MOMENT)
    new_session(platform, path, sid, root, MOMENT)
    add_prompt(platform, path, sid, root, FIRST_PROMPT, MOMENT + 5)
    assert path in [ref.path for ref in find_transcripts(root, platform, home)]
    read = read_transcript(path, platform)
    users = [m.text for m in read.messages if m.role == "user"]
    assert users and users[-1].strip() == FIRST_PROMPT
    assert path.stat().st_mtime == MOMENT + 5


@pytest.mark.parametrize("platform", TARGETS)
def test_hook_json_reads_as_the_platform_sends_it(
    platform: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, root = tmp_path / "home", tmp_path / "project"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("OPENCLAW_STATE_DIR", raising=False)
    sid = "hand-1"
    path = transcript_path(platform, home, root, sid, MOMENT)
    for step in (shapes.START, shapes.PROMPT, shapes.COMPACT, shapes.TURN_END, shapes.END):
        event = shapes.event_name(platform, step)
        if event is None:
            assert (platform, step) == ("openclaw", shapes.TURN_END)  # not subscribed yet
            continue
        data = shapes.payload(
            platform, step, session_id=sid, transcript=path, root=root, text="do it now"
        )
        inp = parse_input(json.dumps(data), platform, canonical_event(event, platform))
        assert (inp.session_id, inp.transcript, inp.cwd) == (sid, path, root), step
        if step == shapes.PROMPT:
            assert inp.prompt == "do it now"


def test_what_reaches_the_model_in_each_reply_format(tmp_path: Path) -> None:
    claude = json.dumps({"hookSpecificOutput": {"additionalContext": "ctx"}})
    assert shapes.model_context("claude-code", shapes.START, claude, tmp_path) == "ctx"
    assert shapes.model_context("claude-code", shapes.COMPACT, claude, tmp_path) == ""
    assert shapes.model_context("gemini", shapes.PROMPT, claude, tmp_path) == "ctx"
    cursor = json.dumps({"additional_context": "start ctx"})
    assert shapes.model_context("cursor", shapes.START, cursor, tmp_path) == "start ctx"
    rules = tmp_path / ".cursor" / "rules" / "workmem.mdc"
    rules.parent.mkdir(parents=True)
    rules.write_text("---\nalwaysApply: true\n---\n\nthe rules body\n")
    answer = json.dumps({"continue": True})
    assert shapes.model_context("cursor", shapes.PROMPT, answer, tmp_path) == "the rules body"
    openclaw = json.dumps({"context": "boot", "messages": ["to the user"]})
    assert shapes.model_context("openclaw", shapes.START, openclaw, tmp_path) == "boot"
    assert shapes.model_context("openclaw", shapes.PROMPT, openclaw, tmp_path) == ""
    assert shapes.model_context("codex", shapes.START, "not json", tmp_path) == ""


def test_turns_and_which_are_replayed(tmp_path: Path) -> None:
    rec = read_recording(handoff_session(tmp_path / "h.jsonl"))
    cut = len(rec.lines) - 3
    turns = turns_before(rec, cut)
    assert [t.prompt.text[:10] for t in turns] == ["Please por", "Now also u"]
    assert turns[0].end == turns[1].prompt.line - 1 and turns[1].end is None
    assert turns[0].reply == "Streaming is in place; the tests are next."
    many = turns * 5
    kept, skipped = chosen_turns(many, 4)
    assert kept == [many[0], *many[-3:]] and skipped == 6
    assert chosen_turns(turns, 4) == (turns, 0)


def test_the_replay_keeps_the_recordings_clock(tmp_path: Path) -> None:
    rec = read_recording(handoff_session(tmp_path / "h.jsonl"))
    cut = len(rec.lines) - 3
    box = Sandbox.create(tmp_path / "box", inprocess=True)
    source = replay_source(box, rec, cut)
    assert source.turns == 2 and source.skipped == 0
    assert box.failures == [] and box.hook_log() == []
    # The memory's own times are the recording's, and so is the transcript's mtime.
    first = datetime.fromtimestamp(rec.time_at(0) or 0).strftime("%Y-%m-%d %H:%M")
    board = (box.root / "memory" / "index.md").read_text()
    assert f"| {first} |" in board
    assert source.transcript.stat().st_mtime == rec.time_at(cut) == source.last
    # and so are the memory files' own mtimes: written at moments of the recording
    first_time = rec.time_at(0) or 0
    for path in (box.root / "memory").rglob("*"):
        if path.is_file():
            assert first_time - 86400 <= path.stat().st_mtime <= source.last, path
    # The recorded session was made in /proj: it now reads as made in the project.
    assert b'"cwd": "/proj"' not in source.transcript.read_bytes()
    assert str(box.root).encode() in source.transcript.read_bytes()


def test_a_call_inside_this_process_gives_everything_back(tmp_path: Path) -> None:
    before_env, before_cwd = dict(os.environ), Path.cwd()
    (tmp_path / "workmem.toml").write_text("")  # a project: hooks start memory only in one
    code, out, _err = call_here(
        ["hook", "SessionStart", "--platform", "claude-code"],
        json.dumps({"session_id": "x", "cwd": str(tmp_path)}),
        tmp_path,
        {"HOME": str(tmp_path), "WORKMEM_NOW": "2026-05-25 10:00", "PATH": os.environ["PATH"]},
    )
    assert code == 0 and "Your Memory Session ID is: 2026-05-25-1000" in out
    assert dict(os.environ) == before_env and Path.cwd() == before_cwd
    from workmem.retrieval import tokens

    assert tokens._mode is None  # the hook's quick estimate does not stay


def test_a_small_run_end_to_end(tmp_path: Path) -> None:
    handoff_session(tmp_path / "data" / "claude-code" / "hand-1.jsonl")
    report = run(tmp_path / "data", workers=1)
    summary = report["summary"]
    assert summary["sessions"] == {"claude-code": 1} and summary["cuts"] == 1
    assert summary["targets"] == sorted(TARGETS)
    cuts = report["cuts"]
    assert len(cuts) == len(TARGETS) * 3  # every target, every case, each in the JSON
    assert {(c["target"], c["case"]) for c in cuts} == {
        (t, case) for t in TARGETS for case in ("ended", "never-ended", "parallel")
    }
    assert all(c["truth"]["plan"] == ["Update tests"] for c in cuts)
    assert all(c["truth"]["files"] == ["src/m0.py"] for c in cuts)
    assert all(c["failures"] == [] for c in cuts), [c["failures"] for c in cuts]
    assert all(c["start_tokens"] > 0 for c in cuts)  # every platform's start was read
    for case in ("ended", "never-ended", "parallel"):
        assert summary["cases"][case]["new_sessions"] == len(TARGETS)
        assert set(summary["cases"][case]["memory_at_start"]) == {
            "MEMORY.md Active entry",
            "feedback memory",
        }
    for name, figures in summary["cases"].items():
        nothing = sum(1 for c in cuts if c["case"] == name and c["score"] == 0.0)
        assert figures["nothing_of_the_work"] == nothing
    # a context with nothing of the work fails the no-empty-context target
    none_at_all = not any(c["score"] == 0.0 or c["empty"] for c in cuts)
    assert summary["targets_met"]["no_empty_context"] is none_at_all
    assert summary["cases"]["parallel"]["open_items"] == len(TARGETS)
    assert summary["cases"]["parallel"]["leak"] is not None
    assert summary["cases"]["ended"]["leak"] is None
    source = report["sources"][0]
    assert (source["turns_replayed"], source["turns_skipped"]) == (2, 0)
    assert source["failures"] == [] and report["accounts_at_end"][0]["failures"] == []
    assert source["account_at_cut"]["documents"]  # the session end left an account
    assert [a["file"] for a in report["accounts_at_end"]] == ["hand-1.jsonl"]
    assert report["accounts_at_end"][0]["finished_called_in_progress"] is False
    assert len(summary["pairs"]) == len(TARGETS)
    lines = summary_lines(report)
    assert len(lines) <= 12 and lines[0].startswith("handoff: 1 cuts")
    assert lines[-2].startswith("targets:")
    assert len(pair_lines(report)) == 1 + len(TARGETS) * 3


def test_a_folder_with_nothing_to_cut_is_an_error(tmp_path: Path) -> None:
    from workmem.cli import main

    (tmp_path / "notes.json").write_text('{"not": "a chat"}')
    with pytest.raises(SystemExit):
        main(["bench", "handoff"])  # --data is required
    assert main(["bench", "handoff", "--data", str(tmp_path)]) == 3
    assert main(["bench", "handoff", "--data", str(tmp_path / "missing")]) == 3


def test_a_placed_gemini_chat_names_the_project(tmp_path: Path) -> None:
    document = {
        "sessionId": "g-1",
        "projectHash": "elsewhere",
        "startTime": "2026-05-25T10:00:00Z",
        "messages": [{"id": "u", "timestamp": "2026-05-25T10:00:01Z", "type": "user"}],
    }
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(document))
    rec = read_recording(source)
    placed = Placed(rec, tmp_path / "home", tmp_path / "project")
    path = placed.write(0, MOMENT)
    written = json.loads(path.read_text())
    assert written["projectHash"] == path.parent.parent.name != "elsewhere"
    assert path.name.startswith("session-") and path.suffix == ".json"
    assert rec.document["projectHash"] == "elsewhere"  # the recording itself is untouched


def test_work_left_running_in_a_sandbox_is_seen(tmp_path: Path) -> None:
    import subprocess
    import sys

    from workmem.continuity.sandbox import busy

    if not Path("/proc").is_dir():
        pytest.skip("no /proc: nothing is waited for here")
    assert not busy(tmp_path)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"], cwd=tmp_path)
    try:
        assert busy(tmp_path) and busy(tmp_path, own_only=True)
        assert not busy(tmp_path / "elsewhere", own_only=True)
    finally:
        child.kill()
        child.wait()
    assert not busy(tmp_path)


def test_a_failing_hook_is_reported_not_scored_as_silence(tmp_path: Path) -> None:
    """A hook part that fails (the board cannot be written, a line in the hook log) is
    reported by the benchmark, even though the rest of the start still reaches the model."""
    from workmem.continuity.handoff_bench import _new_failures
    from workmem.continuity.handoff_replay import arrive

    box = Sandbox.create(tmp_path / "box", inprocess=True)
    box.seed_memory(MOMENT - 60)
    (box.root / "memory" / "index.md").write_text("| not | the board |\n|---|---|\n")
    before = (len(box.failures), len(box.hook_log()))
    arrival = arrive(box, "claude-code", MOMENT, "broken")
    assert arrival.start.startswith("No Memory Session ID yet")  # the rest of the start ...
    failures = _new_failures(box, *before)  # ... and what its log says is reported
    assert failures and all("claude-code:" in line for line in failures)
