"""``standards-lint hook``: the Stop hook for Claude Code and Codex.

    standards-lint hook stop                         # the client runs it; event JSON on stdin
    standards-lint hook print-config --client claude|codex [--timeout S] [--command CMD]

PROTOCOL.md, Runtime Tools and Hooks: "When an agent finishes a turn and
workflow files have uncommitted changes, the stop hook runs `check`. If it
finds problems, it sends the agent back once with the list, and the agent
handles them as described above."  ``hook stop`` does that with the turn-end
check (``lint(..., turn_end=True)``):

- the project is found from the event's ``cwd`` (else the current folder);
  a folder outside any STANDARDS project lets the stop through;
- inside git it checks only when ``git status`` shows an uncommitted change
  (untracked included) under ``.standards/`` or in a Markdown file; outside
  git it always checks;
- when ``git status`` shows STATE.md changed, it also checks the move in
  progress, HEAD to the working tree, with the history rules
  (``standards-lint history``, docs/history.md): a forged ``From``, a
  skipped step, a vanished frame are sent back with the lint's problems;
- it sends the agent back at most once per turn: never when the event says
  ``stop_hook_active`` (the client is already continuing because of a stop
  hook); for a client that does not send that field, a marker per session
  and turn in the user's cache folder, and no block when the marker cannot
  be written;
- to send the agent back it exits 2 with the list on stderr (both clients
  give a Stop hook's stderr to the agent when it exits 2);
- an internal error prints one line on stderr and exits 1, which neither
  client treats as a block: the hook never traps the agent.

Only what a run needs is imported at the top: the hook starts a fresh
interpreter at every turn's end.
"""

from __future__ import annotations

import os
import sys

BLOCK = 2  # both clients: exit 2 blocks the stop and hands stderr to the agent
PASS = 0
FAILED = 1  # a non-blocking error: the client shows it and the stop goes through
MAX_LISTED = 15
DEFAULT_TIMEOUT = 30  # seconds; the client kills a hook that runs longer
COMMAND = "standards-lint hook stop"
CLIENTS = ("claude", "codex")
# Where each client reads its hooks (project level), for print-config's note.
SETTINGS_FILES = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json"}

INSTRUCTION = (
    "For each problem (PROTOCOL.md, Runtime Tools and Hooks): if your role owns it, fix it before "
    "continuing; if another role owns it, route it through Failure Handoffs as PROTOCOL.md describes; "
    "if no role can fix it (owner USER: a merge conflict, a hand-edited file) or you are unsure who owns it, "
    "stop and report it to the user. Navigator changes nothing: it only reports these problems."
)


# -- the event ------------------------------------------------------------------------


def read_event(stream) -> dict:
    """The client's event JSON; {} when stdin is a terminal, empty, not JSON,
    nested too deep to read (``RecursionError``), not an object, or holding a
    field name or text that is no Unicode text (a lone surrogate, which no
    file name or marker can hold): every field is optional, so such an event
    is checked as an empty one is (issue 43: both let the stop through)."""
    try:
        if stream is None or stream.isatty():
            return {}
    except (AttributeError, ValueError, OSError):
        return {}
    try:
        data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
    except (OSError, ValueError):
        return {}
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if not data.strip():
        return {}
    import json

    try:
        event = json.loads(data.decode("utf-8-sig", "replace"))
    except (ValueError, RecursionError):
        return {}
    if not isinstance(event, dict):
        return {}
    try:
        for key, value in event.items():
            key.encode("utf-8")
            if isinstance(value, str):
                value.encode("utf-8")
    except UnicodeEncodeError:
        return {}
    return event


def _text(event: dict, key: str) -> str:
    value = event.get(key)
    return value if isinstance(value, str) else ""


# -- did workflow files change? ------------------------------------------------------------


def workflow_changes(root: str):
    """Uncommitted changes to workflow files, from one ``git status`` call:
    a list of paths (empty: nothing changed), or None outside git (or when
    git cannot tell), where the hook always checks."""
    import subprocess

    try:
        r = subprocess.run(
            ["git", "-C", root, "status", "--porcelain=v1", "-z", "--untracked-files=all",
             "--ignore-submodules", "--no-renames", "--", ".standards", ":(icase)*.md"],
            capture_output=True, timeout=20,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},  # a read never takes the index lock
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    return [entry[3:].decode("utf-8", "surrogateescape") for entry in r.stdout.split(b"\0") if len(entry) > 3]


# -- the move in progress ----------------------------------------------------------------


def state_changed(changes: list) -> bool:
    """Whether ``git status`` lists a STATE.md of a ``.standards/`` folder
    (the paths are the repository's; the history run then compares exactly
    the project's own STATE.md with HEAD's)."""
    return any(c == ".standards/STATE.md" or c.endswith("/.standards/STATE.md") for c in changes)


