"""The ``standards-lint`` command line."""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

FORMATS = ("text", "json", "sarif", "github")


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(
        prog="standards-lint",
        description="Lint the S.T.A.N.D.A.R.D.S. workflow files of a project (.standards/).",
    )
    p.add_argument("path", nargs="?", default=".", help="project root or any folder inside it (default: .)")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    p.add_argument("--no-git", action="store_true", help="skip comparisons with the last commit")
    p.add_argument("--fix", action="store_true", help="apply safe fixes, then report what remains")
    p.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, also apply unsafe fixes")
    p.add_argument("--diff", action="store_true", help="print a unified diff of the fixes instead of writing them")
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
        from . import output

        fix_note = ""
        if args.fix or args.diff:
            from .fixer import fix_project, unified_diff

            report, result = fix_project(root, unsafe=args.unsafe_fixes, write=not args.diff, use_git=not args.no_git)
            if args.diff:
                sys.stdout.write(unified_diff(report))
                n = len(report.fixed)
                print(f"Would fix {n} finding{'s' if n != 1 else ''} in {len(report.changed)} file{'s' if len(report.changed) != 1 else ''}.", file=sys.stderr)
                return 1 if report.changed else 0
            n = len(report.fixed)
            fix_note = f"Fixed {n} finding{'s' if n != 1 else ''} in {len(report.changed)} file{'s' if len(report.changed) != 1 else ''}."
            for skipped in report.skipped:
                print(f"standards-lint: {skipped}", file=sys.stderr)
        else:
            result = lint(root, use_git=not args.no_git)
        if args.format == "json":
            out = output.render_json(result)
        elif args.format == "sarif":
            from .sarif import render_sarif

            out = render_sarif(result)
        elif args.format == "github":
            out = output.render_github(result)
        else:
            out = output.render_text(result)
    except Exception as exc:  # an internal failure of the linter itself
        import traceback

        traceback.print_exc()
        print(f"standards-lint: internal error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(out)
    if fix_note:
        print(fix_note, file=sys.stderr if args.format in ("json", "sarif") else sys.stdout)
    return 1 if result.error_count else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
