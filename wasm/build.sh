#!/usr/bin/env bash
# Builds bashni for the browser into DIR, a static site that needs no server of its own:
#
#   wasm/build.sh DIR        # then: python3 -m http.server -d DIR 8000, open http://127.0.0.1:8000/
#
# DIR gets the page of `bashni serve` (web/: index.html, its modules and style) backed by
# bashni-serve.js, the Web Worker that runs the server's own code in bashni.wasm (web/api.js
# uses it where no server answers), sw.js (the service worker that keeps the site for
# offline use), the engine module for any web GUI (bashni.wasm and bashni-worker.js:
# docs/web.md) and example.html, docs/web.md's page that embeds it. Any static host serves
# DIR as it is.
#
# The module is built from the same sources as the native binary (the crate without its
# `native` feature, wasm/src/lib.rs on top) for wasm32-unknown-unknown. No prebuilt standard
# library for that target can be downloaded here, so the standard library is built from its
# source, with Debian's Rust toolchain for the web (rustc-web, cargo-web, rust-web-src) and
# lld's wasm-ld, installed when missing (as root, with apt-get), as .ci/run installs what it
# needs. A rustup toolchain that has the wasm32-unknown-unknown target is used instead when
# there is one.
#
# Environment: BASHNI_WASM_SIMD=0 builds without WebAssembly SIMD (to measure what it gains).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: wasm/build.sh DIR}
simd=${BASHNI_WASM_SIMD:-1}

# The module's stack: the search recurses with its move lists on the stack (the native
# search threads get 64 MiB; 16 MiB holds the deepest search, MAX_PLY plies). The site's
# back end may run one search inside another's turn (a review during an analysis:
# src/serve/browser), so it gets room for two.
stack_bytes=$((32 << 20))
rustflags="-C link-arg=-zstack-size=$stack_bytes"
[ "$simd" = 1 ] && rustflags="$rustflags -C target-feature=+simd128"

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi
}

# 1. A toolchain that can build for wasm32-unknown-unknown.
build=()
if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    build=(cargo build)
else
    if [ ! -d /usr/lib/rustlib/src/rust/library ] || [ ! -x /usr/bin/cargo ] || ! command -v wasm-ld >/dev/null 2>&1; then
        echo "wasm/build.sh: installing Debian's Rust for the web (rustc-web cargo-web rust-web-src lld)" >&2
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rustc-web cargo-web rust-web-src lld >&2
    fi
    export PATH="/usr/bin:$PATH" RUSTC_BOOTSTRAP=1
    rustflags="-C linker=wasm-ld $rustflags"
    build=(/usr/bin/cargo build -Zbuild-std=std,panic_abort)
fi

# 2. The module.
RUSTFLAGS="$rustflags" "${build[@]}" --release --target wasm32-unknown-unknown \
    --manifest-path wasm/Cargo.toml --target-dir wasm/target
wasm=wasm/target/wasm32-unknown-unknown/release/bashni_wasm.wasm

# 3. The site: the page (web/, but its contract), the module and its two workers, and
# docs/web.md's example page; then the service worker, with the list of every file and a
# version made from their contents.
mkdir -p "$out"
cp "$wasm" "$out/bashni.wasm"
cp wasm/bashni-worker.js wasm/bashni-serve.js "$out/"
for f in web/*; do
    case "$f" in *.md) ;; *) cp "$f" "$out/" ;; esac
done
# The site's pages say which back end they have: boot.js starts the module at once.
for page in index.html puzzles.html; do
    sed -i 's|<meta charset="utf-8">|&\n<meta name="bashni-back-end" content="browser">|' "$out/$page"
    grep -q 'name="bashni-back-end"' "$out/$page"
done
sed -n '/<!-- example: embed -->/,/^```$/p' docs/web.md | sed '1,2d;$d' >"$out/example.html"
files=$(cd "$out" && ls | grep -v '^sw\.js$' | sort)
version=$(cd "$out" && sha256sum $files | sha256sum | cut -c1-16)
list="'./'$(printf ", '%s'" $files)"
sed -e "s|@VERSION@|$version|" -e "s|@FILES@|$list|" wasm/sw.js >"$out/sw.js"
echo "wasm/build.sh: wrote $out ($(du -sh "$out" | cut -f1)); serve it with: python3 -m http.server -d $out 8000" >&2
