"""The section engine rule by rule: each test pins one thing the merge policy must do.

These were written against mutation testing (docs/mutation.md): every rule here is one that
a small change to ``files/sections.py`` used to break with the whole suite still passing.
"""

from __future__ import annotations

from workmem.files.sections import (
    Block,
    Document,
    Section,
    check_preserved,
    is_placeholder,
    is_placeholder_text,
    item_key,
    merge_items,
    merge_prose,
    normalize_title,
    parse_blocks,
    strip_marker,
)

SNAPSHOT = """# Session: s

## Metadata

| Field | Value |
|---|---|
| Status | active |

## Decisions

- Use SQLite
- Keep files as truth

## Next Actions

- Write tests
- Write benchmark

## Superseded / Resolved

None
"""


def section(*body: str, title: str = "Next Actions") -> Section:
    return Section(title, f"## {title}", ["", *body, ""])


# -- merge_items ----------------------------------------------------------------------------


def test_items_after_a_placeholder_in_the_same_call_are_all_kept() -> None:
    target = section("- First")
    merge_items(target, ["None", "Second", "n/a", "Third", "- ", "Fourth"])
    assert target.items() == ["First", "Second", "Third", "Fourth"]


def test_a_resent_item_keeps_its_done_marker() -> None:
    target = section("- [done] Write tests", "- Write benchmark")
    changed = merge_items(target, ["Write tests", "write benchmark."])
    assert target.items() == ["[done] Write tests", "Write benchmark"]
    assert changed == []
    assert target.body == ["", "- [done] Write tests", "- Write benchmark", ""]


def test_a_resent_marked_item_is_not_reported_again() -> None:
    target = section("- [done] Write tests")
    assert merge_items(target, ["[done] Write tests"]) == []
    assert target.items() == ["[done] Write tests"]


def test_a_new_marker_replaces_the_old_one_and_is_reported() -> None:
    target = section("- [done] Write tests")
    assert merge_items(target, ["[superseded] Write tests"]) == ["[superseded] Write tests"]
    assert target.items() == ["[superseded] Write tests"]


def test_the_same_marker_with_a_new_note_updates_the_item() -> None:
    target = section("- [superseded] Use SQLite")
    changed = merge_items(target, ["[superseded] Use SQLite: replaced by Postgres"])
    assert changed == ["[superseded] Use SQLite: replaced by Postgres"]
    assert target.items() == ["[superseded] Use SQLite: replaced by Postgres"]


def test_a_marked_item_matches_only_a_whole_leading_item() -> None:
    target = section("- Use SQLite", "- Use SQ")
    merge_items(target, ["[done] Use SQLite3"])  # "sqlite3" is not "sqlite" plus a note
    assert target.items() == ["Use SQLite", "Use SQ", "[done] Use SQLite3"]


def test_a_marker_updates_the_first_matching_item_and_keeps_its_indent() -> None:
    target = section("  - Write tests", "- Write tests", "text after")
    merge_items(target, ["[done] Write tests"])
    assert target.body[1] == "  - [done] Write tests"
    assert target.body[2] == "- Write tests"


def test_a_marked_item_is_matched_only_against_items_not_prose() -> None:
    target = section("Write tests", "", "- Other")
    merge_items(target, ["[done] Write tests"])
    assert target.items() == ["Other", "[done] Write tests"]
    assert target.body[1] == "Write tests"


def test_bullets_of_the_input_are_stripped_and_blank_lines_skipped() -> None:
    target = section("- A")
    merge_items(target, ["  - B  ", "* C", "", "   ", "+ D"])
    assert target.items() == ["A", "B", "C", "+ D"]


def test_appended_items_join_the_list_before_trailing_blank_lines() -> None:
    target = Section("Decisions", "## Decisions", ["", "- A", "", "", ""])
    merge_items(target, ["B"])
    assert target.body == ["", "- A", "- B", ""]


