"""Free text rule by rule: each escape, each cleaning step, each fence rule, exactly.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``files/freetext.py`` that a small change used to break with the whole suite passing.
"""

from __future__ import annotations

import pytest

from workmem.files.freetext import clip, neutralize_block, neutralize_line, restore


def test_tabs_become_four_spaces_and_control_characters_go() -> None:
    assert neutralize_block("a\tb\x0bc\x7fd\x1fe\x00f\x08g") == "a    bcdefg"
    assert neutralize_line("a\tb\x0cc") == "a bc"  # tab folded to one space, form feed gone


def test_every_line_end_becomes_one_newline() -> None:
    assert neutralize_block("a\r\nb\rc\nd") == "a\nb\nc\nd"
    assert neutralize_block("a\r\rb") == "a\n\nb"


@pytest.mark.parametrize(
    "line, safe",
    [
        ("# a", "\\# a"),
        ("   ###### six", "   \\###### six"),
        ("##", "\\##"),
        ("####### seven", "####### seven"),  # more than six is not a heading
        ("    ## code", "    ## code"),  # four spaces: indented code, not a heading
        ("## a ## b", "\\## a ## b"),  # only the start is escaped
    ],
)
def test_heading_starts_are_escaped_exactly(line: str, safe: str) -> None:
    assert neutralize_block(line) == safe
    assert restore(safe) == line


@pytest.mark.parametrize(
    "line, safe",
    [
        ("---", "\\---"),
        ("   ***", "   \\***"),
        ("= = =", "\\= = ="),
        ("___  ", "\\___"),
        ("--", "--"),  # two is not a rule
        ("-*-", "-*-"),  # mixed characters are not a rule
        ("    ---", "    ---"),  # indented code
        ("--- x", "--- x"),
    ],
)
def test_rules_and_fences_are_escaped_exactly(line: str, safe: str) -> None:
    assert neutralize_block(line) == safe
    assert restore(safe) == line.rstrip()


def test_comment_openers_are_broken_everywhere_and_restored() -> None:
    safe = neutralize_block("a <!-- b <!-- c\n<!--")
    assert safe == "a <\\!-- b <\\!-- c\n<\\!--"
    assert restore(safe) == "a <!-- b <!-- c\n<!--"
    assert neutralize_line("x <!-- y") == "x <\\!-- y"


def test_blank_lines_at_both_ends_go_and_inner_ones_stay() -> None:
    assert neutralize_block("\n\n  \na\n\nb\n \n\n") == "a\n\nb"
    assert neutralize_block("") == ""
    assert neutralize_block("\n \n") == ""


def test_fences_close_only_on_the_same_character_and_at_least_the_same_length() -> None:
    assert neutralize_block("~~~\n```\nx") == "~~~\n```\nx\n~~~"
    assert neutralize_block("````\n```\nx") == "````\n```\nx\n````"
    assert neutralize_block("```\nx\n`````") == "```\nx\n`````"
    assert neutralize_block("```py\n``` not a close\nx") == "```py\n``` not a close\nx\n```"
    assert neutralize_block("```\nx\n```\n~~~\ny") == "```\nx\n```\n~~~\ny\n~~~"
    assert neutralize_block("   ```\nx\n```") == "   ```\nx\n```"
    assert neutralize_block("    ```\nx") == "    ```\nx"  # indented code, not a fence


def test_headings_inside_a_fence_are_escaped_too() -> None:
    assert neutralize_block("```\n## x\n```") == "```\n\\## x\n```"


def test_clip_cuts_at_the_width_and_counts_the_rest() -> None:
    assert clip("abcde", 5) == "abcde"
    assert clip("abcdef", 5) == "abcde … (1 more characters)"
    assert clip("abc  def", 5) == "abc … (3 more characters)"
    assert clip("x" * 1234, 0) == " … (1,234 more characters)"
    assert neutralize_block("abcdef\nxy", max_line=5) == "abcde … (1 more characters)\nxy"


def test_the_one_line_form_clips_to_its_limit_with_an_ellipsis() -> None:
    assert neutralize_line("abcdef", limit=6) == "abcdef"
    assert neutralize_line("abcdefg", limit=6) == "abcde…"
    assert neutralize_line("abcdefg", limit=1) == "…"
    assert neutralize_line("abcdefg", limit=0) == "…"
    assert neutralize_line("  a \n\n b  ") == "a b"
    assert neutralize_line("---") == "\\---"
    assert neutralize_line("\t## x") == "\\## x"


def test_restore_undoes_only_our_escapes() -> None:
    assert restore("\\## a\n  \\---\nx \\## y\n\\#hashtag") == "## a\n  ---\nx \\## y\n\\#hashtag"
    assert restore("   \\- - -") == "   - - -"
    assert restore("    \\## deep") == "    \\## deep"
