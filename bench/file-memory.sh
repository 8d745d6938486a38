#!/usr/bin/env bash
# Peak memory of boxtax while it brings a big --file into an image (issue 42
# item 18: 376 MB for a 64 MiB file, 705 MB for 256 MiB, when the image's
# archive was held in memory). Runs `boxtax image from-host --file BIG
# /bin/true` with the binary of this tree and with one built from $BEFORE
# (a commit, default the one before the archive was streamed), each on a
# fresh image tag, and prints each one's peak resident memory (GNU time's
# "Maximum resident set size") and their ratio. MIB sets the file's size
# (default 64). Needs Docker; removes the images it made (boxtax-filemem:*).
set -euo pipefail
cd "$(dirname "$0")/.."
MIB=${MIB:-64}
BEFORE=${BEFORE:-b8ff17f}
SOCK=${SOCK:-/var/run/docker.sock}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -o "$work/after" ./cmd/boxtax
mkdir "$work/src"
git archive "$BEFORE" | tar -x -C "$work/src"
(cd "$work/src" && CGO_ENABLED=0 go build -o "$work/before" ./cmd/boxtax)
head -c $((MIB << 20)) /dev/urandom >"$work/big.bin"
peak_kb() { # peak_kb NAME: runs that binary, prints its peak RSS in kB
  local tag="boxtax-filemem:$1-$$"
  /usr/bin/time -v "$work/$1" image from-host --tag "$tag" --file "$work/big.bin" /bin/true \
    >/dev/null 2>"$work/$1.time" || { cat "$work/$1.time" >&2; exit 1; }
  curl -s --unix-socket "$SOCK" -X DELETE "http://d/v1.41/images/$tag" >/dev/null
  sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/$1.time"
}
before=$(peak_kb before)
after=$(peak_kb after)
echo "a ${MIB} MiB --file: peak memory $((before / 1024)) MiB before ($BEFORE), $((after / 1024)) MiB now; ratio $(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.2f", a / b }')"
