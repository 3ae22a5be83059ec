"""The memories to save, as the agent hands them over: a YAML or JSON list.

The agent distils the session (principle 3: the agent writes the prose); we only read its
list of ``{type, topic, description, content}`` items, a top-level ``memories:`` key being
allowed too. JSON is tried first because every JSON document is also YAML but JSON gives
clearer errors for JSON input. Bad input is refused before anything is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import FormatError, NotFoundError, UsageError
from ..facts.write import MemoryInput

MAX_INPUT_BYTES = 2 * 1024 * 1024


def parse_items(text: str, source: str = "<stdin>") -> list[MemoryInput]:
    """Parse the agent's list; an empty document or list means "nothing to save"."""
    if len(text.encode("utf-8")) > MAX_INPUT_BYTES:
        raise UsageError(f"{source}: over {MAX_INPUT_BYTES:,} bytes; memories are distilled notes")
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        return []
    data: Any
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError:
        import yaml

        try:
            data = yaml.safe_load(stripped)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise FormatError(
                f"memories are neither JSON nor YAML: {getattr(exc, 'problem', exc)}",
                path=source,
                line=mark.line + 1 if mark is not None else None,
            ) from None
    if isinstance(data, dict) and "memories" in data:
        data = data["memories"]
    if data is None:
        return []
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise UsageError(f"{source}: expected a list of memories, got {type(data).__name__}")
    items = [
        MemoryInput.from_mapping(entry, f"{source} item {i + 1}") for i, entry in enumerate(data)
    ]
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        if item.filename in seen:
            raise UsageError(
                f"{source}: items {seen[item.filename] + 1} and {index + 1} both name "
                f"{item.filename}; merge them into one"
            )
        seen[item.filename] = index
    return items


def read_items(path: str) -> list[MemoryInput]:
    """Items from a file (``-`` is standard input), decoded tolerantly (BOM, CRLF)."""
    import sys

    from ..files.text import decode

    if path == "-":
        return parse_items(sys.stdin.read())
    from ..files.bounded import read_file
    from ..files.text import MAX_FILE_BYTES

    try:
        data = read_file(Path(path), limit=MAX_FILE_BYTES, what="input file", shown=path)
    except NotFoundError:
        raise UsageError(f"cannot read {path}: no such file") from None
    return parse_items(decode(data, path)[0], path)
