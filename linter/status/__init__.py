"""`standards-lint status`: where the workflow stands and the one next action."""
