"""Mutation testing of the core: how many deliberate small breaks the tests catch, per module.

Line coverage says a line ran; a mutant says whether any test would notice if the line were
wrong. This script runs mutmut (from PyPI) over the modules listed in ``bench/mutation.toml``,
each against the tests that exercise it, and prints the kill rate of every module with the
mutants that survived (as the changed line, before and after). It is slow (minutes per
module on a 2-core machine), so it is ``make mutation``, not part of ``make test`` or CI.

    .venv/bin/python bench/mutation.py [MODULE ...] [--jobs N] [--reuse]

MODULE is a path or a part of one (``tables``, ``board/lifecycle``); without one every listed
module runs. Each run works in a scratch folder ``build/mutation/<run>/``: a copy of ``src``,
the real ``tests``, and the mutmut settings written for that run, so runs never touch the
work tree and several can be read side by side. The summary goes to stdout and to
``build/mutation/summary.json``; each run's survivors to ``build/mutation/<run>/survivors.txt``.
"""

from __future__ import annotations

import argparse
import difflib
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "bench" / "mutation.toml"
SCRATCH = REPO / "build" / "mutation"
MUTMUT = Path(sys.executable).parent / "mutmut"
MUTMUT_VERSION = "3.8.1"
# Top-level entries a scratch project does without: its own copy of src, and build output.
_NOT_COPIED = {"src", "build", "dist", "mutants"}

# mutmut's exit codes per mutant (mutmut/stats.py): the verdict each one stands for here.
KILLED = {1, 3, -9, -11, 24, -24, 36, 152, 255}  # failed, errored, crashed or timed out
SURVIVED = {0}
NO_TESTS = {5, 33}


@dataclass(frozen=True)
class Equivalent:
    """A listed mutant that cannot change behaviour, found by its function and changed line."""

    path: str
    function: str
    was: str
    now: str
    why: str

    def matches(self, path: str, function: str, removed: list[str], added: list[str]) -> bool:
        return (
            path == self.path
            and function == self.function
            and self.was in removed
            and self.now in added
        )


@dataclass
class Mutant:
    name: str
    function: str
    verdict: str
    removed: list[str]
    added: list[str]
    equivalent: Equivalent | None = None


@dataclass
class ModuleResult:
    path: str
    mutants: list[Mutant] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        return sum(1 for m in self.mutants if m.verdict == verdict)

    @property
    def rate(self) -> float:
        return self.count("killed") / len(self.mutants) if self.mutants else 1.0

    @property
    def equivalents(self) -> int:
        return sum(1 for m in self.mutants if m.equivalent is not None)

    @property
    def rate_of_the_rest(self) -> float:
        """Killed among the mutants that could be killed (listed equivalents left out)."""
        rest = len(self.mutants) - self.equivalents
        return self.count("killed") / rest if rest else 1.0


def load_config() -> dict[str, Any]:
    with CONFIG.open("rb") as handle:
        return tomllib.load(handle)


def select_modules(config: dict[str, Any], wanted: list[str]) -> dict[tuple[str, ...], list[str]]:
    """Source globs grouped by their test list (one mutmut run per group)."""
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for entry in config["module"]:
        path, tests = entry["path"], _expand(entry["tests"])
        chosen = [path] if not wanted else _narrow(path, wanted)
        groups[tests].extend(chosen)
    return {tests: paths for tests, paths in groups.items() if paths}


def _expand(patterns: list[str]) -> tuple[str, ...]:
    """Test files and folders, globs expanded (a test file not written yet simply adds none)."""
    found: list[str] = []
    for pattern in patterns:
        matches = sorted(str(p.relative_to(REPO)) for p in REPO.glob(pattern))
        found += [m for m in matches if m not in found]
    return tuple(found)


def _narrow(pattern: str, wanted: list[str]) -> list[str]:
    """The files of ``pattern`` whose path contains one of the ``wanted`` parts."""
    files = sorted(str(p.relative_to(REPO)) for p in REPO.glob(pattern))
    return [f for f in files if any(part in f for part in wanted)]


def run_name(paths: list[str]) -> str:
    if len(paths) == 1:
        stem = paths[0].removeprefix("src/workmem/").removesuffix(".py")
    else:
        stem = os.path.commonpath(paths).removeprefix("src/workmem").strip("/") or "core"
        stem += f"-{len(paths)}"
    return re.sub(r"[^A-Za-z0-9_-]+", "-", stem.replace("*", "all"))


