"""Output: the text, JSON, GitHub and SARIF formats and the rule catalogue."""
