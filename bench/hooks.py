"""Hook latency: ``workmem hook`` for user-prompt-submit and session-start, against a bare
``python3 -c pass`` measured in the same run, on a root whose board holds 1,000 sessions.

Targets (issue 7): user-prompt-submit under 6x and session-start under 10x the bare start.

    .venv/bin/python bench/hooks.py [--sessions 1000] [--runs 15]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from workmem.board.model import COLUMNS
from workmem.files.tables import format_row


def build_root(root: Path, sessions: int) -> None:
    memory = root / "memory"
    (memory / "sessions").mkdir(parents=True)
    lines = ["# Memory Index", "", format_row(COLUMNS), "|" + "---|" * len(COLUMNS)]
    for n in range(sessions):
        sid = f"2026-04-{1 + n % 28:02d}-{n // 60 % 24:02d}{n % 60:02d}-claude-code-main-agent-{n}"
        status = "active" if n % 2 else "idle"
        lines.append(
            format_row(
                [
                    sid,
                    "claude-code-main-agent",
                    f"topic {n}",
                    f"summary {n}",
                    "k",
                    status,
                    "-",
                    "2026-04-01 09:00",
                    "2026-04-02 09:00",
                ]
            )
        )
        if status == "active":
            (memory / "sessions" / f"{sid}.md").write_text(
                f"# Session: {sid}\n\n## Metadata\n\n| Field | Value |\n|---|---|\n"
                f"| Session ID | {sid} |\n\n## Decisions\n\n- decision {n}\n"
            )
    (memory / "index.md").write_text("\n".join(lines) + "\n")
    for day in range(1, 29):
        log = f"# 2026-04-{day:02d}\n\n### Work\n\nday {day}\n"
        (memory / f"2026-04-{day:02d}.md").write_text(log)


def timed(argv: list[str], stdin: str, runs: int, env: dict[str, str]) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True, env=env)
        samples.append(time.perf_counter() - start)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=15)
    options = parser.parse_args()
    exe = shutil.which("workmem", path=str(Path(sys.executable).parent)) or "workmem"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        build_root(root, options.sessions)
        transcript = Path(tmp) / "t.jsonl"
        from workmem.demo_transcript import claude_code

        claude_code(transcript, cwd=str(root))
        env = {**os.environ, "WORKMEM_ROOT": str(root), "WORKMEM_NOW": "2026-05-25 13:18"}
        base = {"session_id": "bench", "transcript_path": str(transcript), "cwd": str(root)}
        # Register once so later prompts find their session, as in a real session.
        subprocess.run(
            [exe, "hook", "SessionStart", "--platform", "claude-code"],
            input=json.dumps({**base, "source": "startup"}),
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        bare = timed([sys.executable, "-c", "pass"], "", options.runs, env)
        prompt = timed(
            [exe, "hook", "UserPromptSubmit", "--platform", "claude-code"],
            json.dumps({**base, "prompt": "please look at the failing test in auth"}),
            options.runs,
            env,
        )
        start = timed(
            [exe, "hook", "SessionStart", "--platform", "claude-code"],
            json.dumps({**base, "source": "resume"}),
            options.runs,
            env,
        )
        fresh = timed(
            [exe, "hook", "SessionStart", "--platform", "claude-code"],
            json.dumps({**base, "session_id": "", "source": "startup"}),
            options.runs,
            env,
        )
        log = root / "memory" / ".workmem" / "hook.log"
    b = statistics.median(bare) * 1000
    print(f"board: {options.sessions} sessions; runs: {options.runs}; medians")
    print(f"python -c pass                 {b:7.1f} ms")
    for name, samples, target in (
        ("user-prompt-submit", prompt, 6),
        ("session-start (resume)", start, 10),
        ("session-start (new session)", fresh, 10),
    ):
        m = statistics.median(samples) * 1000
        print(f"{name:<30} {m:7.1f} ms  {m / b:4.1f}x  (target < {target}x)")
    if log.exists():
        print("hook.log:", log.read_text()[-500:])


if __name__ == "__main__":
    main()
