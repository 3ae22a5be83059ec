"""Every word that makes a name secret, and every word that keeps a value, is tested alone.

The tables below are this test's own: each must list exactly the words the redactor has,
and each word has a case that fails without it. So deleting a word from the redactor (or
adding one without a case) fails here.
"""

from __future__ import annotations

import pytest

from workmem.redact import redact
from workmem.redact.names import (
    BLOCK_WORDS,
    KEY_QUALIFIERS,
    NAMING_KEYS,
    SECRET_WORDS,
    SHORT_WORDS,
    VALUE_SUFFIXES,
    is_secret_name,
)

VALUE = "Zq8xN2vL5p"

#: word -> a name built on it whose value must go.
SECRET_WORD_NAMES = {
    "password": "smtp_password",
    "passwd": "ldapPasswd",
    "passphrase": "gpg_passphrase",
    "passcode": "VOICEMAIL_PASSCODE",
    "secret": "webhookSecret",
    "token": "refresh_token",
    "credential": "service_credential",
    "credentials": "GOOGLE_CREDENTIALS",
}
SHORT_WORD_NAMES = {"pass": "DB_PASS", "pwd": "db_pwd", "pw": "ADMIN_PW", "creds": "ci-creds"}
#: A short word counts only as a whole word: these hold no secret.
SHORT_WORD_LOOKALIKES = ["bypass", "compass", "passport", "pwdx"]


def test_the_word_tables_match_the_redactor() -> None:
    assert sorted(SECRET_WORD_NAMES) == sorted(SECRET_WORDS)
    assert sorted(SHORT_WORD_NAMES) == sorted(SHORT_WORDS)


@pytest.mark.parametrize("word", sorted(SECRET_WORD_NAMES))
def test_a_name_ending_in_a_secret_word_holds_a_secret(word: str) -> None:
    name = SECRET_WORD_NAMES[word]
    assert redact(f"{name}={VALUE} ok") == (f"{name}=[REDACTED:assignment] ok", 1)


@pytest.mark.parametrize("word", sorted(SHORT_WORD_NAMES))
def test_a_short_secret_word_counts_as_a_whole_word(word: str) -> None:
    name = SHORT_WORD_NAMES[word]
    assert redact(f"{name}={VALUE} ok") == (f"{name}=[REDACTED:assignment] ok", 1)


@pytest.mark.parametrize("name", SHORT_WORD_LOOKALIKES)
def test_words_that_only_contain_a_short_word_hold_no_secret(name: str) -> None:
    assert redact(f"{name}={VALUE} ok") == (f"{name}={VALUE} ok", 0)


#: This test's own copies of the redactor's word lists (the "complete" tests compare).
QUALIFIERS = ["api", "access", "secret", "private", "auth", "account", "master", "signing"]
QUALIFIERS += ["encryption", "shared", "subscription"]
SUFFIXES = ["value", "hash", "b64", "base64", "raw", "plaintext"]
BLOCKS = ["passwords", "secrets", "tokens"]
NAMING = ["name", "file", "path", "env", "type", "kind", "description", "url", "host", "port"]
NAMING += ["user", "username", "email", "region", "id", "provider", "endpoint"]


@pytest.mark.parametrize("qualifier", QUALIFIERS)
def test_a_qualified_key_holds_a_secret_in_both_spellings(qualifier: str) -> None:
    for name in (f"{qualifier}_key", f"{qualifier.upper()}KEY", f"my-{qualifier}-key"):
        assert redact(f"{name}: {VALUE}") == (f"{name}: [REDACTED:assignment]", 1), name


def test_the_qualifier_table_is_complete() -> None:
    assert sorted(KEY_QUALIFIERS) == sorted(QUALIFIERS)


@pytest.mark.parametrize("name", ["key", "sort_key", "primary_key", "public_key", "monkey"])
def test_a_bare_or_ordinary_key_holds_no_secret(name: str) -> None:
    assert redact(f"{name}: {VALUE}") == (f"{name}: {VALUE}", 0)


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_word_after_the_secret_that_still_names_it(suffix: str) -> None:
    name = f"password_{suffix}"
    assert redact(f"{name}={VALUE}") == (f"{name}=[REDACTED:assignment]", 1)


def test_the_suffix_table_is_complete() -> None:
    assert sorted(VALUE_SUFFIXES) == sorted(SUFFIXES)


@pytest.mark.parametrize(
    "name",
    ["password_hint", "api_key_env", "token_type", "secret_name", "max_tokens", "tokenizer"],
)
def test_a_name_that_names_something_else_holds_no_secret(name: str) -> None:
    assert not is_secret_name(name)
    assert redact(f"{name}={VALUE}") == (f"{name}={VALUE}", 0)


@pytest.mark.parametrize("name", ["password2", "token_1", "API_KEY_V2"])
def test_a_trailing_number_does_not_hide_the_secret_word(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize("word", BLOCKS)
def test_a_plural_block_name_covers_the_values_under_it(word: str) -> None:
    text = f"{word}:\n  github: {VALUE}\nnext: line"
    assert redact(text) == (f"{word}:\n  github: [REDACTED:nested-secret]\nnext: line", 1)


def test_the_block_table_is_complete() -> None:
    assert sorted(BLOCK_WORDS) == BLOCKS


@pytest.mark.parametrize("key", NAMING)
def test_inside_a_secret_block_a_naming_key_keeps_its_value(key: str) -> None:
    text = f"credentials:\n  {key}: {VALUE}\n  default: Yy7wM1uK4o"
    assert redact(text) == (
        f"credentials:\n  {key}: {VALUE}\n  default: [REDACTED:nested-secret]",
        1,
    )


def test_the_naming_table_is_complete() -> None:
    expected = "name file path env type kind description url host port user username email"
    assert sorted(NAMING_KEYS) == sorted(
        [*expected.split(), "region", "id", "provider", "endpoint"]
    )


def test_a_toml_table_named_for_secrets_covers_its_keys_up_to_the_next_table() -> None:
    text = '[tool.credentials]\nuser = "svc"\nvalue = "A1b2C3d4E5"\n\n[other]\nvalue = "keep1234"'
    assert redact(text) == (
        '[tool.credentials]\nuser = "svc"\nvalue = "[REDACTED:nested-secret]"\n\n'
        '[other]\nvalue = "keep1234"',
        1,
    )


def test_a_nested_block_covers_deeper_values_and_ends_at_its_indent() -> None:
    text = "auth:\n  credentials:\n    prod:\n      default: A1b2C3d4E5\n  mode: keep-me\n"
    assert redact(text) == (
        "auth:\n  credentials:\n    prod:\n      default: [REDACTED:nested-secret]\n"
        "  mode: keep-me\n",
        1,
    )
