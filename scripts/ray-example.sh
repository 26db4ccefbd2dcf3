#!/usr/bin/env bash
# The Ray example (examples/ray): a local Ray cluster whose actors each own
# one `cup serve` desktop and run episodes on it through the Python package.
# Usage: scripts/ray-example.sh [CUP_BINARY]   (default target/debug/cup)
#   RAY_EXAMPLE_ACTORS / RAY_EXAMPLE_EPISODES: defaults 4 and 5.
# Makes the venv target/ray-venv once (pinned Ray) and reuses it; installs
# the cup-rs wheel (target/wheels; built if missing) into it on each run;
# runs examples/ray/rollouts.py; checks that no process of the Ray session
# is left (ending any leftover by its own pid). Needs python3 with venv,
# gtk3-widget-factory (scripts/install-deps.sh), the package index once.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RAY_PIN=ray==2.60.0
VENV="$ROOT/target/ray-venv"
CUP_BIN="${1:-target/debug/cup}"
ACTORS="${RAY_EXAMPLE_ACTORS:-4}"
EPISODES="${RAY_EXAMPLE_EPISODES:-5}"
PY=/usr/bin/python3
[[ -x "$PY" ]] || PY="$(command -v python3 || true)"

fail() { echo "ray-example: $*" >&2; exit 1; }
phase_start=$SECONDS
phase() {
    echo "ray-example: [$((SECONDS - phase_start))s] $*"
}

[[ -n "$PY" ]] || fail "no python3; install python3 and python3-venv (scripts/install-deps.sh)"
"$PY" -c 'import ensurepip, venv' 2>/dev/null \
    || fail "$PY has no venv module; run scripts/install-deps.sh (or apt-get install python3-venv)"
[[ -x "$CUP_BIN" ]] || fail "no cup binary at $CUP_BIN; build it (cargo build -p cup-cli) or give its path"
command -v gtk3-widget-factory >/dev/null \
    || fail "gtk3-widget-factory missing; run scripts/install-deps.sh (Debian package gtk-3-examples)"
for tool in Xvfb dbus-daemon; do
    command -v "$tool" >/dev/null || fail "$tool missing; run scripts/install-deps.sh"
done

phase "venv $VENV ($RAY_PIN)"
t=$SECONDS
if ! "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("ray") != "2.60.0")' 2>/dev/null; then
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "$RAY_PIN" \
        || fail "pip could not install $RAY_PIN into $VENV (is the package index reachable?)"
    echo "ray-example: installed $RAY_PIN in $((SECONDS - t))s, venv $(du -sh "$VENV" | cut -f1)"
else
    echo "ray-example: reusing the venv ($RAY_PIN, $(du -sh "$VENV" | cut -f1))"
fi

phase "the cup-rs wheel"
shopt -s nullglob
wheels=(target/wheels/cup_rs-*.whl)
if ((${#wheels[@]} == 0)); then
    echo "ray-example: no wheel in target/wheels; building it (bindings/python/build-wheel.sh)"
    bindings/python/build-wheel.sh
    wheels=(target/wheels/cup_rs-*.whl)
fi
((${#wheels[@]} == 1)) || fail "expected one cup_rs wheel in target/wheels, found ${#wheels[@]}"
"$VENV/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps "${wheels[0]}" \
    || fail "pip could not install ${wheels[0]} into $VENV"
"$VENV/bin/python" -c 'import cup, ray' || fail "import cup, ray failed in $VENV"

phase "rollouts: $ACTORS actors x $EPISODES episodes ($CUP_BIN)"
pids_file="$(mktemp /tmp/ray-example-pids.XXXXXX)"
trap 'rm -f "$pids_file"' EXIT
status=0
"$VENV/bin/python" examples/ray/rollouts.py --actors "$ACTORS" --episodes "$EPISODES" \
    --cup "$CUP_BIN" --pids-file "$pids_file" || status=$?

phase "processes left by the Ray session"
# The pids (with their start times, so a reused pid is not touched) that
# the driver recorded before ray.shutdown(); rollouts.py already waited
# for them. Only these are ended here, never Ray processes by name.
left=()
while read -r pid start; do
    [[ -r "/proc/$pid/stat" ]] || continue
    now="$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f20)"
    [[ "$now" == "$start" ]] && left+=("$pid")
done <"$pids_file"
if ((${#left[@]})); then
    echo "ray-example: ${#left[@]} process(es) of the Ray session still running: ${left[*]}; ending them" >&2
    kill -TERM "${left[@]}" 2>/dev/null || true
    sleep 2
    kill -KILL "${left[@]}" 2>/dev/null || true
    status=1
fi
# Anything of this venv's Ray (its GCS server, raylet, workers) by path.
if pgrep -f "$VENV/.*(gcs_server|raylet|default_worker)" >/dev/null; then
    echo "ray-example: Ray processes of $VENV still running: $(pgrep -f "$VENV/.*(gcs_server|raylet|default_worker)" | tr '\n' ' ')" >&2
    status=1
else
    echo "ray-example: no Ray process of $VENV left ($(wc -l <"$pids_file") recorded, all gone)"
fi

phase "done (exit $status)"
exit "$status"
