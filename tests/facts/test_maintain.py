"""Maintenance over real files: compression, dedup with index, staleness, the index budget."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date, datetime
from pathlib import Path

import pytest

from workmem.facts.compress import compress_text
from workmem.facts.index import update_index
from workmem.facts.maintain import maintain
from workmem.facts.memory_md import read_tiers
from workmem.facts.write import MemoryInput, save_memory
from workmem.files.store import Store
from workmem.root import Workspace

TODAY = date(2026, 5, 25)
NOW = datetime(2026, 5, 25, 13, 18)

FRONT = (
    "---\n"
    "# comment kept\n"
    "name: 'Reference APIs'\n"
    'description: "where the APIs are"  \n'
    "type: reference\n"
    "updated: 2026-05-01\n"
    "expires: never\n"
    "custom_key: no\n"
    "---\n"
)


def _long_memory() -> str:
    lines = ["API docs live at internal.example.com/api.", "", "## Endpoints", ""]
    lines += [f"- endpoint {i}: /v2/thing{i}" for i in range(56)]
    lines += ["", "## History", ""]
    for i in range(12):
        lines += [f"### 2026-{1 + i % 5:02d}-{10 + i:02d} — Endpoints", "", f"old list {i}", ""]
    text = FRONT + "\n".join(lines) + "\n"
    assert len(text.splitlines()) == 120
    return text


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_compress_120_lines_keeps_frontmatter_byte_identical(root: Path) -> None:
    path = _write(root / "memory" / "reference_apis.md", _long_memory())
    report = maintain(Workspace(root), now=NOW)
    assert [c.filename for c in report.compressed] == ["reference_apis.md"]
    comp = report.compressed[0]
    assert comp.lines_before == 120 and comp.lines_after <= 50
    text = path.read_text()
    assert text.startswith(FRONT)
    assert len(text.splitlines()) <= 50
    assert text.count("### 20") == 3  # last three history entries
    assert "> Compressed 2026-05-25:" in text
    # Entries older than 90 days (before 2026-02-24) are gone from the file but archived.
    archive = (root / "memory" / "archive.md").read_text()
    assert comp.history_expired > 0
    for i in range(12):
        assert f"old list {i}\n" in text or f"old list {i}\n" in archive
    for i in range(56):
        assert f"- endpoint {i}: /v2/thing{i}" in text + archive
    log = read_tiers((root / "MEMORY.md").read_text()).maintenance_log
    assert "maintain: compressed 1, merged 0" in log


def test_short_files_are_not_compressed() -> None:
    assert compress_text(FRONT + "short\n", "reference_apis.md", TODAY) is None


def test_long_file_without_history_keeps_the_newest_facts() -> None:
    body = "\n".join(["## Notes", ""] + [f"- note {i}" for i in range(80)]) + "\n"
    result = compress_text(FRONT + body, "reference_apis.md", TODAY)
    assert result is not None
    assert result.text.startswith(FRONT)
    assert result.lines_after <= 50
    moved = "\n".join(line for _, lines in result.archived for line in lines)
    assert "- note 79" in result.text and "- note 0\n" in moved


def test_contradiction_is_annotated(root: Path) -> None:
    store = Store(Workspace(root))
    first = {"type": "project", "topic": "myapp", "description": "status"}
    save_memory(
        store,
        MemoryInput.from_mapping({**first, "content": "## Database\n\nWe use SQLite."}),
        today=date(2026, 5, 1),
    )
    result = save_memory(
        store,
        MemoryInput.from_mapping(
            {
                **first,
                "content": "## Database\n\nWe use Postgres.",
                "reason": "migration merged in #42",
            }
        ),
        today=TODAY,
    )
    assert result.replaced == ["Database"]
    text = (root / "memory" / "project_myapp.md").read_text()
    body = text.split("---\n", 2)[2]
    assert body.index("> Updated 2026-05-25: migration merged in #42") < body.index("## Database")
    assert "## Database\n\nWe use Postgres." in body
    assert "### 2026-05-25 — Database\n\nWe use SQLite." in body


def test_overlapping_files_merged_and_index_updated(root: Path) -> None:
    store = Store(Workspace(root))
    common = "- Integration tests need a real DB\n- Run pytest with -x\n"
    save_memory(
        store,
        MemoryInput.from_mapping(
            {"type": "feedback", "topic": "testing", "description": "tests", "content": common}
        ),
        today=TODAY,
    )
    save_memory(
        store,
        MemoryInput.from_mapping(
            {
                "type": "feedback",
                "topic": "testing-db",
                "description": "db tests",
                "content": common + "- Use the docker compose DB\n",
            }
        ),
        today=TODAY,
    )
    update_index(store, now=NOW)
    before = (root / "MEMORY.md").read_text()
    assert "feedback_testing.md" in before and "feedback_testing-db.md" in before

    report = maintain(Workspace(root), now=NOW)
    assert [(m.generic.filename, m.specific.filename) for m in report.merged] == [
        ("feedback_testing.md", "feedback_testing-db.md")
    ]
    assert not (root / "memory" / "feedback_testing.md").exists()
    merged = (root / "memory" / "feedback_testing-db.md").read_text()
    assert "- Integration tests need a real DB" in merged
    after = (root / "MEMORY.md").read_text()
    assert "feedback_testing.md)" not in after
    assert "(memory/feedback_testing-db.md) — db tests" in after
    assert report.index is not None and report.index.removed == ["feedback_testing.md"]


def test_unrelated_files_are_not_merged(root: Path) -> None:
    store = Store(Workspace(root))
    for topic, content in (("api", "- REST on /v2\n"), ("api-gateway", "- nginx in front\n")):
        save_memory(
            store,
            MemoryInput.from_mapping(
                {"type": "project", "topic": topic, "description": topic, "content": content}
            ),
            today=TODAY,
        )
    report = maintain(Workspace(root), now=NOW)
    assert report.merged == []
    assert (root / "memory" / "project_api.md").exists()


def _run_maintain(root: Path, now: str) -> str:
    env = {**os.environ, "WORKMEM_ROOT": str(root), "WORKMEM_NOW": now}
    code = (
        "from workmem.facts.maintain import maintain;"
        "from workmem.root import open_workspace;"
        "r = maintain(open_workspace());"
        "print(';'.join(f for f, _ in r.stale))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


@pytest.mark.parametrize(
    ("now", "stale"),
    [
        ("2026-05-31 09:00", ""),
        ("2026-06-01 09:00", "project_app.md"),  # 31 days after 2026-05-01
        ("2026-07-30 09:00", "project_app.md"),  # 90 days: reference still fresh
        ("2026-07-31 09:00", "project_app.md;reference_docs.md"),  # 91 days
    ],
)
def test_staleness_at_31_and_91_days(root: Path, now: str, stale: str) -> None:
    for kind, topic in (("project", "app"), ("reference", "docs"), ("feedback", "style")):
        _write(
            root / "memory" / f"{kind}_{topic}.md",
            f"---\nname: {topic}\ntype: {kind}\nupdated: 2026-05-01\nexpires: never\n---\nx\n",
        )
    assert _run_maintain(root, now) == stale
    text = (root / "MEMORY.md").read_text()
    for name in stale.split(";") if stale else []:
        line = next(line for line in text.splitlines() if name in line)
        assert line.endswith("[STALE]")
    # Never auto-deleted.
    assert len(list((root / "memory").glob("*_*.md"))) == 3


def test_expired_memory_is_stale(root: Path) -> None:
    _write(
        root / "memory" / "feedback_old.md",
        "---\nname: old\ntype: feedback\nupdated: 2026-05-20\nexpires: 2026-05-24\n---\nx\n",
    )
    report = maintain(Workspace(root), now=NOW)
    assert report.stale == [("feedback_old.md", "expired 2026-05-24")]


def test_broken_file_reported_not_touched(root: Path) -> None:
    bad = _write(root / "memory" / "project_bad.md", "---\nname: [oops\n---\nx\n")
    before = bad.read_bytes()
    report = maintain(Workspace(root), now=NOW)
    assert [name for name, _ in report.problems] == ["project_bad.md"]
    assert bad.read_bytes() == before


def test_index_keeps_free_text_and_person_edits(root: Path) -> None:
    store = Store(Workspace(root))
    _write(
        root / "MEMORY.md",
        "# M\n\n## Active\n\n### Project\n\n- Free text entry (2026-05-01)\n"
        "- see [x](memory/project_app.md) for the app\n\n## Fading\n\n## Maintenance Log\n",
    )
    save_memory(
        store,
        MemoryInput.from_mapping(
            {"type": "project", "topic": "app", "description": "the app", "content": "x"}
        ),
        today=TODAY,
    )
    report = update_index(store, now=NOW)
    text = (root / "MEMORY.md").read_text()
    assert "- Free text entry (2026-05-01)" in text
    assert "- see [x](memory/project_app.md) for the app" in text
    assert "- [app](memory/project_app.md) — the app" in text
    assert report.added == ["project_app.md"]
    assert "### Feedback" in text  # missing subsections were added
    again = update_index(store, now=NOW)
    assert not again.changed


def test_index_stays_under_budget_newest_kept(root: Path) -> None:
    store = Store(Workspace(root))
    for i in range(30):
        day = date(2026, 1, 1 + i)
        _write(
            root / "memory" / f"reference_r{i:02d}.md",
            f"---\nname: r{i}\ntype: reference\nupdated: {day}\nexpires: never\n---\nx\n",
        )
    report = update_index(store, now=NOW, touched={"reference_r00.md"}, max_lines=30)
    text = (root / "MEMORY.md").read_text()
    assert len(text.splitlines()) <= 30
    archive = (root / "memory" / "archive.md").read_text()
    assert "reference_r29.md" in text  # newest never cut
    assert "reference_r00.md" in text  # written in this run: protected
    assert "reference_r01.md" in archive  # oldest unprotected went first
    assert report.archived
    for i in range(30):
        assert f"reference_r{i:02d}.md" in text + archive


_WORKER = """
import sys
from datetime import date
from workmem.facts.index import update_index
from workmem.facts.write import MemoryInput, save_memory
from workmem.files.store import Store
from workmem.root import open_workspace
store = Store(open_workspace())
n = sys.argv[1]
for k in range(5):
    item = MemoryInput.from_mapping(
        {"type": "feedback", "topic": f"w{n}-{k}", "description": f"worker {n}", "content": n}
    )
    save_memory(store, item, today=date(2026, 5, 25))
    update_index(store, touched={item.filename})
