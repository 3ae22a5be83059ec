"""Turning text into index terms and queries, for English and for CJK alike.

SQLite's FTS5 does the heavy lifting (BM25), but what it cannot do is done here before
text reaches it:

* English stopwords: FTS5 has no stopword list, and question words ("what", "when", "did")
  would otherwise dominate short queries. A question's filler ("tell me", "anything",
  "happened") is left out of the query as well, but never out of the text.
* English word families: each word becomes its ``stemming.stem`` (decide and decision,
  chose and choose share one term), in the text and in the query alike.
* CJK: ``unicode61`` keeps a run of Chinese characters as one token and the ``trigram``
  tokenizer cannot match a 2-character word such as 收工. Each CJK run becomes its
  overlapping character bigrams (the last character of a run also on its own), so any
  word of two or more characters is a phrase of bigrams and a single character is a
  prefix query. A question's own words (什麼, 哪個, 為什麼, 嗎) are cut out of a query's
  runs first, so that they neither match nor glue their neighbours into false bigrams.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from . import bounds
from .stemming import stem

_CJK_RANGES = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # compatibility ideographs
    "\uac00-\ud7af"  # hangul syllables
    "\u1100-\u11ff\u3130-\u318f"  # hangul jamo
    "\U00020000-\U0002ffff"  # extensions B..
)
_CJK_RUN = re.compile(f"[{_CJK_RANGES}]+")
_CJK_CHAR = re.compile(f"[{_CJK_RANGES}]")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_SPACES = re.compile(r"\s+")

_STOPWORD_TEXT = """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each few for from further had hadn't has hasn't have
    haven't having he he'd he'll he's her here here's hers herself him himself his how how's
    i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my
    myself no nor not of off on once only or other ought our ours ourselves out over own same
    shan't she she'd she'll she's should shouldn't so some such than that that's the their
    theirs them themselves then there there's these they they'd they'll they're they've this
    those through to too under until up very was wasn't we we'd we'll we're we've were weren't
    what what's when when's where where's which while who who's whom why why's with won't
    would wouldn't you you'd you'll you're you've your yours yourself yourselves also just
    will shall may might must yes ok okay s t d ll re ve m
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

#: Words that ask rather than name: left out of a query (never out of the text) when it
#: has other words. "tell me what happened with the deploy" is about the deploy.
_FILLER_TEXT = """
    tell remind remember recall know please anything something everything stuff thing
    things kind sort happen happened happening going get got getting done say said
    mention mentioned talk talked actually exactly again already still yet look looking
    find show give see seen let like
"""
FILLER = frozenset(_FILLER_TEXT.split())
#: A question's own words in Chinese and Japanese, cut out of a query's CJK runs.
_CJK_QUESTION = re.compile(
    "為什麼|为什么|什麼|什么|哪個|哪个|哪些|哪裡|哪里|哪一|怎麼|怎么|怎樣|怎样|如何|多少"
    "|是不是|有沒有|有没有|請問|请问|告訴我|告诉我|我們|我们|你們|你们|一下|做了|做過|在忙"
    "|[的了嗎吗呢吧]|ですか|ました|でしたか|何|どの|どこ|いつ|なぜ"
)


def has_cjk(text: str) -> bool:
    return _CJK_CHAR.search(text) is not None


def cjk_grams(run: str) -> list[str]:
    """Overlapping bigrams of one CJK run, plus its last character alone."""
    if len(run) == 1:
        return [run]
    grams = [run[i : i + 2] for i in range(len(run) - 1)]
    grams.append(run[-1])
    return grams


_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text: str) -> list[str]:
    """Non-CJK words, lower-cased, apostrophes normalised, stopwords kept.

    An identifier written in camel case is also its parts ("TokenUsage" -> tokenusage,
    token, usage), so a question in plain words finds the code names a memory records.
    """
    plain = _CJK_RUN.sub(" ", text)
    found: list[str] = []
    for word in _WORD.findall(plain):
        found.append(word.lower().replace("’", "'"))
        if "'" not in word and "’" not in word and not (word.islower() or word.isupper()):
            parts = _CAMEL_PART.findall(word)
            if len(parts) > 1:  # "Caroline" is one part
                found.extend(part.lower() for part in parts)
    return found


def content_words(text: str) -> list[str]:
    """Words that carry meaning: no stopwords, no possessive ``'s``."""
    out: list[str] = []
    for word in words(text):
        if word in STOPWORDS:
            continue
        if word.endswith("'s"):
            word = word[:-2]
        out.extend(part for part in word.split("'") if part and part not in STOPWORDS)
    return out


