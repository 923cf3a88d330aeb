#!/usr/bin/env bash
# The tracking watch's systemd user service and timer ship in the .deb (cpack from this build
# tree, as scripts/package.sh makes it from a Release one) at /usr/lib/systemd/user, beside
# /usr/bin/headroom and the example settings, and pass `systemd-analyze verify` in the root the
# .deb unpacks to: unit syntax, the timer's calendar, the unit it starts, and that ExecStart's
# program exists and is executable there.
#   check_systemd.sh BUILD_DIR
set -euo pipefail
build=$1
for tool in systemd-analyze cpack dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (scripts/deps.sh installs it)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$build" && cpack -G DEB -B "$tmp/package" >"$tmp/cpack.log" 2>&1) \
  || { echo "cpack failed:" >&2; cat "$tmp/cpack.log" >&2; exit 1; }
root="$tmp/fs"
mkdir -p "$root"
dpkg-deb -x "$(ls "$tmp"/package/headroom_*.deb)" "$root"
units="$root/usr/lib/systemd/user"
for f in headroom-watch.service headroom-watch.timer; do
  [ -f "$units/$f" ] || { echo "not installed: /usr/lib/systemd/user/$f" >&2; exit 1; }
done
[ -f "$root/usr/share/doc/headroom/examples/watch.env" ] || { echo "not installed: the watch.env example" >&2; exit 1; }
grep -q '^ExecStart=/usr/bin/headroom ' "$units/headroom-watch.service" \
  || { echo "ExecStart does not run /usr/bin/headroom, where the .deb puts it" >&2; exit 1; }
grep -q "^OnCalendar=hourly$" "$units/headroom-watch.timer"

[ -x "$root/usr/bin/headroom" ] || { echo "the .deb has no /usr/bin/headroom" >&2; exit 1; }
# The targets a manager starts from (the user manager's own) in that root. systemd-analyze
# --root reads the manager's unit folder, so the user units are verified from there too.
mkdir -p "$root/usr/lib/systemd/system"
for dir in /usr/lib/systemd/user /usr/lib/systemd/system; do
  for target in "$dir"/*.target; do
    [ -e "$root/usr/lib/systemd/system/$(basename "$target")" ] || cp "$target" "$root/usr/lib/systemd/system/"
  done
done
cp "$units/headroom-watch.service" "$units/headroom-watch.timer" "$root/usr/lib/systemd/system/"
out=$(systemd-analyze --root="$root" --man=no verify headroom-watch.service headroom-watch.timer 2>&1) || {
  echo "systemd-analyze verify failed:" >&2; echo "$out" >&2; exit 1; }
if [ -n "$out" ]; then
  echo "systemd-analyze verify warned:" >&2; echo "$out" >&2; exit 1
fi

# And it would fail: a unit naming a program that is not there is refused.
rm "$root/usr/bin/headroom"
if systemd-analyze --root="$root" --man=no verify headroom-watch.service >/dev/null 2>&1; then
  echo "systemd-analyze verify passed a unit whose program is missing: the check proves nothing" >&2
  exit 1
fi
echo "headroom-watch.service and headroom-watch.timer verify"
