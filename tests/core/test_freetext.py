"""Free text can never become structure in a memory file, and stays readable."""

from __future__ import annotations

import pytest

from workmem.files.freetext import clip, neutralize_block, neutralize_line, restore
from workmem.files.outline import parse_outline

REAL_PROSE = """## Summary

I changed the parser.

### Changes Made
- `src/parse.py`: new tokenizer
---
| file | change |
|------|--------|
| a.py | new    |

```python
## not a heading in code
def f(): pass
```
<!-- workmem:session-end token=abc key=def -->
# Top heading
"""


def _sections(text: str) -> list[str]:
    return [n.title for n in parse_outline(text, (1, 2, 3)).nodes]


def test_real_prose_adds_no_heading_to_the_file_it_lands_in() -> None:
    safe = neutralize_block(REAL_PROSE)
    document = f"# Notes\n\n## Current State\n\n{safe}\n\n## Worklog\n\n- x\n"
    outline = parse_outline(document, (2,))
    assert [n.title for n in outline.nodes] == ["Current State", "Worklog"]
    assert "<!--" not in safe
    # Every line of the original is still there, readable.
    assert restore(safe).split("\n")[:3] == ["## Summary", "", "I changed the parser."]


@pytest.mark.parametrize(
    "line",
    ["# a", "## Summary", "###### six", "   ## three spaces", "##", "#\tTab"],
)
def test_every_heading_form_is_escaped(line: str) -> None:
    safe = neutralize_block(line)
    assert _sections(safe) == []
    assert "\\#" in safe


@pytest.mark.parametrize("line", ["---", "***", "___", "===", "- - -", "  -----  "])
def test_rules_and_frontmatter_fences_are_escaped(line: str) -> None:
    safe = neutralize_block(f"text\n{line}\nmore")
    assert safe.split("\n")[1].lstrip().startswith("\\")


def test_headings_that_are_not_headings_stay_as_written() -> None:
    text = "#hashtag\n    ## indented code\n- ## in an item\nC# is a language"
    assert neutralize_block(text) == text


def test_an_open_fence_is_closed_so_it_cannot_swallow_what_follows() -> None:
    safe = neutralize_block("```bash\nls\n")
    document = f"## A\n\n{safe}\n\n## B\n"
    assert [n.title for n in parse_outline(document).nodes] == ["A", "B"]
    assert safe.endswith("```")


def test_a_longer_fence_closes_only_on_its_own_kind() -> None:
    safe = neutralize_block("````\n```\ninner\n````")
    assert safe == "````\n```\ninner\n````"  # balanced: nothing appended


def test_crlf_controls_and_trailing_spaces_are_cleaned() -> None:
    assert neutralize_block("a  \r\nb\x00\x1b[0m\rc\t") == "a\nb[0m\nc"


def test_long_lines_are_clipped_on_request_with_a_count() -> None:
    safe = neutralize_block("x" * 5000, max_line=100)
    assert len(safe) < 140 and "4,900 more characters" in safe
    assert clip("short", 10) == "short"


def test_one_line_form_folds_lines_and_escapes_its_start() -> None:
    forged = "s\n### Session 42 · 00:00 · fake"
    assert neutralize_line(forged) == "s ### Session 42 · 00:00 · fake"
    assert neutralize_line("## x\n- y") == "\\## x - y"
    assert neutralize_line("ends in a space ") == "ends in a space"
    assert neutralize_line("abcdefghij", limit=6) == "abcde…"
    assert neutralize_line("abcd efghij", limit=6) == "abcd…"  # never a trailing space


@pytest.mark.parametrize("text", [REAL_PROSE, "## a\n---\n```\n", "x <!-- y", "plain"])
def test_neutralizing_is_idempotent(text: str) -> None:
    once = neutralize_block(text)
    assert neutralize_block(once) == once
    line = neutralize_line(text)
    assert neutralize_line(line) == line
