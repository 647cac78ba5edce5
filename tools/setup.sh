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

# Intel's CPU OpenCL runtime, a second implementation for the *-intel tests
# (tests/meson.build), from PyPI into a virtual environment of Debian's
# Python in build/intel-ocl/. The ICD loader sees it only through the vendors
# folder build/intel-ocl/vendors, which those tests name in OCL_ICD_VENDORS:
# nothing goes to /etc/OpenCL/vendors, other programs keep their devices.
# Without PyPI the setup goes on, and those tests are skipped.
intel=build/intel-ocl
intel_version=2026.2.0
if [ ! -f "$intel/installed-$intel_version" ]; then
  rm -rf "$intel"
  echo "installing Intel's CPU OpenCL runtime $intel_version into $intel/"
  if /usr/bin/python3 -m venv "$intel/venv" &&
    "$intel/venv/bin/python" -m pip install -q --disable-pip-version-check \
      --timeout 30 --retries 2 \
      "intel-opencl-rt==$intel_version" "intel-cmplr-lib-rt==$intel_version"
  then
    # the wheels hold each library's names (libx.so, libx.so.1, ...) as
    # copies: the shorter names become links, 320 of 830 MB
    (cd "$intel/venv/lib" && for f in *.so *.so.*; do
      [ -f "$f" ] && [ ! -L "$f" ] || continue
      for g in "$f".*; do
        case $g in *.py) continue ;; esac
        if [ -f "$g" ] && [ ! -L "$g" ] && cmp -s "$f" "$g"; then
          ln -sf "$g" "$f"
          break
        fi
      done
    done)
    touch "$intel/installed-$intel_version"
  else
    rm -rf "$intel"
    echo "WARNING: Intel's CPU OpenCL runtime could not be installed from" \
      "PyPI: the *-intel tests will be skipped" >&2
  fi
fi
if [ -f "$intel/installed-$intel_version" ]; then
  # the library's absolute path, written again should the tree move; the
  # libraries it needs lie beside it, found through its RUNPATH ($ORIGIN)
  mkdir -p "$intel/vendors"
  echo "$PWD/$intel/venv/lib/libintelocl.so" >"$intel/vendors/intel.icd"
  if ! OCL_ICD_VENDORS=$PWD/$intel/vendors clinfo -l 2>/dev/null |
    grep -q "Device #"; then
    rm -rf "$intel/vendors"
    echo "WARNING: Intel's CPU OpenCL runtime in $intel/ lists no device" \
      "on this machine: the *-intel tests will be skipped" >&2
  fi
fi

[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
echo "built build/gst/libgstclfilters.so"
