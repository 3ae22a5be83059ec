"""Chinese, Traditional and Simplified (matched on a copy folded to Traditional forms).

The seeds' phrases (收工, 結束, 整理記憶, 先到這, 今天先這樣, 下次繼續, 保存上下文, 開新對話,
resume準備; 整理 memory, 清理 memory, 整理這個 session, 狀態更新, 接續 memory <id>,
補註冊 memory, 封存 memory <id>, 解除引用 memory <id>; 接續上次, 我們上次做到哪) are among the
forms, with their everyday variants (今天到此為止, 先到這裡, 狀態更新一下, 接續記憶 <id> …).
The plain form has no spaces next to Chinese characters, so rules are written without.
"""

from __future__ import annotations

from .grammar import Grammar
from .model import (
    ARCHIVE,
    CONTINUE,
    FRESH,
    MIGRATE,
    NOTES_REFRESH,
    NOTES_VIEW,
    ORGANIZE,
    REGISTER,
    RELEASE,
    RESTORE,
    UPDATE,
    WRAP,
    rule,
)

GRAMMAR = Grammar(
    language="zh",
    lead=(
        r"好的|好吧|好啊|好了|好|行吧|行|ok|okay|那就先|那就|那麼|那我們|那|嗯|喔|哦|噢|欸|"
        r"對|是的|請你|請|麻煩你|麻煩|幫我|幫忙|幫|替我|給我|你|我們|我|咱們|大家|今天就|"
        r"今天先|今天|現在|就|先|可以|該|應該|要|準備|來吧|來|謝謝|謝啦|辛苦了|辛苦|"
        r"差不多了|差不多|算了|也|都|吧|一下|那個|這邊|目前|總之|最後|然後"
    ),
    tail=(
        r"吧|了|啦|囉|喔|哦|呀|啊|嘍|好了|一下|謝謝|謝啦|辛苦了|耶|哈|嗯|先|就好|就好了|"
        r"嗎|呢|明天見|下次見|掰掰|拜拜|bye|晚安|了吧|喔謝謝|好嗎|好不好|可以嗎|行嗎|啊謝謝|ok|"
        r"please|給我|!|\."
    ),
    negated_before=(
        r"(?:不要|不用|不必|別|不想|勿|甭|不准|還不|還沒|暫時不|先不|沒有要|不需要|不能)"
        r"(?:先|急著|急|馬上|要|去)?"
    ),
    negated_after=r"不了|不得|不要",
    question=r"(?:嗎|嘛|呢|沒有|沒|不|與否)$|要不要|是不是|有沒有|了沒",
    request=r"幫|請|麻煩|替我|給我|好嗎|好不好|可以嗎|行嗎",
    sequence=r"然後|再|之後|接著",
    deferred=r"(?:等|如果|要是|假如|在)[^\x00]*\x00|\x00(?:前|之前|以前|後|之後|以後|的時候|時)",
)

_MEM = r"(?:memory|記憶)"
_SESSION = r"(?:這個|這次|目前的|目前|當前的|當前|本次)?(?:memory ?)?session"

