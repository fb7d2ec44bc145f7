"""Runtime Tools and Hooks / Branches and merges: the installed runtime files
are present and readable, and no merge conflict is left in ``.standards/``."""

from __future__ import annotations

from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.model.releases import (
    NEWEST, OLDEST, VERSION_PATH, parse_version, release_selection, version_file_version,
)

RUNTIME_FILES = (
    ".standards/PROTOCOL.md",
    ".standards/VERSION.json",
    ".standards/INSTALLATION.json",
    ".standards/MODE.md",
    ".standards/STATE.md",
)


@rule(
    code="SL101",
    during_conflict=True,
    name="runtime-file-missing",
    section="Runtime Tools and Hooks",
    owner="USER",
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
    help="Reinstall the framework runtime (or restore the file from version control), then run again.",
    no_fix_reason="Reinstall or restore the file from version control.",
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
    code="SL102",
    during_conflict=True,
    name="release-not-known",
    section="Runtime Tools and Hooks",
    owner="USER",
    severity="warning",
    beyond_checker=True,
    summary="The framework release the project runs is newer or older than every release standards-lint knows.",
    explanation=f"""
**What it does.** Says once which release a project is checked by when the
version it runs (`.standards/VERSION.json`, or `target-version` in the
configuration, or `--target-version`) lies outside the releases standards-lint
knows ({OLDEST.name} to {NEWEST.name}.x): a newer one is checked by the newest
release's rules, an older one by the oldest's.

**Why.** A project keeps the checker of the release it installed
(`.standards/VERSION.json`), and releases changed what the workflow files
must hold; checked by another release's rules, a project may get findings
its own checker never reports, or miss ones it does. The user decides whether
to upgrade standards-lint or the framework.

**Fix safety.** No fix: which release to run is the user's choice.
""",
    bad_example='{"framework": "S.T.A.N.D.A.R.D.S.", "version": "0.13.0"}',
    good_example='{"framework": "S.T.A.N.D.A.R.D.S.", "version": "0.12.1"}',
    help="Upgrade standards-lint to a version that knows this release, or set `target-version` to the release "
         "whose rules you want.",
    no_fix_reason="Which framework release a project runs is the user's choice.",
)
def release_not_known(project):
    sel = release_selection(project)
    if sel.beyond is None:
        return
    where = VERSION_PATH if sel.source == "VERSION.json" else ".standards"
    how = "newer than" if sel.beyond == "newer" else "older than"
    yield report(where, f"The project runs framework {sel.requested} ({sel.source}), {how} every release "
                        f"standards-lint knows; it is checked by the rules of {sel.release.name}.")


@rule(
    code="SL103",
    name="version-unreadable",
    section="Runtime Tools and Hooks",
    owner="USER",
    severity="warning",
    beyond_checker=True,
    summary="`.standards/VERSION.json` names no framework version standards-lint can read.",
    explanation=f"""
**What it does.** Reports a `.standards/VERSION.json` that is not a JSON
object with a `version` string such as `"0.12.1"` (a missing file is SL101).
The project is then checked by the newest release standards-lint knows
({NEWEST.name}), unless `target-version` or `--target-version` names one.

**Why.** PROTOCOL.md, Runtime Tools and Hooks: the installation records its
framework version in `.standards/VERSION.json`; the release decides what the
workflow files must hold.

**Fix safety.** No fix: restore the file from version control or reinstall.
""",
    bad_example='{"framework": "S.T.A.N.D.A.R.D.S."}',
    good_example='{"framework": "S.T.A.N.D.A.R.D.S.", "version": "0.12.1"}',
    help="Restore `.standards/VERSION.json` from version control (or reinstall the framework), or set "
         "`target-version` in the configuration.",
    no_fix_reason="Which version was installed is a fact only the installation or the user knows.",
)
def version_unreadable(project):
    if project.kind(VERSION_PATH) != "file" or release_selection(project).source != "default":
        return
    text = project.text(VERSION_PATH)
    if text is not None and parse_version(version_file_version(text)) is None:
        yield report(VERSION_PATH, f"{VERSION_PATH} names no framework version (a JSON object with a `version` string such as "
                                   f"\"0.12.1\"); the project is checked by the rules of {NEWEST.name}.")


