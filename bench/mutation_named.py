"""The mutants issue 12 names, each applied by hand and run against the test said to kill it.

``make mutation`` counts mutants; this script shows, for each change the issue reported as
surviving the whole suite, the one test that now fails on it (and passes without it):

    .venv/bin/python bench/mutation_named.py [WORD ...]

Each case copies ``src`` to a temporary folder, makes the one change there, and runs the
test with that copy first on ``PYTHONPATH``. Exit code 1 when a case is not killed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]


class Case(NamedTuple):
    name: str
    path: str
    anchor: str  # the text the change must come after (its function)
    old: str
    new: str
    test: str


SECTIONS = "src/workmem/files/sections.py"
RULES = "tests/core/test_sections_rules.py::"
CASES = [
    Case(
        "merge_items drops every item after a placeholder (continue -> break)",
        SECTIONS,
        "def merge_items",
        "in _PLACEHOLDERS:\n            continue",
        "in _PLACEHOLDERS:\n            break",
        RULES + "test_items_after_a_placeholder_in_the_same_call_are_all_kept",
    ),
    Case(
        "check_preserved blind to items moved to another section",
        SECTIONS,
        "def check_preserved",
        "        everywhere |= keys",
        "        everywhere = keys",
        RULES + "test_an_item_moved_to_an_earlier_section_is_kept",
    ),
    Case(
        "check_preserved blind to the sections after a skipped one",
        SECTIONS,
        "def check_preserved",
        "in skipped:\n            continue",
        "in skipped:\n            break",
        RULES + "test_sections_after_a_skipped_one_are_still_checked",
    ),
    Case(
        "check_preserved blind to the sections after a missing one",
        SECTIONS,
        "def check_preserved",
        "lost.append(f\"section '{section.title}'\")\n            continue",
        "lost.append(f\"section '{section.title}'\")\n            break",
        RULES + "test_sections_after_a_missing_one_are_still_checked",
    ),
    Case(
        "a re-sent item loses its [done] marker",
        SECTIONS,
        "def merge_items",
        "if marker is not None and (marker != old_marker",
        "if marker is not None or (marker != old_marker",
        RULES + "test_a_resent_item_keeps_its_done_marker",
    ),
    Case(
        "session update ignores the status it is given",
        "src/workmem/board/lifecycle.py",
        "def update_session",
        "row.status = status or ACTIVE",
        "row.status = ACTIVE",
        "tests/board/test_lifecycle_rules.py::"
        "test_update_sets_any_valid_status_on_the_row_and_the_snapshot",
    ),
]


def run(case: Case, scratch: Path) -> tuple[int, int]:
    """Exit codes of the test with the change and without it."""
    copy = scratch / "src"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(REPO / "src", copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / case.path.removeprefix("src/")
    text = target.read_text(encoding="utf-8")
    at = text.index(case.old, text.index(case.anchor))
    target.write_text(text[:at] + case.new + text[at + len(case.old) :], encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    mutated = subprocess.run([*PYTEST, case.test], cwd=REPO, env=env, capture_output=True)
    clean = subprocess.run([*PYTEST, case.test], cwd=REPO, capture_output=True)
    return mutated.returncode, clean.returncode


def main(argv: list[str]) -> int:
    failures = 0
    with tempfile.TemporaryDirectory(prefix="workmem-named-") as folder:
        for case in CASES:
            if argv and not any(word in case.name for word in argv):
                continue
            mutated, clean = run(case, Path(folder))
            killed = mutated == 1 and clean == 0
            failures += not killed
            verdict = "killed" if killed else "NOT KILLED"
            print(f"{verdict:10} {case.name}\n           by {case.test}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
