"""The natural-question benchmark: questions people ask of a project's working memory.

LoCoMo measures recall over chat turns; this measures what a user or an agent asks of a
coding project's memory ("what did we decide about the database", "which integration test
was failing", "週一做了什麼") over memory written by workmem's own hooks from recorded
sessions and by its CLI (``natural_memory``). Each question names its answer by a piece
of the answer entry's text (or its date, for "what did we do on …"); hit@1 and hit@5 are
the share of questions whose answer is the first hit, or among the first five.

A question whose answer no entry of the built memory holds (what the hooks keep of a
session changed, say) cannot be found by any search: it is counted as ``not_in_memory``
and hit@k is also given over the answerable questions alone, so that a change in what the
writers keep is not read as a change in search.

Questions are split into a ``tune`` part, which ranking changes may be chosen on, and a
``held`` part, which is only ever reported. Misses are listed for the tune part only, so
that reading a report never shows what a held question needed.
"""

from __future__ import annotations

import os
import statistics
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import FormatError, UsageError
from .natural_memory import Replayed, Write

PARTS = ("tune", "held")
#: Hits asked for per question; hit@5 is read from them, the rank shown up to here.
DEPTH = 10


@dataclass(frozen=True)
class Answer:
    """What a hit must be to answer a question: a piece of its text, and/or kind and date."""

    contains: str | None = None
    kinds: tuple[str, ...] = ()
    date: str | None = None

    def matches(self, text: str, title: str, kind: str, day: str | None) -> bool:
        if self.kinds and kind not in self.kinds:
            return False
        if self.date is not None and day != self.date:
            return False
        if self.contains is None:
            return True
        wanted = _flat(self.contains)
        return wanted in _flat(text) or wanted in _flat(title)


@dataclass(frozen=True)
class Question:
    text: str
    part: str
    about: str
    lang: str
    answers: tuple[Answer, ...]


@dataclass(frozen=True)
class Spec:
    asked_at: str
    sessions: tuple[Replayed, ...]
    writes: tuple[Write, ...]
    questions: tuple[Question, ...]


def _flat(text: str) -> str:
    return " ".join(text.casefold().split())


