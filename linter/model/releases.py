"""The framework releases standards-lint knows, and which one a project runs.

A project keeps the checker of the release it installed
(``.standards/VERSION.json``), and the releases changed what the workflow
files must hold.  What each release has and requires is written here once,
as data (``../shared/upstream/versions/README.md`` and each release's
PROTOCOL.md); rules ask it (``release_of(project).has(...)``, the state
fields and values it allows) and never compare version strings.  A rule the
older releases lack declares the first release it applies to (``since``);
the engine skips it for a project of an older release.

How the release is chosen (:func:`release_of`): ``--target-version`` on the
command line, then ``target-version`` in the configuration, then the
``version`` of ``.standards/VERSION.json``; a version maps to the newest
release known that is not newer than it (0.9.1 is checked as 0.8.0, 0.12.1
as 0.12.0).  A version newer than the newest known is checked as the newest,
one older than the oldest as the oldest, and both are said (SL102); a
missing or unreadable VERSION.json is checked as the newest.
"""

from __future__ import annotations

import json
import re
from typing import Optional

from ..syntax.data import Record

VERSION_PATH = ".standards/VERSION.json"

# What a release may have that an older one lacks (``Release.has``).
COMPLETION_POLICY = "completion-policy"  # Active Work.CompletionPolicy, Completion Policies (0.10.0)
COMPLETION_CHANGE = "completion-change"  # Handoff.Kind COMPLETION_CHANGE (0.10.0)
IMPLEMENTATION_REVIEWED_CLOSURE = "implementation-reviewed-closure"  # ## Implementation-Reviewed Closure (0.10.0)
DOCUMENTATION_CYCLES = "documentation-cycles"  # CycleMode DOCUMENTATION (0.11.0)

_BASE_KINDS = ("INITIAL", "FORWARD", "CHECKPOINT", "FAILURE", "RESUME", "PROMOTE", "USER_REWORK", "NEW_CYCLE",
               "SIGNOFF", "CANCEL")
_BASE_MODES = ("UNSET", "STANDARD", "EXPEDITED")
_AW_BASE = ("Id", "Request", "Scope", "Architecture", "Development", "PromotionReason", "AuditTarget", "BlockedOn",
            "PendingVerificationCadence")


_VERSION_RE = re.compile(r"v?(\d{1,9})\.(\d{1,9})(?:\.(\d{1,9}))?(?:[-+][0-9A-Za-z.+-]*)?")


def parse_version(text) -> Optional[tuple]:
    """``"0.9.1"`` -> ``(0, 9, 1)``; a pre-release or build suffix is
    dropped (``0.12.0-rc.1`` is 0.12.0); None when *text* is no version."""
    if not isinstance(text, str):
        return None
    m = _VERSION_RE.fullmatch(text.strip())
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)


class Release(Record):
    """One framework release: what a project's files may and must hold."""

    __slots__ = ("name", "version", "cycle_modes", "handoff_kinds", "active_work_fields", "features", "changes",
                 "derived")

    def __init__(self, name: str, cycle_modes: tuple, handoff_kinds: tuple, active_work_fields: tuple,
                 features: frozenset, changes: str, derived: Optional[dict] = None):
        self.name = name
        self.version = parse_version(name)
        self.cycle_modes = cycle_modes  # CycleMode and PendingCycleMode values
        self.handoff_kinds = handoff_kinds  # Handoff.Kind values
        self.active_work_fields = active_work_fields  # the Active Work fields required, in template order
        self.features = features
        self.changes = changes  # what it changed for a project, in a sentence (the docs and `rules`)
        # Active Work fields the release lacks but whose meaning it fixes:
        # name -> function of the STATE.md model (syntax.state.StateModel).
        self.derived = derived or {}

    def has(self, feature: str) -> bool:
        return feature in self.features

    def at_least(self, name: str) -> bool:
        """Whether this release is *name* or newer (a rule's ``since``)."""
        return self.version >= parse_version(name)

    @property
    def mode_words(self) -> str:
        """The cycle modes a cycle may record, in the checker's words
        ("STANDARD or EXPEDITED", "STANDARD, EXPEDITED, or DOCUMENTATION")."""
        modes = [m for m in self.cycle_modes if m != "UNSET"]
        return " or ".join(modes) if len(modes) < 3 else ", ".join(modes[:-1]) + ", or " + modes[-1]

    def __repr__(self) -> str:
        return f"Release({self.name})"


