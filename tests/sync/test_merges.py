"""Each file kind's three-way merge, on files written by workmem's own workflows.

A base workspace is written, copied to "ours" and "theirs", each changed by real
operations as on two machines, and the versions are merged as git's driver would.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from tests.sync.util import Machine
from workmem.board import Board
from workmem.files.tables import TableDocument
from workmem.journal.writer import MemoryWriter
from workmem.sync.kinds import kind_of
from workmem.sync.merge import merge_file, readable

T0 = datetime(2026, 5, 25, 13, 18)


def at(hour: int, minute: int = 0) -> datetime:
    return T0.replace(hour=hour, minute=minute)


@pytest.fixture
def trio(tmp_path: Path) -> tuple[Machine, Machine, Machine]:
    base = Machine("base", tmp_path / "base")
    base.root.mkdir()
    with base.env(T0):
        MemoryWriter(base.root)  # nothing yet: the files come from the workflows below
        Board(base.root).register(topic="Auth", context="Login work.", sections={"Decisions": "D0"})
        Board(base.root).start()
        MemoryWriter(base.root).end_session(session_summary="base day", resumption_note="r0")
    ours = Machine("ours", tmp_path / "ours")
    theirs = Machine("theirs", tmp_path / "theirs")
    shutil.copytree(base.root, ours.root)
    shutil.copytree(base.root, theirs.root)
    return base, ours, theirs


def merged(trio: tuple[Machine, Machine, Machine], rel: str) -> tuple[str, bool]:
    def read(machine: Machine) -> str:
        path = machine.root / rel
        return path.read_text(encoding="utf-8") if path.exists() else ""

    base, ours, theirs = trio
    kind = kind_of(rel)
    assert kind is not None
    result = merge_file(kind, read(base), read(ours), read(theirs), rel)
    assert readable(kind, result.text, rel)
    assert "<<<<<<<" not in result.text
    return result.text, result.clean


def rows(text: str) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse(text)
    return {r["Session ID"]: r for r in doc.records()}


def sid(machine: Machine) -> str:
    return next(r.session_id for r in Board(machine.root).list() if r.topic == "Auth")


def end_on_both(
    trio: tuple[Machine, Machine, Machine],
    ours: tuple[datetime, str, str],
    theirs: tuple[datetime, str, str],
) -> None:
    """Each side ends a session: (when, summary, resumption note)."""
    for machine, (when, summary, note) in zip(trio[1:], (ours, theirs), strict=True):
        with machine.env(when):
            MemoryWriter(machine.root).end_session(session_summary=summary, resumption_note=note)


def test_board_rows_union_and_newer_fields_win(trio: tuple[Machine, Machine, Machine]) -> None:
    base, ours, theirs = trio
    session = sid(base)
    with ours.env(at(14)):
        Board(ours.root).update(session, topic="Auth v2")
        ours_new = Board(ours.root).start().session_id
    with theirs.env(at(15)):
        Board(theirs.root).update(session, summary="Rate limiting done.")
        theirs_new = Board(theirs.root).register(topic="Docs").session_id
    text, clean = merged(trio, "memory/index.md")
    assert clean
    board = rows(text)
    assert {ours_new, theirs_new, session} <= set(board)
    row = board[session]
    assert row["Topic"] == "Auth v2"  # only ours changed it
    assert row["Summary"] == "Rate limiting done."  # only theirs changed it
    assert row["Updated At"] == "2026-05-25 15:00"  # the newer side


def test_board_untouched_rows_stay_byte_identical(trio: tuple[Machine, Machine, Machine]) -> None:
    base, ours, theirs = trio
    original = (base.root / "memory/index.md").read_text()
    idle_line = next(line for line in original.splitlines() if "| idle |" in line)
    with ours.env(at(14)):
        Board(ours.root).update(sid(ours), topic="Changed")
    with theirs.env(at(15)):
        Board(theirs.root).start()
    text, _ = merged(trio, "memory/index.md")
    assert idle_line in text.splitlines()


def test_board_deleted_here_changed_there_is_kept(trio: tuple[Machine, Machine, Machine]) -> None:
    base, ours, theirs = trio
    idle = next(r.session_id for r in Board(base.root).list() if r.status == "idle")
    with ours.env(at(17)):  # hours after the start: the idle session is not running
        assert idle in Board(ours.root).organize().deleted_idle
    with theirs.env(at(15)):
        Board(theirs.root).update(idle, topic="Now real work")
    text, clean = merged(trio, "memory/index.md")
    assert clean and rows(text)[idle]["Topic"] == "Now real work"


def test_board_deleted_here_untouched_there_is_gone(trio: tuple[Machine, Machine, Machine]) -> None:
    base, ours, _theirs = trio
    idle = next(r.session_id for r in Board(base.root).list() if r.status == "idle")
    with ours.env(at(17)):  # hours after the start: the idle session is not running
        Board(ours.root).organize()
    text, _ = merged(trio, "memory/index.md")
    assert idle not in rows(text)


def test_references_merge_as_a_set_and_a_release_holds(
    trio: tuple[Machine, Machine, Machine],
) -> None:
    base, ours, theirs = trio
    source = sid(base)
    with base.env(at(13, 30)):
        first = Board(base.root).register(topic="First").session_id
        Board(base.root).continue_from(source, as_id=first)
    for machine in (ours, theirs):
        shutil.rmtree(machine.root)
        shutil.copytree(base.root, machine.root)
    with ours.env(at(14)):
        Board(ours.root).release(source, as_id=first)
    with theirs.env(at(15)):
        second = Board(theirs.root).register(topic="Second").session_id
        Board(theirs.root).continue_from(source, as_id=second)
    text, clean = merged(trio, "memory/index.md")
    assert clean
    refs = rows(text)[source]["Referenced By"]
    assert second in refs and first not in refs


def test_stale_mark_loses_to_later_work(trio: tuple[Machine, Machine, Machine]) -> None:
    base, ours, theirs = trio
    session = sid(base)
    with ours.env(datetime(2026, 6, 30, 9, 0)):
        assert session in Board(ours.root).organize().marked_stale
    with theirs.env(datetime(2026, 6, 30, 10, 0)):
        Board(theirs.root).update(session, sections={"Next Actions": "ship it"})
    text, _ = merged(trio, "memory/index.md")
    assert rows(text)[session]["Status"] == "active"
    snapshot, _ = merged(trio, f"memory/sessions/{session}.md")
    assert "| Status | active |" in snapshot and "ship it" in snapshot


def test_snapshot_items_from_both_sides_and_markers(trio: tuple[Machine, Machine, Machine]) -> None:
    base, ours, theirs = trio
    session = sid(base)
    with ours.env(at(14)):
        Board(ours.root).update(session, sections={"Decisions": "DA", "Next Actions": "NA"})
    with theirs.env(at(15)):
        Board(theirs.root).update(session, sections={"Decisions": "[done] D0\nDB"})
    text, clean = merged(trio, f"memory/sessions/{session}.md")
    assert clean
    decisions = text.split("## Decisions")[1].split("##")[0]
    assert decisions.split() == ["-", "[done]", "D0", "-", "DA", "-", "DB"]
    assert "- NA" in text and text.count("## Metadata") == 1
    assert "| Updated At | 2026-05-25 15:00 |" in text


def test_daily_log_entries_in_time_order_duplicates_once(
    trio: tuple[Machine, Machine, Machine],
) -> None:
    end_on_both(trio, (at(15), "ours late", "o"), (at(14), "theirs early", "t"))
    text, clean = merged(trio, "memory/2026-05-25.md")
    assert clean
    assert text.count("base day") == 1
    assert text.index("base day") < text.index("theirs early") < text.index("ours late")


def test_events_union_and_same_number_on_both_sides(trio: tuple[Machine, Machine, Machine]) -> None:
    _, ours, theirs = trio
    with ours.env(at(14)):
        MemoryWriter(ours.root).note_event(event_type="purchase", text="I bought shoes on 3/15.")
    with theirs.env(at(15)):
        MemoryWriter(theirs.root).note_event(event_type="meeting", text="I met Bob yesterday.")
    text, clean = merged(trio, "memory/events.json")
    assert clean
    events = json.loads(text)["events"]
    assert sorted(e["text"] for e in events) == ["I bought shoes on 3/15.", "I met Bob yesterday."]
    assert len({e["id"] for e in events}) == 2


def test_state_counters_flags_and_latest_session(trio: tuple[Machine, Machine, Machine]) -> None:
    end_on_both(trio, (at(14), "ours", "o"), (at(15), "theirs", "t"))
    text, clean = merged(trio, "memory/state.json")
    state = json.loads(text)
    assert clean
    assert state["session_count"] == 3  # one before, one on each machine
    assert state["last_summary"] == "theirs" and state["last_session"] == "2026-05-25 15:00"


def test_state_flag_cleared_on_one_side_stays_cleared() -> None:
    from workmem.sync.merge_json import merge_state

    base = json.dumps({"session_count": 5, "flags": {"memory_review_due": True}})
    ours = json.dumps({"session_count": 5, "flags": {"memory_review_due": False}})
    theirs = json.dumps({"session_count": 6, "flags": {"memory_review_due": True}, "x": 1})
    state = json.loads(merge_state(base, ours, theirs, "memory/state.json").text)
    assert state["flags"]["memory_review_due"] is False
    assert state["session_count"] == 6 and state["x"] == 1
    both = json.dumps({"session_count": 6, "flags": {"memory_review_due": True, "other": True}})
    again = json.loads(merge_state(ours, ours, both, "memory/state.json").text)
    assert again["flags"]["other"] is True


def test_resumption_newer_on_top_other_kept(trio: tuple[Machine, Machine, Machine]) -> None:
    end_on_both(trio, (at(14), "o", "ours note"), (at(15), "t", "theirs note"))
    text, clean = merged(trio, "memory/resumption.md")
    from workmem.journal.resumption import parse

    note = parse(text)
    assert clean and note.note == "theirs note"
    assert any("ours note" in p for p in note.parallel)


def test_threads_by_thread_and_part(trio: tuple[Machine, Machine, Machine]) -> None:
    _, ours, theirs = trio
    with ours.env(at(14)):
        writer = MemoryWriter(ours.root)
        writer.note_decision("Use JWT", "stateless", thread="thread-auth")
        writer.end_session(session_summary="o", resumption_note="o")
    with theirs.env(at(15)):
        writer = MemoryWriter(theirs.root)
        writer.note_decision("Rotate keys", "safety", thread="thread-auth")
        writer.note_decision("Cache", "speed", thread="thread-perf")
        writer.end_session(session_summary="t", resumption_note="t")
    text, clean = merged(trio, "memory/threads.md")
    from workmem.journal.threads import ThreadsDoc

    doc = ThreadsDoc.parse(text)
    assert clean and sorted(t.id for t in doc.threads) == ["thread-auth", "thread-perf"]
    auth = doc.get("thread-auth")
    assert auth is not None
    assert "Use JWT" in auth.text() and "Rotate keys" in auth.text()
    assert auth.text().count("Last touched:") == 1 and "15:00" in auth.last_touched()


def test_memory_md_and_typed_memory(trio: tuple[Machine, Machine, Machine]) -> None:
    from workmem.facts.write import MemoryInput
    from workmem.wrap.run import wrap

    base, ours, theirs = trio
    with base.env(at(13, 30)):
        item = MemoryInput(type="project", topic="api", description="the API", content="REST.")
        wrap(base.workspace, [item], run_bootstrap=False, gather=False)
    for machine in (ours, theirs):
        shutil.rmtree(machine.root)
        shutil.copytree(base.root, machine.root)
    with ours.env(at(14)):
        change = MemoryInput(type="project", topic="api", description="the API", content="GraphQL.")
        fb = MemoryInput(type="feedback", topic="tests", description="tests", content="Real DB.")
        wrap(ours.workspace, [change, fb], run_bootstrap=False, gather=False)
    with theirs.env(at(15)):
        user = MemoryInput(type="user", topic="lang", description="language", content="Go.")
        wrap(theirs.workspace, [user], run_bootstrap=False, gather=False)
    text, clean = merged(trio, "MEMORY.md")
    assert clean
    for link in ("project_api.md", "feedback_tests.md", "user_lang.md"):
        assert link in text
    typed, clean = merged(trio, "memory/project_api.md")
    assert clean and "GraphQL." in typed and "REST." in typed  # the old text went to History


def test_typed_memory_both_sides_changed_keeps_both_texts(tmp_path: Path) -> None:
    from workmem.sync.merge_docs import merge_typed

    base = "---\nname: api\ntype: project\nupdated: 2026-05-01\n---\n## Facts\n\nREST.\n"
    ours = base.replace("REST.", "GraphQL.").replace("05-01", "05-02")
    theirs = base.replace("REST.", "gRPC.").replace("05-01", "05-03")
    text = merge_typed(base, ours, theirs, "memory/project_api.md").text
    assert "GraphQL." in text and "gRPC." in text
    assert "updated: 2026-05-03" in text


def test_log_index_rows_by_date(trio: tuple[Machine, Machine, Machine]) -> None:
    end_on_both(trio, (datetime(2026, 5, 26, 9, 0), "ours 26", "o"), (at(16), "theirs 25", "t"))
    text, clean = merged(trio, "memory/log-index.md")
    table = {r["Date"]: r for r in TableDocument.parse(text).records()}
    assert clean and list(table) == ["2026-05-26", "2026-05-25"]
    assert "theirs 25" in table["2026-05-25"]["Summary"]
    assert table["2026-05-25"]["Sessions"] == "2"


def test_two_way_merge_without_base_is_a_union(trio: tuple[Machine, Machine, Machine]) -> None:
    _, ours, theirs = trio
    with ours.env(at(14)):
        Board(ours.root).register(topic="Only ours")
    with theirs.env(at(15)):
        Board(theirs.root).register(topic="Only theirs")
    result = merge_file(
        "board",
        None,
        (ours.root / "memory/index.md").read_text(),
        (theirs.root / "memory/index.md").read_text(),
        "memory/index.md",
    )
    topics = {r["Topic"] for r in TableDocument.parse(result.text).records()}
    assert {"Only ours", "Only theirs", "Auth"} <= topics
