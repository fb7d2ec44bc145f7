"""Syntax: reading files, the grammar's LALR tables and parser, the AST and the views of STATE.md, records and provenance blocks."""
