"""Small pieces every platform reader shares: content blocks, tool arguments, exit codes."""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

_EXIT_CODE = re.compile(r"(?:exit code|exited with code|Exit Code)[:=]?\s*(-?\d+)", re.I)


def text_of(content: Any, *, skip: frozenset[str] = frozenset({"thinking"})) -> str:
    """Plain text of a message ``content``: a string or a list of typed blocks."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        if content.get("type") in skip:
            return ""
        for key in ("text", "output", "content"):
            value = content.get(key)
            if isinstance(value, (str, list)):
                return text_of(value, skip=skip)
        return ""
    if isinstance(content, list):
        parts = [text_of(block, skip=skip) for block in content]
        return "\n".join(p for p in parts if p)
    return ""


def arguments(value: Any) -> dict[str, Any]:
    """Tool arguments as a dict, whether the platform stored an object or a JSON string."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("{"):
            try:
                parsed = json.loads(stripped)
            except ValueError:
                return {"input": value}
            if isinstance(parsed, dict):
                return parsed
        return {"input": value}
    if value is None:
        return {}
    return {"input": value}


def exit_code_in(text: str) -> int | None:
    """The exit code a shell tool's output reports, if it reports one."""
    match = _EXIT_CODE.search(text[:400]) or _EXIT_CODE.search(text[-400:])
    return int(match.group(1)) if match else None


def string_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def as_int(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    return 0
