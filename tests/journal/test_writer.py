"""End of session: every output the seed lists, retries, failures, secrets, parallel agents."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from workmem.errors import FormatError, UsageError, WriteError
from workmem.journal import MemoryWriter, init
from workmem.journal.resumption import parse as parse_resumption
from workmem.journal.threads import ThreadsDoc

SEED_UPDATES = {
    "thread-project-alpha": {
        "current_position": "Finished the API design. Moving to testing.",
        "new_open_questions": ["How to handle auth tokens?"],
        "closed_questions": ["Which framework to use?"],
    }
}


def _read(root: Path, name: str) -> str:
    return (root / name).read_text("utf-8")


def _state(root: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(_read(root, "memory/state.json"))
    return loaded


def _files(root: Path) -> dict[str, bytes]:
    """Every memory file and its bytes (runtime state in .workmem/ aside)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".workmem" not in p.parts
    }


def _seed_session(root: Path) -> MemoryWriter:
    """The seed's "During session" calls, verbatim."""
    writer = MemoryWriter(root)
    writer.note_decision("Chose X over Y", "reasoning here")
    writer.note_open_question("Should we revisit Z?")
    writer.note_pattern("User tends to ask for examples after abstract explanations")
    writer.note_thread_touched("thread-project-alpha")
    writer.note_event(
        event_type="purchase",
        text="I bought white Adidas sneakers on 3/15.",
        action="purchase",
        object_hint="white adidas sneakers",
        normalized_date="2023-03-15",
    )
    return writer


def test_seed_example_persists_to_every_output(root: Path) -> None:
    init(root)
    writer = _seed_session(root)
    report = writer.end_session(
        session_summary="High-level summary of what happened",
        resumption_note="First-person handoff to next session self...",
        thread_updates=SEED_UPDATES,
        mood="focused, productive",
    )
    assert report.session == 1 and report.notes == 5
    log = _read(root, "memory/2026-05-25.md")
    assert log.startswith("# 2026-05-25\n")
    assert "### Session 1 · 13:18 · cursor-main-agent" in log
    for expected in (
        "**Summary:** High-level summary of what happened",
        "**Mood:** focused, productive",
        "- Chose X over Y — reasoning here",
        "- Should we revisit Z?",
        "- User tends to ask for examples after abstract explanations",
        "Finished the API design. Moving to testing.",
        "opened: How to handle auth tokens?",
        "evt-00001 · 2023-03-15 · purchase",
        "> First-person handoff to next session self...",
    ):
        assert expected in log, expected
    thread = ThreadsDoc.parse(_read(root, "memory/threads.md")).get("thread-project-alpha")
    assert thread is not None
    assert thread.position() == "Finished the API design. Moving to testing."
    assert "Which framework to use? (closed 2026-05-25)" in thread.text()
    state = _state(root)
    assert state["session_count"] == 1
    assert state["last_session"] == "2026-05-25 13:18"
    assert state["last_mood"] == "focused, productive"
    assert state["active_threads"] == ["thread-project-alpha"]
    assert state["flags"]["memory_review_due"] is False
    assert "open_sessions" not in state  # the notes were released
    note = parse_resumption(_read(root, "memory/resumption.md"))
    assert (note.session, note.note) == (1, "First-person handoff to next session self...")
    assert json.loads(_read(root, "memory/events.json"))["events"][0]["id"] == "evt-00001"
    assert "| 2026-05-25 | 1 | High-level summary" in _read(root, "memory/log-index.md")


def test_notes_from_separate_processes_add_up_and_survive_a_crash(root: Path) -> None:
    MemoryWriter(root).note_decision("Use SQLite", "no server to run")
    MemoryWriter(root).note_open_question("Vacuum schedule?", thread="thread-storage")
    # a new writer (another CLI call, or the session after a crash) sees both
    pending = MemoryWriter(root).pending_notes()
    assert [n["kind"] for n in pending] == ["decision", "question"]
    report = MemoryWriter(root).end_session("Storage chosen", "I picked SQLite; vacuum next.")
    assert report.notes == 2
    thread = ThreadsDoc.parse(_read(root, "memory/threads.md")).get("thread-storage")
    assert thread is not None and "Vacuum schedule?" in thread.text()
    assert MemoryWriter(root).pending_notes() == []


def test_retrying_the_same_end_writes_nothing_twice(root: Path) -> None:
    writer = MemoryWriter(root)
    first = writer.end_session("Did A", "Next: B")
    before = _files(root)
    again = MemoryWriter(root).end_session("Did A", "Next: B")
    assert again.already_done and again.session == first.session
    assert _files(root) == before


