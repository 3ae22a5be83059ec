"""The changed-lines rules of the write path, each pinned with an exact result.

``redact_changes(old, new)`` redacts only what a write adds: lines outside the difference
and lines the old text already held stay byte for byte, a changed line under a parent key
(an indented block, a TOML table) is redacted together with the lines up to that key, and
a secret that spans several added lines (a private key) is redacted as one. The helpers
that find the difference are checked with exact lengths, around their block sizes.
"""

from __future__ import annotations

import pytest

from workmem.redact.changes import _common_head, _common_tail, redact_changes

GITHUB = "ghp_iS2G8NPRVdD53X83RZJzzzzgEOzdmenCkhvM"
MARKED = "[REDACTED:github-token]"
VALUE = "Yy7wM1uK4o"  # a secret only by the name above it
NESTED = "[REDACTED:nested-secret]"
KEY = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
    "-----END OPENSSH PRIVATE KEY-----"
)


# -- where two texts start and stop differing ---------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("", "", 0),
        ("abc", "xbc", 0),
        ("abc", "abc", 3),
        ("abcd", "abcx", 3),
        ("abc", "abcdef", 3),
        ("hello world", "hello", 5),
    ],
)
def test_common_head_is_the_exact_length_of_the_shared_start(a: str, b: str, expected: int) -> None:
    assert _common_head(a, b) == expected
    assert _common_head(b, a) == expected


@pytest.mark.parametrize("size", [1, 15, 16, 17, 255, 256, 4097, 65536, 65537, 70_001])
def test_common_head_across_every_block_size(size: int) -> None:
    same = "ab" * size
    assert _common_head(same, same) == 2 * size
    assert _common_head(same + "x", same + "y") == 2 * size
    assert _common_head("x" + same, "y" + same) == 0


@pytest.mark.parametrize(
    ("a", "b", "limit", "expected"),
    [
        ("abc", "abd", 3, 0),
        ("xab", "yab", 3, 2),
        ("abc", "abc", 3, 3),
        ("abc", "abc", 2, 2),
        ("abc", "zzabc", 3, 3),
        ("zzabc", "abc", 3, 3),
        ("abcabc", "abc", 0, 0),
    ],
)
def test_common_tail_is_the_exact_length_of_the_shared_end(
    a: str, b: str, limit: int, expected: int
) -> None:
    assert _common_tail(a, b, limit) == expected


@pytest.mark.parametrize("size", [1, 15, 16, 17, 255, 256, 4097, 65536, 65537, 70_001])
def test_common_tail_across_every_block_size(size: int) -> None:
    same = "ab" * size
    assert _common_tail(same, same, 2 * size) == 2 * size
    assert _common_tail("x" + same, "y" + same, 2 * size + 1) == 2 * size
    assert _common_tail(same + "x", same + "y", 2 * size + 1) == 0
    assert _common_tail("q" + same, "rr" + same, 2 * size) == 2 * size


# -- which lines are redacted ---------------------------------------------------------------


def test_no_old_text_means_everything_is_new() -> None:
    assert redact_changes(None, f"a {GITHUB}\nb {GITHUB}\n") == f"a {MARKED}\nb {MARKED}\n"


def test_an_unchanged_text_is_returned_as_it_is_even_with_a_secret() -> None:
    text = f"legacy {GITHUB}\n"
    assert redact_changes(text, text) == text


