"""The public plugin API of standards-lint.

Everything a rule author needs, from one module::

    from standards_lint.api import hookimpl, rule, report, replace, module_rules

    @rule(code="ACME001", name="request-cites-ticket", section="Active Work",
          summary="Active Work.Request cites a ticket key.", explanation="...")
    def request_cites_ticket(project):
        state = project.state
        ...
        yield report(field, "message")

    standards_lint_rules = module_rules(globals())

Register the module under the entry-point group ``standards_lint`` in your
package's ``pyproject.toml``::

    [project.entry-points.standards_lint]
    acme = "acme_standards_rules"

or, for a module inside the project itself, list it in the configuration
(``plugins = ["tools.standards_rules"]``; it is imported with the project
root on ``sys.path``, only when the configuration asks).

Hooks (see :mod:`standards_lint.engine.hookspecs`): ``standards_lint_rules()`` returns
the rules; ``standards_lint_configure(options)`` receives the plugin's table
``[tool.standards-lint.plugin-options.<entry-point name>]``.

The protocol model (see :mod:`standards_lint.model` and docs/plugins.md):
``model_of(project)`` gives what the workflow files *mean* -- the state, the
route passed and remaining, the recovery stack, the cycle's records and which
must exist now -- each value a :class:`Value` saying whether it was read,
missing, repeated or invalid.  These names are stable: a plugin may rely on
them across releases.
"""

from .syntax.ast import (
    Code,
    Comment,
    ConflictMarker,
    Container,
    Document,
    Field,
    Heading,
    ListItem,
    Node,
    Prose,
    Span,
)
from .engine.findings import Edit, Finding, Fix
from .engine.hookspecs import hookimpl, hookspec
from .model import (
    GATE_RECORDS,
    INVALID,
    MISSING,
    READ,
    REPEATED,
    USER,
    Cycle,
    Frame,
    Handoff,
    Model,
    RecordFact,
    Stack,
    Value,
    Workflow,
    model_of,
    owner_of,
)
from .engine.project import Project
from .syntax.provenance import Provenance, ProvenanceLine
from .syntax.protocol import (
    ARTIFACT_TYPES,
    CYCLE_ID_RE,
    CYCLE_MODES,
    FAILURE_TYPES,
    HANDOFF_KINDS,
    REVIEW_KINDS,
    WORKFLOW_STATES,
    record_path,
)
from .syntax.records import Record
from .engine.rule import Diagnostic, Rule, module_rules, replace, report, rule
from .syntax.state import StateModel

__all__ = [
    "ARTIFACT_TYPES",
    "CYCLE_ID_RE",
    "CYCLE_MODES",
    "Code",
    "Comment",
    "ConflictMarker",
    "Container",
    "Cycle",
    "Diagnostic",
    "Document",
    "Edit",
    "FAILURE_TYPES",
    "Field",
    "Finding",
    "Fix",
    "Frame",
    "GATE_RECORDS",
    "HANDOFF_KINDS",
    "Handoff",
    "Heading",
    "INVALID",
    "ListItem",
    "MISSING",
    "Model",
    "Node",
    "Project",
    "Prose",
    "Provenance",
    "ProvenanceLine",
    "READ",
    "REPEATED",
    "REVIEW_KINDS",
    "Record",
    "RecordFact",
    "Rule",
    "Span",
    "Stack",
    "StateModel",
    "USER",
    "Value",
    "WORKFLOW_STATES",
    "Workflow",
    "hookimpl",
    "hookspec",
    "model_of",
    "module_rules",
    "owner_of",
    "record_path",
    "replace",
    "report",
    "rule",
]
