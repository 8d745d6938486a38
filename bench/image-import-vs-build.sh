#!/usr/bin/env bash
# Time making the worker image both ways on the Docker daemon at
# /var/run/docker.sock (or $SOCK): the classic builder (POST /build, what
# boxtax did before design 005) and import (POST /images/create?fromSrc=-,
# what it does now), three times each with a binary made unique each time
# so no cache helps. Removes the images it made (tags boxtax-engmeasure:*).
set -euo pipefail
cd "$(dirname "$0")/.."
SOCK=${SOCK:-/var/run/docker.sock}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -o "$work/boxtax" ./cmd/boxtax
cd "$work"
for i in 1 2 3; do
  rm -rf ctx rootfs; mkdir -p ctx/rootfs/tmp rootfs/tmp; chmod 1777 ctx/rootfs/tmp rootfs/tmp
  cp boxtax ctx/rootfs/boxtax; head -c 16 /dev/urandom >> ctx/rootfs/boxtax; cp ctx/rootfs/boxtax rootfs/boxtax
  printf 'FROM scratch\nCOPY rootfs/ /\nENTRYPOINT ["/boxtax"]\n' > ctx/Dockerfile
  tar -C ctx -cf build.tar . ; tar -C rootfs -cf rootfs.tar .
  t0=$(date +%s%N)
  curl -sf --unix-socket "$SOCK" -X POST -H 'Content-Type: application/x-tar' --data-binary @build.tar \
    "http://d/v1.41/build?version=1&rm=1&t=boxtax-engmeasure:build$i" >/dev/null
  t1=$(date +%s%N)
  curl -sf --unix-socket "$SOCK" -X POST -H 'Content-Type: application/x-tar' --data-binary @rootfs.tar \
    "http://d/v1.41/images/create?fromSrc=-&repo=boxtax-engmeasure:import$i&changes=ENTRYPOINT%20%5B%22%2Fboxtax%22%5D" >/dev/null
  t2=$(date +%s%N)
  echo "run $i: classic build $(( (t1-t0)/1000000 )) ms, import $(( (t2-t1)/1000000 )) ms"
  curl -s --unix-socket "$SOCK" -X DELETE "http://d/v1.41/images/boxtax-engmeasure:build$i" >/dev/null
  curl -s --unix-socket "$SOCK" -X DELETE "http://d/v1.41/images/boxtax-engmeasure:import$i" >/dev/null
done