class _MoveFinding:
    """A history finding (a dict) as :func:`message` reads a finding."""

    __slots__ = ("code", "severity", "path", "line", "message", "owner", "help", "fix")

    def __init__(self, d: dict):
        self.code, self.severity, self.path = d["code"], d["severity"], d["path"]
        self.line, self.message, self.owner = d["line"], d["message"], d.get("owner")
        self.help, self.fix = d.get("help") or "", None


def move_problems(root: str, registry) -> list:
    """The error findings of the one move from HEAD to the working tree
    (``standards-lint history --since HEAD``, docs/history.md): the history
    rules of *registry* on that pair only.  Empty when it cannot be read (no
    commit yet, git failing): the hook then reports what the lint found."""
    try:
        from ..history import HistoryError, run_history
    except ImportError:
        return []
    rules = [r for r in registry.rules if getattr(r, "scope", None) == "history"]
    if not rules:
        return []
    try:
        result = run_history(root, since="HEAD", worktree=True, rules=rules)
    except HistoryError:
        return []  # no commit yet, a git that fails: said by nobody, the lint's list stands
    except Exception:  # never lose the lint's list to the move check
        return []
    return [_MoveFinding(f) for c in result.checked for f in c.findings if f["severity"] == "error"]


# -- once per turn ------------------------------------------------------------------------


def _marker_path(event: dict, root: str, digest: str) -> str:
    from .. import cache_dir, sha256

    session = _text(event, "session_id")
    # A client that names its turn (Codex: turn_id) is marked per turn; one
    # that does not is marked per list of problems: the same list never sends
    # the agent back twice in a session, a new list does.
    turn = _text(event, "turn_id") or f"problems:{digest}"
    name = sha256(f"{root}\0{session}\0{turn}".encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return os.path.join(cache_dir(), "stop-hook", name)


def claim_turn(event: dict, root: str, digest: str) -> bool:
    """True when this turn has not sent the agent back yet and the marker
    saying it now has could be written; False otherwise (then: no block)."""
    path = _marker_path(event, root, digest)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    except OSError:
        return False
    try:
        os.write(fd, digest.encode("ascii", "replace") + b"\n")
    except OSError:
        os.close(fd)
        return False
    os.close(fd)
    _prune_markers(os.path.dirname(path))
    return True


def _prune_markers(folder: str, max_age_s: float = 2 * 86400) -> None:
    """Markers older than two days serve no turn any more."""
    import time

    try:
        names = os.listdir(folder)
    except OSError:
        return
    if len(names) < 64:
        return
    now = time.time()
    for name in names:
        p = os.path.join(folder, name)
        try:
            if now - os.stat(p).st_mtime > max_age_s:
                os.unlink(p)
        except OSError:
            pass


# -- the message ------------------------------------------------------------------------------


def _fix_text(f) -> str:
    """A machine fix as " Fix: ...", else the help as " Next step: ..."."""
    if f.fix is not None:
        desc = f.fix.description or "a machine fix"
        flag = "--fix" if f.fix.applicability == "safe" else "--fix --unsafe-fixes"
        return f" Fix: {desc} (`standards-lint {flag}`)"
    return f" Next step: {f.help}" if f.help else ""


def _quote(path: str) -> str:
    import shlex

    return shlex.quote(path)


def message(findings: list, root: str, shown: int = MAX_LISTED, next_action: str = "") -> str:
    """The text the agent receives: the problems (code, path:line, message,
    owner, fix), at most *shown*, then how many more and the command that
    shows them all, then the protocol's instruction, and last the next
    action (`standards-lint status`), when there is one."""
    n = len(findings)
    lines = [f"standards-lint: the turn-end check found {n} problem{'s' if n != 1 else ''} "
             f"in the workflow files of {root}:"]
    for f in findings[:shown]:
        line = f"- {f.code} {f.path}:{f.line}: {f.message} [owner: {f.owner or 'USER'}]"
        lines.append(line + _fix_text(f))
    command = f"standards-lint --turn-end {_quote(root)}"
    if n > shown:
        lines.append(f"... and {n - shown} more. Run `{command}` to see them all.")
    else:
        lines.append(f"`{command}` shows this list again.")
    if any(isinstance(f, _MoveFinding) for f in findings):
        lines.append(f"`standards-lint history --since HEAD {_quote(root)}` shows the check of the move in progress "
                     "(HEAD to the working tree) again.")
    lines.append(INSTRUCTION)
    if next_action:
        lines.append(next_action)
    return "\n".join(lines) + "\n"


def next_action(result) -> str:
    """The one next action of ``standards-lint status`` for this run, in a
    line; empty when it cannot be said (the hook never fails for it)."""
    try:
        from ..status.document import status_of
        from ..status.render import next_sentence

        return next_sentence(status_of(result))
    except Exception:
        return ""


# -- hook stop --------------------------------------------------------------------------------


def stop(stdin=None, stderr=None) -> int:
    """The Stop hook; returns the exit status. Never raises."""
    stderr = stderr or sys.stderr
    try:
        return _stop(sys.stdin if stdin is None else stdin, stderr)
    except BaseException as exc:  # never trap the agent: report and let the stop through
        if isinstance(exc, KeyboardInterrupt):
            return 130
        detail = str(exc).replace("\n", " ")[:300]
        _write(stderr, f"standards-lint hook stop: internal error, not checking: {type(exc).__name__}: {detail}\n")
        return FAILED


def _stop(stdin, stderr) -> int:
    event = read_event(stdin)
    if event.get("stop_hook_active") is True:
        return PASS  # the client is already continuing because of a stop hook
    cwd = _text(event, "cwd")
    start = cwd if cwd and os.path.isdir(cwd) else os.getcwd()
    from ..syntax.source import find_root

    root = find_root(start)
    if root is None:
        return PASS  # not a STANDARDS project
    changes = workflow_changes(root)
    if changes is not None and not changes:
        return PASS  # no workflow file changed since the last commit
    from ..engine.config import load_config
    from ..engine.run import lint, registry_for

    config = load_config(root)
    registry = registry_for(root, config.plugins)
    result = lint(root, registry=registry, config=config, turn_end=True)
    problems = [f for f in result.findings if f.severity == "error"]
    if changes and state_changed(changes):
        problems += move_problems(root, registry)
    if not problems:
        return PASS
    text = message(problems, root, next_action=next_action(result))
    if "stop_hook_active" not in event:
        # A client that does not say whether it is already continuing: a
        # marker per session and turn decides; without one, no block.
        from .. import sha256

        digest = sha256("\n".join(f"{f.code}\0{f.path}\0{f.line}\0{f.message}" for f in problems)
                        .encode("utf-8", "surrogateescape")).hexdigest()[:24]
        if not claim_turn(event, root, digest):
            return PASS
    _write(stderr, text)
    return BLOCK


def _write(stream, text: str) -> None:
    safe = text.encode("utf-8", "backslashreplace").decode("utf-8")
    try:
        stream.write(safe)
    except UnicodeEncodeError:
        enc = getattr(stream, "encoding", None) or "ascii"
        stream.write(safe.encode(enc, "backslashreplace").decode(enc))
    try:
        stream.flush()
    except (OSError, ValueError):
        pass


# -- hook print-config -------------------------------------------------------------------------


def config_for(client: str, command: str = COMMAND, timeout: int = DEFAULT_TIMEOUT) -> dict:
    """The settings a user puts in the client's file to run standards-lint as
    its Stop hook.  Claude Code (``.claude/settings.json``) and Codex
    (``.codex/hooks.json``) read the same shape: ``hooks.Stop`` is a list of
    matcher groups, each with a list of command hooks; Stop takes no
    matcher; ``timeout`` is in seconds."""
    if client not in CLIENTS:
        raise ValueError(f"unknown client {client!r}; choose one of {', '.join(CLIENTS)}")
    return {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command, "timeout": timeout}]}]}}


