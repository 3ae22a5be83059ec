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

LEGACY = f"legacy {GITHUB}\n"
PROD = f'prod = "{VALUE}"'
PROD_NESTED = f'prod = "{NESTED}"'


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        pytest.param(
            "credentials:\n  region: eu\n",
            f"credentials:\n  region: eu\n  default: {VALUE}\n",
            f"credentials:\n  region: eu\n  default: {NESTED}\n",
            id="parent-on-the-first-line",
        ),
        pytest.param(
            f"{LEGACY}credentials:\n",
            f"{LEGACY}credentials:\n  default: {VALUE}\n",
            f"{LEGACY}credentials:\n  default: {NESTED}\n",
            id="right-under-its-parent-the-line-above-kept",
        ),
        pytest.param(
            f"{LEGACY}credentials:\n  region: eu\n\n  zone: b\n",
            f"{LEGACY}credentials:\n  region: eu\n\n  zone: b\n  default: {VALUE}\n",
            f"{LEGACY}credentials:\n  region: eu\n\n  zone: b\n  default: {NESTED}\n",
            id="nearest-unindented-line-over-a-blank-one",
        ),
        pytest.param(
            f"{LEGACY}credentials:\n\tregion: eu\n",
            f"{LEGACY}credentials:\n\tregion: eu\n\tdefault: {VALUE}\n",
            f"{LEGACY}credentials:\n\tregion: eu\n\tdefault: {NESTED}\n",
            id="tab-indented",
        ),
        pytest.param(
            "credentials:\n  region: eu\nDone.\n",
            f"credentials:\n  region: eu\n  default: {VALUE}\nDone now.\n",
            f"credentials:\n  region: eu\n  default: {NESTED}\nDone now.\n",
            id="followed-by-a-changed-top-level-line",
        ),
        pytest.param(
            "", f"  pushed {GITHUB}\nDone.", f"  pushed {MARKED}\nDone.", id="no-parent-token"
        ),
        pytest.param(
            "", f"  default: {VALUE}\nDone.", f"  default: {VALUE}\nDone.", id="no-parent"
        ),
        pytest.param(
            "[secrets]\nregion = 'eu'\n",
            f"[secrets]\nregion = 'eu'\n{PROD}\n",
            f"[secrets]\nregion = 'eu'\n{PROD_NESTED}\n",
            id="toml-table-on-the-first-line",
        ),
        pytest.param(
            f"{LEGACY}[secrets]\nregion = 'eu'\n\n  # the production one\n",
            f"{LEGACY}[secrets]\nregion = 'eu'\n\n  # the production one\n{PROD}\n",
            f"{LEGACY}[secrets]\nregion = 'eu'\n\n  # the production one\n{PROD_NESTED}\n",
            id="toml-over-keys-blank-lines-and-comments",
        ),
        pytest.param(
            "[secrets]\nplain words here\n",
            f"[secrets]\nplain words here\n{PROD}\n",
            f"[secrets]\nplain words here\n{PROD}\n",
            id="toml-key-under-plain-text-has-no-table",
        ),
        pytest.param(
            f"{LEGACY}[secrets]\n",
            f"{LEGACY}[secrets]\n{PROD}\n",
            f"{LEGACY}[secrets]\n{PROD_NESTED}\n",
            id="toml-key-right-under-its-table",
        ),
        pytest.param(
            f"[deploy]\ntoken = {GITHUB}\n",
            f"[deploy]\ntoken = {GITHUB}\nnote: pushed today\n",
            f"[deploy]\ntoken = {GITHUB}\nnote: pushed today\n",
            id="plain-line-in-a-table-leaves-the-old-keys",
        ),
        pytest.param(
            "[secrets]\n[old]\n",
            f"[secrets]\n{PROD}\n[other]\n",
            f"[secrets]\n{PROD_NESTED}\n[other]\n",
            id="toml-key-above-a-changed-table-keeps-its-own",
        ),
        pytest.param(
            "",
            f'token = "{GITHUB}"\n[tools]',
            f'token = "{MARKED}"\n[tools]',
            id="first-line-token",
        ),
        pytest.param("", f"{PROD}\n[tools]", f"{PROD}\n[tools]", id="first-line-key-no-table"),
        pytest.param(
            f"{PROD}\n[secrets]\n",
            f"{PROD}\n[secrets]\n{PROD}",
            f"{PROD}\n[secrets]\n{PROD_NESTED}",
            id="same-key-line-above-the-table",
        ),
        pytest.param(
            f"{PROD}\n[secrets]\n",
            f"{PROD}\n[secrets]\n{PROD}\n",
            f"{PROD}\n[secrets]\n{PROD_NESTED}\n",
            id="same-key-line-above-the-table-newline",
        ),
        pytest.param(
            "\n\n",
            f"\n  default: {VALUE}\ns {GITHUB}\n  default: {VALUE}\n",
            f"\n  default: {VALUE}\ns {MARKED}\n  default: {VALUE}\n",
            id="blank-first-line-nothing-repeated",
        ),
    ],
)
def test_a_change_is_redacted_with_the_lines_up_to_its_parent(
    old: str, new: str, expected: str
) -> None:
    assert redact_changes(old, new) == expected


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
