"""The choke point: every write of a memory file through ``Store`` is redacted, nothing else.

Real files in a temporary root; the board's own workflow is used where its verification
must keep passing. What is checked: which files count as memory, that only the lines a
write adds are redacted (old lines stay byte for byte, and the work done does not grow
with the file), parent keys above a change, CRLF/BOM, unreadable old files, JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.files.store import Store
from workmem.files.tables import TableDocument
from workmem.redact import engine, redact, redact_write, stored_cell
from workmem.root import Workspace

GITHUB = "ghp_iS2G8NPRVdD53X83RZJzzzzgEOzdmenCkhvM"
MARKED = "[REDACTED:github-token]"


def _write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    Store(Workspace(root)).update(path, lambda _old: text)
    return path


@pytest.mark.parametrize(
    "rel",
    [
        "MEMORY.md",
        "HEARTBEAT.md",
        "memory/index.md",
        "memory/sessions/2026-05-25-1318-a.md",
        "memory/2026-05-25.md",
        "memory/archive/s1/session.md",
        "memory/state.json",
        "memory/.workmem/session-map.json",
    ],
)
def test_memory_files_are_redacted_on_write(root: Path, rel: str) -> None:
    path = _write(root, rel, f"note: pushed with {GITHUB} today\n")
    assert path.read_text() == f"note: pushed with {MARKED} today\n"


@pytest.mark.parametrize(
    "rel", ["workmem.toml", ".claude/settings.json", "CLAUDE.md", "docs/MEMORY.md", "memoryx.md"]
)
def test_settings_and_other_files_are_written_as_given(root: Path, rel: str) -> None:
    path = _write(root, rel, f"note: {GITHUB}\n")
    assert path.read_text() == f"note: {GITHUB}\n"


def test_only_the_lines_a_write_adds_are_redacted(root: Path) -> None:
    """A line already in the file is the file's own business (a person wrote it there)."""
    path = root / "memory" / "notes.md"
    path.parent.mkdir(parents=True)
    legacy = f"- legacy line with {GITHUB}\n"
    path.write_text(legacy)
    _write(root, "memory/notes.md", legacy + "- new: password=Zq8xN2vL5p\n")
    assert path.read_text() == legacy + "- new: password=[REDACTED:assignment]\n"


def test_redaction_work_stays_with_the_change_on_a_big_file(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    def recording(text: str) -> tuple[str, int]:
        seen.append(text)
        return engine.redact(text)

    monkeypatch.setattr("workmem.redact.changes.redact", recording)
    rows = [f"| s{n} | token handled by agent {n} | active |" for n in range(20_000)]
    old = "| id | summary | status |\n|---|---|---|\n" + "\n".join(rows) + "\n"
    path = root / "memory" / "big.md"
    path.parent.mkdir(parents=True)
    path.write_text(old)
    new = old.replace("| s12345 | token handled", f"| s12345 | token {GITHUB} handled")
    new = new.replace("| s19999 | token handled", "| s19999 | token=Zq8xN2vL5p handled")
    _write(root, "memory/big.md", new)
    assert sum(len(text) for text in seen) < 200, "only the two changed rows were redacted"
    text = path.read_text()
    assert f"| s12345 | token {MARKED} handled" in text
    assert "| s19999 | token=[REDACTED:assignment] handled" in text
    assert text.count("[REDACTED") == 2


def test_a_value_added_under_an_existing_secret_block_is_redacted(root: Path) -> None:
    path = root / "memory" / "config-notes.md"
    path.parent.mkdir(parents=True)
    path.write_text("# Setup\n\ncredentials:\n  region: eu-west-1\n\nDone.\n")
    _write(
        root,
        "memory/config-notes.md",
        "# Setup\n\ncredentials:\n  region: eu-west-1\n  default: Yy7wM1uK4o\n\nDone.\n",
    )
    assert path.read_text() == (
        "# Setup\n\ncredentials:\n  region: eu-west-1\n  default: [REDACTED:nested-secret]\n"
        "\nDone.\n"
    )


def test_crlf_and_bom_survive_and_old_lines_stay(root: Path) -> None:
    path = root / "MEMORY.md"
    path.write_bytes("\ufeff# Memory\r\n- old fact\r\n".encode())
    Store(Workspace(root)).update(path, lambda old: (old or "") + f"- key {GITHUB}\n")
    assert path.read_bytes() == f"\ufeff# Memory\r\n- old fact\r\n- key {MARKED}\r\n".encode()


def test_an_unreadable_old_file_counts_as_all_new(root: Path) -> None:
    path = root / "memory" / "broken.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe not utf-8 \x80\n")
    text = f"rewritten with {GITHUB}\n"
    assert redact_write(Store(Workspace(root)), path, text) == f"rewritten with {MARKED}\n"


