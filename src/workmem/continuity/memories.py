"""The long-term memory a session starts with: what the user asked to keep, in its own words.

An index line ("testing — real DB") reaches the agent, the preference behind it ("Always
run the linter before proposing a commit") only if the agent opens the file, which it
rarely does. So a briefing carries the content of the short user and feedback memories,
MEMORY.md's ``## Active`` entries that are not index lines, and the index for the rest;
memories past their expiry or stale are marked as such when they are loaded, not only when
maintenance runs, so an expired project status is never presented as current. Read-only: a
file that cannot be read is left out (the rest still load).
"""

from __future__ import annotations

import re
from datetime import date

from ..files.shorten import clip_words, flatten
from ..root import Workspace

#: a memory shown whole when its text is at most this long (longer ones: the index line)
SHORT_CHARS = 400
ALWAYS_WHOLE = ("user", "feedback")
_LINK = re.compile(r"\]\(memory/([^)\s]+\.md)\)")


def _mark(reason: str | None) -> str:
    if not reason:
        return ""
    return f" [{reason}: check before relying on it]"


def memory_lines(workspace: Workspace, today: date) -> list[str]:
    """The lines of the briefing's long-term memory part, most binding first."""
    from ..facts.typed import list_memories
    from ..files.store import Store

    store = Store(workspace, read_only=True)
    try:
        memories = list_memories(store).memories
    except Exception:
        memories = []
    whole: list[str] = []
    indexed: list[str] = []
    shown_files: set[str] = set()
    for memory in memories:
        mark = _mark(memory.stale_reason(today))
        body = flatten(memory.body)
        where = workspace.relative(memory.path)
        if memory.type in ALWAYS_WHOLE and body and len(body) <= SHORT_CHARS:
            whole.append(f"- ({memory.type}) {memory.name}: {body}{mark}")
            shown_files.add(memory.filename)
        else:
            about = clip_words(memory.description or body, 160)
            indexed.append(f"- ({memory.type}) {memory.name} — {about}{mark} → `{where}`")
            shown_files.add(memory.filename)
    return whole + _active_entries(workspace, store, shown_files) + indexed


def _active_entries(workspace: Workspace, store: object, shown: set[str]) -> list[str]:
    """MEMORY.md ``## Active``: entries of its own (index lines of typed files are shown
    from the files themselves, with their marks)."""
    from ..facts.archive import memory_file
    from ..facts.memory_md import read_tiers
    from ..files.store import Store

    assert isinstance(store, Store)
    try:
        current = store.read_text(memory_file(workspace))
    except Exception:
        return ["- MEMORY.md could not be read: `workmem doctor` says why."]
    if current is None:
        return []
    try:
        tiers = read_tiers(current[0])
    except Exception:
        return ["- MEMORY.md could not be read: `workmem doctor` says why."]
    lines = _over_budget(workspace, current[0])
    blocks = [tiers.active_intro, *tiers.active.values()]
    for block in blocks:
        for line in block.splitlines():
            text = line.strip()
            if not text or text.startswith("#") or text.startswith("<!--"):
                continue
            link = _LINK.search(text)
            if link and link.group(1) in shown:
                continue
            if not text.startswith(("-", "*")):
                text = "- " + text
            lines.append(clip_words(text, 300))
    return lines


def _over_budget(workspace: Workspace, text: str) -> list[str]:
    """One line when MEMORY.md is past its line budget: the start then shows only its first
    entries, and the rest waits for curation."""
    from ..facts.curate import CurationSettings
    from ..facts.memory_md import MAX_LINES
    from ..facts.outline import line_count

    try:
        limit = CurationSettings.from_workspace(workspace).max_lines
    except Exception:  # a bad [curate] setting is doctor's to report
        limit = MAX_LINES
    lines = line_count(text)
    if lines <= limit:
        return []
    return [
        f"- MEMORY.md has {lines} lines, over its budget of {limit}, so only its first entries "
        "may fit here: `workmem curate` archives old dated entries (nothing is deleted); the "
        "rest is for the user to trim."
    ]
