#!/usr/bin/env bash
# Validates deploy/kubernetes offline, without a cluster:
#   - every manifest file, and every document kustomize renders from each
#     kustomization (the venv's pinned `kubectl kustomize`), strictly:
#     built-in kinds with `kubernetes-validate --strict -k VERSION` (an
#     unknown field, or a kind it has no schema for, fails), agent-sandbox
#     custom resources with deploy/kubernetes/validate_crs.py against the
#     vendored CRDs' openAPIV3Schema (unknown fields fail);
#   - the vendored CRDs: checksums, and validity as CustomResourceDefinitions;
#   - negative checks: copies with a misspelt field must fail each validator,
#     so that a validator that passes everything is caught.
# Kubernetes versions: $K8S_VERSIONS (default "1.32.0 1.29.0": the version
# named in the guide, and the first with native sidecars on by default).
# Tools: a venv at target/k8s-validate (or $CUP_K8S_VALIDATE_VENV) with the
# pins of deploy/kubernetes/requirements-validate.txt, made once and reused.
# Prints one line per file and document, the total time, and on failure
# exits 1 with a one-line reason.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DEPLOY=deploy/kubernetes
CRDS="$DEPLOY/crds/agent-sandbox-v0.5.6"
REQS="$DEPLOY/requirements-validate.txt"
VENV="${CUP_K8S_VALIDATE_VENV:-target/k8s-validate}"
K8S_VERSIONS="${K8S_VERSIONS:-1.32.0 1.29.0}"
START_NS=$(date +%s%N)

fail() {
    echo "validate-manifests: FAILED: $*" >&2
    exit 1
}
elapsed() {
    local ms=$((($(date +%s%N) - START_NS) / 1000000))
    printf '%d.%01d s' $((ms / 1000)) $((ms % 1000 / 100))
}

