"""The ``standards-lint`` command line."""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

FORMATS = ("text", "json")


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(
        prog="standards-lint",
        description="Lint the S.T.A.N.D.A.R.D.S. workflow files of a project (.standards/).",
    )
    p.add_argument("path", nargs="?", default=".", help="project root or any folder inside it (default: .)")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    p.add_argument("--no-git", action="store_true", help="skip comparisons with the last commit")
    p.add_argument("--version", action="version", version=f"standards-lint {__version__}")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    from .project import find_root

    root = find_root(args.path)
    if root is None:
        print(f"standards-lint: no .standards/ folder at or above {args.path}", file=sys.stderr)
        return 2
    try:
        from .engine import lint
        from .output import render_json, render_text

        result = lint(root, use_git=not args.no_git)
        out = render_json(result) if args.format == "json" else render_text(result)
    except Exception as exc:  # an internal failure of the linter itself
        import traceback

        traceback.print_exc()
        print(f"standards-lint: internal error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(out)
    return 1 if result.error_count else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
