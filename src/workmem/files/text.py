"""Decoding memory files tolerantly and encoding them back the way they came.

People edit these files on Windows, in Obsidian, in editors that add a BOM. We read any of
that, work on plain ``\\n`` text, and write back with the file's own newline style and BOM,
so a save by workmem never shows up in a diff as a whole-file change.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import FormatError

BOM = "\ufeff"
#: Memory files are small; anything past this is almost certainly not one of ours.
MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class TextStyle:
    """How a file was written (newlines, BOM), so a save puts it back the same way."""

    newline: str = "\n"
    bom: bool = False


PLAIN = TextStyle()


def decode(data: bytes, path: str = "<memory file>") -> tuple[str, TextStyle]:
    """Bytes to ``\\n``-text plus the style needed to write it back unchanged."""
    if len(data) > MAX_FILE_BYTES:
        raise FormatError(
            f"file is {len(data):,} bytes, over the {MAX_FILE_BYTES:,}-byte limit for memory "
            "files; nothing was written",
            path=path,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FormatError(
            f"not valid UTF-8 (byte {exc.start}); convert the file to UTF-8, nothing was written",
            path=path,
            line=line,
        ) from None
    bom = text.startswith(BOM)
    if bom:
        text = text[1:]
    newline = "\r\n" if "\r\n" in text else "\n"
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, TextStyle(newline=newline, bom=bom)


def encode(text: str, style: TextStyle = PLAIN) -> bytes:
    body = text.replace("\n", style.newline) if style.newline != "\n" else text
    return ((BOM if style.bom else "") + body).encode("utf-8")
