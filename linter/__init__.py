"""standards-lint: a linter for S.T.A.N.D.A.R.D.S. workflow files."""

__version__ = "0.1.0"
