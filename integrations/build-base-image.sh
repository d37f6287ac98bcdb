#!/usr/bin/env bash
# Builds the local base image `conformance-node-base:local` (or $BASE_IMAGE)
# without any image registry: a root filesystem holding this machine's `node`
# binary, the shared libraries it loads, and a POSIX shell, imported with
# `docker import`. The mock's Dockerfile starts FROM it.
#
# Rebuilt only when missing or when the host's node version changed
# (the image carries the version as the label conformance.node-version).
set -euo pipefail

image="${BASE_IMAGE:-conformance-node-base:local}"
node_bin="$(command -v node)"
node_version="$("$node_bin" --version)"

current="$(docker image inspect --format '{{ index .Config.Labels "conformance.node-version" }}' "$image" 2>/dev/null || true)"
if [ "$current" = "$node_version" ]; then
  echo "base image $image is current (node $node_version)"
  exit 0
fi

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT

# Copies a file under the same path in the image, with the libraries ldd names for it.
add_with_libs() {
  local file="$1"
  cp --parents -L "$file" "$root"
  ldd "$file" 2>/dev/null | grep -oE '/[^ ]+' | while read -r lib; do
    [ -e "$lib" ] && cp --parents -L "$lib" "$root"
  done
}

add_with_libs "$node_bin"
add_with_libs "$(readlink -f /bin/sh)"
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
  --change 'WORKDIR /app' \
  --change 'CMD ["node"]' \
  - "$image" >/dev/null
echo "built base image $image (node $node_version, $(du -sh "$root" | cut -f1))"
