"""Taking the boot directive out again: byte for byte what was there before, or no file."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.errors import FormatError
from workmem.platforms.bootstrap import MARKER, TARGETS, bootstrap, remove_directive
from workmem.root import Workspace

#: What a user might already keep in each kind of instructions file.
BEFORE = {
    "append": "# Team rules\n\n- Write tests first.\n",
    "cursor": "---\ndescription: house style\nalwaysApply: true\n---\nUse tabs.\n",
    "aider": "model: gpt-4o\nread:\n  - CONVENTIONS.md\nauto-commits: false\n",
}


@pytest.mark.parametrize("platform", sorted(TARGETS))
def test_removal_restores_the_users_file(root: Path, platform: str) -> None:
    name, kind = TARGETS[platform]
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(BEFORE[kind])
    before = path.read_bytes()
    assert bootstrap(Workspace(root), platform).status == "added"
    assert MARKER in path.read_text()
    assert remove_directive(Workspace(root), platform, dry_run=True).status == "would-remove"
    assert MARKER in path.read_text()  # a dry run leaves it
    assert remove_directive(Workspace(root), platform).status == "removed"
    assert path.read_bytes() == before
    assert remove_directive(Workspace(root), platform).status == "absent"


@pytest.mark.parametrize("platform", sorted(TARGETS))
def test_a_file_that_held_only_the_directive_is_deleted(root: Path, platform: str) -> None:
    name, _ = TARGETS[platform]
    assert bootstrap(Workspace(root), platform).status == "added"
    assert remove_directive(Workspace(root), platform).status == "removed"
    assert not (root / name).exists()


@pytest.mark.parametrize(
    "before",
    [
        "model: gpt-4o\nread: [CONVENTIONS.md]\n",
        'read:  [a.md, "b c.md" ]  # team rules\nauto-commits: false\n',
        "read: []\n",
        "read: [ ]",
    ],
)
def test_aiders_flow_list_gets_the_entry_and_gives_it_back(root: Path, before: str) -> None:
    conf = root / ".aider.conf.yml"
    conf.write_text(before)
    assert bootstrap(Workspace(root), "aider").status == "added"
    assert MARKER in conf.read_text()
    assert remove_directive(Workspace(root), "aider").status == "removed"
    assert conf.read_text() == before


def test_crlf_and_bom_survive_the_round_trip(root: Path) -> None:
    agents = root / "AGENTS.md"
    original = "\ufeff# Rules\r\n\r\n- Use pytest\r\n".encode()
    agents.write_bytes(original)
    bootstrap(Workspace(root), "codex")
    assert b"\r\n# Auto-Memory (session-wrap)\r\n" in agents.read_bytes()
    remove_directive(Workspace(root), "codex")
    assert agents.read_bytes() == original


def test_a_directive_edited_by_hand_is_left_to_the_person(root: Path) -> None:
    agents = root / "AGENTS.md"
    bootstrap(Workspace(root), "codex")
    edited = agents.read_text().replace("for prior context.", "before anything else.")
    agents.write_text(edited)
    result = remove_directive(Workspace(root), "codex")
    assert result.status == "manual" and "remove it by hand" in result.reason
    assert agents.read_text() == edited


def test_a_shared_file_keeps_the_other_agents_directive(root: Path) -> None:
    """Codex and OpenClaw both read AGENTS.md: removing one leaves the other."""
    bootstrap(Workspace(root), "codex")
    assert remove_directive(Workspace(root), "openclaw").status == "absent"
    assert MARKER in (root / "AGENTS.md").read_text()


def test_unreadable_instructions_are_reported_not_rewritten(root: Path) -> None:
    agents = root / "AGENTS.md"
    agents.write_bytes(b"# Regeln f\xfcr das Team\n" + MARKER.encode() + b"\n")  # Latin-1
    with pytest.raises(FormatError, match=r"AGENTS\.md"):
        remove_directive(Workspace(root), "codex")
    assert agents.read_bytes().startswith(b"# Regeln f\xfcr")