# --- tools ------------------------------------------------------------------
PY=/usr/bin/python3
[[ -x $PY ]] || PY="$(command -v python3 || true)"
[[ -n $PY ]] || fail "python3 not found"
stamp="$VENV/.requirements.sha256"
want="$(sha256sum "$REQS" | cut -d' ' -f1)"
if [[ -x "$VENV/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    echo "venv: $VENV (reused)"
else
    "$PY" -c 'import ensurepip' 2>/dev/null ||
        fail "python3-venv missing (apt-get install python3-venv)"
    echo "venv: creating $VENV from $REQS"
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQS" ||
        fail "pip install -r $REQS"
    echo "$want" >"$stamp"
fi
KV="$VENV/bin/kubernetes-validate"
CRS=("$VENV/bin/python" "$DEPLOY/validate_crs.py" --crds "$CRDS")
echo "tools: kubernetes-validate $("$KV" --version), jsonschema $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("jsonschema"))'), Kubernetes $K8S_VERSIONS"

WORK="$VENV/run"
rm -rf "$WORK"
mkdir -p "$WORK/rendered" "$WORK/builtin" "$WORK/negative"

# kv_check LOG FILE...: kubernetes-validate, strict, for every version. It
# only warns (exit 0) for a kind it has no schema for, so any line that is
# not "INFO ... passed" counts as a failure too.
kv_check() {
    local log=$1 v rc=0
    shift
    : >"$log"
    for v in $K8S_VERSIONS; do
        "$KV" --strict -k "$v" "$@" >>"$log" 2>&1 || rc=1
    done
    grep -qv '^INFO .* passed for resource ' "$log" && rc=1
    return $rc
}

# --- inputs -----------------------------------------------------------------
stray="$(find "$DEPLOY" -name '*.yml' -o -name '*.json' | head -1)"
[[ -z $stray ]] || fail "$stray: manifests are *.yaml here (this one would not be validated)"
mapfile -t files < <(find "$DEPLOY" -name '*.yaml' ! -name kustomization.yaml \
    ! -path "$CRDS/*" | sort)
((${#files[@]})) || fail "no manifest under $DEPLOY"

# The pinned kubectl of the venv, not whatever is on PATH: the same
# renderer on every machine, and never a phase that skips rendering.
render=("$VENV/bin/kubectl" kustomize)
[[ -x ${render[0]} ]] || fail "${render[0]} missing: remove $VENV and run again (it comes from $REQS)"
echo "render: kubectl kustomize ($("${render[0]}" version --client 2>/dev/null | grep -m1 Kustomize || echo 'version unknown'))"
rendered=()
mapfile -t kdirs < <(find "$DEPLOY" -name kustomization.yaml -printf '%h\n' | sort)
for dir in "${kdirs[@]}"; do
    # A Component is only built as part of a kustomization that uses it.
    grep -q '^kind: Component' "$dir/kustomization.yaml" && continue
    out="$WORK/rendered/$(echo "${dir#"$DEPLOY"/}" | tr / _).yaml"
    if ! "${render[@]}" "$dir" >"$out" 2>"$out.err"; then
        cat "$out.err" >&2
        fail "${render[*]} $dir: $(head -c 300 "$out.err" | tr '\n' ' ')"
    fi
    echo "RENDER $dir -> $out ($(grep -c '^kind:' "$out") documents)"
    rendered+=("$out")
done
((${#rendered[@]})) || fail "no kustomization rendered under $DEPLOY"

# --- vendored CRDs ------------------------------------------------------------
(cd "$CRDS" && sha256sum --quiet -c SHA256SUMS) ||
    fail "$CRDS: a vendored CRD differs from SHA256SUMS (see its README.md)"
echo "PASS $CRDS: SHA256SUMS"
if kv_check "$WORK/crds.log" "$CRDS"/*.yaml; then
    sed 's/^/  /' "$WORK/crds.log"
else
    cat "$WORK/crds.log"
    fail "the vendored CRDs are not valid CustomResourceDefinitions"
fi

# --- custom resources: strict against the CRDs --------------------------------
if ! "${CRS[@]}" --builtin-list "$WORK/builtin.list" --builtin-dir "$WORK/builtin" \
    "${files[@]}" "${rendered[@]}" | tee "$WORK/crs.log"; then
    fail "agent-sandbox resources: $(awk '/^FAIL/ { l = $0; if ((getline n) > 0 && n ~ /^    /) l = l n; print l; exit }' "$WORK/crs.log" | tr -s ' ')"
fi

# --- built-in kinds: kubernetes-validate --strict -----------------------------
mapfile -t builtin <"$WORK/builtin.list"
((${#builtin[@]})) || fail "no built-in manifest found (the split went wrong)"
if kv_check "$WORK/builtin.log" "${builtin[@]}"; then
    cat "$WORK/builtin.log"
else
    cat "$WORK/builtin.log"
    fail "built-in kinds: $(grep -m1 -v '^INFO .* passed for resource ' "$WORK/builtin.log")"
fi

# --- negative checks ------------------------------------------------------------
# mutate SRC DST SED-EXPR: a copy with one change, which must differ.
mutate() {
    sed "$3" "$1" >"$2"
    ! cmp -s "$1" "$2" || fail "negative check: '$3' changed nothing in $1"
}
neg="$WORK/negative"
mutate "$DEPLOY/base/job/job.yaml" "$neg/job-misspelt.yaml" '0,/periodSeconds:/s//periodSecs:/'
if kv_check "$neg/job.log" "$neg/job-misspelt.yaml"; then
    fail "negative check: kubernetes-validate passed a Job with a misspelt field (periodSecs)"
fi
grep -q "'periodSecs' was unexpected" "$neg/job.log" ||
    fail "negative check: kubernetes-validate failed the misspelt Job for another reason: $(head -1 "$neg/job.log")"
echo "PASS negative: $(grep -m1 periodSecs "$neg/job.log" | sed 's/^ERROR //')"

mutate "$DEPLOY/policies/episode-networkpolicy.yaml" "$neg/unknown-kind.yaml" 's/^kind: NetworkPolicy$/kind: NetworkPolicyy/'
if kv_check "$neg/kind.log" "$neg/unknown-kind.yaml"; then
    fail "negative check: a kind without a schema (NetworkPolicyy) passed"
fi
echo "PASS negative: a kind without a schema fails: $(head -1 "$neg/kind.log")"

mutate "$DEPLOY/base/sandbox/sandbox-template.yaml" "$neg/template-misspelt.yaml" 's/readOnlyRootFilesystem:/readOnlyRootFileSystem:/'
mutate "$DEPLOY/base/sandbox/warm-pool.yaml" "$neg/pool-misspelt.yaml" 's/^  replicas:/  replica:/'
for f in template pool; do
    if "${CRS[@]}" "$neg/$f-misspelt.yaml" >"$neg/$f.log" 2>&1; then
        fail "negative check: validate_crs.py passed $neg/$f-misspelt.yaml"
    fi
    grep -q "'readOnlyRootFileSystem' was unexpected\|'replica' was unexpected" "$neg/$f.log" ||
        fail "negative check: validate_crs.py failed $f-misspelt.yaml for another reason: $(tail -1 "$neg/$f.log")"
    echo "PASS negative: $(tail -1 "$neg/$f.log" | sed 's/^ *//')"
done

# A kustomization naming a resource that is not there must fail to render.
broken="$neg/broken-kustomization"
cp -r "$DEPLOY/base/job" "$broken"
mutate "$DEPLOY/base/job/kustomization.yaml" "$broken/kustomization.yaml" 's/^  - job.yaml$/  - job.yaml\n  - no-such-file.yaml/'
if "${render[@]}" "$broken" >"$neg/render.out" 2>"$neg/render.log"; then
    fail "negative check: kubectl kustomize rendered a kustomization naming a missing file"
fi
grep -q "no-such-file.yaml" "$neg/render.log" ||
    fail "negative check: the broken kustomization failed for another reason: $(head -1 "$neg/render.log")"
echo "PASS negative: a kustomization naming a missing file does not render: $(grep -m1 -o '[^:]*no-such-file.yaml[^:]*' "$neg/render.log" | head -1)"

echo "validate-manifests: ${#files[@]} files and ${#rendered[@]} renders valid for Kubernetes $K8S_VERSIONS and agent-sandbox v0.5.6 CRDs; 5 negative checks failed as they must ($(elapsed))"
