"""The ``standards-lint`` command line.

    standards-lint [PATH] [--format F] [--output-format concise|full] [--statistics] [--fix] ...
    standards-lint rules [--format text|json]
    standards-lint rule CODE
    standards-lint plugins
    standards-lint hook stop | hook print-config --client claude|codex
    standards-lint status [PATH] [--format text|json|markdown]
    standards-lint history [PATH] [--since REV] [--all] [--format text|json|markdown|github|sarif]
    standards-lint server          (the language server; the `server` extra)
    standards-lint mcp             (the MCP server; the `mcp` extra) | mcp print-config --client claude|codex
"""

from __future__ import annotations

import argparse
import sys

FORMATS = ("text", "json", "sarif", "github")
OUTPUT_FORMATS = ("concise", "full")
COLOR_CHOICES = ("auto", "always", "never")
SUBCOMMANDS = ("rules", "rule", "plugins")
HOOK = "hook"
SERVER = "server"
MCP = "mcp"
STATUS = "status"
HISTORY = "history"


def _codes(value: str) -> list[str]:
    return [c.strip() for c in value.split(",") if c.strip()]


def _role(value: str) -> str:
    from .syntax.protocol import ROLES

    role = value.strip().upper()
    if role not in ROLES:
        raise argparse.ArgumentTypeError(f"unknown role {value!r}; choose one of {', '.join(ROLES)}")
    return role


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
        epilog="Other commands: `standards-lint rules`, `standards-lint rule CODE`, `standards-lint plugins`, "
               "`standards-lint status [PATH] [--format text|json|markdown]`, "
               "`standards-lint history [PATH] [--since REV] [--all] [--format text|json|markdown|github|sarif]`, "
               "`standards-lint hook stop`, `standards-lint hook print-config --client claude|codex`, "
               "`standards-lint server`, `standards-lint mcp`, `standards-lint mcp print-config --client claude|codex`.",
    )
    p.add_argument("path", nargs="?", default=".", help="project root or any folder inside it (default: .)")
    p.add_argument("--format", choices=FORMATS, default=None, help="output format (default: text, or the config's `format`)")
    p.add_argument("--output-format", choices=OUTPUT_FORMATS, default=None,
                   help="with --format text: `concise` (one line per finding) or `full` (source, help, fix); "
                        "default: full on a terminal, concise otherwise, or the config's `output-format`")
    p.add_argument("--statistics", action="store_true",
                   help="print one line per code (count, code, name; [*] when fixable) instead of the findings; "
                        "a JSON list with --format json")
    p.add_argument("--color", choices=COLOR_CHOICES, default="auto",
                   help="colour text output: auto (a terminal, unless NO_COLOR is set), always or never")
    p.add_argument("--select", type=_codes, default=None, help="comma-separated codes or prefixes to report (replaces the config's)")
    p.add_argument("--extend-select", type=_codes, default=None, help="codes or prefixes to report in addition")
    p.add_argument("--ignore", type=_codes, default=None, help="codes or prefixes never to report")
    p.add_argument("--config", default=None, help="configuration file (standards-lint.toml or pyproject.toml)")
    p.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    p.add_argument("--no-git", action="store_true", help="skip comparisons with the last commit")
    p.add_argument("--target-version", default=None, metavar="VERSION",
                   help="check by the rules of this framework release (default: the config's `target-version`, "
                        "else the version .standards/VERSION.json names; see docs/releases.md)")
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
    p.add_argument("--role", type=_role, default=None,
                   help="the role running the check: its findings first, the rest grouped by owner to route; "
                        "exit 1 only when the role owns an error")
    p.add_argument("--version", action="version", version=f"standards-lint {__version__}")
    return p


def _emit(text: str, stream=None) -> None:
    """Write output that may hold undecodable file names (lone surrogates from
    the file system) without failing: they are written as ``\\udcXX``.  A
    reader that closed the pipe (``standards-lint rules | head``) ends the
    output quietly: the run keeps its status."""
    stream = stream or sys.stdout
    safe = text.encode("utf-8", "backslashreplace").decode("utf-8")
    try:
        try:
            stream.write(safe)
        except UnicodeEncodeError:
            enc = getattr(stream, "encoding", None) or "ascii"
            stream.write(safe.encode(enc, "backslashreplace").decode(enc))
    except BrokenPipeError:
        _pipe_closed(stream)


def _pipe_closed(stream) -> None:
    """The reader of *stream* is gone: point its descriptor at the null
    device, so that what is still buffered (and the final flush) goes
    nowhere instead of raising again."""
    import os

    try:
        fd = stream.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        pass


def _err(msg: str) -> int:
    print(f"standards-lint: {msg}", file=sys.stderr)
    return 2