def test_writing_the_same_secret_again_leaves_the_file_as_it_is(root: Path) -> None:
    first = _write(root, "memory/again.md", f"a {GITHUB} b\n").read_bytes()
    second = _write(root, "memory/again.md", f"a {GITHUB} b\n").read_bytes()
    assert first == second == f"a {MARKED} b\n".encode()


def test_a_json_memory_file_stays_valid_json(root: Path) -> None:
    doc = {
        "events": [
            {"text": f'said "token={GITHUB}" twice', "id": 1},
            {"text": 'DB_PASS=ends-with\\ and "quotes"', "id": 2},
            {"text": "multi\nline with secret=Yy7wM1uK4o\nend", "id": 3},
        ]
    }
    path = _write(root, "memory/events.json", json.dumps(doc, indent=2, ensure_ascii=False))
    parsed = json.loads(path.read_text())
    texts = [event["text"] for event in parsed["events"]]
    assert texts[0] == f'said "token={MARKED}" twice'
    assert texts[1].startswith("DB_PASS=[REDACTED:assignment]")
    assert texts[2] == "multi\nline with secret=[REDACTED:assignment]\nend"
    assert GITHUB not in path.read_text() and "Yy7wM1uK4o" not in path.read_text()


def test_the_board_verifies_what_it_meant_against_what_the_file_holds(root: Path) -> None:
    key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
    result = Board().register(
        topic=f"Deploy with {GITHUB}",
        summary=f"pipes | stay and password=ab|cd plus {key}",
        keywords="deploy, DB_PASS=Zq8xN2vL5p",
    )
    board = (root / "memory" / "index.md").read_text()
    doc = TableDocument.parse(board)
    row = {r["Session ID"]: r for r in doc.records()}[result.session_id]
    assert row["Topic"] == f"Deploy with {MARKED}"
    assert (
        row["Summary"]
        == "pipes | stay and password=[REDACTED:assignment] plus [REDACTED:private-key]"
    )
    assert row["Keywords"] == "deploy, DB_PASS=[REDACTED:assignment]"
    assert all(len(r.values) == len(doc.header) for r in doc.rows)
    Board().update(result.session_id, summary=f"again {GITHUB}", keywords="deploy")
    assert GITHUB not in (root / "memory" / "index.md").read_text()


def test_stored_cell_predicts_what_a_row_reads_back() -> None:
    assert stored_cell("plain words") == "plain words"
    assert stored_cell(f"a | b {GITHUB}") == f"a | b {MARKED}"
    assert stored_cell("one\npassword=Zq8xN2vL5p") == "one\npassword=[REDACTED:assignment]"


def test_a_secret_never_swallows_a_cell_border() -> None:
    line = "| s1 | pass=abc\\|def | Authorization: Basic dXNlcjpwYXNzd29yZA== |"
    assert redact(line) == (
        "| s1 | pass=[REDACTED:assignment] | Authorization: Basic [REDACTED:basic-auth] |",
        2,
    )


def test_a_callers_check_of_what_it_meant_still_passes_when_a_secret_was_redacted(
    root: Path,
) -> None:
    """The caller checks its intent; the Store has checked the file holds it, redacted."""
    meant = f"# Notes\n\n- pushed with {GITHUB}\n"

    def exact(text: str) -> None:
        if text != meant:
            raise AssertionError("not what was meant")

    path = root / "memory" / "meant.md"
    Store(Workspace(root)).update(path, lambda _old: meant, verify=exact)
    assert path.read_text() == f"# Notes\n\n- pushed with {MARKED}\n"


def test_a_failed_check_still_puts_the_previous_file_back(root: Path) -> None:
    path = root / "memory" / "kept.md"
    path.parent.mkdir(parents=True)
    path.write_text("before\n")

    def refuse(text: str) -> None:
        raise ValueError("the caller does not stand by this")

    with pytest.raises(ValueError):
        Store(Workspace(root)).update(path, lambda _old: f"after {GITHUB}\n", verify=refuse)
    assert path.read_text() == "before\n"


