"""A message made ready for the matcher: one spelling, one spacing, split into clauses.

* NFKC (full-width letters and punctuation made plain), casefolded, curly apostrophes
  made straight;
* spaces collapsed, and dropped next to CJK, kana and Hangul, so ``整理 memory`` and
  ``整理memory``, ``저장해 줘`` and ``저장해줘`` read alike (Latin words keep one space);
* a copy for the Chinese rules with Simplified characters folded to Traditional ones
  (``继续`` reads ``繼續``), so each Chinese rule is written once. The fold is one
  character for one, so positions agree between the copies;
* fenced code dropped; only the first and last ``EDGE`` characters of a long message are
  read (a request is a sentence, not something inside a pasted log);
* clauses: split at sentence punctuation and before connectives ("but", "then", 然後,
  けど, 그런데 …), each keeping its closing mark (a question mark matters).

The plain form's positions are mapped back to the message only when a match needs the
words as written (its phrase, a topic's original case and script), which is rare.
"""

from __future__ import annotations

import re
import unicodedata

#: characters read from each end of a long message
EDGE = 2000

# (Simplified, Traditional) pairs for the characters the Chinese rules and their grammar
# are written with. One for one; characters both scripts write alike are left out.
_SIMPLIFIED = (
    "结记忆这里儿边样继续开对话准备为进会状态个当扫顿从来内务动补册归档显给笔复迁转吗别还没"
    "暂请烦帮们现该应谢啰喽见着刚么时后间题录页设试测码关键论让说确认检写读发"
)
_TRADITIONAL = (
    "結記憶這裡兒邊樣繼續開對話準備為進會狀態個當掃頓從來內務動補冊歸檔顯給筆復遷轉嗎別還沒"
    "暫請煩幫們現該應謝囉嘍見著剛麼時後間題錄頁設試測碼關鍵論讓說確認檢寫讀發"
)
_FOLD = str.maketrans(_SIMPLIFIED, _TRADITIONAL)
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_FENCE = r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$"
# (No character class holds a non-ASCII character: compiling one builds a 64K-entry map,
# milliseconds on every prompt.)
# Where a clause ends: sentence marks (ASCII '.' and ':' only before a space or the end,
# so "utils.py" and "v1.2" stay whole), and before connectives that start a new clause.
_BREAK = (
    r"(?P<mark>(?:[,;!?\n]|。|、|…)+|[.:](?=\s|$)|\s+-+\s+|—+)"
    r"|(?<=\s)(?=(?:but|and then|then|so|however|after that)\b)"
    r"|(?=然後|但是|不過|可是|だけど|けど|でも|それから|그런데|근데|하지만|그리고|그다음)"
)


def _narrow(flat: str) -> str:
    """``flat`` (single spaces) without the spaces that touch a non-ASCII character. By
    hand: a regular expression with a non-ASCII class costs milliseconds to compile, on
    every prompt."""
    if " " not in flat or flat.isascii():
        return flat
    parts = flat.split(" ")
    out = [parts[0]]
    for part in parts[1:]:
        last = out[-1]
        if last and part and last[-1].isascii() and part[0].isascii():
            out.append(" ")
        out.append(part)
    return "".join(out)


class Clause:
    """One clause: its plain text, its place in the plain message, the mark that ends it."""

    __slots__ = ("index", "mark", "start", "text")

    def __init__(self, text: str, start: int, mark: str, index: int) -> None:
        self.text = text
        self.start = start
        self.mark = mark
        self.index = index

    @property
    def asks(self) -> bool:
        return "?" in self.mark


