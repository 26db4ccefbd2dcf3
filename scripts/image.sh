#!/usr/bin/env bash
# cup's OCI image without a registry: a Debian 12 root from the package
# archive, cup on top, written as an OCI archive; then inspected or run.
# (deploy/image/Dockerfile is the same image for users with a registry.)
#
#   scripts/image.sh build   [--chromium] [--cup PATH] [--out DIR]
#   scripts/image.sh inspect [--chromium] [--out DIR]
#   scripts/image.sh run     [--chromium] [--out DIR] [--name NAME] [--port PORT]
#                            [--detach] [--entrypoint PROGRAM] [--writable-root] [-- ARGS...]
#
# build (as root) writes DIR/cup-VARIANT.oci.tar (DIR: target/image; VARIANT:
# bare, or chromium with --chromium) and prints each step's time and the
# archive's sizes. Its steps:
#   1. host tools: debootstrap, umoci, jq, strip (binutils); installed with
#      apt-get when missing.
#   2. the root, made once and reused: ROOT = $CUP_IMAGE_CACHE/image-rootfs-VARIANT
#      (CUP_IMAGE_CACHE: /var/lib/cup). `debootstrap --variant=minbase
#      bookworm` from the host's Debian mirror, then deploy/image/setup-root.sh
#      in a chroot (the packages of deploy/image/packages.txt, the user cup,
#      the clean-up), then the root as one gzip layer in an OCI layout
#      (ROOT.oci). The marker ROOT.complete holds the cache key: a hash of
#      packages.txt, setup-root.sh, the variant and SCRIPT_VERSION below. A
#      root whose marker is missing or holds another key is made again.
#      Concurrent builds of a variant wait for each other (flock ROOT.lock).
#   3. the cup layer, made on every build (cheap): the binary (--cup PATH, else
#      $CUP_BINARY, else target/release/cup; debug info stripped, symbols kept)
#      at /usr/local/bin/cup and the licence files at /usr/share/doc/cup/.
#   4. the image config, read from the last stage of deploy/image/Dockerfile
#      (ENV, LABEL, USER, WORKDIR, EXPOSE, STOPSIGNAL, ENTRYPOINT, CMD: one
#      source for both builds); its ARGs VARIANT, CUP_VERSION (from `cup
#      --version`), CUP_SOURCE and CUP_REVISION are filled in here.
#   5. the archive: DIR/cup-VARIANT.oci.tar: an OCI layout in a tar, its
#      manifest named cup:VARIANT (`podman load -i` makes localhost/cup:VARIANT;
#      `skopeo copy oci-archive:FILE DESTINATION` reads it too).
#
# inspect prints the archive's entrypoint, cmd, user, stop signal, ports,
# working dir, env and labels (skopeo inspect --config).
#
# run loads the archive into podman's storage as localhost/cup:VARIANT (when
# not loaded yet) and runs it with runc (crun fails on this kind of host:
# RLIMIT and cgroup v1 errors) as the image's user 1000:1000, with a
# read-only root and a tmpfs on /tmp only (--read-only-tmpfs=false: no other
# writable place), ulimits nproc/nofile 4096, a 256 MB /dev/shm, port 8765
# published on 127.0.0.1:PORT (default 8765; 0 = any free one, see `podman
# port NAME`). ARGS replace the image's CMD (the arguments of `cup serve`).
# CUP_MCP_TOKEN is passed from the environment; when unset, one is made and
# printed. Without --detach the container runs in the foreground and is
# removed when it ends (Ctrl-C stops it); with --detach it is kept after it
# ends so its exit status can be read (podman inspect), and its name is
# printed. --writable-root drops --read-only (the tmpfs /tmp stays): then
# `podman diff NAME` shows whatever was written to the root.
#
# Environment: CUP_BINARY, CUP_IMAGE_CACHE, CUP_DEBIAN_MIRROR and
# CUP_DEBIAN_SECURITY_MIRROR (default: the host's apt sources for bookworm
# and bookworm-security, read with `apt-get indextargets`), CUP_IMAGE_SOURCE
# (the source label; default: Cargo.toml's repository, else the git remote
# origin, else "unknown").
set -euo pipefail