def test_leading_blank_lines_are_dropped_and_an_empty_list_says_none() -> None:
    target = Section("Decisions", "## Decisions", ["", "", "- A"])
    merge_items(target, [])
    assert target.body == ["", "- A", ""]
    empty = Section("Decisions", "## Decisions", ["", "None", ""])
    merge_items(empty, ["None", "- None"])
    assert empty.body == ["", "None", ""]


def test_a_template_hint_gives_way_to_the_first_item() -> None:
    hint = "- List decisions already made."
    target = section(hint, title="Decisions")
    merge_items(target, ["Use JWT"], hints=[hint])
    assert target.body == ["", "- Use JWT", ""]
    kept = section(hint, title="Decisions")
    merge_items(kept, ["Use JWT"])  # without the hint it is a real item
    assert kept.items() == ["List decisions already made.", "Use JWT"]


def test_hints_given_as_a_generator_are_read_once_for_both_checks() -> None:
    hint = "- List decisions already made."
    target = section(hint, title="Decisions")
    merge_items(target, ["Use JWT"], hints=(h for h in [hint]))
    assert target.items() == ["Use JWT"]


# -- check_preserved ------------------------------------------------------------------------


def test_an_item_moved_to_an_earlier_section_is_kept() -> None:
    old = Document.parse(SNAPSHOT)
    new = Document.parse(
        SNAPSHOT.replace(
            "- Keep files as truth\n", "- Keep files as truth\n- Write tests\n"
        ).replace("- Write tests\n- Write benchmark", "- Write benchmark")
    )
    assert check_preserved(old, new) == []


def test_an_item_moved_to_a_later_section_with_a_marker_and_note_is_kept() -> None:
    old = Document.parse(SNAPSHOT)
    new = Document.parse(
        SNAPSHOT.replace("- Use SQLite\n", "").replace(
            "## Superseded / Resolved\n\nNone",
            "## Superseded / Resolved\n\n- [superseded] Use SQLite: replaced by Postgres",
        )
    )
    assert check_preserved(old, new) == []


def test_an_item_dropped_from_a_later_section_is_reported_by_name() -> None:
    old = Document.parse(SNAPSHOT)
    new = Document.parse(SNAPSHOT.replace("- Write benchmark\n", ""))
    assert check_preserved(old, new) == ["'Write benchmark' in Next Actions"]


def test_every_loss_is_reported_not_only_the_first() -> None:
    old = Document.parse(SNAPSHOT)
    new = Document.parse(SNAPSHOT.replace("- Use SQLite\n", "").replace("- Write tests\n", ""))
    assert check_preserved(old, new) == [
        "'Use SQLite' in Decisions",
        "'Write tests' in Next Actions",
    ]


def test_sections_after_a_skipped_one_are_still_checked() -> None:
    old = Document.parse(SNAPSHOT)
    new = Document.parse(SNAPSHOT.replace("- Write benchmark\n", "").replace("active", "stale"))
    assert check_preserved(old, new, skip=["metadata"]) == ["'Write benchmark' in Next Actions"]


def test_sections_after_a_missing_one_are_still_checked() -> None:
    old = Document.parse(SNAPSHOT)
    new = Document.parse(
        SNAPSHOT.replace("## Decisions\n\n- Use SQLite\n- Keep files as truth\n\n", "").replace(
            "- Write benchmark\n", ""
        )
    )
    assert check_preserved(old, new) == [
        "section 'Decisions'",
        "'Write benchmark' in Next Actions",
    ]


def test_a_skipped_section_may_change_freely() -> None:
    old = Document.parse(SNAPSHOT)
    new = Document.parse(SNAPSHOT.replace("| Status | active |", "| Status | stale |"))
    assert check_preserved(old, new, skip=["Metadata"]) == []
    assert check_preserved(old, new) == [
        "text '| Field | Value |\n|---|---|\n| Status | active |' in Metadata"
    ]


def test_an_item_kept_only_as_prose_elsewhere_counts_as_lost() -> None:
    old = Document.parse("## A\n\n- Alpha\n\n## B\n\nNone\n")
    new = Document.parse("## A\n\nNone\n\n## B\n\nAlpha\n")
    assert check_preserved(old, new) == ["'Alpha' in A"]


