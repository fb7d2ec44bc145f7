"""Fixes that several rules share (one root fix, carried by each finding it
causes).  Imports the model and the rule API, never a rule module."""
