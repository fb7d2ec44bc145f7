"""The hook specification of standards-lint (a deliberately small surface).

Plugins are modules (or objects) registered under the entry-point group
``standards_lint``; the built-in rule modules register exactly the same way.

``standards_lint_rules()``
    Return the plugin's :class:`~standards_lint.engine.rule.Rule` declarations.
    Called once per run.  Every rule code must be unique across plugins.

``standards_lint_configure(options)``
    Receive the plugin's own options (a dict read from the configuration
    table ``[tool.standards-lint.plugin-options.<plugin>]``); called before
    any rule runs.  Optional.
"""

from __future__ import annotations

import pluggy

PROJECT_NAME = "standards_lint"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


@hookspec
def standards_lint_rules():
    """Return a list of Rule declarations contributed by this plugin."""


@hookspec
def standards_lint_configure(options):
    """Receive this plugin's options from the configuration (a dict)."""
