#!/usr/bin/env bash
# cup's OCI image, tested here without a registry (scripts/test.sh runs it;
# as root):
#
#   deploy/image/test.sh [--chromium]
#
#   1. builds the image with scripts/image.sh (the Debian root is made once
#      and reused; the cup layer is target/release/cup, or $CUP_BINARY);
#   2. inspects it (skopeo) and requires the entrypoint, cmd, user 1000:1000,
#      stop signal SIGTERM, port 8765/tcp, working dir, HOME under /tmp and
#      the OCI labels; the bare image must be <= 250 MB compressed;
#   3. runs it with runc: read-only root, tmpfs on /tmp only, port 8765 on a
#      free loopback port; waits (with a deadline) until it is ready; checks
#      every process runs as uid 1000 and the root is read-only; drives it
#      with the official MCP client (target/mcp-client: snapshot, toggle a
#      check button of gtk3-widget-factory -> confirmed, screenshot; with
#      --chromium a page in Chromium); a wrong token gets 401; cup is PID 1
#      and reaps an orphan handed to it;
#   4. runs it again with a writable root and the same work: `podman diff`
#      must show nothing written outside /tmp (only /etc, where the runtime
#      mounts hosts, hostname and resolv.conf);
#   5. stops it with SIGTERM (`podman stop -t 10`): it must exit 0 before the
#      10 s are up, its processes must be gone, and the container removed.
#
# Missing tools fail the test with a line naming what to install.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REPO"

variant=bare
variant_flag=()
if [ "${1:-}" = --chromium ]; then
    variant=chromium
    variant_flag=(--chromium)
elif [ -n "${1:-}" ]; then
    echo "usage: deploy/image/test.sh [--chromium]" >&2
    exit 2
fi

CUP_BIN="${CUP_BINARY:-$REPO/target/release/cup}"
PYTHON="${CUP_MCP_CLIENT_VENV:-$REPO/target/mcp-client}/bin/python"
ARCHIVE="$REPO/target/image/cup-$variant.oci.tar"
MAX_COMPRESSED=250000000
READY_DEADLINE=120
NAME="cup-image-test-$$"
TOKEN="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
PAGE_TEXT="cup image test page"
PAGE_URL="data:text/html,%3Ctitle%3Ecup%20image%20test%3C/title%3E%3Cbutton%3Ecup%20image%20test%20page%3C/button%3E"

say() { echo "image test: $*"; }
fail() { echo "image test: FAIL: $*" >&2; exit 1; }
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# ---------------------------------------------------------------- preflight

[ "$(id -u)" -eq 0 ] || fail "must run as root (debootstrap, chroot, rootful podman); try: sudo $0"
missing=()
for tool in debootstrap umoci jq strip skopeo podman runc curl; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$([ "$tool" = strip ] && echo binutils || echo "$tool")")
done
[ "${#missing[@]}" -eq 0 ] \
    || fail "missing ${missing[*]}; install: apt-get install --no-install-recommends ${missing[*]}"
[ -x "$CUP_BIN" ] || fail "no cup binary at $CUP_BIN; build it: flock /tmp/cargo.lock cargo build --release -p cup-cli"
[ -x "$PYTHON" ] || fail "no MCP client at $PYTHON; install it: scripts/install-mcp-client.sh"
"$CUP_BIN" serve --help >/dev/null 2>&1 || fail "$CUP_BIN has no \`serve\` command; rebuild it: cargo build --release -p cup-cli"

cleanup() {
    local c
    for c in "$NAME" "$NAME-rw"; do
        if podman container exists "$c" 2>/dev/null; then
            podman rm --force --time 0 "$c" >/dev/null 2>&1 || true
        fi
    done
}
trap cleanup EXIT

# ---------------------------------------------------------------- 1. build

t="$EPOCHREALTIME"
scripts/image.sh build "${variant_flag[@]}" --cup "$CUP_BIN"
say "build: $(elapsed "$t") s"

# ---------------------------------------------------------------- 2. inspect