RULES = (
    # -- with a session ID: specific enough inside a longer sentence ----------------------
    rule(
        RELEASE,
        "引用",
        r"(?:解除|取消)(?:memory)?引用(?:memory ?)?(?:session)? ?{id}",
        alone=False,
    ),
    rule(
        CONTINUE,
        "接續|繼續|延續|引用|沿用|接手|承接|接著",
        rf"(?:接續|繼續|延續|引用|沿用|接手|承接|接著)(?:{_MEM} ?)?(?:session)? ?{{id}}",
        alone=False,
    ),
    rule(
        ARCHIVE,
        "封存|歸檔|存檔",
        r"(?:封存|歸檔|存檔)(?:memory ?)?(?:session)? ?{id}",
        alone=False,
    ),
    # -- continue from the last session (a question is the request) ----------------------
    rule(
        RESTORE,
        "上次|剛剛|剛才|之前",
        r"(?:我們)?(?:上次|剛剛|剛才|之前|上一次)(?:的session)?(?:做|弄|進行|寫)到哪(?:裡|兒|邊|一步)?(?:了)?",
        ask=True,
    ),
    rule(
        RESTORE,
        "上次",
        r"(?:接續|繼續|延續|接著|續|從)上(?:一)?次(?:的)?(?:session|對話|會話|進度|工作|內容|任務)?"
        r"(?:停下來的地方|結束的地方|的地方)?(?:繼續|開始)?(?:做|進行)?",
        ask=True,
    ),
    rule(RESTORE, "上次", r"(?:接續|繼續|延續|接著)上(?:一)?次的{topic}$", ask=True),
    rule(RESTORE, "上次", r"上(?:一)?次的{topic}(?:做|弄)到哪(?:裡|兒)?(?:了)?$", ask=True),
    # -- the board ---------------------------------------------------------------------
    rule(
        REGISTER,
        "註冊",
        rf"(?:手動|補|重新)?註冊(?:一下)?(?:這個|目前的|當前的)?{_MEM}(?: ?session)?",
    ),
    rule(REGISTER, "註冊", r"(?:手動|補|重新)?註冊(?:一下)?" + _SESSION),
    rule(REGISTER, "補註冊|手動註冊", r"(?:補|手動)註冊(?:一下)?"),
    rule(UPDATE, "整理", r"整理(?:一下)?" + _SESSION + r"(?:的狀態)?"),
    rule(UPDATE, "狀態", r"(?:memory ?|記憶)?(?:session)?(?:的)?狀態更新(?:一下)?"),
    rule(
        UPDATE,
        "更新",
        r"更新(?:一下)?(?:這個|目前的|當前的|本次)?(?:memory ?)?(?:session)?(?:的)?狀態",
    ),
    rule(UPDATE, "更新", r"更新(?:一下)?" + _SESSION),
    rule(
        ORGANIZE,
        "整理|清理|打掃|清一下|整頓",
        rf"(?:整理|清理|打掃|清一下|整頓)(?:一下)?{_MEM}(?:的)?(?:索引|index|看板|board|列表)",
    ),
    rule(ORGANIZE, "整理|清理|整頓", r"(?:整理|清理|整頓)(?:一下)?memory(?: ?index)?(?:索引)?"),
    rule(ORGANIZE, "memory", r"把memory(?:整理|清理)(?:一下)?"),
    # -- notes, relay, migration -------------------------------------------------------
    rule(
        NOTES_VIEW,
        "筆記|notes",
        r"(?:顯示|看|看一下|打開|給我看|查看)(?:這個)?(?:session)?(?:的)?(?:筆記|notes)",
    ),
    rule(
        NOTES_REFRESH,
        "筆記|notes",
        r"(?:更新|重新整理|刷新)(?:一下)?(?:session)?(?:的)?(?:筆記|notes)",
    ),
    rule(
        FRESH,
        "不要恢復|不用恢復|別恢復",
        r"(?:不要|不用|別)恢復(?:上次的?(?:內容|進度|session|對話))?",
    ),
    rule(FRESH, "重新開始|全新開始", r"(?:重新|全新)開始"),
    rule(MIGRATE, "遷移|移轉", rf"(?:遷移|移轉)(?:一下)?{_MEM}"),
    # -- wrap-up (seed 000) ------------------------------------------------------------
    rule(WRAP, "收工|收攤", r"收工(?:收工)?|收攤"),
    rule(
        WRAP,
        "結束",
        r"結束(?:這個|這次|今天的|本次)?(?:session|對話|會話|工作|聊天)?(?:吧|囉|啦)?",
    ),
    rule(WRAP, "記憶", r"整理(?:一下)?記憶(?!體)"),
    rule(WRAP, "到這", r"(?:今天)?(?:就|先)?(?:先)?到這(?:裡|兒|邊)?(?:為止)?"),
    rule(WRAP, "這樣", r"(?:今天(?:就|先)?|先|就)這樣(?:吧|就好|子)?"),
    rule(WRAP, "為止", r"(?:今天)?(?:就)?到此為止"),
    rule(WRAP, "繼續", r"(?:下次|明天|改天|之後|晚點)(?:再)?繼續"),
    rule(WRAP, "保存", r"保存(?:一下)?(?:上下文|記憶|進度|context|session)"),
    rule(WRAP, "對話|session", r"開(?:個|一個)?新(?:的)?(?:對話|session|會話)"),
    rule(WRAP, "resume", r"resume準備|準備resume"),
    rule(WRAP, "下班", r"下班"),
    rule(WRAP, "工作", r"今天的工作(?:就)?(?:到此|到這裡|結束)"),
)
