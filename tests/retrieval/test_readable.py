"""Snippets as plain words: markup undone, workmem's markers gone, escapes shown as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.files.freetext import neutralize_block, neutralize_line
from workmem.retrieval.analyze import snippet
from workmem.retrieval.readable import readable
from workmem.retrieval.search import get, search
from workmem.root import Workspace

MARKER = "<!-- workmem:session-end token=578a4ed686708d64 key=default -->"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (f"{MARKER}\n**Summary:** Compared databases.", "Summary: Compared databases."),
        ("## Decisions\n- Use JWT\n- Limit by IP", "Decisions · Use JWT · Limit by IP"),
        ("### Title ###", "Title"),
        ("> Next I wire the *FTS5* index.", "Next I wire the FTS5 index."),
        ("See [the guide](https://example.com/a_b) and ![logo](x.png)", "See the guide and logo"),
        ("Run `make test` then **ship** ~~it~~ *now*", "Run make test then ship it now"),
        ("1. first\n2) second\n- [x] done", "first · second · done"),
        ("| a | b \\| c |\n|---|---|\n| 登入 | 限流<br>五次 |", "a · b | c · 登入 · 限流 五次"),
        ("---\ntitle: x\n---\nbody", "title: x body"),
        ("```python\nprint(1)\n```", "print(1)"),
        ("a paragraph\nthat goes on", "a paragraph that goes on"),
    ],
)
def test_markup_becomes_plain_words(text: str, shown: str) -> None:
    assert readable(text) == shown


@pytest.mark.parametrize(
    "text",
    [
        "snake_case_name and __init__ stay",
        "_private_ and __dunder__ names",
        "2 * 3 * 4 = 24",
        "an **unclosed mark stays",
        "C# and F# are languages",
        "a | b in prose is not a table",
        "今天收工了，明天繼續做排序。",
        "price_list_v2 *",
    ],
)
def test_text_that_only_looks_like_markup_is_kept(text: str) -> None:
    assert readable(text) == text


def test_escapes_workmem_wrote_are_shown_as_written() -> None:
    """Free text goes into files escaped (``\\##``, ``<\\!--``); a person reads it unescaped,
    and an escaped marker stays text, while a real one is dropped."""
    written = neutralize_block("## Summary\n---\nkeep <!-- this --> as text")
    assert written != "## Summary\n---\nkeep <!-- this --> as text"  # it was escaped
    assert readable(written) == "## Summary --- keep <!-- this --> as text"
    assert readable(neutralize_line("## Topic | with pipe")) == "## Topic | with pipe"
    assert readable(f"{MARKER}\n{written}") == "## Summary --- keep <!-- this --> as text"


def test_a_marker_is_dropped_even_where_the_snippet_window_would_cut_it() -> None:
    text = (
        "x " * 200 + "\n<!-- workmem:resumption session=1 ended=2026-05-25 13:18 -->\nNext I wire"
    )
    cut = snippet(text, ["wire"], width=60)
    assert "Next I wire" in cut
    assert "-->" not in cut and "workmem:" not in cut and "session=1" not in cut


def test_an_unclosed_comment_keeps_the_rest_of_the_text() -> None:
    assert readable("before <!-- never closed\nafter") == "before <!-- never closed after"


def test_lines_of_unmatched_marks_are_kept_whole() -> None:
    """A pasted log full of marks that never close: every character kept (and each mark
    costs a bounded scan), and no comment opener eats the rest of the text."""
    marks = "**a " * 2000 + "~~b " * 2000 + "[c](" * 500
    assert readable(marks) == marks.strip()
    comments = "<!-- a --> " * 5000 + "<!-- tail"
    assert readable(comments) == "<!-- tail"


def test_search_and_get_show_the_same_chunk_two_ways(root: Path) -> None:
    """``search`` snippets are readable; ``get`` still returns the file's own text."""
    (root / "memory").mkdir()
    (root / "memory" / "2026-05-25.md").write_text(
        "# 2026-05-25\n\n### Session 1 · 13:18 · cursor-main-agent\n\n"
        f"{MARKER}\n**Summary:** Compared databases; the quokka benchmark won.\n",
        encoding="utf-8",
    )
    ws = Workspace(root)
    (hit,) = search(ws, "quokka", k=1, embedder="none")
    assert hit.snippet == "Summary: Compared databases; the quokka benchmark won."
    whole = get(ws, hit.id)
    assert MARKER in whole.text and "**Summary:**" in whole.text
