"""Lark grammars of standards-lint (package data)."""