# Bump to make every cached root again (a change of what step 2 does).
SCRIPT_VERSION=2
SUITE=bookworm

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
IMAGE_DIR="$REPO/deploy/image"
CACHE="${CUP_IMAGE_CACHE:-/var/lib/cup}"

say() { echo "image: $*"; }
die() { echo "image: $*" >&2; exit 1; }

# step NAME COMMAND...: runs COMMAND and prints how long it took.
step() {
    local name="$1" start="$EPOCHREALTIME"
    shift
    say "$name ..."
    "$@"
    say "$name: $(elapsed "$start") s"
}
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
mb() { awk -v n="$1" 'BEGIN { printf "%.1f MB", n / 1000000 }'; }

usage() {
    sed -n '/^#   scripts\/image.sh build/,/--writable-root/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    echo "(the comment at the top of scripts/image.sh says more)" >&2
    exit 2
}

# ---------------------------------------------------------------- host tools

# The Debian package of each host command this script uses.
package_of() {
    case "$1" in
        strip) echo binutils ;;
        *) echo "$1" ;;
    esac
}

# need COMMAND...: installs the missing ones with apt-get when root, else
# fails naming them.
need() {
    local missing=() c
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || missing+=("$(package_of "$c")")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        die "missing ${missing[*]}; install them: apt-get install --no-install-recommends ${missing[*]}"
    fi
    say "installing ${missing[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

# ---------------------------------------------------------------- arguments

cmd="${1:-}"
case "$cmd" in "" | -h | --help | help) usage ;; esac
shift
variant=bare
out="$REPO/target/image"
cup_bin="${CUP_BINARY:-$REPO/target/release/cup}"
name=""
port=8765
detach=""
entrypoint=""
read_only=1
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --chromium) variant=chromium ;;
        --cup) cup_bin="${2:?--cup needs a path}"; shift ;;
        --out) out="${2:?--out needs a directory}"; shift ;;
        --name) name="${2:?--name needs a name}"; shift ;;
        --port) port="${2:?--port needs a port}"; shift ;;
        --detach | -d) detach=1 ;;
        --entrypoint) entrypoint="${2:?--entrypoint needs a program}"; shift ;;
        --writable-root) read_only="" ;;
        --) shift; args=("$@"); break ;;
        -h | --help) usage ;;
        *) echo "image: unknown argument $1" >&2; usage ;;
    esac
    shift
done
archive="$out/cup-$variant.oci.tar"
ref="localhost/cup:$variant"

# ---------------------------------------------------------------- build

# The host's Debian mirror for SUITE (or SUITE-security with $1 = security),
# from apt's own view of its sources.
host_mirror() {
    local suite="$SUITE" pattern='/debian/?$'
    if [ "${1:-}" = security ]; then
        suite="$SUITE-security"
        pattern='/debian-security/?$'
    fi
    local targets
    targets="$(apt-get indextargets --no-release-info --format '$(RELEASE) $(REPO_URI)' 'Identifier: Packages' 2>/dev/null | sort -u)"
    # That suite exactly, else any mirror of that kind (the host may run
    # another release; a Debian mirror serves them all).
    awk -v s="$suite" '$1 == s { print $2; exit }' <<<"$targets" | grep . \
        || awk '{ print $2 }' <<<"$targets" | grep -m1 -E "$pattern" \
        || true
}

cache_key() {
    {
        echo "script-version $SCRIPT_VERSION suite $SUITE variant $variant"
        cat "$IMAGE_DIR/packages.txt" "$IMAGE_DIR/setup-root.sh"
    } | sha256sum | cut -c1-16
}

# Unmounts what this script mounted in the root (the trap calls it too).
unmount_root() {
    if [ -n "${MOUNTED_PROC:-}" ]; then
        umount "$MOUNTED_PROC" 2>/dev/null || umount -l "$MOUNTED_PROC" 2>/dev/null || true
        MOUNTED_PROC=""
    fi
}

