"""The outline primitive: exact round trip, headings by level, fences, nesting."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from workmem.files.outline import Outline, atx_heading, join_lines, parse_outline, split_lines

REPO = Path(__file__).resolve().parents[2]

MEMORY = """# Long-term memory

Intro line.

## Active

Free entry before the typed parts.

### Project
- Uses SQLite FTS5

#### Detail kept in the body
- deep

### User
- Prefers short answers

```markdown
## not a tier (fenced)
### not a subsection
```

## Fading
- old fact

## Maintenance Log
"""

# Lines that stress the splitter: headings of every level, non-headings that look like
# them, fences of both kinds and lengths, CR and other whitespace, CJK.
_TRICKY = [
    "# Title",
    "## A",
    "### B",
    "#### C",
    "####### seven",
    "##",
    "## ",
    "##  ",
    "##x",
    "##\tTab",
    "##\u3000全角",
    "## Closed ##",
    "## Title\r",
    " ## indented",
    "### 決定",
    "```",
    "~~~",
    "````",
    "  ```python",
    "```## after fence",
    "text",
    "",
    " ",
    "\r",
    "- item",
    "x\ry",
]


def _random_text(rng: random.Random) -> str:
    lines = [rng.choice(_TRICKY) for _ in range(rng.randint(0, 30))]
    text = rng.choice(["\n", "\r\n"]).join(lines)
    return text + rng.choice(["", "\n", "\n\n", "\r\n"])


def test_split_and_join_are_inverse() -> None:
    for text in ["", "\n", "\n\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "\r"]:
        lines, trailing = split_lines(text)
        assert join_lines(lines, trailing) == text
    assert split_lines("a\nb\n") == (["a", "b"], True)
    assert split_lines("a\nb") == (["a", "b"], False)


def test_round_trip_is_exact_for_random_texts() -> None:
    rng = random.Random(20260525)
    for _ in range(3000):
        text = _random_text(rng)
        for levels, paired in (((2,), False), ((2, 3), False), ((2, 3), True), ((1, 2, 3), True)):
            outline = parse_outline(text, levels, paired_fences=paired)
            assert outline.render() == text, (text, levels, paired)


def test_every_line_lands_in_exactly_one_place() -> None:
    outline = parse_outline(MEMORY, (2, 3))
    assert outline.preamble == ["# Long-term memory", "", "Intro line.", ""]
    assert [n.title for n in outline.nodes] == ["Active", "Fading", "Maintenance Log"]
    active = outline.nodes[0]
    assert active.body == ["", "Free entry before the typed parts.", ""]
    assert [c.title for c in active.children] == ["Project", "User"]
    project = active.children[0]
    # A deeper heading than asked for is text of the part it sits in.
    assert "#### Detail kept in the body" in project.body
    user = active.children[1]
    assert "## not a tier (fenced)" in user.body
    assert "### not a subsection" in user.body
    assert outline.nodes[2].body == []
    assert outline.trailing_newline is True
    assert outline.render() == MEMORY


def test_levels_not_asked_for_are_text() -> None:
    outline = parse_outline(MEMORY)  # only ## by default
    assert [n.title for n in outline.nodes] == ["Active", "Fading", "Maintenance Log"]
    assert all(not n.children for n in outline.nodes)
    assert "### Project" in outline.nodes[0].body


def test_a_nested_heading_before_its_parent_is_preamble_text() -> None:
    outline = parse_outline("### orphan\ntext\n## Parent\n### child\n", (2, 3))
    assert outline.preamble == ["### orphan", "text"]
    assert outline.nodes[0].children[0].title == "child"


def test_three_levels_nest_and_a_new_parent_closes_deeper_ones() -> None:
    text = "# One\n## Two\n### Three\n## Two b\n### Three b\n# One b\n### stray\n"
    outline = parse_outline(text, (1, 2, 3))
    first, second = outline.nodes
    assert [c.title for c in first.children] == ["Two", "Two b"]
    assert [g.title for g in first.children[1].children] == ["Three b"]
    # ### right under a # (no ## open) is text of the # node.
    assert second.body == ["### stray"] and not second.children
    assert outline.render() == text


def test_toggle_fences_close_on_any_fence_line_paired_only_on_their_own() -> None:
    text = "```\n~~~\n## after\n```\n## end\n"
    toggled = parse_outline(text)  # ~~~ closes the ``` fence, the next ``` opens one
    assert [n.title for n in toggled.nodes] == ["after"]
    assert toggled.nodes[0].body == ["```", "## end"]
    paired = parse_outline(text, paired_fences=True)
    assert [n.title for n in paired.nodes] == ["end"]
    assert paired.preamble == ["```", "~~~", "## after", "```"]


def test_indented_and_unclosed_fences_hide_headings() -> None:
    outline = parse_outline("  ```py\n## hidden\n")
    assert outline.nodes == [] and outline.preamble == ["  ```py", "## hidden"]


def test_atx_heading_shapes() -> None:
    assert atx_heading("## Title ##") == (2, "Title")
    assert atx_heading("### 決定") == (3, "決定")
    assert atx_heading("## Title\r") == (2, "Title")
    assert atx_heading("##") is None
    assert atx_heading("## ") is None
    assert atx_heading("##x") is None
    assert atx_heading(" ## indented") is None
    assert atx_heading("####### seven") is None


def test_custom_heading_rule_is_used() -> None:
    def upper_only(line: str) -> tuple[int, str] | None:
        found = atx_heading(line)
        return found if found and found[1].isupper() else None

    outline = parse_outline("## KEEP\n## skip\n", heading=upper_only)
    assert [n.title for n in outline.nodes] == ["KEEP"]
    assert outline.nodes[0].body == ["## skip"]


def test_crlf_stays_in_the_lines_and_round_trips() -> None:
    text = "intro\r\n## A\r\nbody\r\n"
    outline = parse_outline(text)
    assert outline.nodes[0].title == "A"
    assert outline.nodes[0].body == ["body\r"]
    assert outline.render() == text


def test_empty_outline_renders_its_trailing_newline() -> None:
    assert Outline().render() == "\n"
    assert Outline(trailing_newline=False).render() == ""
    assert parse_outline("").render() == ""


def test_repository_markdown_round_trips() -> None:
    files = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    files = [f for f in files if f.is_file()]
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert parse_outline(text, (2, 3)).render() == text, path


def test_shared_texts_round_trip(shared_dir: Path) -> None:
    files = sorted(p for p in shared_dir.rglob("*") if p.suffix in (".md", ".txt") and p.is_file())
    if not files:
        pytest.skip(f"no markdown or text files under {shared_dir}")
    for path in files:
        text = path.read_text(encoding="utf-8")
        for paired in (False, True):
            outline = parse_outline(text, (1, 2, 3), paired_fences=paired)
            assert outline.render() == text, path
    design = parse_outline((shared_dir / "DESIGN.md").read_text(encoding="utf-8"))
    titles = [node.title for node in design.nodes]
    assert titles[0] == "Principles" and "Faces" in titles
    # The layout sketch in a fence keeps its lines inside its section.
    assert any("MEMORY.md" in line for line in design.nodes[1].body)


def test_the_documents_built_on_it_round_trip() -> None:
    from workmem.facts.memory_md import MemoryDoc
    from workmem.files.sections import Document
    from workmem.journal.threads import ThreadsDoc

    rng = random.Random(7)
    for _ in range(2000):
        text = _random_text(rng)
        assert Document.parse(text).render() == text
        assert ThreadsDoc.parse(text).render() == text
        # MEMORY.md is read with its line ends made LF; a lone newline renders empty.
        lf = text.replace("\r\n", "\n").replace("\r", "\n")
        assert MemoryDoc.parse(text).render() == ("" if lf == "\n" else lf)
    memory = MemoryDoc.parse(MEMORY)
    assert [t.title for t in memory.tiers] == ["Active", "Fading", "Maintenance Log"]
    assert [s.title for s in memory.tiers[0].subs] == ["Project", "User"]
    assert memory.render() == MEMORY
