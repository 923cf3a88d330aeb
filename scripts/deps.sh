#!/usr/bin/env bash
# Installs the Debian 12 packages Headroom needs to build, run and test — only those missing.
set -euo pipefail

packages=(
  cmake g++ ninja-build pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-qpa-plugins
  libqt6sql6-sqlite libqt6svg6 libqt6charts6
  libeigen3-dev catch2 libgl1-mesa-dev
  fonts-dejavu-core
  libyaml-cpp-dev
  poppler-utils xvfb xauth
)

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
