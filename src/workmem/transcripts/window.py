"""Reading a very long transcript in bounded time: its head, its plan, its tail.

A session's transcript grows for as long as the session runs; hooks that save it have a
deadline of seconds. What a save needs is at the two ends (how the session started, what
it is doing now) and in the plan, which the agent may have set long ago. So a file over
the limit is read as: the head (up to ``HEAD_BYTES``, whole lines), every line in the
middle that names a plan tool (found by one regular-expression pass over the bytes, which
costs far less than parsing, and which stops at a time limit on a huge or sparse file),
and the last ``max_bytes`` from a line start. The lines come back in file order, as one
JSONL buffer, with the number of bytes not read.
"""

from __future__ import annotations

import mmap
import re
from pathlib import Path

HEAD_BYTES = 256 * 1024
#: what a line that changed the plan holds: a plan tool's name as the JSON of a tool call
#: writes it, or Claude Code's structured answer to a task tool (the id a task got, the list)
PLAN_LINE = re.compile(
    rb'"(?:TodoWrite|TaskCreate|TaskUpdate|TaskList|update_plan|write_todos|todo_write)"'
    rb'|"toolUseResult": ?\{"tasks?":'
)
#: a line this long in the middle is not a plan update worth its parsing time
MAX_PLAN_LINE = 1024 * 1024
#: the middle is searched this much at a time; a match may straddle two slices, so the
#: next slice starts this far before the end of the last (longer than any match)
SCAN_SLICE = 64 * 1024 * 1024
SLICE_OVERLAP = 128


def _line_around(view: mmap.mmap, at: int, start: int, end: int) -> tuple[int, int]:
    left = view.rfind(b"\n", start, at) + 1 or start
    right = view.find(b"\n", at, end)
    return max(left, start), (end if right < 0 else right + 1)


def read_window(path: Path, max_bytes: int, *, seconds: float | None = None) -> tuple[bytes, int]:
    """The bytes to parse of ``path`` and how many were left out (0: the whole file).

    Opened through ``files.bounded`` (a pipe or device is refused by its type); the scan
    of the middle for plan lines stops after ``seconds`` (a huge or sparse file), and what
    it did not reach counts as left out.
    """
    import os
    import time

    from ..files.bounded import READ_SECONDS, open_regular, read_range

    limit = READ_SECONDS if seconds is None else seconds
    with open_regular(path, what="transcript") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size <= max_bytes + HEAD_BYTES:
            return read_range(handle, 0, size, shown=str(path), seconds=limit), 0
        began = time.monotonic()
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as view:
            head_end = view.rfind(b"\n", 0, HEAD_BYTES) + 1
            tail_start = view.find(b"\n", size - max_bytes) + 1 or size
            lines: dict[int, int] = {}
            at = head_end
            while at < tail_start and time.monotonic() - began <= limit:
                # one slice at a time, so the time limit is looked at between slices; a
                # found line is not searched again
                stop = min(at + SCAN_SLICE, tail_start)
                found = PLAN_LINE.search(view, at, stop)
                if found is None:
                    at = stop if stop == tail_start else stop - SLICE_OVERLAP
                    continue
                left, right = _line_around(view, found.start(), head_end, tail_start)
                if right - left <= MAX_PLAN_LINE:
                    lines[left] = right
                at = right
            middle = b"".join(view[left : lines[left]] for left in sorted(lines))
            if middle and not middle.endswith(b"\n"):
                middle += b"\n"
            data = view[:head_end] + middle + view[tail_start:]
    return data, size - len(data)