# Makes ROOT, ROOT.oci and ROOT.complete unless the marker holds KEY.
make_root() {
    local root="$1" key="$2"
    local marker="$root.complete" base="$root.oci"
    if [ -f "$marker" ] && [ "$(sed -n 's/^key=//p' "$marker")" = "$key" ] \
        && [ -d "$root" ] && [ -f "$base/index.json" ]; then
        say "root $root is cached ($(tr '\n' ' ' <"$marker"))"
        return
    fi
    if awk -v r="$root/" 'index($2 "/", r) == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
        die "something is mounted under $root; unmount it first"
    fi
    rm -f "$marker"
    if [ -e "$root" ] || [ -e "$base" ]; then
        step "removing the old root $root (key $key is new)" rm -rf --one-file-system "$root" "$base" "$base.tmp"
    fi

    local mirror security
    mirror="${CUP_DEBIAN_MIRROR:-$(host_mirror)}"
    security="${CUP_DEBIAN_SECURITY_MIRROR:-$(host_mirror security)}"
    [ -n "$mirror" ] || die "no Debian mirror in the host's apt sources; set CUP_DEBIAN_MIRROR"
    say "mirror $mirror; security ${security:-none (set CUP_DEBIAN_SECURITY_MIRROR for security updates)}"

    debootstrap_root() {
        debootstrap --variant=minbase "$SUITE" "$root" "$mirror" >"$root.debootstrap.log" 2>&1 \
            || die "debootstrap failed; see $root.debootstrap.log"
    }
    step "debootstrap --variant=minbase $SUITE" debootstrap_root

    setup_root() {
        # The image's apt sources: the same mirrors (apt in derived images).
        rm -f "$root/etc/apt/sources.list"
        {
            printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
                "$mirror" "$SUITE" "$SUITE"
            if [ -n "$security" ]; then
                printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
                    "$security" "$SUITE"
            fi
        } >"$root/etc/apt/sources.list.d/debian.sources"
        mkdir -p "$root/run/cup-image"
        cp "$IMAGE_DIR/packages.txt" "$IMAGE_DIR/setup-root.sh" "$root/run/cup-image/"
        mount -t proc proc "$root/proc"
        MOUNTED_PROC="$root/proc"
        env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
            /usr/sbin/chroot "$root" bash /run/cup-image/setup-root.sh "$variant" /run/cup-image/packages.txt \
            >"$root.setup.log" 2>&1 || die "setup-root.sh failed in the root; see $root.setup.log"
        unmount_root
        # debootstrap's copies of the host's files: the runtime provides its own.
        rm -rf "$root/run/cup-image" "$root/etc/resolv.conf" "$root/etc/hostname"
        find "$root/dev" "$root/proc" "$root/sys" "$root/run" "$root/tmp" -mindepth 1 -maxdepth 1 \
            -exec rm -rf --one-file-system {} +
    }
    step "packages and setup-root.sh in the root ($variant)" setup_root

    base_layer() {
        rm -rf "$base.tmp"
        umoci init --layout "$base.tmp"
        umoci new --image "$base.tmp:base"
        # Names sorted, numeric owners: the same root gives the same layer.
        # POSIX format: mtimes keep their nanoseconds (fontconfig compares
        # a font dir's mtime with its cache's).
        tar --create --file "$root.layer.tar" --directory "$root" --numeric-owner --sort=name \
            --format=posix --pax-option=delete=atime,delete=ctime \
            --xattrs --xattrs-include='security.capability' .
        umoci raw add-layer --image "$base.tmp:base" \
            --history.created_by "scripts/image.sh: debootstrap --variant=minbase $SUITE; deploy/image/setup-root.sh $variant" \
            "$root.layer.tar"
        rm -f "$root.layer.tar"
        mv "$base.tmp" "$base"
    }
    step "the root as a gzip layer ($base)" base_layer

    {
        echo "key=$key"
        echo "made=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "size=$(du -s --bytes --one-file-system "$root" | cut -f1)"
    } >"$marker"
    say "root $root made ($(mb "$(sed -n 's/^size=//p' "$marker")"))"
}

