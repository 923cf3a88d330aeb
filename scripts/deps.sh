#!/usr/bin/env bash
# Installs the Debian 12 packages Headroom needs to build, test, run and package — only
# those missing. Each package is here for the reason beside it; a fresh Debian 12 with
# this list builds and passes the whole suite (scripts/fresh-check.sh proves it).
set -euo pipefail

packages=(
  # the toolchain
  cmake ninja-build g++
  # Qt 6.4: Widgets/Sql/PrintSupport/Test come with qt6-base-dev (pulled by the next two);
  # Qt6Charts' CMake config needs Qt6OpenGL, which is in libqt6opengl6-dev
  qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
  # run-time plugins no linker sees: the workspace's SQL drivers (SQLite, and PostgreSQL for
  # team workspaces on a server)
  libqt6sql6-sqlite libqt6sql6-psql
  # the team-server tests start a private PostgreSQL 15 cluster (scripts/pgserver.sh)
  postgresql
  # the tracking tests pull metrics from a private Prometheus server (scripts/promserver.sh)
  prometheus
  # engine and store libraries, and the test framework
  libeigen3-dev libyaml-cpp-dev catch2
  # the font charts and the report deck are measured and drawn with
  fonts-dejavu-core
  # the report tests read the exported PDF back (pdftotext, pdftoppm)
  poppler-utils
  # the importer fuzz targets (scripts/fuzz.sh): clang 14, and its libFuzzer and ASan/UBSan
  # runtimes (libclang_rt.fuzzer and friends are in libclang-rt-14-dev on Debian 12)
  clang-14 libclang-rt-14-dev
  # the forecast's reference numbers (tools/statsmodels_reference.py) and the forecast benchmark's comparison
  python3-statsmodels
  # the window without a desktop session: xvfb-run for screenshots and headless GUI runs
  xvfb xauth
  # the .deb: cpack reads library dependencies with dpkg-shlibdeps (dpkg-dev) and file types with file
  dpkg-dev file
  # the packaging tests: MIME lookup as a desktop does it (update-mime-database, xdg-mime, gio)
  # and validators for the desktop entry and AppStream metadata; man for the man page check
  shared-mime-info xdg-utils libglib2.0-bin desktop-file-utils appstream man-db
  # systemd-analyze verify for the tracking watch's user unit and timer
  systemd
)

# --list: print the packages, one a line, and install nothing (the packaging test reads it).
if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
