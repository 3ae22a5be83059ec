"""Which records of a branching transcript are on the live conversation.

Claude Code and OpenClaw (Pi) link records by ``parentUuid``/``parentId``. When a person
rewinds and tries again, the new attempt becomes a second child of an earlier record and
the old attempt stays in the file. The live conversation is the path from the newest
leaf back to the root; at every fork on that path, the other children and all that grew
from them are a rewound branch and drop out. Records the walk cannot place (no id, a
parent that is not in the file) are kept: we only drop what is provably abandoned.
"""

from __future__ import annotations

from collections.abc import Sequence


def rewound_records(
    ids: Sequence[str | None],
    parents: Sequence[str | None],
    leaf: int | None,
) -> set[int]:
    """Indices of the records on abandoned branches of the chain ending at ``leaf``."""
    leaf_id = None if leaf is None else ids[leaf]
    if leaf_id is None:
        return set()
    by_id: dict[str, int] = {}
    children: dict[str, list[int]] = {}
    for index, (uid, parent) in enumerate(zip(ids, parents, strict=True)):
        if uid is not None:
            by_id[uid] = index
        if parent is not None and parent != uid:
            children.setdefault(parent, []).append(index)
    chain: set[str] = set()
    current: str | None = leaf_id
    while current is not None and current not in chain:
        chain.add(current)
        found = by_id.get(current)
        if found is None:
            break
        current = parents[found]
    dropped: set[int] = set()
    for uid in chain - {leaf_id}:  # the leaf is no fork: what follows it is not rewound
        stack = [c for c in children.get(uid, ()) if ids[c] not in chain]
        seen: set[str] = set()
        while stack:
            index = stack.pop()
            if index in dropped:
                continue
            dropped.add(index)
            child_id = ids[index]
            if child_id is None or child_id in seen or child_id in chain:
                continue
            seen.add(child_id)
            stack.extend(c for c in children.get(child_id, ()) if ids[c] not in chain)
    return dropped
