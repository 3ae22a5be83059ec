"""The viewer's markdown renderer: what memory files use becomes HTML, and nothing a file
holds becomes markup of its own (every tag and attribute on the page is the renderer's)."""

from __future__ import annotations

from html.parser import HTMLParser

from workmem.web.markdown import render, safe_url

from .util import ATTACKS, HOSTILE_BLOCK

#: every element and attribute the renderer may write; anything else came from a file
TAGS = {
    "p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "strong", "em", "del",
    "code", "pre", "blockquote", "hr", "table", "thead", "tbody", "tr", "th", "td", "a",
    "input",
}  # fmt: skip
ATTRIBUTES = {"a": {"href", "rel"}, "input": {"type", "disabled", "checked"}, "code": {"data-lang"}}


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def elements(markup: str) -> tuple[list[tuple[str, dict[str, str | None]]], str]:
    parser = _Elements()
    parser.feed(markup)
    parser.close()
    return parser.tags, "".join(parser.text)


def only_the_renderers(markup: str) -> str:
    """Check every tag and attribute is the renderer's and every link safe; the text."""
    tags, text = elements(markup)
    for tag, attrs in tags:
        assert tag in TAGS, (tag, markup)
        assert set(attrs) <= ATTRIBUTES.get(tag, set()), (tag, attrs)
        if tag == "a":
            href = str(attrs["href"])
            assert href.startswith(("http://", "https://", "mailto:", "/")), href
    return text


def test_what_memory_files_use() -> None:
    doc = (
        "# Session: abc\n\n## Decisions\n\n- Use **SQLite**, not *Postgres*\n"
        "- keep `snake_case_names` and file_names_like_this.py as they are\n"
        "  - nested ~~old~~ item\n- [x] done box\n- [ ] open box\n\n"
        "1. first\n2. second\n\n| Field | Value |\n|---|---|\n| Topic | A \\| B |\n\n"
        "> I was working on it.\n> Pick up from there.\n\n---\n\n"
        "```python\nprint('<hi>')\n```\n\nSee [the RFC](https://example.org/rfc) or <https://x.org>."
    )
    html = render(doc)
    assert "<h1>Session: abc</h1>" in html and "<h2>Decisions</h2>" in html
    assert "<strong>SQLite</strong>" in html and "<em>Postgres</em>" in html
    assert "<code>snake_case_names</code>" in html and "file_names_like_this.py" in html
    assert "<ul><li>nested <del>old</del> item</li></ul>" in html
    assert '<input type="checkbox" disabled checked> done box' in html
    assert '<input type="checkbox" disabled> open box' in html
    assert "<ol><li>first</li><li>second</li></ol>" in html
    assert "<td>Topic</td><td>A | B</td>" in html
    assert "<blockquote><p>I was working on it.\nPick up from there.</p></blockquote>" in html
    assert "<hr>" in html
    assert '<pre><code data-lang="python">print(&#x27;&lt;hi&gt;&#x27;)</code></pre>' in html
    assert (
        '<a href="https://example.org/rfc" rel="noopener noreferrer nofollow">the RFC</a>' in html
    )
    assert '<a href="https://x.org"' in html
    only_the_renderers(html)


def test_escapes_workmem_writes_read_as_written() -> None:
    # free text workmem escaped on its way into a file: a heading, a rule, a comment
    html = render("\\## Draft\n\\---\n<\\!-- not a comment -->\n<!-- workmem:session-end x -->")
    text = only_the_renderers(html)
    assert "## Draft" in text and "---" in text and "<!-- not a comment -->" in text
    assert "workmem:session-end" not in text  # workmem's own marker is bookkeeping
    assert "<h2>" not in html and "<hr>" not in html


def test_no_markup_of_a_file_passes() -> None:
    for label, payload in ATTACKS.items():
        for doc in (payload, f"- {payload}", f"# {payload}", f"| a |\n|---|\n| {payload} |"):
            text = only_the_renderers(render(doc))
            assert payload in text, (label, doc)  # shown whole, as the text it is
    text = only_the_renderers(render(HOSTILE_BLOCK))
    assert "pwned('script')" in text


def test_links_go_to_safe_places_only() -> None:
    unsafe = [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "&#106;avascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "//evil.example/x",
        "memory/project_x.md",
    ]
    for address in unsafe:
        assert safe_url(address) is None, address
        html = render(f"[open]({address}) and ![pic]({address})")
        tags, text = elements(html)
        assert not any(tag == "a" for tag, _ in tags), address
        assert f"[open]({address.strip()})" in text or "[open](" in text
    for address in ("https://example.org/a?b=1&c=2", "http://x.org", "mailto:me@example.org"):
        html = render(f"[ok]({address})")
        assert only_the_renderers(html) == "ok"
    # an attribute cannot be closed from inside an address
    html = render('[x](https://e.org/"onmouseover="alert(1))')
    tags, _ = elements(html)
    anchor = next(attrs for tag, attrs in tags if tag == "a")
    assert anchor["href"] == 'https://e.org/"onmouseover="alert(1'


def test_relative_links_lead_to_viewer_pages_when_told_how() -> None:
    def local(address: str) -> str | None:
        return "/memory/project_x" if address == "memory/project_x.md" else None

    html = render("- [x](memory/project_x.md) and [y](memory/other.md)", local=local)
    assert '<a href="/memory/project_x">x</a>' in html
    assert "[y](memory/other.md)" in html
    assert "/memory/project_x" not in render("[x](memory/project_x.md)")  # not told: text


def test_hostile_shapes_cost_what_their_size_says() -> None:
    # shapes that make naive parsers backtrack or recurse: each renders, escaped
    for doc in (
        "*" * 20_000,
        "_a" * 10_000,
        "[" * 10_000 + "x" + "](" * 5_000,
        "> " * 2_000 + "deep",
        "- " * 2_000 + "deep",
        "`" * 10_001,
        "|" + "-|" * 5_000 + "\n" + "|a" * 5_000,
        "#" * 10_000 + " x",
        "**a " * 5_000,
        "<http" * 5_000,
        "[a](" * 5_000,
        "a`" * 10_000,
    ):
        only_the_renderers(render(doc))
