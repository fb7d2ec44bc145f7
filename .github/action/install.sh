#!/usr/bin/env bash
# The action's first step: install standards-lint into a virtual environment
# of its own (the job's Python packages are left alone).
#
#   GITHUB_ACTION_PATH  the action's checkout (installed unless INPUT_VERSION)
#   INPUT_VERSION       empty: the checkout; `latest`; a version (`0.2.0`) or a
#                       specifier (`>=0.2,<0.3`) to install from PyPI
#   RUNNER_TEMP         where the environment goes (a temporary folder if unset)
#   PYTHON              the interpreter to build it from (default: python3)
# Writes `bin=` (the standards-lint script) and `python=` to $GITHUB_OUTPUT.
set -euo pipefail

python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  echo "::error title=standards-lint::needs Python 3.10 or later as \`$python\`; add actions/setup-python before this step"
  exit 2
fi

base="${RUNNER_TEMP:-}"
if [ -z "$base" ]; then
  base="$(mktemp -d)"
fi
venv="$base/standards-lint-venv"
"$python" -m venv "$venv"
if [ -x "$venv/bin/python" ]; then
  bin_dir="$venv/bin"
else
  bin_dir="$venv/Scripts"  # Windows runners
fi

version="${INPUT_VERSION:-}"
if [ -z "$version" ]; then
  source="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set: the checkout of the action}"
  requirement="$source"
  what="standards-lint from $source"
elif [ "$version" = "latest" ]; then
  requirement="standards-lint"
  what="the latest standards-lint from PyPI"
elif [[ "$version" =~ ^[\<\>=!~] ]]; then
  requirement="standards-lint$version"
  what="standards-lint$version from PyPI"
else
  requirement="standards-lint==$version"
  what="standards-lint $version from PyPI"
fi
echo "Installing $what"
"$bin_dir/python" -m pip install --disable-pip-version-check --quiet "$requirement"

script="$bin_dir/standards-lint"
[ -x "$script" ] || script="$bin_dir/standards-lint.exe"
"$script" --version
{
  echo "bin=$script"
  echo "python=$bin_dir/python"
} >> "${GITHUB_OUTPUT:-/dev/null}"
