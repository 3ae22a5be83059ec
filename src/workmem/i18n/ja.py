"""Japanese: short, plain texts in the polite form an assistant uses."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "save.in_progress": "作業中: {items}",
    "save.next": "次: {items}",
    "save.last_request": "最後の依頼: {text}",
    "save.separator": "。",
    "save.list_separator": "、",
    "save.resumption": (
        "メモリセッション {sid} で作業していました。中断した位置（{stamp}）: {state}\n"
        "ここから再開してください。詳しくはセッションのスナップショットとノートにあります。"
    ),
    "save.ended": "セッション {sid} 終了: {state}",
    "save.failed": (
        "注意: {whose}前回の保存（{reason}、{at}）で失敗した部分: {names}。"
        "原因は `workmem doctor` で確認できます。"
    ),
    "save.failed_whose": "セッション {sid} の",
    # the outcome of a session, told from its transcript (continuity.account_text)
    "account.done": "完了：{text}",
    "account.done_steps": "完了：計画の {n} ステップすべて（最後：{last}）",
    "account.in_progress": "作業中：{text}",
    "account.next": "次：{items}",
    "account.progress": "{total} ステップ中 {done} 完了",
    "account.waiting": "ユーザーの回答待ち：{text}",
    "account.worked_on": "取り組んだこと：{text}",
    "account.said": "最後の発言：{text}",
    "account.committed": "コミット済み {text}",
    "account.tests_passed": "テスト成功{figures}",
    "account.tests_failed": "テスト失敗{figures}",
    "account.asked": "質問：{text}",
    "account.changed": "変更 {files}",
    "relay.context_at": "- コンテキスト使用率 {pct}",
    "relay.unknown": "不明",
    "relay.active": "- 作業中: {text}",
    "relay.not_stated": "記載なし",
    "relay.completed": "- 完了:",
    "relay.pending": "- 次にやること:",
    "relay.decisions": "- 決定事項:",
    "relay.preferences": "- 好み:",
    "relay.gotchas": "- 注意点:",
    "relay.more": "  - …ほか {n} 件はスナップショットに",
    "relay.footer": (
        "---\n⚠️ コンテキスト使用率 {pct}%。/compact するか、/new で新しいセッションを"
        "始めてください。現在の進捗は自動保存済みです。"
    ),
    "zone.checkpoint": "コンテキストが半分を超えました。記憶のチェックポイントを保存します。",
    "zone.full_save": (
        "コンテキストがもうすぐいっぱいです。新しい会話で続けてください。記憶は保存済みです。"
    ),
    # what search says about a question it could not answer as asked
    "search.empty": (
        '検索する言葉をいくつか指定してください（例: workmem search "何を決めたか"）。'
    ),
    "search.no_words": "{query} には検索できる言葉がありません。覚えている言葉で聞いてください。",
    "search.nothing_dated": "{span} の記録はありません。",
    "search.nothing_dated_closest": "{span} の記録はありません。最も近い結果を表示します。",
    "search.no_memory": (
        "ここにはまだメモリがありません（{root}）。"
        "`workmem init` で作成するか、--root で別のフォルダを指定してください。"
    ),
    "search.cut": "質問の最初の {chars} 文字だけを検索しました。",
    "flow.failed": "{workflow} に失敗しました: {error}",
    "flow.updated": (
        "メモリセッション {sid} を更新しました（状態 active）。"
        "スナップショット memory/sessions/{sid}.md に統合済みです。"
    ),
    "flow.update_next": (
        "決定事項・未解決の問題・次にやることは次のコマンドで追加してください: "
        'workmem session update {sid} --section "Decisions=..." '
        '--section "Next Actions=..."（完了した項目は "[done] ..." と書きます）。'
    ),
    "flow.continued": "{sid} は {source} の続きになりました。",
    "flow.source_snapshot": "元のセッションのスナップショット（{source}）:",
    "flow.released": "{sid} は {source} を参照しなくなりました。",
    "flow.archived": "アーカイブしました: {sid}",
    "flow.deleted": "削除しました（アーカイブするスナップショットなし）: {sid}",
    "flow.organized": "memory/index.md を整理しました:",
    "flow.deleted_idle": "- 削除した idle の行: {ids}",
    "flow.marked_stale": "- stale にした行: {ids}",
    "flow.kept_active": "- active のまま: {ids}",
    "flow.kept_running": "- 保持（まだ実行中）: {ids}",
    "flow.protected": "- 保護（参照あり）: {ids}",
    "flow.attention": "- 要対応: {sid}: {why}",
    "flow.none": "なし",
    "flow.fresh": "新しく始めます: relay スナップショットをアーカイブしました（{where}）。",
    "flow.nothing_archived": "アーカイブするものなし",
    "flow.nothing_restored": "復元できる前回のセッションはありません。",
    "flow.migrated": "移行: {steps}",
    "flow.migrate_nothing": "移行: 変更はありません。",
    "flow.wrap_saved": "終了処理: 自動保存しました: {files}。",
    "flow.wrap_relay": "memory/relay-snapshot.md（と今日のデイリーログ）",
    "flow.wrap_finish": (
        "終了処理を仕上げるには、残す価値のある記憶を YAML のリスト "
        "{{type: project|feedback|user|reference, topic, description, content}} として "
        "`workmem wrap --from-file -` に渡してください。先に `workmem wrap --state` で git の"
        "状態と既存の記憶を確認できます。残すものがなければ、そう伝えて終わりです。"
    ),
    "wrap.file": "ファイル",
    "wrap.action": "操作",
    "wrap.content": "内容",
    "wrap.title": "記憶を更新しました:",
    "wrap.checkpoint_title": (
        "記憶のチェックポイントを保存しました（{stamp}、セッション途中の保存）:"
    ),
    "wrap.created": "新規",
    "wrap.updated": "更新",
    "wrap.unchanged": "変更なし",
    "wrap.compressed": "圧縮",
    "wrap.merged": "統合",
    "wrap.compress_detail": "{before}→{after} 行、{what}",
    "wrap.history_removed": "古い履歴を削除",
    "wrap.detail_moved": "詳細を archive.md へ移動",
    "wrap.merged_detail": "{target} に統合",
    "wrap.maintenance": "メンテナンス: 圧縮 {c} 件 | 期限切れ {s} 件 | 統合 {m} 件",
    "wrap.maintenance_skipped": "メンテナンス: チェックポイントのため省略",
    "wrap.platform": "プラットフォーム: {name} | 記憶の場所: {path}",
    "wrap.redacted": "伏せた秘密情報: {n} 箇所",
    "wrap.bootstrap_added": "起動指示: {file} に追加しました",
    "wrap.bootstrap_manual": "起動指示: {where} に手動で追加してください",
    "wrap.bootstrap_anywhere": (
        "起動指示: エージェントが見つかりません。エージェントの指示に手動で貼り付けてください"
    ),
    "wrap.published": "同期先: {target}（{n} ファイル書き込み）",
    "wrap.publish_skipped": "{file} は同期していません: {reason}",
    "wrap.next": "次の新しい会話で、この内容が自動で読み込まれます。",
    "wrap.checkpoint_next": "これはチェックポイントで、終了ではありません。作業を続けてください。",
    "wrap.nothing": "このセッションには保存すべき新しい情報はありません",
    "wrap.problem": "{file} を読み込めませんでした（そのまま残し、索引の行も保持）: {error}",
    "wrap.warning": "注意: {finding}",
    "wrap.finding.code": "{file}: コード片を含んでいます。ファイルと行番号を示してください",
    "wrap.finding.temporary-path": "{file}: 一時パスを含んでいます（一時的な状態です）",
    "wrap.finding.task-list": "{file}: タスクリストを含んでいます。タスクはこのセッション限りです",
    "wrap.finding.git-tracked": (
        "{file}: diff かファイル一覧を含んでいます。git がすでに記録しています"
    ),
    "wrap.finding.commit-history": (
        "{file}: コミットを列挙しています。コミット履歴は git log にあります"
    ),
    "wrap.finding.api-signatures": (
        "{file}: API シグネチャを書いています。コードに書かれており、ここでは古くなります"
    ),
    "wrap.unsaved": (
        "{file} を保存できませんでした（{error}）。内容は失われていません：全文を下に示します"
        "。memory/{file} として手動で保存してください："
    ),
    "wrap.too_many": (
        "警告：記憶ファイルが {n} 個あります。通常は 3〜5 個で、10 個以上は多すぎます。関連す"
        "るトピックをまとめてファイルを減らしてください。"
    ),
    "wrap.first": (
        "初回: MEMORY.md（新しい会話が最初に読む索引）と memory/<種類>_<トピック>.md の"
        "記憶ファイルを作成しました。プロジェクトの記憶は 30 日、参考資料は 90 日で "
        "[STALE] になりますが、自動で削除はされません。"
    ),
    # The workflows a message can ask for, as `say` and the prompt hook name them.
    "workflow.wrap": "セッションの締めくくり（記憶の保存）",
    "workflow.session.update": "セッションの状態更新",
    "workflow.session.register": "セッションの登録",
    "workflow.session.continue": "記憶セッションの引き継ぎ",
    "workflow.session.release": "参照の解除",
    "workflow.session.archive": "セッションのアーカイブ",
    "workflow.organize": "メモリの整理",
    "workflow.notes.refresh": "セッションノートの更新",
    "workflow.notes.view": "セッションノートの表示",
    "workflow.relay.restore": "前回の続き",
    "workflow.relay.archive": "新しく始める（引き継ぎスナップショットを保管）",
    "workflow.migrate": "メモリの移行",
    "workflow.none": "実行するワークフローはありません（通常のメッセージ）",
    # a memory file a merge left unfinished (conflict markers), at the session start
    "board.unfinished_merge": (
        "セッションボード（{path}）に未完了のマージが残っています（{line} 行"
        "目に git の競合マーカー）。そのためセッションを表示していません。`work"
        "mem doctor --fix` で両方の版をマージしてください。"
    ),
    "board.needs_doctor": (
        "セッションボード（{path}）を読めません（{problem}）。そのためセッ"
        "ションを表示していません。`workmem doctor` を実行してください。"
    ),
    "memory.unfinished_merge": (
        "次のメモリファイルに未完了のマージが残っています（git の競合マーカー）：{f"
        "iles}。`workmem doctor --fix` で両方の版をマージして"
        "ください。"
    ),
}
