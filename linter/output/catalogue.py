"""The rule catalogue: ``standards-lint rules``, ``rule CODE``, ``plugins``,
and the generated rule pages in ``docs/rules/`` (``python -m
standards_lint.output.catalogue docs/rules``).  The pages install with the package
as ``standards_lint/rule_docs/`` (pyproject.toml maps the folder as package
data); :mod:`standards_lint.engine.links` links to them."""

from __future__ import annotations

import json
import os
import sys
from typing import Optional

from ..engine.rule import Rule

FIX_TEXT = {
    "none": "No automatic fix.",
    "safe": "Safe fix: `--fix` applies it; the protocol fully determines the replacement text.",
    "unsafe": "Unsafe fix: applied only with `--fix --unsafe-fixes`; check the result, it may need a person's decision.",
    "sometimes": "Sometimes fixable: a fix is offered where the protocol or the project's own files determine the text "
                 "(safe or unsafe as the explanation says), otherwise none.",
}


OWNER_TEXT = {
    "record": "the role that owns the record type of the file the finding is in "
              "(scope: SCOPER, design: ARCHITECT, plan: DEVELOPER, verification: TESTER, "
              "reviews: REVIEWER, documentation: DOCUMENTER, synchronization: SYNCHRONIZER; "
              "CONTEXT.md: AUDITOR; STATE.md: the role of the state that wrote it)",
    "state": "the role of the state that wrote STATE.md (the user when no role can fix it)",
    "USER": "USER (no role can fix it: stop and report it to the user)",
}


def owner_text(owner) -> str:
    """The rule page's "Owner" line for a declaration."""
    if callable(owner):
        doc = (getattr(owner, "__doc__", "") or "").strip().split("\n")[0]
        return f"computed per finding{': ' + doc if doc else ''}"
    return OWNER_TEXT.get(owner, owner or "not declared")


def _registry(project_path: Optional[str] = None):
    from ..engine.config import ConfigError, load_config
    from ..engine.run import load_registry, registry_for
    from ..syntax.source import find_root

    root = find_root(project_path or ".")
    if root is None:
        return load_registry()
    try:
        cfg = load_config(root)
    except ConfigError:
        return load_registry()
    return registry_for(root, cfg.plugins)


def rule_page(r: Rule) -> str:
    lines = [
        f"# {r.code}: {r.name}",
        "",
        f"- **Protocol section:** {r.section}",
        f"- **Default severity:** {r.severity}",
        f"- **Fix:** {r.fix}",
        f"- **Owner:** {owner_text(r.owner)}",
        f"- **Plugin:** {r.plugin or 'builtin'}",
        f"- **Checker parity:** {'beyond the framework checker' if r.beyond_checker else 'the framework checker reports this too'}",
        f"- **Framework releases:** {since_text(r)}",
        "",
        r.summary,
        "",
        r.explanation or r.summary,
        "",
    ]
    if r.bad_example:
        lines += ["## Example that fails", "", "```markdown", r.bad_example.strip("\n"), "```", ""]
    if r.good_example:
        lines += ["## Example that passes", "", "```markdown", r.good_example.strip("\n"), "```", ""]
    lines += ["## Fix safety", "", FIX_TEXT.get(r.fix, r.fix), ""]
    if r.no_fix_reason:
        label = "Why there is no fix" if r.fix == "none" else "When there is no fix"
        lines += [f"**{label}:** {r.no_fix_reason}", ""]
    if r.reveals is not None:
        codes = ", ".join(f"[{c}]({c}.md)" for c in sorted(r.reveals.codes))
        lines += [f"**What the fix may reveal:** {r.reveals.why}. Findings of {codes} may appear after it: the "
                  "first report of a value no rule could read before, not the fix's doing.", ""]
    if r.help:
        lines += ["## Next step", "", r.help, ""]
    return "\n".join(lines)


def since_text(r: Rule) -> str:
    """The rule page's line on the releases the rule applies to."""
    from ..model.releases import OLDEST

    if r.since is None:
        return f"every release standards-lint knows ({OLDEST.name} and later)"
    return (f"{r.since} and later; a project of an older release (its `.standards/VERSION.json`, or "
            "`--target-version`) is not checked by it ([releases](../releases.md))")


