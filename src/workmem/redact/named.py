"""Secrets known by the name they are given: settings, flags, blocks and sentences.

A token format can be recognised anywhere; a password cannot. What gives it away is the
name in front of it, in whatever syntax the text uses: ``DB_PASS=…`` in a shell or an
``.env`` file, ``"pass": "…"`` in JSON, ``password = "…"`` in TOML, ``aws_secret_access_key:
…`` at any depth of YAML, ``--token …`` on a command line, every value of a
``credentials:`` block or a ``[secrets]`` table, and "my password is …" or "密碼是 …" in a
sentence. Each detector here yields the span of the value only, so the name and the words
around it stay readable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .names import (
    PROSE_WORDS,
    compiled,
    heads_secret_block,
    is_naming_key,
    is_placeholder,
    is_secret_name,
    looks_secret,
)

Span = tuple[int, int]
_NAME_TRIGGERS = ("pass", "pwd", "pw", "secret", "token", "cred", "key")

#: A value: quoted (JSON escapes kept whole, also JSON inside a JSON string), or a bare
#: run that ends at a space, a quote, a separator or a table's cell border. A backslash
#: only joins the value when it escapes something other than a newline, so a JSON
#: string's ``\n`` ends it.
_VALUE = (
    r"(?P<value>\"(?:[^\"\\\n]|\\.)*\"|\\\"(?:[^\"\\\n]|\\[^\"])*\\\"|'[^'\n]*'|`[^`\n]*`"
    r"|(?:\\[^\snrtu\"']|[^\s\"'`,;&|<>\\])+)"
)
_QUOTES = ('\\"', '"', "'", "`")
#: What ends a sentence after a value. A setting's value may itself end in ! or ? (a
#: password often does); a value said in a sentence ends before them.
_TRAILING = ".,;:)]}"
_SENTENCE_END = _TRAILING + "!?"
_PREFIX_REACH = 120
_LINE_START = r"[ \t]*(?:[-*][ \t]+)?(?:export[ \t]+|set[ \t]+|ENV[ \t]+)?"


def _unquote(text: str, start: int, end: int) -> tuple[int, int, bool]:
    """The span inside a quoted value, and whether it was quoted."""
    value = text[start:end]
    for quote in _QUOTES:
        if len(value) >= 2 * len(quote) and value.startswith(quote) and value.endswith(quote):
            return start + len(quote), end - len(quote), True
    return start, end, False


def _trim(text: str, start: int, end: int, trailing: str = _TRAILING) -> int:
    """The end of a bare value without the sentence's punctuation after it."""
    while end > start and text[end - 1] in trailing:
        end -= 1
    return end


class Assignment:
    """``name = value`` in any of the usual syntaxes, when the name holds a secret."""

    kind: str = "assignment"
    triggers: tuple[str, ...] = _NAME_TRIGGERS
    source = (
        r"(?<![\w./-])(?P<kq>\\\"|[\"'])?(?P<key>[A-Za-z_][\w.-]*)(?(kq)(?P=kq))"
        rf"(?P<gap>[ \t]*)(?P<sep>:=|=>|==|=|:)[ \t]*{_VALUE}"
    )

    def spans(self, text: str) -> Iterator[Span]:
        regex = compiled(self.source)
        position = 0
        while (match := regex.search(text, position)) is not None:
            if not is_secret_name(match.group("key")):
                # Its value may hold a setting of its own (``$env:DB_PASS = …``, JSON in
                # a JSON string): look again right after this name.
                position = match.end("key")
                continue
            position = match.end()
            start, end, quoted = _unquote(text, *match.span("value"))
            if not quoted:
                end = self._bare_end(text, match, start, end)
                if end <= start:
                    continue
                first = text[start:end].split(None, 1)[0]
                if first.lower() in PROSE_WORDS:
                    continue
            if not is_placeholder(text[start:end]):
                yield start, end

    @staticmethod
    def _bare_end(text: str, match: re.Match[str], start: int, end: int) -> int:
        """A bare value on a line of its own runs to the end of the line (``pass: a b c``).

        Only for ``name: value`` and ``name = value`` lines; ``NAME=value`` is shell,
        where a bare value ends at the first space.
        """
        spaced = match.group("sep") == ":" or bool(match.group("gap"))
        # Only a short prefix (indent, "- ", "export ") may stand before the name, so
        # the line's start is looked for that far back only (one long line, many names).
        reach = max(0, match.start() - _PREFIX_REACH)
        line_start = text.rfind("\n", reach, match.start()) + 1
        if not spaced or (line_start == 0 and reach > 0):
            return _trim(text, start, end)
        if not compiled(_LINE_START).fullmatch(text, line_start, match.start()):
            return _trim(text, start, end)
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        rest = text[start:line_end]
        for stop in (" #", "<br>", "\\n"):
            cut = rest.find(stop)
            if cut >= 0:
                rest = rest[:cut]
        return start + len(rest.rstrip())


