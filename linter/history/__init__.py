"""``standards-lint history``: every move of the workflow checked across
commits, and the story of each cycle told.

Layer: files -> syntax -> model -> rules -> findings -> outputs/fixes/server/
hook/status/**history**.  This package reads the git history of
``.standards/`` in one pass (:mod:`.git`), builds each version's
:class:`~standards_lint.engine.project.Project` from its blobs so that every value
is read through the model the rules read (:mod:`.run`), runs the rules
declared ``scope="history"`` on each :class:`~standards_lint.model.moves.Move`,
and tells the story (:mod:`.story`).  Nothing below it imports it; a plain
lint never does.
"""

from .git import HistoryError
from .run import HistoryResult, run_history

__all__ = ["HistoryError", "HistoryResult", "main", "run_history"]


def main(argv: list) -> "tuple[int, str]":
    """``standards-lint history [PATH] [--since REV] [--all] [--format F]``
    (text, json, markdown, github, sarif):
    (exit status, output).  Status 1 when an error finding exists, 2 when
    the history cannot be read (the message goes to stderr)."""
    import argparse
    import sys

    from . import story

    p = argparse.ArgumentParser(prog="standards-lint history",
                                description="Check every move of the workflow across the git history of "
                                            ".standards/ and tell the story of each cycle (docs/history.md).")
    p.add_argument("path", nargs="?", default=".", help="project root or any folder inside it (default: .)")
    p.add_argument("--since", default=None, metavar="REV",
                   help="check the moves after this commit (e.g. a pull request's base); default: from the "
                        "first commit of the active cycle")
    p.add_argument("--all", action="store_true", dest="all_history", help="the whole history")
    p.add_argument("--format", choices=("text", "json", "markdown", "github", "sarif"), default="text")
    p.add_argument("--no-worktree", action="store_true",
                   help="stop at HEAD: leave uncommitted changes of .standards/ out")
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0), ""
    try:
        result = run_history(args.path, since=args.since, all_history=args.all_history,
                             worktree=not args.no_worktree)
    except HistoryError as exc:
        print(f"standards-lint history: {exc}", file=sys.stderr)
        return 2, ""
    data = story.build(result)
    render = {"text": story.as_text, "json": story.as_json, "markdown": story.as_markdown,
              "github": story.as_github, "sarif": story.as_sarif}[args.format]
    return (1 if result.error_count else 0), render(data)
