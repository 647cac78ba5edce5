#!/bin/bash
# GStreamer 1.26 (Debian 13's series; Ubuntu 24.04 has 1.24), built from the
# GStreamer monorepo into .gst126/, and the plugin built against it in
# build-126/: the suite then runs on the GStreamer most users have now as
# well as on Debian 12's 1.22 (docs/testing.md#on-gstreamer-126).
#
#   tools/gst126.sh SRC           # SRC: the GStreamer monorepo, checked out at
#                                 # a 1.26 release (git checkout 1.26.11)
#   source tools/gst126.sh env    # then: meson test -C build-126 --print-errorlogs
#
# What is built: core with gst-check and the leaks tracer, base, the good
# plugins the suites use (PNG, JPEG, VP8, Matroska, ...) and gst-plugins-bad's
# NVIDIA elements (nvh264dec, cudaupload, cudadownload, libgstcuda) and video
# parsers. About 10 minutes on 2 cores; later runs rebuild only the plugin.
# 1.26 needs meson >= 1.4 (Debian 12 has 1.0.1): it comes from PyPI into
# .gst126-meson/.
if [ "${1:-}" = env ]; then
  _g=$PWD/.gst126
  if [ ! -d "$_g/lib" ]; then
    echo "no GStreamer 1.26 in $_g: run tools/gst126.sh SRC first" >&2
    unset _g
    return 1 2>/dev/null || exit 1
  fi
  export LD_LIBRARY_PATH=$_g/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PATH=$_g/bin:$PATH
  export GST_PLUGIN_SYSTEM_PATH_1_0=$_g/lib/x86_64-linux-gnu/gstreamer-1.0
  export GST_PLUGIN_SCANNER_1_0=$_g/libexec/gstreamer-1.0/gst-plugin-scanner
  export GST_REGISTRY_1_0=$_g/registry.bin
  export GST_PLUGIN_PATH_1_0=$PWD/${GST_CL_BUILD:-build-126}/gst
  unset _g
  return 0 2>/dev/null || exit 0
fi
set -euo pipefail
src=$(cd "${1:?usage: $0 SRC (the GStreamer monorepo, checked out at a 1.26 release)}" && pwd)
cd "$(dirname "$0")/.."
P=$PWD/.gst126 B=$PWD/.gst126-build M=$PWD/.gst126-meson
version=$(sed -n "s/^ *version *: *'\([0-9.]*\)'.*/\1/p" "$src/subprojects/gstreamer/meson.build" 2>/dev/null | head -1)
case $version in
  1.26.*) ;;
  *) echo "$src is no GStreamer 1.26 monorepo (its gstreamer is '${version:-?}'):" \
       "check out a 1.26 release there (git checkout 1.26.11)" >&2; exit 1 ;;
esac
# the build's folders stay out of git's sight
ex="$(git rev-parse --git-dir)/info/exclude"
for d in .gst126 .gst126-build .gst126-meson build-126; do
  grep -qx "/$d/" "$ex" 2>/dev/null || echo "/$d/" >>"$ex"
done
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
missing=
for p in flex bison libvpx-dev python3-venv; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
[ -z "$missing" ] || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
[ -x $M/bin/meson ] || { python3 -m venv $M && $M/bin/pip install -q "meson>=1.4,<1.8"; }
export PATH=$M/bin:$PATH PKG_CONFIG_PATH=$P/lib/x86_64-linux-gnu/pkgconfig
common="--prefix=$P -Dbuildtype=release -Dauto_features=disabled -Ddoc=disabled
  -Dtests=disabled -Dexamples=disabled -Dnls=disabled"
build() { # name subproject options...
  local b=$B/$1 sp=$2
  shift 2
  mkdir -p $B
  if [ ! -f $b/build.ninja ]; then
    rm -rf $b
    meson setup $b "$src/subprojects/$sp" $common "$@" >$B/setup-$sp.log ||
      { tail -20 $B/setup-$sp.log; exit 1; }
  fi
  ninja -C $b install >/dev/null
}
build core gstreamer -Dintrospection=disabled -Dtools=enabled -Dcheck=enabled \
  -Dcoretracers=enabled -Dlibunwind=disabled -Dlibdw=disabled
build base gst-plugins-base -Dorc=disabled -Dintrospection=disabled -Dtools=enabled \
  -Dvideotestsrc=enabled -Dvideoconvertscale=enabled -Dapp=enabled -Dvideorate=enabled \
  -Daudiotestsrc=enabled -Dtypefind=enabled -Dplayback=enabled -Drawparse=enabled \
  -Dcompositor=enabled -Doverlaycomposition=enabled -Dgl=disabled
build good gst-plugins-good -Dorc=disabled -Dpng=enabled -Djpeg=enabled -Dvpx=enabled \
  -Dvideocrop=enabled -Dimagefreeze=enabled -Dmatroska=enabled -Dvideofilter=enabled \
  -Disomp4=enabled -Davi=enabled -Dautodetect=enabled -Dmultifile=enabled -Dvideobox=enabled
build bad gst-plugins-bad -Dorc=disabled -Dintrospection=disabled -Dnvcodec=enabled \
  -Dvideoparsers=enabled
echo "$(LD_LIBRARY_PATH=$P/lib/x86_64-linux-gnu $P/bin/gst-launch-1.0 --version | sed -n 2p) in .gst126/"
# the plugin: Debian's meson, GStreamer from .gst126 (pkg-config); the
# Intel runtime the *-intel tests use is build/'s (tools/setup.sh)
[ -f build-126/build.ninja ] || PATH=/usr/bin:$PATH meson setup build-126 >/dev/null
PATH=/usr/bin:$PATH ninja -C build-126 >/dev/null
echo "the plugin built against it in build-126/; the suite:"
echo "  source tools/gst126.sh env && meson test -C build-126 --print-errorlogs"
