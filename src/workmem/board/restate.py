"""One Current Context: restated facts replace the old statement, and the old one is marked.

A snapshot's Current Context is the session's integrated summary (seed 001: "integrated
working summaries, not transcript dumps"). Updates come from two writers:

- a save writes one paragraph of its own, ``Auto-saved (stamp): …`` (any language's
  marker, ``i18n.placeholders.is_auto_saved``). It is the transcript's state at that save,
  so the next save's paragraph replaces it: there is at most one, at the end;
- the agent writes prose. A sentence of the old context that the new text says again
  word for word now lives in the new text; one the new text restates differently (the
  same fact, said anew: ``restates``) is superseded: it leaves the context and is listed
  under Superseded / Resolved as ``[superseded] … (Current Context)``, never silently
  dropped; every other old sentence is still valid and stays.

``context_lost`` is the verification: every old sentence is still in the context or
listed as superseded, and old save paragraphs went only for a newer one.

List items restated the same way are the Files / Artifacts entries of one path: a new
entry that says everything the old one said and more (``functions: a`` then
``functions: a, b``) replaces it in place (``refine_items``); any other new entry is added
beside it, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..files.sections import Section, is_placeholder_text, strip_marker
from ..i18n.placeholders import is_auto_saved

_SPACE = re.compile(r"\s+")
#: a sentence ends at . ! ? followed by a space, or at a CJK full stop
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[。！？])")
_TOKEN = re.compile(r"[\w./%+-]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_NUMBER = re.compile(r"^[\d.,%+-]+$")
_LABEL = re.compile(r"^\s*([^:：.。]{1,40})(?::\s+|：\s*)\S")
#: words nearly every sentence has, left out of the comparison
_STOP_WORDS = (
    "a an and are as at be been by for from has have in into is it its now of on or so "
    "that the then this to was we were with"
)
_STOP = frozenset(_STOP_WORDS.split())
#: a path at the start of a Files entry: `` `src/a.py` — what it is``
_PATH_ITEM = re.compile(r"^`([^`]+)`")
CONTEXT_TITLE = "Current Context"


def norm(text: str) -> str:
    """Text compared as a reader would: spacing and case aside."""
    return _SPACE.sub(" ", text).strip().casefold()


def _tokens(text: str) -> set[str]:
    """Content words (CJK by character), without the words every sentence has."""
    found = {t.strip(".,").casefold() for t in _TOKEN.findall(text)}
    return {t for t in found if t and t not in _STOP and (len(t) > 1 or _CJK.match(t))}


def _label(text: str) -> str | None:
    """``Status`` of ``Status: green``: a short label of up to four words before a colon."""
    match = _LABEL.match(text)
    if match is None or len(match.group(1).split()) > 4:
        return None
    return norm(match.group(1))


def restates(new: str, old: str) -> bool:
    """True when ``new`` says the same fact as ``old`` anew.

    The same label (``Status: red`` / ``Status: green``); or most content words shared
    (at least 60 % of both sentences' words, two or more); or one word changed on each
    side with two words shared, or with a number changed (``Coverage is 80%`` /
    ``Coverage is 95%``). A sentence of one content word restates nothing.
    """
    if norm(new) == norm(old):
        return False
    label = _label(old)
    if label is not None and label == _label(new):
        return True
    a, b = _tokens(old), _tokens(new)
    if len(a) < 2:
        return False
    shared = a & b
    if len(shared) >= 2 and len(shared) / len(a | b) >= 0.6:
        return True
    gone, came = a - b, b - a
    if len(gone) == 1 and len(came) == 1 and shared:
        numbers = all(_NUMBER.match(t) for t in (*gone, *came))
        return len(shared) >= 2 or numbers
    return False


def sentences(paragraph: str) -> list[str]:
    """A paragraph's sentences, each one line. A paragraph holding a fence, a table or a
    list stays one unit: splitting it would change its shape."""
    lines = paragraph.split("\n")
    if any(ln.lstrip().startswith(("```", "~~~", "|", "- ", "* ", "> ")) for ln in lines):
        return [paragraph.strip()]
    flat = " ".join(ln.strip() for ln in lines if ln.strip())
    return [s.strip() for s in _SENTENCE_END.split(flat) if s.strip()]


def paragraphs(text: str) -> list[str]:
    return [p.strip("\n") for p in re.split(r"\n[ \t]*\n", text.strip()) if p.strip()]


@dataclass
class ContextMerge:
    """What a merge into Current Context moved out of it, for the record and the check."""

    #: old sentences a new one restated: listed under Superseded / Resolved
    superseded: list[str] = field(default_factory=list)
    #: old save paragraphs a newer save's paragraph replaced
    replaced: list[str] = field(default_factory=list)


_KEEP, _SAID, _GONE = "keep", "said", "superseded"


def merge_context(section: Section, additions: list[str]) -> ContextMerge:
    """Merge ``additions`` (already neutral text) into ``section`` (see the module doc);
    the template's hint and a ``None`` give way."""
    result = ContextMerge()
    blocks = [b for b in section.blocks() if b.text and not is_placeholder_text(b.text)]
    new = [p for text in additions for p in paragraphs(text)]
    agent: list[str] = []
    for paragraph in new:
        key = norm(paragraph)
        if is_auto_saved(paragraph) or any(key in norm(b.text) for b in blocks):
            continue  # a save's paragraph, or said already
        if all(key != norm(p) for p in agent):
            agent.append(paragraph)
    prose = {i: b.text for i, b in enumerate(blocks) if not b.is_item and not is_auto_saved(b.text)}
    fates = _fates(prose, agent)
    units: list[tuple[bool, list[str]]] = []  # (a list, its lines)
    autos: list[str] = []
    for index, block in enumerate(blocks):
        if block.is_item:
            if units and units[-1][0]:
                units[-1][1].extend(block.lines)  # one list: no blank line inside
            else:
                units.append((True, list(block.lines)))
        elif index not in prose:
            autos.append(block.text)
        else:
            kept = [s for s, fate in fates[index] if fate == _KEEP]
            result.superseded.extend(s for s, fate in fates[index] if fate == _GONE)
            if len(kept) == len(fates[index]):
                units.append((False, list(block.lines)))
            elif kept:
                units.append((False, [" ".join(kept)]))
    units.extend((False, p.split("\n")) for p in agent)
    new_auto = [p for p in new if is_auto_saved(p)]
    if new_auto:
        result.replaced = autos
        autos = new_auto[-1:]
    units.extend((False, a.split("\n")) for a in autos)
    body: list[str] = []
    for _is_list, unit in units:
        lines = _trimmed(unit)
        if lines:
            body += ["", *lines] if body else lines
    if body:
        section.body = ["", *body, ""]
    return result


def _trimmed(lines: list[str]) -> list[str]:
    """A unit's lines without the blank lines an old paragraph carries after it (the body
    puts one between units); a unit never starts with one."""
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def _fates(prose: dict[int, str], agent: list[str]) -> dict[int, list[tuple[str, str]]]:
    """Each old agent paragraph's sentences and their fate: said again by the new text
    (it lives there now), superseded (restated differently), or kept.

    A new text that says again or restates more than half of the old sentences is an
    integrated rewrite: what it left out is superseded by it too (and listed as such).
    """
    fresh = [s for p in agent for s in sentences(p)]
    said = [norm(p) for p in agent]
    fates: dict[int, list[tuple[str, str]]] = {}
    for index, text in prose.items():
        fates[index] = []
        for sentence in sentences(text):
            if any(norm(sentence) in p for p in said):
                fate = _SAID
            elif any(restates(n, sentence) for n in fresh):
                fate = _GONE
            else:
                fate = _KEEP
            fates[index].append((sentence, fate))
    every = [fate for listed in fates.values() for _, fate in listed]
    if 2 * sum(fate != _KEEP for fate in every) > len(every):
        return {i: [(s, _GONE if f == _KEEP else f) for s, f in ls] for i, ls in fates.items()}
    return fates


def superseded_item(sentence: str) -> str:
    """How a superseded sentence is listed under Superseded / Resolved."""
    return f"[superseded] {sentence} ({CONTEXT_TITLE})"


def superseded_items(merge: ContextMerge) -> list[str]:
    return [superseded_item(sentence) for sentence in merge.superseded]


def context_lost(old: Section | None, new: Section | None, record: Section | None) -> list[str]:
    """What the old Current Context held that the new one lost without a mark.

    Kept means: still in the new context, or (a sentence) listed under ``record``
    (Superseded / Resolved), or (a save's paragraph) given way to a newer save's paragraph.
    """
    if old is None:
        return []
    new = new if new is not None else Section(CONTEXT_TITLE, f"## {CONTEXT_TITLE}")
    now = norm(new.content())
    listed = {norm(item) for item in record.items()} if record is not None else set()
    newer_auto = any(is_auto_saved(b.text) for b in new.blocks() if not b.is_item)
    lost: list[str] = []
    for block in old.blocks():
        if not block.text or is_placeholder_text(block.text):
            continue
        if block.is_item:
            units = [block.text]
        elif is_auto_saved(block.text):
            units = [] if newer_auto else [block.text]
        else:
            units = sentences(block.text)
        for unit in units:
            if norm(unit) not in now and norm(superseded_item(unit)) not in listed:
                lost.append(f"text '{unit[:60]}' in {CONTEXT_TITLE}")
    return lost


# -- list items restated: a Files entry of one path -------------------------------------


def path_of(item: str) -> str | None:
    match = _PATH_ITEM.match(strip_marker(item)[1])
    return match.group(1) if match else None


def refine_items(section: Section, items: list[str]) -> list[tuple[str, str]]:
    """Replace in place each unmarked entry that a new entry of the same path refines
    (says all it said, and more). Returns (old, new) pairs, for the check."""
    done: list[tuple[str, str]] = []
    blocks = section.blocks()
    unmarked = [b for b in blocks if b.is_item and strip_marker(b.text)[0] is None]
    for raw in items:
        text = raw.strip()
        text = text[2:].strip() if text.startswith(("- ", "* ")) else text
        path = path_of(text)
        if path is None or strip_marker(text)[0] is not None:
            continue
        target = next((b for b in unmarked if path_of(b.text) == path), None)
        if target is None or not refines(text, target.text):
            continue
        first = target.lines[0]
        done.append((target.text, text))
        target.lines[:] = [f"{first[: len(first) - len(first.lstrip())]}- {text}"]
    if done:
        section.body = [line for block in blocks for line in block.lines]
    return done


def refines(new: str, old: str) -> bool:
    """Every word of ``old`` is in ``new``, and ``new`` says more."""
    words = {w.casefold() for w in re.findall(r"\w+", old)}
    return words < {w.casefold() for w in re.findall(r"\w+", new)}
