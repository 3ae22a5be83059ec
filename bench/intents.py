"""The intent matcher on its phrase set: right share per language, false wrap-ups, cost.

Three parts: the dev part (``tests/faces/data/intents_dev.tsv``, the one the rules are
tuned on; a unit test keeps it whole); held-out part A (``bench/intents/heldout.tsv``,
written before the matcher, never run until the rules were done, but its phrasings were in
mind while the rules were written, so it flatters them); held-out part B
(``bench/intents/heldout_b.tsv``, written after the matcher and committed before it was
ever run on those lines). Neither held-out part is tuned on: they are reported only.
Each line: language, expected workflow (``-``: none), expected argument (``session_id=…``,
``topic=…`` or ``-``), message.

A message is right when the workflow is the expected one (none included) and, where an
argument is expected, the argument too. A false wrap-up is a message that is not a
wrap-up request (a negation, a question, a coding request, another workflow) read as one:
the target is 0.

The cost: microseconds per call in this process, over ordinary prompts (the hook's
common case: no anchor word, nothing compiled) and over the whole phrase set; the first
call of a fresh process is measured in a subprocess (imports and compiles included).

    .venv/bin/python bench/intents.py [--show-misses]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEV = HERE.parent / "tests" / "faces" / "data" / "intents_dev.tsv"
HELDOUT = HERE / "intents" / "heldout.tsv"
HELDOUT_B = HERE / "intents" / "heldout_b.tsv"
LANGUAGES = ("en", "zh-TW", "zh-CN", "ja", "ko")
ORDINARY = (
    "please look at the failing test in auth",
    "Can you refactor the session store so it uses the new lock helper?",
    "幫我看一下這個測試為什麼會失敗",
    "このテストが失敗する理由を調べて",
    "이 테스트가 왜 실패하는지 봐줘",
    "run the linter and fix what it reports, then commit",
)


@dataclass(frozen=True)
class Case:
    language: str
    expected: str
    argument: str
    text: str


@dataclass
class Tally:
    total: int = 0
    right: int = 0
    false_wraps: int = 0
    misses: list[str] = field(default_factory=list)


def read_cases(path: Path) -> list[Case]:
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 4:
            raise SystemExit(f"{path}:{number}: expected 4 tab-separated fields")
        cases.append(Case(*parts))
    return cases


def outcome(case: Case) -> tuple[str, str]:
    from workmem.intents import match_intent

    found = match_intent(case.text)
    if found is None:
        return "-", "-"
    argument = ";".join(f"{k}={v}" for k, v in sorted(found.args.items())) or "-"
    return found.workflow, argument


def score(cases: list[Case]) -> dict[str, Tally]:
    tallies = {language: Tally() for language in LANGUAGES}
    for case in cases:
        tally = tallies.setdefault(case.language, Tally())
        workflow, argument = outcome(case)
        tally.total += 1
        right = workflow == case.expected and (case.argument == "-" or case.argument == argument)
        if right:
            tally.right += 1
        else:
            tally.misses.append(
                f"{case.language}: expected {case.expected} {case.argument}, "
                f"got {workflow} {argument}: {case.text}"
            )
        if workflow == "wrap" and case.expected != "wrap":
            tally.false_wraps += 1
    return tallies


def report(name: str, tallies: dict[str, Tally], show_misses: bool) -> None:
    print(f"\n{name}")
    print(f"{'language':<8} {'right':>11} {'share':>7} {'false wrap-ups':>15}")
    total = Tally()
    for language, tally in tallies.items():
        if not tally.total:
            continue
        share = tally.right / tally.total
        print(
            f"{language:<8} {tally.right:>5}/{tally.total:<5} {share:>7.1%} {tally.false_wraps:>15}"
        )
        total.total += tally.total
        total.right += tally.right
        total.false_wraps += tally.false_wraps
        total.misses += tally.misses
    print(
        f"{'all':<8} {total.right:>5}/{total.total:<5} {total.right / total.total:>7.1%} "
        f"{total.false_wraps:>15}"
    )
    if show_misses:
        for miss in total.misses:
            print("  miss:", miss)


def per_call(texts: list[str], rounds: int = 200) -> float:
    """Median microseconds per call, after a warm-up (imports and compiles done)."""
    from workmem.intents import match_intent

    for text in texts:
        match_intent(text)
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            match_intent(text)
        samples.append((time.perf_counter() - start) / len(texts))
    return statistics.median(samples) * 1e6


#: what a prompt hook has imported before it looks for a trigger phrase
BASE = "import workmem.hooks.handlers, re, unicodedata"
_CHILD = """
import time
{base}
start = time.perf_counter()
{load}
detect({text!r})
print((time.perf_counter() - start) * 1000)
"""
_LOAD_OURS = "from workmem.phrases import detect"
# A phrases.py of another revision, standalone (it imports the standard library only):
# ``git show REV:src/workmem/phrases.py > FILE``. Loaded from bytecode compiled beforehand,
# as ours is, so neither side pays for compiling its source.
_LOAD_FILE = (
    "import sys, importlib.util as u, importlib.machinery as mc; "
    "s = u.spec_from_loader('baseline', mc.SourcelessFileLoader('baseline', {path!r})); "
    "m = u.module_from_spec(s); sys.modules['baseline'] = m; s.loader.exec_module(m); "
    "detect = m.detect"
)


def first_call(text: str, runs: int = 15, baseline: str | None = None) -> tuple[float, float]:
    """(median, min) milliseconds a fresh process takes to import the matcher and answer
    one message, timed inside the process after what the prompt hook has imported by then
    (``BASE``): a shared machine's process start-up noise stays out of it. Run
    ``make install`` (or ``python -m compileall src``) first: without bytecode the figure
    is the compile time of the source."""
    load = _LOAD_OURS
    if baseline:
        import py_compile

        compiled = py_compile.compile(baseline, cfile=baseline + "c", doraise=True)
        load = _LOAD_FILE.format(path=compiled)
    code = _CHILD.format(base=BASE, text=text, load=load)
    ms = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], check=True, capture_output=True, text=True
            ).stdout
        )
        for _ in range(runs)
    ]
    return statistics.median(ms), min(ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="also time the detect() of this phrases.py (another revision's, for before/after)",
    )
    options = parser.parse_args()
    dev, heldout, heldout_b = read_cases(DEV), read_cases(HELDOUT), read_cases(HELDOUT_B)
    report(f"dev part ({len(dev)} messages; tuned on)", score(dev), options.show_misses)
    report(
        f"held-out part A ({len(heldout)} messages; written before the matcher, in mind "
        "while its rules were written; never tuned on)",
        score(heldout),
        options.show_misses,
    )
    report(
        f"held-out part B ({len(heldout_b)} messages; written after the matcher, "
        "committed before its first run; never tuned on)",
        score(heldout_b),
        options.show_misses,
    )
    print("\ncost per call (median, warm process)")
    print(f"  ordinary prompts:   {per_call(list(ORDINARY)):7.1f} µs")
    every = [c.text for c in dev + heldout + heldout_b]
    print(f"  whole phrase set:   {per_call(every, 20):7.1f} µs")
    print("first call in a fresh process, after the prompt hook's own imports (15 runs)")
    for label, text in (
        ("ordinary English prompt", ORDINARY[0]),
        ("ordinary Chinese prompt", ORDINARY[2]),
        ("收工了嗎？", "收工了嗎？"),
        ("wrap up", "wrap up"),
    ):
        median, least = first_call(text)
        line = f"  {label + ':':<26}{median:6.2f} ms median, {least:6.2f} ms min"
        if options.baseline:
            was, was_least = first_call(text, baseline=options.baseline)
            line += f"   (baseline: {was:6.2f} ms median, {was_least:6.2f} ms min)"
        print(line)


if __name__ == "__main__":
    main()
