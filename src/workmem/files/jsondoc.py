"""JSON files that people and agents edit by hand, read with an error that says where.

``memory/state.json``, ``memory/events.json`` and the platforms' hook settings are the
truth, not derived state: a broken one must stop the workflow before anything is written,
with the file and the line to fix. Derived state (caches, the session map, gate counters)
is read tolerantly by its owner instead and does not come here.
"""

from __future__ import annotations

import json

from ..errors import FormatError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any


def parse_json(text: str, path: str, *, fix: str = "fix it by hand") -> Any:
    """The value ``text`` holds; ``FormatError`` with ``path`` and the line when broken.

    ``fix`` is the advice in the message (``"fix it first"`` where the user is about to
    act on the file).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        from .markers import check_unfinished

        check_unfinished(text, path)  # an unfinished merge is said as such
        raise FormatError(
            f"not valid JSON ({exc.msg}); {fix}, nothing was written",
            path=path,
            line=exc.lineno,
        ) from None
    except RecursionError:
        raise FormatError(
            f"JSON nested too deeply to read; {fix}, nothing was written", path=path
        ) from None


def parse_json_object(
    text: str | None, path: str, *, fix: str = "fix it by hand"
) -> dict[str, Any]:
    """The object ``text`` holds, ``{}`` for a missing or blank file; anything else is a
    ``FormatError``, as for ``parse_json``."""
    if text is None or not text.strip():
        return {}
    data = parse_json(text, path, fix=fix)
    if not isinstance(data, dict):
        raise FormatError("expected a JSON object; nothing was written", path=path)
    return data