def prepare(folder: Path, paths: list[str], tests: tuple[str, ...], pytest_args: list[str]) -> None:
    """A scratch project for mutmut: its own copy of src, the real tests, its settings."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    shutil.copytree(
        REPO / "src", folder / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    # Tests read the repository's own files too (README, docs): everything else at the top
    # is linked in, and mutmut copies it beside the mutated sources.
    extra = []
    for entry in sorted(REPO.iterdir()):
        if entry.name in _NOT_COPIED or entry.name.startswith("."):
            continue
        (folder / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
        extra.append(entry.name)
    # pyproject.toml carries no [tool.mutmut], so mutmut reads these settings from here.
    lines = ["[mutmut]", "source_paths = src", "use_setproctitle = false"]
    lines += ["also_copy ="] + [f"    {name}" for name in extra]
    lines += ["only_mutate ="] + [f"    {p}" for p in paths]
    lines += ["pytest_add_cli_args ="] + [f"    {a}" for a in pytest_args]
    lines += ["pytest_add_cli_args_test_selection ="] + [f"    {t}" for t in tests]
    (folder / "setup.cfg").write_text("\n".join(lines) + "\n", encoding="utf-8")
    # Made before mutmut starts: Python caches a missing sys.path folder as "nothing here",
    # and the mutated sources would then never be imported.
    (folder / "mutants" / "src").mkdir(parents=True)
    # Beside the mutated sources, because tests that start workmem as a process put that
    # folder on their PYTHONPATH themselves (mutmut copies src/ only, so this stays).
    (folder / "mutants" / "src" / "sitecustomize.py").write_text(_CHILD_STARTUP, encoding="utf-8")


# Loaded by every Python process a test starts. While mutmut times the tests ("stats"),
# a child must run the plain code: mutmut's call recording works only in its own process.
_CHILD_STARTUP = """\
import os

if os.environ.get("MUTANT_UNDER_TEST") == "stats":
    os.environ["MUTANT_UNDER_TEST"] = ""