scripts/image.sh inspect "${variant_flag[@]}"
config="$(skopeo inspect --config "oci-archive:$ARCHIVE" | jq -c .config)"
version="$("$CUP_BIN" --version | awk '{ print $2 }')"
expect() { # expect WHAT JQ-FILTER VALUE(JSON)
    local got
    got="$(jq -c "$2" <<<"$config")"
    [ "$got" = "$3" ] || fail "$1 is $got, not $3"
    say "ok: $1 $got"
}
expect entrypoint '.Entrypoint' '["/usr/local/bin/cup","serve"]'
expect cmd '.Cmd' '["--listen","0.0.0.0:8765"]'
expect user '.User' '"1000:1000"'
expect "stop signal" '.StopSignal' '"SIGTERM"'
expect ports '.ExposedPorts | keys' '["8765/tcp"]'
expect "working dir" '.WorkingDir' '"/home/cup"'
expect HOME '.Env | map(select(startswith("HOME="))) | .[0]' '"HOME=/tmp/home"'
expect "volumes (none: the image needs only a tmpfs on /tmp)" '.Volumes' 'null'
expect "label licenses" '.Labels["org.opencontainers.image.licenses"]' '"MIT OR Apache-2.0"'
expect "label version" '.Labels["org.opencontainers.image.version"]' "\"$version\""
expect "label title" '.Labels["org.opencontainers.image.title"]' '"cup"'
for label in description source revision; do
    expect "label $label present" ".Labels[\"org.opencontainers.image.$label\"] | type" '"string"'
done

size="$(stat -c %s "$ARCHIVE")"
say "compressed size (the archive; its layers are gzip): $size bytes ($(awk -v n="$size" 'BEGIN { printf "%.1f", n / 1e6 }') MB)"
if [ "$variant" = bare ]; then
    [ "$size" -le "$MAX_COMPRESSED" ] || fail "the bare image is $size bytes compressed, over $MAX_COMPRESSED"
    say "ok: <= $MAX_COMPRESSED bytes"
fi

# ---------------------------------------------------------------- 3. run

# start_container NAME [--writable-root]: runs the image detached.
start_container() {
    local name="$1"
    shift
    local run=(scripts/image.sh run "${variant_flag[@]}" --detach --name "$name" --port 0 "$@")
    if [ "$variant" = chromium ]; then
        run+=(-- --listen 0.0.0.0:8765 --browser "$PAGE_URL")
    else
        run+=(-- --listen 0.0.0.0:8765 --app gtk3-widget-factory)
    fi
    CUP_MCP_TOKEN="$TOKEN" "${run[@]}" >/dev/null
}

logs_and_fail() {
    echo "---- podman logs $1" >&2
    podman logs --tail 40 "$1" >&2 2>&1 || true
    fail "$2"
}

# wait_ready NAME: until the container's desktop and MCP answer (deadline
# READY_DEADLINE s); sets ADDR (127.0.0.1:PORT).
wait_ready() {
    local name="$1" t="$EPOCHREALTIME" deadline=$((SECONDS + READY_DEADLINE))
    ADDR="$(podman port "$name" 8765/tcp)"
    [ -n "$ADDR" ] || logs_and_fail "$name" "port 8765 is not published"
    while :; do
        [ "$(podman inspect --format '{{.State.Running}}' "$name")" = true ] \
            || logs_and_fail "$name" "the container ended before it was ready"
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$ADDR/readyz")" = 200 ] && break
        [ "$SECONDS" -lt "$deadline" ] || logs_and_fail "$name" "not ready within $READY_DEADLINE s"
        sleep 0.2
    done
    say "ok: $name ready in $(elapsed "$t") s (from podman run returning) on $ADDR"
}

mcp_check() {
    local args=("http://$ADDR/mcp" "$TOKEN")
    if [ "$variant" = chromium ]; then args+=(--expect "$PAGE_TEXT"); else args+=(--app); fi
    "$PYTHON" deploy/image/mcp_check.py "${args[@]}" 2> >(grep -v '^Session termination failed' >&2) \
        || logs_and_fail "$1" "the MCP client failed"
}

t="$EPOCHREALTIME"
start_container "$NAME"
say "started $NAME (read-only root, tmpfs /tmp) in $(elapsed "$t") s"
wait_ready "$NAME"

[ "$(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$NAME")" = true ] || fail "the root is not read-only"
if podman exec "$NAME" sh -c 'touch /usr/local/bin/probe' 2>/dev/null; then
    fail "the root is writable"
