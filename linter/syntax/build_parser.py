"""Generate ``linter/syntax/_markdown_tables.py`` from ``grammar/markdown.lark``.

Lark builds the LALR parser of our grammar (contextual lexer); this script
writes down what that parser consists of, and :mod:`standards_lint.syntax.lalr`
runs it:

- for each parser state, the regex its lexer matches with: the terminals the
  state accepts joined in Lark's order of precedence (``Scanner._mres``,
  taken from Lark itself, not rebuilt here), and the terminals to ignore;
- for each state, its actions: shift (or goto) to a state, or reduce by a
  rule; and each rule's name, length and whether it makes a node of its own.

Importing those tables costs a fraction of importing Lark (or its generated
standalone runtime, 3,600 lines), and the small driver parses several times
faster.  The module records the grammar's SHA-256: when the grammar changes
without the module being regenerated, the parser builds Lark's own parser
instead, so a stale module never parses.  ``tests/test_parser.py`` fails when
the committed module differs from what this script writes, and compares the
two parsers' trees on generated input.

    python -m standards_lint.syntax.build_parser          # rewrite the module
    python -m standards_lint.syntax.build_parser --check  # exit 1 when it is stale

Run from a checkout with Lark installed (a dependency of the package).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys

TARGET = "_markdown_tables.py"

HEADER = """\
# GENERATED FILE: do not edit.
# Written by `python -m standards_lint.syntax.build_parser` from grammar/markdown.lark
# (Lark {lark_version}, LALR with a contextual lexer).  After changing the grammar,
# run that command again and commit both files; tests/test_parser.py fails
# while this file is stale.  Read by standards_lint.syntax.lalr, which documents the
# format; marked `linguist-generated` in .gitattributes.
"""


def grammar_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def lark_parser(grammar_text: str):
    """Lark's parser of the grammar, with the options the linter's fallback
    (``standards_lint.syntax.parser._lark_parser``) uses."""
    from lark import Lark

    return Lark(grammar_text, parser="lalr", lexer="contextual", propagate_positions=False,
                maybe_placeholders=False)


def _unsupported(what: str):
    return SystemExit(f"build_parser: the grammar uses {what}, which standards_lint.syntax.lalr does not run; "
                      "extend lalr.py (and this script) first")


def tables(grammar_text: str) -> dict:
    """The parser Lark builds from *grammar_text*, as plain data."""
    from lark.parsers.lalr_analysis import Shift

    lark = lark_parser(grammar_text)
    frontend = lark.parser
    conf = frontend.lexer_conf
    if conf.callbacks or conf.g_regex_flags or conf.use_bytes or lark.options.postlex is not None:
        raise _unsupported("lexer callbacks, regex flags, bytes or a post-lexer")
    if lark.options.keep_all_tokens:
        raise _unsupported("keep_all_tokens")
    for r in lark.rules:
        if r.alias or r.options.expand1 or r.options.keep_all_tokens or r.options.template_source:
            raise _unsupported(f"an alias, `?rule` or a template ({r})")
        if any(s.is_term and s.filter_out for s in r.expansion):
            raise _unsupported(f"an anonymous or `_`-named terminal ({r})")
    parse_table = frontend.parser._parse_table
    if list(parse_table.start_states) != ["start"]:
        raise _unsupported("several start rules")
    # Lark numbers its states in an order that depends on hashing; number
    # them afresh, breadth first from the start state and by symbol name, so
    # that the same grammar always gives the same file.
    states = parse_table.states
    start = parse_table.start_states["start"]
    order = [start]
    for state in order:
        for symbol in sorted(states[state]):
            action, arg = states[state][symbol]
            if action is Shift and arg not in order:
                order.append(arg)
    if sorted(order) != sorted(states):
        raise _unsupported("states no shift reaches")
    number = {state: i for i, state in enumerate(order)}
    lexers: list = []
    lexer_of_state = []
    rules: list = []
    actions = []
    for state in order:
        lexer = frontend.lexer.lexers[state]
        scanner = lexer.scanner
        if lexer.callback or len(scanner._mres) != 1:
            raise _unsupported("lexer callbacks (string terminals inside regex ones) or over 100 terminals")
        key = (scanner._mres[0].pattern, int(scanner._mres[0].flags & ~re.UNICODE))  # implied for str patterns
        if key not in lexers:
            lexers.append(key)
        lexer_of_state.append(lexers.index(key))
        row = {}
        for symbol in sorted(states[state]):
            action, arg = states[state][symbol]
            if action is Shift:
                row[str(symbol)] = number[arg]
            else:
                entry = (str(arg.origin.name), len(arg.expansion), not arg.origin.name.startswith("_"))
                if entry not in rules:
                    rules.append(entry)
                row[str(symbol)] = ~rules.index(entry)
        actions.append(row)
    ignore = sorted(conf.ignore)
    return {
        "lark_version": __import__("lark").__version__,
        "LEXERS": lexers,
        "LEXER_OF_STATE": lexer_of_state,
        "IGNORE": ignore,
        "RULES": rules,
        "ACTIONS": actions,
        "START": number[start],
        "END": number[parse_table.end_states["start"]],
    }


def generate(grammar_text: str) -> str:
    t = tables(grammar_text)
    out = [HEADER.format(lark_version=t["lark_version"])]
    out.append(f"GRAMMAR_SHA256 = {grammar_hash(grammar_text)!r}\n")
    out.append(f"LARK_VERSION = {t['lark_version']!r}\n")
    out.append("\n# One regex per distinct lexer: (pattern, flags).\n")
    out.append("LEXERS = (\n")
    for pattern, flags in t["LEXERS"]:
        out.append(f"    ({pattern!r}, {flags}),\n")
    out.append(")\n")
    out.append("# The lexer (index into LEXERS) of each parser state.\n")
    out.append(f"LEXER_OF_STATE = {tuple(t['LEXER_OF_STATE'])!r}\n")
    out.append(f"IGNORE = {tuple(t['IGNORE'])!r}\n")
    # The tables are one line each, as Lark's own standalone generator writes
    # them: data, not code to read line by line (pprint them to study them).
    out.append("# (name, length, makes a node): ~i in ACTIONS reduces by RULES[i].\n")
    out.append(f"RULES = {tuple(t['RULES'])!r}\n")
    out.append("# Per state: terminal or rule name -> next state (shift or goto), or ~rule (reduce).\n")
    out.append(f"ACTIONS = {tuple(t['ACTIONS'])!r}\n")
    out.append(f"START = {t['START']!r}\n")
    out.append(f"END = {t['END']!r}\n")
    return "".join(out)


def target_path() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), TARGET)


def main(argv=None) -> int:
    from .parser import _grammar_text

    argv = sys.argv[1:] if argv is None else argv
    text = generate(_grammar_text())
    path = target_path()
    if "--check" in argv:
        try:
            with open(path, encoding="utf-8") as fh:
                current = fh.read()
        except OSError:
            current = None
        if current != text:
            print(f"{path} is stale: run python -m standards_lint.syntax.build_parser")
            return 1
        print(f"{path} is current")
        return 0
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
