"""`standards-lint server`: the language server and the editor model it answers from."""