def index_terms(text: str) -> str:
    """The text FTS5 indexes: content words and CJK grams, space-separated.

    Words are stemmed here (``stemming``), so the FTS5 table only splits on spaces.
    """
    terms = [stem(word) for word in content_words(text)]
    for run in _CJK_RUN.findall(text):
        terms.extend(cjk_grams(run))
    return " ".join(terms)


def quote(term: str) -> str:
    """``term`` as one FTS5 string atom."""
    return '"' + term.replace('"', '""') + '"'


@lru_cache(maxsize=256)
def _query_words(query: str) -> tuple[str, ...]:
    found = content_words(query)
    kept = [w for w in found if w not in FILLER] or found
    if not kept:
        kept = [w for w in words(query) if len(w) > 1]
    return tuple(dict.fromkeys(stem(w) for w in kept))


def query_words(query: str) -> list[str]:
    """A query's English terms: content words without filler, stemmed.

    A query of stopwords and filler only ("what is it", "tell me everything") still means
    something: its longer words are used then.
    """
    return list(_query_words(query))


def query_runs(query: str) -> list[str]:
    """A query's CJK runs with its question words cut out (see the module docstring)."""
    return _CJK_RUN.findall(_CJK_QUESTION.sub(" ", query))


def has_words(query: str) -> bool:
    """True when ``query`` holds a word search can match: not only question words, stop
    words, punctuation or emoji (those are never indexed, and a model's nearest chunks to
    them answer nothing)."""
    return bool(content_words(query) or query_runs(query))


def query_terms(query: str) -> list[str]:
    """FTS5 query atoms for ``query``: words, CJK bigram phrases, single-character prefixes;
    the first ``MAX_TERMS`` distinct ones (``bounds``)."""
    from .vocabulary import asked_families

    atoms = [quote(w) for w in query_words(query)]
    # the term a question's form adds matches the sections an entry is filed under only
    atoms += [f"sec:{quote(stem(family.term))}" for family in asked_families(query)]
    for run in query_runs(query):
        if len(run) == 1:
            atoms.append(quote(run) + "*")
            continue
        grams = [run[i : i + 2] for i in range(len(run) - 1)]
        atoms.extend(quote(g) for g in dict.fromkeys(grams))
    return list(dict.fromkeys(atoms))[: bounds.MAX_TERMS]


def asked_terms(query: str) -> set[str]:
    """The terms a heading is compared with (``ranking.title_match``): the query's stemmed
    words, the terms of the section families its form asks for, and the bigrams of its
    CJK runs, as ``index_terms`` makes them of a heading."""
    from .vocabulary import asked_families

    terms = set(query_words(query))
    terms.update(stem(family.term) for family in asked_families(query))
    for run in query_runs(query):
        terms.update(cjk_grams(run))
    return terms


def fts_query(query: str) -> str | None:
    """An OR query over the atoms, ranked by BM25; None when nothing is searchable."""
    atoms = query_terms(query)
    return " OR ".join(atoms) if atoms else None


def highlight_terms(query: str) -> list[str]:
    """Lower-cased needles for snippets: word stems (cheap prefix) and CJK runs/bigrams."""
    needles: list[str] = []
    for word in content_words(query) or words(query):
        needles.append(word[: max(4, len(word) - 2)] if len(word) > 4 else word)
    for run in _CJK_RUN.findall(query):
        needles.append(run)
        needles.extend(run[i : i + 2] for i in range(len(run) - 1))
    return [n for n in dict.fromkeys(needles) if n][: bounds.MAX_TERMS]


def snippet(text: str, needles: Iterable[str], width: int = 160) -> str:
    """A one-line excerpt of ``text`` of about ``width`` characters around the first match,
    as plain words (markup and workmem's markers gone: ``readable``)."""
    from .readable import readable

    flat = _SPACES.sub(" ", readable(text)).strip()
    if len(flat) <= width:
        return flat
    lowered = flat.lower()
    positions = [p for p in (lowered.find(n) for n in needles) if p >= 0]
    at = min(positions) if positions else 0
    start = max(0, min(at - width // 4, len(flat) - width))
    end = start + width
    if start > 0:
        space = flat.find(" ", start, start + 20)
        start = space + 1 if space > 0 and not has_cjk(flat[start : start + 1]) else start
    piece = flat[start:end].strip()
    return ("…" if start > 0 else "") + piece + ("…" if end < len(flat) else "")
