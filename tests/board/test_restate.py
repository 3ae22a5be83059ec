"""The rules of ``board.restate`` one by one: what counts as a restated fact, a sentence, a
paragraph; how Current Context is merged and checked; how a Files entry is refined."""

from __future__ import annotations

from workmem.board import restate
from workmem.board.restate import (
    context_lost,
    merge_context,
    paragraphs,
    refine_items,
    refines,
    restates,
    sentences,
)
from workmem.files.sections import Section

HINT = "Summarize what has happened in this agent session so far."


def ctx(*lines: str) -> Section:
    return Section("Current Context", "## Current Context", ["", *lines, ""])


def record(*items: str) -> Section:
    return Section("Superseded / Resolved", "## Superseded / Resolved", ["", *items, ""])


# -- what restates what -------------------------------------------------------------------


def test_content_words_leave_out_stop_words_single_letters_and_trailing_punctuation() -> None:
    assert restate._tokens("The cat, a dog. Go 80% x 猫") == {"cat", "dog", "go", "80%", "猫"}


def test_a_label_is_up_to_four_words_before_a_colon() -> None:
    assert restate._label("One two three four: x") == "one two three four"
    assert restate._label("One two three four five: x") is None
    assert restate._label("No colon here") is None
    assert restate._label("狀態：完成") == "狀態"


def test_restates_by_label_by_most_words_or_by_one_word_changed() -> None:
    assert restates("Status: green.", "Status: blocked on CI.")
    assert not restates("Done now.", "Done.")  # one content word restates nothing
    # Most words shared: exactly 60 % of both, two or more.
    assert restates("alpha beta gamma delta epsilon", "alpha beta gamma")
    assert restates("alpha beta gamma", "alpha beta")  # two of three
    assert not restates("alpha beta xray yankee zulu", "alpha beta gamma delta")
    # One word changed on each side: two words shared, or a number changed.
    assert restates("We use Postgres for storage.", "We use SQLite for storage.")
    assert restates("Coverage is 95%,", "Coverage is 80%.")
    assert not restates("Tests pass.", "Docs pass.")  # one shared word, not a number
    assert not restates("alpha beta xray yankee", "alpha beta gamma delta")  # two changed
    assert not restates("alpha beta gamma xray yankee", "alpha beta gamma delta")
    assert not restates("Same thing.", "Same thing.")


def test_sentences_split_a_paragraph_but_not_a_fence_a_table_a_list_or_a_quote() -> None:
    assert sentences("One.\nTwo! Three?") == ["One.", "Two!", "Three?"]
    assert sentences("One\ntwo.") == ["One two."]
    assert sentences("完成了解析器。開始寫編碼器。") == ["完成了解析器。", "開始寫編碼器。"]
    for shape in ("```", "~~~", "| a | b |", "- item. more", "* item. more", "> quote. more"):
        text = f"Intro. Then:\n  {shape}"
        assert sentences(text) == [text], shape


def test_paragraphs_keep_their_own_indentation() -> None:
    assert paragraphs("a\n\n  b\n \nc") == ["a", "  b", "c"]


# -- merging Current Context --------------------------------------------------------------


def test_the_hint_and_none_in_any_language_give_way() -> None:
    for stand_in in (
        HINT,
        "None",
        "なし",
        "このセッションでここまでに行ったことを要約してください。",
    ):
        section = ctx(stand_in)
        merge_context(section, ["New."])
        assert section.body == ["", "New.", ""], stand_in
    section = ctx(HINT)
    merge_context(section, [])
    assert section.body == ["", HINT, ""]  # nothing to merge: untouched


def test_the_hint_is_dropped_and_lists_stay_one_list() -> None:
    section = ctx(HINT, "", "Intro.", "", "- a", "- b", "", "- c")
    merged = merge_context(section, ["More.\nSecond line."])
    assert section.body == ["", "Intro.", "", "- a", "- b", "- c", "", "More.", "Second line.", ""]
    assert merged.superseded == [] and merged.replaced == []


def test_a_save_paragraph_replaces_every_old_one_and_an_agent_one_after_it_still_counts() -> None:
    section = ctx("Auto-saved (1): a", "", "Coverage is 80%.", "", "自動保存 (2): b")
    merged = merge_context(section, ["Auto-saved (3): c\nsecond line\n\nCoverage is 90%."])
    assert merged.replaced == ["Auto-saved (1): a", "自動保存 (2): b"]
    assert merged.superseded == ["Coverage is 80%."]
    assert section.body == ["", "Coverage is 90%.", "", "Auto-saved (3): c", "second line", ""]


def test_without_a_new_save_paragraph_the_old_one_stays_last() -> None:
    section = ctx("Auto-saved (1): a", "", "Mine.")
    merged = merge_context(section, ["Yours."])
    assert section.body == ["", "Mine.", "", "Yours.", "", "Auto-saved (1): a", ""]
    assert merged.replaced == []


