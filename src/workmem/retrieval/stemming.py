"""A light English stemmer: the words of one family share one index term.

A question rarely uses the entry's own word: "what did we *decide*" asks for a
*decision*, "which database did we *choose*" for what we *chose*, "what *failed*" for a
*failure*. SQLite's Porter stemmer joins inflections (decides, deciding) but not the
derived forms (decide / decision, fail / failure, prefer / preference, depend /
dependency) nor irregular verbs (choose / chose). This stemmer does three things, in
order, each cheap and predictable:

1. an irregular form becomes its base verb or noun (chose, chosen -> choose; wrote ->
   write; indices -> index);
2. inflections go (plural ``-s``/``-es``/``-ies``, ``-ed``, ``-ing``), as Porter does;
3. one or two derivational endings go (``-ation``, ``-ment``, ``-ure``, ``-ence``,
   ``-ity``, ``-able``, ``-ize`` …), each only when enough of the word is left to still
   name something, so that "comment", "station" or "table" are kept whole;

then the spelling is evened out: a final ``e`` or ``y`` (decide -> decid, copy -> copi), a
doubled consonant (stopped -> stop), and the ``d``/``s`` and ``nd``/``ns`` pairs that
Latin derivations swap (decid-e / decis-ion, provid-e / provis-ion, respond / respons-e,
extend / extens-ion).

Only lower-case ASCII words of four letters or more are stemmed; names with digits or
other scripts pass as they are (CJK is cut into bigrams elsewhere, see ``analyze``).
The result is an index term, not a word: it is never shown.
"""

from __future__ import annotations

import re
from functools import lru_cache

_IRREGULAR_TEXT = """
    chose:choose chosen:choose wrote:write written:write rewrote:rewrite rewritten:rewrite
    broke:break broken:break built:build rebuilt:rebuild made:make found:find ran:run
    began:begin begun:begin gave:give given:give took:take taken:take saw:see seen:see
    knew:know known:know went:go gone:go said:say told:tell thought:think brought:bring
    bought:buy caught:catch taught:teach sent:send spent:spend lost:lose held:hold
    kept:keep meant:mean met:meet paid:pay understood:understand stood:stand won:win
    drove:drive driven:drive rode:ride ridden:ride rose:rise risen:rise fell:fall
    fallen:fall forgot:forget forgotten:forget froze:freeze frozen:freeze hid:hide
    hidden:hide shook:shake shaken:shake spoke:speak spoken:speak stole:steal
    stolen:steal threw:throw thrown:throw grew:grow grown:grow drew:draw drawn:draw
    flew:fly flown:fly fought:fight sought:seek sold:sell felt:feel fed:feed fled:flee
    hung:hang slid:slide overrode:override overridden:override undid:undo undone:undo
    redid:redo redone:redo bit:bite bitten:bite wore:wear worn:wear tore:tear torn:tear
    swore:swear sworn:swear chosen:choose arose:arise arisen:arise awoke:awake
    withdrew:withdraw withdrawn:withdraw misunderstood:misunderstand upheld:uphold
    children:child men:man women:woman people:person mice:mouse feet:foot teeth:tooth
    indices:index matrices:matrix vertices:vertex analyses:analysis hypotheses:hypothesis
    criteria:criterion phenomena:phenomenon better:good best:good worse:bad worst:bad
    failure:fail failures:fail
    config:configure configs:configure repo:repository repos:repository env:environment
    envs:environment docs:document doc:document deps:dependency dep:dependency
    info:information spec:specification specs:specification impl:implement
    perf:performance param:parameter params:parameter arg:argument args:argument
    dir:directory dirs:directory msg:message msgs:message db:database dbs:database
    embeds:embed embedded:embed embedding:embed embeddings:embed
"""
IRREGULAR = dict(pair.split(":") for pair in _IRREGULAR_TEXT.split())

