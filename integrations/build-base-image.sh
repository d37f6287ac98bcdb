#!/usr/bin/env bash
# Builds the local base image `conformance-node-base:local` (or $BASE_IMAGE)
# without any image registry: a root filesystem holding this machine's `node`
# binary, the shared libraries it loads and those the native addons of the
# project's node_modules load (the test runner's transformer is one), and a POSIX
# shell, imported with `docker import`. The Dockerfile's images start FROM it.
# Run it from the project's root, after `npm ci`.
#
# Rebuilt only when missing, or when the host's node version or the set of files
# it would hold changed (the image carries both as the labels
# conformance.node-version and conformance.files).
set -euo pipefail

image="${BASE_IMAGE:-conformance-node-base:local}"
node_bin="$(command -v node)"
node_version="$("$node_bin" --version)"

# Every file of the image: node, the shell, and the shared libraries ldd names for
# them and for each native addon (*.node) under node_modules/.
files_of() {
  echo "$1"
  ldd "$1" 2>/dev/null | grep -oE '/[^ ]+' | while read -r lib; do
    [ -e "$lib" ] && echo "$lib"
  done
}
files="$(
  {
    files_of "$node_bin"
    files_of "$(readlink -f /bin/sh)"
    if [ -d node_modules ]; then
      find node_modules -name '*.node' -type f | while read -r addon; do
        files_of "$addon" | tail -n +2
      done
    fi
  } | sort -u
)"
fingerprint="$(printf '%s\n' "$files" | sha256sum | cut -c1-16)"

current="$(docker image inspect --format '{{ index .Config.Labels "conformance.node-version" }} {{ index .Config.Labels "conformance.files" }}' "$image" 2>/dev/null || true)"
if [ "$current" = "$node_version $fingerprint" ]; then
  echo "base image $image is current (node $node_version)"
  exit 0
fi

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT

printf '%s\n' "$files" | while read -r file; do
  cp --parents -L "$file" "$root"
done
mkdir -p "$root/bin" "$root/usr/local/bin" "$root/tmp" "$root/etc" "$root/app"
[ -e "$root/bin/sh" ] || ln -s "$(readlink -f /bin/sh)" "$root/bin/sh"
[ "$node_bin" = "/usr/local/bin/node" ] || ln -sf "$node_bin" "$root/usr/local/bin/node"
chmod 1777 "$root/tmp"
printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/app:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\n' > "$root/etc/group"
printf 'hosts: files dns\n' > "$root/etc/nsswitch.conf"

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change "LABEL conformance.node-version=$node_version" \
  --change "LABEL conformance.files=$fingerprint" \
  --change 'WORKDIR /app' \
  --change 'CMD ["node"]' \
  - "$image" >/dev/null
echo "built base image $image (node $node_version, $(du -sh "$root" | cut -f1))"