def main(argv: "list[str] | None" = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == HOOK:
        from .agents.hook import main as hook_main

        return hook_main(argv[1:])
    if argv and argv[0] == STATUS:
        from .status.command import main as status_main

        try:
            status, out = status_main(argv[1:])
        except Exception as exc:  # an internal failure of the linter itself
            import traceback

            traceback.print_exc()
            return _err(f"internal error: {exc}")
        _emit(out)
        return status
    if argv and argv[0] == HISTORY:
        from .history import main as history_main

        try:
            status, out = history_main(argv[1:])
        except Exception as exc:  # an internal failure of the linter itself
            import traceback

            traceback.print_exc()
            return _err(f"internal error: {exc}")
        _emit(out)
        return status
    if argv and argv[0] == SERVER:
        from .lsp.server import main as server_main

        return server_main(argv[1:])
    if argv and argv[0] == MCP:
        from .agents.mcp import main as mcp_main

        return mcp_main(argv[1:])
    if argv and argv[0] in SUBCOMMANDS:
        import contextlib
        import io

        from .output.catalogue import run_subcommand

        buf = io.StringIO()  # written at once, so a closed pipe is handled in one place
        with contextlib.redirect_stdout(buf):
            status = run_subcommand(argv[0], argv[1:])
        _emit(buf.getvalue())
        return status
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    except BrokenPipeError:  # --help or --version into a closed pipe
        _pipe_closed(sys.stdout)
        return 0
    from .output import formats as output

    color = output.use_color(args.color)
    from .syntax.source import find_root

    root = find_root(args.path)
    if root is None:
        return _err(f"no .standards/ folder at or above {args.path}")
    run_key = None
    if not (args.fix or args.diff or args.no_cache):
        from .engine import cache

        if cache.enabled():
            options = [f"{k}={v}" for k, v in sorted(vars(args).items()) if k != "path"]
            # What the text output depends on beyond the options: the
            # terminal (default output format), colour, the current folder
            # (paths are shown relative to it).
            options += [f"tty={output.is_tty()}", f"colour={color}", f"cwd={_cwd()}"]
            run_key = cache.key(root, options, use_git=not args.no_git, config_path=args.config)
            hit = cache.lookup(root, run_key) if run_key else None
            if hit is not None:
                status, out, err = hit
                _emit(out)
                if err:
                    _emit(err, sys.stderr)
                return status
    from .engine.config import ConfigError, load_config, target_version, validate_codes

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
        if args.target_version is not None:
            config.target_version = (target_version(args.target_version, "--target-version"), "command line")
        if args.no_cache:
            config.cache = False
        if args.output_format is not None:
            config.output_format = args.output_format
        from .engine.run import LINTER_CODES, registry_for

        registry = registry_for(root, config.plugins)
        known = {r.code for r in registry.rules} | set(LINTER_CODES)
        validate_codes(config, known)
    except ConfigError as exc:
        return _err(str(exc))
    fmt = args.format or config.format or "text"
    out_fmt = config.output_format or output.default_output_format()
    try:
        from .engine.run import lint

        fix_note = ""
        if args.fix or args.diff:
            from .fixes.fixer import fix_project, unified_diff

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
            if report.unwritten:  # what was not written is not fixed: its findings are reported
                fix_note = (fix_note[:-1] + ("; nothing written: " if not report.changed else "; not written: ")
                            + "; ".join(report.skipped) + ". The findings in it are still reported.")
        else:
            result = lint(root, use_git=not args.no_git, registry=registry, config=config, turn_end=args.turn_end)
        if args.statistics:
            out = output.render_statistics(result, fmt="json" if fmt == "json" else "text",
                                           unsafe=args.unsafe_fixes, color=color and fmt == "text")
        elif fmt == "json":
            out = output.render_json(result, args.role)
        elif fmt == "sarif":
            from .output.sarif import render_sarif

            out = render_sarif(result, docs_url=config.docs_url)
        elif fmt == "github":
            out = output.render_github(result)
        else:
            from .engine.links import rule_url

            def doc_link(code: str):
                return rule_url(code, config.docs_url)

            if args.role:
                out = output.render_by_role(result, args.role, output_format=out_fmt, color=color,
                                            doc_link=doc_link)
            else:
                out = output.render_text(result, output_format=out_fmt, color=color, doc_link=doc_link)
    except Exception as exc:  # an internal failure of the linter itself
        import traceback

        traceback.print_exc()
        return _err(f"internal error: {exc}")
    if args.role:  # a forward handoff needs no problem in what the role owns
        status = 1 if output.owned_errors(result, args.role) else 0
    else:
        status = 1 if result.error_count else 0
    _emit(out)
    if fix_note:
        _emit(fix_note + "\n", sys.stderr if fmt in ("json", "sarif") or args.statistics else sys.stdout)
    if run_key is not None and config.cache and not result.internal_errors and not registry.errors:
        cache.store(root, run_key, status, out, "")
    return status


def _cwd() -> str:
    import os

    try:
        return os.getcwd()
    except OSError:
        return ""


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
    except BrokenPipeError:  # a write outside _emit into a closed pipe
        _pipe_closed(sys.stdout)
        status = 0
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader left before the buffer was written: quiet, same status
            _pipe_closed(stream)
        except (OSError, ValueError):  # pragma: no cover - stdout closed (the server's transport)
            pass
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
