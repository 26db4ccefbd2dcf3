#!/bin/bash
# Side-by-side capture timing of several cup binaries (e.g. before/after a
# change) on one private desktop, alternating runs, from the capture's own
# debug log (structure + details phases; process start-up left out).
#
#   bench/capture-ab.sh [--cold] [--runs N] APP -- CUP_BINARY...
#   bench/capture-ab.sh --runs 7 gtk4-demo -- /tmp/cup-before target/release/cup
#
# --cold relaunches APP before every capture (its first capture, when the
# toolkit has not created its accessibles yet). Prints min and median per
# binary. Needs what the tests need (scripts/install-deps.sh).
set -euo pipefail
cold=0 runs=7
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --cold) cold=1; shift ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "unknown option $1; usage: $0 [--cold] [--runs N] APP -- CUP_BINARY..." >&2; exit 2 ;;
  esac
done
[[ $# -ge 3 && $2 == -- ]] || { echo "usage: $0 [--cold] [--runs N] APP -- CUP_BINARY..." >&2; exit 2; }
app=$1; shift 2
bins=("$@")
cup=${bins[-1]}
state=$(mktemp -u /tmp/cup-ab-XXXXXX.json)
export CUP_SANDBOX_STATE=$state
eval "$("$cup" sandbox start)"
trap '"$cup" sandbox stop >/dev/null 2>&1 || true' EXIT
launch() { "$cup" sandbox run -- "$app" >/dev/null; }
launch
declare -A times
for ((i = 1; i <= runs; i++)); do
  for b in "${bins[@]}"; do
    if ((cold)); then pkill -x "$(basename "$app")" || true; sleep 0.5; launch; fi
    line=$(CUP_LOG=cup_atspi::capture=debug "$b" snapshot --scope foreground 2>&1 >/dev/null |
      sed 's/\x1b\[[0-9;]*m//g' | grep "capture phases" || true)
    ms=$(grep -oE '(structure|details)_ms=[0-9.]+' <<<"$line" | cut -d= -f2 | awk '{s += $1} END {if (NR) printf "%.1f", s}')
    calls=$(grep -oE 'reads=[0-9]+' <<<"$line" | cut -d= -f2)
    echo "$b: run $i: ${ms:-?} ms, ${calls:-?} queued reads" >&2
    times[$b]+="${ms:-} "
  done
done
for b in "${bins[@]}"; do
  tr ' ' '\n' <<<"${times[$b]}" | grep . | sort -n |
    awk -v b="$b" '{a[NR] = $1} END {printf "%s: min %.1f ms, median %.1f ms (%d runs)\n", b, a[1], a[int((NR + 1) / 2)], NR}'
done
