#!/usr/bin/env bash
# Every Debian package the build reads or the program loads is installed by scripts/deps.sh
# (named there, or pulled in by a package named there), so a fresh Debian 12 machine running
# README's commands has it. Read from the build tree: the CMake package configs and library
# files CMake found (CMakeCache.txt), and the shared libraries and Qt plugins of the binary.
# scripts/fresh-check.sh proves the same on a real fresh chroot; this is its fast form.
#   check_deps.sh SOURCE_DIR BUILD_DIR HEADROOM_BINARY
set -euo pipefail
src=$1 build=$2 headroom=$3

# The packages deps.sh names, and everything they depend on (installed packages' Depends and
# Pre-Depends, alternatives included), as a set.
declare -A depends=() closure=()
# One read of the package database: name, then its Depends and Pre-Depends, and Provides.
while IFS=$'\t' read -r name deps provides; do
  depends[$name]=$deps
  # A package providing a virtual name (e.g. libgl-dev) stands for it.
  for v in $(echo "$provides" | tr ',' '\n' | sed 's/(.*)//' | tr -d ' '); do
    depends[${v%%:*}]+=", $name"
  done
done < <(dpkg-query -W -f='${db:Status-Abbrev}\t${Package}\t${Depends}, ${Pre-Depends}\t${Provides}\n' \
           | awk -F'\t' '$1 ~ /^ii/ {print $2 "\t" $3 "\t" $4}')
queue=()
while read -r p; do queue+=("$p"); done < <(bash "$src/scripts/deps.sh" --list)
while [ ${#queue[@]} -gt 0 ]; do
  p=${queue[-1]}; unset 'queue[-1]'
  p=${p%%:*}
  [ -n "$p" ] && [ -z "${closure[$p]:-}" ] || continue
  closure[$p]=1
  for q in $(echo "${depends[$p]:-}" | tr ',|' '\n\n' | sed 's/(.*)//; s/\[.*\]//; s/<.*>//' | tr -d ' '); do
    queue+=("$q")
  done
done

read_files=()
# The package configs find_package read (<Name>_DIR). Libraries FindOpenGL and the like record
# only when present (GLU, EGL) are optional and not listed here.
while IFS='=' read -r key value; do
  case "$key" in
    *_DIR:PATH) ;;
    *) continue ;;
  esac
  case "$value" in /usr/*) ;; *) continue ;; esac
  cfg=$(ls "$value"/*Config.cmake "$value"/*-config.cmake 2>/dev/null | head -n1 || true)
  [ -n "$cfg" ] && read_files+=("$cfg")
done < "$build/CMakeCache.txt"
# The binary's shared libraries.
while read -r lib; do read_files+=("$lib"); done < <(ldd "$headroom" | awk '/=> \//{print $3}')
# Plugins Qt loads at run time for the workspace and the exports.
plugins=$(dirname "$(readlink -f "$(ldd "$headroom" | awk '/libQt6Core/{print $3}')")")/qt6/plugins
read_files+=("$plugins/sqldrivers/libqsqlite.so" "$plugins/imageformats/libqsvg.so" "$plugins/platforms/libqoffscreen.so")

# Owners in one query of the package database: each file as found and as its real path, with
# and without /usr (Debian 12 merges /usr, while dpkg knows some files by their /lib name).
queries=()
for f in "${read_files[@]}"; do
  real=$(readlink -f "$f")
  queries+=("$f" "$real" "${real#/usr}")
done
declare -A owner=()
while IFS= read -r line; do
  pkgs=${line%%: /*} path=/${line#*: /}
  owner[$path]=${pkgs%%[:,]*}
done < <(dpkg-query -S "${queries[@]}" 2>/dev/null || true)

missing=0 checked=0
declare -A seen=()
for f in "${read_files[@]}"; do
  real=$(readlink -f "$f")
  pkg=${owner[$f]:-${owner[$real]:-${owner[${real#/usr}]:-}}}
  if [ -z "$pkg" ]; then echo "FAIL: no Debian package owns $f"; missing=1; continue; fi
  [ -z "${seen[$pkg]:-}" ] || continue
  seen[$pkg]=1; checked=$((checked + 1))
  if [ -z "${closure[$pkg]:-}" ]; then
    echo "FAIL: $pkg (for $f) is not installed by scripts/deps.sh; add it there"
    missing=1
  fi
done
[ "$checked" -ge 10 ] || { echo "FAIL: only $checked packages found to check; the build tree looks incomplete"; exit 1; }
[ "$missing" -eq 0 ] || exit 1
echo "ok: $checked packages the build reads or the program loads, all installed by scripts/deps.sh (${#closure[@]} packages in its closure)"
