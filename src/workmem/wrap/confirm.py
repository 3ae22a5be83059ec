"""Step 8: the confirmation table, in Chinese as the seed shows it, or in English.

Everything in it comes from the verified reports of the earlier steps: the table lists
each file saved, compressed or merged; the lines below give the maintenance counts, the
platform and memory path, redactions, the boot directive and the mirror.
"""

from __future__ import annotations

from ..files.tables import escape_cell
from .run import WrapReport

HEADERS = {"zh": ("檔案", "動作", "內容"), "en": ("File", "Action", "Content")}
TEXT: dict[str, dict[str, str]] = {
    "zh": {
        "title": "記憶已更新：",
        "checkpoint_title": "記憶檢查點已保存（{stamp}，mid-session save）：",
        "created": "新增",
        "updated": "更新",
        "unchanged": "未變",
        "compressed": "壓縮",
        "merged": "合併",
        "compress_detail": "{before}→{after} 行，{what}",
        "history_removed": "移除過期歷史",
        "detail_moved": "細節移至 archive.md",
        "merged_detail": "併入 {target}",
        "maintenance": "維護: 壓縮 {c} 檔 | 過期 {s} 檔 | 合併 {m} 檔",
        "maintenance_skipped": "維護: 檢查點模式，略過",
        "platform": "平台: {name} | 記憶路徑: {path}",
        "redacted": "已遮蔽機密: {n} 處",
        "bootstrap_added": "啟動指令: 已加入 {file}",
        "bootstrap_manual": "啟動指令: 請手動加入 {where}",
        "bootstrap_anywhere": "啟動指令: 未偵測到代理平台，請手動貼到代理的指令中",
        "published": "已同步到: {target}（寫入 {n} 檔）",
        "publish_skipped": "未同步 {file}: {reason}",
        "next": "下次開新對話會自動載入這些上下文。",
        "checkpoint_next": "這只是檢查點，不是結束，繼續工作。",
        "nothing": "本次 session 沒有需要持久化的新資訊",
        "problem": "無法讀取 {file}（保持原樣，索引行保留）：{error}",
        "warning": "注意 {finding}",
        "first": (
            "首次使用：已建立 MEMORY.md（索引，新對話先讀它）和 memory/<類型>_<主題>.md 記憶檔；"
            "專案狀態 30 天、參考資料 90 天後標記 [STALE]，不會自動刪除。"
        ),
    },
    "en": {
        "title": "Memory updated:",
        "checkpoint_title": "Memory checkpoint saved ({stamp}, mid-session save):",
        "created": "created",
        "updated": "updated",
        "unchanged": "unchanged",
        "compressed": "compressed",
        "merged": "merged",
        "compress_detail": "{before}→{after} lines, {what}",
        "history_removed": "old history archived",
        "detail_moved": "detail moved to archive.md",
        "merged_detail": "merged into {target}",
        "maintenance": "Maintenance: compressed {c} | stale {s} | merged {m}",
        "maintenance_skipped": "Maintenance: skipped (checkpoint mode)",
        "platform": "Platform: {name} | Memory path: {path}",
        "redacted": "Secrets redacted: {n}",
        "bootstrap_added": "Boot directive: added to {file}",
        "bootstrap_manual": "Boot directive: add it by hand to {where}",
        "bootstrap_anywhere": "Boot directive: no agent detected; paste it into its instructions",
        "published": "Mirrored to: {target} ({n} files written)",
        "publish_skipped": "Not mirrored {file}: {reason}",
        "next": "The next session will load this context automatically.",
        "checkpoint_next": "This is a checkpoint, not the end of the session: keep working.",
        "nothing": "Nothing new to persist from this session.",
        "problem": "Could not read {file} (left as it is, its index line kept): {error}",
        "warning": "Warning: {finding}",
        "first": (
            "First wrap-up here: MEMORY.md (the index a new session reads first) and "
            "memory/<type>_<topic>.md files were created; project memories are marked [STALE] "
            "after 30 days and references after 90, never deleted automatically."
        ),
    },
}


def _row(*cells: str) -> str:
    return "| " + " | ".join(escape_cell(c) for c in cells) + " |"


def render(report: WrapReport) -> str:
    t = TEXT[report.language]
    warnings = [t["warning"].format(finding=f) for f in report.warnings]
    if report.nothing_new:
        return "\n".join([t["nothing"], *warnings])
    title = t["checkpoint_title"].format(stamp=report.stamp) if report.checkpoint else t["title"]
    head = HEADERS[report.language]
    lines = [title, _row(*head), "|" + "|".join("------" for _ in head) + "|"]
    for saved in report.saved:
        lines.append(_row(saved.filename, t[saved.action], saved.summary))
    maintenance = report.maintenance
    if maintenance is not None:
        for comp in maintenance.compressed:
            what = t["history_removed"] if comp.history_expired else t["detail_moved"]
            detail = t["compress_detail"].format(
                before=comp.lines_before, after=comp.lines_after, what=what
            )
            lines.append(_row(comp.filename, t["compressed"], detail))
        for pair in maintenance.merged:
            detail = t["merged_detail"].format(target=pair.specific.filename)
            lines.append(_row(pair.generic.filename, t["merged"], detail))
        lines.append(
            t["maintenance"].format(
                c=len(maintenance.compressed), s=len(maintenance.stale), m=len(maintenance.merged)
            )
        )
    else:
        lines.append(t["maintenance_skipped"])
    lines.append(t["platform"].format(name=report.platform.name, path="memory/ + MEMORY.md"))
    if report.redactions:
        lines.append(t["redacted"].format(n=report.redactions))
    boot = report.bootstrap
    if boot is not None and boot.status == "added":
        lines.append(t["bootstrap_added"].format(file=boot.file))
    elif boot is not None and boot.status == "manual":
        where = report.platform.row.instructions
        known = where != "—"  # the fallback platform has no instructions of its own
        lines.append(
            t["bootstrap_manual"].format(where=where) if known else t["bootstrap_anywhere"]
        )
    if report.published is not None:
        pub = report.published
        lines.append(t["published"].format(target=pub.target, n=len(pub.written)))
        for name, reason in pub.skipped:
            lines.append(t["publish_skipped"].format(file=name, reason=reason))
    lines.extend(warnings)
    if report.index is not None:
        lines.extend(report.index.notes)
    for name, error in report.problems:
        lines.append(t["problem"].format(file=name, error=error))
    if report.index is not None and report.index.created:
        lines.append(t["first"])
    lines.append(t["checkpoint_next"] if report.checkpoint else t["next"])
    return "\n".join(lines)
