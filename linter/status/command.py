"""``standards-lint status [PATH]``: the command line (options, the
configuration, the lint, the chosen rendering)."""

from __future__ import annotations

from .document import FORMATS, status_of
from .render import render

USAGE = "standards-lint status [PATH] [--format text|json|markdown] [--color auto|always|never] [--no-git] [--config FILE] [--isolated]"


def main(argv: list) -> "tuple[int, str]":
    """``standards-lint status``: (exit status, output).  0 whatever the
    status shows; 2 on a usage error (a message on stderr)."""
    import argparse
    import sys

    p = argparse.ArgumentParser(
        prog="standards-lint status",
        description="Where the workflow stands, what blocks it, and the command that resumes it "
                    "(docs/status.md). Exit status 0 whatever it shows; 2 on a usage error.",
    )
    p.add_argument("path", nargs="?", default=".", help="project root or any folder inside it (default: .)")
    p.add_argument("--format", choices=FORMATS, default="text", help="text (default), json or markdown")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour text output: auto (a terminal, unless NO_COLOR is set), always or never")
    p.add_argument("--no-git", action="store_true", help="skip comparisons with the last commit")
    p.add_argument("--config", default=None, help="configuration file (standards-lint.toml or pyproject.toml)")
    p.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:  # argparse: 2 on a usage error, 0 on --help
        return int(exc.code or 0), ""
    from ..syntax.source import find_root

    root = find_root(args.path)
    if root is None:
        print(f"standards-lint status: no .standards/ folder at or above {args.path}", file=sys.stderr)
        return 2, ""
    from ..engine.config import ConfigError, load_config

    try:
        config = load_config(root, path=args.config, isolated=args.isolated)
    except ConfigError as exc:
        print(f"standards-lint status: {exc}", file=sys.stderr)
        return 2, ""
    from ..engine.run import lint, registry_for

    registry = registry_for(root, config.plugins)
    result = lint(root, use_git=not args.no_git, registry=registry, config=config)
    doc = status_of(result)
    color = False
    if args.format == "text":
        from ..output.formats import use_color

        color = use_color(args.color)
    return 0, render(doc, args.format, color=color)
