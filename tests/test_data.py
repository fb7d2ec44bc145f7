"""The plain data classes (standards_lint.syntax.data) behave as the attrs classes
they replaced: repr, equality, hashing, frozen fields, replace, weak
references, copy and pickle."""

from __future__ import annotations

import copy
import pickle
import weakref

import pytest

from standards_lint.syntax.ast import Field, Span
from standards_lint.syntax.data import FrozenError, replace
from standards_lint.engine.findings import Edit, Finding, Fix
from standards_lint.engine.rule import Diagnostic, Rule


def test_repr_names_every_field_in_order():
    assert repr(Span(1, 2, 3, 4, 5, 6)) == "Span(line=1, column=2, end_line=3, end_column=4, start=5, end=6)"
    f = Field("a.md", Span(1, 1, 1, 9, 0, 8), "A", "1", Span(1, 2, 1, 3, 1, 2), Span(1, 7, 1, 8, 6, 7))
    assert repr(f).startswith("Field(path='a.md', span=Span(line=1,") and repr(f).endswith("bare=False)")


def test_a_rules_repr_leaves_out_its_check():
    r = Rule("X1", "x", "S", "s", "e", check=lambda p: ())
    assert "check=" not in repr(r) and repr(r).startswith("Rule(code='X1', name='x'")


def test_spans_are_values():
    a, b = Span(1, 2, 3, 4, 5, 6), Span(1, 2, 3, 4, 5, 6)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Span(1, 2, 3, 4, 5, 7)
    assert a != (1, 2, 3, 4, 5, 6)


def test_nodes_compare_by_identity():
    span = Span(1, 1, 1, 1, 0, 0)
    a = Field("a.md", span, "A", "1", span, span)
    b = Field("a.md", span, "A", "1", span, span)
    assert a != b and a == a and len({a, b}) == 2


def test_findings_compare_by_value_and_are_unhashable():
    a = Finding("SL1", "error", "m", "p", 1, 1, 1, 1, "S")
    assert a == Finding("SL1", "error", "m", "p", 1, 1, 1, 1, "S")
    assert a != replace(a, help="h")
    with pytest.raises(TypeError):
        hash(a)


def test_frozen_classes_refuse_assignment_and_hash_by_value():
    e = Edit("p", 0, 1, "x")
    with pytest.raises(FrozenError):
        e.start = 2
    with pytest.raises(AttributeError):
        del e.path
    assert hash(Fix((e,), "safe")) == hash(Fix((Edit("p", 0, 1, "x"),), "safe"))
    d = Diagnostic("p", Span(1, 1, 1, 1, 0, 0), "m")
    assert replace(d, message="n").message == "n" and d.message == "m"


def test_replace_refuses_unknown_fields():
    with pytest.raises(TypeError, match="no field nope"):
        replace(Edit("p", 0, 1, "x"), nope=1)


def test_weak_references_copy_and_pickle():
    span = Span(1, 1, 1, 1, 0, 0)
    node = Field("a.md", span, "A", "1", span, span)
    assert weakref.ref(node)() is node
    fix = Fix((Edit("p", 0, 1, "x"),), "unsafe", "d")
    assert copy.copy(fix) == fix and copy.deepcopy(fix) == fix
    assert pickle.loads(pickle.dumps(fix)) == fix
    assert pickle.loads(pickle.dumps(span)) == span
    with pytest.raises(AttributeError):
        node.no_such_field = 1  # slots: no stray attributes
