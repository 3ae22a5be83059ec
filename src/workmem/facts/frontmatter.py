"""YAML frontmatter read with a YAML library and edited as text.

A YAML dumper re-sorts keys, drops comments, requotes strings and turns ``no`` into
``false`` and ``1.10`` into ``1.1`` (DESIGN.md). People and other tools own these headers,
so we only ever read them with ``yaml.safe_load`` and change a value by rewriting the one
line (and its continuation lines) that holds it. Every edit is re-parsed and checked: the
keys we changed read back as intended and every other key reads back as before.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..errors import FormatError

FENCE = "---"
_CLOSERS = ("---", "...")
_TOP_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)")
_PLAIN_SAFE = re.compile(r"^[^\s\-?:,\[\]{}#&*!|>'\"%@`][^#]*$")


@dataclass(frozen=True)
class Frontmatter:
    """A file split at its frontmatter: ``raw`` is the exact text between the fences."""

    raw: str
    data: dict[str, Any]
    body: str
    #: The closing fence line exactly as written (``---``, ``...``, trailing spaces kept).
    closing: str = FENCE

    def render(self, raw: str | None = None, body: str | None = None) -> str:
        """The file again; with ``raw`` unchanged its head is byte-identical to the input."""
        inner = self.raw if raw is None else raw
        inner = inner if not inner or inner.endswith("\n") else inner + "\n"
        return f"{FENCE}\n{inner}{self.closing}\n{self.body if body is None else body}"

    def get_str(self, key: str) -> str | None:
        """A value as text, whatever YAML made of it (dates become ``YYYY-MM-DD``)."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


def has_frontmatter(text: str) -> bool:
    return text.startswith(FENCE + "\n") or text == FENCE


def split(text: str, path: str = "<memory file>") -> Frontmatter | None:
    """The frontmatter of ``text`` (``\\n`` line endings), ``None`` when there is none.

    Raises ``FormatError`` with the line number when a frontmatter is opened but cannot be
    read, so the caller stops before touching the file.
    """
    if not has_frontmatter(text):
        return None
    try:
        return _split(text, path)
    except FormatError:
        from ..files.markers import check_unfinished

        check_unfinished(text, path)  # an unfinished merge is said as such
        raise


def _split(text: str, path: str) -> Frontmatter:
    lines = text.split("\n")
    for index in range(1, len(lines)):
        if lines[index].rstrip() in _CLOSERS:
            raw = "\n".join(lines[1:index])
            raw = raw + "\n" if raw else raw
            body = "\n".join(lines[index + 1 :])
            data = load_mapping(raw, path)
            return Frontmatter(raw=raw, data=data, body=body, closing=lines[index])
    raise FormatError("frontmatter opened with '---' is never closed", path=path, line=1)


def load_mapping(raw: str, path: str = "<memory file>") -> dict[str, Any]:
    import yaml

    # libyaml's CSafeLoader is the same safe loader, ~10x faster than the pure-Python one.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(raw, Loader=loader) if raw.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else None  # +1 for the fence, +1 one-based
        problem = getattr(exc, "problem", None) or str(exc).split("\n")[0]
        raise FormatError(
            f"frontmatter is not valid YAML ({problem}); the file was not changed",
            path=path,
            line=line,
        ) from None
    except (ValueError, TypeError, OverflowError) as exc:  # "updated: 2026-13-45"
        raise FormatError(
            f"frontmatter holds a value YAML cannot read ({exc}); the file was not changed",
            path=path,
        ) from None
    if not isinstance(data, dict):
        raise FormatError(
            f"frontmatter must be a mapping of keys to values, not {type(data).__name__}",
            path=path,
            line=2,
        )
    return {str(k): v for k, v in data.items()}


def scalar(value: str) -> str:
    """A string as a YAML scalar that reads back as exactly that string."""
    import yaml

    if value and _PLAIN_SAFE.match(value) and value == value.strip() and ": " not in value:
        try:
            if yaml.safe_load(value) == value:
                return value
        except yaml.YAMLError:
            pass
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a YAML double-quoted one


def _key_span(lines: list[str], key: str) -> tuple[int, int] | None:
    """Line range of a top-level key: its line plus indented continuation lines."""
    for index, line in enumerate(lines):
        match = _TOP_KEY.match(line)
        if match and match.group("key") == key:
            end = index + 1
            while end < len(lines) and (lines[end][:1] in (" ", "\t") or not lines[end].strip()):
                end += 1
            while end > index + 1 and not lines[end - 1].strip():
                end -= 1
            return index, end
    return None


def _comment_of(line: str) -> str:
    """A trailing ``# comment`` of a one-line plain value, kept when the value changes."""
    value = line.split(":", 1)[1]
    if value.strip().startswith(("'", '"', "|", ">", "[", "{")):
        return ""
    match = re.search(r"[ \t]+#.*$", value)
    return match.group(0) if match else ""


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _yaml_value(value: str) -> str:
    """Dates and ``never`` are written bare, the way seed 000's template shows them."""
    if _DATE.match(value) or value in ("never", "universal"):
        return value
    return scalar(value)


def set_fields(raw: str, changes: dict[str, str], path: str = "<memory file>") -> str:
    """``raw`` with each key set to its string value; all else byte-identical.

    Keys not present are appended at the end in the order given. The result is checked by
    re-parsing: a change that would alter any other key, or a value that would not read back
    as the string given (dates read back as dates of that text), is refused.
    """
    before = load_mapping(raw, path)
    lines = raw.split("\n")
    trailing = raw.endswith("\n")
    if trailing:
        lines.pop()
    for key, value in changes.items():
        span = _key_span(lines, key)
        if span is None:
            lines.append(f"{key}: {_yaml_value(value)}")
            continue
        start, end = span
        comment = _comment_of(lines[start]) if end == start + 1 else ""
        lines[start:end] = [f"{key}: {_yaml_value(value)}{comment}"]
    result = "\n".join(lines) + ("\n" if trailing or not raw else "")
    after = load_mapping(result, path)
    for key, value in changes.items():
        got = after.get(key)
        if str(got) != value and not (got is None and value == ""):
            raise FormatError(f"setting {key!r} did not read back as {value!r}", path=path)
    for key, value in before.items():
        if key not in changes and after.get(key) != value:
            raise FormatError(f"setting {list(changes)} would change {key!r}", path=path)
    return result
