#!/usr/bin/env bash
# Builds the real images of the image study's tests (issue 38): a Debian
# root filesystem made with mmdebstrap from Debian's packages, through the
# mirror this host's apt uses (no registry), with gzip and mosquitto
# installed, imported into Docker under two tags:
#
#   boxtax-test-debian:gzip       no entrypoint; CMD gzip -c GPL-3, and a
#                                 program only the image has,
#                                 /usr/local/bin/boxtax-only-in-image
#   boxtax-test-debian:mosquitto  ENTRYPOINT mosquitto -c CONF, EXPOSE 1883
#
# Both come from the same archive (one layer), so they hold the same files.
# The images are not given to Podman here: boxtax moves an image to the
# engine that lacks it, which the tests check. dpkg unpacks without
# fsync (force-unsafe-io: the root filesystem is a throwaway archive), which
# on a machine whose disk other programs keep busy is most of the time. An
# image already there,
# made by this version of the script, is kept (label io.boxtax.test-image).
# Usage: .ci/debian-image.sh [--force]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=boxtax-test-debian
stamp=$(sha256sum "$0" | cut -c1-12)
if [ "${1:-}" != --force ] &&
  [ "$(docker image inspect -f '{{index .Config.Labels "io.boxtax.test-image"}}' "$repo:gzip" 2>/dev/null)" = "$stamp" ] &&
  [ "$(docker image inspect -f '{{index .Config.Labels "io.boxtax.test-image"}}' "$repo:mosquitto" 2>/dev/null)" = "$stamp" ]; then
  echo "debian-image: $repo:gzip and $repo:mosquitto are there ($stamp)"
  exit 0
fi
command -v mmdebstrap >/dev/null || { echo "debian-image: mmdebstrap is missing: apt-get install mmdebstrap" >&2; exit 1; }

# The mirror and the release this host's apt uses (deb822 sources or sources.list).
mirror=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)\/\?$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 || true)
if [ -z "$mirror" ]; then
  mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}
. /etc/os-release
suite=${VERSION_CODENAME:-bookworm}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A program and a configuration only the image has: a native run that
# finds them ran the image's files, not the host's.
cat > "$work/only-in-image" <<'SH'
#!/bin/sh
# boxtax test image: this file exists only in the image.
echo "only in the image: $(cat /etc/debian_version) $(id -un) $(pwd) ${BOXTAX_IMAGE_VAR:-unset}"
gzip -c /usr/share/common-licenses/GPL-3 | wc -c
SH
cat > "$work/mosquitto.conf" <<'CONF'
listener 1883
allow_anonymous true
persistence false
log_dest stderr
CONF
start=$(date +%s)
echo "debian-image: mmdebstrap $suite from $mirror (minbase, gzip mosquitto)"
mmdebstrap --quiet --variant=minbase --include=gzip,mosquitto \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='force-unsafe-io' \
  --aptopt='APT::Install-Recommends "false"' \
  --customize-hook="install -m 0755 '$work/only-in-image' \"\$1/usr/local/bin/boxtax-only-in-image\"" \
  --customize-hook="install -m 0644 '$work/mosquitto.conf' \"\$1/etc/mosquitto/boxtax.conf\"" \
  --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
  "$suite" "$work/rootfs.tar" "$mirror"
echo "debian-image: root filesystem $(du -h "$work/rootfs.tar" | cut -f1) in $(( $(date +%s) - start )) s"
docker import --change 'CMD ["gzip","-c","/usr/share/common-licenses/GPL-3"]' \
  --change 'ENV BOXTAX_IMAGE_VAR=from-the-image' --change 'WORKDIR /srv' \
  --change "LABEL io.boxtax.test-image=$stamp" \
  "$work/rootfs.tar" "$repo:gzip" >/dev/null
docker import --change 'ENTRYPOINT ["/usr/sbin/mosquitto","-c","/etc/mosquitto/boxtax.conf"]' \
  --change 'EXPOSE 1883/tcp' --change "LABEL io.boxtax.test-image=$stamp" \
  "$work/rootfs.tar" "$repo:mosquitto" >/dev/null
docker image ls "$repo"
# A copy that Podman (rootful or the rootless user's) holds from an earlier
# build is another image now: the image study refuses to run two image ids,
# and the tests check that boxtax moves the image to the engine that lacks
# it. So Podman is left without one.
for tag in gzip mosquitto; do
  if command -v podman >/dev/null; then podman rmi -f "$repo:$tag" >/dev/null 2>&1 || true; fi
  if [ -n "${BOXTAX_PODMAN_USER:-}" ] && command -v runuser >/dev/null; then
    (cd / && runuser -u "$BOXTAX_PODMAN_USER" -- podman rmi -f "$repo:$tag" >/dev/null 2>&1) || true
  fi
done
echo "debian-image: done in $(( $(date +%s) - start )) s"
