#!/usr/bin/env bash
# The desktop entry, the AppStream metadata (pedantic, ids matching) and headroom(1) are valid.
#   check_metadata.sh SOURCE_DIR MAN_PAGE_GZ
set -euo pipefail
src=$1 man=$2
desktop-file-validate "$src/packaging/io.headroom.headroom.desktop"
echo "ok: desktop-file-validate"
appstreamcli validate --pedantic --no-net --explain "$src/packaging/io.headroom.headroom.metainfo.xml"
grep -q '<launchable type="desktop-id">io.headroom.headroom.desktop</launchable>' \
  "$src/packaging/io.headroom.headroom.metainfo.xml" || { echo "FAIL: launchable does not name the desktop file"; exit 1; }
echo "ok: appstream"
warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$man" 2>&1 >/dev/null || true)
if [ -n "$warnings" ]; then echo "FAIL: man page warnings:"; echo "$warnings"; exit 1; fi
# grep without -q reads to the end: -q would stop early and zcat die of SIGPIPE (pipefail).
zcat "$man" | grep '^\.SS frag$' >/dev/null || { echo "FAIL: the man page has no section for the frag verb"; exit 1; }
echo "ok: headroom(1)"
