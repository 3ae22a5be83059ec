"""Decoding memory files: non-UTF-8 and huge files get clear errors."""

from __future__ import annotations

import pytest

from workmem.errors import FormatError
from workmem.files import text as textmod


def test_non_utf8_reports_line_and_byte() -> None:
    data = "line one\nline two é\n".encode("latin-1")
    with pytest.raises(FormatError) as info:
        textmod.decode(data, "memory/index.md")
    assert info.value.line == 2
    assert "not valid UTF-8" in str(info.value)


def test_huge_file_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textmod, "MAX_FILE_BYTES", 100)
    with pytest.raises(FormatError, match="limit"):
        textmod.decode(b"x" * 101, "big.md")


def test_lone_cr_line_endings_are_normalised() -> None:
    text, style = textmod.decode(b"a\rb\r")
    assert text == "a\nb\n"
    assert style.newline == "\n"
