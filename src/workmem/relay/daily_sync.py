"""Phase 5 of the relay: every saved snapshot leaves its key items in the day's log.

The snapshot is overwritten at the next save; the daily log is not. So each save appends a
``### Session Relay Auto-Save (HH:MM)`` entry holding, from the snapshot as written, the
context level, what was active, what was completed, and the key items of the other sections
(next steps, decisions, preferences, gotchas), so nothing the agent recorded is only in a
file that the next save replaces. A save that would repeat the day's last auto-save entry
word for word appends nothing.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..files.sections import Document, is_placeholder_text
from ..files.store import Store
from .template import section_key
from .usage import ContextUsage

HEADING = "Session Relay Auto-Save"
#: section key -> how many items the entry keeps (its label is ``relay.<key>``)
KEY_ITEMS = (("pending", 5), ("decisions", 5), ("preferences", 3), ("gotchas", 3))


def _items(document: Document, key: str) -> list[str]:
    section = next((s for s in document.sections if section_key(s.title) == key), None)
    if section is None:
        return []
    return [i.split("\n")[0] for i in section.items() if not is_placeholder_text(i)]


def _active(document: Document) -> str:
    section = next((s for s in document.sections if section_key(s.title) == "in_progress"), None)
    if section is None:
        return ""
    for block in section.blocks():
        text = block.text.strip()
        if text and not is_placeholder_text(text) and not text.startswith("Reproduction"):
            return " ".join(text.split())
    return ""


def entry_body(
    snapshot: str, completed: list[str], usage: ContextUsage | None, language: str = "en"
) -> str:
    """``completed``: every finished item, also those the snapshot cut to stay in size."""
    from ..files.freetext import neutralize_line
    from ..i18n import text

    document = Document.parse(snapshot)
    pct = f"{usage.percent:g}%" if usage else text(language, "relay.unknown")
    active = neutralize_line(_active(document), limit=200)
    lines = [
        text(language, "relay.context_at", pct=pct),
        text(language, "relay.active", text=active or text(language, "relay.not_stated")),
        text(language, "relay.completed" if completed else "relay.completed_none"),
    ]
    lines += [f"  - {neutralize_line(item, limit=200)}" for item in completed]
    for key, count in KEY_ITEMS:
        items = _items(document, key)
        if not items:
            continue
        lines.append(text(language, f"relay.{key}"))
        lines += [f"  - {neutralize_line(item, limit=200)}" for item in items[:count]]
        if len(items) > count:
            lines.append(text(language, "relay.more", n=len(items) - count))
    return "\n".join(lines)


def _last_entry(text: str) -> str | None:
    """The body of the day's last auto-save entry, if the log ends with one."""
    marker = f"### {HEADING} ("
    at = text.rfind(marker)
    if at < 0:
        return None
    rest = text[at:].split("\n", 1)[1] if "\n" in text[at:] else ""
    if "\n#" in "\n" + rest.strip():
        return None  # another entry came after it
    return rest.strip()


def sync_daily_log(
    store: Store,
    snapshot: str,
    *,
    completed: list[str],
    now: datetime,
    usage: ContextUsage | None,
) -> Path | None:
    """Append the entry to today's log; the log's path, or None when it would repeat."""
    from ..i18n import language_for
    from ..journal.daily import append_entry, daily_log_path
    from ..redact import redact

    language = language_for(store.workspace)
    body, _ = redact(entry_body(snapshot, completed, usage, language))
    path = daily_log_path(store.workspace, now.date())
    current = store.read_text(path)
    if current is not None and _last_entry(current[0]) == body.strip():
        return None
    return append_entry(store, now.date(), f"{HEADING} ({now:%H:%M})", body)