"""


@pytest.mark.slow
def test_parallel_writers_lose_no_index_line(root: Path) -> None:
    env = {**os.environ, "WORKMEM_ROOT": str(root)}
    procs = [
        subprocess.Popen([sys.executable, "-c", _WORKER, str(n)], env=env, stderr=subprocess.PIPE)
        for n in range(4)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()
    text = (root / "MEMORY.md").read_text()
    for n in range(4):
        for k in range(5):
            assert text.count(f"(memory/feedback_w{n}-{k}.md)") == 1


def test_dry_run_reports_without_writing(root: Path) -> None:
    path = _write(root / "memory" / "reference_apis.md", _long_memory())
    _write(
        root / "memory" / "project_old.md",
        "---\nname: old\ntype: project\nupdated: 2026-01-01\nexpires: never\n---\nx\n",
    )
    report = maintain(Workspace(root), now=NOW, dry_run=True)
    assert [c.filename for c in report.compressed] == ["reference_apis.md"]
    assert [f for f, _ in report.stale] == ["project_old.md"]
    assert path.read_text() == _long_memory()
    assert not (root / "MEMORY.md").exists()
    assert not (root / "memory" / "archive.md").exists()


def test_index_line_of_a_deleted_file_is_kept_and_reported(root: Path) -> None:
    store = Store(Workspace(root))
    save_memory(
        store,
        MemoryInput.from_mapping({"type": "user", "topic": "gone", "content": "x"}),
        today=TODAY,
    )
    update_index(store, now=NOW)
    (root / "memory" / "user_gone.md").unlink()
    report = update_index(store, now=NOW)
    assert report.dangling == ["user_gone.md"]
    assert "(memory/user_gone.md)" in (root / "MEMORY.md").read_text()


def test_archived_index_line_is_not_re_added(root: Path) -> None:
    store = Store(Workspace(root))
    for topic in ("old", "new"):
        save_memory(
            store,
            MemoryInput.from_mapping({"type": "reference", "topic": topic, "content": topic}),
            today=TODAY,
        )
    update_index(store, now=NOW)
    # Curation moved the old file's line to the archive (by hand here, as it would).
    text = (root / "MEMORY.md").read_text()
    line = next(ln for ln in text.splitlines() if "reference_old.md" in ln)
    (root / "MEMORY.md").write_text(text.replace(line + "\n", ""))
    (root / "memory" / "archive.md").write_text(f"# Archive\n\n## Archived x\n\n{line}\n")
    save_memory(
        store,
        MemoryInput.from_mapping({"type": "user", "topic": "third", "content": "x"}),
        today=TODAY,
    )
    report = update_index(store, now=NOW)  # writes (a new line) and verifies
    assert report.changed and report.added == ["user_third.md"]
    assert report.left_archived == ["reference_old.md"]
    assert "reference_old.md" not in (root / "MEMORY.md").read_text()
    # Writing the memory again brings its line back.
    save_memory(
        store,
        MemoryInput.from_mapping({"type": "reference", "topic": "old", "content": "again"}),
        today=TODAY,
    )
    update_index(store, now=NOW, touched={"reference_old.md"})
    assert "reference_old.md" in (root / "MEMORY.md").read_text()


def test_the_last_three_history_entries_stay_whole_however_long() -> None:
    """Seed 000, 5a: "keep last 3 entries" means the entries, not their headings with a
    pointer to the archive."""
    entries = []
    for i in range(5):
        body = [f"- change {i}.{n}: moved the retry budget to {n} attempts" for n in range(12)]
        entries += [f"### 2026-05-{10 + i:02d} — Retries", "", *body, ""]
    facts = [f"- endpoint {i}: /v2/thing{i}" for i in range(30)]
    text = FRONT + "\n".join(["Docs.", "", "## Endpoints", "", *facts, "", "## History", ""])
    text += "\n" + "\n".join(entries) + "\n"
    result = compress_text(text, "reference_apis.md", TODAY)
    assert result is not None
    kept = result.text.split("## History", 1)[1]
    for i in (2, 3, 4):  # the last three, every line of each
        assert f"### 2026-05-{10 + i:02d} — Retries" in kept
        for n in range(12):
            assert f"- change {i}.{n}: moved the retry budget to {n} attempts" in kept
    assert "more lines in memory/archive.md" not in result.text
    assert "2026-05-10" not in kept and "2026-05-11" not in kept
    archived = "\n".join(line for _origin, lines in result.archived for line in lines)
    assert "change 0.0" in archived and "change 1.11" in archived
