"""The protocol model: what the workflow files mean, in the protocol's words.

Layer: files -> syntax (AST, STATE/record views) -> **model** -> rules ->
findings -> outputs, fixes, server, hook, status.  This package imports only
from the syntax layer (``standards_lint.ast``, ``parser``, ``state``,
``project``, ``protocol``, ``records``, ``provenance``, ``holding``) and never
from ``standards_lint.rules``.
"""
