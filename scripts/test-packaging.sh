#!/usr/bin/env bash
# The packaging tier: what users install and deploy, each built and run
# as they would: the Kubernetes manifests, a fleet of `cup serve`
# desktops, the Python wheel in a fresh venv, the Ray example, the Node
# package, the API docs, the OCI image (both variants). Needs what
# scripts/test.sh installs (run it once on a machine).
set -euo pipefail
cd "$(dirname "$0")/.."

phase() { echo "== [packaging tier ${SECONDS}s] $*"; }
# shellcheck source=scripts/lint-env.sh
source scripts/lint-env.sh
phase "Kubernetes manifests (deploy/kubernetes: strict offline schema validation)"
scripts/validate-manifests.sh
# A fleet of cup serve desktops, each in its own network namespace, memory
# cgroup and /tmp, as an unprivileged user: start, isolation (tokens,
# namespaces, the X cookie, one session per desktop), parallel MCP clients,
# SIGTERM, nothing left. Small here; the figures are the bench's (N = 20,
# docs/benchmarks.md).
phase "fleet of cup serve desktops (4 desktops, network namespaces, as root)"
cargo build --locked -p cup-bench --bin fleet
if [ "$(id -u)" -eq 0 ]; then
    target/debug/fleet --n 4 --seconds 5 --cup target/debug/cup
else
    sudo target/debug/fleet --n 4 --seconds 5 --cup target/debug/cup
fi
# The Python package: the wheel in a fresh venv, its pytest suite, and the
# reference SDK's own suite run against it.
phase "Python package (wheel, fresh venv, pytest, the reference SDK's suite)"
scripts/python-tests.sh
# Ray: a local cluster whose actors each own a cup serve desktop and run
# episodes on it through the Python package (examples/ray): 4 actors x 5
# episodes, isolation checks, every server exits 0, no Ray process left.
phase "Ray example (4 actors, each with its own cup serve desktop)"
scripts/ray-example.sh target/debug/cup
# The Node package: built, its live tests on the sandbox desktop and
# headless Chromium, a JavaScript adapter, the types under tsc --strict,
# and the packed tarballs in a fresh folder (require, import, npx cup-rs
# mcp with the official MCP client).
phase "Node package (addon, node --test, tsc --strict, npm pack in a fresh folder)"
scripts/node-tests.sh
# The API docs build without a warning (broken or private links). The
# binary is documented apart: its name is the facade library's.
phase "cargo doc (rustdoc warnings are errors)"
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --exclude cup-cli --no-deps --locked
RUSTDOCFLAGS="-D warnings" cargo doc -p cup-cli --bin cup --no-deps --locked
# cup's OCI image without a registry: a Debian 12 root made once and reused
# (like the Wine root), the release cup on top; inspected, run with runc
# (read-only root, tmpfs /tmp, uid 1000), driven by the MCP client, stopped
# with SIGTERM.
phase "OCI image, both variants (scripts/image.sh build, deploy/image/test.sh)"
cargo build --release --locked -p cup-cli
for variant in "" --chromium; do
    if [ "$(id -u)" -eq 0 ]; then
        deploy/image/test.sh $variant
    else
        sudo deploy/image/test.sh $variant
    fi
done
echo "== packaging tier passed in ${SECONDS}s"
