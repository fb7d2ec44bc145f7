"""standards-lint: a linter for S.T.A.N.D.A.R.D.S. workflow files."""

__version__ = "0.1.0"



def cache_dir() -> str:
    """Where standards-lint keeps its caches (results, Lark's grammar tables):
    $STANDARDS_LINT_CACHE_DIR, else $XDG_CACHE_HOME/standards-lint, else
    ~/.cache/standards-lint."""
    import os

    explicit = os.environ.get("STANDARDS_LINT_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "standards-lint")


def sha256(data: bytes = b""):
    """SHA-256 from the interpreter's built-in module when it has one: it
    imports in a fraction of the time ``hashlib`` (OpenSSL) takes."""
    try:
        from _sha2 import sha256 as impl  # Python 3.12+
    except ImportError:
        try:
            from _sha256 import sha256 as impl  # Python 3.8-3.11
        except ImportError:  # pragma: no cover
            from hashlib import sha256 as impl
    return impl(data)