def test_an_unmarked_longer_item_elsewhere_does_not_keep_an_item() -> None:
    old = Document.parse("## A\n\n- Alpha\n\n## B\n\nNone\n")
    assert check_preserved(old, Document.parse("## A\n\nNone\n\n## B\n\n- Alphabet\n")) == [
        "'Alpha' in A"
    ]
    assert check_preserved(old, Document.parse("## A\n\nNone\n\n## B\n\n- Alpha: note\n")) == []


def test_lost_prose_is_reported_and_kept_prose_is_found_anywhere() -> None:
    old = Document.parse("## Context\n\nWe refactored   auth.\n\n## Notes\n\nNone\n")
    moved = Document.parse("## Context\n\nSomething else.\n\n## Notes\n\nwe REFACTORED auth.\n")
    assert check_preserved(old, moved) == []
    long = "x" * 70
    old_long = Document.parse(f"## Context\n\n{long}\n")
    assert check_preserved(old_long, Document.parse("## Context\n\nNone\n")) == [
        f"text '{'x' * 60}' in Context"
    ]


def test_placeholders_and_hints_are_not_content_to_keep() -> None:
    hint = "- List decisions already made."
    old = Document.parse(f"## Decisions\n\n{hint}\n\n## Next\n\nNone\n")
    new = Document.parse("## Decisions\n\n- Use JWT\n\n## Next\n\n- Go\n")
    assert check_preserved(old, new, hints=[hint]) == []
    assert check_preserved(old, new) == ["'List decisions already made.' in Decisions"]


def test_section_titles_match_by_normalized_title() -> None:
    old = Document.parse("## Next  Actions\n\n- Go\n")
    assert check_preserved(old, Document.parse("## next actions\n\n- Go\n")) == []
    assert check_preserved(old, Document.parse("## Next\n\n- Go\n")) == ["section 'Next  Actions'"]


# -- the smaller pieces ---------------------------------------------------------------------


def test_item_key_ignores_marker_case_spacing_final_period_and_backticks() -> None:
    assert item_key("[done]  `Use  SQLite`.") == "use sqlite"
    assert item_key("Use SQLite。") == "use sqlite"
    assert item_key("  Use SQLite ") == "use sqlite"
    assert item_key("[note] x") == "[note] x"


def test_strip_marker_reads_known_markers_in_any_case_only() -> None:
    assert strip_marker("  [DONE] Ship it ") == ("done", "Ship it")
    assert strip_marker("[Superseded: old] Use X") == ("superseded", "Use X")
    assert strip_marker("[todo] Ship it") == (None, "[todo] Ship it")
    assert strip_marker("  plain  ") == (None, "plain")


def test_normalize_title_folds_case_and_spacing() -> None:
    assert normalize_title("  Next \t Actions ") == "next actions"


def test_blocks_group_continuation_lines_and_paragraphs() -> None:
    blocks = parse_blocks(
        ["- one", "  more of one", "\tand more", "", "para a", "para b", "", "", "1. two", "x"]
    )
    assert [(b.is_item, b.lines) for b in blocks] == [
        (True, ["- one", "  more of one", "\tand more"]),
        (False, [""]),
        (False, ["para a", "para b", "", ""]),
        (True, ["1. two"]),
        (False, ["x"]),
    ]
    assert blocks[0].text == "one"
    assert blocks[1].text == ""
    assert blocks[2].text == "para a\npara b"


def test_a_blank_line_after_an_item_ends_it() -> None:
    blocks = parse_blocks(["- one", "", "  indented after blank"])
    assert [(b.is_item, b.lines) for b in blocks] == [
        (True, ["- one"]),
        (False, [""]),
        (False, ["  indented after blank"]),
    ]


def test_a_paragraph_after_a_blank_line_is_a_new_block() -> None:
    blocks = parse_blocks(["para a", "", "para b"])
    assert [b.lines for b in blocks] == [["para a", ""], ["para b"]]


