#!/usr/bin/env bash
# .ci/stripped.sh: the tests as a fresh machine runs them, one with only Go
# and a running Docker Engine (what README.md asks for), after .ci/run has
# installed everything else (issue 25). In a mount namespace of its own it
# hides every optional program (the Debian packages .ci/run installs, and a
# C compiler) by bind-mounting an empty, non-executable file over each, then
# runs `make test TESTFLAGS=-short` with CI unset: a test that needs a hidden
# program must skip, saying which Debian package it needs, and nothing may
# fail. PATH alone would hide nothing: boxtax also looks in /usr/sbin, /sbin
# and the like. Runs as root (unshare -m, mount --bind).
set -euo pipefail
cd "$(dirname "$0")/.."
# A fresh machine's PATH: Go's and the system's directories, none of a
# user's own (pyenv or cargo shims).
export PATH="/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

if [ "${1:-}" != "--inside" ]; then
  exec unshare --mount --propagation private bash "$0" --inside
fi

# The packages whose programs are optional: .ci/run installs them.
packages="sysbench iperf3 mosquitto mosquitto-clients nginx nginx-light nginx-core redis-server redis-tools
  podman lxc ansible-core chromium stress-ng rt-tests fio mbw apache2-utils wrk librsvg2-bin zsh fish
  openssh-server openssh-client qemu-user-static gcc cpp"
# Programs by name, wherever they are, for what dpkg does not list (a
# versioned compiler, python3 that ansible pulled in, tools from elsewhere).
names="sysbench iperf3 mosquitto mosquitto_pub mosquitto_sub nginx redis-server redis-cli podman chromium
  chromium-browser google-chrome stress-ng cyclictest fio mbw ab wrk rsvg-convert zsh fish sshd ssh
  gcc cc c99 python3 crun conmon slirp4netns"
dirs="/usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin"

empty=$(mktemp /tmp/boxtax-hidden.XXXXXX)
list=$(mktemp /tmp/boxtax-hidden-files.XXXXXX)
trap 'rm -f "$empty" "$list"' EXIT # the mounts hold the empty file's inode
chmod 0644 "$empty"
declare -A hidden=()
hide() {
  local real
  real=$(realpath -e "$1" 2>/dev/null) || return 0
  [ -f "$real" ] && [ -x "$real" ] || return 0
  [ -z "${hidden[$real]:-}" ] || return 0
  mount --bind "$empty" "$real"
  hidden[$real]=1
}
for p in $packages; do
  dpkg -L "$p" 2>/dev/null | grep -E '/(s?bin|libexec)/[^/]+$' || true
done > "$list"
while read -r f; do hide "$f"; done < "$list"
for d in $dirs; do
  for n in $names; do hide "$d/$n"; done
  for f in "$d"/lxc-* "$d"/ansible* "$d"/qemu-*-static "$d"/python3* "$d"/gcc-* "$d"/x86_64-linux-gnu-gcc*; do hide "$f"; done
done
echo "hidden: ${#hidden[@]} programs (e.g. $(printf '%s\n' "${!hidden[@]}" | sort | head -n 8 | xargs -n1 basename | paste -sd' '))"
for n in sysbench iperf3 mosquitto nginx redis-server podman lxc-execute ansible-playbook chromium stress-ng gcc python3; do
  # (bash's command -v also answers with a file it cannot run: test -x)
  if p=$(command -v "$n" 2>/dev/null) && [ -x "$p" ]; then
    echo "still runnable here: $n ($p): hide it too" >&2
    exit 1
  fi
done

unset CI BOXTAX_PODMAN_USER
# -trimpath, as the build step's packages are built (CGO is off here as there,
# with no C compiler): the test binaries then reuse every package the build
# step compiled (modernc.org/sqlite's most of all) instead of compiling them
# again under the source tree's paths.
export GOFLAGS=-trimpath
set +e
start=$(date +%s)
make test TESTFLAGS="-short -v" > /tmp/boxtax-stripped.log 2>&1
status=$?
set -e
grep -E '^(ok|FAIL|panic)|^\s*--- FAIL' /tmp/boxtax-stripped.log || true
if [ "$status" -ne 0 ]; then
  echo "== tail of the stripped test log"
  tail -n 60 /tmp/boxtax-stripped.log
fi
passed=$(grep -cE '^\s*--- PASS' /tmp/boxtax-stripped.log || true)
failed=$(grep -cE '^\s*--- FAIL' /tmp/boxtax-stripped.log || true)
skipped=$(grep -cE '^\s*--- SKIP' /tmp/boxtax-stripped.log || true)
echo "stripped run (only Go and Docker, -short, CI unset): ${passed} passed, ${failed} failed, ${skipped} skipped in $(( $(date +%s) - start )) s"
echo "the stripped run's slowest tests:"
grep -E '^--- (PASS|FAIL): \S+ \([0-9.]+s\)' /tmp/boxtax-stripped.log | sed -E 's/^--- (PASS|FAIL): (\S+) \(([0-9.]+)s\)/\3 s \2/' | sort -rn | head -n 10 || true
echo "what the skipped tests need (from their messages):"
grep -oE 'apt-get install [a-z0-9.+-]+' /tmp/boxtax-stripped.log | sort | uniq -c | sort -rn || true
exit "$status"