def index_page(rules: list[Rule]) -> str:
    lines = [
        "# Rules",
        "",
        "Generated from the rule declarations by `python -m standards_lint.output.catalogue docs/rules`;",
        "do not edit by hand (a test fails when this folder is out of date).",
        "",
        "| code | name | protocol section | severity | fix | since |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rules:
        lines.append(f"| [{r.code}]({r.code}.md) | {r.name} | {r.section} | {r.severity} | {r.fix} | {r.since or ''} |")
    fixable = sum(1 for r in rules if r.fix != "none")
    lines += ["", f"{fixable} of {len(rules)} rules can fix some or all of their findings; every rule page says "
              "why a rule has no fix, and what the next step is."]
    return "\n".join(lines) + "\n"


def linter_code_page(code: str) -> str:
    from ..engine.run import LINTER_CODES

    name, severity, summary = LINTER_CODES[code]
    return "\n".join([
        f"# {code}: {name}",
        "",
        "- **Protocol section:** none (reported by standards-lint itself)",
        f"- **Default severity:** {severity}",
        "- **Fix:** none",
        "",
        summary,
        "",
        "The run goes on: every other file and rule is still checked. "
        "These findings are always reported, whatever the selection.",
        "",
    ])


def generate_docs(out_dir: str, rules: list[Rule]) -> dict[str, str]:
    """The pages of ``docs/rules/`` as {filename: text}; written when out_dir is given."""
    from ..engine.run import LINTER_CODES

    pages = {f"{r.code}.md": rule_page(r) for r in rules}
    pages.update({f"{code}.md": linter_code_page(code) for code in LINTER_CODES})
    pages["README.md"] = index_page(rules)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
        for name in os.listdir(out_dir):
            if name.endswith(".md") and name not in pages:
                os.unlink(os.path.join(out_dir, name))
        for name, text in pages.items():
            with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
    return pages


def builtin_rules() -> list[Rule]:
    """The rules of the built-in plugins (``standards_lint.rules.*``) and the
    linter's own codes' rules, whatever else is installed."""
    from ..engine.run import load_registry

    reg = load_registry()
    builtin = {p.name for p in reg.plugins if p.module.startswith("standards_lint.rules.")}
    return [r for r in reg.rules if r.plugin in builtin]


def rule_row(r: Rule, full: bool = False) -> dict:
    """A rule as ``rules --format json`` lists it, or, *full*, as ``rule
    CODE --format json`` prints it (the MCP server's ``rules`` and
    ``explain`` answer with the same rows)."""
    owner = r.owner if isinstance(r.owner, str) else "computed"
    if full:
        return {"code": r.code, "name": r.name, "section": r.section, "severity": r.severity,
                "fix": r.fix, "summary": r.summary, "explanation": r.explanation,
                "bad_example": r.bad_example, "good_example": r.good_example,
                "owner": owner, "help": r.help, "no_fix_reason": r.no_fix_reason, "since": r.since}
    return {"code": r.code, "name": r.name, "section": r.section, "severity": r.severity, "fix": r.fix,
            "summary": r.summary, "plugin": r.plugin, "beyond_checker": r.beyond_checker,
            "owner": owner, "help": r.help, "no_fix_reason": r.no_fix_reason, "since": r.since}


def find_rule(rules: list[Rule], code: str) -> "tuple[Optional[Rule], str]":
    """The rule of *code* (any letter case), or None and a hint naming the
    nearest code ("; did you mean SL501?", or "")."""
    code = code.upper()
    for r in rules:
        if r.code.upper() == code:
            return r, ""
    import difflib

    near = difflib.get_close_matches(code, [r.code for r in rules], n=1)
    return None, (f"; did you mean {near[0]}?" if near else "")


def run_subcommand(name: str, argv: list[str]) -> int:
    import argparse

    p = argparse.ArgumentParser(prog=f"standards-lint {name}")
    if name == "rule":
        p.add_argument("code")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--project", default=".", help="project whose configured plugins to include")
    if name == "rules":
        p.add_argument("--target-version", default=None, metavar="VERSION",
                       help="only the rules that apply to a project of this framework release")
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    reg = _registry(args.project)
    if name == "rules":
        rules = reg.rules
        if args.target_version is not None:
            from ..model.releases import release_named

            release = release_named(args.target_version)
            if release is None:
                print(f"standards-lint: --target-version must be a framework version such as \"0.10.0\", "
                      f"not {args.target_version!r}", file=sys.stderr)
                return 2
            rules = [r for r in rules if r.applies_to(release)]
        if args.format == "json":
            print(json.dumps([rule_row(r) for r in rules], indent=2))
        else:
            width = max((len(r.name) for r in rules), default=10)
            for r in rules:
                print(f"{r.code:<8} {r.name:<{width}}  {r.severity:<7} fix:{r.fix:<9} {r.section}")
        return 0
    if name == "rule":
        r, hint = find_rule(reg.rules, args.code)
        if r is None:
            print(f"standards-lint: unknown rule {args.code}{hint}", file=sys.stderr)
            return 2
        if args.format == "json":
            print(json.dumps(rule_row(r, full=True), indent=2))
        else:
            sys.stdout.write(rule_page(r))
        return 0
    # plugins
    rows = [{"name": p.name, "module": p.module, "version": p.version, "codes": p.codes, "error": p.error}
            for p in reg.plugins]
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    else:
        for row in rows:
            status = f"FAILED: {row['error']}" if row["error"] else ", ".join(row["codes"]) or "(no rules)"
            print(f"{row['name']:<20} {row['version'] or '-':<8} {row['module']:<40} {status}")
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = argv[0] if argv else "docs/rules"
    generate_docs(out, builtin_rules())
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
