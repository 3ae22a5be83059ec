"""Reading an OpenClaw 2026.9 session from its SQLite database: time and memory against size.

Builds one database per size (default 1 MB and 300 MB of transcript entries, laid out as
OpenClaw 2026.9 writes them: a first request and plan, then a long session of requests,
tool calls and tool output, the long entries zstd-compressed), then reads the session in a
fresh process the way a save does (``max_bytes`` = the save window) and the way a full read
does (``transcripts history`` on a small one), and prints wall time and peak memory.

Target: a save's read stays bounded (time and peak RSS about the same at 300 MB as at
1 MB), and the plan made at the start is still read.

    .venv/bin/python bench/openclaw_store.py [--small-mb 1] [--huge-mb 300] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SID = "bench-0001"

_READ = """
import json, resource, sys, time
from pathlib import Path
from workmem.continuity.save import read_for_save
started = time.perf_counter()
t = read_for_save(Path(sys.argv[1]), "openclaw")
print(json.dumps({"seconds": time.perf_counter() - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "messages": len(t.messages), "plan": [i.text for i in t.plan],
                  "read_mb": t.bytes_read / 1e6, "skipped_mb": t.skipped_bytes / 1e6}))
"""


def build(database: Path, megabytes: float, cwd: str) -> None:
    sys.path.insert(0, str(REPO))
    import sqlite3

    from tests.transcripts.openclaw_db import append, header, make_store, message

    plan = [
        {
            "type": "toolCall",
            "id": "plan",
            "name": "update_plan",
            "arguments": {"plan": [{"step": "Stream the rows", "status": "in_progress"}]},
        }
    ]
    make_store(
        database,
        {SID: [header(SID, cwd), message("u0", None, "user", "Port the importer to streaming")]},
    )
    connection = sqlite3.connect(database)
    try:
        append(connection, SID, [message("p0", "u0", "assistant", plan)])
        parent, n, size = "p0", 0, 0
        output = "\n".join(f"row {i}: imported {i * 7} records in {i % 13} ms" for i in range(60))
        while size < megabytes * 1e6:
            batch = []
            for _ in range(200):
                n += 1
                call = [{"type": "toolCall", "id": f"c{n}", "name": "exec",
                         "arguments": {"command": f"python import.py --part {n}"}}]  # fmt: skip
                batch += [
                    message(f"u{n}", parent, "user", f"Go on with part {n}"),
                    message(f"a{n}", f"u{n}", "assistant", call),
                    message(
                        f"t{n}",
                        f"a{n}",
                        "toolResult",
                        [{"type": "text", "text": output}],
                        toolCallId=f"c{n}",
                        toolName="exec",
                        isError=False,
                    ),
                ]
                parent = f"t{n}"
                size += 3200
            append(connection, SID, batch)
        connection.commit()
    finally:
        connection.close()


def read(path: Path) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", _READ, str(path)], capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small-mb", type=float, default=1)
    parser.add_argument("--huge-mb", type=float, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from workmem.transcripts.openclaw_paths import session_path

    with tempfile.TemporaryDirectory() as folder:
        for megabytes in (args.small_mb, args.huge_mb):
            database = Path(folder) / f"{megabytes:g}mb" / "openclaw-agent.sqlite"
            started = time.perf_counter()
            build(database, megabytes, folder)
            built = time.perf_counter() - started
            on_disk = database.stat().st_size / 1e6
            runs = [read(session_path(database, SID)) for _ in range(args.runs)]
            seconds = statistics.median(float(str(r["seconds"])) for r in runs)
            peak = max(float(str(r["peak_mb"])) for r in runs)
            last = runs[-1]
            print(
                f"{megabytes:g} MB of entries ({on_disk:.0f} MB on disk, built in {built:.0f} s): "
                f"save read median {seconds * 1000:.0f} ms of {args.runs}, peak RSS {peak:.0f} MB, "
                f"read {last['read_mb']:.1f} MB, left {last['skipped_mb']:.1f} MB, "
                f"{last['messages']} messages, plan {last['plan']}"
            )


if __name__ == "__main__":
    main()
