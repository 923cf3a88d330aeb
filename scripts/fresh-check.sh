#!/usr/bin/env bash
# Proves README's quick start on a fresh Debian 12 (bookworm): builds a minimal chroot with
# debootstrap (cached as a tarball between runs), copies the repository's tracked files in,
# runs README's two commands there (the run command as `--version`: there is no display),
# builds the .deb and lints it, then installs the .deb with apt into a second pristine chroot
# and runs it there. Needs root, debootstrap and network access to the Debian mirror.
#   bash scripts/fresh-check.sh            # everything
#   FRESH_CHECK_KEEP=1 bash scripts/fresh-check.sh   # keep the chroots for a look afterwards
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

[ "$(id -u)" -eq 0 ] || { echo "fresh-check: needs root (chroot, mounts)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-check: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }

mirror=${FRESH_CHECK_MIRROR:-http://deb.debian.org/debian}
cache=${FRESH_CHECK_CACHE:-/var/cache/headroom-fresh-check}
base="$cache/bookworm-minbase.tar"
work=$(mktemp -d /var/tmp/headroom-fresh.XXXXXX)
mounted=()

cleanup() {
  local m
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
  if [ -z "${FRESH_CHECK_KEEP:-}" ]; then rm -rf "$work"; else echo "fresh-check: chroots kept in $work"; fi
}
trap cleanup EXIT

step() { printf '\n=== fresh-check: %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

if [ ! -f "$base" ]; then
  step "debootstrap bookworm minbase into the cache"
  mkdir -p "$cache"
  debootstrap --variant=minbase bookworm "$work/bootstrap" "$mirror"
  # The chroot resolves the mirror with the host's resolver.
  tar -C "$work/bootstrap" -cf "$base.part" . && mv "$base.part" "$base"
  rm -rf "$work/bootstrap"
fi

new_root() {  # new_root DIR: a pristine chroot from the cached base, with /proc, /dev and DNS
  local root=$1
  mkdir -p "$root"
  tar -C "$root" -xf "$base"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$mirror" > "$root/etc/apt/sources.list.d/debian.sources"
  rm -f "$root/etc/apt/sources.list"
  for m in proc dev dev/pts; do
    mount --bind "/$m" "$root/$m"
    mounted+=("$root/$m")
  done
}

in_root() {  # in_root DIR COMMAND...: as root in the chroot, with a clean environment
  local root=$1; shift
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

step "build chroot"
build="$work/build"
new_root "$build"
mkdir -p "$build/src/headroom"
git -C "$repo" ls-files -z | tar -C "$repo" --null -T - -cf - | tar -C "$build/src/headroom" -xf -
# The public traces sit beside the checkout, as in the workbench; without them the tests that
# read them report SKIPPED and everything else still runs.
shared="${HEADROOM_SHARED_DATA:-$repo/../shared/data}"
[ -d "$shared" ] || shared=/work/shared/data   # the workbench's folder, as CMakeLists.txt looks
if [ -d "$shared" ]; then
  mkdir -p "$build/src/shared/data"
  mount --bind -o ro "$shared" "$build/src/shared/data"
  mounted+=("$build/src/shared/data")
fi

step "README: bash scripts/run.sh --version"
in_root "$build" bash -c 'cd /src/headroom && bash scripts/run.sh --version'

step "README: bash scripts/test.sh"
in_root "$build" bash -c 'cd /src/headroom && bash scripts/test.sh'

step "package: bash scripts/package.sh --lint"
in_root "$build" bash -c 'cd /src/headroom && bash scripts/package.sh --lint'
deb=$(cd "$build/src/headroom/build-release" && ls headroom_*.deb)

step "install $deb into a pristine chroot"
run="$work/run"
new_root "$run"
cp "$build/src/headroom/build-release/$deb" "$run/tmp/"
in_root "$run" bash -c "apt-get update -q && apt-get install -y -q --no-install-recommends ./tmp/$deb"
in_root "$run" bash -c 'set -e
  headroom --version
  headroom --demo scenario list
  QT_QPA_PLATFORM=offscreen headroom --demo report --scenario "Support bot static" --scenario "Support bot elastic" -o /tmp/deck.pdf
  test -s /tmp/deck.pdf && echo "report: /tmp/deck.pdf, $(stat -c %s /tmp/deck.pdf) bytes"
  man -w headroom >/dev/null 2>&1 || test -f /usr/share/man/man1/headroom.1.gz
  test -f /usr/share/mime/packages/headroom-workspace.xml'

step "passed"
