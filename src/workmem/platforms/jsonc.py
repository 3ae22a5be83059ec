"""Agents' JSON settings edited as text: every byte workmem did not add stays where it was.

An agent's ``settings.json`` is the user's file. Gemini CLI reads it as JSON with comments
(JSONC); people keep one-line arrays, their own indentation and comments in it, and commit
it. Re-serialising the whole file would reformat all of that, and ``setup --uninstall``
could never give the original back. So the file is parsed here with the position of every
value, and an edit is a splice: adding inserts one piece of text after the last element of
a container; removing an element deletes the span from the end of the element before it to
its own end, which is exactly the piece an addition inserted. Adding and then removing
leaves the file byte for byte as it was, whatever its layout; a container that removal
empties is removed with it (no ``"hooks": {}`` is left behind).

Comments (``//`` and ``/* */``) and trailing commas are read; nothing here writes either.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import FormatError

#: Deeper than any settings file; a guard against a file built to exhaust the stack.
MAX_DEPTH = 200
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}


@dataclass
class Node:
    """One value and where it stands in the text (``end`` is one past its last character)."""

    kind: str  # object | array | scalar
    start: int
    end: int
    value: Any = None  # a scalar's value
    keys: list[str] = field(default_factory=list)  # object: member keys, in order
    key_starts: list[int] = field(default_factory=list)  # object: where each key's quote is
    items: list[Node] = field(default_factory=list)  # object: member values; array: elements

    def get(self, key: str) -> Node | None:
        """The value of ``key`` in an object (the last one, as JSON.parse keeps)."""
        for index in range(len(self.keys) - 1, -1, -1):
            if self.keys[index] == key:
                return self.items[index]
        return None

    def index_of(self, key: str) -> int:
        return len(self.keys) - 1 - self.keys[::-1].index(key)

    def starts(self) -> list[int]:
        """Where each element (an object's member: its key) begins."""
        return self.key_starts if self.kind == "object" else [n.start for n in self.items]

    def to_python(self) -> Any:
        if self.kind == "object":
            return {k: v.to_python() for k, v in zip(self.keys, self.items, strict=True)}
        if self.kind == "array":
            return [n.to_python() for n in self.items]
        return self.value


class _Parser:
    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.pos = 0

    def fail(self, what: str) -> FormatError:
        line = self.text.count("\n", 0, self.pos) + 1
        return FormatError(
            f"not valid JSON ({what}); fix it first, nothing was written", path=self.path, line=line
        )

    def skip(self) -> None:
        """Whitespace and comments."""
        text, n = self.text, len(self.text)
        while self.pos < n:
            char = text[self.pos]
            if char in " \t\r\n\ufeff":
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end + 1
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("a comment is never closed")
                self.pos = end + 2
            else:
                return

    def value(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail("nested too deeply")
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("the text ends where a value should be")
        char = self.text[self.pos]
        if char == "{":
            return self.container("object", "}", depth)
        if char == "[":
            return self.container("array", "]", depth)
        start = self.pos
        if char == '"':
            return Node("scalar", start, self.string_end(), self.decoded(start))
        match = _NUMBER.match(self.text, self.pos)
        if match:
            self.pos = match.end()
            return Node("scalar", start, self.pos, json.loads(match.group(0)))
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return Node("scalar", start, self.pos, literal)
        raise self.fail(f"unexpected {char!r}")

    def string_end(self) -> int:
        text, pos = self.text, self.pos + 1
        while pos < len(text):
            char = text[pos]
            if char == "\\":
                pos += 2
            elif char == '"':
                self.pos = pos + 1
                return self.pos
            elif char == "\n":
                break
            else:
                pos += 1
        raise self.fail("a string is never closed")

    def decoded(self, start: int) -> str:
        try:
            value = json.loads(self.text[start : self.pos])
        except ValueError:
            raise self.fail("a string holds a bad escape") from None
        return str(value)

    def container(self, kind: str, close: str, depth: int) -> Node:
        node = Node(kind, self.pos, self.pos)
        self.pos += 1
        while True:
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos] == close:
                self.pos += 1
                node.end = self.pos
                return node
            if node.items:
                if self.pos >= len(self.text) or self.text[self.pos] != ",":
                    raise self.fail(f"expected ',' or '{close}'")
                self.pos += 1
                self.skip()
                if self.pos < len(self.text) and self.text[self.pos] == close:
                    continue  # a trailing comma, as JSONC allows
            if kind == "object":
                if self.pos >= len(self.text) or self.text[self.pos] != '"':
                    raise self.fail("expected a key in quotes")
                key_start = self.pos
                self.string_end()
                node.keys.append(self.decoded(key_start))
                node.key_starts.append(key_start)
                self.skip()
                if self.pos >= len(self.text) or self.text[self.pos] != ":":
                    raise self.fail("expected ':' after a key")
                self.pos += 1
            node.items.append(self.value(depth + 1))


def parse(text: str, path: str) -> Node:
    """The top-level value of ``text`` with positions; ``FormatError`` (path, line) if broken.
    A blank text is an empty object."""
    if not text.strip():
        return Node("object", 0, 0)
    parser = _Parser(text, path)
    node = parser.value(0)
    parser.skip()
    if parser.pos != len(text):
        raise parser.fail("more text after the value")
    return node


def load_object(text: str | None, path: str) -> dict[str, Any]:
    """The object a settings file holds (``{}`` when missing or blank)."""
    if text is None or not text.strip():
        return {}
    value = parse(text, path).to_python()
    if not isinstance(value, dict):
        raise FormatError("expected a JSON object; nothing was written", path=path)
    return value


# ---- layout ---------------------------------------------------------------------------------
def indent_unit(text: str) -> int | str:
    """The file's indentation step (2 when it has none to tell)."""
    match = re.search(r"\n([ \t]+)\S", text)
    if match is None:
        return 2
    lead = match.group(1)
    return "\t" if lead.startswith("\t") else len(lead)


def _line_indent(text: str, pos: int) -> str:
    """The leading whitespace of the line ``pos`` is on."""
    start = text.rfind("\n", 0, pos) + 1
    lead = re.match(r"[ \t]*", text[start:pos])
    return lead.group(0) if lead else ""


def _unit_text(unit: int | str) -> str:
    return unit if isinstance(unit, str) else " " * unit


def _render(value: Any, unit: int | str, base: str, multiline: bool) -> str:
    if not multiline:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    lines = json.dumps(value, ensure_ascii=False, indent=unit).split("\n")
    return "\n".join([lines[0], *(base + line for line in lines[1:])])


def _piece(text: str, node: Node, element: str, value: Any) -> tuple[int, str]:
    """Where to insert a new last element of ``node`` and the text to insert."""
    unit = indent_unit(text)
    if node.items:
        first = node.starts()[0]
        multiline = "\n" in text[node.start : first]
        base = _line_indent(text, first)
        at = node.items[-1].end
        gap = ("\n" + base) if multiline else " "
        return at, "," + gap + element + _render(value, unit, base, multiline)
    multiline = "\n" in text
    outer = _line_indent(text, node.start)
    base = outer + _unit_text(unit)
    if not multiline:
        return node.start + 1, element + _render(value, unit, base, False)
    body = element + _render(value, unit, base, True)
    return node.start + 1, "\n" + base + body + "\n" + outer


def add_member(text: str, node: Node, key: str, value: Any) -> str:
    """``text`` with ``"key": value`` added as the last member of the object ``node``."""
    at, piece = _piece(text, node, json.dumps(key, ensure_ascii=False) + ": ", value)
    return text[:at] + piece + text[at:]


def add_item(text: str, node: Node, value: Any) -> str:
    """``text`` with ``value`` added as the last element of the array ``node``."""
    at, piece = _piece(text, node, "", value)
    return text[:at] + piece + text[at:]


def remove_at(text: str, node: Node, index: int) -> str:
    """``text`` without element ``index`` of ``node`` (an object's member, key and value)."""
    starts = node.starts()
    if len(node.items) == 1:
        return text[: node.start + 1] + text[node.end - 1 :]
    if index > 0:
        return text[: node.items[index - 1].end] + text[node.items[index].end :]
    return text[: starts[0]] + text[starts[1] :]


def new_file(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def append_at(text: str | None, keys: list[str], item: Any, path: str) -> str:
    """``text`` with ``item`` added last to the array at ``keys``; each missing level (the
    array included) is made by one inserted member, so removing ``item`` again undoes it."""
    if text is None or not text.strip():
        nested: Any = [item]
        for key in reversed(keys):
            nested = {key: nested}
        return new_file(nested)
    node = parse(text, path)
    for depth, key in enumerate(keys):
        where = ".".join(keys[:depth]) or "the top level"
        if node.kind != "object":
            raise FormatError(f"{where} is not an object; nothing was written", path=path)
        child = node.get(key)
        if child is None:
            rest: Any = [item]
            for later in reversed(keys[depth + 1 :]):
                rest = {later: rest}
            return add_member(text, node, key, rest)
        node = child
    if node.kind != "array":
        raise FormatError(f"{'.'.join(keys)} is not a list; nothing was written", path=path)
    return add_item(text, node, item)


__all__ = [
    "Node",
    "add_item",
    "add_member",
    "append_at",
    "indent_unit",
    "load_object",
    "new_file",
    "parse",
    "remove_at",
]
