"""Session snapshots rule by rule: the template, routing text to sections, the merge and
what it refuses, and reading Continues From.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``board/snapshot.py`` that a small change used to break with the whole suite passing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.snapshot import (
    SnapshotChange,
    canonical_section,
    continues_from,
    remove_continues_from,
    render_template,
    section_items,
)
from workmem.errors import FormatError, UsageError
from workmem.files.sections import Section

SID = "2026-05-25-1318-cursor-main-agent"
META = {
    "Session ID": SID,
    "Agent Name": "cursor-main-agent",
    "Topic": "Work",
    "Status": "active",
    "Started At": "2026-05-25 13:18",
    "Updated At": "2026-05-25 13:18",
}
TEMPLATE = f"""# Session: {SID}

## Metadata

| Field | Value |
|---|---|
| Session ID | {SID} |
| Agent Name | cursor-main-agent |
| Topic | Work |
| Status | active |
| Started At | 2026-05-25 13:18 |
| Updated At | 2026-05-25 13:18 |

## Current Context

Summarize what has happened in this agent session so far.

## Decisions

None

## Files / Artifacts

None

## Open Questions

None

## Next Actions

None

## Continues From

None

## Superseded / Resolved

None
"""


def test_the_template_is_the_seed_template_exactly() -> None:
    assert render_template(META) == TEMPLATE
    partial = render_template({"Session ID": SID})
    assert "| Topic |  |" in partial


@pytest.mark.parametrize(
    "name, title",
    [
        ("context", "Current Context"),
        ("  NEXT ", "Next Actions"),
        ("files", "Files / Artifacts"),
        ("artifacts", "Files / Artifacts"),
        ("questions", "Open Questions"),
        ("decisions", "Decisions"),
        ("continues", "Continues From"),
        ("superseded", "Superseded / Resolved"),
        ("resolved", "Superseded / Resolved"),
        ("open  questions", "Open Questions"),
        ("metadata", "Metadata"),
        ("  My Notes ", "My Notes"),
    ],
)
def test_section_names_and_aliases(name: str, title: str) -> None:
    assert canonical_section(name) == title


def test_list_sections_take_one_item_per_line_and_prose_takes_the_paragraph() -> None:
    change = SnapshotChange()
    change.add("next", "  Write tests \n\n- Write docs\n")
    change.add("Next Actions", "Ship")
    change.add("context", "Line one\nLine two")
    assert change.items == {"Next Actions": ["Write tests", "- Write docs", "Ship"]}
    assert change.prose == {"Current Context": ["Line one\nLine two"]}
    assert not change.is_empty()
    assert SnapshotChange().is_empty()
    only_prose = SnapshotChange()
    only_prose.add("context", "x")
    assert not only_prose.is_empty()


def test_metadata_cannot_be_written_as_a_section() -> None:
    with pytest.raises(UsageError) as info:
        SnapshotChange().add(" METADATA ", "| Status | done |")
    assert str(info.value) == "the Metadata section is kept by workmem; use --topic or --status"


def test_a_fragment_brings_every_section_but_metadata_and_empty_ones() -> None:
    change = SnapshotChange()
    change.add_fragment(
        "intro\n\n## Metadata\n\n| Status | x |\n\n## Decisions\n\n- A\n- B\n\n"
        "## Empty\n\n## Current Context\n\nSome context.\n"
    )
    assert change.items == {"Decisions": ["- A", "- B"]}
    assert change.prose == {"Current Context": ["Some context."]}
    with pytest.raises(UsageError) as info:
        SnapshotChange().add_fragment("no headings here\n")
    assert str(info.value) == "the file has no '## Section' headings to merge"


def test_apply_merges_every_kind_of_change() -> None:
    change = SnapshotChange(metadata={"Status": "stale", "Topic": "New\ntopic"})
    change.add("context", "Did the thing.")
    change.add("next", "Write tests\nWrite docs")
    change.add("My Notes", "a note")
    text = change.apply(TEMPLATE, path="s.md")
    assert "| Status | stale |" in text
    assert "| Topic | New topic |" in text
    assert "## Current Context\n\nDid the thing.\n" in text
    assert "## Next Actions\n\n- Write tests\n- Write docs\n" in text
    assert text.endswith("## My Notes\n\n- a note\n\n")


def test_a_changed_marker_is_recorded_under_superseded_with_its_section() -> None:
    first = SnapshotChange()
    first.add("next", "Write tests")
    text = first.apply(TEMPLATE, path="s.md")
    second = SnapshotChange()
    second.add("next", "[done] Write tests")
    second.add("resolved", "[resolved] Old question")
    text = second.apply(text, path="s.md")
    assert "## Next Actions\n\n- [done] Write tests\n" in text
    assert text.endswith(
        "## Superseded / Resolved\n\n- [resolved] Old question\n"
        "- [done] Write tests (Next Actions)\n\n"
    )


def test_a_resent_item_keeps_its_done_marker_in_the_snapshot() -> None:
    first = SnapshotChange()
    first.add("next", "[done] Write tests")
    text = first.apply(TEMPLATE, path="s.md")
    again = SnapshotChange()
    again.add("next", "Write tests")
    merged = again.apply(text, path="s.md")
    assert "## Next Actions\n\n- [done] Write tests\n\n" in merged
    assert merged.count("Write tests") == 1


def test_new_metadata_fields_are_added_and_existing_ones_changed_in_place() -> None:
    change = SnapshotChange(metadata={"status": "stale", "Owner": "me"})
    text = change.apply(TEMPLATE, path="s.md")
    assert "| Status | stale |" in text
    assert "| Updated At | 2026-05-25 13:18 |\n| Owner | me |\n\n## Current Context" in text
    assert "| status |" not in text


def test_metadata_at_the_end_of_a_file_without_a_newline_keeps_its_table() -> None:
    text = "# S\n\n## Metadata\n\n| Field | Value |\n|---|---|\n| Status | active |"
    out = SnapshotChange(metadata={"Status": "stale"}).apply(text, path="s.md")
    assert out == "# S\n\n## Metadata\n\n| Field | Value |\n|---|---|\n| Status | stale |\n"


def test_apply_refuses_a_snapshot_without_metadata() -> None:
    with pytest.raises(FormatError) as info:
        SnapshotChange().apply("# S\n\n## Decisions\n\n- A\n", path="memory/sessions/s.md")
    assert str(info.value) == (
        "memory/sessions/s.md: snapshot has no '## Metadata' section; fix it by hand, "
        "nothing was written"
    )


@pytest.mark.parametrize(
    ("decisions", "dropped"),
    [("- A", "'A' in Decisions"), ("- A\n- B", "'A' in Decisions; 'B' in Decisions")],
)
def test_apply_refuses_a_merge_that_would_drop_an_item(
    monkeypatch: pytest.MonkeyPatch, decisions: str, dropped: str
) -> None:
    from workmem.board import snapshot

    def drop_everything(section: Section, items: list[str], hints: list[str]) -> list[str]:
        section.body.clear()
        return []

    monkeypatch.setattr(snapshot, "merge_items", drop_everything)
    change = SnapshotChange()
    change.add("decisions", "C")
    text = TEMPLATE.replace("## Decisions\n\nNone", f"## Decisions\n\n{decisions}")
    with pytest.raises(FormatError) as info:
        change.apply(text, path="s.md")
    assert str(info.value) == f"s.md: merge would drop {dropped}; nothing was written"


def test_a_section_title_from_free_text_is_one_safe_heading() -> None:
    change = SnapshotChange()
    change.add("## Evil\nheading", "x")
    change.add("###", "y")
    text = change.apply(TEMPLATE, path="s.md")
    assert "\n## Evil heading\n\n- x\n" in text
    assert "\n## Notes\n\n- y\n" in text


# -- reading Continues From -----------------------------------------------------------------


def with_sources(*lines: str) -> str:
    return TEMPLATE.replace("## Continues From\n\nNone", "## Continues From\n\n" + "\n".join(lines))


def test_continues_from_reads_ids_and_ignores_words_markers_and_repeats() -> None:
    text = with_sources(
        "- `a-1` (the auth work)", "- b-2", "- [resolved] c-3", "- a-1", "-   ", "prose line"
    )
    assert continues_from(text) == ["a-1", "b-2"]
    assert continues_from(TEMPLATE) == []
    assert continues_from("no sections at all") == []


def test_section_items_of_a_placeholder_or_missing_section_are_empty() -> None:
    assert section_items(TEMPLATE, "Next Actions") == []
    assert section_items(TEMPLATE, "Nowhere") == []
    text = TEMPLATE.replace("## Next Actions\n\nNone", "## Next Actions\n\n- Go\n- Stop")
    assert section_items(text, "Next Actions") == ["Go", "Stop"]
    hint = TEMPLATE.replace(
        "## Decisions\n\nNone", "## Decisions\n\n- List decisions already made."
    )
    assert section_items(hint, "Decisions") == []


def test_section_slicing_ends_at_the_next_heading_and_is_safe_with_fences() -> None:
    text = with_sources("- a-1") + "\n## Later\n\n- b-2\n"
    assert continues_from(text) == ["a-1"]
    last = "# S\n\n## Continues From\n\n- z-9"
    assert continues_from(last) == ["z-9"]
    escaped = "# S\n\n\\## Continues From\n\n- fake-1\n"
    assert continues_from(escaped) == []
    fenced = "# S\n\n## Continues From\n\n- a-1\n\n```\n## x\n```\n"
    assert continues_from(fenced) == ["a-1"]
    tilde = "# S\n\n## Other\n\n~~~\n## Continues From\n\n- fake-2\n~~~\n"
    assert continues_from(tilde) == []


def test_removing_a_source_keeps_the_others_and_records_the_release() -> None:
    text = with_sources("- a-1", "- `b-2` the other one", "- c-3")
    out = remove_continues_from(text, "b-2", "[resolved] Released b-2", path="s.md")
    assert continues_from(out) == ["a-1", "c-3"]
    assert "## Continues From\n\n- a-1\n- c-3\n\n## Superseded" in out
    assert out.endswith("## Superseded / Resolved\n\n- [resolved] Released b-2\n\n")


def test_removing_the_last_source_leaves_none_and_the_rest_untouched() -> None:
    text = with_sources("", "- a-1", "")
    out = remove_continues_from(text, "a-1", "[resolved] Released a-1", path="s.md")
    assert "## Continues From\n\nNone\n\n## Superseded" in out
    assert out.split("## Continues From")[0] == TEMPLATE.split("## Continues From")[0]


def test_removing_from_a_snapshot_without_the_section_only_records() -> None:
    text = "# S\n\n## Metadata\n\n| Field | Value |\n|---|---|\n"
    out = remove_continues_from(text, "a-1", "[resolved] Released a-1", path="s.md")
    assert out.endswith("## Superseded / Resolved\n\n- [resolved] Released a-1\n\n")


def test_removing_refuses_when_the_source_is_still_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workmem.board import snapshot

    text = with_sources("- a-1")
    monkeypatch.setattr(snapshot, "continues_from", lambda _text: ["a-1"])
    with pytest.raises(FormatError) as info:
        remove_continues_from(text, "a-1", "[resolved] x", path="s.md")
    assert str(info.value) == "s.md: could not remove a-1 from Continues From"


def test_a_source_in_backticks_followed_by_words_is_a_continuation_both_ways(
    root: Path,
) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    sid = board.register(topic="Current", agent_name="other-agent").session_id
    board.update(sid, sections={"Continues From": f"`{source}` (the auth work)"})
    text = (root / "memory" / "sessions" / f"{sid}.md").read_text()
    assert continues_from(text) == [source]
    assert board.doctor().healthy
    board.release(source, as_id=sid)
    assert continues_from((root / "memory" / "sessions" / f"{sid}.md").read_text()) == []
    assert board.doctor().healthy


def test_a_release_replaces_the_template_hint_under_superseded() -> None:
    hint = (
        "- List replaced decisions, resolved questions, or completed/abandoned actions, "
        "or write `None`."
    )
    text = with_sources("- a-1").replace(
        "## Superseded / Resolved\n\nNone", f"## Superseded / Resolved\n\n{hint}"
    )
    out = remove_continues_from(text, "a-1", "[resolved] Released a-1", path="s.md")
    assert out.endswith("## Superseded / Resolved\n\n- [resolved] Released a-1\n\n")


# -- the Metadata table, line by line --------------------------------------------------------


def test_setting_a_field_keeps_every_other_line_of_the_metadata_section() -> None:
    # Blank lines (or a line of spaces) after the table are the user's: an update used to
    # drop one of them each time.
    head = "# S\n\n## Metadata\n\n| Field | Value |\n|---|---|\n| Status | active |\n"
    for tail in ("\n\n\n## Next\n\n- x\n", "  \n\n## Next\n\n- x\n", "\n\n\n"):
        out = SnapshotChange(metadata={"Status": "stale"}).apply(head + tail, path="s.md")
        assert out == head.replace("active", "stale") + tail
    touching = head + "## Next\n\n- x\n"
    out = SnapshotChange(metadata={"Status": "stale"}).apply(touching, path="s.md")
    assert out == head.replace("active", "stale") + "\n## Next\n\n- x\n"


def test_a_broken_metadata_table_is_refused_at_its_line_in_the_file() -> None:
    renamed = TEMPLATE.replace("| Field | Value |", "| Name | Value |")
    with pytest.raises(FormatError) as header:
        SnapshotChange(metadata={"Status": "stale"}).apply(renamed, path="s.md")
    assert str(header.value) == (
        "s.md:5: table header is 'Name | Value', expected 'Field | Value'; nothing was written"
    )
    later = "intro\n\n## Notes\n\n- a\n\n## Metadata\n\n| Field | Value |\n|---|---|---|\n"
    with pytest.raises(FormatError) as separator:
        SnapshotChange(metadata={"Status": "stale"}).apply(later, path="s.md")
    assert str(separator.value) == "s.md:10: separator has 3 columns, header has 2"
    empty = "# S\n\n## Metadata\n\nnothing here\n"
    with pytest.raises(FormatError) as missing:
        SnapshotChange(metadata={"Status": "stale"}).apply(empty, path="s.md")
    assert str(missing.value) == "s.md: no markdown table found (expected columns: Field | Value)"


def test_a_marker_change_replaces_the_hint_under_superseded() -> None:
    hint = (
        "- List replaced decisions, resolved questions, or completed/abandoned actions, "
        "or write `None`."
    )
    text = TEMPLATE.replace("## Next Actions\n\nNone", "## Next Actions\n\n- Write tests").replace(
        "## Superseded / Resolved\n\nNone", f"## Superseded / Resolved\n\n{hint}"
    )
    change = SnapshotChange()
    change.add("next", "[done] Write tests")
    out = change.apply(text, path="s.md")
    assert out.endswith("## Superseded / Resolved\n\n- [done] Write tests (Next Actions)\n\n")


def test_a_section_title_keeps_its_letters() -> None:
    change = SnapshotChange()
    change.add("Xrays", "x")
    assert "\n## Xrays\n\n- x\n" in change.apply(TEMPLATE, path="s.md")


# -- reading Continues From, the edges -------------------------------------------------------


def test_continues_from_reads_past_a_marker_at_the_top() -> None:
    assert continues_from(with_sources("- [resolved] c-3", "- a-1")) == ["a-1"]


def test_a_source_in_a_code_span_with_spaces_is_read_and_other_letters_kept() -> None:
    # "` a-1 `" is a code span showing a-1; letters outside the backticks belong to the
    # token (the board then refuses it as an ID rather than reading another session).
    assert continues_from(with_sources("- ` a-1 `")) == ["a-1"]
    assert continues_from(with_sources("- Xb-2", "- `c-3`X")) == ["Xb-2", "c-3`X"]


def test_section_slicing_reads_what_a_full_parse_reads() -> None:
    # The first of two sections of the same name, like Document.get.
    twice = with_sources("- a-1") + "\n## Continues From\n\n- b-2\n"
    assert continues_from(twice) == ["a-1"]
    # A heading spelled in another case is still the section (no exact marker to slice at).
    assert continues_from("# S\n\n## continues from\n\n- a-1\n") == ["a-1"]
    # No blank line before the next heading: the last item is read whole.
    assert continues_from("# S\n\n## Continues From\n\n- a-12\n## Later\n\n- b-2\n") == ["a-12"]
    # A heading inside a backtick fence is text, like one inside a tilde fence.
    fenced = "# S\n\n## Other\n\n```\n## Continues From\n\n- fake-2\n```\n"
    assert continues_from(fenced) == []
    # A section that happens to be titled "None" does not hide the others.
    assert continues_from(with_sources("- a-1") + "\n## None\n\n- x\n") == ["a-1"]
