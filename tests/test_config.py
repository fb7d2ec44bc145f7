"""Configuration, selection and inline suppressions."""

from __future__ import annotations

import json

import pytest

from standards_lint.cli import main

from .rules.conftest import CLEAN_STATE, RUNTIME, write_tree

NO_MODE = {k: v for k, v in RUNTIME.items() if not k.endswith("MODE.md")}
BROKEN = CLEAN_STATE.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`")


def run_json(capsys, args):
    code = main([*args, "--format", "json", "--no-git"])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if out.out.strip() else None), out.err


def codes_of(data):
    return sorted({f["code"] for f in data["findings"]})


def tree(tmp_path, extra=None, state=BROKEN):
    files = dict(NO_MODE, **{".standards/STATE.md": state})
    files.update(extra or {})
    write_tree(tmp_path, files)
    return str(tmp_path)


@pytest.mark.parametrize(("config", "args", "want"), [
    pytest.param('select = ["SL501"]\n', [], ["SL501"], id="select-reports-only-that-code"),
    pytest.param('select = ["SL1", "SL5"]\nignore = ["SL10"]\n', [], ["SL501"],
                 id="prefix-selection-and-more-specific-ignore"),
    pytest.param('select = ["SL501"]\n', ["--select", "SL101"], ["SL101"], id="command-line-wins-over-the-file"),
])
def test_selection(tmp_path, capsys, config, args, want):
    root = tree(tmp_path, {"standards-lint.toml": config})
    _, data, _ = run_json(capsys, [root, *args])
    assert codes_of(data) == want


@pytest.mark.parametrize(("name", "config"), [
    pytest.param("pyproject.toml", '[tool.standards-lint]\nignore = ["SL501"]\n', id="ignore-never-reports-that-code"),
    pytest.param("standards-lint.toml", '[per-file-ignores]\n".standards/STATE.md" = ["SL5"]\n', id="per-file-ignores"),
])
def test_ignored(tmp_path, capsys, name, config):
    root = tree(tmp_path, {name: config})
    _, data, _ = run_json(capsys, [root])
    assert "SL501" not in codes_of(data) and "SL101" in codes_of(data)


def test_isolated_ignores_the_file(tmp_path, capsys):
    root = tree(tmp_path, {"standards-lint.toml": 'select = ["SL501"]\n'})
    _, data, _ = run_json(capsys, [root, "--isolated"])
    assert {"SL101", "SL501"} <= set(codes_of(data))


@pytest.mark.parametrize(("config", "says"), [
    pytest.param('selct = ["SL501"]\n', ("unknown key `selct`", "did you mean `select`"),
                 id="misspelt-key-with-suggestion"),
    pytest.param('ignore = ["SL5011"]\n', ("`SL5011`", "did you mean"), id="unknown-code-with-suggestion"),
    pytest.param('select = "SL501"\n', ("must be a list of strings",), id="wrong-type"),
])
def test_bad_config_exits_2(tmp_path, capsys, config, says):
    root = tree(tmp_path, {"standards-lint.toml": config})
    code, _, err = run_json(capsys, [root])
    assert code == 2
    assert all(part in err for part in says), err


def test_severity_override_changes_exit_status(tmp_path, capsys):
    root = tree(tmp_path, {"standards-lint.toml": 'select = ["SL501"]\nseverity = { SL501 = "warning" }\n'})
    code, data, _ = run_json(capsys, [root])
    assert code == 0 and [f["severity"] for f in data["findings"]] == ["warning"]


def test_format_from_config(tmp_path, capsys):
    root = tree(tmp_path, {"standards-lint.toml": 'format = "github"\n'})
    main([root, "--no-git"])
    assert capsys.readouterr().out.startswith("::error ")


def test_disable_next_line_suppresses(tmp_path, capsys):
    state = BROKEN.replace("## Recovery\n\n", "## Recovery\n\n<!-- standards-lint-disable-next-line SL501 -->\n")
    root = tree(tmp_path, state=state)
    _, data, _ = run_json(capsys, [root])
    assert "SL501" not in codes_of(data) and "SL005" not in codes_of(data)


def test_disable_enable_block_suppresses_by_prefix(tmp_path, capsys):
    state = BROKEN.replace("## Recovery\n\n", "<!-- standards-lint-disable SL5 -->\n## Recovery\n\n") + "\n<!-- standards-lint-enable SL5 -->\n"
    root = tree(tmp_path, state=state)
    _, data, _ = run_json(capsys, [root])
    assert "SL501" not in codes_of(data)


def test_unused_suppression_is_a_warning(tmp_path, capsys):
    state = CLEAN_STATE.replace("## Recovery\n\n", "## Recovery\n\n<!-- standards-lint-disable-next-line SL501 -->\n")
    root = tree(tmp_path, state=state)
    _, data, _ = run_json(capsys, [root])
    unused = [f for f in data["findings"] if f["code"] == "SL005"]
    assert len(unused) == 1 and unused[0]["severity"] == "warning" and "SL501" in unused[0]["message"]
    assert unused[0]["line"] == CLEAN_STATE.split("\n").index("## Recovery") + 3


# -- reading limits: max-file-size, all-cycles -------------------------------------

NOTE = ".standards/docs/notes/n.md"
LONG_NOTE = "# Notes\n\n" + "word " * 400 + "\n"  # about 2 kB


def test_max_file_size_from_config_reports_sl006(tmp_path, capsys):
    root = tree(tmp_path, {NOTE: LONG_NOTE, "standards-lint.toml": 'max-file-size = "1 KiB"\n'})
    _, data, _ = run_json(capsys, [root])
    hits = [f for f in data["findings"] if f["code"] == "SL006"]
    assert [(f["path"], f["line"], f["severity"]) for f in hits] == [(NOTE, 1, "warning")]
    assert "is 2.0 KiB, larger than max-file-size (1.0 KiB)" in hits[0]["message"]
    assert "SL501" in codes_of(data)  # everything else is still checked


def test_max_file_size_accepts_bytes_and_units(tmp_path, capsys):
    from standards_lint.engine.config import parse_table

    assert parse_table({"max-file-size": 2048}, "t").max_file_size == 2048
    assert parse_table({"max-file-size": "16 MiB"}, "t").max_file_size == 16 * 1024 * 1024
    assert parse_table({"max-file-size": "1.5MB"}, "t").max_file_size == 1_500_000


def test_bad_max_file_size_exits_2(tmp_path, capsys):
    for bad in ('"lots"', "0", "-5", "true", '"12 parsecs"'):
        root = tree(tmp_path, {"standards-lint.toml": f"max-file-size = {bad}\n"})
        code, data, err = run_json(capsys, [root])
        assert code == 2 and "max-file-size" in err, bad


def test_all_cycles_and_cache_must_be_booleans(tmp_path, capsys):
    for key in ("all-cycles", "cache"):
        root = tree(tmp_path, {"standards-lint.toml": f'{key} = "yes"\n'})
        code, _, err = run_json(capsys, [root])
        assert code == 2 and f"`{key}` must be true or false" in err


def test_all_cycles_from_config_equals_the_flag(tmp_path, capsys):
    other = "older-work-20250101T000000Z-0000beef"
    record = f"<!-- STANDARDS\nArtifact: SCOPE\nCycle: {other}\n-->\n\n# Scope\n\n<<<<<<< HEAD\nA\n=======\nB\n>>>>>>> x\n"
    root = tree(tmp_path, {f".standards/docs/scope/{other}.md": record})
    _, data, _ = run_json(capsys, [root])
    assert "SL111" not in codes_of(data)
    _, data, _ = run_json(capsys, [root, "--all-cycles"])
    assert "SL111" in codes_of(data)
    write_tree(tmp_path, {"standards-lint.toml": "all-cycles = true\n"})
    _, data, _ = run_json(capsys, [root])
    assert "SL111" in codes_of(data)


def test_docs_url_is_validated_like_the_other_keys(tmp_path, capsys):
    from standards_lint.engine.config import ConfigError, parse_table

    assert parse_table({"docs-url": "https://docs.test/sl/rules/"}, "t").docs_url == "https://docs.test/sl/rules/"
    assert parse_table({"docs-url": "https://docs.test/{code}.html"}, "t").docs_url == "https://docs.test/{code}.html"
    assert parse_table({"docs-url": "file:///srv/sl/rules"}, "t").docs_url == "file:///srv/sl/rules"
    assert parse_table({}, "t").docs_url is None
    for bad, why in ((3, "must be a URL"), ("", "must be a URL"), ("docs/rules", "must start with https://"),
                     ("ftp://host/r/", "must start with"), ("https:///rules/", "has no host"),
                     ("https://h/{name}.md", "no braces other than `{code}`")):
        with pytest.raises(ConfigError, match="`docs-url`") as info:
            parse_table({"docs-url": bad}, "t")
        assert why in str(info.value), (bad, str(info.value))
    root = tree(tmp_path, {"standards-lint.toml": 'docs-url = "rules/"\n'})
    code, _, err = run_json(capsys, [root])
    assert code == 2 and "`docs-url` must start with https://" in err
