#!/usr/bin/env bash
# A *.headroom file is an application/x-headroom-workspace that opens in Headroom, as a desktop
# session sees it: the shipped MIME package and desktop entry installed into a temporary
# XDG data folder, looked up with xdg-mime the way GNOME's file manager does (through gio).
#   check_mime.sh SOURCE_DIR HEADROOM_BINARY
set -euo pipefail
src=$1 headroom=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/share/mime/packages" "$tmp/share/applications"
cp "$src/packaging/headroom-workspace.xml" "$tmp/share/mime/packages/"
cp "$src/packaging/io.headroom.headroom.desktop" "$tmp/share/applications/"
update-mime-database "$tmp/share/mime"
export XDG_DATA_HOME="$tmp/share" XDG_DATA_DIRS="$tmp/share:/usr/share" XDG_CURRENT_DESKTOP=GNOME
export HOME="$tmp"

"$headroom" --workspace "$tmp/plan.headroom" import "$src/data/gpus.json" >/dev/null   # a real workspace
cp "$tmp/plan.headroom" "$tmp/plain-database"
echo "not a database" > "$tmp/renamed.headroom"

expect() {  # expect WHAT GOT WANT
  if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', want '$3'"; exit 1; fi
  echo "ok: $1: $2"
}
expect "workspace file type" "$(xdg-mime query filetype "$tmp/plan.headroom")" application/x-headroom-workspace
expect "named *.headroom" "$(xdg-mime query filetype "$tmp/renamed.headroom")" application/x-headroom-workspace
expect "other SQLite files stay SQLite" "$(xdg-mime query filetype "$tmp/plain-database")" application/vnd.sqlite3
expect "default application" "$(xdg-mime query default application/x-headroom-workspace)" io.headroom.headroom.desktop
grep -qx 'Exec=headroom %f' "$tmp/share/applications/io.headroom.headroom.desktop" \
  || { echo "FAIL: the desktop entry does not pass the file (%f)"; exit 1; }
echo "ok: Exec=headroom %f"
