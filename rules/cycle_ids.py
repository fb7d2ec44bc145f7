"""Cycle IDs (``protocol/user-decisions.md``): ``Active Work.Id`` has the form
``cycle.mjs new`` generates, and a finished cycle's ID is never reused.

The rules stay silent when ``Active Work.Id`` is missing, repeated or empty
(the state-structure rules report that) and about a STATE.md with
merge-conflict markers.
"""

from __future__ import annotations

import re

from standards_lint.syntax.protocol import CYCLE_ID_RE, TERMINAL_STATES
from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.fixes.cycle_ids import respelt_id
from standards_lint.model.cycle_ids import STATE_PATH, finished_at_head, id_field
from standards_lint.fixes.reveals import REVEALS

CYCLE_TOOL = "node .standards/bin/cycle.mjs new"
_STAMP = re.compile(r"-(\d{8}T\d{6}Z)-[0-9a-f]{8}$")


@rule(
    code="SL260",
    reveals=REVEALS["SL260"],
    name="cycle-id-form",
    section="Cycle IDs",
    owner="state",
    summary="Active Work.Id has the form `cycle.mjs new` generates.",
    explanation="""
**What it does.** Checks that `Active Work.Id`, unless `UNSET`, has the form
`<slug>-<YYYYMMDDTHHMMSSZ>-<8 lowercase hex digits>`, the slug being lowercase
letters and digits joined by single hyphens.

**Why.** protocol/user-decisions.md, Cycle IDs: "Every cycle has a unique ID.
Get it only from `node .standards/bin/cycle.mjs new --request "<request>"`"
and "Never write a cycle ID yourself or reuse one. `check` reports an
`Active Work.Id` that does not have the generated form". The tool also checks
that no record uses the ID; a hand-written ID skips that check.

**Fix safety.** Sometimes (unsafe): when the value is a miscopy of exactly
one generated ID the project has already written down -- a cycle named by
the records' provenance `Cycle`, or the cycle ID in an Active Work path
(`.standards/docs/scope/<ID>.md`, the path `artifact init` makes from the ID)
-- `Id` is set to it: the tool's ID is already written in the cycle's own
files. A miscopy differs only in letter case and in `_` for `-`; against the
ID in an Active Work path also in one character inserted, dropped or replaced
(a record alone may be an older, finished cycle's). Not offered when that cycle is a
`BaselineReconciliation` source or the one the last commit finished. Findings
the miscopied ID causes (an Active Work path naming this cycle's own record,
SL641/SL642) carry the same fix. Otherwise no fix: run the tool for a new ID
(and move the cycle's records with it).
""",
    bad_example="`Id`: `made-up-id-1234`",
    good_example="`Id`: `add-user-search-20260927T190146Z-7bef0f04`",
    help="Get a new ID from `node .standards/bin/cycle.mjs new` and use it everywhere the cycle is named (records move with it).",
    fix="sometimes",
    no_fix_reason="Unless the project's records or Active Work paths name exactly one generated ID the value miscopies, run the tool for a new ID (and move the cycle's records with it).",
)
def cycle_id_form(project):
    f = id_field(project, project.state)
    if f is None or f.value == "UNSET" or CYCLE_ID_RE.match(f.value):
        return
    respelt = respelt_id(project)
    fix = respelt[1] if respelt is not None else None
    yield report((STATE_PATH, f.value_span),
                 f"Active Work.Id `{f.value}` is not in the form `{CYCLE_TOOL}` generates "
                 "(<slug>-<YYYYMMDDTHHMMSSZ>-<8 hex>); get cycle IDs only from that tool.", fix)


@rule(
    code="SL261",
    name="cycle-id-reused",
    section="Cycle IDs",
    owner="state",
    summary="An active cycle does not reuse the ID of the cycle the last commit finished.",
    explanation="""
**What it does.** Inside a git repository, compares `.standards/STATE.md` with
the last commit: when the committed state is `SIGNED_OFF` or `CANCELLED` (with
`CycleMode` reset to `UNSET`, the cycle's ending finished: Cycle Modes, rule 1)
and the working tree has an active (non-terminal) cycle with the same
`Active Work.Id`, the finished cycle is being reopened under its old ID.

**Why.** protocol/user-decisions.md, Cycle IDs: "`check` reports ... a cycle
that is active under the ID of a cycle that the last commit ended in
`SIGNED_OFF` or `CANCELLED`: a new cycle always gets a new ID, and a finished
cycle is never reopened." and Start a cycle: "a finished cycle is never
reopened".

**Fix safety.** No fix: start the new cycle with an ID from the tool.
""",
    bad_example="HEAD: `WorkflowState`: `SIGNED_OFF`, `Id`: `a-20260101T000000Z-0a1b2c3d`; now `AUDITING` with the same Id",
    good_example="HEAD: `SIGNED_OFF` with `a-20260101T000000Z-0a1b2c3d`; now `AUDITING` with `b-20260102T000000Z-1b2c3d4e`",
    help="Start the new cycle with a fresh ID from `node .standards/bin/cycle.mjs new`.",
    no_fix_reason="Start the new cycle with an ID from the tool.",
)
def cycle_id_reused(project):
    st = project.state
    f = id_field(project, st)
    if f is None or f.value == "UNSET":
        return
    ws = st.workflow_state
    if ws is None or ws in TERMINAL_STATES:
        return
    finished = finished_at_head(project)
    if finished is None or finished[0] != f.value:
        return
    head_ws = finished[1]
    yield report((STATE_PATH, f.value_span),
                 f"Active Work.Id `{f.value}` belongs to the cycle the last commit ended in {head_ws}; a finished "
                 f"cycle is never reopened, so a new cycle needs a new ID from `{CYCLE_TOOL}`.")


@rule(
    code="SL262",
    name="cycle-id-timestamp",
    section="Cycle IDs",
    owner="state",
    summary="The UTC time inside a cycle ID is a real date and time.",
    explanation="""
**What it does.** For an `Active Work.Id` of the generated form, checks that
its `YYYYMMDDTHHMMSSZ` part is a real UTC date and time (no month 13, no
February 30, no hour 24).

**Why.** protocol/user-decisions.md, Cycle IDs: the tool "builds an ID from
the request, the UTC time, and eight random hex digits". An impossible time
cannot come from the tool, so the ID was written by hand: "Never write a
cycle ID yourself or reuse one."

**Fix safety.** No fix: get a new ID from the tool.
""",
    beyond_checker=True,
    bad_example="`Id`: `add-user-search-20261330T190146Z-7bef0f04`",
    good_example="`Id`: `add-user-search-20261130T190146Z-7bef0f04`",
    help="Get a new cycle ID from `node .standards/bin/cycle.mjs new`.",
    no_fix_reason="Get a new ID from the tool.",
)
def cycle_id_timestamp(project):
    f = id_field(project, project.state)
    if f is None or not CYCLE_ID_RE.match(f.value):
        return
    m = _STAMP.search(f.value)
    if m is None:
        return
    d = m.group(1)
    try:
        from datetime import datetime

        datetime(int(d[0:4]), int(d[4:6]), int(d[6:8]), int(d[9:11]), int(d[11:13]), int(d[13:15]))
    except ValueError:
        yield report((STATE_PATH, f.value_span),
                     f"Active Work.Id `{f.value}` holds `{m.group(1)}`, which is not a real UTC time; the ID "
                     f"did not come from `{CYCLE_TOOL}`.")


standards_lint_rules = module_rules(globals())
