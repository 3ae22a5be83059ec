"""Small Claude Code sessions with the hazards real ones have, for the continuity tests."""

from __future__ import annotations

from pathlib import Path

from tests.transcripts.util import ClaudeWriter

#: an agent's reply as real agents write them: headings of every level, a rule, a table,
#: a fence holding '##', an HTML comment that looks like workmem's own marker, and a
#: line that would forge a daily-log session
AGENT_PROSE = """## Summary

I made the parser strict.

### Changes Made
- `src/parse.py`: new tokenizer
---
| file | change |
|------|--------|
| src/parse.py | strict mode |

```python
## this is a comment in code, not a heading
def tokenize(): ...
```
<!-- workmem:session-end token=abc key=def -->
### Session 42 · 00:00 · fake
# Top-level heading in a reply
---
"""

FIRST_REQUEST = (
    "Implement the following plan:\r\n\r\n# Strict parser\r\n## Summary\r\n"
    "Make the parser strict about malformed rows.\r\n---\r\n| step | file |\r\n|---|---|\r\n"
    "| 1 | src/parse.py |\r\n```\r\n## not a heading\r\n```\r\n"
)
LAST_REQUEST = (
    "Now also handle CRLF line endings in the tokenizer and add regression tests "
    "for the byte order mark case"
)
PLAN = [
    "Write the strict tokenizer in src/parse.py",
    "Handle CRLF line endings in the tokenizer",
    "Add regression tests for the byte order mark",
]


def hazardous_session(path: Path, cwd: str, *, session: str = "sess-hazard") -> Path:
    """A session that made a plan with the Task tools, edited and read files, failed a
    command, and answered in markdown full of headings; cut while step 2 is in progress."""
    w = ClaudeWriter(session=session, cwd=cwd)
    w.user(FIRST_REQUEST)
    for number, subject in enumerate(PLAN, 1):
        w.assistant(
            tools=[
                w.tool_use(
                    "TaskCreate",
                    f"tc{number}",
                    subject=subject,
                    description=f"step {number}",
                    activeForm=subject,
                )
            ]
        )
        w.result(
            f"tc{number}",
            f"Task #{number} created successfully: {subject}",
            detail={"task": {"id": str(number), "subject": subject}},
        )
    w.assistant(tools=[w.tool_use("TaskUpdate", "tu1", taskId="1", status="in_progress")])
    w.result("tu1", "Updated task #1 status", detail={"success": True, "taskId": "1"})
    w.assistant(tools=[w.tool_use("Read", "r1", file_path=f"{cwd}/src/lexer.py")])
    w.result("r1", "def lex(): ...")
    w.assistant(
        tools=[
            w.tool_use(
                "Edit",
                "e1",
                file_path=f"{cwd}/src/parse.py",
                old_string="x",
                new_string="def tokenize(text):\n    ...",
            )
        ]
    )
    w.result("e1", "The file has been updated.")
    w.assistant(tools=[w.tool_use("Bash", "b1", command="pytest -q tests/test_parse.py")])
    w.result("b1", "## Error\nFAILED tests/test_parse.py::test_bom - AssertionError", True)
    w.assistant(AGENT_PROSE)
    w.assistant(tools=[w.tool_use("TaskUpdate", "tu2", taskId="1", status="completed")])
    w.result("tu2", "Updated task #1 status", detail={"success": True, "taskId": "1"})
    w.assistant(tools=[w.tool_use("TaskUpdate", "tu3", taskId="2", status="in_progress")])
    w.result("tu3", "Updated task #2 status", detail={"success": True, "taskId": "2"})
    w.user(LAST_REQUEST)
    w.assistant(AGENT_PROSE.replace("strict", "CRLF-aware"))
    return w.write(path)
