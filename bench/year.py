"""A year of memory, built through the CLI: do early decisions stay findable at day 365?

Simulates a year of work on one project: about three sessions a working day, each
registered on the board with its decisions, noted, and ended with a daily-log entry and
thread decisions (``workmem session register``, ``note decision``, ``end``; the CLI's own
entry point, run in this process with the clock set per call). Twelve decisions made in
January are the targets; the rest of the year decides about the same twelve topics again
and again, so a question about January has hundreds of near-misses.

At the end of the year each target is asked for three ways: precisely (words of the
decision), vaguely ("parser decision"), and vaguely with a time ("… in January", "…
last winter", Chinese "一月"). A target counts as found when a hit's text holds it.
Then the cost of the first search after a day of writing, with the index refreshed in
the background after each save (as the CLI does) and without.

    .venv/bin/python bench/year.py [--keep DIR] [--embedder none|hash|auto] [--json]

Figures, not pass/fail. Timing on a shared machine varies: run it more than once.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from workmem.cli import main as cli

START = date(2026, 1, 5)
TODAY = date(2026, 12, 28)


@dataclass(frozen=True)
class Target:
    topic: str
    day: date
    decision: str
    why: str
    precise: str
    #: The words that identify the decision in a hit's text.
    marker: str


TARGETS = [
    Target(
        "parser",
        date(2026, 1, 6),
        "Use a hand-written recursive descent parser for the config format",
        "the generated parser gave useless error messages",
        "why did we choose recursive descent for the config parser?",
        "recursive descent parser for the config format",
    ),
    Target(
        "cache",
        date(2026, 1, 7),
        "Cache rendered invoices in Redis with a 15 minute TTL",
        "rendering an invoice takes two seconds",
        "what TTL did we pick for the invoice cache in Redis?",
        "Redis with a 15 minute TTL",
    ),
    Target(
        "auth",
        date(2026, 1, 8),
        "Store session tokens in HttpOnly cookies instead of localStorage",
        "scripts injected into the page must not read them",
        "where do we keep session tokens, cookies or localStorage?",
        "HttpOnly cookies instead of localStorage",
    ),
    Target(
        "billing",
        date(2026, 1, 12),
        "Round invoice totals with banker's rounding at the line level",
        "the accountants reconcile line by line",
        "how do we round invoice totals?",
        "banker's rounding at the line level",
    ),
    Target(
        "search",
        date(2026, 1, 13),
        "Index product names with trigram tokenization in Postgres",
        "customers misspell brand names",
        "which tokenization do we use for product name search?",
        "trigram tokenization in Postgres",
    ),
    Target(
        "deploy",
        date(2026, 1, 14),
        "Deploy with blue-green switching behind the load balancer",
        "rollbacks must take seconds, not a redeploy",
        "did we go with blue-green deploys behind the load balancer?",
        "blue-green switching behind the load balancer",
    ),
    Target(
        "logging",
        date(2026, 1, 19),
        "Emit structured JSON logs with a request id on every line",
        "tracing one request across services was guesswork",
        "do our log lines carry a request id, and in which format?",
        "structured JSON logs with a request id",
    ),
    Target(
        "schema",
        date(2026, 1, 20),
        "Add a soft-delete column instead of deleting customer rows",
        "support restores accounts deleted by mistake",
        "do we hard-delete customer rows or soft delete them?",
        "soft-delete column instead of deleting customer rows",
    ),
    Target(
        "api",
        date(2026, 1, 21),
        "Version the public API in the URL path as /v2",
        "clients ignore custom headers",
        "how is the public API versioned?",
        "public API in the URL path as /v2",
    ),
    Target(
        "frontend",
        date(2026, 1, 26),
        "Move the dashboard charts from D3 to Vega-Lite",
        "nobody on the team can maintain the D3 code",
        "which charting library replaced D3 on the dashboard?",
        "dashboard charts from D3 to Vega-Lite",
    ),
    Target(
        "testing",
        date(2026, 1, 27),
        "Run the slow integration suite nightly, not on every pull request",
        "pull requests waited forty minutes for CI",
        "when does the slow integration suite run?",
        "slow integration suite nightly",
    ),
    Target(
        "notifications",
        date(2026, 1, 28),
        "Batch email notifications into a daily digest",
        "users unsubscribed because of the volume",
        "did we batch the email notifications into a digest?",
        "email notifications into a daily digest",
    ),
]

#: For each topic, decisions the rest of the year makes about it (reused, recombined).
CHOICES: dict[str, list[str]] = {
    "parser": [
        "stream tokens instead of reading the whole file",
        "report line and column numbers in parser errors",
        "reject unknown keys in strict mode",
        "keep comments when the config is written back",
        "support include directives in config files",
        "parse durations like 5m and 2h natively",
        "drop the legacy INI parser",
        "fuzz the parser nightly",
        "limit nesting depth to 64 levels in the parser",
    ],
    "cache": [
        "invalidate the cache on every price change",
        "warm the cache after each deploy",
        "move the session cache to a separate Redis database",
        "cap cache entries at 1 MB",
        "use stale-while-revalidate for the catalogue cache",
        "drop the in-process LRU cache",
        "key cache entries by tenant and locale",
    ],
    "auth": [
        "require two-factor login for admins",
        "rotate signing keys every 90 days",
        "expire idle sessions after 30 minutes",
        "add single sign-on through SAML for enterprise tenants",
        "hash passwords with argon2id",
        "rate-limit login attempts per IP address",
        "log every failed login with the user agent",
    ],
    "billing": [
        "send invoices as PDF and as UBL XML",
        "charge VAT by the customer's country",
        "retry failed card payments three times over a week",
        "prorate plan upgrades by the day",
        "keep invoice numbers gapless per year",
        "refund through the original payment method only",
        "bill annual plans up front",
    ],
    "search": [
        "boost exact SKU matches to the top",
        "rebuild the search index nightly",
        "show spelling suggestions under the results",
        "filter out discontinued products from search",
        "cap search results at 200 per page",
        "rank by sales in the last 30 days as a tie-break",
        "log zero-result searches for review",
    ],
    "deploy": [
        "tag every release with the git commit",
        "freeze deploys on Friday afternoons",
        "run database migrations before the new code starts",
        "keep two previous releases for rollback",
        "deploy the worker fleet after the web fleet",
        "require a green staging run before production",
        "announce deploys in the team channel",
    ],
    "logging": [
        "keep logs for 30 days",
        "drop debug logs in production",
        "sample health-check logs at one percent",
        "ship logs through the collector sidecar",
        "redact email addresses in logs",
        "alert on a spike of error logs",
        "log slow queries over 500 ms",
    ],
    "schema": [
        "use UUID primary keys for new tables",
        "add created_at and updated_at to every table",
        "split the orders table by year",
        "store money as integer cents",
        "add a unique index on customer email",
        "move addresses to their own table",
        "never rename a column in one release",
    ],
    "api": [
        "paginate list endpoints with cursors",
        "return errors as problem+json",
        "rate-limit the API per token",
        "publish an OpenAPI document for every release",
        "deprecate endpoints with a sunset header",
        "accept idempotency keys on POST requests",
        "cap request bodies at 5 MB",
    ],
    "frontend": [
        "lazy-load the settings pages",
        "use the design system buttons everywhere",
        "drop support for the old Safari versions",
        "keep dark mode in the user profile",
        "render the order list on the server",
        "store table filters in the URL",
        "add keyboard shortcuts to the dashboard",
    ],
    "testing": [
        "mock the payment provider in unit tests",
        "run the browser tests on every merge to main",
        "keep test fixtures next to the code they test",
        "fail the build on new flaky tests",
        "measure coverage but do not gate on it",
        "seed random data from a fixed seed in tests",
        "snapshot-test the invoice PDFs",
    ],
    "notifications": [
        "let users mute notifications per project",
        "send push notifications only between 8:00 and 21:00",
        "retry webhook deliveries with backoff",
        "show unread notifications in the header",
        "stop emailing about comments the user wrote",
        "translate notification emails into the user's language",
        "keep notifications for 90 days",
    ],
}

REASONS = [
    "customers asked for it twice this month",
    "the old way broke under load",
    "it keeps the code simpler",
    "support spent hours on tickets about it",
    "security review flagged it",
    "it costs less to run",
    "the team agreed after a short spike",
    "it matches what the other services do",
]

VERBS = ["Decided to", "We will", "Agreed to", "Going forward,", "From now on we"]

#: The vague form of each question ("parser decision") and the time words added to it.
TIME_FORMS = {
    "in January": "{topic} decision in January",
    "last winter": "what did we decide about the {topic} last winter?",
    "last spring": "{topic} decisions last spring",
    "一月 (zh)": "一月份關於 {topic} 的決定",
}


def _workdays() -> Iterator[date]:
    day = START
    while day <= TODAY:
        if day.weekday() < 5:
            yield day
        day += timedelta(days=1)


def _call(argv: list[str], now: str) -> None:
    os.environ["WORKMEM_NOW"] = now
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        code = cli([*argv, "--json"])
    if code != 0:
        raise SystemExit(f"workmem {' '.join(argv)} failed ({code}): {said.getvalue()[-600:]}")


@dataclass
class Counts:
    sessions: int = 0
    decisions: int = 0
    calls: int = 0


def _session(day: date, hour: int, topic: str, decisions: list[tuple[str, str]], n: Counts) -> None:
    now = f"{day.isoformat()} {hour:02d}:00"
    first = decisions[0][0]
    _call(
        [
            "session",
            "register",
            "--topic",
            f"{topic} work",
            "--summary",
            f"Worked on the {topic}: {first[:60].strip()}",
            "--keywords",
            f"{topic}, decisions",
            "--section",
            "Decisions=" + "\n".join(text for text, _ in decisions),
        ],
        now,
    )
    for text, why in decisions:
        _call(["note", "decision", text, "--why", why], now)
    summary = f"Session on the {topic}."  # the decisions follow it in the log entry
    end = ["end", "--summary", summary, "--resumption", f"I was working on the {topic}."]
    _call([*end, "--decision", f"{topic}={decisions[0][0]}"], now)
    n.sessions += 1
    n.decisions += len(decisions)
    n.calls += 2 + len(decisions)


def build(root: Path, *, until: date, rng: random.Random, n: Counts) -> None:
    """Write every working day up to ``until`` (inclusive) through the CLI."""
    topics = list(CHOICES)
    targets = {t.day: t for t in TARGETS}
    for day in _workdays():
        if day > until:
            break
        if (root / "memory" / f"{day.isoformat()}.md").exists():
            continue
        sessions = rng.choice((2, 3, 3, 3, 4))
        for slot in range(sessions):
            hour = 9 + 2 * slot
            target = targets.pop(day, None) if slot == 0 else None
            if target is not None:
                _session(day, hour, target.topic, [(target.decision, target.why)], n)
                continue
            topic = rng.choice(topics)
            picks = rng.sample(CHOICES[topic], rng.choice((1, 1, 1, 2)))
            made = [(f"{rng.choice(VERBS)} {c}", rng.choice(REASONS)) for c in picks]
            _session(day, hour, topic, made, n)


@dataclass
class Asked:
    rank: int | None
    ms: float
    #: Of the top 5, how many are dated inside the time the question names (None: no time).
    inside: int | None


def _ask_one(root: Path, query: str, marker: str, embedder: str) -> Asked:
    from workmem.retrieval.dates import query_range
    from workmem.retrieval.search import search
    from workmem.root import Workspace

    started = time.perf_counter()
    hits = search(Workspace(root), query, k=25, embedder=embedder)
    spent = (time.perf_counter() - started) * 1000
    named = query_range(query, TODAY)
    inside = None
    if named is not None:
        days = [date.fromisoformat(h.date) for h in hits[:5] if h.date]
        inside = sum(1 for d in days if named.start <= d <= named.end)
    wanted = marker.lower()
    rank = next((n for n, hit in enumerate(hits, 1) if wanted in hit.text.lower()), None)
    return Asked(rank, spent, inside)


def ask(root: Path, embedder: str) -> dict[str, Any]:
    os.environ["WORKMEM_NOW"] = f"{TODAY.isoformat()} 17:00"
    forms: dict[str, dict[str, Any]] = {}
    latencies: list[float] = []
    templates = {"precise": "", "vague": "{topic} decision", **TIME_FORMS}
    for name, template in templates.items():

        def make(t: Target, template: str = template) -> str:
            return template.format(topic=t.topic) if template else t.precise

        asked = [_ask_one(root, make(t), t.marker, embedder) for t in TARGETS]
        latencies.extend(a.ms for a in asked)
        ranks = [a.rank for a in asked]
        inside = [a.inside for a in asked if a.inside is not None]
        forms[name] = {
            "top5": sum(1 for r in ranks if r is not None and r <= 5),
            "top25": sum(1 for r in ranks if r is not None),
            "ranks": ranks,
            # several decisions of a topic fall in any month: for a vague question with a
            # time, what counts is that its hits come from that time
            "top5_inside_time": round(sum(inside) / (5 * len(inside)), 3) if inside else None,
            "example": make(TARGETS[0]),
        }
    ordered = sorted(latencies)
    return {
        "questions": forms,
        "latency_ms": {
            "p50": round(statistics.median(ordered), 1),
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        },
    }


def _index_size(root: Path) -> dict[str, int]:
    import sqlite3

    con = sqlite3.connect(root / "memory" / ".workmem" / "search.sqlite")
    try:
        chunks = con.execute("SELECT count(*) FROM chunks").fetchone()[0]
        files = con.execute("SELECT count(*) FROM files").fetchone()[0]
    finally:
        con.close()
    return {"chunks": int(chunks), "files": int(files)}


def first_search_after_a_day(root: Path, rng: random.Random, *, warm: bool) -> float:
    """Write one more day of sessions, then time the first search (ms)."""
    from workmem.retrieval import warm as warming
    from workmem.retrieval.search import search
    from workmem.root import Workspace

    workspace = Workspace(root)
    os.environ[warming.ENV] = "1" if warm else "0"
    day = TODAY + timedelta(days=1 if not warm else 2)
    topics = list(CHOICES)
    n = Counts()
    for slot in range(3):
        topic = rng.choice(topics)
        text = f"{rng.choice(VERBS)} {rng.choice(CHOICES[topic])}"
        _session(day, 9 + 2 * slot, topic, [(text, rng.choice(REASONS))], n)
    if warm:  # a person reads, thinks, types: the warmer has had its seconds
        deadline = time.monotonic() + 300
        while warming._running(workspace) and time.monotonic() < deadline:
            time.sleep(0.05)
    os.environ["WORKMEM_NOW"] = f"{day.isoformat()} 17:00"
    started = time.perf_counter()
    search(workspace, "what did we decide about retries?", k=10)
    return round((time.perf_counter() - started) * 1000, 1)


def run(root: Path, embedder: str) -> dict[str, Any]:
    from workmem.retrieval.search import reindex
    from workmem.root import Workspace

    os.environ["WORKMEM_ROOT"] = str(root)
    os.environ["WORKMEM_EMBEDDER"] = embedder
    os.environ["WORKMEM_PLATFORM"] = "claude-code"
    os.environ["WORKMEM_WARM"] = "0"
    rng = random.Random(365)
    n = Counts()
    started = time.perf_counter()
    if not (root / "memory").exists():
        _call(["init"], f"{START.isoformat()} 08:00")
    build(root, until=TODAY, rng=rng, n=n)
    built_s = time.perf_counter() - started
    started = time.perf_counter()
    reindex(Workspace(root))
    index_s = time.perf_counter() - started
    report: dict[str, Any] = {
        "embedder": embedder,
        "sessions": n.sessions,
        "decisions": n.decisions,
        "cli_calls": n.calls,
        "build_s": round(built_s, 1),
        "index_s": round(index_s, 1),
        **_index_size(root),
        **ask(root, embedder),
    }
    report["first_search_after_a_day_ms"] = {
        "without_warming": first_search_after_a_day(root, rng, warm=False),
        "warmed_in_background": first_search_after_a_day(root, rng, warm=True),
    }
    return report


def _print(report: dict[str, Any]) -> None:
    print(
        f"A year through the CLI: {report['sessions']} sessions, {report['decisions']} decisions"
        f" ({report['cli_calls']} CLI calls, {report['build_s']} s); index {report['chunks']}"
        f" chunks from {report['files']} files ({report['index_s']} s) · embedder"
        f" {report['embedder']}"
    )
    print(f"{'question form':<14} {'top 5':>6} {'top 25':>7} {'top 5 in time':>14}  example")
    for name, form in report["questions"].items():
        share = form["top5_inside_time"]
        inside = "-" if share is None else f"{share:.2f}"
        print(
            f"{name:<14} {form['top5']:>3}/12 {form['top25']:>4}/12 {inside:>14}  {form['example']}"
        )
    latency = report["latency_ms"]
    print(f"search latency at day 365: p50 {latency['p50']} ms, p95 {latency['p95']} ms")
    first = report["first_search_after_a_day_ms"]
    print(
        f"first search after a day of writing: {first['without_warming']} ms without warming,"
        f" {first['warmed_in_background']} ms with the index warmed in the background"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/year.py", description=__doc__.split("\n")[0])
    parser.add_argument("--keep", metavar="DIR", help="build (or reuse) the year in DIR")
    parser.add_argument("--embedder", default="none", help="none (default), hash, auto, …")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="workmem-year-") as scratch:
        root = Path(args.keep) if args.keep else Path(scratch)
        root.mkdir(parents=True, exist_ok=True)
        report = run(root.resolve(), args.embedder)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
