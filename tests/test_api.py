"""standards_lint.api is the plugin API: every name it lists imports, and the
protocol model's names are the model's own objects (a rename or a copy in
the model breaks this test, not a plugin in the field)."""

from __future__ import annotations

import importlib

import pytest

import standards_lint.api as api
import standards_lint.model as model

MODEL_NAMES = (
    "model_of", "Model", "Workflow", "Cycle", "RecordFact", "Frame", "Handoff", "Stack", "Value",
    "READ", "MISSING", "REPEATED", "INVALID", "USER", "owner_of", "GATE_RECORDS",
)


@pytest.mark.parametrize("name", sorted(api.__all__))
def test_every_listed_name_imports(name):
    module = importlib.import_module("standards_lint.api")
    assert hasattr(module, name), f"standards_lint.api.__all__ lists {name!r} but the module has no such name"
    exec(f"from standards_lint.api import {name}", {})


def test_all_has_no_duplicates():
    assert len(api.__all__) == len(set(api.__all__))


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_model_names_are_the_models_objects(name):
    assert name in api.__all__, f"{name} is not exported from standards_lint.api"
    assert name in model.__all__, f"{name} is no longer a public name of standards_lint.model"
    assert getattr(api, name) is getattr(model, name)


def test_status_constants_keep_their_values():
    # Plugins compare Value.status with these constants or with the words:
    # both spellings must keep working.
    assert (api.READ, api.MISSING, api.REPEATED, api.INVALID) == ("read", "missing", "repeated", "invalid")
    assert api.USER == "USER"
