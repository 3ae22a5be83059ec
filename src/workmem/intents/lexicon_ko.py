"""Korean: the seed's 마무리, 오늘은 여기까지, 저장해줘 among the forms, with the verbs'
endings (하자, 해 줘, 해주세요, 합시다, 할게요 …) and the particles of their objects. The
plain form has no spaces between Hangul words (저장해 줘 reads 저장해줘), so rules are
written without.
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

#: the endings of a request: 하자, 해, 해줘, 해 주세요, 합시다, 할게요, 해줄래 …
_DO = (
    r"(?:하자|해(?:줘|주세요|줄래(?:요)?|주라|주실래요|주시겠어요|요|라|봐)?|할게(?:요)?|합시다|하죠|"
    r"하겠습니다|할래|하고|해야지|하기로 하자|하자요|시켜줘|시켜 줘)"
)

GRAMMAR = Grammar(
    language="ko",
    lead=(
        r"자|그럼|그러면|좋아요|좋아|네|응|예|오케이|ok|okay|이제|오늘은|오늘|일단|우선|"
        r"고마워요|고마워|감사합니다|수고하셨습니다|수고했어|수고|이만|슬슬|음|아|좀|그냥|"
        r"여기서|지금|바로|일단은|먼저|마지막으로"
    ),
    tail=(
        _DO + r"|부탁(?:해|해요|합니다|드려요|드립니다)?|좀|요|만|야|이야|다|입니다|줘|주세요|"
        r"하자|합시다|할게요|할게|해요|!|\.|~"
    ),
    negated_before=r"안|못|아직",
    negated_after=r"(?:하)?(?:지마|지말|지않|면안|지말아|지마세요|지맙시다)|(?:은|는)?안(?:해|할)",
    question=r"(?:까|니|냐|나요|을까요|할까)$",
    request=r"줘|주세요|줄래|줄수|주실|주시|부탁",
    sequence=r"그리고|그다음|그다음에|나서",
    deferred=r"(?:만약|혹시)[^\x00]*\x00|\x00(?:하기)?(?:전에|전|후에|후|하면|면|할때|때)",
)

_MEM = r"(?:메모리|기억)"

RULES = (
    # -- with a session ID ---------------------------------------------------------------
    rule(RELEASE, "참조", r"{id}(?:의|에대한)?참조(?:를)?해제", alone=False),
    rule(
        CONTINUE,
        "이어|계속",
        rf"(?:{_MEM} ?)?{{id}}(?:을|를|에서)?(?:이어서|이어받|이어|계속)",
        alone=False,
    ),
    rule(ARCHIVE, "보관|아카이브", r"{id}(?:을|를)?(?:보관|아카이브)", alone=False),
    # -- continue from the last session --------------------------------------------------
    rule(
        RESTORE,
        "어디까지",
        r"(?:지난번에?|저번에?|지난세션에서?|이전세션에서?|아까)?(?:우리)?어디까지"
        r"(?:했지|했더라|했어|했나|했었지|했었나|했었더라|진행했지|진행했더라)",
        ask=True,
    ),
    rule(
        RESTORE,
        "지난|저번|이전",
        r"(?:지난번|저번|지난세션|이전세션|이전작업|지난작업)(?:에|에서)?(?:하던거|하던작업|하던것)?"
        r"(?:을|를)?(?:이어서|계속)",
        ask=True,
    ),
    rule(
        RESTORE,
        "지난|저번",
        r"(?:지난번|저번|지난세션)(?:에|에서)?{topic}(?:을|를)?(?:이어서|계속)",
        ask=True,
    ),
    # -- the board ---------------------------------------------------------------------
    rule(REGISTER, "등록", rf"(?:이)?(?:세션|{_MEM})(?:을|를|에)?등록"),
    rule(UPDATE, "업데이트|갱신", r"(?:세션)?상태(?:를)?(?:업데이트|갱신)"),
    rule(UPDATE, "업데이트|갱신", r"(?:이)?세션(?:을)?(?:업데이트|갱신)"),
    rule(UPDATE, "정리", r"이세션(?:을)?정리"),
    rule(ORGANIZE, "정리|청소", rf"{_MEM}(?:를|을)?(?:정리|청소)"),
    # -- notes, relay, migration -------------------------------------------------------
    rule(NOTES_VIEW, "노트", r"(?:세션)?노트(?:를|좀)?(?:보여|표시)"),
    rule(NOTES_REFRESH, "노트", r"(?:세션)?노트(?:를)?(?:업데이트|갱신|새로고침)"),
    rule(FRESH, "복원", r"복원하지마(?:세요)?|복원하지말"),
    rule(FRESH, "새로", r"새로시작"),
    rule(MIGRATE, "마이그레이션|이전", rf"{_MEM}(?:를)?(?:마이그레이션|이전)"),
    # -- wrap-up (seed 000) ------------------------------------------------------------
    rule(WRAP, "마무리", r"(?:오늘|작업)?(?:은|을)?마무리(?:를|좀)?(?:지어|짓자)?"),
    rule(WRAP, "여기까지", r"(?:오늘은?)?여기까지(?:만)?"),
    rule(
        WRAP,
        "여기서|끝|마치|그만",
        r"(?:오늘)?(?:작업은?)?(?:여기서)?(?:끝내자|끝내|끝|마치자|마칠게요|마칠게|마치|그만하자|그만)",
    ),
    rule(
        WRAP,
        "저장",
        r"(?:(?:컨텍스트|맥락|기억|메모리|진행상황|작업내용)(?:을|를)?)?저장",
    ),
    rule(WRAP, "세션|대화", r"(?:세션|대화)(?:을|를)?(?:종료|끝내)"),
    rule(WRAP, "내일", r"내일(?:다시)?(?:계속|이어서)"),
)