# Reads the config of the Dockerfile's last stage as umoci config arguments
# into the array CONFIG. Only the instructions below are read (one item each,
# no line continuations); anything else that is not RUN/COPY/ARG/FROM fails.
read_dockerfile_config() {
    local file="$IMAGE_DIR/Dockerfile" line instr rest
    local -A vars=([VARIANT]="$variant" [CUP_VERSION]="$1" [CUP_SOURCE]="$2" [CUP_REVISION]="$3")
    CONFIG=()
    local last_from
    last_from="$(grep -n '^FROM ' "$file" | tail -1 | cut -d: -f1)"
    [ -n "$last_from" ] || die "no FROM in $file"
    subst() {
        local v="$1" k
        for k in "${!vars[@]}"; do
            v="${v//\$\{$k\}/${vars[$k]}}"
            v="${v//\$$k/${vars[$k]}}"
        done
        [[ "$v" != *'$'* ]] || die "$file: unknown variable in: $1"
        printf '%s' "$v"
    }
    unquote() {
        local v="$1"
        if [[ "$v" == \"*\" ]]; then v="${v#\"}"; v="${v%\"}"; fi
        printf '%s' "$v"
    }
    while IFS= read -r line; do
        line="${line%"${line##*[![:space:]]}"}"
        [[ -z "$line" || "$line" == \#* ]] && continue
        instr="${line%%[[:space:]]*}"
        rest="${line#"$instr"}"
        rest="${rest#"${rest%%[![:space:]]*}"}"
        case "$instr" in
            ENV | LABEL)
                [[ "$rest" == *=* ]] || die "$file: $instr needs KEY=VALUE: $line"
                [[ "$line" != *\\ ]] || die "$file: one $instr per line, no continuation: $line"
                local k="${rest%%=*}" v
                v="$(subst "$(unquote "${rest#*=}")")"
                if [ "$instr" = ENV ]; then CONFIG+=("--config.env=$k=$v"); else CONFIG+=("--config.label=$k=$v"); fi
                ;;
            USER) CONFIG+=("--config.user=$rest") ;;
            WORKDIR) CONFIG+=("--config.workingdir=$rest") ;;
            EXPOSE) CONFIG+=("--config.exposedports=$rest") ;;
            STOPSIGNAL) CONFIG+=("--config.stopsignal=$rest") ;;
            ENTRYPOINT | CMD)
                local item items
                items="$(jq -r '.[]' <<<"$rest" 2>/dev/null)" || die "$file: $instr must be a JSON array: $line"
                while IFS= read -r item; do
                    CONFIG+=("--config.${instr,,}=$item")
                done <<<"$items"
                ;;
            RUN | COPY | ARG | FROM) ;;
            *) die "$file: scripts/image.sh does not read $instr in the last stage: $line" ;;
        esac
    done < <(tail -n +"$last_from" "$file" | awk '
        # Join RUN continuation lines so that only whole instructions are read.
        { line = (cont ? line " " : "") $0 }
        /\\$/ { sub(/\\$/, "", line); cont = 1; next }
        { print line; cont = 0; line = "" }')
}

source_url() {
    if [ -n "${CUP_IMAGE_SOURCE:-}" ]; then echo "$CUP_IMAGE_SOURCE"; return; fi
    local url
    url="$(sed -n 's/^repository[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' "$REPO/Cargo.toml" | head -1)"
    [ -n "$url" ] || url="$(git -C "$REPO" remote get-url origin 2>/dev/null | sed -E 's#//[^@/]*@#//#')" || true
    echo "${url:-unknown}"
}

revision() {
    local rev
    rev="$(git -C "$REPO" rev-parse HEAD 2>/dev/null)" || { echo unknown; return; }
    git -C "$REPO" diff --quiet HEAD 2>/dev/null || rev="$rev-dirty"
    echo "$rev"
}

