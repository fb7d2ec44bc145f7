#!/usr/bin/env bash
# The action's second step: lint, annotate, write SARIF and the job summary.
#
#   STANDARDS_LINT_BIN     the standards-lint script (default: on PATH)
#   STANDARDS_LINT_PYTHON  a Python to split INPUT_ARGS with (default: python3)
#   GITHUB_WORKSPACE       where INPUT_PATH and INPUT_SARIF_FILE are relative to
#   INPUT_PATH             the project (default: .)
#   INPUT_ARGS             more options, split as a shell would
#   INPUT_SARIF_FILE       where to write SARIF (empty: none)
#   INPUT_SINCE            a commit: also `standards-lint history --since` it
#                          (annotations; its story to the job summary)
#   INPUT_SUMMARY          true: `standards-lint status --format markdown` to
#                          $GITHUB_STEP_SUMMARY
# Writes `exit-code=` and `sarif-file=` to $GITHUB_OUTPUT and exits with the
# status of the lint: 0 no error, 1 errors found, 2 a usage or internal error.
set -uo pipefail

sl="${STANDARDS_LINT_BIN:-standards-lint}"
py="${STANDARDS_LINT_PYTHON:-python3}"
path="${INPUT_PATH:-.}"
sarif="${INPUT_SARIF_FILE:-}"
summary="${INPUT_SUMMARY:-true}"
output="${GITHUB_OUTPUT:-/dev/null}"

if [ -n "${GITHUB_WORKSPACE:-}" ]; then
  cd "$GITHUB_WORKSPACE" || exit 2
fi

# INPUT_ARGS split as a shell would (quotes kept together), NUL-separated.
split_args='import shlex, sys; sys.stdout.write("".join(a + "\0" for a in shlex.split(sys.argv[1])))'
args=()
if [ -n "${INPUT_ARGS:-}" ]; then
  if ! "$py" -c "$split_args" "$INPUT_ARGS" > /dev/null; then
    echo "::error title=standards-lint::cannot split the args input: ${INPUT_ARGS}"
    exit 2
  fi
  while IFS= read -r -d '' a; do
    args+=("$a")
  done < <("$py" -c "$split_args" "$INPUT_ARGS")
fi

status=0
if [ -n "$sarif" ]; then
  mkdir -p "$(dirname "$sarif")"
  "$sl" "$path" ${args[@]+"${args[@]}"} --format sarif > "$sarif"
  code=$?
  if [ "$code" -gt 1 ]; then
    echo "::error title=standards-lint::standards-lint exited $code writing $sarif"
    echo "exit-code=$code" >> "$output"
    exit "$code"
  fi
  echo "sarif-file=$sarif" >> "$output"
  echo "Wrote $sarif"
else
  echo "sarif-file=" >> "$output"
fi

# Annotations on the diff (workflow commands on stdout).
"$sl" "$path" ${args[@]+"${args[@]}"} --format github
status=$?

# The moves since a commit (a pull request's base): annotations, and the
# story in the job summary.  The step fails when either check has an error.
since="${INPUT_SINCE:-}"
if [ -n "$since" ]; then
  "$sl" history "$path" --since "$since" --format github
  hstatus=$?
  if [ "$hstatus" -gt "$status" ]; then
    status=$hstatus
  fi
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ "$hstatus" -le 1 ]; then
    "$sl" history "$path" --since "$since" --format markdown >> "$GITHUB_STEP_SUMMARY" 2>/dev/null
  fi
fi
echo "exit-code=$status" >> "$output"

case "$summary" in
  true|True|TRUE|yes|1)
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
      if status_md="$("$sl" status "$path" --format markdown 2>/dev/null)" && [ -n "$status_md" ]; then
        printf '%s\n' "$status_md" >> "$GITHUB_STEP_SUMMARY"
      else
        echo "::warning title=standards-lint::\`standards-lint status\` is not available in this version; no job summary"
      fi
    fi
    ;;
esac

if [ "$status" -gt 1 ]; then
  echo "::error title=standards-lint::standards-lint exited $status (a usage or internal error; see above)"
fi
exit "$status"