"""


def run_mutmut(folder: Path, jobs: int) -> int:
    env = dict(os.environ)
    env["WORKMEM_SHARED"] = env.get("WORKMEM_SHARED", str(REPO.parent / "shared"))
    # Tests that start workmem as a process get the mutated sources too, so a mutant is
    # caught whether the test calls the library or the command.
    env["PYTHONPATH"] = str(folder / "mutants" / "src")
    with (folder / "mutmut.log").open("w", encoding="utf-8") as log:
        done = subprocess.run(
            [str(MUTMUT), "run", "--max-children", str(jobs)],
            cwd=folder,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            check=False,
        )
    return done.returncode


def read_results(folder: Path, equivalents: list[Equivalent]) -> list[ModuleResult]:
    results = []
    for meta in sorted((folder / "mutants" / "src").rglob("*.py.meta")):
        source = meta.with_suffix("")
        path = str(source.relative_to(folder / "mutants"))
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        spans = json.loads(source.with_suffix(".py.spans").read_text(encoding="utf-8"))["spans"]
        lines = source.read_text(encoding="utf-8").splitlines()
        result = ModuleResult(path)
        for name, code in sorted(codes.items(), key=lambda item: _natural(item[0])):
            local = name.rsplit(".", 1)[-1]
            function = _display_name(local)
            removed, added = _changed_lines(lines, spans, local)
            mutant = Mutant(name, function, _verdict(code), removed, added)
            if mutant.verdict != "killed":
                mutant.equivalent = next(
                    (e for e in equivalents if e.matches(path, function, removed, added)), None
                )
            result.mutants.append(mutant)
        results.append(result)
    return results


def _natural(name: str) -> tuple[str, int]:
    base, _, number = name.rpartition("_")
    return base, int(number) if number.isdigit() else 0


def _display_name(local: str) -> str:
    """``xǁBoardǁupdate__mutmut_4`` -> ``Board.update``; ``x_escape__mutmut_2`` -> ``escape``."""
    stem = local.rsplit("__mutmut_", 1)[0]
    if stem.startswith("xǁ"):
        return ".".join(part for part in stem[2:].split("ǁ") if part)
    return stem.removeprefix("x_")


def _verdict(code: int | None) -> str:
    if code in KILLED:
        return "killed"
    if code in SURVIVED:
        return "survived"
    if code in NO_TESTS:
        return "no tests"
    return "not run" if code is None else "suspicious"


def _changed_lines(
    lines: list[str], spans: dict[str, list[int]], local: str
) -> tuple[list[str], list[str]]:
    """The lines a mutant changed, against the original function (signature line skipped)."""
    original = local.rsplit("__mutmut_", 1)[0] + "__mutmut_orig"
    if local not in spans or original not in spans:
        return [], []

    def body(name: str) -> list[str]:
        start, end = spans[name]
        return [line.strip().replace(name, "") for line in lines[start:end]]

    removed, added = [], []
    for line in difflib.ndiff(body(original), body(local)):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


def write_survivors(folder: Path, results: list[ModuleResult]) -> None:
    out = []
    for result in results:
        for mutant in result.mutants:
            if mutant.verdict == "killed":
                continue
            label = "equivalent" if mutant.equivalent else mutant.verdict
            out.append(f"{result.path}  {mutant.function}  [{label}]  {mutant.name}")
            out += [f"    - {line}" for line in mutant.removed]
            out += [f"    + {line}" for line in mutant.added]
    (folder / "survivors.txt").write_text("\n".join(out) + "\n", encoding="utf-8")


def print_table(results: list[ModuleResult], target: float) -> bool:
    print(
        f"{'module':34} {'mutants':>7} {'killed':>6} {'surv.':>5} {'no test':>7} "
        f"{'equiv.':>6} {'rate':>6} {'rest':>6}"
    )
    ok = True
    for result in sorted(results, key=lambda r: r.path):
        flag = "" if result.rate >= target else "  below target"
        ok = ok and not flag
        print(
            f"{result.path.removeprefix('src/'):34} {len(result.mutants):7d} "
            f"{result.count('killed'):6d} {result.count('survived'):5d} "
            f"{result.count('no tests'):7d} {result.equivalents:6d} {result.rate:6.1%} "
            f"{result.rate_of_the_rest:6.1%}{flag}"
        )
    print("rate: killed / all mutants; rest: killed / mutants not listed as equivalent")
    return ok


def print_equivalents(equivalents: list[Equivalent]) -> None:
    print("| module | function | change | why it cannot change behaviour |")
    print("|---|---|---|---|")
    for e in equivalents:
        change = f"`{e.was}` → `{e.now}`".replace("|", "\\|")
        module = e.path.removeprefix("src/workmem/")
        print(f"| {module} | `{e.function}` | {change} | {e.why} |")


def load_equivalents(config: dict[str, Any]) -> list[Equivalent]:
    return [
        Equivalent(e["path"], e["function"], e["was"], e["now"], e["why"])
        for e in config.get("equivalent", [])
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="paths or parts of paths to run (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument(
        "--reuse", action="store_true", help="only read the results of the last run again"
    )
    parser.add_argument(
        "--list-equivalents",
        action="store_true",
        help="print the listed equivalent mutants as a markdown table (for docs/mutation.md)",
    )
    args = parser.parse_args(argv)
    if args.list_equivalents:
        print_equivalents(load_equivalents(load_config()))
        return 0
    if not MUTMUT.exists():
        print(
            "mutmut is not installed here: run `make mutation` (it installs it).", file=sys.stderr
        )
        return 2
    _warn_on_other_mutmut()
    config = load_config()
    equivalents = load_equivalents(config)
    groups = select_modules(config, args.modules)
    if not groups:
        print(f"no listed module matches {args.modules}", file=sys.stderr)
        return 2
    all_results: list[ModuleResult] = []
    failed_runs = []
    for tests, paths in groups.items():
        folder = SCRATCH / run_name(paths)
        started = time.monotonic()
        if not args.reuse:
            print(f"mutating {', '.join(paths)} against {', '.join(tests)} ...", flush=True)
            prepare(folder, paths, tests, list(config.get("pytest_args", [])))
            code = run_mutmut(folder, args.jobs)
            if code != 0:
                failed_runs.append(folder)
                print(f"  mutmut failed (exit {code}): see {folder / 'mutmut.log'}", flush=True)
                continue
            print(f"  done in {time.monotonic() - started:.0f} s", flush=True)
        if not (folder / "mutants").is_dir():
            print(f"no results in {folder} yet", file=sys.stderr)
            continue
        results = read_results(folder, equivalents)
        write_survivors(folder, results)
        all_results += [r for r in results if any(fnmatch.fnmatch(r.path, p) for p in paths)]
    target = float(config.get("target", 0.9))
    print()
    ok = print_table(all_results, target)
    _stale_equivalents(equivalents, all_results)
    summary = {
        r.path: {
            "mutants": len(r.mutants),
            "killed": r.count("killed"),
            "survived": r.count("survived"),
            "no_tests": r.count("no tests"),
            "equivalent": r.equivalents,
            "rate": round(r.rate, 4),
            "rate_without_equivalents": round(r.rate_of_the_rest, 4),
        }
        for r in all_results
    }
    SCRATCH.mkdir(parents=True, exist_ok=True)
    (SCRATCH / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"\nsurvivors: {SCRATCH}/<run>/survivors.txt; summary: {SCRATCH / 'summary.json'}")
    return 1 if failed_runs or not ok else 0


def _warn_on_other_mutmut() -> None:
    """The results are read from mutmut's own files, whose format is its version's."""
    from importlib.metadata import version

    found = version("mutmut")
    if found != MUTMUT_VERSION:
        print(
            f"warning: mutmut {found} is installed; this script reads the files of "
            f"mutmut {MUTMUT_VERSION} (the Makefile's pin)",
            file=sys.stderr,
        )


def _stale_equivalents(equivalents: list[Equivalent], results: list[ModuleResult]) -> None:
    """Listed equivalents that no surviving mutant matches any more: the list needs a look."""
    measured = {r.path for r in results}
    used = {m.equivalent for r in results for m in r.mutants if m.equivalent is not None}
    for entry in equivalents:
        if entry.path in measured and entry not in used:
            print(
                f"listed as equivalent but not found among the survivors: {entry.path} "
                f"{entry.function}: {entry.was!r} -> {entry.now!r}"
            )


if __name__ == "__main__":
    raise SystemExit(main())
