"""Fixes of the acceptance rules (SL701, SL702, SL710, SL720, SL730): each on a
small tree of its own, with the edit asserted and a re-lint (after
``fix_project``) no longer reporting the finding."""

from __future__ import annotations

import pytest

from standards_lint.fixes.fixer import fix_project

from .conftest import RUNTIME, write_tree
from .test_acceptance import DEV, DEV_TEXT, SCOPE, SCOPE_TEXT, SPEC, SPEC_TEXT, VERIFY, VERIFY_OK, state
from .test_fixes import findings as found, read

STATE_PATH = ".standards/STATE.md"
EXPEDITED = state(ws="DEVELOPING", mode="EXPEDITED", scope="NONE", arch="NONE", policy="NONE", frm="AUDITING")


def build(tmp_path, st=None, **files):
    paths = {"scope": SCOPE, "spec": SPEC, "dev": DEV, "verify": VERIFY}
    tree = {SCOPE: SCOPE_TEXT, SPEC: SPEC_TEXT, DEV: DEV_TEXT, VERIFY: VERIFY_OK}
    for key, text in files.items():
        if text is None:
            tree.pop(paths[key])
        else:
            tree[paths[key]] = text
    write_tree(tmp_path, {**RUNTIME, STATE_PATH: st or state(), **tree})
    return tmp_path


def fix(root):
    report, result = fix_project(str(root), use_git=False, unsafe=True)
    again, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert again.changed == {}, "a second run changes nothing"
    return report, {f.code for f in result.findings}


# -- SL701 / SL710: a mention that is not in the definition form --------------------


TABLE_SCOPE = SCOPE_TEXT.replace("- `AC-001`: Users can search by name.", "| AC-001 | Users can search by name. |")


def test_sl701_table_row_becomes_a_list_item_and_sl710_shares_the_edit(tmp_path):
    root = build(tmp_path, scope=TABLE_SCOPE)
    (sl701,) = found(root, "SL701")
    sl710 = found(root, "SL710")
    assert {f.path for f in sl710} == {SPEC, DEV, VERIFY}
    assert sl701.fix is not None and sl701.fix.applicability == "unsafe"
    assert all(f.fix == sl701.fix for f in sl710)
    (edit,) = sl701.fix.edits
    assert TABLE_SCOPE[edit.start:edit.end] == "| AC-001 | Users can search by name. |"
    assert edit.replacement == "- `AC-001`: Users can search by name."
    _, after = fix(root)
    assert read(root, SCOPE) == SCOPE_TEXT
    assert not after & {"SL701", "SL710"}


def test_sl701_heading_and_plain_line_take_their_own_text(tmp_path):
    for line in ("### AC-001 — Users can search by name.", "**AC-001** Users can search by name."):
        root = build(tmp_path, scope=SCOPE_TEXT.replace("- `AC-001`: Users can search by name.", line))
        (f,) = found(root, "SL701")
        assert f.fix.edits[0].replacement == "- `AC-001`: Users can search by name.", line


def test_sl701_no_fix_when_the_definition_would_raise_a_coverage_finding(tmp_path):
    # The design (held: the cycle is past ARCHITECTING) never mentions AC-001:
    # defining it would add an SL720 the tree does not have.
    spec = SPEC_TEXT.replace("- `AC-001`: Name index.\n", "")
    root = build(tmp_path, scope=TABLE_SCOPE, spec=spec)
    assert found(root, "SL720") == []
    (f,) = found(root, "SL701")
    assert f.fix is None


# -- SL710 / SL720: one unknown reference and one missing condition --------------------


def test_sl720_and_sl710_respell_the_miscopied_id(tmp_path):
    spec = SPEC_TEXT.replace("`AC-001`: Name index.", "`AC-051`: Name index.")
    root = build(tmp_path, spec=spec)
    (sl710,) = found(root, "SL710")
    (sl720,) = found(root, "SL720")
    assert sl710.path == sl720.path == SPEC
    assert sl710.fix == sl720.fix and sl720.fix.applicability == "unsafe"
    (edit,) = sl720.fix.edits
    assert spec[edit.start:edit.end] == "AC-051" and edit.replacement == "AC-001"
    _, after = fix(root)
    assert read(root, SPEC) == SPEC_TEXT
    assert not after & {"SL710", "SL720"}


def test_sl721_verification_respelt_in_its_evidence(tmp_path):
    verify = VERIFY_OK.replace("| AC-002 | pending", "| AC-020 | pending")
    root = build(tmp_path, verify=verify)
    (sl721,) = found(root, "SL721")
    assert sl721.path == VERIFY and sl721.fix is not None
    assert [(verify[e.start:e.end], e.replacement) for e in sl721.fix.edits] == [("AC-020", "AC-002")]
    _, after = fix(root)
    assert read(root, VERIFY) == VERIFY_OK and "SL721" not in after


# -- SL702: an identical duplicate definition ----------------------------------------


