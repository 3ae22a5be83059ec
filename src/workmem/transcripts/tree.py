"""Which records of a branching transcript are on the live conversation.

Claude Code and OpenClaw (Pi) link records by ``parentUuid``/``parentId``. When a person
rewinds and tries again, the new attempt becomes a second child of an earlier record and
the old attempt stays in the file. The live conversation is the path from the newest
leaf back to the root; at every fork on that path, the other children and all that grew
from them are a rewound branch and drop out. Records the walk cannot place (no id, a
parent that is not in the file) are kept: we only drop what is provably abandoned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def rewound_records(
    ids: Sequence[str | None],
    parents: Sequence[str | None],
    leaf: int | None,
    keep: Callable[[int, list[int]], bool] | None = None,
) -> set[int]:
    """Indices of the records on abandoned branches of the chain ending at ``leaf``.

    ``keep(fork, branch)`` may spare a branch that is not a rewind: Claude Code writes the
    parallel tool calls of one response as a chain of records, and each call's result as a
    child of its own call, so the other calls hang off the chain as side branches.
    """
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
        for start in (c for c in children.get(uid, ()) if ids[c] not in chain):
            branch = _branch(start, ids, children, chain)
            if keep is not None and uid in by_id and keep(by_id[uid], branch):
                continue
            dropped.update(branch)
    return dropped


def _branch(
    start: int, ids: Sequence[str | None], children: dict[str, list[int]], chain: set[str]
) -> list[int]:
    """``start`` and every record that grew from it off the chain."""
    found: list[int] = []
    seen: set[int] = set()
    stack = [start]
    while stack:
        index = stack.pop()
        if index in seen:
            continue
        seen.add(index)
        found.append(index)
        child_id = ids[index]
        if child_id is not None and child_id not in chain:
            stack.extend(c for c in children.get(child_id, ()) if ids[c] not in chain)
    return found
