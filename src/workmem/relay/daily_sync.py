"""Phase 5 of the relay: every save that changed something leaves it in the day's log.

The snapshot is overwritten at the next save; the daily log is not. So a save appends a
``### Session Relay Auto-Save (HH:MM)`` entry with what it brought that the day's log
does not hold yet: the context level, what was active, the items newly completed, and the
new key items of the other sections (next steps, decisions, preferences, gotchas). An item
is logged once; a save that brings nothing new (same active work, no new item) appends
nothing. What the log holds is read from the log itself (its auto-save entries since the
last session end, in whatever language they were written), never from a cache.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path

from ..files.sections import Document, is_placeholder_text, item_key
from ..files.store import Store
from .template import clip_words, section_key
from .usage import ContextUsage

HEADING = "Session Relay Auto-Save"
_COLON = re.compile("[:：]")
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


@dataclass
class Logged:
    """What the day's auto-save entries already say (since the last session end)."""

    active: str | None = None
    items: set[tuple[str, str]] = field(default_factory=set)


@cache
def _labels() -> dict[str, str]:
    """Every language's list label (``Completed``, ``已完成`` …) -> its section key."""
    from ..i18n import LANGUAGES, text

    found: dict[str, str] = {}
    for language in LANGUAGES:
        found[_label_key(text(language, "relay.active", text=""))] = "active"
        for key in ("completed", *(k for k, _ in KEY_ITEMS)):
            found[_label_key(text(language, f"relay.{key}"))] = key
    return found


def _label_key(line: str) -> str:
    return line.strip().removeprefix("- ").strip().rstrip(":：").strip().casefold()


def _item_key(text: str) -> str:
    """An item as the log holds it; a rolling item (the last commands run) is one item."""
    from .snapshot_merge import ROLLING

    rolling = next((p for p in ROLLING if text.startswith(p)), None)
    return rolling.casefold() if rolling is not None else item_key(clip_words(text, 200))


def logged(text: str) -> Logged:
    """Read the day's auto-save entries after its last session end."""
    from ..journal.daily import END_MARKER

    seen = Logged()
    labels = _labels()
    marker = f"### {HEADING} ("
    for entry in ("\n" + text).split("\n### ")[1:]:
        if END_MARKER in entry:
            seen = Logged()
            continue
        if not f"### {entry}".startswith(marker):
            continue
        key: str | None = None
        for line in entry.split("\n")[1:]:
            if line.startswith("  - "):
                if key is not None and key != "active":
                    seen.items.add((key, _item_key(line[4:])))
                continue
            if not line.startswith("- "):
                continue
            split = _COLON.search(line, 2)
            key = labels.get(_label_key(line[2 : split.start()])) if split else None
            rest = line[split.end() :] if split else ""
            if key == "active":
                seen.active = rest.strip()
    return seen


def entry_body(
    snapshot: str,
    completed: list[str],
    usage: ContextUsage | None,
    language: str = "en",
    before: Logged | None = None,
) -> str | None:
    """The entry for what is new since ``before``; None when nothing is.

    ``completed``: every finished item, also those the snapshot cut to stay in size.
    """
    from ..i18n import text

    before = before or Logged()
    document = Document.parse(snapshot)
    pct = f"{usage.percent:g}%" if usage else text(language, "relay.unknown")
    active = clip_words(_active(document), 200)
    lists: list[tuple[str, list[str], int | None]] = [("completed", completed, None)]
    lists += [(key, _items(document, key), count) for key, count in KEY_ITEMS]
    lines: list[str] = []
    for key, found, count in lists:
        new = [i for i in _unique(found) if (key, _item_key(i)) not in before.items]
        if not new:
            continue
        lines.append(text(language, f"relay.{key}"))
        shown = new if count is None else new[:count]
        lines += [f"  - {clip_words(item, 200)}" for item in shown]
        if len(new) > len(shown):
            lines.append(text(language, "relay.more", n=len(new) - len(shown)))
    if not lines and (not active or active == before.active):
        return None
    head = [
        text(language, "relay.context_at", pct=pct),
        text(language, "relay.active", text=active or text(language, "relay.not_stated")),
    ]
    return "\n".join(head + lines)


def _unique(items: list[str]) -> list[str]:
    keys: set[str] = set()
    out = []
    for item in items:
        key = _item_key(item)
        if key and key not in keys:
            keys.add(key)
            out.append(item)
    return out


def sync_daily_log(
    store: Store,
    snapshot: str,
    *,
    completed: list[str],
    now: datetime,
    usage: ContextUsage | None,
) -> Path | None:
    """Append the entry to today's log; the log's path, or None when nothing is new."""
    from ..i18n import language_for
    from ..journal.daily import append_entry, daily_log_path
    from ..redact import redact

    language = language_for(store.workspace)
    path = daily_log_path(store.workspace, now.date())
    current = store.read_text(path)
    before = logged(current[0]) if current is not None else Logged()
    # Compared as the log holds them: redacted (the snapshot already is).
    done = [redact(item)[0] for item in completed]
    body = entry_body(snapshot, done, usage, language, before)
    if body is None:
        return None
    return append_entry(store, now.date(), f"{HEADING} ({now:%H:%M})", redact(body)[0])
