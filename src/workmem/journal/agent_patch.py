"""The memory-management section ``migrate`` appends to AGENT.md, once.

The section teaches the agent the layered workflow with the commands that enforce it. It
sits between two markers; a file that already has the opening marker is never patched
again, so ``migrate`` can run any number of times. The original text is kept byte for byte
(the section is appended) and a ``.bak`` copy is made first.
"""

from __future__ import annotations

BEGIN = "<!-- workmem:memory-management -->"
END = "<!-- /workmem:memory-management -->"

SECTION = f"""{BEGIN}
## Memory management (workmem)

This project keeps a layered working memory in plain files; `workmem` keeps the rules.

**At session start** run `workmem load "<the user's first message>"` and read it first.
Phase 1 orients from `memory/state.json`, Phase 2 is your own handoff note
(`memory/resumption.md`), Phase 3 loads what the message needs (MEMORY.md, the matching
thread in `memory/threads.md`, dated events), Phase 4 recalls older logs only when needed.

**During the session** note what matters when it happens:
- `workmem note decision "Chose X over Y" --why "…" [--thread thread-id]`
- `workmem note question "…" [--thread thread-id]`, `workmem note pattern "…"`,
  `workmem note thread thread-id`
- `workmem event add --type purchase --text "I bought … on 3/15" --object "…"` for dated
  things the user says happened; `workmem event find "what did I buy in March?"` to look up.

**At session end** run `workmem end --summary "…" --resumption - [--mood "…"]
[--position ID=TEXT] [--open ID=TEXT] [--close ID=TEXT]` with the resumption note on stdin.
Write that note in the first person, to your next session: where things stand, what to
pick up first, what you expect, the tone to keep. A handoff, not a recap.

**Every ~5 sessions** (the orientation says "Memory review due") curate MEMORY.md with
`workmem curate`.

Daily logs stay flat at `memory/YYYY-MM-DD.md` and are append-only (`memory/daily/` is only
a mirror). `memory/index.md` is the session board; `memory/log-index.md` indexes the logs.
{END}
"""


def is_patched(text: str) -> bool:
    return BEGIN in text


def patched(text: str) -> str:
    """``text`` with the section appended (unchanged when it is already there)."""
    if is_patched(text):
        return text
    base = text if text.endswith("\n") or not text else text + "\n"
    spacer = "\n" if base.strip() else ""
    return f"{base}{spacer}{SECTION}"
