"""The protocol model: what the workflow files mean, in the protocol's words.

Layer: files -> syntax (AST, STATE/record views) -> **model** -> rules ->
findings -> outputs, fixes, server, hook, status.  This package imports only
from the syntax layer (``standards_lint.syntax.ast``, ``parser``, ``state``,
``project``, ``protocol``, ``records``, ``provenance``, ``holding``) and never
from ``standards_lint.rules``.
"""

from .facts import GATE_RECORDS, Cycle, Model, RecordFact, model_of, required_states
from .values import INVALID, MISSING, READ, REPEATED, Value, read_field
from .workflow import USER, Frame, Handoff, Stack, Workflow, owner_of

__all__ = [
    "Cycle", "Frame", "GATE_RECORDS", "Handoff", "INVALID", "MISSING", "Model", "READ", "REPEATED",
    "RecordFact", "Stack", "USER", "Value", "Workflow", "model_of", "owner_of", "read_field", "required_states",
]
