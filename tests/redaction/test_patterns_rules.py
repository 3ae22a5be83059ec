"""The rules of one secret format (``Pattern``), each pinned with an exact result.

What a row of the pattern table means by default, which part of a match is the secret,
that a match continuing a word or failing its check is skipped without hiding the matches
after it, and what counts as a Basic credential (strict base64 of printable ``user:pass``).
"""

from __future__ import annotations

import base64
import re

import pytest

from workmem.redact import redact
from workmem.redact.patterns import PATTERNS, Pattern, _basic_credential

GITHUB = "ghp_iS2G8NPRVdD53X83RZJzzzzgEOzdmenCkhvM"


def test_a_pattern_keeps_what_it_was_given() -> None:
    def check(value: str) -> bool:
        return value != "no"

    pattern = Pattern(
        "demo", r"k=(\w+)", ("k=",), group=1, flags=re.I, word_start=True, generic=True, check=check
    )
    assert pattern.kind == "demo"
    assert pattern.source == r"k=(\w+)"
    assert pattern.triggers == ("k=",)
    assert pattern.group == 1
    assert pattern.flags == re.I
    assert pattern.word_start is True
    assert pattern.generic is True
    assert pattern.check is check
    assert pattern.regex.pattern == r"k=(\w+)" and pattern.regex.flags & re.I
    assert list(pattern.spans("K=yes k=no xk=skip k=ok")) == [(2, 5), (21, 23)]


def test_a_pattern_by_default_is_the_whole_match_anywhere_case_sensitive() -> None:
    pattern = Pattern("demo", r"abc(d)", ("abc",))
    assert (pattern.group, pattern.flags, pattern.word_start, pattern.generic) == (
        0,
        0,
        False,
        False,
    )
    assert pattern.check is None
    assert list(pattern.spans("xabcd ABCD abcd")) == [(1, 5), (11, 15)]
    assert pattern.regex is pattern.regex, "compiled once, on first use"


def test_an_empty_secret_group_is_skipped_and_later_matches_still_count() -> None:
    pattern = Pattern("demo", r"key=(\w*)", ("key=",), group=1)
    assert list(pattern.spans("key= key=abc key= key=d")) == [(9, 12), (22, 23)]


def test_the_first_group_that_took_part_is_the_secret() -> None:
    pattern = Pattern("demo", r"a=(\w+)|b=(\w+)", ("a=", "b="), group=-1)
    assert list(pattern.spans("b=xy a=z")) == [(2, 4), (7, 8)]


def test_a_match_that_continues_a_word_does_not_hide_the_next_one() -> None:
    text = f"x{GITHUB} then {GITHUB}"
    assert redact(text) == (f"x{GITHUB} then [REDACTED:github-token]", 1)


def test_a_failed_check_does_not_hide_the_next_match() -> None:
    plain = base64.b64encode(b"helloworld").decode().rstrip("=")
    cred = base64.b64encode(b"user:pass").decode()
    text = f"Basic {plain} then Basic {cred}"
    assert redact(text) == (f"Basic {plain} then Basic [REDACTED:basic-auth]", 1)


@pytest.mark.parametrize(
    "plain", [b"user:pass", b"user:pw", b"us:pass1", b"ab:cdef", b"a:b", b"user:p\xc3\xa4ss"]
)
def test_basic_credentials_decode_with_or_without_their_padding(plain: bytes) -> None:
    encoded = base64.b64encode(plain).decode()
    assert _basic_credential(encoded)
    assert _basic_credential(encoded.rstrip("="))


@pytest.mark.parametrize(
    "value",
    [
        base64.b64encode(b"helloworld").decode(),  # printable, but no user:pass
        base64.b64encode(b"helloworld").decode().rstrip("="),
        base64.b64encode(b"a:\x00bc").decode(),  # a colon, but not printable
        base64.b64encode(b"\xff\xfe:ab").decode(),  # not UTF-8
        base64.b64encode(b"us:pass1").decode() + "=",  # more padding than base64 allows
        base64.b64encode(b"user:pw").decode().rstrip("=") + "===",
        "configuration",  # a plain word after "basic"
    ],
)
def test_what_is_not_a_basic_credential(value: str) -> None:
    assert not _basic_credential(value)


def test_basic_auth_is_redacted_with_the_words_around_it_kept() -> None:
    cred = base64.b64encode(b"us:pass1").decode().rstrip("=")
    assert redact(f"sent Basic {cred} twice") == ("sent Basic [REDACTED:basic-auth] twice", 1)
    assert redact("a basic configuration file") == ("a basic configuration file", 0)


def test_every_row_of_the_table_names_its_kind_and_triggers() -> None:
    kinds = [pattern.kind for pattern in PATTERNS]
    assert len(kinds) == len(set(kinds)), "one row per kind"
    for pattern in PATTERNS:
        assert pattern.triggers and all(t == t.lower() for t in pattern.triggers), pattern.kind
