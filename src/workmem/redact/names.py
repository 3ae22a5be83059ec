"""Which names hold a secret, and which values are not one.

A name is cut into its words (``DB_PASSWORD``, ``clientSecret``, ``X-Api-Key``) and
judged by its last word, because that word says what the value is: ``api_key`` holds a
key, ``api_key_env`` holds the name of a variable, ``max_tokens`` a count, ``token_type``
a type. A value is left alone when it only points at a secret (``$VAR``, ``${{ secrets.X
}}``, ``<your key>``, an environment variable's name, a path) or is plainly not one (a
small number, ``true``, ``required``, a redaction already made).
"""

from __future__ import annotations

import re

#: A name whose last word is, or ends in, one of these holds a secret (DB_PASSWORD,
#: clientSecret, csrftoken).
SECRET_WORDS: tuple[str, ...] = (
    "password",
    "passwd",
    "passphrase",
    "passcode",
    "secret",
    "token",
    "credential",
    "credentials",
)
#: Short words that count only as a whole word, so ``bypass`` and ``compass`` do not.
SHORT_WORDS: tuple[str, ...] = ("pass", "pwd", "pw", "creds")
#: ``<word> key`` (or ``<word>key``) names a secret key; a bare ``key`` does not.
KEY_QUALIFIERS: tuple[str, ...] = (
    "api",
    "access",
    "secret",
    "private",
    "auth",
    "account",
    "master",
    "signing",
    "encryption",
    "shared",
    "subscription",
)
#: Words after the secret word that still name the secret itself (password_hash).
VALUE_SUFFIXES: tuple[str, ...] = ("value", "hash", "b64", "base64", "raw", "plaintext")
#: Plural names that head a block of secrets (``secrets:`` then one secret per line).
BLOCK_WORDS: tuple[str, ...] = ("secrets", "passwords", "tokens")
#: Inside such a block, keys that name or locate something rather than hold it.
NAMING_KEYS: tuple[str, ...] = (
    "name",
    "file",
    "path",
    "env",
    "type",
    "kind",
    "description",
    "url",
    "host",
    "port",
    "user",
    "username",
    "email",
    "region",
    "id",
    "provider",
    "endpoint",
)

_REGEXES: dict[str, re.Pattern[str]] = {}


def compiled(source: str, flags: int = 0) -> re.Pattern[str]:
    """``source`` compiled on first use: a write whose text has no trigger never needs it.

    Hooks pay for every module-level ``re.compile`` of everything they import.
    """
    regex = _REGEXES.get(source)
    if regex is None:
        regex = _REGEXES[source] = re.compile(source, flags)
    return regex


_WORDS = r"[A-Z]+[0-9]*(?![a-z])|[A-Z]?[a-z]+[0-9]*|[0-9]+"


def name_words(name: str) -> list[str]:
    """``aws_secret_access_key`` -> aws, secret, access, key; ``APIKey`` -> api, key."""
    return [word.lower() for word in compiled(_WORDS).findall(name)]


def _is_tail(word: str) -> bool:
    """A word after the secret word that does not change what it names: 2, v2, hash."""
    return word.isdigit() or word in VALUE_SUFFIXES or (word[:1] == "v" and word[1:].isdigit())


def is_secret_name(name: str) -> bool:
    """Does a value stored under ``name`` hold a secret? Judged by the name's last word."""
    words = name_words(name)
    while words and _is_tail(words[-1]):
        words.pop()
    if not words:
        return False
    last = words[-1].rstrip("0123456789") or words[-1]
    if last in SHORT_WORDS or last.endswith(SECRET_WORDS):
        return True
    if last == "key":
        return len(words) > 1 and words[-2] in KEY_QUALIFIERS
    return last.endswith("key") and last[:-3] in KEY_QUALIFIERS


def heads_secret_block(name: str) -> bool:
    """A key whose nested values are secrets: ``credentials:``, ``secrets:``, ``[passwords]``."""
    words = name_words(name)
    return bool(words) and (words[-1] in BLOCK_WORDS or is_secret_name(name))


def is_naming_key(name: str) -> bool:
    words = name_words(name)
    return bool(words) and words[-1] in NAMING_KEYS


#: Words that start a sentence about a secret rather than the secret ("Password: must be
#: 12 characters", "token: see the vault").
def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


PROSE_WORDS = _word_set(
    """a an the is are was were be been being not no must should will would can could may
    might need needs needed see use used using set unset stored saved kept required optional
    changed rotated reset missing invalid expired empty same different unknown hidden masked
    redacted removed provided given generated managed handled in on at from to via with by
    for of and or but it this that these those we you they our my your its their here there
    now still also only just too very already never always revoked leaked compromised
    disabled deleted invalidated wrong incorrect weak strong long short fine ok okay
    good bad broken working what where which how why when who"""
)
_PLACEHOLDERS = _word_set(
    """none null nil true false yes no on off required optional empty unset undefined
    changeme placeholder example redacted hidden masked secret password passwd token key
    your_key your-key todo tbd"""
)
_ENV_NAME = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
_REFERENCE = (
    r"(?:os\.)?(?:environ|getenv|env|process\.env|secrets|vars|vault|keyring|input|getpass)"
    r"\s*[.\[(]"
)
_FILLER = frozenset("x*.-_ •")
_SYMBOLS = frozenset("!@#$%^&*+=?~_/\\|:;.,")


def is_placeholder(value: str) -> bool:
    """A value that is not itself a secret: it points at one, or it is plainly a setting."""
    value = value.strip()
    low = value.lower()
    return (
        len(value) < 4
        or value.startswith(("$", "%", "<", "{{", "[REDACTED", "***", "…", "...", "/", "~/"))
        or value.startswith(("./", "../"))
        or low in _PLACEHOLDERS
        or set(low) <= _FILLER
        or (value.isdigit() and len(value) < 6)
        or bool(compiled(_ENV_NAME).fullmatch(value))
        or bool(compiled(_REFERENCE).match(low))
    )


def looks_secret(value: str) -> bool:
    """Mixed letters and digits or symbols: how a password looks, unlike an English word."""
    has_alpha = any(c.isalpha() for c in value)
    has_other = any(c.isdigit() or c in _SYMBOLS for c in value)
    mixed_case = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    return len(value) >= 6 and ((has_alpha and has_other) or mixed_case)


__all__ = [
    "BLOCK_WORDS",
    "KEY_QUALIFIERS",
    "NAMING_KEYS",
    "PROSE_WORDS",
    "SECRET_WORDS",
    "SHORT_WORDS",
    "VALUE_SUFFIXES",
    "compiled",
    "heads_secret_block",
    "is_naming_key",
    "is_placeholder",
    "is_secret_name",
    "looks_secret",
    "name_words",
]
