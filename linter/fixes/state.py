"""STATE.md fixes several rules share."""

from __future__ import annotations

from typing import Optional

from standards_lint.findings import Fix
from standards_lint.rule import replace

STATE_PATH = ".standards/STATE.md"


def section_respell_fix(st, title: str) -> Optional[Fix]:
    """SL201's fix for a missing ``## title`` section whose heading is spelt
    in another letter case or spacing (``## handoff``): respell the one such
    heading; None when there is none or several."""
    near = [s for s in st.doc.sections if s.title.strip().lower() == title.lower()]
    if len(near) != 1:
        return None
    return replace(STATE_PATH, near[0].heading.span, f"## {title}",
                   description=f"Spell the heading `## {title}`")
