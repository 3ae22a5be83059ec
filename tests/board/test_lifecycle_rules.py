"""Registration, update and the board's vocabulary rule by rule, with exact values.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``board/lifecycle.py``, ``board/start.py`` or ``board/model.py`` that a small change used
to break with the whole suite still passing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.lifecycle import summary_from
from workmem.board.model import (
    FALLBACK_MANUAL_SUMMARY,
    BoardRow,
    base_session_id,
    check_agent_name,
    check_session_id,
    default_topic,
    join_references,
    manual_summary,
    split_references,
    start_summary,
)
from workmem.board.snapshot import continues_from
from workmem.errors import FormatError, NotFoundError, UsageError
from workmem.files.tables import TableDocument

BASE = "2026-05-25-1318-cursor-main-agent"

TOPIC_NOT_SET = default_topic("en")
START_SUMMARY = start_summary("en")


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r for r in doc.records()}


def snapshot(root: Path, sid: str) -> str:
    return (root / "memory" / "sessions" / f"{sid}.md").read_text()


# -- update ---------------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["active", "stale"])
def test_update_sets_any_valid_status_on_the_row_and_the_snapshot(root: Path, status: str) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    result = board.update(sid, status=status, sections={"Decisions": "Keep it"})
    assert result.row is not None and result.row.status == status
    assert rows(root)[sid]["Status"] == status
    assert f"| Status | {status} |" in snapshot(root, sid)


def test_update_without_a_status_makes_a_stale_session_active_again(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    board.update(sid, status="stale")
    board.update(sid, sections={"Decisions": "Back to it"})
    assert rows(root)[sid]["Status"] == "active"
    assert "| Status | active |" in snapshot(root, sid)


def test_update_refuses_an_unknown_status_by_name(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    with pytest.raises(UsageError) as info:
        board.update(sid, status="done")
    assert str(info.value) == "unknown status 'done': use one of idle, active, stale"
    with pytest.raises(UsageError) as idle:
        board.update(sid, status="idle")
    assert str(idle.value) == (
        "an updated session has a snapshot, so it cannot be idle; use active"
    )
    assert rows(root)[sid]["Status"] == "active"


def test_update_changes_only_the_fields_it_is_given(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.register(topic="Work", summary="First summary.", keywords="a, b").session_id
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 15:00")
    board.update(sid, topic="   ", sections={"Decisions": "x"})
    after = rows(root)[sid]
    assert (after["Topic"], after["Summary"], after["Keywords"]) == (
        "Work",
        "First summary.",
        "a, b",
    )
    assert after["Updated At"] == "2026-05-25 15:00"
    assert after["Started At"] == "2026-05-25 13:18"
    board.update(sid, topic="  New topic  ", summary="Second.", keywords="")
    after = rows(root)[sid]
    assert (after["Topic"], after["Summary"], after["Keywords"]) == ("New topic", "Second.", "")
    assert "| Topic | New topic |" in snapshot(root, sid)


def test_an_explicit_summary_also_enters_the_current_context(root: Path) -> None:
    board = Board()
    sid = board.start().session_id
    result = board.update(sid, summary="Wrote the parser.")
    assert result.notes[0] == "snapshot created (none existed)"
    assert "## Current Context\n\nWrote the parser.\n" in snapshot(root, sid)
    assert rows(root)[sid]["Summary"] == "Wrote the parser."
    again = board.update(sid, summary="Wrote the parser.")
    assert "snapshot created (none existed)" not in again.notes


def test_a_new_context_gives_a_new_summary_unless_one_is_given(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work", summary="Old.").session_id
    board.update(sid, sections={"Current Context": "Now the index. Then tests. Then docs."})
    assert rows(root)[sid]["Summary"] == "Now the index. Then tests."
    board.update(sid, summary="Mine.", sections={"Current Context": "More context."})
    assert rows(root)[sid]["Summary"] == "Mine."
    text = snapshot(root, sid)
    assert "More context." in text and "Mine." not in text.split("## Current Context")[1]


def test_update_result_names_the_files_it_wrote(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    result = board.update(sid, sections={"Decisions": "x"})
    assert result.action == "update"
    assert result.session_id == sid
    assert result.files == [f"memory/sessions/{sid}.md", "memory/index.md"]


def test_update_of_an_unknown_session_says_where_it_looked(root: Path) -> None:
    Board().start()
    with pytest.raises(NotFoundError) as info:
        Board().update("2026-01-01-0000-nobody")
    assert str(info.value) == "session 2026-01-01-0000-nobody is not on the board (memory/index.md)"


# -- registration ---------------------------------------------------------------------------


def test_registration_defaults(root: Path) -> None:
    result = Board().register()
    row = rows(root)[result.session_id]
    assert result.action == "register"
    assert row["Topic"] == TOPIC_NOT_SET
    assert row["Summary"] == manual_summary("en")
    assert row["Status"] == "active"
    assert row["Referenced By"] == "-"
    assert row["Started At"] == row["Updated At"] == "2026-05-25 13:18"
    assert row["Agent Name"] == "cursor-main-agent"
    text = snapshot(root, result.session_id)
    # The fallback summary is the board's, not a context the agent wrote.
    assert manual_summary("en") not in text
    assert result.files == [f"memory/sessions/{result.session_id}.md", "memory/index.md"]
    assert result.notes == []


def test_registration_takes_topic_summary_keywords_and_agent(root: Path) -> None:
    result = Board().register(
        topic="  ",
        summary="Given summary.",
        keywords="k1, k2",
        agent_name="helper-agent",
        sections={"Next Actions": "Go"},
    )
    sid = result.session_id
    assert sid == "2026-05-25-1318-helper-agent"
    row = rows(root)[sid]
    assert (row["Topic"], row["Summary"], row["Keywords"]) == (
        TOPIC_NOT_SET,
        "Given summary.",
        "k1, k2",
    )
    assert row["Agent Name"] == "helper-agent"
    text = snapshot(root, sid)
    assert "## Current Context\n\nGiven summary.\n" in text
    assert "## Next Actions\n\n- Go\n" in text
    assert "| Agent Name | helper-agent |" in text


def test_registration_context_gives_the_summary(root: Path) -> None:
    sid = Board().register(context="Did A. Did B. Did C.").session_id
    assert rows(root)[sid]["Summary"] == "Did A. Did B."
    assert "## Current Context\n\nDid A. Did B. Did C.\n" in snapshot(root, sid)


def test_registration_with_sources_reports_each_reference(root: Path) -> None:
    board = Board()
    first = board.register(topic="One").session_id
    second = board.register(topic="Two", agent_name="other-agent").session_id
    result = board.register(sections={"Continues From": f"{first}\n{second}\n{first}"})
    assert result.notes == [
        f"{first} Referenced By now lists {result.session_id}",
        f"{second} Referenced By now lists {result.session_id}",
    ]
    assert continues_from(snapshot(root, result.session_id)) == [first, second]


def test_a_source_the_snapshot_would_not_list_is_refused(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import lifecycle

    board = Board()
    source = board.register(topic="One").session_id
    monkeypatch.setattr(lifecycle, "continues_from", lambda text: [])
    before = (root / "memory" / "index.md").read_bytes()
    with pytest.raises(FormatError) as info:
        board.register(sections={"Continues From": source})
    assert f"the snapshot would not list {source} under Continues From" in str(info.value)
    assert (root / "memory" / "index.md").read_bytes() == before


# -- start ----------------------------------------------------------------------------------


def test_start_result_names_the_board_only(root: Path) -> None:
    result = Board().start()
    assert result.action == "start"
    assert result.files == ["memory/index.md"]
    assert result.to_dict()["row"] == {
        "session_id": BASE,
        "agent_name": "cursor-main-agent",
        "topic": TOPIC_NOT_SET,
        "summary": START_SUMMARY,
        "keywords": "sessionStart, cursor-agent",
        "status": "idle",
        "referenced_by": "-",
        "started_at": "2026-05-25 13:18",
        "updated_at": "2026-05-25 13:18",
    }


@pytest.mark.parametrize(
    "leftover",
    [f"sessions/{BASE}.md", f"sessions/{BASE}.notes.md", f"archive/{BASE}/index.md"],
)
def test_an_id_with_a_file_on_disk_is_not_issued(root: Path, leftover: str) -> None:
    path = root / "memory" / leftover
    path.parent.mkdir(parents=True)
    path.write_text("x\n")
    assert Board().start().session_id == f"{BASE}-2"


def test_the_issued_record_is_checked_as_well_as_the_board(root: Path) -> None:
    state = root / "memory" / ".workmem"
    state.mkdir(parents=True)
    (state / "issued-session-ids.txt").write_text(f"# record\n{BASE}\n  {BASE}-2  \n")
    assert Board().start().session_id == f"{BASE}-3"


# -- summary_from ---------------------------------------------------------------------------


def test_summary_takes_two_sentences_and_joins_them_with_one_space() -> None:
    assert summary_from("One.  Two!\n\nThree?") == "One. Two!"
    assert summary_from("* One\n+ Two") == "One + Two"
    assert summary_from("   ") == ""
    assert summary_from("No end mark") == "No end mark"
    assert summary_from("X marks the spot.") == "X marks the spot."


def test_summary_joins_cjk_sentences_without_a_space() -> None:
    assert summary_from("一。二") == "一。二"
    assert summary_from("One. 二。") == "One. 二。"
    assert summary_from("一！ Two. Three.") == "一！Two."


def test_summary_is_clipped_with_an_ellipsis_at_the_limit() -> None:
    text = "word " * 100
    clipped = summary_from(text, limit=20)
    assert clipped == "word word word word…"
    assert len(summary_from("x" * 200)) == 200
    assert summary_from("x" * 201) == "x" * 199 + "…"


# -- model ----------------------------------------------------------------------------------


def test_session_ids_are_safe_names_of_bounded_length() -> None:
    assert check_session_id("a") == "a"
    assert check_session_id("a" * 120) == "a" * 120
    for bad in ("a" * 121, "", "a-", "-a", "A", "a_b"):
        with pytest.raises(UsageError) as info:
            check_session_id(bad)
        assert str(info.value) == (
            f"invalid session ID {bad!r}: use lowercase letters, digits and single '-' only "
            "(like 2026-05-25-1318-cursor-main-agent); nothing was written"
        )


def test_agent_names_are_safe_names_of_at_most_60_characters() -> None:
    assert check_agent_name("b" * 60) == "b" * 60
    for bad in ("b" * 61, "", "Agent", "a b"):
        with pytest.raises(UsageError) as info:
            check_agent_name(bad)
        assert str(info.value) == (
            f"invalid agent name {bad!r}: use lowercase letters, digits and '-' "
            "(like cursor-main-agent); nothing was written"
        )


def test_base_session_id_is_the_minute_and_the_agent() -> None:
    from datetime import datetime

    assert base_session_id(datetime(2026, 1, 2, 3, 4), "x-agent") == "2026-01-02-0304-x-agent"
    with pytest.raises(UsageError):
        base_session_id(datetime(2026, 1, 2, 3, 4), "Bad Name")


def test_references_split_on_either_comma_and_join_back() -> None:
    assert split_references("-") == []
    assert split_references(" a ,b，a, - ,, c ") == ["a", "b", "c"]
    assert join_references([]) == "-"
    assert join_references(["a", "b"]) == "a, b"


def flags(row: BoardRow) -> tuple[bool, bool, bool]:
    return row.has_meaningful_summary, row.has_content, row.is_placeholder


def test_row_properties() -> None:
    values = ["s", "agent", TOPIC_NOT_SET, "", "k", "idle", "a, b", "t1", "t2"]
    row = BoardRow.from_values(values)
    assert row.values() == values
    assert row.references == ["a", "b"]
    assert flags(row) == (False, False, True)
    row.topic = "Real"
    assert flags(row) == (False, True, False)
    row.topic, row.summary = " ", "Did work"
    assert flags(row) == (True, True, True)  # an idle row without a topic is a placeholder
    row.status, row.topic = "stale", ""
    assert flags(row) == (True, True, False)
    row.summary = f" {FALLBACK_MANUAL_SUMMARY} "
    assert flags(row) == (False, False, False)


def test_row_to_dict_restores_escaped_free_text() -> None:
    row = BoardRow("s", "a", "\\## Topic", "\\---", "<\\!-- k", "active", "-", "t", "t")
    assert row.to_dict()["topic"] == "## Topic"
    assert row.to_dict()["summary"] == "---"
    assert row.to_dict()["keywords"] == "<!-- k"
    assert row.to_dict()["agent_name"] == "a"


def test_a_result_as_a_dict_for_scripts(root: Path) -> None:
    from workmem.board.start import SessionResult

    result = Board().register(topic="T")
    data = result.to_dict()
    assert list(data) == ["action", "session_id", "row", "files", "notes"]
    assert data["action"] == "register"
    assert data["session_id"] == result.session_id
    assert data["files"] == result.files
    assert data["notes"] == []
    assert result.row is not None and data["row"] == result.row.to_dict()
    assert SessionResult("start", "x").to_dict() == {
        "action": "start",
        "session_id": "x",
        "row": None,
        "files": [],
        "notes": [],
    }


# -- exact messages, notes and languages -----------------------------------------------------


def test_sources_the_snapshot_would_not_list_are_all_named_with_the_file(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import lifecycle

    board = Board()
    one = board.register(topic="One").session_id
    two = board.register(topic="Two", agent_name="two-agent").session_id
    sid = board.start(agent_name="third-agent").session_id
    monkeypatch.setattr(lifecycle, "continues_from", lambda text: [])
    before = (root / "memory" / "index.md").read_bytes()
    expected = (
        f"memory/sessions/{sid}.md: the snapshot would not list {one}, {two} under "
        "Continues From; nothing was written"
    )
    with pytest.raises(FormatError) as updated:
        board.update(sid, sections={"Continues From": f"{one}\n{two}"})
    assert str(updated.value) == expected
    with pytest.raises(FormatError) as registered:
        board.register(agent_name="third-agent", sections={"Continues From": f"{one}\n{two}"})
    assert str(registered.value) == expected.replace(sid, f"{sid}-2")
    assert (root / "memory" / "index.md").read_bytes() == before


def test_an_update_of_a_snapshot_without_metadata_names_the_file(root: Path) -> None:
    board = Board()
    sid = board.register(topic="One").session_id
    path = root / "memory" / "sessions" / f"{sid}.md"
    path.write_text("# Session\n\n## Decisions\n\n- A\n")
    with pytest.raises(FormatError) as info:
        board.update(sid, sections={"Decisions": "B"})
    assert str(info.value) == (
        f"memory/sessions/{sid}.md: snapshot has no '## Metadata' section; fix it by hand, "
        "nothing was written"
    )


def test_a_created_snapshot_is_the_first_note_before_the_references(root: Path) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    sid = board.start(agent_name="other-agent").session_id
    result = board.update(sid, sections={"Continues From": source})
    assert result.notes == [
        "snapshot created (none existed)",
        f"{source} Referenced By now lists {sid}",
    ]


def test_a_registration_naming_an_archived_source_says_so(root: Path) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    board.archive(source)
    with pytest.raises(NotFoundError) as info:
        board.register(agent_name="other-agent", sections={"Continues From": source})
    assert str(info.value) == f"source session {source} is not on the board (it is archived)"


def test_new_snapshots_are_written_in_the_workspace_language(root: Path) -> None:
    (root / "workmem.toml").write_text('[workmem]\nlanguage = "ja"\n')
    board = Board()
    registered = board.register(topic="One").session_id
    started = board.start(agent_name="other-agent").session_id
    board.update(started, sections={"Decisions": "A"})
    for sid in (registered, started):
        text = (root / "memory" / "sessions" / f"{sid}.md").read_text()
        assert "## Open Questions\n\nなし\n" in text


def test_two_context_paragraphs_of_one_update_make_one_summary(root: Path) -> None:
    board = Board()
    sid = board.register(topic="One").session_id
    board.update(sid, fragment="## Current Context\n\nFirst part", sections={"context": "Second."})
    assert rows(root)[sid]["Summary"] == "First part Second."


def test_a_summary_of_exactly_the_limit_is_kept_and_a_clip_ends_without_a_space() -> None:
    assert summary_from("x" * 200) == "x" * 200
    assert summary_from("word " * 100, limit=21) == "word word word word…"
