"""Rule declarations.

A rule is declared once, with everything its documentation, its SARIF
descriptor and the engine need::

    @rule(
        code="SL501",
        name="recovery-active-mismatch",
        section="Recovery Mechanics",
        summary="Recovery.Active must be true exactly when frames exist.",
        explanation=\"\"\"What it does / why / example / fix safety (Markdown).\"\"\",
        fix="safe",
    )
    def recovery_active(project):
        ...
        yield report(node, "message", fix=...)

The check function receives the :class:`~standards_lint.engine.project.Project` and
yields :class:`Diagnostic` objects; the engine stamps code, severity and
section on them.
"""

from __future__ import annotations

from typing import Callable, Iterable, NamedTuple, Optional, Union

from ..syntax.ast import Node, Span
from ..syntax.data import Frozen
from .findings import Edit, Fix

FIX_KINDS = ("none", "safe", "unsafe", "sometimes")
# What a rule checks: one tree (a Project) or one move between two versions.
SCOPES = ("project", "history", "upgrade")

# Who must act on a finding (see :mod:`standards_lint.model.owners`): a role, the
# user, or a strategy the engine resolves per finding.
OwnerSpec = Union[str, Callable[..., str]]


class Diagnostic(Frozen):
    __slots__ = ("path", "span", "message", "fix", "owner", "help")

    def __init__(self, path: str, span: Span, message: str, fix: Optional[Fix] = None,
                 owner: Optional[str] = None, help: Optional[str] = None):
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "fix", fix)
        # Per-finding overrides of the rule's declared owner and help.
        object.__setattr__(self, "owner", owner)
        object.__setattr__(self, "help", help)


class Reveals(NamedTuple):
    """What a rule's fix may reveal: the codes of the rules that read the
    value the fix makes readable for the first time (a first report of that
    value, not the fix's doing), and why, in one sentence.  Rendered on the
    rule's page; the fix proof (tests/test_fix_proof.py) holds every new
    finding after a fix to it."""

    codes: frozenset
    why: str

    @classmethod
    def of(cls, codes: str, why: str) -> "Reveals":
        return cls(frozenset(codes.split()), why)


class Rule(Frozen):
    """A rule's declaration (see :func:`rule`).

    ``beyond_checker``: where the reference checker has a matching message,
    the rule is part of parity; rules beyond the checker say so here.
    ``owner``: the role that must act on the rule's findings: a role name,
    "USER", "record" (the role owning the file's record type), "state" (the
    role of the state that wrote STATE.md), or a callable
    ``owner(project, diagnostic) -> str``; see standards_lint.model.owners.
    ``help``: the concrete next step when a finding carries no machine fix.
    ``no_fix_reason``: why the rule has no fix (documentation), when
    ``fix == "none"``.  ``since``: the first release the rule applies to
    (None: every release).  ``during_conflict``: while STATE.md, MODE.md or
    CONTEXT.md holds conflict markers a role stops and waits, so the engine
    runs only the rules that read no workflow value (the conflict reports
    themselves)."""

    __slots__ = ("code", "name", "section", "summary", "explanation", "check", "severity", "fix",
                 "beyond_checker", "bad_example", "good_example", "plugin", "owner", "help", "no_fix_reason",
                 "during_conflict", "scope", "reveals", "since")
    _no_repr = ("check",)

    def __init__(self, code: str, name: str, section: str, summary: str, explanation: str,
                 check: Callable[..., Iterable[Diagnostic]], severity: str = "error", fix: str = "none",
                 beyond_checker: bool = False, bad_example: str = "", good_example: str = "", plugin: str = "",
                 owner: OwnerSpec = "", help: str = "", no_fix_reason: str = "", during_conflict: bool = False,
                 scope: str = "project", reveals: Optional["Reveals"] = None, since: Optional[str] = None):
        setter = object.__setattr__
        setter(self, "code", code)
        setter(self, "name", name)
        setter(self, "section", section)
        setter(self, "summary", summary)
        setter(self, "explanation", explanation)
        setter(self, "check", check)
        setter(self, "severity", severity)
        setter(self, "fix", fix)
        setter(self, "beyond_checker", beyond_checker)
        setter(self, "bad_example", bad_example)
        setter(self, "good_example", good_example)
        setter(self, "plugin", plugin)
        setter(self, "owner", owner)
        setter(self, "help", help)
        setter(self, "no_fix_reason", no_fix_reason)
        setter(self, "during_conflict", during_conflict)
        setter(self, "scope", scope)
        setter(self, "reveals", reveals)
        setter(self, "since", since)

    def applies_to(self, release) -> bool:
        """Whether the rule is part of *release* (a
        :class:`~standards_lint.model.releases.Release`): it has no
        ``since``, or the release is that one or newer."""
        return self.since is None or release.at_least(self.since)


