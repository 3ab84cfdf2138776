#!/usr/bin/env bash
# Builds the local sandbox test image from Debian packages (there is no registry to pull from here):
# debootstrap a minimal bookworm with python3, numpy, pandas, matplotlib and Pillow (display() and resizing
# images in the sandbox use it), trim it, import it.
# Usage: .ci/build-test-image.sh [TAG] [RUNTIME]
set -euo pipefail

tag=${1:-localhost/sandbar-python:test}
runtime=${2:-${SANDBAR_RUNTIME:-podman}}
suite=bookworm

# The mirror is whatever apt already uses for the main suite (not the security one), so no host name is
# written down here.
mirror=""
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  mirror=$(awk -v suite="$suite" '
    /^$/ { if (uri != "" && ok) { print uri; exit } uri=""; ok=0; next }
    /^URIs:/ { uri=$2 }
    /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) ok=1 }
    END { if (uri != "" && ok) print uri }' "$f" | head -n 1)
  [ -n "$mirror" ] && break
done
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk -v suite="$suite" '$1 == "deb" && $3 == suite { print $2; exit }' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || { echo "build-test-image: no apt source for suite $suite found" >&2; exit 1; }

command -v debootstrap >/dev/null || { echo "build-test-image: debootstrap is not installed" >&2; exit 1; }

root=$(mktemp -d /tmp/sandbar-image.XXXXXX)
trap 'rm -rf "$root"' EXIT

echo "build-test-image: debootstrap $suite into $root" >&2
debootstrap --variant=minbase \
  --include=python3,python3-numpy,python3-pandas,python3-matplotlib,python3-pil,python3-requests \
  "$suite" "$root" "$mirror" >/tmp/sandbar-debootstrap.log 2>&1 || {
    tail -n 30 /tmp/sandbar-debootstrap.log >&2; exit 1; }

# Trim what a sandbox never needs: package caches, docs, locales, compilers and headers that matplotlib's
# dependencies drag in. Python itself and its shared libraries stay.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old \
  "$root"/usr/share/doc "$root"/usr/share/man "$root"/usr/share/info "$root"/usr/share/locale \
  "$root"/usr/share/lintian "$root"/usr/include "$root"/usr/lib/gcc "$root"/usr/libexec/gcc \
  "$root"/var/log/* "$root"/tmp/* "$root"/var/tmp/*
find "$root"/usr/bin -maxdepth 1 \( -name '*-linux-gnu-*' -o -name 'gcc*' -o -name 'g++*' -o -name 'cpp*' \
  -o -name 'cc' -o -name 'c++' -o -name 'x86_64-*' -o -name 'aarch64-*' \) -exec rm -f {} + 2>/dev/null || true
find "$root"/usr/lib -name '*.a' -delete 2>/dev/null || true
# Keep the bytecode Debian compiled at install time: the sandbox root is read-only, so without it every
# container would recompile asyncio & co. from source at start (measured: +0.35 s per container).
chroot "$root" python3 -m compileall -q -j 0 /usr/lib/python3 /usr/lib/python3.11 >/dev/null 2>&1 || true
mkdir -p "$root"/workspace
chmod 1777 "$root"/workspace

"$runtime" rmi -f "$tag" >/dev/null 2>&1 || true
tar -C "$root" -c . | "$runtime" import \
  --change 'CMD ["python3"]' --change 'WORKDIR /workspace' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$tag" >/dev/null
# Podman's default rlimits can exceed the host's hard limits; stay within them.
lim() { local hard; hard=$(ulimit "$1"); [ "$hard" = unlimited ] || [ "$hard" -gt 4096 ] && hard=4096; echo "$hard"; }
ulimits=(--ulimit "nofile=$(lim -Hn):$(lim -Hn)" --ulimit "nproc=$(lim -Hu):$(lim -Hu)")
"$runtime" run --rm --network none "${ulimits[@]}" "$tag" python3 -c \
  'import json, asyncio, numpy, pandas, matplotlib, PIL, requests; print("python ok")' || {
    echo "build-test-image: the image was built but python3 does not start in it" >&2; exit 1; }
echo "build-test-image: built $tag" >&2
