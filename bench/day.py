"""A day of real sessions through the hooks, then what the next session starts with.

Replays recorded Claude Code sessions (``../shared/data/continuity/claude-code`` by default)
one after another in a fresh HOME and memory root, as Claude Code fires its hooks: session
start, the first and last prompts, a turn end, and the session end (in the foreground). The
clock (``WORKMEM_NOW``) and the transcripts' file times move together, two hours a session.
Then a new session starts and the context it is given is printed with its token count, and
with ``--first-prompt`` also what its first prompt brings.

    .venv/bin/python bench/day.py [--sessions 3] [--no-end-last] [--first-prompt TEXT]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from workmem.continuity.hook_shapes import PROMPT, START, model_context  # noqa: E402
from workmem.continuity.sandbox import run_hook  # noqa: E402
from workmem.continuity.truth import read_recording  # noqa: E402
from workmem.retrieval.tokens import count_tokens  # noqa: E402

SHARED = Path(os.environ.get("WORKMEM_SHARED", REPO.parent / "shared"))
DEFAULT = SHARED / "data" / "continuity" / "claude-code"
DAY = datetime(2026, 11, 30, 9, 0)


def place(home: Path, root: Path, session_id: str, body: bytes, at: datetime) -> Path:
    encoded = re.sub(r"[^A-Za-z0-9]", "-", str(root))
    path = home / ".claude" / "projects" / encoded / f"{session_id}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(body)
    stamp = at.timestamp()
    os.utime(path, (stamp, stamp))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--no-end-last", action="store_true", help="the last session crashes")
    parser.add_argument("--first-prompt", default="")
    parser.add_argument("--keep", type=Path, help="copy the memory root here afterwards")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no recorded sessions at {args.data}")
        return 1
    files = sorted(args.data.glob("*.jsonl"))[: args.sessions]
    with tempfile.TemporaryDirectory(prefix="workmem-day-") as tmp:
        home, root = Path(tmp) / "home", Path(tmp) / "project"
        root.mkdir(parents=True)
        (root / ".git").mkdir()
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("WORKMEM_", "CLAUDE_", "CODEX_"))
        }
        env.update(HOME=str(home), PYTHONDONTWRITEBYTECODE="1", WORKMEM_HOOK_FOREGROUND="1")
        at = DAY
        for number, path in enumerate(files):
            rec = read_recording(path)
            transcript = place(home, root, rec.session_id, path.read_bytes(), at)
            base: dict[str, object] = {"session_id": rec.session_id}
            base["transcript_path"] = str(transcript)
            base["cwd"] = str(root)
            prompts = [r.text for r in rec.requests]
            steps = [("SessionStart", {"source": "startup"}, at)]
            if prompts:
                steps.append(("UserPromptSubmit", {"prompt": prompts[-1]}, at))
            steps.append(("Stop", {}, at + timedelta(minutes=50)))
            last = number == len(files) - 1
            if not (last and args.no_end_last):
                steps.append(("SessionEnd", {"reason": "other"}, at + timedelta(minutes=55)))
            for event, extra, when in steps:
                env["WORKMEM_NOW"] = when.strftime("%Y-%m-%d %H:%M")
                payload = {**base, "hook_event_name": event, **extra}
                _out, seconds, problem = run_hook(event, "claude-code", payload, root, env)
                if problem:
                    print(f"! {path.name} {event}: {problem}")
            print(f"replayed {path.name} ({len(prompts)} requests) at {at:%H:%M}")
            at += timedelta(hours=2)
        env["WORKMEM_NOW"] = at.strftime("%Y-%m-%d %H:%M")
        start: dict[str, object] = {"session_id": "next-session", "cwd": str(root)}
        start["source"] = "startup"
        start["hook_event_name"] = "SessionStart"
        out, seconds, problem = run_hook("SessionStart", "claude-code", start, root, env)
        context = model_context("claude-code", START, out, root)
        print(f"\n===== next session start ({count_tokens(context)} tokens, {seconds:.2f} s)")
        print(context)
        if args.first_prompt:
            prompt: dict[str, object] = {"session_id": "next-session", "cwd": str(root)}
            prompt["prompt"] = args.first_prompt
            prompt["hook_event_name"] = "UserPromptSubmit"
            out, seconds, problem = run_hook("UserPromptSubmit", "claude-code", prompt, root, env)
            context = model_context("claude-code", PROMPT, out, root)
            print(f"\n===== first prompt ({count_tokens(context)} tokens, {seconds:.2f} s)")
            print(context)
        if args.keep:
            import shutil

            shutil.copytree(root, args.keep, dirs_exist_ok=True)
        log = root / "memory" / ".workmem" / "hook.log"
        if log.is_file():
            print("\n===== hook log\n" + log.read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
