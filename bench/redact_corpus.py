"""Redaction corpus figures: secrets stored, near-misses kept.

Runs the redactor over the test corpus (``tests/redaction``: the families of variants,
the one-per-detector cases, the forms and the near-misses) and prints, per group and in
all, how many texts still hold a secret after redaction (the whole secret, or a piece of
12 characters of it) and how many near-misses come through unchanged. It measures
whatever ``workmem`` is on ``sys.path``, so an older version is measured with the same
corpus by pointing ``PYTHONPATH`` at its ``src``:

    .venv/bin/python bench/redact_corpus.py [--list]
    PYTHONPATH=/path/to/old/src .venv/bin/python bench/redact_corpus.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # the tests' corpus

from tests.redaction.families import NEAR_MISSES, all_families
from tests.redaction.test_corpus import FORMS
from tests.redaction.test_corpus import NEAR_MISSES as OLD_NEAR_MISSES
from tests.redaction.test_formats import KIND_CASES

PIECE = 12


def leaked(secret: str, clean: str) -> bool:
    """The secret, or any ``PIECE`` characters of it, is still in ``clean``."""
    if len(secret) <= PIECE:
        return secret in clean
    return any(secret[i : i + PIECE] in clean for i in range(len(secret) - PIECE + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name every text that fails")
    options = parser.parse_args()
    import workmem
    from workmem.redact import redact

    print(f"redactor: {Path(workmem.__file__).parent}")
    groups: dict[str, list[tuple[str, str, tuple[str, ...]]]] = {}
    for family in all_families():
        group = family.name.split(":")[0]
        groups.setdefault(f"families ({group})", []).extend(
            (f"{family.name} / {v.label}", v.text, v.secrets) for v in family.variants
        )
    groups["one case per detector"] = [
        (kind, t.replace("<S>", s), (s,)) for kind, (t, s) in KIND_CASES.items()
    ]
    groups["forms"] = [(k, t.replace("<S>", s), (s,)) for t, s, k in FORMS]
    stored_total = texts_total = 0
    print(f"{'secrets stored':<40} {'stored':>7} {'of':>6}")
    for group, cases in groups.items():
        stored = []
        for label, text, secrets in cases:
            clean = redact(text)[0]
            if any(leaked(secret, clean) for secret in secrets):
                stored.append(label)
        print(f"  {group:<38} {len(stored):>7} {len(cases):>6}")
        if options.list:
            for label in stored:
                print(f"      {label}")
        stored_total += len(stored)
        texts_total += len(cases)
    print(f"  {'all':<38} {stored_total:>7} {texts_total:>6}")
    print(f"{'near-misses kept':<40} {'kept':>7} {'of':>6}")
    kept_total = misses_total = 0
    for group, misses in (
        ("new near-misses", NEAR_MISSES),
        ("earlier near-misses", OLD_NEAR_MISSES),
    ):
        changed = [text for text in misses if redact(text) != (text, 0)]
        print(f"  {group:<38} {len(misses) - len(changed):>7} {len(misses):>6}")
        if options.list:
            for text in changed:
                print(f"      {text[:90]!r} -> {redact(text)[0][:90]!r}")
        kept_total += len(misses) - len(changed)
        misses_total += len(misses)
    print(f"  {'all':<38} {kept_total:>7} {misses_total:>6}")


if __name__ == "__main__":
    main()
