"""Simplified Chinese: the seeds' texts in Simplified characters (the relay's warning line
is seed 002's own, which is written in Simplified)."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "save.in_progress": "进行中：{items}",
    "save.next": "下一步：{items}",
    "save.last_request": "最后的请求：{text}",
    "save.separator": "。",
    "save.list_separator": "；",
    "save.resumption": (
        "我在记忆 session {sid} 中工作。停下的位置（{stamp}）：{state}\n"
        "从那里接着做；session 快照和笔记里有细节。"
    ),
    "save.ended": "Session {sid} 结束：{state}",
    "save.failed": (
        "注意：{whose}上一次保存（{reason}，{at}）"
        "失败的部分：{names}。`workmem doctor` 会说明原因。"
    ),
    "save.failed_whose": "session {sid} 的",
    # the outcome of a session, told from its transcript (continuity.account_text)
    "account.done": "已完成：{text}",
    "account.done_steps": "已完成：计划的 {n} 个步骤（最后：{last}）",
    "account.in_progress": "进行中：{text}",
    "account.next": "下一步：{items}",
    "account.progress": "已完成 {done}/{total} 步",
    "account.waiting": "等待用户回答：{text}",
    "account.worked_on": "处理：{text}",
    "account.said": "最后说：{text}",
    "account.committed": "已提交 {text}",
    "account.tests_passed": "测试通过{figures}",
    "account.tests_failed": "测试失败{figures}",
    "account.asked": "询问：{text}",
    "account.changed": "修改了 {files}",
    "relay.context_at": "- 上下文用量 {pct}",
    "relay.unknown": "未知",
    "relay.active": "- 进行中：{text}",
    "relay.not_stated": "未说明",
    "relay.completed": "- 已完成：",
    "relay.pending": "- 下一步：",
    "relay.decisions": "- 决定：",
    "relay.preferences": "- 偏好：",
    "relay.gotchas": "- 注意事项：",
    "relay.more": "  - …另有 {n} 项在快照中",
    "relay.footer": "---\n⚠️ 上下文 {pct}%，建议 /compact 或 /new 开新会话。当前进度已自动保存。",
    "zone.checkpoint": "上下文已过半，先存个记忆检查点。",
    "zone.full_save": "上下文快满了，建议开新对话继续。记忆已保存。",
    # what search says about a question it could not answer as asked
    "search.empty": '请给几个要搜索的词，例如 workmem search "我们决定了什么"。',
    "search.no_words": "{query} 没有可搜索的词：请用几个记得的词来问。",
    "search.nothing_dated": "记忆里没有 {span} 的内容。",
    "search.nothing_dated_closest": "记忆里没有 {span} 的内容；以下是最接近的结果。",
    "search.no_memory": (
        "这里还没有记忆（{root}）：`workmem init` 创建一个，或用 --root 指定其他文件夹。"
    ),
    "search.cut": "只搜索了问题的前 {chars} 个字符。",
    "flow.failed": "{workflow} 失败：{error}",
    "flow.updated": (
        "记忆 session {sid} 已更新（状态 active）；已合并快照 memory/sessions/{sid}.md。"
    ),
    "flow.update_next": (
        "用这个命令补上决定、未解决的问题和下一步：workmem session update {sid} "
        '--section "Decisions=..." --section "Next Actions=..."'
        '（完成的项目标记为 "[done] ..."）。'
    ),
    "flow.continued": "{sid} 现在接续 {source}。",
    "flow.source_snapshot": "来源 session 快照（{source}）：",
    "flow.released": "{sid} 已不再引用 {source}。",
    "flow.archived": "已归档：{sid}",
    "flow.deleted": "已删除（没有快照可归档）：{sid}",
    "flow.organized": "已整理 memory/index.md：",
    "flow.deleted_idle": "- 已删除 idle 行：{ids}",
    "flow.marked_stale": "- 标记为 stale：{ids}",
    "flow.kept_active": "- 保留 active：{ids}",
    "flow.kept_running": "- 保留（仍在进行中）：{ids}",
    "flow.protected": "- 受保护（被引用）：{ids}",
    "flow.attention": "- 需要处理：{sid}：{why}",
    "flow.none": "无",
    "flow.fresh": "重新开始：relay 快照已归档（{where}）。",
    "flow.nothing_archived": "没有可归档的快照",
    "flow.nothing_restored": "没有可接续的上一个 session。",
    "flow.migrated": "迁移：{steps}",
    "flow.migrate_nothing": "迁移：没有需要变更的内容。",
    "flow.wrap_saved": "收工：已自动保存：{files}。",
    "flow.wrap_relay": "memory/relay-snapshot.md（含今天的日志）",
    "flow.wrap_finish": (
        "要完成收工，请把值得保留的记忆以 YAML 列表 {{type: project|feedback|user|reference, "
        "topic, description, content}} 传给 `workmem wrap --from-file -`；先运行 "
        "`workmem wrap --state` 查看 git 状态和现有记忆。没有值得保留的内容就说明后结束。"
    ),
    "wrap.file": "文件",
    "wrap.action": "操作",
    "wrap.content": "内容",
    "wrap.title": "记忆已更新：",
    "wrap.checkpoint_title": "记忆检查点已保存（{stamp}，会话中途保存）：",
    "wrap.created": "新增",
    "wrap.updated": "更新",
    "wrap.unchanged": "未变",
    "wrap.compressed": "压缩",
    "wrap.merged": "合并",
    "wrap.compress_detail": "{before}→{after} 行，{what}",
    "wrap.history_removed": "移除过期历史",
    "wrap.detail_moved": "细节移至 archive.md",
    "wrap.merged_detail": "并入 {target}",
    "wrap.maintenance": "维护: 压缩 {c} 个文件 | 过期 {s} 个文件 | 合并 {m} 个文件",
    "wrap.maintenance_skipped": "维护: 检查点模式，跳过",
    "wrap.platform": "平台: {name} | 记忆路径: {path}",
    "wrap.redacted": "已屏蔽机密: {n} 处",
    "wrap.bootstrap_added": "启动指令: 已加入 {file}",
    "wrap.bootstrap_manual": "启动指令: 请手动加入 {where}",
    "wrap.bootstrap_anywhere": "启动指令: 未检测到代理平台，请手动粘贴到代理的指令中",
    "wrap.published": "已同步到: {target}（写入 {n} 个文件）",
    "wrap.publish_skipped": "未同步 {file}: {reason}",
    "wrap.next": "下次开新对话会自动加载这些上下文。",
    "wrap.checkpoint_next": "这只是检查点，不是结束，继续工作。",
    "wrap.nothing": "本次会话没有需要持久化的新信息",
    "wrap.problem": "无法读取 {file}（保持原样，索引行保留）：{error}",
    "wrap.warning": "注意 {finding}",
    "wrap.finding.code": "{file}：含有代码片段：请改成指向文件和行号",
    "wrap.finding.temporary-path": "{file}：提到临时路径：这是一次性的状态",
    "wrap.finding.task-list": "{file}：含有待办清单：任务只属于这次 session",
    "wrap.finding.git-tracked": "{file}：含有 diff 或文件清单：git 已经记录了",
    "wrap.finding.commit-history": "{file}：列出 commit：commit 历史请看 git log",
    "wrap.finding.api-signatures": "{file}：描述 API 签名：代码本身就写着，记在这里会过时",
    "wrap.unsaved": (
        "无法保存 {file}（{error}）。内容没有丢失：全文如下，请手动存为 memory/{file}："
    ),
    "wrap.too_many": (
        "警告：目前有 {n} 个记忆文件；通常 3-5 个，10 个以上就太多了：请把相关主题合并成较少"
        "的文件。"
    ),
    "wrap.first": (
        "首次使用：已创建 MEMORY.md（索引，新对话先读它）和 memory/<类型>_<主题>.md 记忆文件；"
        "项目状态 30 天、参考资料 90 天后标记 [STALE]，不会自动删除。"
    ),
    # The workflows a message can ask for, as `say` and the prompt hook name them.
    "workflow.wrap": "收工（保存这次的记忆）",
    "workflow.session.update": "状态更新",
    "workflow.session.register": "注册 memory session",
    "workflow.session.continue": "接续记忆",
    "workflow.session.release": "解除引用",
    "workflow.session.archive": "封存 session",
    "workflow.organize": "整理 memory",
    "workflow.notes.refresh": "更新 session 笔记",
    "workflow.notes.view": "显示 session 笔记",
    "workflow.relay.restore": "接续上次",
    "workflow.relay.archive": "重新开始（封存交接快照）",
    "workflow.migrate": "迁移记忆",
    "workflow.none": "没有要执行的流程：普通消息",
    # a memory file a merge left unfinished (conflict markers), at the session start
    "board.unfinished_merge": (
        "会话看板（{path}）还有未完成的合并（第 {line} 行有 git 的冲突"
        "标记），因此没有列出其中的会话：运行 `workmem doctor --fix"
        "` 合并两个版本。"
    ),
    "board.needs_doctor": (
        "无法读取会话看板（{path}）：{problem}，因此没有列出其中的会话：请运行 `workmem doctor`。"
    ),
    "memory.unfinished_merge": (
        "这些记忆文件还有未完成的合并（git 的冲突标记）：{files}。运行 `wo"
        "rkmem doctor --fix` 合并两个版本。"
    ),
}
