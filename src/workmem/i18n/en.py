"""English: the default, and the table every other language is checked against."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # a save's account of where the session stands (board summary, snapshot, daily log)
    "save.in_progress": "in progress: {items}",
    "save.next": "next: {items}",
    "save.last_request": "last request: {text}",
    "save.separator": ". ",
    "save.list_separator": "; ",
    "save.resumption": (
        "I was working in memory session {sid}. Where I left it ({stamp}): {state}\n"
        "Pick up from there; the session snapshot and notes have details."
    ),
    "save.ended": "Session {sid} ended: {state}",
    "save.failed": (
        "Note: the last save{whose} ({reason} at {at}) failed for: {names}. "
        "`workmem doctor` shows why."
    ),
    "save.failed_whose": " of session {sid}",
    # the outcome of a session, told from its transcript (continuity.account_text)
    "account.done": "Done: {text}",
    "account.done_steps": "Done: all {n} plan steps (last: {last})",
    "account.in_progress": "In progress: {text}",
    "account.next": "next: {items}",
    "account.progress": "{done} of {total} steps done",
    "account.waiting": "Waiting for the user's answer: {text}",
    "account.worked_on": "Worked on: {text}",
    "account.said": "last said: {text}",
    "account.committed": "committed {text}",
    "account.tests_passed": "tests passed{figures}",
    "account.tests_failed": "tests failing{figures}",
    "account.asked": "asked: {text}",
    "account.changed": "changed {files}",
    # the relay's entry in the daily log, and its warnings
    "relay.context_at": "- Context at {pct}",
    "relay.unknown": "unknown",
    "relay.active": "- Active: {text}",
    "relay.not_stated": "not stated",
    "relay.completed": "- Completed:",
    "relay.pending": "- Next:",
    "relay.decisions": "- Decisions:",
    "relay.preferences": "- Preferences:",
    "relay.gotchas": "- Gotchas:",
    "relay.more": "  - … and {n} more in the snapshot",
    "relay.footer": (
        "---\n⚠️ Context at {pct}%: consider /compact, or /new for a fresh session. "
        "Progress so far is saved automatically."
    ),
    "zone.checkpoint": "Context is past half: saving a memory checkpoint.",
    "zone.full_save": "Context is nearly full: continue in a new session. Memory is saved.",
    # what search says about a question it could not answer as asked
    "search.empty": 'Give a few words to search for, e.g. workmem search "what did we decide".',
    "search.no_words": "{query} has no words to search for: ask with a few words you remember.",
    "search.nothing_dated": "Nothing in memory is dated {span}.",
    "search.nothing_dated_closest": (
        "Nothing in memory is dated {span}; the closest matches are shown."
    ),
    "search.no_memory": (
        "There is no memory here yet ({root}): "
        "`workmem init` starts one, or name another folder with --root."
    ),
    "search.cut": "Only the first {chars} characters of the question were searched.",
    # confirmations of the workflows a trigger phrase runs
    "flow.failed": "{workflow} failed: {error}",
    "flow.updated": (
        "Memory session {sid} updated (status active); snapshot memory/sessions/{sid}.md merged."
    ),
    "flow.update_next": (
        "Add decisions, open questions and next actions with: workmem session update {sid} "
        '--section "Decisions=..." --section "Next Actions=..." '
        '(mark finished items "[done] ...").'
    ),
    "flow.continued": "{sid} now continues from {source}.",
    "flow.source_snapshot": "Source session snapshot ({source}):",
    "flow.released": "{sid} no longer references {source}.",
    "flow.archived": "Archived: {sid}",
    "flow.deleted": "Deleted (no snapshot to archive): {sid}",
    "flow.organized": "Organized memory/index.md:",
    "flow.deleted_idle": "- deleted idle rows: {ids}",
    "flow.marked_stale": "- marked stale: {ids}",
    "flow.kept_active": "- kept active: {ids}",
    "flow.kept_running": "- kept (still running): {ids}",
    "flow.protected": "- protected (referenced): {ids}",
    "flow.attention": "- needs attention: {sid}: {why}",
    "flow.none": "none",
    "flow.fresh": "Fresh start: relay snapshot archived ({where}).",
    "flow.nothing_archived": "nothing to archive",
    "flow.nothing_restored": "No earlier session to restore.",
    "flow.migrated": "Migration: {steps}",
    "flow.migrate_nothing": "Migration: nothing to change.",
    "flow.wrap_saved": "Wrap-up: saved automatically: {files}.",
    "flow.wrap_relay": "memory/relay-snapshot.md (and today's daily log)",
    "flow.wrap_finish": (
        "To finish the wrap-up, pipe the memories worth keeping to "
        "`workmem wrap --from-file -` as a YAML list of {{type: project|feedback|user|reference, "
        "topic, description, content}}; run `workmem wrap --state` first to see git state and "
        "existing memories. If nothing is worth keeping, say so and stop."
    ),
    # the wrap-up's confirmation table
    "wrap.file": "File",
    "wrap.action": "Action",
    "wrap.content": "Content",
    "wrap.title": "Memory updated:",
    "wrap.checkpoint_title": "Memory checkpoint saved ({stamp}, mid-session save):",
    "wrap.created": "created",
    "wrap.updated": "updated",
    "wrap.unchanged": "unchanged",
    "wrap.compressed": "compressed",
    "wrap.merged": "merged",
    "wrap.compress_detail": "{before}→{after} lines, {what}",
    "wrap.history_removed": "old history archived",
    "wrap.detail_moved": "detail moved to archive.md",
    "wrap.merged_detail": "merged into {target}",
    "wrap.maintenance": "Maintenance: compressed {c} | stale {s} | merged {m}",
    "wrap.maintenance_skipped": "Maintenance: skipped (checkpoint mode)",
    "wrap.platform": "Platform: {name} | Memory path: {path}",
    "wrap.redacted": "Secrets redacted: {n}",
    "wrap.bootstrap_added": "Boot directive: added to {file}",
    "wrap.bootstrap_manual": "Boot directive: add it by hand to {where}",
    "wrap.bootstrap_anywhere": (
        "Boot directive: no agent detected; paste it into its instructions"
    ),
    "wrap.published": "Mirrored to: {target} ({n} files written)",
    "wrap.publish_skipped": "Not mirrored {file}: {reason}",
    "wrap.next": "The next session will load this context automatically.",
    "wrap.checkpoint_next": "This is a checkpoint, not the end of the session: keep working.",
    "wrap.nothing": "Nothing new to persist from this session.",
    "wrap.problem": "Could not read {file} (left as it is, its index line kept): {error}",
    "wrap.warning": "Warning: {finding}",
    "wrap.finding.code": "{file}: holds a code snippet: point to the file and line instead",
    "wrap.finding.temporary-path": "{file}: names a temporary path: ephemeral state",
    "wrap.finding.task-list": "{file}: holds a task list: tasks are session-scoped only",
    "wrap.finding.git-tracked": "{file}: holds a diff or a list of files: git already tracks that",
    "wrap.finding.commit-history": "{file}: lists commits: commit history belongs to git log",
    "wrap.finding.api-signatures": (
        "{file}: describes API signatures: the code says them, and they go stale here"
    ),
    "wrap.unsaved": (
        "Could not save {file} ({error}). Nothing is lost: its text is below, save it by hand"
        " as memory/{file}:"
    ),
    "wrap.too_many": (
        "Warning: {n} memory files; 3-5 is typical and 10 or more is too many: merge related "
        "topics into fewer files."
    ),
    "wrap.first": (
        "First wrap-up here: MEMORY.md (the index a new session reads first) and "
        "memory/<type>_<topic>.md files were created; project memories are marked [STALE] "
        "after 30 days and references after 90, never deleted automatically."
    ),
    # The workflows a message can ask for, as `say` and the prompt hook name them.
    "workflow.wrap": "Session wrap-up",
    "workflow.session.update": "Session update",
    "workflow.session.register": "Session registration",
    "workflow.session.continue": "Continue a memory session",
    "workflow.session.release": "Release a memory reference",
    "workflow.session.archive": "Archive a session",
    "workflow.organize": "Organize memory",
    "workflow.notes.refresh": "Refresh the session notes",
    "workflow.notes.view": "Show the session notes",
    "workflow.relay.restore": "Continue from the last session",
    "workflow.relay.archive": "Fresh start",
    "workflow.migrate": "Memory migration",
    "workflow.none": "No workflow: an ordinary message",
    # a memory file a merge left unfinished (conflict markers), at the session start
    "board.unfinished_merge": (
        "The session board ({path}) holds an unfinished merge (conflict markers from git "
        "at line {line}), so its sessions are not shown: run `workmem doctor --fix` to "
        "merge both versions."
    ),
    "board.needs_doctor": (
        "The session board ({path}) cannot be read ({problem}), so its sessions are not "
        "shown: run `workmem doctor`."
    ),
    "memory.unfinished_merge": (
        "These memory files hold an unfinished merge (conflict markers from git): "
        "{files}. Run `workmem doctor --fix` to merge both versions."
    ),
}
