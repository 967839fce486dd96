# Shared set-up of the command-line tests: the binary and the source root from the arguments, a
# scratch directory removed on exit, and fail(), which counts a failed check and goes on, so one
# run reports every broken check. Source it; finish with cli_finish NAME.
set -u
bin=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
cli_finish() {
  [ "$failures" -eq 0 ] || exit 1
  echo "$1: all checks passed"
}