def test_migrating_a_legacy_workspace_that_holds_secrets(root: Path) -> None:
    """Old files keep their lines as they were (and their .bak copies); text derived from
    them into new files is redacted, and every step still verifies."""
    from workmem.cli import main

    (root / "MEMORY.md").write_text(f"# Memory\n- deploy token={GITHUB}\n## Old notes\n- x\n")
    (root / "memory").mkdir()
    (root / "memory" / "2026-05-20.md").write_text(
        f"# 2026-05-20\n\n## Summary\nDid things with {GITHUB}.\n"
    )
    assert main(["migrate"]) == 0
    assert f"Last time: Did things with {MARKED}." in (root / "memory/resumption.md").read_text()
    assert f"- deploy token={GITHUB}" in (root / "MEMORY.md").read_text(), "an old line stays"


ENCRYPTED_KEY = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "Proc-Type: 4,ENCRYPTED\n"
    "DEK-Info: AES-128-CBC,5E3C1D5B3C2A1F0E9D8C7B6A59483726\n"
    "\n"
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
    "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n"
    "-----END RSA PRIVATE KEY-----"
)


def test_a_secret_with_a_blank_line_inside_is_redacted_whole_in_an_existing_file(
    root: Path,
) -> None:
    """A blank line the file already held must not cut a key (or a phrase) in two."""
    path = root / "memory" / "keys.md"
    path.parent.mkdir(parents=True)
    path.write_text("# Keys\n\n- old fact\n")
    _write(
        root,
        "memory/keys.md",
        f"# Keys\n\n- old fact\n{ENCRYPTED_KEY}\nmy password is\n\nZq8xN2vL5p\n",
    )
    assert path.read_text() == (
        "# Keys\n\n- old fact\n[REDACTED:private-key]\nmy password is\n\n"
        "[REDACTED:password-phrase]\n"
    )


def test_crlf_without_bom_keeps_its_old_lines(root: Path) -> None:
    path = root / "MEMORY.md"
    path.write_bytes(f"# Memory\r\n- legacy {GITHUB}\r\n".encode())
    Store(Workspace(root)).update(path, lambda old: (old or "") + f"- key {GITHUB}\n")
    assert path.read_bytes() == f"# Memory\r\n- legacy {GITHUB}\r\n- key {MARKED}\r\n".encode()


def test_a_bom_without_crlf_keeps_the_old_first_line(root: Path) -> None:
    path = root / "MEMORY.md"
    path.write_bytes(f"\ufeff- legacy {GITHUB}\n".encode())
    Store(Workspace(root)).update(path, lambda old: (old or "") + f"- key {GITHUB}\n")
    assert path.read_bytes() == f"\ufeff- legacy {GITHUB}\n- key {MARKED}\n".encode()


def test_the_old_file_is_read_as_the_store_decodes_it(root: Path) -> None:
    """redact_write compares with the text a reader sees: no BOM, no CR, whatever the bytes."""
    store = Store(Workspace(root))
    new = f"- legacy {GITHUB}\n- key {GITHUB}\n"
    expected = f"- legacy {GITHUB}\n- key {MARKED}\n"
    for raw in (
        f"- legacy {GITHUB}\n",
        f"- legacy {GITHUB}\r\n",
        f"\ufeff- legacy {GITHUB}\n",
        f"\ufeff- legacy {GITHUB}\r\n",
        f"- legacy {GITHUB}\r",
    ):
        path = root / "memory" / "decoded.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw.encode())
        assert redact_write(store, path, new) == expected, repr(raw)


def test_an_unreadable_old_file_with_crlf_counts_as_all_new(root: Path) -> None:
    path = root / "memory" / "broken-crlf.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(f"- legacy {GITHUB}\r\n\xff\r\n".encode("latin-1"))
    text = f"- legacy {GITHUB}\n"
    assert redact_write(Store(Workspace(root)), path, text) == f"- legacy {MARKED}\n"


def test_stored_cell_leaves_a_cell_without_a_secret_exactly_as_given() -> None:
    assert stored_cell("a<br>b") == "a<br>b"
    assert stored_cell("x\\|y") == "x\\|y"
    assert stored_cell(f"a<br>{GITHUB}") == f"a\n{MARKED}"