def test_superseded_sentences_of_every_old_paragraph_are_listed() -> None:
    section = ctx("Coverage is 80%. Parser done.", "", "Status: red. Docs later.")
    merged = merge_context(section, ["Coverage is 95%.\n\nStatus: green."])
    assert merged.superseded == ["Coverage is 80%.", "Status: red."]
    assert section.body == [
        "",
        "Parser done.",
        "",
        "Docs later.",
        "",
        "Coverage is 95%.",
        "",
        "Status: green.",
        "",
    ]


def test_a_sentence_said_again_moves_to_the_new_text_and_a_rewrite_supersedes_the_rest() -> None:
    section = ctx("Parser done. Encoder next. Tests red.")
    merged = merge_context(section, ["Parser done. Tests red. Docs now."])
    assert merged.superseded == ["Encoder next."]  # two of three said again: a rewrite
    assert section.body == ["", "Parser done. Tests red. Docs now.", ""]
    section = ctx("Parser done. Encoder next. Tests red. Lint clean.")
    merged = merge_context(section, ["Parser done. Docs now."])
    assert merged.superseded == []  # one of four: an addition
    assert section.body == [
        "",
        "Encoder next. Tests red. Lint clean.",
        "",
        "Parser done. Docs now.",
        "",
    ]


def test_a_paragraph_said_already_or_twice_is_added_once() -> None:
    section = ctx("One fact here.")
    merge_context(section, ["one fact  HERE.", "New.", "new."])
    assert section.body == ["", "One fact here.", "", "New.", ""]


def test_an_old_save_paragraph_before_agent_words_is_still_superseded_around() -> None:
    section = ctx("Auto-saved (1): a", "", "Coverage is 80%.")
    merged = merge_context(section, ["Coverage is 90%."])
    assert merged.superseded == ["Coverage is 80%."]


# -- checking a merge ---------------------------------------------------------------------


def test_context_lost_names_each_sentence_item_and_save_paragraph_that_went_unmarked() -> None:
    long = "A sentence that is rather longer than sixty characters, for the message."
    old = ctx(HINT, "", "Auto-saved (1): a", "", f"Kept. {long}", "", "- keep me. and me")
    assert context_lost(old, old, None) == []
    assert context_lost(None, ctx(), None) == []
    gone = context_lost(old, None, None)
    assert gone == [
        "text 'Auto-saved (1): a' in Current Context",
        "text 'Kept.' in Current Context",
        f"text '{long[:60]}' in Current Context",
        "text 'keep me. and me' in Current Context",
    ]
    # Listed as superseded, or a newer save paragraph: kept.
    new = ctx("Auto-saved (2): b", "", "Kept.", "", "- keep me.", "- and me")
    listed = record(f"- [superseded] {long} (Current Context)")
    assert context_lost(old, new, listed) == ["text 'keep me. and me' in Current Context"]
    # A list item that looks like a save paragraph is not one.
    fake = ctx("- Auto-saved (2): b", "", f"Kept. {long}", "", "- keep me. and me")
    assert context_lost(old, fake, None) == ["text 'Auto-saved (1): a' in Current Context"]


# -- Files entries refined ----------------------------------------------------------------


def files(*items: str) -> Section:
    return Section("Files / Artifacts", "## Files / Artifacts", ["", *items, ""])


def test_refine_replaces_the_first_unmarked_entry_of_the_path_keeping_its_indent() -> None:
    section = files("- [done] `a` — f", "- `b` — other", "  - `a` — f")
    done = refine_items(section, ["no path", "- [done] `a` — f, g, h", "* `a` — f, g"])
    assert done == [("`a` — f", "`a` — f, g")]
    assert section.body == ["", "- [done] `a` — f", "- `b` — other", "  - `a` — f, g", ""]


def test_refine_leaves_a_different_statement_and_an_identical_one_alone() -> None:
    section = files("- `a` — modified")
    assert refine_items(section, ["- `a` — the parser", "- `a` — modified"]) == []
    assert section.body == ["", "- `a` — modified", ""]
    assert refines("`a` — f, g", "`a` — f") and not refines("`a` — f", "`a` — F")


def test_a_url_is_no_label() -> None:
    assert restate._label("https://a.example is down") is None
    assert not restates("https://b.example is up again", "https://a.example is down")


def test_a_list_first_or_after_two_paragraphs_stays_in_place() -> None:
    section = ctx("- a", "- b", "", "Then.")
    merge_context(section, ["More."])
    assert section.body == ["", "- a", "- b", "", "Then.", "", "More.", ""]
    section = ctx("P1.", "", "P2.", "", "- a", "- b")
    merge_context(section, ["More."])
    assert section.body == ["", "P1.", "", "P2.", "", "- a", "- b", "", "More.", ""]


def test_tokens_keep_a_capital_x() -> None:
    assert restate._tokens("Xerox X-ray") == {"xerox", "x-ray"}


def test_refine_goes_on_past_an_entry_it_leaves_alone() -> None:
    section = files("- `b` — other", "- `a` — f")
    done = refine_items(section, ["- `b` — else", "- `a` — f, g"])
    assert done == [("`a` — f", "`a` — f, g")]
    assert section.body == ["", "- `b` — other", "- `a` — f, g", ""]
