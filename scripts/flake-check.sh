#!/usr/bin/env bash
# Runs the whole suite N times (default 5) from a clean build folder and lists every test that failed in any run.
#
#   scripts/flake-check.sh [N] [extra swift test arguments…]
#
# It clones the committed HEAD into a fresh folder (so edits made meanwhile change nothing), builds it once from
# nothing, then runs `swift test --skip-build` N times in a row, each run's output kept in the report folder it
# prints. It exits non-zero when any run failed. Run it on the machine CI uses (2 cores) and, for a harder check,
# while something else keeps the cores busy.
set -uo pipefail
runs=${1:-5}
shift || true
cd "$(dirname "$0")/.."
work=${FLAKE_WORK:-${TMPDIR:-/tmp}/partyline-flake-work}
report=$(mktemp -d "${TMPDIR:-/tmp}/partyline-flake-XXXXXX")
rm -rf "$work"
git clone -q . "$work/src" || exit 2
cd "$work/src" || exit 2
scratch="$work/build"
echo "flake-check: $(git log --oneline -1) built from nothing in $scratch (reports in $report)"
if ! swift build --build-tests --scratch-path "$scratch" >"$report/build.log" 2>&1; then
  tail -30 "$report/build.log"
  echo "flake-check: the build failed"
  exit 2
fi
failed_runs=0
for run in $(seq 1 "$runs"); do
  started=$(date +%s)
  swift test --skip-build --scratch-path "$scratch" "$@" >"$report/run-$run.log" 2>&1
  status=$?
  summary=$(grep -E 'Test run with [0-9]+ tests' "$report/run-$run.log" | tail -1)
  echo "run $run/$runs: exit $status in $(($(date +%s) - started)) s — ${summary:-no summary line}"
  if [ "$status" -ne 0 ]; then
    failed_runs=$((failed_runs + 1))
    grep -E '^✘ Test .*\) failed after|^✘ Test .*recorded an issue' "$report/run-$run.log" | sed 's/^/    /' | head -20
  fi
done
echo
failures=$(cat "$report"/run-*.log | grep -Eo '^✘ Test [^(]+\(\)' | sort | uniq -c | sort -rn)
if [ -z "$failures" ] && [ "$failed_runs" -eq 0 ]; then
  echo "flake-check: $runs of $runs runs green; no test failed in any run."
  exit 0
fi
echo "flake-check: $failed_runs of $runs runs failed. Tests that failed, with how many runs they failed in:"
echo "${failures:-    (no failing test named: see the logs)}"
exit 1