def test_a_line_replaced_by_one_of_the_same_length_is_redacted() -> None:
    old = "x" * len(f"token {GITHUB}") + "\n"
    new = f"token {GITHUB}\n"
    assert len(old) == len(new)
    assert redact_changes(old, new) == f"token {MARKED}\n"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # added as the first line, before old text that holds a secret of its own
        (f"old {GITHUB}\n", f"new {GITHUB}\nold {GITHUB}\n", f"new {MARKED}\nold {GITHUB}\n"),
        # added as the last line, with and without a closing newline
        (f"old {GITHUB}\n", f"old {GITHUB}\nnew {GITHUB}", f"old {GITHUB}\nnew {MARKED}"),
        (f"old {GITHUB}", f"old {GITHUB}\nnew {GITHUB}\n", f"old {GITHUB}\nnew {MARKED}\n"),
        # inserted between two old lines
        (
            f"a {GITHUB}\nz {GITHUB}\n",
            f"a {GITHUB}\nm {GITHUB}\nz {GITHUB}\n",
            f"a {GITHUB}\nm {MARKED}\nz {GITHUB}\n",
        ),
        # a change inside a line: the whole line is redacted, the lines around it are not
        (
            f"a {GITHUB}\nkey is X here\nz {GITHUB}\n",
            f"a {GITHUB}\nkey is {GITHUB} here\nz {GITHUB}\n",
            f"a {GITHUB}\nkey is {MARKED} here\nz {GITHUB}\n",
        ),
        # a copy of an old line, written after it, is a new occurrence
        (f"s {GITHUB}\n", f"s {GITHUB}\ns {GITHUB}\n", f"s {GITHUB}\ns {MARKED}\n"),
        (f"\ns {GITHUB}\n", f"\ns {GITHUB}\ns {GITHUB}\n", f"\ns {GITHUB}\ns {MARKED}\n"),
        (
            f"x\ns {GITHUB}\ny\n",
            f"x\ns {GITHUB}\ny\ns {GITHUB}\n",
            f"x\ns {GITHUB}\ny\ns {MARKED}\n",
        ),
        # ... and so is one written over the line before it
        (f"x\ns {GITHUB}\n", f"s {GITHUB}\ns {GITHUB}\n", f"s {MARKED}\ns {GITHUB}\n"),
        (f"x\ns {GITHUB}", f"s {GITHUB}\ns {GITHUB}", f"s {MARKED}\ns {GITHUB}"),
        # an old line moved inside the changed part stays as it was
        (
            f"one\nold {GITHUB}\ntwo\n",
            f"one\nnew {GITHUB}\nold {GITHUB}\ntwo\n",
            f"one\nnew {MARKED}\nold {GITHUB}\ntwo\n",
        ),
        # a line cut off keeps the rest as it was
        (f"a {GITHUB}\nb\nc {GITHUB}\n", f"a {GITHUB}\nc {GITHUB}\n", f"a {GITHUB}\nc {GITHUB}\n"),
    ],
)
def test_only_the_lines_the_write_adds_are_redacted(old: str, new: str, expected: str) -> None:
    assert redact_changes(old, new) == expected


def test_a_change_without_a_secret_returns_the_new_text_untouched() -> None:
    old = f"old {GITHUB}\n"
    new = f"old {GITHUB}\nplain words, nothing to hide\n"
    assert redact_changes(old, new) == new


def test_a_new_line_that_only_mentions_a_trigger_is_kept() -> None:
    """A run that passes the cheap trigger test but holds no secret stays as written."""
    old = f"old {GITHUB}\n"
    new = old + "the password policy changed\n"
    assert redact_changes(old, new) == new


def test_a_private_key_added_over_several_lines_is_one_secret() -> None:
    old = "# Keys\n\nend\n"
    new = f"# Keys\n\n{KEY}\nend\n"
    assert redact_changes(old, new) == "# Keys\n\n[REDACTED:private-key]\nend\n"


def test_two_separate_changes_are_each_redacted_and_the_middle_kept() -> None:
    middle = f"kept {GITHUB}"
    old = f"a\n{middle}\nb\n"
    new = f"a {GITHUB}\n{middle}\nb {GITHUB}\n"
    assert redact_changes(old, new) == f"a {MARKED}\n{middle}\nb {MARKED}\n"


# -- parent keys above a change --------------------------------------------------------------


def test_a_value_added_under_a_parent_on_the_first_line() -> None:
    old = "credentials:\n  region: eu-west-1\n"
    new = f"credentials:\n  region: eu-west-1\n  default: {VALUE}\n"
    assert redact_changes(old, new) == f"credentials:\n  region: eu-west-1\n  default: {NESTED}\n"


def test_a_value_added_right_under_its_parent_keeps_the_old_line_above() -> None:
    old = f"legacy {GITHUB}\ncredentials:\n"
    new = f"legacy {GITHUB}\ncredentials:\n  default: {VALUE}\n"
    assert redact_changes(old, new) == f"legacy {GITHUB}\ncredentials:\n  default: {NESTED}\n"


def test_the_parent_is_the_nearest_unindented_line_above_the_block() -> None:
    old = f"legacy {GITHUB}\ncredentials:\n  region: eu\n\n  zone: b\n"
    new = f"legacy {GITHUB}\ncredentials:\n  region: eu\n\n  zone: b\n  default: {VALUE}\n"
    expected = f"legacy {GITHUB}\ncredentials:\n  region: eu\n\n  zone: b\n  default: {NESTED}\n"
    assert redact_changes(old, new) == expected


def test_tab_indented_values_belong_to_their_parent() -> None:
    old = f"legacy {GITHUB}\ncredentials:\n\tregion: eu\n"
    new = f"legacy {GITHUB}\ncredentials:\n\tregion: eu\n\tdefault: {VALUE}\n"
    expected = f"legacy {GITHUB}\ncredentials:\n\tregion: eu\n\tdefault: {NESTED}\n"
    assert redact_changes(old, new) == expected


