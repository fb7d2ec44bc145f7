"""The value a misspelt enumerated field meant, as a fix (shared by the STATE.md,
MODE.md and record header rules)."""

from __future__ import annotations

from typing import Optional

from standards_lint.syntax.ast import Field
from standards_lint.engine.findings import Fix
from standards_lint.engine.rule import replace, trim_fix


def meant_value(path: str, f: Field, allowed) -> Optional[Fix]:
    """A fix for an enumerated value whose meaning is unmistakable: an
    allowed value with spaces inside its backticks (`` `false ` ``: safe,
    trimmed), the template's angle brackets left around a valid value
    (`<false>`: safe), or one allowed value differing only in case or spaces
    for underscores (`reviewing implementation`: unsafe, the user confirms)."""
    trimmed = trim_fix(path, f, allowed)
    if trimmed is not None:
        return trimmed
    raw = f.value
    inner = raw.strip()
    if inner.startswith("<") and inner.endswith(">") and inner[1:-1].strip() in allowed:
        return replace(path, f.value_span, inner[1:-1].strip(), description="Drop the template's angle brackets")
    norm = inner.strip("<>").strip().replace(" ", "_").replace("-", "_").upper()
    hits = [a for a in allowed if a.upper() == norm]
    if not hits and len(norm) >= 4:
        # One typo away from exactly one allowed value (`DOCUMENTATIONS`).
        import difflib

        hits = difflib.get_close_matches(norm, [a.upper() for a in allowed], n=2, cutoff=0.9)
        hits = [a for a in allowed if a.upper() in hits]
    if len(hits) == 1 and hits[0] != raw:
        return replace(path, f.value_span, hits[0], safe=False, description=f"Spell the value `{hits[0]}`")
    return None
