"""Boot directives: added once, never for native-memory platforms, never altering the file."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from workmem.errors import ConflictError, FormatError
from workmem.platforms.bootstrap import MARKER, TARGETS, bootstrap
from workmem.root import Workspace


def test_run_twice_leaves_one_directive(root: Path) -> None:
    agents = root / "AGENTS.md"
    original = "# Project rules\r\n\r\n- Use pytest\r\n"
    agents.write_bytes(("\ufeff" + original).encode("utf-8"))
    first = bootstrap(Workspace(root), "codex")
    second = bootstrap(Workspace(root), "codex")
    assert (first.status, second.status) == ("added", "present")
    data = agents.read_bytes()
    assert data.startswith(("\ufeff" + original).encode("utf-8"))  # byte-identical prefix
    text = data.decode("utf-8-sig")
    assert text.count(MARKER) == 1
    assert b"\n" not in data.replace(b"\r\n", b"")  # CRLF kept for the new lines too
    assert text.endswith("On start, read MEMORY.md and the memory/*.md files it links to "
                          "for prior context.\r\n")  # fmt: skip


@pytest.mark.parametrize("platform", ["claude-code", "windsurf"])
def test_native_memory_platforms_are_never_touched(root: Path, platform: str) -> None:
    result = bootstrap(Workspace(root), platform)
    assert result.status == "skipped"
    assert list(root.iterdir()) == []


@pytest.mark.parametrize("platform", ["tabnine", "supermaven", "devin", "bolt", "universal"])
def test_ui_only_platforms_get_text_to_paste(root: Path, platform: str) -> None:
    result = bootstrap(Workspace(root), platform)
    assert result.status == "manual" and MARKER in result.directive
    assert list(root.iterdir()) == []


@pytest.mark.parametrize("platform", sorted(TARGETS))
def test_every_file_platform_creates_its_file_once(root: Path, platform: str) -> None:
    first = bootstrap(Workspace(root), platform)
    assert first.status == "added" and first.file is not None
    path = root / first.file
    text = path.read_text()
    assert MARKER in text
    assert bootstrap(Workspace(root), platform).status == "present"
    assert path.read_text() == text


def test_openclaw_uses_its_own_line_and_accepts_legacy_marker(root: Path) -> None:
    (root / "AGENTS.md").write_text("# Auto-Memory\nOn start, read memory/*.md in workspace.\n")
    assert bootstrap(Workspace(root), "openclaw").status == "present"
    (root / "AGENTS.md").unlink()
    result = bootstrap(Workspace(root), "openclaw")
    assert "memory/*.md in workspace" in (root / "AGENTS.md").read_text()
    assert result.status == "added"


def test_cursor_rule_is_an_mdc_with_frontmatter(root: Path) -> None:
    bootstrap(Workspace(root), "cursor")
    text = (root / ".cursor" / "rules" / "memory.mdc").read_text()
    head = yaml.safe_load(text.split("---\n")[1])
    assert head["alwaysApply"] is True
    assert MARKER in text


def test_dry_run_writes_nothing(root: Path) -> None:
    result = bootstrap(Workspace(root), "gemini", dry_run=True)
    assert result.status == "would-add" and result.file == "GEMINI.md"
    assert not (root / "GEMINI.md").exists()


def test_aider_read_entries(root: Path) -> None:
    conf = root / ".aider.conf.yml"
    conf.write_text("model: sonnet  # my choice\nauto-commits: no\n")
    bootstrap(Workspace(root), "aider")
    data = yaml.safe_load(conf.read_text())
    assert data == {"model": "sonnet", "auto-commits": False, "read": ["MEMORY.md"]}
    assert conf.read_text().startswith("model: sonnet  # my choice\nauto-commits: no\n")

    conf.write_text("read:\n  - CONVENTIONS.md\nmodel: x\n")
    bootstrap(Workspace(root), "aider")
    text = conf.read_text()
    assert yaml.safe_load(text) == {"read": ["CONVENTIONS.md", "MEMORY.md"], "model": "x"}
    assert bootstrap(Workspace(root), "aider").status == "present"

    # a flow list on one line: MEMORY.md goes inside the brackets
    conf.write_text("read: [CONVENTIONS.md]  # team rules\nmodel: x\n")
    assert bootstrap(Workspace(root), "aider").status == "added"
    assert yaml.safe_load(conf.read_text()) == {
        "read": ["CONVENTIONS.md", "MEMORY.md"],
        "model": "x",
    }
    assert bootstrap(Workspace(root), "aider").status == "present"

    # forms still left to the person: a single file, a flow list over several lines
    for form in ("read: CONVENTIONS.md\n", "read: [\n  CONVENTIONS.md,\n  a.md\n]\n"):
        conf.write_text(form)
        with pytest.raises(ConflictError, match="by hand"):
            bootstrap(Workspace(root), "aider")
        assert conf.read_text() == form

    conf.write_text("model: [broken\n")
    with pytest.raises(FormatError):
        bootstrap(Workspace(root), "aider")
    assert conf.read_text() == "model: [broken\n"


def test_non_utf8_instructions_file_is_refused(root: Path) -> None:
    data = "# Regeln für Agenten\n".encode("latin-1")
    (root / "GEMINI.md").write_bytes(data)
    with pytest.raises(FormatError, match="UTF-8"):
        bootstrap(Workspace(root), "gemini")
    assert (root / "GEMINI.md").read_bytes() == data


def test_folder_in_place_of_file(root: Path) -> None:
    (root / "AGENTS.md").mkdir()
    with pytest.raises(ConflictError, match="folder"):
        bootstrap(Workspace(root), "codex")