def test_an_indented_value_followed_by_a_changed_top_level_line() -> None:
    old = "credentials:\n  region: eu\nDone.\n"
    new = f"credentials:\n  region: eu\n  default: {VALUE}\nDone now.\n"
    expected = f"credentials:\n  region: eu\n  default: {NESTED}\nDone now.\n"
    assert redact_changes(old, new) == expected


def test_an_indented_line_without_a_parent_is_redacted_on_its_own() -> None:
    assert redact_changes("", f"  pushed {GITHUB}\nDone.") == f"  pushed {MARKED}\nDone."
    assert redact_changes("", f"  default: {VALUE}\nDone.") == f"  default: {VALUE}\nDone."


def test_a_toml_key_added_to_a_table_on_the_first_line() -> None:
    old = "[secrets]\nregion = 'eu'\n"
    new = f"[secrets]\nregion = 'eu'\nprod = \"{VALUE}\"\n"
    assert redact_changes(old, new) == f"[secrets]\nregion = 'eu'\nprod = \"{NESTED}\"\n"


def test_a_toml_key_reaches_its_table_over_keys_blank_lines_and_comments() -> None:
    head = f"legacy {GITHUB}\n[secrets]\nregion = 'eu'\n\n  # the production one\n"
    new = head + f'prod = "{VALUE}"\n'
    assert redact_changes(head, new) == head + f'prod = "{NESTED}"\n'


def test_a_toml_key_under_plain_text_has_no_table() -> None:
    head = "[secrets]\nplain words here\n"
    new = head + f'prod = "{VALUE}"\n'
    assert redact_changes(head, new) == new


def test_a_toml_key_directly_under_its_table() -> None:
    old = f"legacy {GITHUB}\n[secrets]\n"
    new = f'legacy {GITHUB}\n[secrets]\nprod = "{VALUE}"\n'
    assert redact_changes(old, new) == f'legacy {GITHUB}\n[secrets]\nprod = "{NESTED}"\n'


def test_a_plain_line_added_to_a_table_does_not_redact_the_old_keys() -> None:
    old = f"[deploy]\ntoken = {GITHUB}\n"
    new = old + "note: pushed today\n"
    assert redact_changes(old, new) == new


def test_a_table_more_than_the_context_limit_above_is_not_a_parent() -> None:
    from workmem.redact.changes import MAX_CONTEXT_LINES

    filler = "".join(f"k{n} = {n}\n" for n in range(MAX_CONTEXT_LINES + 5))
    old = "[secrets]\n" + filler
    new = old + f'prod = "{VALUE}"\n'
    assert redact_changes(old, new) == new
    near = "[secrets]\n" + "".join(f"k{n} = {n}\n" for n in range(MAX_CONTEXT_LINES - 5))
    assert redact_changes(near, near + f'prod = "{VALUE}"\n') == near + f'prod = "{NESTED}"\n'


def test_an_indented_value_more_than_the_context_limit_below_its_parent() -> None:
    from workmem.redact.changes import MAX_CONTEXT_LINES

    block = "".join(f"  k{n}: {n}\n" for n in range(MAX_CONTEXT_LINES + 5))
    old = f"legacy {GITHUB}\ncredentials:\n" + block
    new = old + f"  default: {VALUE}\n"
    assert redact_changes(old, new) == new


def test_a_toml_key_added_above_a_changed_table_keeps_its_own_table() -> None:
    old = "[secrets]\n[old]\n"
    new = f'[secrets]\nprod = "{VALUE}"\n[other]\n'
    assert redact_changes(old, new) == f'[secrets]\nprod = "{NESTED}"\n[other]\n'


def test_a_toml_key_on_the_first_line_has_no_table_even_with_one_below() -> None:
    assert redact_changes("", f'token = "{GITHUB}"\n[tools]') == f'token = "{MARKED}"\n[tools]'
    assert redact_changes("", f'prod = "{VALUE}"\n[tools]') == f'prod = "{VALUE}"\n[tools]'


def test_a_key_added_under_a_table_is_redacted_when_the_same_line_sits_above_it() -> None:
    line = f'prod = "{VALUE}"'
    old = f"{line}\n[secrets]\n"
    assert redact_changes(old, f"{old}{line}") == f'{old}prod = "{NESTED}"'
    assert redact_changes(old, f"{old}{line}\n") == f'{old}prod = "{NESTED}"\n'


def test_lines_above_a_change_after_a_blank_first_line_are_not_repeated() -> None:
    new = f"\n  default: {VALUE}\ns {GITHUB}\n  default: {VALUE}\n"
    expected = f"\n  default: {VALUE}\ns {MARKED}\n  default: {VALUE}\n"
    assert redact_changes("\n\n", new) == expected
