"""The wrap-up's anti-patterns (seed 000): what a memory should not hold, found in its text.

The seed tells the agent not to persist code snippets ("they go stale, point to file +
line"), temporary paths or other ephemeral state, task lists ("session-scoped only"),
what git tracks (file listings, diffs, commit history: "use git log"), or what the code
says itself ("architecture, API signatures belong in code"). An agent does it anyway, so
each memory is checked before it is written: every finding is a warning with the reason,
and a strict wrap-up refuses the whole list before anything is written. The checks look at
the shape of the text only, so they cost microseconds and never need a model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"^\s{0,3}(```|~~~)", re.MULTILINE)
_CODE_LINE = re.compile(
    r"^\s*(?:def |class \w+[(:]|function |import |from \S+ import |const |let |var |"
    r"public |private |return\b|if \(|for \(|#include|package |func )"
    r"|[;{}]\s*$|^\s*[}\])]\s*[;,]?\s*$"
)
_TEMP_PATH = re.compile(
    r"(?:^|[\s`'\"(=])(?:/tmp/|/var/tmp/|/private/var/folders/|/dev/shm/|"
    r"[A-Za-z]:\\(?:Windows\\)?Temp\\|%TEMP%|\$TMPDIR|~/Downloads/)",
    re.IGNORECASE,
)
_TASK = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+\[[ xX]\]\s|^\s*(?:[-*+]\s+)?(?:TODO|待辦|待办)\b[:：]?"
)
_FILE_ITEM = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])?\s*`?(?:\.{0,2}/)?[\w.@-]+(?:/[\w.@-]+)*\.[A-Za-z0-9]{1,6}`?"
    r"(?:\s*(?:[:(—-].{0,40})?)?$"
)
_DIFF = re.compile(r"^(?:diff --git |@@ -\d|\+\+\+ [ab]/|--- a/)", re.MULTILINE)
# A commit as git log lists it: an abbreviated or full hash, then its subject
# ("a1b2c3d Fix the retry budget", "- `a1b2c3d4` — Add limiter"), or "commit <hash>".
_COMMIT = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])?\s*(?:commit\s+)?`?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}`?"
    r"(?:\s*[:—–-])?\s+\S",
    re.IGNORECASE,
)
# A function's signature written out: a name, its parameters, then a return type or
# "returns" ("save(path: str) -> None", "`load(id)` returns a Row", "get(key): string").
_SIGNATURE = re.compile(
    r"\b[A-Za-z_][\w.]*\((?:[^()\n]{0,120})\)`?\s*(?:->|=>|returns?\b|:\s*[A-Za-z_<\[])"
)
#: Lines naming files, in one memory, before it is "a long file list".
FILE_LIST = 5
#: Lines that look like code, outside fences, before it is "a code snippet".
CODE_LINES = 3
#: Lines listing commits before it is "a commit history".
COMMIT_LINES = 3
#: Signatures written out before it is "API signatures".
SIGNATURES = 2


@dataclass(frozen=True)
class Finding:
    file: str
    kind: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"file": self.file, "kind": self.kind, "reason": self.reason}

    def __str__(self) -> str:
        return f"{self.file}: {self.reason}"


def findings(filename: str, content: str) -> list[Finding]:
    """Every anti-pattern the seed names that ``content`` shows, one finding per kind."""
    found: list[Finding] = []
    lines = content.split("\n")
    code = sum(1 for line in lines if _CODE_LINE.search(line))
    if _FENCE.search(content) or code >= CODE_LINES:
        found.append(
            Finding(filename, "code", "holds a code snippet: point to the file and line instead")
        )
    if _TEMP_PATH.search(content):
        found.append(Finding(filename, "temporary-path", "names a temporary path: ephemeral state"))
    tasks = sum(1 for line in lines if _TASK.search(line))
    if tasks:
        found.append(
            Finding(filename, "task-list", "holds a task list: tasks are session-scoped only")
        )
    files = sum(1 for line in lines if line.strip() and _FILE_ITEM.match(line))
    if files >= FILE_LIST or _DIFF.search(content):
        what = "a diff" if _DIFF.search(content) else f"a list of {files} files"
        found.append(Finding(filename, "git-tracked", f"holds {what}: git already tracks that"))
    commits = sum(1 for line in lines if _COMMIT.match(line))
    if commits >= COMMIT_LINES:
        found.append(
            Finding(
                filename,
                "commit-history",
                f"lists {commits} commits: commit history belongs to git log",
            )
        )
    if code < CODE_LINES and len(_SIGNATURE.findall(content)) >= SIGNATURES:
        found.append(
            Finding(
                filename,
                "api-signatures",
                "describes API signatures: the code says them, and they go stale here",
            )
        )
    return found