# Files in which a conflict marker stops every workflow role: the reference
# checker looks only at these (comments included).
from standards_lint.engine.project import CONFLICT_FILES, MARKER_RUNS  # noqa: E402


def _first_conflict(project, rel: str, advice: str):
    """The finding at the first merge-conflict marker of *rel*, if any."""
    for marker in project.conflicts(rel):
        yield report(
            marker,
            f"has an unresolved merge conflict (`{marker.text}` on line {marker.span.line}). {advice}",
        )
        return


@rule(
    code="SL110",
    during_conflict=True,
    name="merge-conflict",
    section="Branches and merges",
    owner="USER",
    summary="STATE.md, MODE.md or CONTEXT.md holds unresolved merge-conflict markers.",
    explanation="""
**What it does.** Finds git conflict markers (`<<<<<<<`, `=======`,
`>>>>>>>`, `|||||||` at the start of a line, also inside HTML comments) in
`.standards/STATE.md`, `.standards/MODE.md` and `.standards/CONTEXT.md`, the
files every workflow role reads before any work. (Markers in cycle records and
other files under `.standards/` are SL111.)

**Why.** PROTOCOL.md, Branches and merges: "While `.standards/` has unmerged
files or conflict markers, a workflow role stops, tells the user which cycles
are involved, and waits; it never resolves the conflict by choosing a side."
For STATE.md the user resolves it "by keeping exactly one cycle".

**Fix safety.** No fix: choosing a side is the user's decision.
""",
    bad_example="<<<<<<< HEAD\n`WorkflowState`: `TESTING`\n=======\n`WorkflowState`: `DEVELOPING`\n>>>>>>> feature",
    good_example="`WorkflowState`: `TESTING`",
    help="Stop workflow work and ask the user to resolve the conflict in git, keeping exactly one side; then run again.",
    no_fix_reason="The protocol says a role stops and never resolves a conflict by choosing a side; the user decides.",
)
def merge_conflict(project):
    for rel in CONFLICT_FILES:
        suffix = " by keeping exactly one cycle" if rel == ".standards/STATE.md" else ""
        yield from _first_conflict(project, rel, f"Stop and ask the user to resolve it{suffix}.")


@rule(
    code="SL111",
    during_conflict=True,
    name="record-merge-conflict",
    section="Branches and merges",
    owner="USER",
    summary="A cycle record or other Markdown file under `.standards/` holds merge-conflict markers.",
    beyond_checker=True,
    explanation="""
**What it does.** Finds git conflict markers (`<<<<<<<`, `=======`,
`>>>>>>>`, `|||||||` at the start of a line) in Markdown files under
`.standards/` other than STATE.md, MODE.md and CONTEXT.md (those are SL110):
cycle records under `.standards/docs/`, user styles, and the like.
Records of older cycles (their provenance block names a cycle other than
`Active Work.Id`) are read only with `--all-cycles` (or `all-cycles = true`),
so that a project with years of records is checked fast.

**Why.** PROTOCOL.md, Branches and merges: "While `.standards/` has unmerged
files or conflict markers, a workflow role stops, tells the user which cycles
are involved, and waits; it never resolves the conflict by choosing a side."
The framework's checker looks only at STATE.md, MODE.md and CONTEXT.md; a
conflict left in a record is just as much a stop.

**Fix safety.** No fix: choosing a side is the user's decision.
""",
    bad_example="<<<<<<< HEAD\n- `AC-001`: Search by name.\n=======\n- `AC-001`: Search by e-mail.\n>>>>>>> feature",
    good_example="- `AC-001`: Search by name.",
    help="Stop and ask the user to resolve the conflict in git; never resolve it by choosing a side.",
    no_fix_reason="The protocol says a role stops and never resolves a conflict by choosing a side; the user decides.",
)
def record_merge_conflict(project):
    for rel in project.markdown_files:
        if not rel.startswith(".standards/") or rel in CONFLICT_FILES or project.is_older_record(rel):
            continue
        text = project.transient_text(rel)
        # Only a file that could hold a marker is parsed for one.
        if text is None or not any(h in text for h in MARKER_RUNS):
            continue
        yield from _first_conflict(
            project, rel, "Stop and ask the user to resolve it; never resolve it by choosing a side."
        )


standards_lint_rules = module_rules(globals())
