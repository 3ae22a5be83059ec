"""Traditional Chinese: the seeds' own texts, unchanged, and the rest in their voice."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "save.in_progress": "進行中：{items}",
    "save.next": "下一步：{items}",
    "save.last_request": "最後的請求：{text}",
    "save.separator": "。",
    "save.list_separator": "；",
    "save.resumption": (
        "我在記憶 session {sid} 中工作。停下的位置（{stamp}）：{state}\n"
        "從那裡接著做；session 快照與筆記有細節。"
    ),
    "save.ended": "Session {sid} 結束：{state}",
    "save.failed": (
        "注意：{whose}上一次保存（{reason}，{at}）"
        "失敗的部分：{names}。`workmem doctor` 會說明原因。"
    ),
    "save.failed_whose": "session {sid} 的",
    # the outcome of a session, told from its transcript (continuity.account_text)
    "account.done": "已完成：{text}",
    "account.done_steps": "已完成：計畫的 {n} 個步驟（最後：{last}）",
    "account.in_progress": "進行中：{text}",
    "account.next": "下一步：{items}",
    "account.progress": "已完成 {done}/{total} 步",
    "account.waiting": "等待使用者回答：{text}",
    "account.worked_on": "處理：{text}",
    "account.said": "最後說：{text}",
    "account.committed": "已提交 {text}",
    "account.tests_passed": "測試通過{figures}",
    "account.tests_failed": "測試失敗{figures}",
    "account.asked": "詢問：{text}",
    "account.changed": "修改了 {files}",
    "relay.context_at": "- 上下文用量 {pct}",
    "relay.unknown": "未知",
    "relay.active": "- 進行中：{text}",
    "relay.not_stated": "未說明",
    "relay.completed": "- 已完成：",
    "relay.pending": "- 下一步：",
    "relay.decisions": "- 決定：",
    "relay.preferences": "- 偏好：",
    "relay.gotchas": "- 注意事項：",
    "relay.more": "  - …另有 {n} 項在快照中",
    "relay.footer": "---\n⚠️ 上下文 {pct}%，建議 /compact 或 /new 開新會話。當前進度已自動保存。",
    "zone.checkpoint": "上下文已過半，先存個記憶檢查點。",
    "zone.full_save": "上下文快滿了，建議開新對話繼續。記憶已保存。",
    # what search says about a question it could not answer as asked
    "search.empty": '請給幾個要搜尋的字，例如 workmem search "我們決定了什麼"。',
    "search.no_words": "{query} 沒有可搜尋的字：請用幾個記得的詞來問。",
    "search.nothing_dated": "記憶裡沒有 {span} 的內容。",
    "search.nothing_dated_closest": "記憶裡沒有 {span} 的內容；以下是最接近的結果。",
    "search.no_memory": (
        "這裡還沒有記憶（{root}）：`workmem init` 建立一個，或用 --root 指定其他資料夾。"
    ),
    "search.cut": "只搜尋了問題的前 {chars} 個字元。",
    "flow.failed": "{workflow} 失敗：{error}",
    "flow.updated": (
        "記憶 session {sid} 已更新（狀態 active）；已合併快照 memory/sessions/{sid}.md。"
    ),
    "flow.update_next": (
        "用這個指令補上決定、未解問題與下一步：workmem session update {sid} "
        '--section "Decisions=..." --section "Next Actions=..."'
        '（完成的項目標成 "[done] ..."）。'
    ),
    "flow.continued": "{sid} 現在接續 {source}。",
    "flow.source_snapshot": "來源 session 快照（{source}）：",
    "flow.released": "{sid} 已不再引用 {source}。",
    "flow.archived": "已封存：{sid}",
    "flow.deleted": "已刪除（沒有快照可封存）：{sid}",
    "flow.organized": "已整理 memory/index.md：",
    "flow.deleted_idle": "- 已刪除 idle 列：{ids}",
    "flow.marked_stale": "- 標為 stale：{ids}",
    "flow.kept_active": "- 保留 active：{ids}",
    "flow.kept_running": "- 保留（仍在進行中）：{ids}",
    "flow.protected": "- 受保護（被引用）：{ids}",
    "flow.attention": "- 需要處理：{sid}：{why}",
    "flow.none": "無",
    "flow.fresh": "重新開始：relay 快照已封存（{where}）。",
    "flow.nothing_archived": "沒有可封存的快照",
    "flow.nothing_restored": "沒有可接續的上一個 session。",
    "flow.migrated": "遷移：{steps}",
    "flow.migrate_nothing": "遷移：沒有需要變更的項目。",
    "flow.wrap_saved": "收工：已自動保存：{files}。",
    "flow.wrap_relay": "memory/relay-snapshot.md（含今天的日誌）",
    "flow.wrap_finish": (
        "要完成收工，請把值得保留的記憶以 YAML 清單 {{type: project|feedback|user|reference, "
        "topic, description, content}} 傳給 `workmem wrap --from-file -`；先執行 "
        "`workmem wrap --state` 查看 git 狀態與現有記憶。沒有值得保留的內容就說明後結束。"
    ),
    "wrap.file": "檔案",
    "wrap.action": "動作",
    "wrap.content": "內容",
    "wrap.title": "記憶已更新：",
    "wrap.checkpoint_title": "記憶檢查點已保存（{stamp}，mid-session save）：",
    "wrap.created": "新增",
    "wrap.updated": "更新",
    "wrap.unchanged": "未變",
    "wrap.compressed": "壓縮",
    "wrap.merged": "合併",
    "wrap.compress_detail": "{before}→{after} 行，{what}",
    "wrap.history_removed": "移除過期歷史",
    "wrap.detail_moved": "細節移至 archive.md",
    "wrap.merged_detail": "併入 {target}",
    "wrap.maintenance": "維護: 壓縮 {c} 檔 | 過期 {s} 檔 | 合併 {m} 檔",
    "wrap.maintenance_skipped": "維護: 檢查點模式，略過",
    "wrap.platform": "平台: {name} | 記憶路徑: {path}",
    "wrap.redacted": "已遮蔽機密: {n} 處",
    "wrap.bootstrap_added": "啟動指令: 已加入 {file}",
    "wrap.bootstrap_manual": "啟動指令: 請手動加入 {where}",
    "wrap.bootstrap_anywhere": "啟動指令: 未偵測到代理平台，請手動貼到代理的指令中",
    "wrap.published": "已同步到: {target}（寫入 {n} 檔）",
    "wrap.publish_skipped": "未同步 {file}: {reason}",
    "wrap.next": "下次開新對話會自動載入這些上下文。",
    "wrap.checkpoint_next": "這只是檢查點，不是結束，繼續工作。",
    "wrap.nothing": "本次 session 沒有需要持久化的新資訊",
    "wrap.problem": "無法讀取 {file}（保持原樣，索引行保留）：{error}",
    "wrap.warning": "注意 {finding}",
    "wrap.finding.code": "{file}：含有程式碼片段：請改成指向檔案與行號",
    "wrap.finding.temporary-path": "{file}：提到暫存路徑：這是一次性的狀態",
    "wrap.finding.task-list": "{file}：含有待辦清單：任務只屬於這次 session",
    "wrap.finding.git-tracked": "{file}：含有 diff 或檔案清單：git 已經記錄了",
    "wrap.finding.commit-history": "{file}：列出 commit：commit 歷史請看 git log",
    "wrap.finding.api-signatures": "{file}：描述 API 簽名：程式碼本身就寫著，記在這裡會過時",
    "wrap.unsaved": (
        "無法儲存 {file}（{error}）。內容沒有遺失：全文如下，請手動存成 memory/{file}："
    ),
    "wrap.too_many": (
        "警告：目前有 {n} 個記憶檔；通常 3-5 個，10 個以上就太多了：請把相關主題合併成較少的檔案。"
    ),
    "wrap.first": (
        "首次使用：已建立 MEMORY.md（索引，新對話先讀它）和 memory/<類型>_<主題>.md 記憶檔；"
        "專案狀態 30 天、參考資料 90 天後標記 [STALE]，不會自動刪除。"
    ),
    # The workflows a message can ask for, as `say` and the prompt hook name them.
    "workflow.wrap": "收工（保存這次的記憶）",
    "workflow.session.update": "狀態更新",
    "workflow.session.register": "註冊 memory session",
    "workflow.session.continue": "接續記憶",
    "workflow.session.release": "解除引用",
    "workflow.session.archive": "封存 session",
    "workflow.organize": "整理 memory",
    "workflow.notes.refresh": "更新 session 筆記",
    "workflow.notes.view": "顯示 session 筆記",
    "workflow.relay.restore": "接續上次",
    "workflow.relay.archive": "重新開始（封存交接快照）",
    "workflow.migrate": "遷移記憶",
    "workflow.none": "沒有要執行的流程：一般訊息",
    # a memory file a merge left unfinished (conflict markers), at the session start
    "board.unfinished_merge": (
        "會話看板（{path}）還有未完成的合併（第 {line} 行有 git 的衝突"
        "標記），因此沒有列出其中的會話：執行 `workmem doctor --fix"
        "` 合併兩個版本。"
    ),
    "board.needs_doctor": (
        "無法讀取會話看板（{path}）：{problem}，因此沒有列出其中的會話：請執行 `workmem doctor`。"
    ),
    "memory.unfinished_merge": (
        "這些記憶檔還有未完成的合併（git 的衝突標記）：{files}。"
        "執行 `workmem doctor --fix` 合併兩個版本。"
    ),
}
