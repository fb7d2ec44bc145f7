"""standards-lint: a linter for S.T.A.N.D.A.R.D.S. workflow files."""

__version__ = "0.1.0"

# Where the project and its rule pages live (SARIF informationUri / helpUri).
HOMEPAGE = "https://github.com/standards-lint/standards-lint"
RULE_DOCS = HOMEPAGE + "/blob/main/docs/rules/{code}.md"