class Flag:
    """``--password X``, ``--token=X``, ``--db-pass "X"`` on a command line."""

    kind: str = "cli-flag"
    triggers: tuple[str, ...] = _NAME_TRIGGERS
    source = (
        r"--(?P<flag>[A-Za-z][\w-]*)(?:=|[ \t]+)(?P<value>\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'"
        r"|[^\s\"'|<>`-][^\s\"'|<>`]*)"
    )

    def spans(self, text: str) -> Iterator[Span]:
        for match in compiled(self.source).finditer(text):
            if match.start() and text[match.start() - 1] not in " \t\n\"'`(":
                continue
            if not is_secret_name(match.group("flag")):
                continue
            start, end, _ = _unquote(text, *match.span("value"))
            if not is_placeholder(text[start:end]):
                yield start, end


_YAML_KEY = (
    r"(?P<indent>[ \t]*)(?:-[ \t]+)?[\"']?(?P<key>[\w.-]+)[\"']?[ \t]*:(?:[ \t]+(?P<rest>.*))?$"
)
_YAML_ITEM = r"(?P<indent>[ \t]*)-[ \t]+(?P<rest>.+)$"
_TOML_TABLE = r"[ \t]*\[\[?(?P<name>[^\[\]\n]+)\]\]?[ \t]*(?:#.*)?$"
_TOML_KEY = r"[ \t]*[\"']?(?P<key>[\w.-]+)[\"']?[ \t]*=[ \t]*(?P<rest>.*)$"


