"""Built-in rule modules, one per protocol section.

Each module is a plugin registered under the ``standards_lint`` entry-point
group (see ``pyproject.toml``), exactly as third-party plugins are.
"""