def test_a_failed_step_is_finished_by_the_retry(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.journal import ending as writer_module
    from workmem.journal import thread_updates

    real = thread_updates.write_updates

    def broken(*args, **kwargs):
        raise WriteError("disk full (simulated)")

    MemoryWriter(root).note_decision("Keep going", thread="thread-a")
    monkeypatch.setattr(writer_module, "write_updates", broken)
    with pytest.raises(WriteError):
        MemoryWriter(root).end_session("Half done", "Finish the end", SEED_UPDATES)
    assert len(MemoryWriter(root).pending_notes()) == 1  # notes not released
    monkeypatch.setattr(writer_module, "write_updates", real)
    report = MemoryWriter(root).end_session("Half done", "Finish the end", SEED_UPDATES)
    assert report.session == 1  # the reserved number, not a second one
    log = _read(root, "memory/2026-05-25.md")
    assert log.count("**Summary:** Half done") == 1
    assert _state(root)["session_count"] == 1
    assert ThreadsDoc.parse(_read(root, "memory/threads.md")).get("thread-a") is not None


def test_review_is_due_every_five_sessions(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for hour in range(10, 15):
        monkeypatch.setenv("WORKMEM_NOW", f"2026-05-25 {hour}:00")
        report = MemoryWriter(root).end_session(f"Session at {hour}", f"Note {hour}")
    assert report.flags == ["memory_review_due"]
    assert _state(root)["sessions_since_review"] == 5
    (root / "MEMORY.md").write_text(
        "# Memory\n\n## Active\n\n### Project\n\n- Uses SQLite (2026-05-20)\n\n## Fading\n\n"
        "## Maintenance Log\n\n",
        "utf-8",
    )
    MemoryWriter(root).run_curation()
    state = _state(root)
    assert state["flags"]["memory_review_due"] is False
    assert state["sessions_since_review"] == 0
    assert "## Maintenance Log" in _read(root, "MEMORY.md")


def test_secrets_never_reach_the_files(root: Path) -> None:
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
    writer = MemoryWriter(root)
    writer.note_decision(f"Use the key {key} for staging")
    report = writer.end_session(
        f"Configured OPENAI_API_KEY={key}",
        f"I set api_key: {key}; rotate it.",
        {"thread-ops": {"current_position": f"token={key} in place"}},
    )
    assert report.redactions >= 4
    for path in (root / "memory").rglob("*"):
        if path.is_file():
            assert key not in path.read_text("utf-8"), path
    assert "[REDACTED" in _read(root, "memory/2026-05-25.md")


def test_hand_written_resumption_note_is_kept_in_the_log(root: Path) -> None:
    path = root / "memory" / "resumption.md"
    path.parent.mkdir(parents=True)
    path.write_text("# Resumption\n\nRemember: the demo is on Friday.\n", "utf-8")
    MemoryWriter(root).end_session("Prepared slides", "Slides are done; rehearse.")
    assert "Remember: the demo is on Friday." in _read(root, "memory/2026-05-25.md")
    assert parse_resumption(path.read_text("utf-8")).note == "Slides are done; rehearse."


def test_parallel_session_note_is_kept_below_the_new_one(root: Path) -> None:
    a = MemoryWriter(root, session_key="agent-a")
    b = MemoryWriter(root, session_key="agent-b")
    a.note_pattern("A started")
    b.note_pattern("B started")
    b.end_session("B's work", "B: pick up the parser.")
    a.end_session("A's work", "A: pick up the tests.")
    note = parse_resumption(_read(root, "memory/resumption.md"))
    assert note.session == 2 and note.note == "A: pick up the tests."
    assert any("B: pick up the parser." in other for other in note.parallel)


def test_empty_summary_or_note_is_refused_and_nothing_written(root: Path) -> None:
    with pytest.raises(UsageError):
        MemoryWriter(root).end_session("", "note")
    with pytest.raises(UsageError):
        MemoryWriter(root).end_session("summary", "   ")
    with pytest.raises(UsageError, match="unknown key"):
        MemoryWriter(root).end_session("s", "n", {"thread-x": {"position": "typo"}})
    assert not (root / "memory").exists()


def test_damaged_state_stops_the_end_before_any_write(root: Path) -> None:
    init(root)
    state = root / "memory" / "state.json"
    state.write_text('{"session_count": 3,,}', "utf-8")
    before = _files(root)
    with pytest.raises(FormatError) as caught:
        MemoryWriter(root).end_session("s", "n")
    assert caught.value.line == 1
    assert _files(root) == before


_END_SCRIPT = """
import sys
from workmem.journal import MemoryWriter
key, count = sys.argv[1], int(sys.argv[2])
writer = MemoryWriter(session_key=key)
for i in range(count):
    writer.note_decision(f"{key} decision {i}", thread=f"thread-{key}")
    writer.end_session(f"{key} summary {i}", f"{key} handoff {i}",
                       {f"thread-{key}": {"current_position": f"{key} at {i}"}})
"""


@pytest.mark.slow
def test_two_agents_ending_sessions_at_once_lose_nothing(root: Path) -> None:
    init(root)
    env = {**os.environ, "WORKMEM_ROOT": str(root), "PYTHONPATH": os.pathsep.join(sys.path)}
    rounds = 15
    procs = [
        subprocess.Popen([sys.executable, "-c", _END_SCRIPT, key, str(rounds)], env=env)
        for key in ("alpha", "beta")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    state = _state(root)
    assert state["session_count"] == 2 * rounds
    log = _read(root, "memory/2026-05-25.md")
    for key in ("alpha", "beta"):
        for i in range(rounds):
            assert f"**Summary:** {key} summary {i}" in log
            assert f"{key} decision {i}" in log
    numbers = sorted(
        int(line.split()[2]) for line in log.split("\n") if line.startswith("### Session")
    )
    assert numbers == list(range(1, 2 * rounds + 1))  # every number once
    doc = ThreadsDoc.parse(_read(root, "memory/threads.md"))
    for key in ("alpha", "beta"):
        thread = doc.get(f"thread-{key}")
        assert thread is not None and thread.position() == f"{key} at {rounds - 1}"
        assert len(thread.part("Decisions").items()) == rounds  # type: ignore[union-attr]
    assert "open_sessions" not in state


def test_hand_broken_threads_file_stops_the_end_before_any_write(root: Path) -> None:
    init(root)
    threads = root / "memory" / "threads.md"
    threads.write_bytes("# Threads\n\n## thread-x\n\ncaf\xe9\n".encode("latin-1"))
    MemoryWriter(root).note_pattern("noted before the end")
    before = _files(root)
    with pytest.raises(FormatError, match="UTF-8"):
        MemoryWriter(root).end_session("s", "n", {"thread-x": {"current_position": "p"}})
    assert _files(root) == before  # not even the session number was taken
    assert len(MemoryWriter(root).pending_notes()) == 1
