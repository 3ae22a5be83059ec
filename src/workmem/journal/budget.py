"""Token budgets for the loader: a total cap, one cap per phase, and honest omissions.

The loaded context goes into every prompt of the session, so it must never exceed the
budget, and when something does not fit the agent must be told ("… 12 older entries
omitted") rather than silently get less. Items are offered in priority order (newest and
most relevant first); the first one that does not fit ends the list and the rest are
counted as omitted and named in the metadata.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field

from ..errors import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

Counter = Callable[[str], int]
PHASES = ("orient", "anchor", "context", "deep")
#: Tokens kept aside in a list for its "… N omitted" line.
OMISSION_RESERVE = 24


@dataclass(frozen=True)
class BudgetConfig:
    """Caps in tokens: ``total`` for everything, then one per phase (seed 004's phases)."""

    total: int = 4000
    orient: int = 250
    anchor: int = 500
    context: int = 2200
    deep: int = 1500

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise UsageError(f"budget '{name}' must be a whole number ≥ 0, got {value!r}")

    @classmethod
    def from_mapping(
        cls, table: Mapping[str, Any], base: BudgetConfig | None = None
    ) -> BudgetConfig:
        start = asdict(base or cls())
        unknown = set(table) - set(start)
        if unknown:
            raise UsageError(f"unknown budget key(s) {sorted(unknown)}; use {sorted(start)}")
        start.update(table)
        return cls(**start)

    def cap(self, phase: str) -> int:
        value: int = getattr(self, phase)
        return value


@dataclass(frozen=True)
class SessionContext:
    """What the loader hands the agent: the text, what it costs, and why it looks so."""

    text: str
    total_tokens: int
    metadata: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.text.strip())


@dataclass
class PhaseText:
    """One phase's text as it fills its cap: what was loaded, and what was left out and why."""

    name: str
    cap: int
    count: Counter
    parts: list[str] = field(default_factory=list)
    tokens: int = 0
    loaded: list[str] = field(default_factory=list)
    omitted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def room(self) -> int:
        return self.cap - self.tokens

    def add(self, key: str, text: str, *, reserve: int = 0) -> bool:
        """Add one block if it fits whole, leaving ``reserve`` tokens free."""
        block = text.rstrip("\n") + "\n"
        room = self.room() - reserve
        probe = 16 * max(room, 0) + 64
        if len(block) > probe and self.count(block[:probe]) > room + 8:
            return False  # a huge block: a prefix already overflows, no need to count it all
        cost = self.count(block)
        if cost > room:
            return False
        self.parts.append(block)
        self.tokens += cost
        self.loaded.append(key)
        return True

    def add_block(self, keys: list[str], text: str, *, reserve: int = 0) -> bool:
        """Add one block that carries several items (all loaded, or none), if it fits whole."""
        if not keys or not self.add(keys[0], text, reserve=reserve):
            return False
        self.loaded.extend(keys[1:])
        return True

    def add_clipped(self, key: str, text: str, *, reserve: int = 0) -> bool:
        """Add a block, cutting it at a line (then a character) boundary if it is too long."""
        if self.add(key, text):
            return True
        room = self.room() - reserve
        if room <= 12:
            self.omitted.append(key)
            return False
        lines = text.rstrip("\n").split("\n")
        kept: list[str] = []
        for line in lines:
            trial = "\n".join([*kept, line])
            if self.count(trial + "\n… (cut to fit the budget)\n") > room:
                break
            kept.append(line)
        if not kept:
            chars = max(1, len(lines[0]))
            while chars > 1 and self.count(lines[0][:chars] + "…\n… (cut)\n") > room:
                chars = chars * 2 // 3
            kept = [lines[0][:chars] + "…"]
        left = len(lines) - len(kept)
        clipped = "\n".join(kept) + f"\n… (cut to fit the budget; {max(left, 0)} more lines)"
        if not self.add(f"{key} (clipped)", clipped):
            self.omitted.append(key)
            return False
        self.notes.append(f"{key} clipped")
        return True

    def add_list(
        self,
        title: str,
        items: list[tuple[str, str]],
        *,
        what: str = "entries",
        clip_first: bool = True,
    ) -> int:
        """A titled list, in priority order; returns how many items were loaded."""
        if not items:
            return 0
        # Room for the heading and at least the omission line: never a heading alone.
        if not self.add(f"{title} (heading)", title, reserve=OMISSION_RESERVE):
            self.omitted.extend(key for key, _ in items)
            return 0
        loaded = 0
        for index, (key, text) in enumerate(items):
            reserve = OMISSION_RESERVE if index < len(items) - 1 else 0
            ok = self.add(key, text, reserve=reserve)
            if not ok and index == 0 and clip_first:
                ok = self.add_clipped(key, text, reserve=reserve)
                if ok:
                    self.omitted = [k for k in self.omitted if k != key]
            if not ok:
                rest = [k for k, _ in items[index:]]
                self.omitted.extend(k for k in rest if k not in self.omitted)
                self.add("omission note", f"… {len(rest)} more {what} omitted (token budget)")
                break
            loaded += 1
        return loaded

    def absorb(self, other: PhaseText) -> None:
        """Append a block built on its own (funded before this phase's other blocks)."""
        self.parts.extend(other.parts)
        self.tokens += other.tokens
        self.loaded.extend(other.loaded)
        self.omitted.extend(other.omitted)
        self.notes.extend(other.notes)

    def text(self) -> str:
        return "".join(self.parts)

    def summary(self) -> dict[str, Any]:
        return {
            "tokens": self.tokens,
            "budget": self.cap,
            "loaded": self.loaded,
            "omitted": self.omitted,
            "notes": self.notes,
        }
