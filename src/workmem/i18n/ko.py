"""Korean: short, plain texts in the polite form an assistant uses."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "save.in_progress": "진행 중: {items}",
    "save.next": "다음: {items}",
    "save.last_request": "마지막 요청: {text}",
    "save.separator": ". ",
    "save.list_separator": "; ",
    "save.resumption": (
        "메모리 세션 {sid}에서 작업하고 있었습니다. 멈춘 지점({stamp}): {state}\n"
        "여기서 이어서 하세요. 자세한 내용은 세션 스냅샷과 노트에 있습니다."
    ),
    "save.ended": "세션 {sid} 종료: {state}",
    "save.failed": (
        "참고: {whose}마지막 저장({reason}, {at})에서 실패한 부분: {names}. "
        "원인은 `workmem doctor`로 확인하세요."
    ),
    "save.failed_whose": "세션 {sid}의 ",
    # the outcome of a session, told from its transcript (continuity.account_text)
    "account.done": "완료: {text}",
    "account.done_steps": "완료: 계획의 {n}단계 모두 (마지막: {last})",
    "account.in_progress": "진행 중: {text}",
    "account.next": "다음: {items}",
    "account.progress": "{total}단계 중 {done}단계 완료",
    "account.waiting": "사용자 답변 대기: {text}",
    "account.worked_on": "작업: {text}",
    "account.said": "마지막 말: {text}",
    "account.committed": "커밋함 {text}",
    "account.tests_passed": "테스트 통과{figures}",
    "account.tests_failed": "테스트 실패{figures}",
    "account.asked": "질문: {text}",
    "account.changed": "변경: {files}",
    "relay.context_at": "- 컨텍스트 사용량 {pct}",
    "relay.unknown": "알 수 없음",
    "relay.active": "- 진행 중: {text}",
    "relay.not_stated": "기록 없음",
    "relay.completed": "- 완료:",
    "relay.pending": "- 다음 할 일:",
    "relay.decisions": "- 결정 사항:",
    "relay.preferences": "- 선호:",
    "relay.gotchas": "- 주의할 점:",
    "relay.more": "  - …그 밖의 {n}개는 스냅샷에",
    "relay.footer": (
        "---\n⚠️ 컨텍스트 사용량 {pct}%. /compact 하거나 /new로 새 세션을 시작하세요. "
        "현재 진행 상황은 자동 저장되었습니다."
    ),
    "zone.checkpoint": "컨텍스트가 절반을 넘었습니다. 기억 체크포인트를 저장합니다.",
    "zone.full_save": "컨텍스트가 거의 찼습니다. 새 대화에서 이어가세요. 기억은 저장되었습니다.",
    # what search says about a question it could not answer as asked
    "search.empty": '검색할 단어를 몇 개 주세요. 예: workmem search "무엇을 결정했나".',
    "search.no_words": "{query} 에는 검색할 단어가 없습니다. 기억나는 단어로 물어보세요.",
    "search.nothing_dated": "{span} 날짜의 기록이 없습니다.",
    "search.nothing_dated_closest": (
        "{span} 날짜의 기록이 없습니다. 가장 가까운 결과를 보여 줍니다."
    ),
    "search.no_memory": (
        "여기에는 아직 메모리가 없습니다({root}). "
        "`workmem init`으로 만들거나 --root로 다른 폴더를 지정하세요."
    ),
    "search.cut": "질문의 처음 {chars}자만 검색했습니다.",
    "flow.failed": "{workflow} 실패: {error}",
    "flow.updated": (
        "메모리 세션 {sid}을(를) 업데이트했습니다(상태 active). "
        "스냅샷 memory/sessions/{sid}.md에 병합했습니다."
    ),
    "flow.update_next": (
        "결정 사항, 미해결 질문, 다음 할 일은 이 명령으로 추가하세요: "
        'workmem session update {sid} --section "Decisions=..." '
        '--section "Next Actions=..." (끝난 항목은 "[done] ..."으로 표시).'
    ),
    "flow.continued": "{sid}은(는) 이제 {source}에서 이어집니다.",
    "flow.source_snapshot": "원래 세션의 스냅샷({source}):",
    "flow.released": "{sid}은(는) 더 이상 {source}을(를) 참조하지 않습니다.",
    "flow.archived": "보관했습니다: {sid}",
    "flow.deleted": "삭제했습니다(보관할 스냅샷 없음): {sid}",
    "flow.organized": "memory/index.md를 정리했습니다:",
    "flow.deleted_idle": "- 삭제한 idle 행: {ids}",
    "flow.marked_stale": "- stale로 표시: {ids}",
    "flow.kept_active": "- active 유지: {ids}",
    "flow.kept_running": "- 유지(아직 진행 중): {ids}",
    "flow.protected": "- 보호됨(참조 중): {ids}",
    "flow.attention": "- 확인 필요: {sid}: {why}",
    "flow.none": "없음",
    "flow.fresh": "새로 시작: relay 스냅샷을 보관했습니다({where}).",
    "flow.nothing_archived": "보관할 것 없음",
    "flow.nothing_restored": "이어갈 이전 세션이 없습니다.",
    "flow.migrated": "이전: {steps}",
    "flow.migrate_nothing": "이전: 바꿀 것이 없습니다.",
    "flow.wrap_saved": "마무리: 자동 저장했습니다: {files}.",
    "flow.wrap_relay": "memory/relay-snapshot.md (오늘의 데일리 로그 포함)",
    "flow.wrap_finish": (
        "마무리를 끝내려면 남길 가치가 있는 기억을 YAML 목록 "
        "{{type: project|feedback|user|reference, topic, description, content}}으로 "
        "`workmem wrap --from-file -`에 넘기세요. 먼저 `workmem wrap --state`로 git 상태와 "
        "기존 기억을 볼 수 있습니다. 남길 것이 없으면 그렇게 말하고 끝내세요."
    ),
    "wrap.file": "파일",
    "wrap.action": "작업",
    "wrap.content": "내용",
    "wrap.title": "기억을 업데이트했습니다:",
    "wrap.checkpoint_title": "기억 체크포인트를 저장했습니다({stamp}, 세션 중간 저장):",
    "wrap.created": "새로 만듦",
    "wrap.updated": "업데이트",
    "wrap.unchanged": "변경 없음",
    "wrap.compressed": "압축",
    "wrap.merged": "병합",
    "wrap.compress_detail": "{before}→{after}줄, {what}",
    "wrap.history_removed": "오래된 기록 삭제",
    "wrap.detail_moved": "세부 내용을 archive.md로 이동",
    "wrap.merged_detail": "{target}에 병합",
    "wrap.maintenance": "유지 관리: 압축 {c}개 | 만료 {s}개 | 병합 {m}개",
    "wrap.maintenance_skipped": "유지 관리: 체크포인트라서 건너뜀",
    "wrap.platform": "플랫폼: {name} | 기억 위치: {path}",
    "wrap.redacted": "가린 비밀 정보: {n}곳",
    "wrap.bootstrap_added": "시작 지시문: {file}에 추가함",
    "wrap.bootstrap_manual": "시작 지시문: {where}에 직접 추가하세요",
    "wrap.bootstrap_anywhere": (
        "시작 지시문: 에이전트를 찾지 못했습니다. 에이전트 지시문에 직접 붙여 넣으세요"
    ),
    "wrap.published": "동기화 위치: {target} (파일 {n}개 기록)",
    "wrap.publish_skipped": "{file} 동기화 안 함: {reason}",
    "wrap.next": "다음 새 대화에서 이 내용을 자동으로 불러옵니다.",
    "wrap.checkpoint_next": "체크포인트일 뿐 종료가 아닙니다. 계속 작업하세요.",
    "wrap.nothing": "이번 세션에는 저장할 새 정보가 없습니다",
    "wrap.problem": "{file}을(를) 읽지 못했습니다(그대로 두고 색인 줄도 유지): {error}",
    "wrap.warning": "주의: {finding}",
    "wrap.finding.code": "{file}: 코드 조각이 있습니다. 파일과 줄 번호를 가리키세요",
    "wrap.finding.temporary-path": "{file}: 임시 경로가 있습니다(일시적인 상태)",
    "wrap.finding.task-list": "{file}: 할 일 목록이 있습니다. 작업은 이 세션에만 해당합니다",
    "wrap.finding.git-tracked": "{file}: diff나 파일 목록이 있습니다. git이 이미 기록합니다",
    "wrap.finding.commit-history": "{file}: 커밋을 나열합니다. 커밋 기록은 git log에 있습니다",
    "wrap.finding.api-signatures": (
        "{file}: API 시그니처를 적었습니다. 코드에 있고 여기서는 낡게 됩니다"
    ),
    "wrap.unsaved": (
        "{file}을(를) 저장하지 못했습니다({error}). 내용은 사라지지 않았습니다: 전체 내용이 "
        "아래에 있으니 memory/{file}로 직접 저장하세요:"
    ),
    "wrap.too_many": (
        "경고: 메모리 파일이 {n}개입니다. 보통 3~5개이고 10개 이상은 너무 많습니다: 관련 주제"
        "를 합쳐 파일 수를 줄이세요."
    ),
    "wrap.first": (
        "처음 사용: MEMORY.md(새 대화가 먼저 읽는 색인)와 memory/<유형>_<주제>.md 기억 "
        "파일을 만들었습니다. 프로젝트 기억은 30일, 참고 자료는 90일이 지나면 [STALE]로 "
        "표시되며 자동으로 삭제되지 않습니다."
    ),
    # The workflows a message can ask for, as `say` and the prompt hook name them.
    "workflow.wrap": "세션 마무리(기억 저장)",
    "workflow.session.update": "세션 상태 업데이트",
    "workflow.session.register": "세션 등록",
    "workflow.session.continue": "메모리 세션 이어가기",
    "workflow.session.release": "참조 해제",
    "workflow.session.archive": "세션 보관",
    "workflow.organize": "메모리 정리",
    "workflow.notes.refresh": "세션 노트 업데이트",
    "workflow.notes.view": "세션 노트 보기",
    "workflow.relay.restore": "지난 세션 이어가기",
    "workflow.relay.archive": "새로 시작(인계 스냅샷 보관)",
    "workflow.migrate": "메모리 마이그레이션",
    "workflow.none": "실행할 작업 없음: 일반 메시지",
    # a memory file a merge left unfinished (conflict markers), at the session start
    "board.unfinished_merge": (
        "세션 보드({path})에 끝나지 않은 병합이 남아 있어(줄 {line}"
        "에 git 충돌 표시) 세션을 보여 주지 않습니다. `workmem do"
        "ctor --fix`로 두 버전을 병합하세요."
    ),
    "board.needs_doctor": (
        "세션 보드({path})를 읽을 수 없어({problem}) 세션을 보여"
        " 주지 않습니다. `workmem doctor`를 실행하세요."
    ),
    "memory.unfinished_merge": (
        "다음 메모리 파일에 끝나지 않은 병합이 남아 있습니다(git 충돌 표시)"
        ": {files}. `workmem doctor --fix`로 두 버전을"
        " 병합하세요."
    ),
}