fi
say "ok: read-only root (a write to /usr/local/bin fails)"
users="$(podman top "$NAME" user | tail -n +2 | sort -u | tr '\n' ' ')"
[ "$users" = "cup " ] || fail "processes run as: $users(want only cup, uid 1000)"
[ "$(podman exec "$NAME" id -u)" = 1000 ] || fail "podman exec runs as $(podman exec "$NAME" id -u), not 1000"
say "ok: every process runs as cup (uid 1000): $(podman top "$NAME" pid comm | tail -n +2 | awk '{ printf "%s ", $2 }')"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Authorization: Bearer wrong-token-123' "http://$ADDR/mcp")" = 401 ] \
    || fail "a wrong token was not refused with 401"
say "ok: a wrong token gets 401"
# cup serve is the container's PID 1: an orphan handed to it is reaped.
# (A process started by `podman exec` that outlives its parent is
# reparented to PID 1; here a sleep of 2 s.)
[ "$(podman exec "$NAME" cat /proc/1/comm)" = cup ] || fail "PID 1 is not cup"
podman exec "$NAME" sh -c 'sleep 2 >/dev/null 2>&1 & echo $! > /tmp/orphan'
orphan="$(podman exec "$NAME" cat /tmp/orphan)"
parent="$(podman exec "$NAME" awk '{ print $4 }' "/proc/$orphan/stat")"
[ "$parent" = 1 ] || fail "the orphan's parent is $parent, not PID 1 (cup): the check below would prove nothing"
for _ in $(seq 70); do
    podman exec "$NAME" test -e "/proc/$orphan" || break
    sleep 0.1
done
! podman exec "$NAME" test -e "/proc/$orphan" \
    || fail "the orphan (pid $orphan in the container) was not reaped: $(podman exec "$NAME" cat "/proc/$orphan/stat" 2>/dev/null)"
say "ok: cup is PID 1 and reaps the orphans handed to it"
[ "$(curl -s "http://$ADDR/healthz")" = ok ] || fail "GET /healthz did not answer ok"
curl -sf "http://$ADDR/metrics" | grep -q '^cup_ready 1$' || fail "GET /metrics does not say cup_ready 1"
say "ok: /healthz, /readyz, /metrics"
t="$EPOCHREALTIME"
# Assigned first: a failure inside "$( )" of an argument ends only that
# subshell, and `say` would print it and go on.
mcp_said="$(mcp_check "$NAME")" || fail "the MCP client failed on $NAME (its logs above)"
say "MCP client: $mcp_said"
say "ok: driven by the MCP client in $(elapsed "$t") s"

# ---------------------------------------------------------------- 4. nothing written to the root

t="$EPOCHREALTIME"
start_container "$NAME-rw" --writable-root
wait_ready "$NAME-rw"
mcp_check "$NAME-rw" >/dev/null
written="$(podman diff "$NAME-rw" | grep -v -x 'C /etc' || true)"
[ -z "$written" ] || fail "written to the root (outside /tmp): $(tr '\n' ' ' <<<"$written")"
podman rm --force --time 0 "$NAME-rw" >/dev/null
say "ok: nothing written to the root by the same run with a writable root (podman diff: only /etc's mount points) in $(elapsed "$t") s"

# ---------------------------------------------------------------- 5. SIGTERM

read -r conmon pid < <(podman inspect --format '{{.State.ConmonPid}} {{.State.Pid}}' "$NAME")
t="$EPOCHREALTIME"
podman stop --time 10 "$NAME" >/dev/null
took="$(elapsed "$t")"
code="$(podman inspect --format '{{.State.ExitCode}}' "$NAME")"
[ "$code" = 0 ] || logs_and_fail "$NAME" "exit status $code after SIGTERM (137: killed after the 10 s)"
awk -v s="$took" 'BEGIN { exit !(s < 10) }' || fail "stopping took $took s (the grace period is 10 s)"
say "ok: SIGTERM -> exit 0 in $took s"
podman rm "$NAME" >/dev/null
# The container's first process and its conmon (which writes the exit
# status, then ends on its own): gone within a few seconds.
for p in "$pid" "$conmon"; do
    [ -n "$p" ] && [ "$p" != 0 ] || continue
    for _ in $(seq 50); do
        kill -0 "$p" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$p" 2>/dev/null; then
        fail "process $p ($(ps -o comm= -p "$p")) of the container is still running 5 s after it stopped"
    fi
done
[ -z "$(podman ps --all --filter "name=^$NAME\$" --format '{{.ID}}')" ] || fail "container $NAME is still there"
say "ok: its processes are gone and the container is removed"
say "PASS ($variant, $(awk -v n="$size" 'BEGIN { printf "%.1f", n / 1e6 }') MB compressed) in $SECONDS s"