class Message:
    """The plain form of a message, its Chinese-folded copy, and the way back to the words."""

    __slots__ = ("_clauses", "_spots", "folded", "plain", "source")

    def __init__(self, text: str) -> None:
        if len(text) > 2 * EDGE:
            text = text[:EDGE] + "\n" + text[-EDGE:]
        if "```" in text or "~~~" in text:
            text = re.sub(_FENCE, "\n", text, flags=re.M | re.S)
        #: the message as written, full-width forms made plain (what phrases quote)
        self.source = unicodedata.normalize("NFKC", text)
        lines = (" ".join(line.split()) for line in self._lowered().splitlines())
        flat = "\n".join(line for line in lines if line)
        self.plain = _narrow(flat)
        self.folded = self.plain.translate(_FOLD).replace("注冊", "註冊")
        self._spots: list[int] | None = None
        self._clauses: list[Clause] | None = None

    def clauses(self) -> list[Clause]:
        if self._clauses is None:
            found: list[Clause] = []
            start = 0
            # compiled here, not at import: an ordinary prompt never needs its clauses
            for brk in re.finditer(_BREAK, self.plain):
                if brk.end() == 0:
                    continue
                self._add(found, start, brk.start(), brk.group("mark") or "")
                start = brk.end()
            self._add(found, start, len(self.plain), "")
            self._clauses = found
        return self._clauses

    def _add(self, found: list[Clause], start: int, end: int, mark: str) -> None:
        text = self.plain[start:end]
        stripped = text.strip()
        if stripped:
            offset = start + (len(text) - len(text.lstrip()))
            found.append(Clause(stripped, offset, mark.strip(), len(found)))
        elif found and mark.strip():
            last = found[-1]  # "wrap up ?" : the mark belongs to the clause before
            found[-1] = Clause(last.text, last.start, last.mark + mark.strip(), last.index)

    def original(self, start: int, end: int) -> str:
        """The words as written (``source``) behind ``plain[start:end]``."""
        spots = self._map()
        if not spots or start >= end or end > len(spots):
            return self.plain[start:end]
        return self.source[spots[start] : spots[end - 1] + 1].strip()

    def _lowered(self) -> str:
        return self.source.casefold().translate(_QUOTES)

    def _map(self) -> list[int]:
        """For each character of ``plain``, its position in ``source``: the steps of
        ``__init__`` again, one character at a time. Empty if they disagree (a bug)."""
        if self._spots is None:
            lines: list[list[tuple[str, int]]] = [[]]
            for at, char in enumerate(self.source):
                for low in char.casefold().translate(_QUOTES):
                    if low in _LINE_BREAKS:
                        lines.append([])
                    else:
                        lines[-1].append((low, at))
            kept: list[tuple[str, int]] = []
            for line in lines:
                words: list[tuple[str, int]] = []
                for low, at in line:
                    if not low.isspace():
                        words.append((low, at))
                    elif words and words[-1][0] != " ":
                        words.append((" ", at))
                while words and words[-1][0] == " ":
                    words.pop()
                if words:
                    if kept:
                        kept.append(("\n", words[0][1]))
                    kept.extend(words)
            spots: list[int] = []
            text: list[str] = []
            for index, (low, at) in enumerate(kept):
                if low == " ":
                    before = kept[index - 1][0]
                    after = kept[index + 1][0]
                    if not before.isascii() or not after.isascii():
                        continue
                text.append(low)
                spots.append(at)
            self._spots = spots if "".join(text) == self.plain else []
        return self._spots


#: what ``str.splitlines`` splits at
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


def scripts(text: str) -> tuple[bool, bool, bool, bool]:
    """(Latin letters, Han, kana, Hangul) present: which languages' rules to try."""
    latin = han = hangul = False
    kana = 0
    for char in text:
        if char.isascii():
            latin = latin or char.isalpha()
            continue
        code = ord(char)
        if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF:
            han = True
        elif 0x3040 <= code <= 0x30FF:
            kana += 1
        elif 0xAC00 <= code <= 0xD7AF:
            hangul = True
    # A lone の is borrowed by Chinese writers; two kana make Japanese.
    return latin, han, kana >= 2 or (kana == 1 and not han), hangul
