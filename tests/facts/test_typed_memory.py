"""Typed memory files: naming, frontmatter as text, update over create, bad input."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from workmem.errors import FormatError, UsageError
from workmem.facts.frontmatter import scalar, set_fields, split
from workmem.facts.typed import list_memories, slug_topic, typed_filename
from workmem.facts.write import MemoryInput, absolute_dates, save_memory
from workmem.files.store import Store
from workmem.root import Workspace

TODAY = date(2026, 5, 25)

ODD_FRONTMATTER = """---
# Written by hand; keep this comment.
name: 'My App'   # quoted with single quotes
description: "v2 status"
type: project
updated: 2026-05-01
expires: 2026-07-01
platform: codex
answer: no
version: 1.10
zip: 0123
owners:
  - alice
  - bob
---
## Status

v2 in progress.
"""


def _store(root: Path) -> Store:
    return Store(Workspace(root))


def _item(**kw: str) -> MemoryInput:
    data = {"type": "project", "topic": "myapp", "description": "d", "content": "c"}
    data.update(kw)
    return MemoryInput.from_mapping(data)


def test_file_names_and_topics() -> None:
    assert typed_filename("project", "My App") == "project_my-app.md"
    assert typed_filename("Feedback", "testing") == "feedback_testing.md"
    assert slug_topic("測試 流程") == "測試-流程"
    for bad in ("../etc/passwd", "a/b", "..", "x\\y", "", "  ", "!!!"):
        with pytest.raises(UsageError):
            slug_topic(bad)
    with pytest.raises(UsageError, match="type must be one of"):
        typed_filename("secret", "x")


def test_create_writes_seed_frontmatter(root: Path) -> None:
    store = _store(root)
    result = save_memory(
        store,
        _item(topic="My App", description="v2.1 released", content="Auth refactor today."),
        today=TODAY,
        platform="codex",
    )
    assert result.action == "created"
    text = (root / "memory" / "project_my-app.md").read_text()
    assert text == (
        "---\nname: My App\ndescription: v2.1 released\ntype: project\nupdated: 2026-05-25\n"
        "expires: 2026-06-24\nplatform: codex\n---\nAuth refactor 2026-05-25.\n"
    )
    assert result.absolute_dates == 1
    front = split(text)
    assert front is not None and front.data["type"] == "project"


def test_default_expiry_per_type(root: Path) -> None:
    store = _store(root)
    for kind, expected in (
        ("project", "2026-06-24"),
        ("reference", "2026-08-23"),
        ("feedback", "never"),
        ("user", "never"),
    ):
        save_memory(store, _item(type=kind, topic="t"), today=TODAY)
        front = split((root / "memory" / f"{kind}_t.md").read_text())
        assert front is not None and str(front.data["expires"]) == expected


def test_update_over_create(root: Path) -> None:
    store = _store(root)
    save_memory(store, _item(content="## Status\n\nv1"), today=date(2026, 5, 1))
    result = save_memory(
        store,
        _item(content="## Status\n\nv2", reason="checked git tags"),
        today=TODAY,
    )
    assert result.action == "updated"
    files = sorted(p.name for p in (root / "memory").glob("project_*.md"))
    assert files == ["project_myapp.md"]
    text = (root / "memory" / "project_myapp.md").read_text()
    assert "> Updated 2026-05-25: checked git tags\n\n## Status\n\nv2\n" in text
    assert "## History\n\n### 2026-05-25 — Status\n\nv1\n" in text
    assert "updated: 2026-05-25" in text
    assert "expires: 2026-06-24" in text  # default expiry moves with updated
    # Same content again: nothing to do.
    again = save_memory(store, _item(content="## Status\n\nv2"), today=TODAY)
    assert again.action == "unchanged"
    assert (root / "memory" / "project_myapp.md").read_text() == text


def test_update_keeps_odd_frontmatter_byte_identical(root: Path) -> None:
    path = root / "memory" / "project_my-app.md"
    path.parent.mkdir()
    path.write_text(ODD_FRONTMATTER)
    store = _store(root)
    result = save_memory(
        store,
        MemoryInput.from_mapping(
            {
                "type": "project",
                "topic": "My App",
                "description": "v2 status",
                "content": "## Status\n\nv2 shipped.",
            }
        ),
        today=TODAY,
    )
    assert result.action == "updated"
    text = path.read_text()
    old_head = ODD_FRONTMATTER.split("---\n")[1]
    new_head = text.split("---\n")[1]
    # Only `updated` changed (custom expiry kept); every other line is identical.
    diff = [
        (a, b) for a, b in zip(old_head.split("\n"), new_head.split("\n"), strict=True) if a != b
    ]
    assert diff == [("updated: 2026-05-01", "updated: 2026-05-25")]
    data = yaml.safe_load(new_head)
    assert data["answer"] is False and data["owners"] == ["alice", "bob"]


def test_broken_frontmatter_is_refused_untouched(root: Path) -> None:
    path = root / "memory" / "project_myapp.md"
    path.parent.mkdir()
    broken = "---\nname: [unclosed\ntype: project\n---\nbody\n"
    path.write_text(broken)
    with pytest.raises(FormatError, match=r"project_myapp.md:\d+: frontmatter is not valid YAML"):
        save_memory(_store(root), _item(), today=TODAY)
    assert path.read_text() == broken
    unclosed = "---\nname: x\nbody without end\n"
    path.write_text(unclosed)
    with pytest.raises(FormatError, match="never closed"):
        save_memory(_store(root), _item(), today=TODAY)
    assert path.read_text() == unclosed
    path.write_text("---\n- a list\n---\nbody\n")
    with pytest.raises(FormatError, match="mapping"):
        save_memory(_store(root), _item(), today=TODAY)


def test_type_mismatch_and_missing_frontmatter(root: Path) -> None:
    path = root / "memory" / "project_myapp.md"
    path.parent.mkdir()
    path.write_text("---\ntype: user\n---\nx\n")
    with pytest.raises(FormatError, match="file name says 'project'"):
        save_memory(_store(root), _item(), today=TODAY)
    path.write_text("no frontmatter here\n")
    with pytest.raises(FormatError, match="no frontmatter"):
        save_memory(_store(root), _item(), today=TODAY)
    assert path.read_text() == "no frontmatter here\n"


def test_non_utf8_memory_file_is_refused(root: Path) -> None:
    path = root / "memory" / "project_myapp.md"
    path.parent.mkdir()
    data = b"---\nname: caf\xe9\n---\nx\n"
    path.write_bytes(data)
    with pytest.raises(FormatError, match="UTF-8"):
        save_memory(_store(root), _item(), today=TODAY)
    assert path.read_bytes() == data


def test_crlf_bom_file_updated_in_its_own_style(root: Path) -> None:
    path = root / "memory" / "user_style.md"
    path.parent.mkdir()
    original = "\ufeff---\r\nname: style\r\ntype: user\r\nupdated: 2026-01-01\r\n---\r\nterse\r\n"
    path.write_bytes(original.encode("utf-8"))
    save_memory(_store(root), _item(type="user", topic="style", content="uses vim"), today=TODAY)
    data = path.read_bytes()
    assert data.startswith("\ufeff---\r\n".encode())
    assert b"\n" not in data.replace(b"\r\n", b"")
    text = data.decode("utf-8-sig").replace("\r\n", "\n")
    assert "terse" in text and "uses vim" in text


def test_secrets_are_redacted_and_counted(root: Path) -> None:
    key = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4"
    result = save_memory(
        _store(root),
        _item(type="reference", topic="apis", content=f"OpenAI key is {key} for staging"),
        today=TODAY,
    )
    assert result.redactions >= 1
    text = (root / "memory" / "reference_apis.md").read_text()
    assert key not in text and "[REDACTED" in text


def test_input_validation() -> None:
    with pytest.raises(UsageError, match="topic is required"):
        MemoryInput.from_mapping({"type": "user", "topic": " ", "content": "x"})
    with pytest.raises(UsageError, match="unknown field"):
        MemoryInput.from_mapping({"type": "user", "topic": "t", "content": "x", "bogus": 1})
    with pytest.raises(UsageError, match="expires"):
        MemoryInput.from_mapping({"type": "user", "topic": "t", "content": "x", "expires": "soon"})
    with pytest.raises(UsageError, match="must be text"):
        MemoryInput.from_mapping({"type": "user", "topic": ["a"], "content": "x"})


def test_listing_reports_unreadable_files(root: Path) -> None:
    store = _store(root)
    save_memory(store, _item(), today=TODAY)
    (root / "memory" / "user_bad.md").write_text("---\n: : :\n---\n")
    (root / "memory" / "notes.md").write_text("not typed")
    listing = list_memories(store)
    assert [m.filename for m in listing.memories] == ["project_myapp.md"]
    assert [name for name, _ in listing.problems] == ["user_bad.md"]


def test_set_fields_is_text_surgery() -> None:
    raw = "a: 1  # one\nb: |\n  multi\n  line\nc: x\n"
    out = set_fields(raw, {"b": "single", "d": "new: value"})
    assert out == 'a: 1  # one\nb: single\nc: x\nd: "new: value"\n'
    assert set_fields(raw, {"a": "2"}) == 'a: "2"  # one\nb: |\n  multi\n  line\nc: x\n'
    for value in ("yes", "no", "1.10", "0123", "null", "- x", "a: b", "#x", "ok"):
        assert yaml.safe_load(f"k: {scalar(value)}")["k"] == value


def test_absolute_dates() -> None:
    text, n = absolute_dates("Shipped today, tested yesterday; 今天收工，昨天開始", TODAY)
    assert text == "Shipped 2026-05-25, tested 2026-05-24; 2026-05-25收工，2026-05-24開始"
    assert n == 4
