#!/bin/sh
# Real footage for the denoising benchmark (tools/denoise-quality.py): the
# sample videos of OpenCV's documentation, from Debian's opencv-doc package,
# taken without installing it (96 MB download, 12 MB kept).
#   vtest.avi     768x576, 10 fps: a street from a fixed camera, people walking
#   tree.avi      320x240, 15 fps: a tree in the wind, the camera moving
#   Megamind.avi  720x528, 24 fps: animation, moving camera and cuts
set -eu
cd "$(dirname "$0")/.."
dest=data/footage
clips="vtest.avi tree.avi Megamind.avi"

have=yes
for c in $clips; do [ -f "$dest/$c" ] || have=no; done
[ $have = yes ] && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -qq opencv-doc 2>/dev/null ||
  { apt-get update -qq 2>/dev/null || sudo apt-get update -qq; apt-get download -qq opencv-doc; })
mkdir -p "$dest"
for c in $clips; do
  dpkg-deb --fsys-tarfile "$tmp"/opencv-doc_*.deb |
    tar -xO "./usr/share/doc/opencv-doc/examples/data/$c" >"$dest/$c"
done
echo "footage in $dest: $clips"
