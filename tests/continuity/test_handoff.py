"""The next session, in any agent, picks up where the last one stopped, even when it never
ended; a session still running elsewhere is named in one line and never handed over."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.continuity.hooks import context_of, hook, sid_of, touch
from tests.continuity.sessions import LAST_REQUEST, PLAN, hazardous_session
from tests.transcripts.util import claude_project
from workmem.cli import main
from workmem.continuity import activity
from workmem.continuity.briefing import build_start
from workmem.continuity.roster import read_roster
from workmem.files.tables import TableDocument
from workmem.retrieval.tokens import upper_estimate
from workmem.root import Workspace

OPEN_STEP = f"[in progress] {PLAN[1]}"


@pytest.fixture
def first(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A Claude Code session that planned, edited and was mid-step at 13:10."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    path = hazardous_session(claude_project(home, root) / "sess-a.jsonl", str(root))
    return {"session_id": "sess-a", "transcript_path": str(path), "cwd": str(root)}


def run_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], first: dict[str, str]
) -> str:
    sid = sid_of(
        context_of(hook(monkeypatch, capsys, "SessionStart", first, at="2026-05-25 13:00"))
    )
    hook(
        monkeypatch,
        capsys,
        "UserPromptSubmit",
        {**first, "prompt": LAST_REQUEST},
        at="2026-05-25 13:05",
    )
    hook(monkeypatch, capsys, "Stop", first, at="2026-05-25 13:10")
    return sid


def start_codex(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    root: Path,
    at: str,
    session: str = "codex-b",
) -> str:
    payload = {"session_id": session, "cwd": str(root), "source": "startup"}
    out = hook(monkeypatch, capsys, "SessionStart", payload, "codex", at=at)
    return context_of(out, "codex")


def test_a_session_that_never_ended_is_handed_to_another_agent(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first_sid = run_first(monkeypatch, capsys, first)
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:40")
    assert f"Claude Code session `{first_sid}`" in context
    assert "stopped without ending 30 min ago" in context
    assert OPEN_STEP in context and f"[pending] {PLAN[2]}" in context
    assert f"[done] {PLAN[0]}" in context  # finished: shown as done, never as open
    assert LAST_REQUEST in context and "src/parse.py" in context
    assert context.startswith("Your Memory Session ID is: ")
    assert upper_estimate(context) <= 1200
    lines = [line for line in context.splitlines() if len(line.strip()) > 20]
    assert len(lines) == len(set(lines))  # each fact once


def test_a_running_session_gets_one_line_and_never_its_plan(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first_sid = run_first(monkeypatch, capsys, first)
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:12")
    line = next(x for x in context.splitlines() if first_sid in x)
    assert "running now in another window, last active 2 min ago" in line
    for step in PLAN:
        assert step not in context
    assert LAST_REQUEST not in context


def test_an_ended_session_is_handed_over_at_once(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first_sid = run_first(monkeypatch, capsys, first)
    hook(monkeypatch, capsys, "SessionEnd", {**first, "reason": "exit"}, at="2026-05-25 13:11")
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:12")
    assert f"Claude Code session `{first_sid}`" in context and "it ended 1 min ago" in context
    assert OPEN_STEP in context
    record = activity.read(Workspace(root), first_sid)
    assert record is not None and record.ended == "2026-05-25 13:11"


def test_a_dead_agent_process_means_stopped_even_a_minute_later(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first_sid = run_first(monkeypatch, capsys, first)
    dead = os.fork()
    if dead == 0:  # pragma: no cover - the child exits at once
        os._exit(0)
    os.waitpid(dead, 0)
    workspace = Workspace(root)
    from workmem.files.store import Store

    activity.update(Store(workspace), first_sid, lambda d: d.update(agent=f"{dead}:1"))
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:11")
    assert "stopped without ending 1 min ago" in context and OPEN_STEP in context


def test_continue_at_the_first_prompt_hands_over_in_full_and_links_both_sides(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first_sid = run_first(monkeypatch, capsys, first)
    start = start_codex(monkeypatch, capsys, root, "2026-05-25 13:40")
    new_sid = sid_of(start)
    payload = {"session_id": "codex-b", "cwd": str(root), "prompt": "continue"}
    said = context_of(hook(monkeypatch, capsys, "UserPromptSubmit", payload, "codex"), "codex")
    # The start showed the plan and the request; "continue" adds what it had no room for
    # and never says a fact twice.
    both = start + "\n" + said
    assert both.count(OPEN_STEP) == 1 and both.count(LAST_REQUEST) == 1
    assert f"start showed the work of `{first_sid}` already" in said
    assert upper_estimate(start) + upper_estimate(said) <= 3000
    snapshot = (root / "memory" / "sessions" / f"{new_sid}.md").read_text()
    assert first_sid in snapshot.split("## Continues From")[1]
    board_text = (root / "memory" / "index.md").read_text()
    board = {r["Session ID"]: r for r in TableDocument.parse(board_text).records()}
    assert new_sid in board[first_sid]["Referenced By"]
    # Once per session: a later "continue" is about this session's own work.
    again = context_of(hook(monkeypatch, capsys, "UserPromptSubmit", payload, "codex"), "codex")
    assert OPEN_STEP not in again


def test_continue_never_takes_a_running_sessions_plan_unless_it_is_named(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first_sid = run_first(monkeypatch, capsys, first)
    start_codex(monkeypatch, capsys, root, "2026-05-25 13:11")  # a minute after: running
    ask = {"session_id": "codex-b", "cwd": str(root), "prompt": "continue where we left off"}
    said = context_of(hook(monkeypatch, capsys, "UserPromptSubmit", ask, "codex"), "codex")
    assert OPEN_STEP not in said and f"{first_sid}, still looks active" in said
    named = {**ask, "prompt": f"continue memory {first_sid}"}
    taken = context_of(hook(monkeypatch, capsys, "UserPromptSubmit", named, "codex"), "codex")
    assert first_sid in taken
    assert main(["handoff", first_sid]) == 0  # named: handed over, with the warning
    out = capsys.readouterr().out
    assert OPEN_STEP in out and "still looks active" in out


def test_workmem_handoff_names_a_session_or_says_there_is_none(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["handoff"]) == 3
    assert "no earlier session" in capsys.readouterr().err
    first_sid = run_first(monkeypatch, capsys, first)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 14:00")
    assert main(["handoff", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["source"] == first_sid and OPEN_STEP in data["text"]
    assert main(["handoff", "Implement the following"]) == 0  # words of its topic
    assert OPEN_STEP in capsys.readouterr().out
    assert main(["handoff", "2026-01-01-0000-nobody"]) == 3
    assert "no session '2026-01-01-0000-nobody'" in capsys.readouterr().err
    assert main(["handoff", "../../etc/passwd"]) == 3


def test_the_first_session_is_welcomed_without_placeholders(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:00")
    assert "No earlier session is recorded in this project" in context
    assert "#0" not in context and "unknown" not in context and "MemoryLoader" not in context
    assert "workmem search" in context  # how to use memory


def test_memories_reach_the_start_in_their_own_words_expired_marked(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    rule = "Always run the linter before proposing a commit"
    args = ["memory", "add", "--type", "feedback", "--topic", "lint", "--description", "lint first"]
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(rule))
    assert main([*args, "--content", "-"]) == 0
    status = [
        "memory",
        "add",
        "--type",
        "project",
        "--topic",
        "release",
        "--description",
        "v2 ships",
    ]
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("v2 is in beta until June."))
    assert main([*status, "--content", "-"]) == 0
    capsys.readouterr()
    context = start_codex(monkeypatch, capsys, root, "2026-09-30 09:00")  # the project one expired
    assert rule in context
    line = next(x for x in context.splitlines() if "(project) release" in x)
    assert "[expired" in line


def test_a_memory_md_past_its_budget_is_said_and_the_start_keeps_its_budget(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = root / "MEMORY.md"
    facts = "".join(f"- Service {n} talks to the queue through adapter {n}.\n" for n in range(400))
    text = "# Long-term memory\n\n## Active\n- Deploys go through staging first.\n"
    memory.write_text(text + facts + "\n## Fading\n", encoding="utf-8")
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:00")
    part = context.split("## Long-term memory")[1]
    assert part.splitlines()[1].startswith("- MEMORY.md has 4"), part[:300]
    assert "over its budget of 200" in part and "Deploys go through staging first." in part
    assert "Service 399 talks" not in context  # the start's budget holds
    assert upper_estimate(context) <= 1300
    memory.write_text(text, encoding="utf-8")
    assert "over its budget" not in start_codex(monkeypatch, capsys, root, "2026-05-25 13:05")


def test_a_broken_board_still_gives_the_rest_of_the_start(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run_first(monkeypatch, capsys, first)
    board = root / "memory" / "index.md"
    # a hand edit broke the header: no command can read the board, nor register on it
    board.write_text(board.read_text().replace("| Session ID |", "| Session |", 1))
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:40")
    assert context.startswith("No Memory Session ID yet: the session board could not be written")
    assert "The session board (memory/index.md) cannot be read" in context
    assert OPEN_STEP in context  # the handoff comes from the sessions' own records
    assert "workmem search" in context


def test_what_is_handed_over_is_redacted(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.transcripts.util import ClaudeWriter

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    key = "sk-ant-api03-" + "a1B2c3D4" * 10
    w = ClaudeWriter(session="sess-s", cwd=str(root))
    w.user(f"Deploy with ANTHROPIC_API_KEY={key} and check the billing page renders")
    path = w.write(claude_project(home, root) / "sess-s.jsonl")
    payload = {"session_id": "sess-s", "transcript_path": str(path), "cwd": str(root)}
    hook(
        monkeypatch, capsys, "SessionStart", {**payload, "source": "startup"}, at="2026-05-25 13:00"
    )
    touch(path, "2026-05-25 13:01")
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:40")
    assert "billing page" in context and key not in context and "a1B2c3D4" not in context


def test_a_transcript_gone_or_a_corrupt_snapshot_costs_only_itself(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first_sid = run_first(monkeypatch, capsys, first)
    hook(monkeypatch, capsys, "PreCompact", {**first, "trigger": "auto"}, at="2026-05-25 13:11")
    Path(first["transcript_path"]).unlink()
    (root / "memory" / "sessions" / f"{first_sid}.md").write_bytes(b"\xff\xfe\x00 broken")
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:40")
    assert f"`{first_sid}`" in context
    assert PLAN[1] in context  # from the running notes the pre-compact save wrote


def test_a_handoff_never_crosses_projects(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    run_first(monkeypatch, capsys, first)
    other = tmp_path / "other-project"
    other.mkdir()
    monkeypatch.setenv("WORKMEM_ROOT", str(other))
    context = start_codex(monkeypatch, capsys, other, "2026-05-25 13:40")
    assert PLAN[1] not in context and LAST_REQUEST not in context
    assert "No earlier session is recorded" in context


def test_the_same_worktree_is_preferred(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from workmem.files.store import Store

    workspace = Workspace(root)
    (root / "memory").mkdir()
    store = Store(workspace)
    for sid, tree, seen in (
        ("2026-05-25-1200-codex-main-agent", "/repo/wt-a", "2026-05-25 12:00"),
        ("2026-05-25-1300-codex-main-agent", "/repo/wt-b", "2026-05-25 13:00"),
    ):
        values = {"last_seen": seen, "cwd": tree, "platform": "codex", "outcome": "did things"}
        activity.update(store, sid, lambda data, v=values: data.update(v))  # type: ignore[misc]
    roster = read_roster(workspace)
    assert roster.sessions[0].session_id.startswith("2026-05-25-1300")
    from workmem.continuity.roster import choose_handoff

    picked = choose_handoff(roster, None, cwd="/repo/wt-a/src")
    assert picked is not None and picked.session_id == "2026-05-25-1200-codex-main-agent"
    briefing = build_start(workspace, session_id=None, cwd="/repo/wt-a")
    assert briefing.session_shown == "2026-05-25-1200-codex-main-agent"
    assert "2026-05-25-1300-codex-main-agent" in briefing.text  # the other as a line


def test_the_note_an_agent_left_with_end_reaches_the_next_start(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    note = "Next: wire the exporter to the new API; the BOM test is flaky, rerun it once."
    assert main(["end", "--summary", "Refactored storage", "--resumption", note]) == 0
    capsys.readouterr()
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 14:00")
    assert note in context and context.count("wire the exporter") == 1


def test_a_start_without_a_source_for_a_known_session_is_a_resume(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """OpenClaw's bootstrap after a compaction says no source: the same platform session,
    already registered with a transcript, gets its own work back, not a new start."""
    first_sid = run_first(monkeypatch, capsys, first)
    out = hook(monkeypatch, capsys, "SessionStart", first, at="2026-05-25 13:20")
    context = context_of(out)
    assert sid_of(context) == first_sid
    assert "# Where you left off" in context and OPEN_STEP in context


def test_an_openclaw_reply_sent_is_a_turns_end_that_saves(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenClaw has no Stop: a reply sent on a chat channel (message:sent) ends the turn."""
    from tests.transcripts.util import write_jsonl

    session = tmp_path / "oc.jsonl"
    write_jsonl(
        session,
        [
            {"type": "session", "version": 3, "id": "oc-1", "cwd": str(root)},
            {
                "type": "message",
                "id": "m1",
                "message": {"role": "user", "content": "Rename the billing module to invoices"},
            },
        ],
    )
    base = {"sessionId": "oc-1", "sessionFile": str(session), "workspaceDir": str(root)}
    out = hook(monkeypatch, capsys, "agent:bootstrap", base, "openclaw")
    sid = sid_of(context_of(out, "openclaw"))
    hook(monkeypatch, capsys, "message:sent", {**base, "content": "Done."}, "openclaw")
    record = activity.read(Workspace(root), sid)
    assert record is not None and record.data["last_save"]["reason"] == "stop"


def test_an_unfinished_merge_in_the_board_is_named_and_the_rest_still_given(
    root: Path,
    first: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A plain `git merge` without the drivers left markers in the board's rows."""
    run_first(monkeypatch, capsys, first)
    board = root / "memory" / "index.md"
    lines = board.read_text().splitlines()
    row = lines[-1]
    lines[-1:] = ["<<<<<<< HEAD", row, "=======", row.replace("13:00", "13:01"), ">>>>>>> other"]
    board.write_text("\n".join(lines) + "\n")
    context = start_codex(monkeypatch, capsys, root, "2026-05-25 13:40")
    assert "unfinished merge" in context and "workmem doctor" in context
    assert OPEN_STEP in context  # the handoff comes from the sessions' own records