def test_sl702_identical_copy_is_removed_safely(tmp_path):
    scope = SCOPE_TEXT.replace(
        "- `AC-002`: The guide explains search.\n",
        "- `AC-002`: The guide explains search.\n\n- `AC-001`: Users can search by name.\n",
    )
    root = build(tmp_path, scope=scope)
    (f,) = found(root, "SL702")
    assert f.fix is not None and f.fix.applicability == "safe"
    report, after = fix(root)
    assert read(root, SCOPE) == SCOPE_TEXT
    assert "SL702" not in after


# -- SL730: acceptance IDs in an EXPEDITED plan ----------------------------------------


def test_sl730_plan_steps_use_expedited_request(tmp_path):
    root = build(tmp_path, st=EXPEDITED, scope=None, spec=None, verify=None)
    (f,) = found(root, "SL730")
    assert f.path == DEV and f.fix is not None and f.fix.applicability == "unsafe"
    _, after = fix(root)
    assert read(root, DEV) == DEV_TEXT.replace("`Acceptance`: `AC-001`", "`Acceptance`: `EXPEDITED_REQUEST`")
    assert "SL730" not in after


def test_sl701_and_sl702_keep_crlf_line_endings(tmp_path):
    scope = TABLE_SCOPE.replace("- `AC-002`: The guide explains search.\n",
                                "- `AC-002`: The guide explains search.\n\n- `AC-002`: The guide explains search.\n")
    root = build(tmp_path, scope=scope.replace("\n", "\r\n"))
    fix(root)
    assert read(root, SCOPE) == SCOPE_TEXT.replace("\n", "\r\n")



def test_no_scope_fix_while_the_scope_holds_a_merge_conflict(tmp_path):
    # A merge conflict is the user's to resolve: neither the duplicate nor
    # the table row is touched.
    scope = TABLE_SCOPE.replace(
        "- `AC-002`: The guide explains search.\n",
        "- `AC-002`: The guide explains search.\n\n- `AC-002`: The guide explains search.\n",
    ) + "\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n"
    root = build(tmp_path, scope=scope)
    (sl702,) = found(root, "SL702")
    (sl701,) = found(root, "SL701")
    assert sl702.fix is None and sl701.fix is None


# -- no fix where the protocol leaves the choice open ------------------------------------


@pytest.mark.parametrize(("files", "code", "sharing"), [
    # The ID is referred to mid-sentence: a typo, or a condition still to write.
    pytest.param({"scope": SCOPE_TEXT.replace("- `AC-001`: Users can search by name.",
                                              "Search follows AC-001 closely.")},
                 "SL701", ("SL710",), id="sl701-prose-mention"),
    pytest.param({"scope": TABLE_SCOPE.replace("## Retired", "AC-001: Users can search by name, again.\n\n## Retired")},
                 "SL701", (), id="sl701-two-leading-lines"),
    # Every current condition is covered: AC-091 is a typo or a condition the
    # scope still lacks.
    pytest.param({"spec": SPEC_TEXT + "\nSee AC-091 for more.\n"},
                 "SL710", (), id="sl710-unknown-id-without-a-missing-condition"),
    pytest.param({"spec": SPEC_TEXT.replace("`AC-001`: Name index.", "`AC-051`: Name index.\n- `AC-052`: Sort.")},
                 "SL720", ("SL710",), id="sl720-two-unknown-ids"),
    # The design and the verification report agree on AC-051: the scope may
    # be what was renumbered, and which side to respell is Scoper's call.
    pytest.param({"spec": SPEC_TEXT.replace("`AC-001`: Name index.", "`AC-051`: Name index."),
                  "verify": VERIFY_OK.replace("| AC-001 |", "| AC-051 |")},
                 "SL720", ("SL710", "SL721"), id="sl720-other-records-name-the-same-id"),
    pytest.param({"scope": SCOPE_TEXT.replace("- `AC-002`: The guide explains search.",
                                              "- `AC-002`: The guide.\n- `AC-001`: Again.")},
                 "SL702", (), id="sl702-differing-copies"),
    pytest.param({"scope": SCOPE_TEXT.replace(
        "- `AC-002`: The guide explains search.\n",
        "- `AC-002`: The guide explains search.\n\n- `AC-001`: Users can search by name.\n  Also by email.\n")},
                 "SL702", (), id="sl702-copy-with-different-continuation"),
    pytest.param({"st": EXPEDITED, "scope": None, "spec": None, "verify": None,
                  "dev": DEV_TEXT + "\nThis step delivers AC-001.\n"},
                 "SL730", (), id="sl730-prose-mention"),
])
def test_no_fix(tmp_path, files, code, sharing):
    """One *code* finding, without a fix; no finding of the *sharing* codes
    (which share its edit when there is one) has a fix either."""
    root = build(tmp_path, **files)
    (f,) = found(root, code)
    assert f.fix is None
    assert all(g.fix is None for other in sharing for g in found(root, other))
