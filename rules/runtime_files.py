"""Runtime Tools and Hooks / Branches and merges: the installed runtime files
are present and readable, and no merge conflict is left in ``.standards/``."""

from __future__ import annotations

from standards_lint.rule import module_rules, report, rule

RUNTIME_FILES = (
    ".standards/PROTOCOL.md",
    ".standards/VERSION.json",
    ".standards/INSTALLATION.json",
    ".standards/MODE.md",
    ".standards/STATE.md",
)


@rule(
    code="SL101",
    name="runtime-file-missing",
    section="Runtime Tools and Hooks",
    summary="A runtime file of the installation is missing, not a regular file, or unreadable.",
    explanation="""
**What it does.** Checks that `.standards/PROTOCOL.md`, `VERSION.json`,
`INSTALLATION.json`, `MODE.md` and `STATE.md` exist as readable files.

**Why.** PROTOCOL.md: "Before workflow work, read `.standards/PROTOCOL.md`,
`.standards/MODE.md`, and `.standards/STATE.md`." and "If a chapter is
missing, stop and report an incomplete runtime." Without these files no role
can resume the workflow.

**Fix safety.** No fix: reinstall or restore the file from version control.
""",
    bad_example="A project whose `.standards/` has no `MODE.md`.",
    good_example="`.standards/MODE.md` holds `` `ProjectMode`: `BROWNFIELD` ``.",
)
def runtime_file_missing(project):
    for rel in RUNTIME_FILES:
        kind = project.kind(rel)
        if kind is None:
            yield report(rel, f"{rel} is missing; the STANDARDS runtime is incomplete.")
        elif kind != "file":
            yield report(rel, f"{rel} is not a regular file; the STANDARDS runtime is incomplete.")
        elif project.text(rel) is None and rel not in project.read_problems:
            yield report(rel, f"{rel} cannot be read.")


@rule(
    code="SL110",
    name="merge-conflict",
    section="Branches and merges",
    summary="A file under `.standards/` holds unresolved merge-conflict markers or is unmerged in git.",
    explanation="""
**What it does.** Finds git conflict markers (`<<<<<<<`, `=======`,
`>>>>>>>`, `|||||||` at the start of a line) in Markdown files under
`.standards/`, and files git lists as unmerged.

**Why.** PROTOCOL.md, Branches and merges: "While `.standards/` has unmerged
files or conflict markers, a workflow role stops, tells the user which cycles
are involved, and waits; it never resolves the conflict by choosing a side."
For STATE.md the user resolves it "by keeping exactly one cycle".

**Fix safety.** No fix: choosing a side is the user's decision.
""",
    bad_example="<<<<<<< HEAD\n`WorkflowState`: `TESTING`\n=======\n`WorkflowState`: `DEVELOPING`\n>>>>>>> feature",
    good_example="`WorkflowState`: `TESTING`",
)
def merge_conflict(project):
    reported = set()
    for rel in project.markdown_files:
        if not rel.startswith(".standards/"):
            continue
        doc = project.doc(rel)
        if doc is None or not doc.conflicts:
            continue
        reported.add(rel)
        suffix = " by keeping exactly one cycle" if rel == ".standards/STATE.md" else ""
        yield report(
            doc.conflicts[0],
            f"has an unresolved merge conflict. Stop and ask the user to resolve it{suffix}.",
        )


standards_lint_rules = module_rules(globals())
