"""``python -m workmem.notes.detached``: the extractor as a process of its own.

Started by ``run_detached`` (a hook must return at once); whatever happens is logged to
``memory/.workmem/notes/extractor.log`` and never reaches the agent.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="workmem-notes-detached")
    parser.add_argument("--root", required=True)
    parser.add_argument("--session")
    parser.add_argument("--transcript")
    parser.add_argument("--platform")
    parser.add_argument("--gated", action="store_true")
    args = parser.parse_args(argv)
    from ..errors import WorkmemError
    from ..root import Workspace
    from .workflow import _log, update_notes

    workspace = Workspace(Path(args.root))
    try:
        result = update_notes(
            workspace,
            session_id=args.session,
            transcript=Path(args.transcript) if args.transcript else None,
            platform=args.platform,
            gated=args.gated,
        )
    except WorkmemError as exc:
        _log(workspace, f"detached extraction failed: {exc}")
        return 1
    _log(
        workspace,
        f"{result.session_id}: {'updated' if result.ran else 'skipped'} ({result.reason})",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
