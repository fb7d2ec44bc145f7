"""The rule pages in docs/rules are generated from the rule declarations."""

from pathlib import Path

from standards_lint.output.catalogue import builtin_rules, generate_docs
from standards_lint.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"


def test_rule_docs_are_up_to_date():
    pages = generate_docs("", builtin_rules())
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")}
    stale = sorted(name for name in pages if on_disk.get(name) != pages[name])
    extra = sorted(set(on_disk) - set(pages))
    assert not stale and not extra, (
        f"docs/rules is out of date (stale: {stale[:5]}, extra: {extra[:5]}); "
        "run `python -m standards_lint.output.catalogue docs/rules`"
    )


def test_every_rule_page_has_examples_and_fix_safety():
    for r in builtin_rules():
        page = (DOCS / f"{r.code}.md").read_text(encoding="utf-8")
        assert "## Example that fails" in page and "## Example that passes" in page, r.code
        assert "## Fix safety" in page and r.section in page, r.code


def test_rule_command_shows_the_page(capsys):
    assert main(["rule", "SL501"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# SL501: recovery-active-mismatch") and "## Fix safety" in out


def test_rule_command_unknown_code_suggests(capsys):
    assert main(["rule", "SL5011"]) == 2
    assert "did you mean" in capsys.readouterr().err


def test_rules_command_lists_every_rule(capsys):
    import json

    assert main(["rules", "--format", "json"]) == 0
    listed = {r["code"] for r in json.loads(capsys.readouterr().out)}
    assert {r.code for r in builtin_rules()} <= listed


def test_every_rule_without_a_fix_says_why_and_every_rule_has_a_next_step():
    rules = builtin_rules()
    assert rules
    no_reason = [r.code for r in rules if r.fix == "none" and not r.no_fix_reason.strip()]
    no_help = [r.code for r in rules if not r.help.strip()]
    assert not no_reason, f"rules without a fix must say why (no_fix_reason=): {no_reason}"
    assert not no_help, f"rules must declare the next step (help=): {no_help}"
    for r in rules:
        page = (DOCS / f"{r.code}.md").read_text(encoding="utf-8")
        assert f"- **Fix:** {r.fix}" in page, r.code
        assert r.help in page, r.code
        if r.fix == "none":
            assert f"**Why there is no fix:** {r.no_fix_reason}" in page, r.code



# -- the pages ship with the package -------------------------------------------------------
ROOT = Path(__file__).resolve().parents[1]


def test_the_package_finds_its_rule_pages():
    """An editable install reads docs/rules of the checkout; an installed
    package its copy, standards_lint/rule_docs."""
    from standards_lint.engine import links

    assert Path(links.docs_dir()) in (DOCS, Path(links.__file__).parent / "rule_docs")
    assert set(links.pages()) == {name[:-3] for name in generate_docs("", builtin_rules())} - {"README"}


# That an installed package holds every current page, and links to it, is
# checked on a real install: tests/test_action.py (the action's install step
# installs this checkout as a wheel).


# -- no placeholder host ---------------------------------------------------------------------
# A link the linter prints or an editor opens must go somewhere real: the
# installed page, or the project's own `docs-url`.
PLACEHOLDER = "standards-lint/standards-lint"  # the made-up repository links once pointed at
REAL_HOSTS = {"json.schemastore.org", "no-color.org", "github.com/erezsh/lark", "mozilla.org"}


def _shipped_and_documented():
    for folder in ("linter", "rules", "grammar", "docs"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".md", ".lark", ".lua", ".toml", ".yml", ".yaml"):
                yield path
    for name in ("README.md", "pyproject.toml", "action.yml", ".pre-commit-hooks.yaml"):
        if (ROOT / name).is_file():
            yield ROOT / name
    yield from sorted((ROOT / ".github").rglob("*.*")) if (ROOT / ".github").is_dir() else ()
    yield from sorted((ROOT / "tests" / "__snapshots__").rglob("*.ambr"))


def test_no_placeholder_repository_anywhere():
    hits = [str(p.relative_to(ROOT)) for p in _shipped_and_documented()
            if PLACEHOLDER in p.read_text(encoding="utf-8", errors="replace")]
    assert hits == [], f"the placeholder repository {PLACEHOLDER!r} is named in {hits}"


def test_the_package_names_only_real_hosts():
    import re

    found = set()
    for folder in ("linter", "rules", "grammar"):
        for path in (ROOT / folder).rglob("*.py"):
            for m in re.finditer(r"https?://([A-Za-z0-9][A-Za-z0-9.-]*(?:/[A-Za-z0-9._-]+/[A-Za-z0-9._-]+)?)",
                                 path.read_text(encoding="utf-8")):
                host = m.group(1)
                if not any(host == real or host.startswith(real) for real in REAL_HOSTS):
                    found.add((str(path.relative_to(ROOT)), host))
    assert found == set(), f"URLs to hosts that are not known to exist: {sorted(found)}"
