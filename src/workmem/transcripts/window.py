"""Reading a very long transcript in bounded time: its head, its plan, its tail.

A session's transcript grows for as long as the session runs; hooks that save it have a
deadline of seconds. What a save needs is at the two ends (how the session started, what
it is doing now) and in the plan, which the agent may have set long ago. So a file over
the limit is read as: the head (up to ``HEAD_BYTES``, whole lines), every line in the
middle that names a plan tool (found by a byte search, which costs far less than parsing),
and the last ``max_bytes`` from a line start. The lines come back in file order, as one
JSONL buffer, with the number of bytes not read.
"""

from __future__ import annotations

import mmap
from pathlib import Path

from ..errors import FormatError, NotFoundError

HEAD_BYTES = 256 * 1024
#: tool names that change the plan, as they appear in the JSON of a tool call
PLAN_NEEDLES = (
    b'"TodoWrite"',
    b'"TaskCreate"',
    b'"TaskUpdate"',
    b'"TaskList"',
    b'"update_plan"',
    b'"write_todos"',
    b'"todo_write"',
    # Claude Code's answers to the task tools: the id a task got, the whole list
    b'"toolUseResult":{"task":',
    b'"toolUseResult":{"tasks":',
)
#: a line this long in the middle is not a plan update worth its parsing time
MAX_PLAN_LINE = 1024 * 1024


def _line_around(view: mmap.mmap, at: int, start: int, end: int) -> tuple[int, int]:
    left = view.rfind(b"\n", start, at) + 1 or start
    right = view.find(b"\n", at, end)
    return max(left, start), (end if right < 0 else right + 1)


def read_window(path: Path, max_bytes: int) -> tuple[bytes, int]:
    """The bytes to parse of ``path`` and how many were left out (0: the whole file)."""
    try:
        size = path.stat().st_size
        handle = path.open("rb")
    except FileNotFoundError:
        raise NotFoundError(f"transcript not found: {path}") from None
    except OSError as exc:
        raise FormatError(
            f"cannot read transcript: {exc.strerror or exc}", path=str(path)
        ) from None
    with handle:
        if size <= max_bytes + HEAD_BYTES:
            return handle.read(), 0
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as view:
            head_end = view.rfind(b"\n", 0, HEAD_BYTES) + 1
            tail_start = view.find(b"\n", size - max_bytes) + 1 or size
            lines: dict[int, int] = {}
            for needle in PLAN_NEEDLES:
                at = view.find(needle, head_end, tail_start)
                while at >= 0:
                    left, right = _line_around(view, at, head_end, tail_start)
                    if right - left <= MAX_PLAN_LINE:
                        lines[left] = right
                    at = view.find(needle, right, tail_start)
            middle = b"".join(view[left : lines[left]] for left in sorted(lines))
            if middle and not middle.endswith(b"\n"):
                middle += b"\n"
            data = view[:head_end] + middle + view[tail_start:]
    return data, size - len(data)
