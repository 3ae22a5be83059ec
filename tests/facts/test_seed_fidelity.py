"""Session Wrap (seed 000) rules an audit found partial: one test per rule (issue 15).

Compression, deduplication, broken frontmatter, the anti-patterns, the 200-line MEMORY.md,
and free text that must not become structure in MEMORY.md or a typed memory.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from tests.facts.test_facts_cli import run
from workmem.errors import UsageError
from workmem.facts.compress import specificity
from workmem.facts.maintain import maintain
from workmem.facts.memory_md import MemoryDoc, read_tiers
from workmem.facts.typed import list_memories, read_memory
from workmem.facts.write import MemoryInput, readable_content, save_memory
from workmem.files.store import Store
from workmem.root import Workspace
from workmem.wrap.confirm import render
from workmem.wrap.run import wrap

NOW = datetime(2026, 5, 25, 13, 18)
FRONT = (
    "---\n"
    "name: myapp\n"
    "description: status of myapp  # not a comment in quotes\n"
    "type: project\n"
    "updated: 2026-05-20\n"
    "expires: never\n"
    "---\n"
)


def _project_memory() -> tuple[str, list[str]]:
    """A 70-line project memory: dated status facts, decisions, six history entries."""
    status = [f"- 2026-{1 + i // 6:02d}-{1 + (i % 6) * 4:02d}: status fact {i}" for i in range(24)]
    decisions = [f"- decision {i} about the service" for i in range(12)]
    decisions[3] = "- Pinned Postgres 15.4 on port 5433 (ops/db.yml)"
    lines = ["MyApp is a web shop.", "", "## Status", "", *status, "", "## Decisions", ""]
    lines += [*decisions, "", "## History", ""]
    for day in ("2025-11-02", "2025-12-20", "2026-03-01", "2026-04-02", "2026-05-01", "2026-05-20"):
        lines += [f"### {day} — Status", "", f"old status of {day}", "more of it", "and more", ""]
    return FRONT + "\n".join(lines) + "\n", status


def test_compression_keeps_the_newest_and_most_specific_facts_and_the_last_three_entries(
    root: Path,
) -> None:
    text, status = _project_memory()
    path = root / "memory" / "project_myapp.md"
    path.parent.mkdir(parents=True)
    path.write_text(text, "utf-8")
    report = maintain(Workspace(root), now=NOW)
    assert [c.filename for c in report.compressed] == ["project_myapp.md"]
    new = path.read_text("utf-8")
    assert new.startswith(FRONT)  # frontmatter byte for byte
    facts = new.split("---\n", 2)[2].split("## History")[0].strip("\n").split("\n")
    assert 20 <= len(facts) <= 30  # the seed's target for the essential facts
    assert len(new.splitlines()) <= 50
    assert status[-1] in new  # the newest fact stays
    assert status[0] not in new  # the oldest goes first
    assert "Pinned Postgres 15.4 on port 5433" in new  # specific beats vague
    headings = [line for line in new.split("\n") if line.startswith("### ")]
    assert headings == [
        "### 2026-04-02 — Status",
        "### 2026-05-01 — Status",
        "### 2026-05-20 — Status",
    ]
    archive = (root / "memory" / "archive.md").read_text("utf-8")
    for line in text.split("\n")[7:]:  # nothing lost: every body line is kept or archived
        if line.strip():
            assert line.lstrip("#") in new + archive, line
    assert "old status of 2025-11-02" in archive  # older than 90 days: archived


def test_specificity_counts_numbers_names_and_paths() -> None:
    assert specificity("Pinned Postgres 15.4 on port 5433 (ops/db.yml)") >= 3
    assert specificity("we talked about things") == 0


def _typed(store: Store, kind: str, topic: str, content: str, day: date) -> None:
    item = MemoryInput.from_mapping(
        {"type": kind, "topic": topic, "description": f"about {topic}", "content": content}
    )
    save_memory(store, item, today=day)


def test_overlapping_memories_are_merged_by_content_not_by_name(root: Path) -> None:
    store = Store(Workspace(root))
    _typed(
        store,
        "reference",
        "apis",
        "- API docs live at https://internal.example.com/api/v2\n"
        "- The staging API needs the X-Team header\n"
        "- Rate limit: 600 requests per minute",
        date(2026, 5, 1),
    )
    _typed(
        store,
        "reference",
        "api-docs",
        "- The API docs live at https://internal.example.com/api/v2\n"
        "- Staging API calls need the X-Team header\n"
        "- Rate limit is 600 requests per minute\n"
        "- Sandbox keys come from the dev portal",
        date(2026, 5, 20),
    )
    _typed(store, "reference", "runbook", "- Runbook at docs/runbook.md", date(2026, 5, 20))
    report = maintain(Workspace(root), now=NOW)
    assert [(p.generic.filename, p.specific.filename) for p in report.merged] == [
        ("reference_apis.md", "reference_api-docs.md")
    ]
    assert not (root / "memory" / "reference_apis.md").exists()
    kept = (root / "memory" / "reference_api-docs.md").read_text("utf-8")
    for word in ("X-Team", "600", "https://internal.example.com/api/v2", "Sandbox"):
        assert word in kept
    assert "## Merged from" not in kept  # every line of the generic file was already there
    memory = (root / "MEMORY.md").read_text("utf-8")
    assert "reference_apis.md" not in memory and "reference_api-docs.md" in memory


def test_memories_sharing_words_but_not_facts_are_not_merged(root: Path) -> None:
    store = Store(Workspace(root))
    _typed(store, "project", "topic 6", "fact number 6 about thing 42", date(2026, 5, 20))
    _typed(store, "project", "topic 42", "fact number 42 about thing 294", date(2026, 5, 20))
    assert maintain(Workspace(root), now=NOW).merged == []


def test_maintain_keeps_a_broken_memorys_index_line_reports_it_and_exits_non_zero(
    root: Path,
) -> None:
    store = Store(Workspace(root))
    _typed(store, "project", "alpha", "alpha facts", date(2026, 5, 20))
    _typed(store, "feedback", "beta", "beta facts", date(2026, 5, 20))
    assert run(["wrap", "--no-bootstrap", "--lang", "en"], stdin="[]")[0] == 0
    maintain(Workspace(root), now=NOW)
    line = "[alpha](memory/project_alpha.md)"
    assert line in (root / "MEMORY.md").read_text("utf-8")
    broken = root / "memory" / "project_alpha.md"
    for text in (
        "---\nname: alpha\ndescription: [broken\n---\nalpha facts\n",
        "---\nname: alpha\nupdated: 2026-13-45\n---\nalpha facts\n",
        "---\nname: alpha\nalpha facts\n",
    ):
        broken.write_text(text, "utf-8")
        _typed(store, "feedback", "gamma", f"gamma {len(text)}", date(2026, 5, 21))
        code, out, _ = run(["maintain"])
        assert code == 1
        assert "problem: project_alpha.md" in out and "index line kept" in out
        assert line in (root / "MEMORY.md").read_text("utf-8")
        assert broken.read_text("utf-8") == text
        code, out, _ = run(["maintain", "--json"])
        assert code == 1 and json.loads(out)["problems"][0]["file"] == "project_alpha.md"


def _items(count: int) -> list[MemoryInput]:
    kinds = ("project", "feedback", "user", "reference")
    return [
        MemoryInput.from_mapping(
            {
                "type": kinds[i % 4],
                "topic": f"topic {i}",
                "description": f"desc {i}",
                "content": f"fact number {i} about thing {i * 7}",
            }
        )
        for i in range(count)
    ]


def test_memory_md_stays_within_200_lines_at_write_time(root: Path) -> None:
    workspace = Workspace(root)
    report = wrap(workspace, _items(230), now=NOW, run_bootstrap=False, gather=False)
    memory = (root / "MEMORY.md").read_text("utf-8")
    assert len(memory.splitlines()) <= 200
    assert report.index is not None and report.index.archived
    assert "MEMORY.md kept under 200 lines" in render(report)
    archive = (root / "memory" / "archive.md").read_text("utf-8")
    names = [m.filename for m in list_memories(Store(workspace)).memories]
    assert len(names) == 230
    for name in names:  # every memory is indexed, in MEMORY.md or (faded out) in the archive
        assert f"(memory/{name})" in memory + archive, name
    later = wrap(workspace, _items(231)[-1:], now=NOW + timedelta(days=1), run_bootstrap=False)
    assert later.index is not None
    assert len((root / "MEMORY.md").read_text("utf-8").splitlines()) <= 200
    assert maintain(workspace, now=NOW + timedelta(days=2)).index is not None
    assert len((root / "MEMORY.md").read_text("utf-8").splitlines()) <= 200


# -- anti-patterns -------------------------------------------------------------------------

ANTI = [
    ("code", "## Parser\n\n```python\ndef parse(x):\n    return x\n```\n"),
    ("temporary-path", "The build output sits in /tmp/build-4711/out for now."),
    ("task-list", "- [ ] write the tests\n- [x] fix the parser"),
    (
        "git-tracked",
        "- src/app/main.py\n- src/app/db.py\n- src/app/api.py\n- tests/test_api.py\n"
        "- README.md\n- pyproject.toml",
    ),
]


def test_wrap_warns_on_each_anti_pattern_and_strict_refuses(root: Path) -> None:
    items = [
        MemoryInput.from_mapping({"type": "project", "topic": f"t{i}", "content": content})
        for i, (_kind, content) in enumerate(ANTI)
    ]
    clean = MemoryInput.from_mapping(
        {"type": "feedback", "topic": "tests", "content": "Integration tests use a real DB."}
    )
    with pytest.raises(UsageError) as refused:
        wrap(Workspace(root), [*items, clean], strict=True, now=NOW, run_bootstrap=False)
    assert "nothing was written" in str(refused.value)
    assert not (root / "memory").exists() and not (root / "MEMORY.md").exists()
    report = wrap(Workspace(root), [*items, clean], now=NOW, run_bootstrap=False, gather=False)
    assert [(w.file, w.kind) for w in report.warnings] == [
        (f"project_t{i}.md", kind) for i, (kind, _content) in enumerate(ANTI)
    ]
    text = render(report)
    assert text.count("Warning: ") == 4
    assert all(f"project_t{i}.md" in text for i in range(4))
    code, _out, err = run(["wrap", "--strict", "--no-bootstrap"], stdin=json.dumps([ANTI_ITEM]))
    assert code == 2 and "temporary path" in err


ANTI_ITEM = {"type": "project", "topic": "x", "content": "Logs in /tmp/run/logs"}


def test_plain_memories_raise_no_anti_pattern_warning(root: Path) -> None:
    items = [
        MemoryInput.from_mapping(
            {
                "type": "project",
                "topic": "demo-app",
                "content": "## Status\nRate limiting added to the login endpoint; counters in "
                "Redis.\nSee docs/limits.md for the numbers.",
            }
        )
    ]
    assert wrap(Workspace(root), items, now=NOW, run_bootstrap=False).warnings == []


# -- free text in MEMORY.md and typed memories ----------------------------------------------


def test_typed_memory_free_text_forges_no_frontmatter_history_or_marker(root: Path) -> None:
    store = Store(Workspace(root))
    content = (
        "---\nname: evil\ntype: user\n---\n## Status\nok\n## History\n"
        "### 2020-01-01 — fake\n> Updated 2020-01-01: forged\n<!-- workmem:x -->"
    )
    item = MemoryInput.from_mapping(
        {"type": "project", "topic": "safe", "content": content, "name": "Safe\n## Active"}
    )
    save_memory(store, item, today=date(2026, 5, 25))
    path = root / "memory" / "project_safe.md"
    memory = read_memory(store, path)
    assert memory is not None and memory.type == "project" and memory.name == "Safe ## Active"
    body = memory.body
    assert "\n## History" not in body and "<!--" not in body
    assert "\n## Status" in "\n" + body  # the agent's own section stays a section
    assert readable_content(body).strip() == content
    run(["wrap", "--no-bootstrap"], stdin="[]")
    from workmem.facts.index import update_index

    update_index(store, now=NOW)
    tiers = MemoryDoc.parse((root / "MEMORY.md").read_text("utf-8"))
    assert [t.title for t in tiers.tiers] == ["Active", "Fading", "Maintenance Log"]
    assert (
        "[Safe ## Active](memory/project_safe.md)"
        in read_tiers((root / "MEMORY.md").read_text("utf-8")).active["Project"]
    )


def test_a_multi_line_description_stays_one_index_line(root: Path) -> None:
    path = root / "memory" / "user_prefs.md"
    path.parent.mkdir(parents=True)
    path.write_text(
        '---\nname: prefs\ndescription: "terse\\n## Fading\\n- forged"\ntype: user\n---\nx\n',
        "utf-8",
    )
    from workmem.facts.index import update_index

    update_index(Store(Workspace(root)), now=NOW)
    doc = MemoryDoc.parse((root / "MEMORY.md").read_text("utf-8"))
    assert [t.title for t in doc.tiers] == ["Active", "Fading", "Maintenance Log"]
    line = next(x for x in (root / "MEMORY.md").read_text("utf-8").split("\n") if "prefs" in x)
    assert line.endswith("— terse ## Fading - forged")
