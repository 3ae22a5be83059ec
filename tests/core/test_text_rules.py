"""Decoding and encoding memory files, and reading JSON: the exact messages and styles.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``files/text.py`` or ``files/jsondoc.py`` that a small change used to break unnoticed.
"""

from __future__ import annotations

import pytest

from workmem.errors import FormatError
from workmem.files import text as textmod
from workmem.files.jsondoc import parse_json, parse_json_object
from workmem.files.text import BOM, PLAIN, TextStyle, decode, encode


def test_the_size_limit_is_64_mib_and_the_message_gives_both_sizes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert textmod.MAX_FILE_BYTES == 64 * 1024 * 1024
    monkeypatch.setattr(textmod, "MAX_FILE_BYTES", 1000)
    assert decode(b"x" * 1000)[0] == "x" * 1000
    with pytest.raises(FormatError) as info:
        decode(b"x" * 1001, "memory/big.md")
    assert str(info.value) == (
        "memory/big.md: file is 1,001 bytes, over the 1,000-byte limit for memory files; "
        "nothing was written"
    )


def test_non_utf8_names_the_byte_and_the_line() -> None:
    with pytest.raises(FormatError) as info:
        decode(b"ok\nok\nbad \xff here\n", "f.md")
    assert str(info.value) == (
        "f.md:3: not valid UTF-8 (byte 10); convert the file to UTF-8, nothing was written"
    )
    with pytest.raises(FormatError) as first:
        decode(b"\xff")
    assert first.value.line == 1
    assert first.value.path == "<memory file>"


def test_styles_are_detected() -> None:
    assert decode(b"a\nb\n") == ("a\nb\n", TextStyle("\n", False))
    assert decode(b"a\r\nb\r\n") == ("a\nb\n", TextStyle("\r\n", False))
    assert decode(b"\xef\xbb\xbfa\n") == ("a\n", TextStyle("\n", True))
    assert decode(b"a\r\nb\rc\n") == ("a\nb\nc\n", TextStyle("\r\n", False))
    assert decode(b"") == ("", PLAIN)
    assert decode("x\ufeff".encode()) == ("x\ufeff", PLAIN)  # only a leading BOM is one


def test_encoding_puts_the_style_back() -> None:
    assert encode("a\nb\n") == b"a\nb\n"
    assert encode("a\nb\n", TextStyle("\r\n", True)) == b"\xef\xbb\xbfa\r\nb\r\n"
    assert encode("é", TextStyle("\n", False)) == "é".encode()
    assert BOM == "\ufeff"
    for raw in (b"a\r\nb", b"\xef\xbb\xbfx\ny\n", b"plain"):
        text, style = decode(raw)
        assert encode(text, style) == raw


def test_json_errors_say_what_and_where() -> None:
    with pytest.raises(FormatError) as info:
        parse_json('{"a": }', "x.json")
    assert str(info.value) == (
        "x.json:1: not valid JSON (Expecting value); fix it by hand, nothing was written"
    )
    with pytest.raises(FormatError) as other:
        parse_json_object("[1]", "x.json")
    assert str(other.value) == "x.json: expected a JSON object; nothing was written"
    with pytest.raises(FormatError) as deep:
        parse_json("[" * 100_000 + "]" * 100_000, "deep.json", fix="fix it first")
    assert str(deep.value) == (
        "deep.json: JSON nested too deeply to read; fix it first, nothing was written"
    )


def test_a_blank_object_file_passes_the_advice_on() -> None:
    with pytest.raises(FormatError, match=r"^x\.json:1: not valid JSON .*; mend it, nothing"):
        parse_json_object("nope", "x.json", fix="mend it")