def test_block_text_of_a_line_that_is_not_a_bullet_is_the_line() -> None:
    assert Block(["  odd  "], is_item=True).text == "odd"
    assert Block(["    - deep"], is_item=True).text == "- deep"


def test_ensure_appends_a_missing_section_with_a_blank_line_before_it() -> None:
    doc = Document.parse("# T\n\n## A\n\n- x")
    added = doc.ensure("B", placeholder="Nothing")
    assert doc.ensure("b") is added
    assert doc.render() == "# T\n\n## A\n\n- x\n\n## B\n\nNothing\n"
    bare = Document.parse("# Title")
    bare.ensure("A")
    assert bare.render() == "# Title\n\n## A\n\nNone\n"
    spaced = Document.parse("# Title\n\n")
    spaced.ensure("A")
    assert spaced.render() == "# Title\n\n## A\n\nNone\n\n"


def test_get_finds_a_section_by_normalized_title_or_none() -> None:
    doc = Document.parse("## First\n\n## Next Actions\n")
    found = doc.get("NEXT   actions")
    assert found is not None and found.title == "Next Actions"
    assert doc.get("Other") is None


def test_placeholder_text_in_every_language_and_form() -> None:
    for text in ("None", "- None", "`none`", "n/a", " - ", "無", "无", "なし", "* none."):
        assert is_placeholder_text(text), text
    for text in ("None yet", "- Done", ""):
        assert not is_placeholder_text(text) or text == "", text


def test_a_section_is_a_placeholder_only_when_nothing_real_is_in_it() -> None:
    assert is_placeholder(section("None"))
    assert is_placeholder(section("", "", "- n/a"))
    assert is_placeholder(section("- Pick one", "None"), hints=["* Pick one"])
    assert not is_placeholder(section("None", "- Real"))
    assert not is_placeholder(section("Real text"))


def test_prose_replaces_a_placeholder_and_skips_what_is_already_said() -> None:
    target = section("Summarize here.", title="Current Context")
    merge_prose(target, "  First line\nsecond line  ", hints=["Summarize here."])
    assert target.body == ["", "First line", "second line", ""]
    merge_prose(target, "FIRST   line second LINE")
    assert target.body == ["", "First line", "second line", ""]
    merge_prose(target, "   ")
    merge_prose(target, "Next.")
    assert target.body == ["", "First line", "second line", "", "Next.", ""]


def test_an_item_repeated_in_one_call_is_added_once_and_can_be_marked_in_it() -> None:
    target = section("- A")
    merge_items(target, ["New", "new.", "Later", "[done] Later"])
    assert target.items() == ["A", "New", "[done] Later"]


def test_keys_keep_letters_that_look_like_stripped_characters() -> None:
    assert item_key("Use X") == "use x"
    assert item_key("X marks the spot") == "x marks the spot"


def test_hints_starting_with_any_letter_are_recognised() -> None:
    hint = "X marks the spot"
    old = Document.parse(f"## A\n\n- {hint}\n")
    new = Document.parse("## A\n\n- Real item\n")
    assert check_preserved(old, new, hints=[hint]) == []
    assert is_placeholder(section(f"- {hint}"), hints=[hint])


def test_prose_of_several_lines_is_appended_line_by_line() -> None:
    target = section("Old text.", title="Current Context")
    merge_prose(target, "New one\nnew two")
    assert target.body == ["", "Old text.", "", "New one", "new two", ""]


def test_ensure_looks_at_the_last_line_of_the_last_section() -> None:
    doc = Document.parse("## A\nx\n\ny")
    doc.ensure("B")
    assert doc.render() == "## A\nx\n\ny\n\n## B\n\nNone\n"


def test_outline_nodes_know_their_level() -> None:
    from workmem.files.outline import parse_outline

    outline = parse_outline("## A\n### B\n", (2, 3))
    assert outline.nodes[0].level == 2
    assert outline.nodes[0].children[0].level == 3
    assert outline.nodes[0].children[0].title == "B"