def _whole_route_policy(st) -> str:
    """Before `CompletionPolicy` (0.10.0) a STANDARD cycle completes the
    whole standard workflow, documentation, final review and
    synchronization included: the policy later releases call
    `FULL_DELIVERABLE`; every other cycle has none."""
    return "FULL_DELIVERABLE" if st.cycle_mode == "STANDARD" else "NONE"


RELEASES = (
    Release("0.8.0", _BASE_MODES, _BASE_KINDS, _AW_BASE, frozenset(),
            "Active Work.PendingVerificationCadence, CHECKPOINT handoffs and the plan's verification increments; "
            "a STANDARD cycle always runs the whole route (no CompletionPolicy).",
            derived={"CompletionPolicy": _whole_route_policy}),
    Release("0.10.0", _BASE_MODES, _BASE_KINDS + ("COMPLETION_CHANGE",),
            ("Id", "Request", "CompletionPolicy") + _AW_BASE[2:],
            frozenset({COMPLETION_POLICY, COMPLETION_CHANGE, IMPLEMENTATION_REVIEWED_CLOSURE}),
            "Active Work.CompletionPolicy (required), COMPLETION_CHANGE handoffs and the implementation review's "
            "Implementation-Reviewed Closure."),
    Release("0.11.0", _BASE_MODES + ("DOCUMENTATION",), _BASE_KINDS + ("COMPLETION_CHANGE",),
            ("Id", "Request", "CompletionPolicy") + _AW_BASE[2:],
            frozenset({COMPLETION_POLICY, COMPLETION_CHANGE, IMPLEMENTATION_REVIEWED_CLOSURE, DOCUMENTATION_CYCLES}),
            "DOCUMENTATION cycles (BROWNFIELD only)."),
    Release("0.12.0", _BASE_MODES + ("DOCUMENTATION",), _BASE_KINDS + ("COMPLETION_CHANGE",),
            ("Id", "Request", "CompletionPolicy") + _AW_BASE[2:],
            frozenset({COMPLETION_POLICY, COMPLETION_CHANGE, IMPLEMENTATION_REVIEWED_CLOSURE, DOCUMENTATION_CYCLES}),
            "No change to what a project's files hold."),
)
OLDEST, NEWEST = RELEASES[0], RELEASES[-1]

def release_named(text: str) -> Optional[Release]:
    """The release a version *text* is checked as, or None when *text* is no
    version."""
    v = parse_version(text)
    if v is None:
        return None
    return next((r for r in reversed(RELEASES) if r.version <= v), OLDEST)


class Selection(Record):
    """The release a run checks by, and why: ``source`` is ``command line``,
    ``configuration``, ``VERSION.json`` or ``default`` (no readable
    version); ``requested`` is the version asked for (None by default);
    ``beyond`` is ``newer`` or ``older`` when it lies outside the releases
    known, else None."""

    __slots__ = ("release", "requested", "source", "beyond")

    def __init__(self, release: Release, requested: Optional[str], source: str, beyond: Optional[str] = None):
        self.release = release
        self.requested = requested
        self.source = source
        self.beyond = beyond

    def as_json(self) -> dict:
        return {"release": self.release.name, "requested": self.requested, "source": self.source,
                "beyond": self.beyond}


def select(requested: Optional[str], source: str) -> Selection:
    """The selection for a version *requested* by *source* (or the newest
    release, by default, when it is None or no version)."""
    v = parse_version(requested) if requested is not None else None
    if v is None:
        return Selection(NEWEST, None, "default")
    beyond = "newer" if v > NEWEST.version and v[:2] != NEWEST.version[:2] else (
        "older" if v < OLDEST.version else None)
    return Selection(release_named(requested), requested.strip(), source, beyond)


def version_file_version(text: Optional[str]) -> Optional[str]:
    """The ``version`` string of a VERSION.json text, or None when the text
    is absent, not a JSON object, or has no string ``version``."""
    if text is None:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    v = data.get("version") if isinstance(data, dict) else None
    return v if isinstance(v, str) else None


def release_selection(project) -> Selection:
    """How the release of *project* is chosen (computed once per run)."""
    sel = getattr(project, "_release_selection", None)
    if sel is None:
        override = getattr(project, "target_version", None)
        if override is not None:
            sel = select(override[0], override[1])
        else:
            text = project.text(VERSION_PATH) if project.kind(VERSION_PATH) == "file" else None
            sel = select(version_file_version(text), "VERSION.json")
        project._release_selection = sel
    return sel


def release_of(project) -> Release:
    """The release *project* is checked by."""
    return release_selection(project).release
