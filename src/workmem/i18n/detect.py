"""Which language a text is written in, and which one the system is set to.

Both run on every prompt a hook sees, so they only count characters of a bounded sample
(no regular expressions, no imports). What they tell apart is what the catalogue speaks:
English, Traditional and Simplified Chinese, Japanese and Korean.

* Hangul is Korean; kana (bar a lone の, which Chinese writers borrow) or a kanji form
  only Japanese uses (実, 関, 続 …) is Japanese; other Chinese characters are Chinese,
  Traditional or Simplified by the characters only one of them writes (這/这, 會/会 …),
  and the system locale's Chinese when the text has none of those.
* Words in Latin letters (not IDs, dates or versions: nothing with a digit) count against
  CJK characters, two words to a character, so a Chinese sentence with a few English terms
  is Chinese and an English one quoting 收工 is English; a sentence of CJK letters
  (``SENTENCE_RUN``) is the user's own words whatever surrounds it. Code (fenced blocks,
  inline spans) is not the user's language and is skipped. Fewer than two words and two
  characters say nothing. Only the first and last ``SAMPLE`` characters are read: a
  pasted log costs nothing more.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

#: characters looked at from each end of a message: a language shows in its first lines,
#: and a question asked after a long paste in its last ones
SAMPLE = 400

# Aligned pairs: the Traditional form, then the Simplified one, of characters common in
# what people say to a coding agent. Characters both scripts use for something (里, 后,
# 几, 准, 系, 云 …) are left out.
_TRADITIONAL = (
    "這個們說會為時來對過還發動實點題問開關與經現進當從記憶體應該學習處讀寫設計檔資庫錯誤"
    "測試網頁請謝麼樣讓給邊號碼專務員變換將結類條電腦視頻線導幫價歷雖難嗎沒見聽覺長東車門"
    "話語認識選擇權據種舊續繼備確壓縮數儲環執運錄標狀態構氣無萬億紀總區輸傳遞夠單雙買賣層"
    "屬歡樂愛親頭臉間隊陽養飯館醫藥鐘錢鐵銀陸鳥馬魚龍風飛歲聯組織紅綠藍黃誰則剛創勢參葉"
    "觀覽訂訊議評證護豐負責費質購趕轉輕較載辦農遠適遺鄰針鏈鍵鎖閱陣際隨險雞離靈順須預領"
    "顯願驗麗齊"
)
_SIMPLIFIED = (
    "这个们说会为时来对过还发动实点题问开关与经现进当从记忆体应该学习处读写设计档资库错误"
    "测试网页请谢么样让给边号码专务员变换将结类条电脑视频线导帮价历虽难吗没见听觉长东车门"
    "话语认识选择权据种旧续继备确压缩数储环执运录标状态构气无万亿纪总区输传递够单双买卖层"
    "属欢乐爱亲头脸间队阳养饭馆医药钟钱铁银陆鸟马鱼龙风飞岁联组织红绿蓝黄谁则刚创势参叶"
    "观览订讯议评证护丰负责费质购赶转轻较载办农远适遗邻针链键锁阅阵际随险鸡离灵顺须预领"
    "显愿验丽齐"
)
TRADITIONAL_ONLY = frozenset(_TRADITIONAL)
SIMPLIFIED_ONLY = frozenset(_SIMPLIFIED)
#: Japanese forms of characters Chinese writes otherwise (実 for 實/实, 関 for 關/关 …)
JAPANESE_ONLY = frozenset(
    "実関検覧読変図対応転説続険済駅楽気広単円伝発様売営戦権歩価労働込択拡処帰経総絵県悪軽鉄従"
)


def _is_fence(line: str) -> bool:
    return line.lstrip().startswith(("```", "~~~"))


def _without_code(text: str, *, tail: bool = False) -> str:
    """The text outside fenced code blocks and inline code spans. A ``tail`` of a longer
    message with an odd number of fences began inside one (fences come in pairs)."""
    lines = text.split("\n")
    kept: list[str] = []
    fenced = tail and sum(1 for line in lines if _is_fence(line)) % 2 == 1
    for line in lines:
        if _is_fence(line):
            fenced = not fenced
            continue
        if not fenced:
            parts = line.split("`")
            kept.append(" ".join(parts[0::2]))  # even parts lie outside inline spans
    return "\n".join(kept)


#: CJK letters in one run (punctuation and spaces between them allowed) that make a
#: sentence: the user's own words even when a longer paste around them is English
SENTENCE_RUN = 8


class _Counts:
    """Letters of each script in a sample, and the words in Latin letters."""

    __slots__ = (
        "han",
        "hangul",
        "japanese",
        "kana",
        "no",
        "run",
        "simplified",
        "traditional",
        "words",
    )

    def __init__(self, sample: str) -> None:
        hangul = kana = no = han = words = longest = run = 0
        traditional = simplified = japanese = 0
        # A word is a run of ASCII between spaces (or CJK) that has letters and no digit:
        # a session ID, a date or a version is no English.
        letters = digits = False
        for char in sample + " ":  # one pass, no calls: this runs on every prompt
            if char.isascii():
                if char.isspace():
                    words += letters and not digits
                    letters = digits = False
                elif char.isalpha():
                    letters, run = True, 0
                elif char.isdigit():
                    digits, run = True, 0
                continue
            words += letters and not digits
            letters = digits = False
            code = ord(char)
            if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF:
                han += 1
                if char in TRADITIONAL_ONLY:
                    traditional += 1
                elif char in SIMPLIFIED_ONLY:
                    simplified += 1
                elif char in JAPANESE_ONLY:
                    japanese += 1
            elif 0x3040 <= code <= 0x30FF:
                if char in "のノー":
                    no += 1
                else:
                    kana += 1
            elif 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
                hangul += 1
            else:
                continue  # punctuation and symbols neither count nor end a run
            run += 1
            longest = max(longest, run)
        self.hangul, self.kana, self.no, self.han, self.words = hangul, kana, no, han, words
        self.traditional, self.simplified, self.japanese = traditional, simplified, japanese
        self.run = longest

    @property
    def cjk(self) -> int:
        return self.hangul + self.kana + self.no + self.han

    def east_asian(self, hint: str | None, locale_chinese: str) -> str:
        if self.hangul >= 2 and self.hangul >= self.kana + self.no:
            return "ko"
        ja = self.japanese
        if self.kana or (self.no and ja) or ja > self.traditional + self.simplified:
            return "ja"
        if hint in ("ja", "ko") and not (self.traditional or self.simplified):
            return hint
        if self.simplified != self.traditional:
            return "zh-CN" if self.simplified > self.traditional else "zh-TW"
        return locale_chinese or "zh-TW"


def from_text(text: str | None, *, hint: str | None = None, locale_chinese: str = "") -> str | None:
    """The language ``text`` is written in, or ``None`` when it does not say.

    ``hint`` is the language of a trigger phrase found in it: it settles Japanese against
    Chinese for a message of kanji alone (終了). ``locale_chinese`` is the Chinese the
    system is set to, for a Chinese text that could be either.
    """
    if not text:
        return None
    sample = _without_code(text[:SAMPLE])
    if len(text) > SAMPLE:
        sample += "\n" + _without_code(text[-SAMPLE:].partition("\n")[2], tail=True)
    counts = _Counts(sample)
    cjk = counts.cjk
    if cjk >= 2 and (cjk * 2 > counts.words or counts.run >= SENTENCE_RUN):
        return counts.east_asian(hint, locale_chinese)
    if counts.words >= 2:
        return "en"
    return hint if hint in ("en", "ja", "ko") else None


def from_locale(value: str | None) -> str | None:
    """A locale name (``ja_JP.UTF-8``, ``zh_Hant_TW``, ``ko-KR``) as a catalogue language;
    ``None`` for the C locale or one the catalogue does not speak (English then)."""
    if not value:
        return None
    name = value.split(".")[0].split("@")[0].replace("-", "_").casefold()
    parts = name.split("_")
    head = parts[0]
    if head == "ja":
        return "ja"
    if head == "ko":
        return "ko"
    if head == "zh":
        rest = set(parts[1:])
        if rest & {"tw", "hk", "mo", "hant"}:
            return "zh-TW"
        return "zh-CN"
    if head == "en":
        return "en"
    return None


#: the variables POSIX consults for messages, strongest first
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def system_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of the system locale: the first of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` that is set, else on Windows the display language; ``None`` when neither says
    one the catalogue speaks."""
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name)
        if value:
            return from_locale(value)
    if sys.platform == "win32" and environ is None:  # pragma: no cover - Windows only
        from ..files.oscompat import windows_ui_locale

        return from_locale(windows_ui_locale())
    return None
