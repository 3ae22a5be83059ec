"""``make demo``: a scripted walk through workmem on a fresh temporary workspace.

Each step prints the command a person or an agent would type and runs it through the real
CLI entry point, so what you see is exactly what the tool does. The clock is pinned with
``WORKMEM_NOW`` so the stale rules can be shown without waiting two weeks.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import sys
import tempfile
from pathlib import Path

from .cli import main as cli_main


def run(*argv: str, stdin: str | None = None, show: bool = True, expect: int = 0) -> str:
    """Run one CLI command in-process, echo it and its output, return stdout."""
    print(f"\n$ workmem {shlex.join(argv)}")
    buffer = io.StringIO()
    errors = io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(errors):
            code = cli_main(list(argv))
    finally:
        sys.stdin = old_stdin
    out = buffer.getvalue()
    if show:
        print((out + errors.getvalue()).rstrip())
    if code != expect:
        raise SystemExit(f"demo step failed with exit code {code}: workmem {shlex.join(argv)}")
    return out


def session_id(output: str) -> str:
    """The ID from a JSON result, or from the "Your Memory Session ID is:" line."""
    if output.lstrip().startswith("{"):
        return str(json.loads(output)["session_id"])
    for line in output.splitlines():
        if line.startswith("Your Memory Session ID is: "):
            return line.rsplit(" ", 1)[1]
    raise SystemExit("demo: no session ID in the output")


def board_demo(root: Path) -> None:
    print("== The session board (seed 001) ==")
    first = session_id(run("session", "start", "--json", show=False))
    print(f"Your Memory Session ID is: {first}")
    run(
        "session",
        "update",
        first,
        "--topic",
        "Login rate limiting",
        "--context",
        "-",
        "--section",
        "Decisions=Limit by IP and by account\nStore counters in Redis",
        "--section",
        "Next Actions=Write the middleware\nAdd metrics",
        "--section",
        "Files=src/auth/ratelimit.py",
        stdin="Added rate limiting to the login endpoint. Counters live in Redis.",
    )
    run("session", "start", "--agent-name", "cursor-main-agent")
    os.environ["WORKMEM_NOW"] = "2026-05-26 09:30"
    second = session_id(run("session", "continue", first, "--context", "Picking up the metrics."))
    run("session", "update", first, "--section", "Next Actions=[done] Write the middleware")
    run("session", "list")
    os.environ["WORKMEM_NOW"] = "2026-06-12 10:00"
    print("\n(17 days later)")
    run("organize")
    print("\n(archive refuses while another session still continues from it)")
    run("session", "archive", first, expect=4)
    run("session", "release", first, "--as", second)
    run("session", "archive", first)
    run("doctor")
    print("\n--- memory/index.md ---")
    print((root / "memory" / "index.md").read_text().rstrip())
    print(f"\n--- memory/sessions/{second}.md ---")
    print((root / "memory" / "sessions" / f"{second}.md").read_text().rstrip())


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="workmem-demo-") as tmp:
        root = Path(tmp)
        os.environ["WORKMEM_ROOT"] = str(root)
        os.environ["WORKMEM_NOW"] = "2026-05-25 13:18"
        os.environ.setdefault("WORKMEM_PLATFORM", "claude-code")
        print(f"workmem demo in a fresh workspace: {root}")
        board_demo(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