build() {
    local start="$EPOCHREALTIME"
    [ "$(id -u)" -eq 0 ] || die "build must run as root (debootstrap, chroot); try: sudo $0 build"
    step "host tools (debootstrap umoci jq strip)" need debootstrap umoci jq strip
    [ -x "$cup_bin" ] || die "no cup binary at $cup_bin; build it: flock /tmp/cargo.lock cargo build --release -p cup-cli (or pass --cup PATH)"
    local version
    version="$("$cup_bin" --version | awk '{ print $2 }')"
    [ -n "$version" ] || die "$cup_bin --version printed no version"
    say "variant $variant, cup $version ($cup_bin)"
    local created
    created="$(date -u -d "@$(stat -c %Y "$cup_bin")" +%Y-%m-%dT%H:%M:%SZ)"

    mkdir -p "$CACHE" "$out"
    local root="$CACHE/image-rootfs-$variant"
    exec 9>"$root.lock"
    flock 9
    trap 'unmount_root' EXIT
    trap 'exit 130' INT TERM
    make_root "$root" "$(cache_key)"

    # The rest works on a copy of the cached layout (blobs hard-linked when
    # on the same file system: umoci only adds blobs and gc only unlinks).
    local work="$out/.build-$variant"
    rm -rf "$work"
    mkdir -p "$work/oci/blobs/sha256" "$work/layer/usr/local/bin" "$work/layer/usr/share/doc/cup"
    cp "$root.oci/index.json" "$root.oci/oci-layout" "$work/oci/"
    cp -l "$root.oci/blobs/sha256/"* "$work/oci/blobs/sha256/" 2>/dev/null \
        || cp "$root.oci/blobs/sha256/"* "$work/oci/blobs/sha256/"

    cup_layer() {
        strip --strip-debug -o "$work/layer/usr/local/bin/cup" "$cup_bin"
        chmod 0755 "$work/layer/usr/local/bin/cup"
        CUP_SIZE="$(stat -c %s "$work/layer/usr/local/bin/cup")"
        cp "$REPO/LICENSE-MIT" "$REPO/LICENSE-APACHE" "$work/layer/usr/share/doc/cup/"
        chmod 0644 "$work/layer/usr/share/doc/cup/"*
        # Only the new files and the one new directory (the others are the
        # root's), dated like the binary: the same binary gives the same
        # layer, config and image id (and `run` need not load it again).
        tar --create --file "$work/cup-layer.tar" --directory "$work/layer" --numeric-owner \
            --owner=0 --group=0 --sort=name --mtime="$created" usr/local/bin/cup usr/share/doc/cup
        umoci raw add-layer --image "$work/oci:base" --history.created "$created" \
            --history.created_by "scripts/image.sh: cup $version at /usr/local/bin/cup" "$work/cup-layer.tar"
    }
    step "cup layer ($(mb "$(stat -c %s "$cup_bin")") binary, debug info stripped)" cup_layer

    image_config() {
        local CONFIG
        read_dockerfile_config "$version" "$(source_url)" "$(revision)"
        umoci config --image "$work/oci:base" --tag "$variant" --created "$created" --history.created "$created" \
            --config.env="PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "${CONFIG[@]}" \
            --history.created_by "scripts/image.sh: config from deploy/image/Dockerfile"
        umoci rm --image "$work/oci:base"
        umoci gc --layout "$work/oci"
    }
    step "config (from deploy/image/Dockerfile)" image_config

    write_archive() {
        # The manifest's name: `podman load` calls the image localhost/cup:VARIANT
        # (with umoci's tag alone, it would be localhost/VARIANT:latest).
        jq -c --arg ref "cup:$variant" \
            '.manifests[0].annotations["org.opencontainers.image.ref.name"] = $ref' \
            "$work/oci/index.json" >"$work/index.json"
        mv "$work/index.json" "$work/oci/index.json"
        tar --create --file "$archive.tmp" --directory "$work/oci" --sort=name oci-layout index.json blobs
        mv "$archive.tmp" "$archive"
    }
    step "archive $archive" write_archive
    rm -rf "$work"

    # Sizes: the archive (its layers are gzip-compressed: this is what a
    # registry stores and a pull downloads) and the image unpacked.
    local manifest layers unpacked
    manifest="$(tar -xOf "$archive" index.json | jq -r '.manifests[0].digest')"
    layers="$(tar -xOf "$archive" "blobs/sha256/${manifest#sha256:}" | jq '[.layers[].size] | add')"
    unpacked=$(( $(sed -n 's/^size=//p' "$root.complete") + CUP_SIZE ))
    say "size: archive $(mb "$(stat -c %s "$archive")") ($(stat -c %s "$archive") bytes); gzip-compressed layers $(mb "$layers") ($layers bytes); unpacked about $(mb "$unpacked")"
    say "built $archive ($variant, cup $version) in $(elapsed "$start") s"
}

# ---------------------------------------------------------------- inspect

inspect() {
    need skopeo jq
    [ -f "$archive" ] || die "no $archive; run: scripts/image.sh build$([ "$variant" = chromium ] && echo ' --chromium')"
    local config
    config="$(skopeo inspect --config "oci-archive:$archive")"
    say "$archive"
    jq -r '
        def show: if . == null then "-" elif type == "array" then tojson else tostring end;
        .config as $c
        | "entrypoint   \($c.Entrypoint | show)",
          "cmd          \($c.Cmd | show)",
          "user         \($c.User | show)",
          "stop signal  \($c.StopSignal | show)",
          "ports        \(($c.ExposedPorts // {}) | keys | join(" "))",
          "working dir  \($c.WorkingDir | show)",
          "env          \(($c.Env // []) | join(" "))",
          "labels",
          (($c.Labels // {}) | to_entries[] | "  \(.key)=\(.value)"),
          "layers       \(.rootfs.diff_ids | length)",
          "created      \(.created)"
    ' <<<"$config"
    skopeo inspect --raw "oci-archive:$archive" \
        | jq -r '"compressed   \([.layers[].size] | add) bytes (gzip layers: \([.layers[].size] | map(tostring) | join(" + ")))"'
}

# ---------------------------------------------------------------- run

# Loads the archive as localhost/cup:VARIANT unless that image is already
# this archive's (same config digest = same image id).
load() {
    need podman runc skopeo jq
    [ -f "$archive" ] || die "no $archive; run: scripts/image.sh build$([ "$variant" = chromium ] && echo ' --chromium')"
    local want have
    want="$(skopeo inspect --raw "oci-archive:$archive" | jq -r '.config.digest')"
    have="$(podman image inspect --format '{{.Id}}' "$ref" 2>/dev/null)" || true
    if [ "$want" = "sha256:$have" ]; then
        say "$ref is loaded (${want:7:12})"
        return
    fi
    local start="$EPOCHREALTIME"
    skopeo copy --quiet "oci-archive:$archive" "containers-storage:$ref" >/dev/null
    say "loaded $archive as $ref (${want:7:12}) in $(elapsed "$start") s"
    # The image it replaced, unless a container still uses it.
    if [ -n "$have" ]; then
        podman rmi "$have" >/dev/null 2>&1 || true
    fi
}

run() {
    [ "$(id -u)" -eq 0 ] || die "run needs root (rootful podman with runc here); try: sudo $0 run"
    load
    if [ -z "${CUP_MCP_TOKEN:-}" ]; then
        CUP_MCP_TOKEN="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
        echo "image: CUP_MCP_TOKEN=$CUP_MCP_TOKEN" >&2
    fi
    export CUP_MCP_TOKEN
    local publish="127.0.0.1:$port:8765/tcp"
    [ "$port" = 0 ] && publish="127.0.0.1::8765/tcp"
    # shellcheck disable=SC2054 # the commas are the tmpfs options
    local opts=(--runtime runc --tmpfs /tmp:rw,mode=1777,size=1g
                --shm-size 256m --ulimit nproc=4096:4096 --ulimit nofile=4096:4096
                --env CUP_MCP_TOKEN --publish "$publish")
    [ -n "$read_only" ] && opts+=(--read-only --read-only-tmpfs=false)
    [ -n "$name" ] && opts+=(--name "$name")
    [ -n "$entrypoint" ] && opts+=(--entrypoint "$entrypoint")
    if [ -n "$detach" ]; then
        podman run --detach "${opts[@]}" "$ref" "${args[@]}"
    else
        exec podman run --rm "${opts[@]}" "$ref" "${args[@]}"
    fi
}

# One compound command, read whole before it runs: editing this file during
# a long build cannot make bash run a shifted tail of it afterwards.
{
    case "$cmd" in
        build) build ;;
        inspect) inspect ;;
        run) run ;;
        *) echo "image: unknown command $cmd" >&2; usage ;;
    esac
    exit $?
}