def load(path: Path) -> Spec:
    """Read a question file; a missing or wrong field is a ``FormatError`` naming it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise FormatError(f"cannot read the questions: {exc}", path=str(path)) from None
    where = str(path)
    try:
        sessions = tuple(Replayed(str(s["name"]), str(s["start"])) for s in data["session"])
        writes = tuple(
            Write(str(w["at"]), tuple(str(a) for a in w["args"])) for w in data.get("write", [])
        )
        questions = tuple(_question(q, where) for q in data["question"])
        asked_at = str(data["asked_at"])
    except (KeyError, TypeError) as exc:
        raise FormatError(f"a question file needs {exc}", path=where) from None
    return Spec(asked_at, sessions, writes, questions)


def _question(item: dict[str, Any], where: str) -> Question:
    part = str(item.get("part", ""))
    if part not in PARTS:
        raise FormatError(f"question {item.get('text')!r}: part must be tune or held", path=where)
    answers = tuple(
        Answer(
            a.get("contains"),
            tuple(a.get("kind", ())) if isinstance(a.get("kind"), list) else (),
            a.get("date"),
        )
        for a in item["answers"]
    )
    if not answers or not all(a.contains or a.date for a in answers):
        raise FormatError(
            f"question {item['text']!r}: every answer needs text or a date", path=where
        )
    return Question(str(item["text"]), part, str(item["about"]), str(item["lang"]), answers)


@dataclass
class Asked:
    """One question asked once: where its answer landed (0 = not in the top ``DEPTH``)."""

    question: Question
    rank: int
    wall_ms: float
    cpu_ms: float
    top: list[str] = field(default_factory=list)
    #: some entry of the memory answers it (``in_memory``); False: no search can
    answerable: bool = True


def rank_of(question: Question, hits: Sequence[Any]) -> int:
    """1-based rank of the first hit that answers ``question``; 0 when none does."""
    for rank, hit in enumerate(hits, 1):
        if any(a.matches(hit.text, hit.title, hit.kind, hit.date) for a in question.answers):
            return rank
    return 0


def in_memory(root: Path, questions: Sequence[Question]) -> set[str]:
    """The questions some entry of the memory's index answers, by the rule ``rank_of``
    applies to hits (run after the index is brought up to date)."""
    from ..root import Workspace
    from .hits import COLUMNS, make_hit
    from .search import search_settings

    workspace = Workspace(root)
    found: set[str] = set()
    with search_settings(workspace).index(workspace).connect() as con:
        for row in con.execute(f"SELECT {COLUMNS} FROM chunks c"):
            entry = make_hit(row, 0.0, [])
            found.update(q.text for q in questions if q.text not in found and rank_of(q, [entry]))
    return found


def ask_all(
    root: Path, questions: Sequence[Question], embedder: str, answerable: set[str] | None = None
) -> list[Asked]:
    """Every question asked of the memory at ``root`` with ``embedder``."""
    from ..root import Workspace
    from .search import search

    workspace = Workspace(root)
    asked: list[Asked] = []
    for question in questions:
        started, cpu = time.perf_counter(), time.process_time()
        hits = search(workspace, question.text, k=DEPTH, embedder=embedder)
        wall_ms = (time.perf_counter() - started) * 1000
        cpu_ms = (time.process_time() - cpu) * 1000
        top = [f"{h.kind} {h.title[:50]} | {' '.join(h.text.split())[:70]}" for h in hits[:3]]
        known = answerable is None or question.text in answerable
        asked.append(Asked(question, rank_of(question, hits), wall_ms, cpu_ms, top, known))
    return asked


def _share(values: Sequence[Asked], depth: int) -> float:
    if not values:
        return 0.0
    return round(sum(1 for a in values if 0 < a.rank <= depth) / len(values), 4)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def summarize(asked: Sequence[Asked]) -> dict[str, Any]:
    """hit@1, hit@5 and time per query, for all questions, by part, topic and language."""

    def block(values: Sequence[Asked]) -> dict[str, Any]:
        answerable = [a for a in values if a.answerable]
        return {
            "questions": len(values),
            "hit@1": _share(values, 1),
            "hit@5": _share(values, 5),
            "hit@10": _share(values, 10),
            "not_in_memory": len(values) - len(answerable),
            "answerable_hit@5": _share(answerable, 5),
        }

    walls = [a.wall_ms for a in asked]
    cpus = [a.cpu_ms for a in asked]
    report: dict[str, Any] = {"all": block(asked)}
    for part in PARTS:
        mine = [a for a in asked if a.question.part == part]
        report[part] = block(mine)
        report[part]["by_topic"] = {
            about: block([a for a in mine if a.question.about == about])
            for about in sorted({a.question.about for a in mine})
        }
        report[part]["by_language"] = {
            lang: block([a for a in mine if a.question.lang == lang])
            for lang in sorted({a.question.lang for a in mine})
        }
    report["wall_ms"] = {"p50": _pct(walls, 0.5), "p95": _pct(walls, 0.95)}
    report["cpu_ms"] = {"p50": _pct(cpus, 0.5), "p95": _pct(cpus, 0.95)}
    report["mean_wall_ms"] = round(statistics.fmean(walls), 2) if walls else 0.0
    report["tune_misses"] = [
        {"question": a.question.text, "rank": a.rank, "top": a.top, "in_memory": a.answerable}
        for a in asked
        if a.question.part == "tune" and not 0 < a.rank <= 5
    ]
    return report


def run(
    spec: Spec,
    data: Path,
    memory: Path,
    *,
    embedders: Sequence[str] = ("none", "auto"),
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the memory at ``memory`` (or reuse the one there), ask, and report per embedder.

    Questions are asked at ``spec.asked_at`` ("yesterday" is the day before it).
    """
    from .natural_memory import build
    from .search import reindex

    if not (memory / "memory").is_dir():
        if not data.is_dir():
            raise UsageError(f"no recorded sessions at {data} (set WORKMEM_SHARED)")
        problems = build(memory, data, spec.sessions, spec.writes, progress=progress)
        if problems:
            raise UsageError("building the memory failed: " + "; ".join(problems[:5]))
    from ..root import Workspace

    previous = os.environ.get("WORKMEM_NOW")
    os.environ["WORKMEM_NOW"] = spec.asked_at
    report: dict[str, Any] = {"asked_at": spec.asked_at, "questions": len(spec.questions)}
    answerable: set[str] | None = None
    try:
        for embedder in embedders:
            (memory / "workmem.toml").write_text(
                f'[search]\nembedder = "{embedder}"\nwarm = false\n', encoding="utf-8"
            )
            if progress:
                progress(f"indexing for embedder {embedder}")
            started = time.perf_counter()
            reindex(Workspace(memory))
            index_s = round(time.perf_counter() - started, 2)
            if answerable is None:
                answerable = in_memory(memory, spec.questions)
            if progress:
                progress(f"asking {len(spec.questions)} questions with embedder {embedder}")
            result = summarize(ask_all(memory, spec.questions, embedder, answerable))
            result["index_s"] = index_s
            report[embedder] = result
    finally:
        if previous is None:
            os.environ.pop("WORKMEM_NOW", None)
        else:
            os.environ["WORKMEM_NOW"] = previous
    return report
