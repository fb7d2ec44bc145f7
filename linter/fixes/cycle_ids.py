"""Cycle ID respelling: the fix for an ID miscopied from the cycle's own."""

from __future__ import annotations

from typing import Optional

from standards_lint.engine.findings import Fix
from standards_lint.syntax.protocol import CYCLE_ID_RE
from standards_lint.engine.rule import replace
from standards_lint.model.cycle_ids import STATE_PATH, id_field, recorded_id


def respelt_id(project) -> Optional[tuple[str, Fix]]:
    """(the ID, the fix) when `Active Work.Id` is not in the generated form
    and miscopies exactly one cycle ID the project has written down: the fix
    of SL260, which findings caused by the miscopied ID carry too (one
    helper, so every such finding offers the identical edit)."""
    cached = getattr(project, "_respelt_id", False)
    if cached is not False:
        return cached
    out = None
    f = id_field(project, project.state)
    if f is not None and f.value != "UNSET" and not CYCLE_ID_RE.match(f.value):
        want = recorded_id(project, f.value)
        if want is not None:
            out = (want, replace(STATE_PATH, f.value_span, want, safe=False,
                                 description=f"Set Active Work.Id to `{want}`, the cycle its records name"))
    try:
        project._respelt_id = out
    except AttributeError:
        pass
    return out
