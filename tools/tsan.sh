#!/bin/bash
# The suites that run threads under ThreadSanitizer. TSan sees the
# synchronisation only of code it instruments, and GLib's GMutex and GCond
# are futexes it cannot see from outside: with Debian's GLib and GStreamer
# nearly every report is a handoff through them. So GLib, GStreamer's core
# and base are built instrumented too, into .tsan/, and the plugin and its
# tests against them into build-tsan/ (docs/testing.md#under-threadsanitizer).
#
#   tools/tsan.sh GLIB GST    # GLIB: a GLib checkout at 2.74.6 with its gvdb
#                             # subproject; GST: the GStreamer monorepo at a
#                             # 1.26 release (tools/gst126.sh's)
#   source tools/tsan.sh env  # then: meson test -C build-tsan SUITES
#
# About 5 minutes on 2 cores; later runs rebuild only the plugin. Needs
# tools/gst126.sh's meson (>= 1.4, in .gst126-meson/) for GStreamer 1.26.
if [ "${1:-}" = env ]; then
  _t=$PWD/.tsan
  if [ ! -d "$_t/lib" ]; then
    echo "no sanitized GLib and GStreamer in $_t: run tools/tsan.sh first" >&2
    unset _t
    return 1 2>/dev/null || exit 1
  fi
  export LD_LIBRARY_PATH=$_t/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PATH=$_t/bin:$PATH
  export GST_PLUGIN_SYSTEM_PATH_1_0=$_t/lib/x86_64-linux-gnu/gstreamer-1.0
  export GST_PLUGIN_SCANNER_1_0=$_t/libexec/gstreamer-1.0/gst-plugin-scanner
  export GST_REGISTRY_1_0=$_t/registry.bin
  # tests/tsan.supp says what is left out, and why
  export TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp second_deadlock_stack=1 history_size=7 exitcode=66"
  # GSlice's magazine heuristics race by design; plain malloc instead
  export G_SLICE=always-malloc
  unset _t
  return 0 2>/dev/null || exit 0
fi
set -euo pipefail
glib=$(cd "${1:?usage: $0 GLIB GST}" && pwd)
src=$(cd "${2:?usage: $0 GLIB GST}" && pwd)
cd "$(dirname "$0")/.."
P=$PWD/.tsan B=$PWD/.tsan-build M=$PWD/.gst126-meson
[ -f "$glib/subprojects/gvdb/meson.build" ] ||
  { echo "$glib: no GLib with its gvdb subproject" >&2; exit 1; }
[ -x $M/bin/meson ] || { python3 -m venv $M && $M/bin/pip install -q "meson>=1.4,<1.8"; }
ex="$(git rev-parse --git-dir)/info/exclude"
for d in .tsan .tsan-build build-tsan; do
  grep -qx "/$d/" "$ex" 2>/dev/null || echo "/$d/" >>"$ex"
done
export PATH=$M/bin:$PATH PKG_CONFIG_PATH=$P/lib/x86_64-linux-gnu/pkgconfig
common="--prefix=$P --libdir=lib/x86_64-linux-gnu -Dbuildtype=debugoptimized
  -Db_sanitize=thread -Db_lundef=false"
build() { # name source options...
  local b=$B/$1 s=$2
  shift 2
  mkdir -p $B
  if [ ! -f $b/build.ninja ]; then
    rm -rf $b
    meson setup $b "$s" $common "$@" >$B/setup-$(basename $s).log ||
      { tail -20 $B/setup-$(basename $s).log; exit 1; }
  fi
  ninja -C $b install >/dev/null
}
build glib "$glib" -Dtests=false -Dinstalled_tests=false -Dselinux=disabled \
  -Dlibmount=disabled -Dxattr=false -Dnls=disabled -Dman=false \
  -Dgtk_doc=false -Dlibelf=disabled -Dsysprof=disabled
gstcommon="-Dauto_features=disabled -Ddoc=disabled -Dtests=disabled
  -Dexamples=disabled -Dnls=disabled"
build core "$src/subprojects/gstreamer" $gstcommon -Dintrospection=disabled -Dtools=enabled \
  -Dcheck=enabled -Dcoretracers=enabled -Dlibunwind=disabled -Dlibdw=disabled
# the elements the threaded suites use, as tools/gst126.sh builds them
build base "$src/subprojects/gst-plugins-base" $gstcommon -Dorc=disabled \
  -Dintrospection=disabled -Dtools=enabled -Dvideotestsrc=enabled -Dvideoconvertscale=enabled \
  -Dapp=enabled -Dvideorate=enabled -Daudiotestsrc=enabled \
  -Dtypefind=enabled -Dplayback=enabled -Drawparse=enabled \
  -Dcompositor=enabled -Doverlaycomposition=enabled -Dgl=disabled
build good "$src/subprojects/gst-plugins-good" $gstcommon -Dorc=disabled \
  -Dpng=enabled -Djpeg=enabled -Dvideocrop=enabled -Dimagefreeze=enabled \
  -Dvideofilter=enabled -Dvideobox=enabled -Dmultifile=enabled
# the plugin and its tests, instrumented the same way
[ -f build-tsan/build.ninja ] || PATH=/usr/bin:$PATH meson setup build-tsan \
  -Db_sanitize=thread -Db_lundef=false -Dcuda=disabled >/dev/null
PATH=/usr/bin:$PATH ninja -C build-tsan >/dev/null
echo "built; the threaded suites:"
echo "  source tools/tsan.sh env && meson test -C build-tsan -t 5 core inflight composite memory streams"