def rule(
    *,
    code: str,
    name: str,
    section: str,
    summary: str,
    explanation: str = "",
    severity: str = "error",
    fix: str = "none",
    beyond_checker: bool = False,
    bad_example: str = "",
    good_example: str = "",
    owner: OwnerSpec = "",
    help: str = "",
    no_fix_reason: str = "",
    during_conflict: bool = False,
    scope: str = "project",
    reveals: Optional["Reveals"] = None,
    since: Optional[str] = None,
):
    """Decorator turning a check function into a :class:`Rule`.

    *scope*: ``"project"`` (the default) for a rule that checks one tree and
    receives the :class:`~standards_lint.engine.project.Project`; ``"history"`` for
    a rule that checks one move between two versions of the workflow files
    and receives a :class:`~standards_lint.model.moves.Move`; ``"upgrade"``
    for a rule that checks a commit that upgraded the framework (its runtime
    files only, no workflow move), given the same Move.  A plain lint
    runs only the first kind; ``standards-lint history`` (and the Stop hook,
    for the working tree's move) runs the second.

    *since*: the first framework release the rule applies to (``"0.10.0"``),
    for a rule whose protocol text older releases lack; a project of an
    older release (its ``.standards/VERSION.json``, or ``--target-version``)
    is not checked by it (:mod:`standards_lint.model.releases`)."""
    if fix not in FIX_KINDS:
        raise ValueError(f"fix must be one of {FIX_KINDS}")
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}")

    def wrap(func: Callable[..., Iterable[Diagnostic]]) -> Rule:
        return Rule(
            code=code,
            name=name,
            section=section,
            summary=summary,
            explanation=(explanation or func.__doc__ or "").strip(),
            check=func,
            severity=severity,
            fix=fix,
            beyond_checker=beyond_checker,
            bad_example=bad_example,
            good_example=good_example,
            owner=owner,
            help=help,
            no_fix_reason=no_fix_reason,
            during_conflict=during_conflict,
            scope=scope,
            reveals=reveals,
            since=since,
        )

    return wrap


_FILE_START = Span(1, 1, 1, 1, 0, 0)


def report(
    where: Union[Node, tuple[str, Span], str],
    message: str,
    fix: Optional[Fix] = None,
    *,
    owner: Optional[str] = None,
    help: Optional[str] = None,
) -> Diagnostic:
    """A diagnostic at a node, at ``(path, span)``, or at the start of a path.

    *owner* and *help* override the rule's declared ones for this finding."""
    if isinstance(where, str):
        return Diagnostic(where, _FILE_START, message, fix, owner, help)
    if isinstance(where, tuple):
        return Diagnostic(where[0], where[1], message, fix, owner, help)
    return Diagnostic(where.path, where.span, message, fix, owner, help)


def replace(path: str, span: Span, text: str, *, safe: bool = True, description: str = "") -> Fix:
    """A one-edit fix replacing ``span`` of ``path`` with ``text``."""
    return Fix((Edit(path, span.start, span.end, text),), "safe" if safe else "unsafe", description)


def trim_fix(path: str, field, allowed) -> Optional[Fix]:
    """The safe fix of a padded value (:attr:`Field.padded`) that is allowed
    once trimmed (*allowed*: the allowed values, or a predicate): the new
    text is the value the person wrote, without the whitespace around it
    (determined text, no decision lost)."""
    if field is None or not field.padded:
        return None
    inner = field.value.strip()
    if not (allowed(inner) if callable(allowed) else inner in allowed):
        return None
    return replace(path, field.value_span, inner, description=f"Trim the spaces around `{inner}`")


def heading_fix(doc, heading, description: str = "") -> Optional[Fix]:
    """The safe fix writing *heading* of *doc* as the templates write it
    (:attr:`Heading.canonical`: no indentation, one space after the hashes,
    no closing sequence): a heading's spelling, no decision lost.  None when
    it is written so already."""
    line = doc.text[heading.span.start:heading.span.end]
    end = heading.span.start + len(line.rstrip("\r"))
    if doc.text[heading.span.start:end] == heading.canonical:
        return None
    return Fix((Edit(doc.path, heading.span.start, end, heading.canonical),), "safe",
               description or f"Write the heading `{heading.canonical}`")


def field_removal(text: str, span: Span) -> tuple[int, int]:
    """The span that removes the inline field at *span* from *text*: the
    field and the one space separating it from its neighbour."""
    start, end = span.start, span.end
    if start > 0 and text[start - 1] == " ":
        start -= 1
    elif end < len(text) and text[end] == " ":
        end += 1
    return start, end


# What ``hookimpl`` (pluggy's ``HookimplMarker("standards_lint")``) sets on a
# hook function, written out so that a rule module does not import pluggy:
# the built-in rule modules are loaded without it, and pluggy fills in any
# option a later version adds.  tests/test_engine.py checks the two agree.
HOOKIMPL_OPTS = {"wrapper": False, "hookwrapper": False, "optionalhook": False, "tryfirst": False,
                 "trylast": False, "specname": None}


def module_rules(namespace: dict):
    """Make the ``standards_lint_rules`` hook implementation of a rule module.

    Use at the end of a module: ``standards_lint_rules = module_rules(globals())``.
    It returns every :class:`Rule` defined at module level, in definition order.
    """
    rules = [v for v in namespace.values() if isinstance(v, Rule)]

    def standards_lint_rules():
        return list(rules)

    standards_lint_rules.standards_lint_impl = dict(HOOKIMPL_OPTS)
    return standards_lint_rules
