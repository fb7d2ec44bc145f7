"""The ``standards-lint`` command line.

    standards-lint [PATH] [--format F] [--select ...] [--fix] ...
    standards-lint rules [--format text|json]
    standards-lint rule CODE
    standards-lint plugins
"""

from __future__ import annotations

import argparse
import sys

FORMATS = ("text", "json", "sarif", "github")
SUBCOMMANDS = ("rules", "rule", "plugins")


def _codes(value: str) -> list[str]:
    return [c.strip() for c in value.split(",") if c.strip()]


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's formatter, told the width: otherwise it imports shutil on
    every run only to ask for the terminal's size."""
    import os

    try:
        width = int(os.environ.get("COLUMNS", "0")) or os.get_terminal_size().columns
    except (OSError, ValueError):
        width = 80
    return argparse.HelpFormatter(prog, width=max(width - 2, 40))


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(
        prog="standards-lint",
        formatter_class=_formatter,
        description="Lint the S.T.A.N.D.A.R.D.S. workflow files of a project (.standards/).",
        epilog="Other commands: `standards-lint rules`, `standards-lint rule CODE`, `standards-lint plugins`.",
    )
    p.add_argument("path", nargs="?", default=".", help="project root or any folder inside it (default: .)")
    p.add_argument("--format", choices=FORMATS, default=None, help="output format (default: text, or the config's `format`)")
    p.add_argument("--select", type=_codes, default=None, help="comma-separated codes or prefixes to report (replaces the config's)")
    p.add_argument("--extend-select", type=_codes, default=None, help="codes or prefixes to report in addition")
    p.add_argument("--ignore", type=_codes, default=None, help="codes or prefixes never to report")
    p.add_argument("--config", default=None, help="configuration file (standards-lint.toml or pyproject.toml)")
    p.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    p.add_argument("--no-git", action="store_true", help="skip comparisons with the last commit")
    p.add_argument("--all-cycles", action="store_true",
                   help="read and check every cycle's records fully, not only the active cycle's")
    p.add_argument("--turn-end", action="store_true",
                   help="the Stop hook's end-of-turn check: the current state's own COMPLETE records are left "
                        "to its role, and during recovery those of the state named in Handoff.From are held "
                        "instead (PROTOCOL.md, Runtime Tools and Hooks)")
    p.add_argument("--no-cache", action="store_true", help="neither reuse nor store the result of an unchanged project (see docs/architecture.md)")
    p.add_argument("--fix", action="store_true", help="apply safe fixes, then report what remains")
    p.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, also apply unsafe fixes")
    p.add_argument("--diff", action="store_true", help="print a unified diff of the fixes instead of writing them")
    p.add_argument("--version", action="version", version=f"standards-lint {__version__}")
    return p


def _emit(text: str, stream=None) -> None:
    """Write output that may hold undecodable file names (lone surrogates from
    the file system) without failing: they are written as ``\\udcXX``."""
    stream = stream or sys.stdout
    safe = text.encode("utf-8", "backslashreplace").decode("utf-8")
    try:
        stream.write(safe)
    except UnicodeEncodeError:
        enc = getattr(stream, "encoding", None) or "ascii"
        stream.write(safe.encode(enc, "backslashreplace").decode(enc))


def _err(msg: str) -> int:
    print(f"standards-lint: {msg}", file=sys.stderr)
    return 2


def main(argv: "list[str] | None" = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        from .catalogue import run_subcommand

        return run_subcommand(argv[0], argv[1:])
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    from .source import find_root

    root = find_root(args.path)
    if root is None:
        return _err(f"no .standards/ folder at or above {args.path}")
    run_key = None
    if not (args.fix or args.diff or args.no_cache):
        from . import cache

        if cache.enabled():
            options = [f"{k}={v}" for k, v in sorted(vars(args).items()) if k != "path"]
            run_key = cache.key(root, options, use_git=not args.no_git, config_path=args.config)
            hit = cache.lookup(root, run_key) if run_key else None
            if hit is not None:
                status, out, err = hit
                _emit(out)
                if err:
                    _emit(err, sys.stderr)
                return status
    from .config import ConfigError, load_config, validate_codes

    try:
        config = load_config(root, path=args.config, isolated=args.isolated)
        if args.select is not None:
            config.select = args.select
        if args.extend_select is not None:
            config.extend_select = config.extend_select + args.extend_select
        if args.ignore is not None:
            config.ignore = config.ignore + args.ignore
        if args.all_cycles:
            config.all_cycles = True
        if args.no_cache:
            config.cache = False
        from .engine import LINTER_CODES, registry_for

        registry = registry_for(root, config.plugins)
        known = {r.code for r in registry.rules} | set(LINTER_CODES)
        validate_codes(config, known)
    except ConfigError as exc:
        return _err(str(exc))
    fmt = args.format or config.format or "text"
    try:
        from . import output
        from .engine import lint

        fix_note = ""
        if args.fix or args.diff:
            from .fixer import fix_project, unified_diff

            report, result = fix_project(root, unsafe=args.unsafe_fixes, write=not args.diff,
                                         use_git=not args.no_git, registry=registry, config=config,
                                         turn_end=args.turn_end)
            n, m = len(report.fixed), len(report.changed)
            if args.diff:
                _emit(unified_diff(report))
                print(f"Would fix {n} finding{'s' if n != 1 else ''} in {m} file{'s' if m != 1 else ''}.", file=sys.stderr)
                return 1 if report.changed else 0
            fix_note = f"Fixed {n} finding{'s' if n != 1 else ''} in {m} file{'s' if m != 1 else ''}."
            for skipped in report.skipped:
                print(f"standards-lint: {skipped}", file=sys.stderr)
        else:
            result = lint(root, use_git=not args.no_git, registry=registry, config=config, turn_end=args.turn_end)
        if fmt == "json":
            out = output.render_json(result)
        elif fmt == "sarif":
            from .sarif import render_sarif

            out = render_sarif(result)
        elif fmt == "github":
            out = output.render_github(result)
        else:
            out = output.render_text(result)
    except Exception as exc:  # an internal failure of the linter itself
        import traceback

        traceback.print_exc()
        return _err(f"internal error: {exc}")
    _emit(out)
    if fix_note:
        print(fix_note, file=sys.stderr if fmt in ("json", "sarif") else sys.stdout)
    status = 1 if result.error_count else 0
    if run_key is not None and config.cache and not result.internal_errors and not registry.errors:
        cache.store(root, run_key, status, out, "")
    return status


def run() -> None:
    """The console script: :func:`main`, then exit without tearing down.

    A run builds many small objects (a provenance block per record of every
    cycle); freeing them one by one at interpreter exit costs more than
    checking a small project.  Output is flushed first and nothing else is
    pending (files are written and closed before), so the process exits at
    once with the status.  The garbage collector is also held back while the
    run lasts: nearly every object lives until the end anyway."""
    import gc
    import os

    gc.disable()
    try:
        status = main()
    except KeyboardInterrupt:  # pragma: no cover
        status = 130
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, OSError):  # pragma: no cover - a closed pipe
        status = status or 1
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