def print_config(argv: list) -> int:
    import argparse
    import json

    p = argparse.ArgumentParser(
        prog="standards-lint hook print-config",
        description="Print the JSON that makes a client run `standards-lint hook stop` as its Stop hook "
                    "(Claude Code: .claude/settings.json; Codex: .codex/hooks.json). See docs/agents.md.",
    )
    p.add_argument("--client", choices=CLIENTS, required=True)
    p.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT, help=f"seconds (default {DEFAULT_TIMEOUT})")
    p.add_argument("--command", default=COMMAND,
                   help=f"the command the client runs (default `{COMMAND}`; give an absolute path "
                        "when the client's PATH does not hold standards-lint)")
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.timeout <= 0:
        print("standards-lint hook print-config: --timeout must be a positive number of seconds", file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(config_for(args.client, args.command, args.timeout), indent=2) + "\n")
    return 0


USAGE = """usage: standards-lint hook stop                   (run by the client at a turn's end; event JSON on stdin)
       standards-lint hook print-config --client claude|codex [--timeout S] [--command CMD]
"""


def main(argv: list) -> int:
    if argv[:1] == ["stop"]:
        if len(argv) > 1:
            if argv[1] in ("-h", "--help"):
                sys.stdout.write(USAGE)
                return 0
            print(f"standards-lint hook stop: unexpected argument {argv[1]!r}", file=sys.stderr)
            return FAILED  # a usage slip in the client's settings must not block the agent either
        return stop()
    if argv[:1] == ["print-config"]:
        return print_config(argv[1:])
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return 0
    sys.stderr.write(USAGE)
    return 2
