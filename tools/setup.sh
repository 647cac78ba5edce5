#!/bin/sh
# Makes a fresh Debian 12 machine ready: installs the missing packages, fetches
# the test photos and builds the plugin into build/.
set -eu
cd "$(dirname "$0")/.."

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
PKGS="meson ninja-build gcc pkg-config python3 libgstreamer1.0-dev
  libgstreamer-plugins-base1.0-dev gstreamer1.0-tools gstreamer1.0-plugins-base
  gstreamer1.0-plugins-good ocl-icd-opencl-dev opencl-headers
  ocl-icd-libopencl1 pocl-opencl-icd clinfo
  python3-gi gir1.2-gst-plugins-base-1.0 python3-numpy python3-venv valgrind"
missing=
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends $missing >/dev/null
fi

tools/fetch-photos.sh

[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
echo "built build/gst/libgstclfilters.so"
