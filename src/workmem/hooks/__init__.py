"""Hooks: how each agent platform calls workmem, and how workmem answers in its format.

The handlers hold no workflow logic of their own (DESIGN.md principle 5): they read the
platform's JSON, call the same core functions as the CLI, and format the answer.
"""
