"""Hook time against transcript size: does a hook cost grow with how long a session ran?

Builds two Claude Code transcripts from the same records, a small one (default 1 MB) and a
huge one (default 400 MB: a plan made early, then a long session of edits and replies), and
runs the real hook commands on each, as separate processes, the way the agent starts them:

- the prompt hook the first time it sees the transcript, then again after one more exchange;
- pre-compact (notes, board snapshot, relay snapshot, from one bounded read);
- session start after the compaction (the resume context);
- session end.

Targets (issues 11 and 12): the prompt hook on the huge transcript within 100 ms of the small
one; pre-compact and session end within their deadlines (25 s and 15 s) at any size; the
resume still holds the plan made at the start.

    .venv/bin/python bench/transcript_size.py [--small-mb 1] [--huge-mb 400] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import tempfile
import time
from pathlib import Path


def _record(kind: str, n: int, session: str, cwd: str, body: dict[str, object]) -> bytes:
    record = {
        "type": kind,
        "uuid": f"u{n}",
        "parentUuid": f"u{n - 1}" if n else None,
        "isSidechain": False,
        "sessionId": session,
        "cwd": cwd,
        "timestamp": "2026-05-25T10:00:00.000Z",
        "message": body,
    }
    return json.dumps(record).encode() + b"\n"


def build(path: Path, megabytes: float, session: str, cwd: str) -> None:
    """A session of about ``megabytes``: a first request and plan, then edits and replies."""
    n = 0
    with path.open("wb") as out:

        def write(kind: str, body: dict[str, object]) -> None:
            nonlocal n
            out.write(_record(kind, n, session, cwd, body))
            n += 1

        write("user", {"role": "user", "content": "Port the importer to streaming rows, in steps"})
        todos = [
            {"content": "Stream the rows", "status": "in_progress", "activeForm": "Streaming"},
            {"content": "Keep memory flat on 1 GB files", "status": "pending", "activeForm": "x"},
        ]
        tool = {"type": "tool_use", "id": "plan", "name": "TodoWrite", "input": {"todos": todos}}
        write("assistant", {"role": "assistant", "content": [tool], "id": "m-plan"})
        write(
            "user",
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "plan", "content": "ok"}],
            },
        )
        filler = "The importer now reads one row at a time. " * 40
        target = int(megabytes * 1024 * 1024)
        step = 0
        while out.tell() < target:
            step += 1
            edit = {
                "type": "tool_use",
                "id": f"e{step}",
                "name": "Edit",
                "input": {
                    "file_path": f"{cwd}/src/importer_{step % 7}.py",
                    "old_string": "rows = list(reader)",
                    "new_string": "for row in reader:",
                },
            }
            usage = {
                "input_tokens": 12,
                "cache_read_input_tokens": 90000,
                "output_tokens": 40,
                "cache_creation_input_tokens": 0,
            }
            write(
                "assistant",
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": filler}, edit],
                    "id": f"m{step}",
                    "usage": usage,
                    "model": "claude-sonnet-4-5",
                },
            )
            write(
                "user",
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": f"e{step}", "content": "updated"}
                    ],
                },
            )
        write("user", {"role": "user", "content": "Now make the progress bar show rows per second"})


def run_hook(event: str, payload: dict[str, object], root: Path, home: Path) -> tuple[float, str]:
    from workmem.continuity.replay import run_hook as run

    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKMEM_")}
    env["HOME"] = str(home)
    out, seconds, _problem = run(event, "claude-code", payload, root, env)
    return seconds, out


def measure(megabytes: float, runs: int, folder: Path) -> dict[str, float | str]:
    home, root = folder / f"home-{megabytes}", folder / f"root-{megabytes}"
    root.mkdir(parents=True)
    (root / "workmem.toml").write_text("")
    encoded = re.sub(r"[^A-Za-z0-9]", "-", str(root))
    path = home / ".claude" / "projects" / encoded / "s.jsonl"
    path.parent.mkdir(parents=True)
    started = time.perf_counter()
    build(path, megabytes, "s", str(root))
    built = time.perf_counter() - started
    base: dict[str, object] = {"session_id": "s", "transcript_path": str(path), "cwd": str(root)}
    figures: dict[str, float | str] = {
        "size_mb": round(path.stat().st_size / 2**20, 1),
        "build_s": round(built, 1),
    }
    figures["start_s"] = run_hook("SessionStart", {**base, "source": "startup"}, root, home)[0]
    prompt = {**base, "prompt": "how is it going"}
    figures["prompt_first_s"] = run_hook("UserPromptSubmit", prompt, root, home)[0]
    times = []
    for n in range(runs):
        with path.open("ab") as grow:  # one more exchange, as between two real prompts
            grow.write(
                _record(
                    "user",
                    10**9 + n,
                    "s",
                    str(root),
                    {"role": "user", "content": f"and one more thing {n}"},
                )
            )
        times.append(run_hook("UserPromptSubmit", prompt, root, home)[0])
    figures["prompt_next_s"] = statistics.median(times)
    figures["pre_compact_s"] = run_hook("PreCompact", {**base, "trigger": "auto"}, root, home)[0]
    seconds, out = run_hook("SessionStart", {**base, "source": "compact"}, root, home)
    figures["resume_s"] = seconds
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""
    figures["resume_has_plan"] = str("[in progress] Stream the rows" in context)
    figures["session_end_s"] = run_hook("SessionEnd", {**base, "reason": "exit"}, root, home)[0]
    log = root / "memory" / ".workmem" / "hook.log"
    figures["hook_failures"] = str(len(log.read_text().splitlines()) if log.is_file() else 0)
    path.unlink()
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small-mb", type=float, default=1.0)
    parser.add_argument("--huge-mb", type=float, default=400.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="workmem-size-") as tmp:
        small = measure(args.small_mb, args.runs, Path(tmp))
        huge = measure(args.huge_mb, args.runs, Path(tmp))
    print(f"{'':16}{'small':>12}{'huge':>12}")
    for key in small:
        print(f"{key:16}{small[key]!s:>12}{huge[key]!s:>12}")
    extra = float(huge["prompt_next_s"]) - float(small["prompt_next_s"])
    print(f"\nprompt hook, huge minus small: {extra * 1000:.0f} ms (target under 100 ms)")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
