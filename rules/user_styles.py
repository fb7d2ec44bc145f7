"""User Styles: a `User Style` saved in a cycle record must select exactly one
available style file of its role."""

from __future__ import annotations

from standards_lint.syntax.protocol import TERMINAL_STATES
from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.model.user_styles import ROLE_FOLDER, STYLES_DIR, matches, role_styles

# The record whose role owns each workflow state: its saved selection is the
# one reloaded when the role resumes there.
OWNED_RECORD = {
    "DEVELOPING": ("DEVELOPMENT", None),
    "TESTING": ("VERIFICATION", None),
    "REVIEWING_IMPLEMENTATION": ("REVIEW", "IMPLEMENTATION"),
    "REVIEWING_FINAL": ("REVIEW", "FINAL_DELIVERABLE"),
    "DOCUMENTING": ("DOCUMENTATION", None),
    "SYNCHRONIZING": ("SYNCHRONIZATION", None),
}


def _concrete(selector: str) -> bool:
    """A usable record-field selector (the rest is SL902's template-choice
    finding): nonblank, no `|`, not entirely enclosed in `<...>`."""
    s = selector.strip()
    return bool(s) and "|" not in s and not (s.startswith("<") and s.endswith(">"))


@rule(
    code="SL990",
    name="user-style-unresolved",
    section="User Styles",
    owner="USER",
    summary="A saved `User Style` that selects no single style file stops its role on resume (a warning for the user).",
    beyond_checker=True,
    severity="warning",
    explanation="""
**What it does.** For the record of the role that owns the current workflow
state (the development plan in `DEVELOPING`, the verification report in
`TESTING`, the matching review report in a review state, the documentation
record in `DOCUMENTING`, the synchronization record in `SYNCHRONIZING`) —
the selection that role reloads when it resumes — resolves a concrete saved
`User Style` other than `NONE`
against `.standards/user-styles/<role>/`: the selector is the filename stem
(`tony` selects `tony.md`) or the full filename, only direct child Markdown
files count, and paths or separators are rejected. It reports a selector that
names no file, names more than one, or is a path. A checkout without any
`.standards/user-styles/` folder says nothing about a missing file: user
styles are personal files ("Users add and maintain these files; STANDARDS
ships none"), and a repository may well not carry them, so a CI run on a
clean checkout reports only a path selector there.

**Why.** PROTOCOL.md, User Styles: "The identifier is the filename stem [...].
Only a direct child Markdown file of that role's folder can be selected; reject
paths, separators, traversal" and "If a selection does not resolve to exactly
one available file, stop and ask the user to choose an available style or clear
the selection; never substitute another." A persisted selection whose file is
missing stops the role on resume.

**Severity.** A warning, owned by the user: the protocol makes an unresolved
selection a stop-and-ask for the role when it resumes ("If a persisted
selection's file is missing on resume, stop and ask the user to restore it"),
not a broken record, and the style files are the user's own
("Users add and maintain these files"). The framework's checker does not
report it, so a project whose hook passes keeps a passing CI.

**Fix safety.** No fix: which style the user meant, or whether to clear it, is
the user's choice.
""",
    bad_example="`User Style`: `tony.md`  (with both `tony.md` and `tony.md.md` in `.standards/user-styles/developer/`)",
    good_example="`User Style`: `tony.md.md`  (the full name is unique)",
    help="Set `User Style` to exactly one style file of the role, or clear it.",
    no_fix_reason="Which style the user meant, or whether to clear it, is the user's choice.",
)
def user_style_unresolved(project):
    state = project.state
    if state is None or project.workflow_conflicted or state.workflow_state in TERMINAL_STATES:
        return
    cycle = state.aw("Id")
    owned = OWNED_RECORD.get(state.workflow_state or "")
    if not cycle or cycle in ("UNSET", "NONE") or owned is None:
        return
    listing: dict[str, list[str]] = {}
    # Without any styles folder the checkout carries no user styles at all.
    styles_checked_out = project.kind(STYLES_DIR) == "dir"
    for record in project.records_of(cycle, owned[0]):
        if record.review_kind != owned[1] or record.path != record.fixed_path:
            continue
        role = ROLE_FOLDER.get(record.artifact)
        doc = record.doc
        if role is None or doc is None or doc.header is None:
            continue
        fields = doc.header.all_fields("User Style")
        if len(fields) != 1:
            continue
        field = fields[0]
        selector = field.value
        if selector.strip() == "NONE" or not _concrete(selector):
            continue
        where = (field.path, field.value_span)
        folder = f"{STYLES_DIR}/{role}"
        if "/" in selector or "\\" in selector or selector in (".", ".."):
            yield report(where, f"`User Style` `{selector}` is a path; the role will stop and ask the user to select a style "
                                f"by its filename in {folder}/ only.")
            continue
        if role not in listing:
            listing[role] = role_styles(project, role)
        found = matches(selector, listing[role])
        if not found and styles_checked_out:
            yield report(where, f"`User Style` `{selector}` selects no file in {folder}/; the role will stop and ask the user "
                                "to restore the style, choose an available one, or clear it to `NONE`.")
        elif len(found) > 1:
            names = ", ".join(f"`{n}`" for n in sorted(found))
            yield report(where, f"`User Style` `{selector}` is ambiguous in {folder}/ ({names}); the role will stop and ask the "
                                "user for an unambiguous full filename.")


standards_lint_rules = module_rules(globals())
