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


#: A key and its separator where a value was expected: the value is a setting of its own.
_KEY_AHEAD = r"(?:\\?[\"'])?[A-Za-z_][\w.-]*(?:\\?[\"'])?[ \t]*(?::=|=>|=|:)(?=[\s\"'`]|\\?\"|$)"
#: A test runner's report (``--- PASS: TestName (0.01s)``, ``PASS: tests/x.sh``,
#: ``PASS: pkg::test_x``): ``PASS`` there is a result, not a password.
_TEST_NAME = (
    r"(?:Test[A-Z0-9_][\w/.-]*|[\w./-]*::[\w\[\].:/-]+|[\w./-]+\.(?:sh|py|t|test|go|js|ts|rb))"
    r"(?=[ \t]*$|[ \t]+\()"
)


def _test_report(text: str, match: re.Match[str]) -> bool:
    """``PASS:`` in capitals before a test's name, as test runners print it."""
    if match.group("key") not in ("PASS", "PASSED") or match.group("sep") != ":":
        return False
    return bool(compiled(_TEST_NAME, re.M).match(text, match.start("value")))


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
            # What stands after the separator may be a setting itself, whatever it is
            # taken for here: a label's colon before it ("Set the password: password =
            # …"), a key chain ("credentials: aws_secret_access_key: …"). A value that is
            # not a secret is looked at again as the start of one.
            position = match.start("value")
            if compiled(_KEY_AHEAD).match(text, position) or _test_report(text, match):
                continue
            start, end, quoted = _unquote(text, *match.span("value"))
            if not quoted:
                end = self._bare_end(text, match, start, end)
                if end <= start:
                    continue
                first = text[start:end].split(None, 1)[0]
                if first.lower() in PROSE_WORDS:
                    continue
            if not is_placeholder(text[start:end]):
                position = match.end()
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
        return
    # A value on the line below its key (``password:`` then ``  hunter2``; a JSON key and
    # its string split over two lines): the whole indented line, quotes and comma aside.
    start = len(line) - len(line.lstrip(" \t"))
    end = len(line.rstrip().rstrip(","))
    words = line[start:end].split(None, 1)
    if words and line[start] not in "{[" and words[0].lower() not in PROSE_WORDS:
        _value_span(line[:end], offset, start, out)


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
#: "the password *for the staging db* is …": a few words saying whose secret it is
_WHOSE = r"(?:\s+(?:for|of|on|to)\s+(?:[\w.-]+\s+){0,3}?[\w.-]+)?"
#: The CJK words for a password, a key or a token, and the words that say "is" / "set to"
#: / "changed to" after them (Chinese both scripts, Japanese, Korean).
_CJK_WORD = (
    r"(?:密碼|密码|口令|密鑰|密钥|金鑰|秘鑰|秘钥|令牌|パスワード|暗証番号|シークレット"
    r"|비밀번호|비번|암호|패스워드|시크릿|(?i:api)\s*(?:キー|키|金鑰|密鑰|密钥)"
    r"|(?P<llm>トークン|토큰))"
)
#: What the Chinese, Japanese and Korean form cannot match without: one of its words, or
#: one of the words for "is" after an English "key" or "token".
_CJK_GATE = (
    *"密口令金秘鑰钥碼码パ暗シトキ비암패시토키",
    *"是為为は：＝는은",
)
#: "Token" in Japanese and Korean prose is as often a model's unit of text ("トークンは
#: cl100k_baseで数える"): a value said after it counts only when it is as long as a real
#: token, or quoted.
_TOKEN_LENGTH = 16
_CJK_IS = (
    r"(?:設定為|设置为|設置為|設為|设为|設成|设成|改為|改为|改成|換成|换成|變更為|变更为"
    r"|是|為|为|は|を|：|:|＝|=|는|은|가|이|를|을)[ \t]*[：:＝=]?"
)


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
        "秘鑰",
        "秘钥",
        "パスワード",
        "暗証番号",
        "トークン",
        "シークレット",
        "キー",
        "비밀번호",
        "비번",
        "암호",
        "패스워드",
        "토큰",
        "시크릿",
        "키",
    )

    sources = (
        rf"(?i)(?<![\w-])(?:{_OWNER})?{_EN_WORD}{_WHOSE}\s+(?:is|was)\s*:?\s+"
        rf"(?:now\s+|still\s+)?{_SPOKEN}",
        r"(?i)(?<![\w-])(?:set|changed?|reset|updated?)\s+(?P<own>the|my|our|your)\s+"
        rf"(?:[\w-]+\s+){{0,2}}?{_EN_WORD}\s+to\s+{_SPOKEN}",
        rf"(?P<own>)(?:{_CJK_WORD}\s*{_CJK_IS}"
        r"|(?i:password|passwd|pwd|secret|api\s*key|token|key)\s*[是為为は：＝는은])"
        r"\s*[「『“\"'`]?(?P<value>[^\x00-\x20\x7f-\uffff\"'`|<]{3,})",
    )

    def spans(self, text: str) -> Iterator[Span]:
        cjk = not text.isascii() and any(part in text for part in _CJK_GATE)
        for number, source in enumerate(self.sources):
            if number == 2 and not cjk:
                continue  # the Chinese, Japanese and Korean forms need their words
            for match in compiled(source).finditer(text):
                quoted = bool(match.groupdict().get("quoted"))
                start, end = match.span("quoted" if quoted else "value")
                if not quoted:
                    end = _trim(text, start, end, _SENTENCE_END)
                    quoted = text[start - 1] in "`\"'“‘「"
                value = text[start:end]
                if is_placeholder(value) or value.lower() in PROSE_WORDS:
                    continue
                if match.groupdict().get("llm") and not quoted and len(value) < _TOKEN_LENGTH:
                    continue
                owner = (match.group("own") or "").lower()
                told = number == 2 or quoted or owner in ("my", "our", "your")
                if told or looks_secret(value):
                    yield start, end


DETECTORS = (Assignment(), Flag(), Block(), Spoken())

__all__ = ["DETECTORS", "Assignment", "Block", "Flag", "Spoken"]
