"""MEMORY.md model: scaffold, tier detection, wrapping legacy files, lossless parsing."""

from __future__ import annotations

import pytest

from workmem.facts.memory_md import (
    MAX_LINES,
    SUBSECTIONS,
    MemoryDoc,
    check_nothing_lost,
    ensure_tiers,
    has_tiers,
    read_tiers,
    scaffold_text,
)

LEGACY = """# MEMORY.md — Long-term memory

Things I learned about Alice.

## About Alice

- Prefers terse answers
- Uses vim

## About This Project

- The API is versioned under /v2
  (decided 2026-03-02)

### Deep detail

Some prose.
"""


def test_scaffold_has_tiers_in_order() -> None:
    text = scaffold_text("MyBot", "Alice")
    assert has_tiers(text)
    heads = [line for line in text.splitlines() if line.startswith("#")]
    assert heads == [
        "# Long-term memory of MyBot",
        "## Active",
        "### Project",
        "### Feedback",
        "### User",
        "### Reference",
        "## Fading",
        "## Maintenance Log",
    ]
    assert "Alice" in text
    assert len(text.splitlines()) < MAX_LINES
    tiers = read_tiers(text)
    assert list(tiers.active) == list(SUBSECTIONS)
    assert all(body == "" for body in tiers.active.values())
    assert tiers.fading == "" and tiers.maintenance_log == ""


def test_scaffold_without_names() -> None:
    text = scaffold_text()
    assert text.startswith("# Long-term memory\n")
    assert ensure_tiers(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "no newline at end",
        LEGACY,
        "```\n## not a heading\n```\n## Real\nx\n",
        "\n\n## A\n### B\n#### C\n\n",
        scaffold_text("a", "b"),
    ],
)
def test_parse_render_round_trip(text: str) -> None:
    assert MemoryDoc.parse(text).render() == text


def test_has_tiers_needs_active_and_fading() -> None:
    assert not has_tiers(LEGACY)
    assert not has_tiers("## Active\n- x\n")
    assert has_tiers("## active\n- x\n## FADING\n")


def test_ensure_tiers_wraps_legacy_under_active() -> None:
    result = ensure_tiers(LEGACY)
    assert has_tiers(result)
    assert result.startswith("# MEMORY.md — Long-term memory\n\n## Active\n")
    assert "### About Alice" in result
    assert "#### Deep detail" in result
    # Nothing lost: every content line is still there.
    assert check_nothing_lost(LEGACY, result) == []
    tiers = read_tiers(result)
    assert "- Prefers terse answers" in tiers.active["About Alice"]
    assert "(decided 2026-03-02)" in tiers.active["About This Project"]
    assert "Things I learned about Alice." in tiers.active_intro
    assert set(SUBSECTIONS) <= set(tiers.active)
    # Idempotent.
    assert ensure_tiers(result) == result


def test_ensure_tiers_adds_only_missing_parts() -> None:
    text = "# M\n\n## Active\n\n### Project\n\n- v2 shipped\n\n## Notes\n\nkeep me\n"
    result = ensure_tiers(text)
    doc = MemoryDoc.parse(result)
    assert [t.title for t in doc.tiers] == ["Active", "Notes", "Fading", "Maintenance Log"]
    active = doc.tier("Active")
    assert active is not None
    assert [s.title for s in active.subs] == list(SUBSECTIONS)
    assert "- v2 shipped" in active.subs[0].body
    assert "keep me" in result
    assert check_nothing_lost(text, result) == []


def test_ensure_tiers_keeps_existing_fading_and_log() -> None:
    text = "- loose fact\n\n## Fading\n\n- old fact\n\n## Maintenance Log\n\n- 2026-01-01 review\n"
    result = ensure_tiers(text)
    tiers = read_tiers(result)
    assert "- loose fact" in tiers.active_intro
    assert tiers.fading == "- old fact"
    assert tiers.maintenance_log == "- 2026-01-01 review"
    assert result.index("## Active") < result.index("## Fading") < result.index("## Maint")


def test_ensure_tiers_of_empty_is_scaffold() -> None:
    assert ensure_tiers("  \n") == scaffold_text()


def test_ensure_tiers_crlf_input_is_normalised() -> None:
    result = ensure_tiers("## About\r\n- a\r\n")
    assert "\r" not in result
    assert "### About\n- a" in result


def test_headings_inside_fences_are_content() -> None:
    text = "## Active\n\n```md\n## Fading\n```\n"
    assert not has_tiers(text)
    result = ensure_tiers(text)
    assert result.count("## Fading") == 2  # the fenced one and the real tier
    assert read_tiers(result).active_intro == "```md\n## Fading\n```"


def test_read_tiers_of_legacy_does_not_need_a_write() -> None:
    tiers = read_tiers("- just a line\n")
    assert tiers.active_intro == "- just a line"
    assert tiers.fading == ""


def test_check_nothing_lost_reports_missing_lines() -> None:
    assert check_nothing_lost("## A\n- x\n- y\n", "## A\n- x\n") == ["- y"]
    assert check_nothing_lost("## A\n- x\n", "### A\n\n- x\n") == []
