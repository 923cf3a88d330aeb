#!/usr/bin/env bash
# Installs what is missing, builds a Release tree in build-release/ and makes the .deb there
# (headroom_<version>_<arch>.deb: stripped, dependencies from dpkg-shlibdeps). With --lint,
# also runs lintian on it (installing lintian if needed) and fails on errors or warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  "-DCMAKE_CXX_FLAGS=-D_FORTIFY_SOURCE=2 -fstack-protector-strong" \
  "-DCMAKE_EXE_LINKER_FLAGS=-Wl,-z,relro -Wl,-z,now" \
  "-DCMAKE_SHARED_LINKER_FLAGS=-Wl,-z,relro -Wl,-z,now"
cmake --build build-release --parallel "$(nproc)"
(cd build-release && cpack -G DEB)
deb=$(ls build-release/headroom_*.deb)
echo "package: $deb"
if [ "${1:-}" = "--lint" ]; then
  dpkg-query -W -f='${Status}' lintian 2>/dev/null | grep -q "install ok installed" \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends lintian
  lintian --fail-on error,warning --info "$deb"
fi