class Block:
    """Every value nested under ``credentials:`` / ``secrets:`` (YAML) or ``[credentials]``.

    The nested keys need not be secret-named themselves (``default: …`` under
    ``credentials:``); keys that only name or locate something (``name``, ``file``,
    ``region``) keep their values.
    """

    kind: str = "nested-secret"
    triggers: tuple[str, ...] = _NAME_TRIGGERS

    def spans(self, text: str) -> Iterator[Span]:
        if "\n" not in text:
            return  # a block is a key and the lines under it
        lines = text.split("\n")
        starts = [0]
        for line in lines[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        index = 0
        found: list[Span] = []
        while index < len(lines):
            index = self._block_at(lines, starts, index, found)
        yield from found

    def _block_at(self, lines: list[str], starts: list[int], index: int, out: list[Span]) -> int:
        line = lines[index]
        table = compiled(_TOML_TABLE).fullmatch(line)
        if table and heads_secret_block(table.group("name").split(".")[-1].strip("\"' ")):
            return self._toml_block(lines, starts, index + 1, out)
        head = compiled(_YAML_KEY).fullmatch(line)
        if head and heads_secret_block(head.group("key")):
            rest = (head.group("rest") or "").strip()
            if not rest or rest.startswith(("#", "|", ">")):
                return self._yaml_block(lines, starts, index, len(head.group("indent")), out)
        return index + 1

    @staticmethod
    def _yaml_block(
        lines: list[str], starts: list[int], index: int, depth: int, out: list[Span]
    ) -> int:
        head = compiled(_YAML_KEY).fullmatch(lines[index])
        literal = head is not None and (head.group("rest") or "").startswith(("|", ">"))
        first = last = -1
        index += 1
        while index < len(lines):
            line = lines[index]
            indent = len(line) - len(line.lstrip(" \t"))
            if line.strip() and indent <= depth:
                break
            if line.strip() and not line.lstrip().startswith("#"):
                if literal:  # the whole indented text is one value
                    first = first if first >= 0 else starts[index] + indent
                    last = starts[index] + len(line.rstrip())
                else:
                    _yaml_child(line, starts[index], out)
            index += 1
        if literal and first >= 0:
            out.append((first, last))
        return index

    @staticmethod
    def _toml_block(lines: list[str], starts: list[int], index: int, out: list[Span]) -> int:
        while index < len(lines) and not compiled(_TOML_TABLE).fullmatch(lines[index]):
            child = compiled(_TOML_KEY).fullmatch(lines[index])
            if child and not is_naming_key(child.group("key")):
                _value_span(lines[index], starts[index], child.start("rest"), out)
            index += 1
        return index


def _yaml_child(line: str, offset: int, out: list[Span]) -> None:
    child = compiled(_YAML_KEY).fullmatch(line)
    if child is not None:
        if child.group("rest") and not is_naming_key(child.group("key")):
            _value_span(line, offset, child.start("rest"), out)
        return
    item = compiled(_YAML_ITEM).fullmatch(line)
    if item is not None:
        _value_span(line, offset, item.start("rest"), out)


def _value_span(line: str, offset: int, start: int, out: list[Span]) -> None:
    """The value that starts at ``start`` of ``line``, without its comment or quotes."""
    end = len(line)
    comment = line.find(" #", start)
    if comment >= 0:
        end = comment
    end = start + len(line[start:end].rstrip())
    start, end, _ = _unquote(line, start, end)
    if end > start and not is_placeholder(line[start:end]):
        out.append((offset + start, offset + end))


#: A value said in a sentence: quoted (then it may hold spaces) or one bare word.
_SPOKEN = r"(?:[`\"'“‘「](?P<quoted>[^\n`\"'”’」]{3,200})[`\"'”’」]|(?P<value>[^\s`\"'”’」|<]{3,}))"
_OWNER = r"(?P<own>my|our|your)\s+(?:[\w-]+\s+){0,2}?"
_EN_WORD = r"(?:password|passphrase|passcode|pw|pwd|secret|token|api[ _-]?key|key)"


class Spoken:
    """A secret told in a sentence: "my password is …", "set the token to …", "密碼是 …"."""

    kind: str = "password-phrase"
    triggers: tuple[str, ...] = (
        "pass",
        "pw",
        "secret",
        "token",
        "key",
        "密碼",
        "密码",
        "口令",
        "密鑰",
        "密钥",
        "金鑰",
        "令牌",
        "パスワード",
    )

    sources = (
        rf"(?i)(?<![\w-])(?:{_OWNER})?{_EN_WORD}\s+(?:is|was)\s+(?:now\s+|still\s+)?{_SPOKEN}",
        r"(?i)(?<![\w-])(?:set|changed?|reset|updated?)\s+(?P<own>the|my|our|your)\s+"
        rf"(?:[\w-]+\s+){{0,2}}?{_EN_WORD}\s+to\s+{_SPOKEN}",
        r"(?P<own>)(?:(?:密碼|密码|口令|密鑰|密钥|金鑰|令牌|パスワード)\s*[是為为は：:=]"
        r"|(?i:api\s*key|token|key)\s*[是為为は：])"
        r"\s*[「『“\"'`]?(?P<value>[^\x00-\x20\x7f-\uffff\"'`|<]{3,})",
    )

    def spans(self, text: str) -> Iterator[Span]:
        for number, source in enumerate(self.sources):
            for match in compiled(source).finditer(text):
                quoted = bool(match.groupdict().get("quoted"))
                start, end = match.span("quoted" if quoted else "value")
                if not quoted:
                    end = _trim(text, start, end, _SENTENCE_END)
                    quoted = text[start - 1] in "`\"'“‘「"
                value = text[start:end]
                if is_placeholder(value) or value.lower() in PROSE_WORDS:
                    continue
                owner = (match.group("own") or "").lower()
                told = number == 2 or quoted or owner in ("my", "our", "your")
                if told or looks_secret(value):
                    yield start, end


DETECTORS = (Assignment(), Flag(), Block(), Spoken())

__all__ = ["DETECTORS", "Assignment", "Block", "Flag", "Spoken"]
