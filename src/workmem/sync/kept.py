"""Both versions kept in one file, when a merge cannot decide.

A merge that cannot read one side (a malformed table, broken JSON), or whose result would
lose something, keeps the version it can read as the file and the other one inside it, in
a form every reader accepts: for markdown a quoted block between two workmem comments after
the content (no heading, table or fence of the kept text can take effect inside a quote),
for JSON a ``workmem_kept_versions`` list beside the data (the readers keep unknown keys).
``workmem doctor`` lists such blocks until a person has settled them.
"""

from __future__ import annotations

import json
import re
from typing import Any

OPEN = "<!-- workmem:kept-version"
CLOSE = "<!-- workmem:kept-version-end -->"
JSON_KEY = "workmem_kept_versions"
_OPEN_LINE = re.compile(r"^<!-- workmem:kept-version (?P<attrs>.*?)-->$", re.MULTILINE)


def _attr(value: str) -> str:
    return value.replace('"', "'").replace("--", "-").replace("\n", " ").strip()


def kept_markdown(primary: str, other: str, *, origin: str, reason: str) -> str:
    """``primary`` with ``other`` quoted after it, marked as a version a merge kept."""
    body = primary.rstrip("\n")
    quoted = [f"> {line}" if line.strip() else ">" for line in other.rstrip("\n").split("\n")]
    block = [
        f'{OPEN} from="{_attr(origin)}" reason="{_attr(reason)}" -->',
        *quoted,
        CLOSE,
    ]
    return (body + "\n\n" if body else "") + "\n".join(block) + "\n"


def kept_json(primary: dict[str, Any], other: str, *, origin: str, reason: str) -> str:
    """An object with the unreadable or undecidable other version stored beside the data."""
    data = dict(primary)
    kept = list(data.get(JSON_KEY) or [])
    kept.append({"from": origin, "reason": reason, "text": other})
    data[JSON_KEY] = kept
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def kept_versions(text: str) -> list[str]:
    """The reasons of the kept versions a file holds (markdown blocks or the JSON key)."""
    found = [m.group("attrs").strip() for m in _OPEN_LINE.finditer(text)]
    if f'"{JSON_KEY}"' in text:
        try:
            data = json.loads(text)
        except ValueError:
            return found
        if isinstance(data, dict) and isinstance(data.get(JSON_KEY), list):
            found += [
                str(item.get("reason", "")) for item in data[JSON_KEY] if isinstance(item, dict)
            ]
    return found