#: Words whose ending only looks like a suffix ("embed" is no past tense of "emb").
_KEEP = frozenset(
    (
        "embed",
        "need",
        "speed",
        "feed",
        "seed",
        "breed",
        "shed",
        "hundred",
        "sacred",
        "succeed",
        "proceed",
        "exceed",
    )
)
_VOWEL = re.compile(r"[aeiouy]")
_PLAIN = re.compile(r"^[a-z]+$")

#: Derivational endings, tried in this order (the first that ends the word decides):
#: (ending, what replaces it, the fewest letters that must be left). Most map to the
#: base's own ending without its final ``e`` ("validation" -> "validat", as "validate",
#: "validated" and "validating" end up), so the inflected forms meet the derived ones.
_DERIVATIONS: tuple[tuple[str, str, int], ...] = (
    ("ization", "iz", 3),
    ("isation", "iz", 3),
    ("ational", "at", 3),
    ("uration", "ur", 3),
    ("ntation", "nt", 2),
    ("itation", "it", 2),
    ("rmation", "rm", 2),
    ("ability", "able", 2),
    ("ibility", "ible", 2),
    ("scription", "scrib", 2),
    ("olution", "olv", 1),
    ("llation", "ll", 2),
    ("duction", "duc", 2),
    ("mission", "mit", 2),
    ("ation", "at", 3),
    ("ative", "at", 3),
    ("ition", "", 3),
    ("ution", "ut", 3),
    ("ssion", "ss", 2),
    ("sion", "s", 3),
    ("tion", "t", 3),
    ("ement", "e", 4),
    ("ment", "", 4),
    ("ness", "", 4),
    ("ence", "", 4),
    ("ance", "", 4),
    ("enc", "", 4),  # "referenced" once its "-ed" is gone
    ("anc", "", 4),
    ("ency", "", 4),
    ("ancy", "", 4),
    ("ical", "ic", 3),
    ("able", "", 4),
    ("ible", "", 4),
    ("ity", "", 4),
    ("ant", "", 4),
    ("ent", "", 5),
    ("age", "", 5),
    ("ly", "", 5),
)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The index term of one lower-case word (see the module's docstring)."""
    word = IRREGULAR.get(word, word)
    if len(word) < 3 or not _PLAIN.match(word) or word in _KEEP:
        return word
    word = _inflection(word)
    word = IRREGULAR.get(word, word)
    if word in _KEEP:
        return word
    for _ in range(2):  # "documentation" -> "document" -> "docu"
        shorter = _derivation(word)
        if shorter == word:
            break
        word = shorter
    return _even(word)


def _inflection(word: str) -> str:
    """Plural, past and present-participle endings (Porter's first step, simplified):
    a plural first, then one of ``-eed``, ``-ed``, ``-ing`` ("settings" -> "set")."""
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("ches", "shes", "xes", "zes")) and len(word) > 4:
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    if word in _KEEP:
        return word
    if word.endswith("eed"):
        # "agreed" -> "agree"; "need", "speed" keep their letters
        return word[:-1] if _VOWEL.search(word[:-3]) else word
    for ending in ("ing", "ed"):
        if word.endswith(ending):
            rest = word[: -len(ending)]
            if len(rest) >= 2 and _VOWEL.search(rest):
                return _undouble(rest)
    return word


def _undouble(word: str) -> str:
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        return word[:-1]
    return word


def _derivation(word: str) -> str:
    for ending, replacement, least in _DERIVATIONS:
        if word.endswith(ending):
            rest = word[: -len(ending)]
            if len(rest) >= least and _VOWEL.search(rest + replacement):
                return rest + replacement
            return word
    return word


def _even(word: str) -> str:
    """Spelling evened out so that the forms of one family meet (see the docstring)."""
    if len(word) >= 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 2 and word.endswith("y") and word[-2] not in "aeiou":
        word = word[:-1] + "i"
    word = _undouble(word)
    vowel_d = len(word) >= 5 and word[-1] == "d" and word[-2] in "aeiou" and word[-3] != "e"
    if vowel_d or (len(word) >= 6 and word.endswith("nd")):
        word = word[:-1] + "s"
    return word
