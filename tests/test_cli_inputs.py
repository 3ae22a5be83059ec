"""Text options: '-' is stdin, '@path' a file (decoded like a memory file), else the text."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from workmem.cli.inputs import read_file, text_arg
from workmem.errors import FormatError, UsageError


def test_text_forms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    note = tmp_path / "note.md"
    note.write_bytes("\ufeffline one\r\nline two\r\n".encode())
    assert text_arg(f"@{note}") == "line one\nline two\n"
    assert text_arg("plain words") == "plain words"
    assert text_arg("@") == "@"
    assert text_arg(None) is None
    monkeypatch.setattr(sys, "stdin", io.StringIO("from a pipe"))
    assert text_arg("-") == "from a pipe"


def test_unreadable_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot read"):
        read_file(str(tmp_path / "missing.md"))
    latin = tmp_path / "latin.md"
    latin.write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(FormatError, match="UTF-8"):
        text_arg(f"@{latin}")
