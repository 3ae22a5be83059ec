"""The one rule for IDs a merge finds on both sides: both kept, one renamed, said in one line.

Sessions and events are named by IDs their writer issues (``2026-05-25-1318-agent``,
``evt-00012``). Writers that share a memory tag their IDs (``writers``), but an older
memory, a machine whose tag was copied, or a folder whose service was not recognised can
still bring two different things under one ID to a merge. Merging them as one would drop
one of them (the issue this module exists for: a conflict copy's row "merged" away).

So every merge (the git drivers, ``workmem sync``, the cloud-copy merge) asks here:

- **which IDs collide**: with a common ancestor, an ID both sides added (the ancestor
  lacks it) whose content differs; without one (a cloud conflict copy) a session whose two
  rows name different real topics, or an event whose two versions are different events;
- **which side gives way**: the side that cannot keep its ID is the one nobody else has
  seen yet: this clone's side in git (the other side is already pushed, and the next merge
  of the other machine must find its own rows unchanged), the copy in a cloud folder
  (the file itself is what every machine already has);
- **the new ID**: the next free ``-N`` of a session ID, the next free number of an event
  (its writer tag kept), never one either side or this root has issued;
- **every reference**: the giving side's text is rewritten token by token (``rewrite``)
  before the merge, so its rows, references, snapshot names and log entries all follow;
- **one line** per renamed ID in the merge's report (``note``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

OURS = "ours"
THEIRS = "theirs"
#: Set for the merge drivers of ``workmem sync``'s merge: it renamed colliding IDs first.
IDS_SETTLED = "WORKMEM_IDS_SETTLED"
_SESSION_TAIL = re.compile(r"^(?P<base>.+?)-(?P<n>\d{1,4})$")
_EVENT = re.compile(r"^evt-(?P<n>\d+)(?P<tag>-[a-z][a-z0-9]{1,11})?$")
_TOKEN = r"[a-z0-9]"


#: What an ID issued by workmem looks like (a session's starts with its minute).
_ISSUED = re.compile(
    r"(?<![a-z0-9-])(?:evt-\d+(?:-[a-z][a-z0-9]{1,11})?|\d{4}-\d{2}-\d{2}-\d{4}(?:-[a-z0-9]+)+)"
    r"(?![a-z0-9])"
)


def rewrite(text: str, mapping: Mapping[str, str]) -> str:
    """``text`` with every whole-token occurrence of a key replaced by its value.

    A token ends where an ID cannot continue (not a letter, digit or ``-``), so renaming
    ``…-agent`` leaves ``…-agent-2`` alone. One pass: a new ID is never renamed again.
    IDs workmem issued are found by their shape and looked up, so a merge that renames
    hundreds of events reads the text once; any other key is searched for as it is.
    """
    if not mapping or not any(old in text for old in mapping):
        return text
    if all(_ISSUED.fullmatch(key) for key in mapping):
        return _ISSUED.sub(lambda m: mapping.get(m.group(0), m.group(0)), text)
    keys = sorted(mapping, key=len, reverse=True)
    pattern = re.compile(
        rf"(?<!{_TOKEN}|-)(?:{'|'.join(re.escape(k) for k in keys)})(?!{_TOKEN}|-{_TOKEN})"
    )
    return pattern.sub(lambda m: mapping[m.group(0)], text)


def new_session_id(old: str, taken: set[str]) -> str:
    """The first free ``old-2``, ``-3``… (``x-2`` becomes ``x-3``), added to ``taken``."""
    match = _SESSION_TAIL.match(old)
    base, number = (match.group("base"), int(match.group("n")) + 1) if match else (old, 2)
    while f"{base}-{number}" in taken:
        number += 1
    chosen = f"{base}-{number}"
    taken.add(chosen)
    return chosen


def new_event_id(old: str, taken: set[str]) -> str:
    """The next number above every event either side holds, the writer tag kept."""
    match = _EVENT.match(old)
    tag = (match.group("tag") or "") if match else ""
    chosen = f"evt-{_highest(taken) + 1:05d}{tag}"
    taken.add(chosen)
    return chosen


def _highest(taken: set[str]) -> int:
    return max((int(m.group("n")) for t in taken if (m := _EVENT.match(t))), default=0)


def collisions(
    base: Mapping[str, str] | None, ours: Mapping[str, str], theirs: Mapping[str, str]
) -> list[str]:
    """IDs both sides added with different content (``base`` None: every shared ID
    whose content differs; the caller passes content that decides it)."""
    found = []
    for key, content in ours.items():
        other = theirs.get(key)
        if other is None or other == content:
            continue
        if base is not None and key in base:
            continue  # one thing changed on both sides: merged, not renamed
        found.append(key)
    return found


def renames(found: Iterable[str], taken: set[str], *, events: bool = False) -> dict[str, str]:
    """A new ID for each colliding one (``taken`` grows with them)."""
    if not events:
        return {old: new_session_id(old, taken) for old in found}
    number = _highest(taken)
    chosen = {}
    for old in found:
        match = _EVENT.match(old)
        number += 1
        chosen[old] = f"evt-{number:05d}{(match.group('tag') or '') if match else ''}"
        taken.add(chosen[old])
    return chosen


def note(old: str, new: str, side: str, what: str = "session") -> str:
    """The merge's one line about one renamed ID."""
    whose = "this side's" if side == OURS else "the other side's"
    return f"{what} {old} was issued on both sides; {whose} is now {new} (both kept)"
