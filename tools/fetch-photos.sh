#!/bin/sh
# Real photos for the demo and the tests, taken from a Debian package's data
# (scikit-image's sample images) without installing it.
set -eu
cd "$(dirname "$0")/.."
dest=data/photos
photos="astronaut.png chelsea.png coffee.png motorcycle_left.png"

have=yes
for p in $photos; do [ -f "$dest/$p" ] || have=no; done
[ $have = yes ] && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -qq python3-skimage 2>/dev/null ||
  { apt-get update -qq 2>/dev/null || sudo apt-get update -qq; apt-get download -qq python3-skimage; })
mkdir -p "$dest"
for p in $photos; do
  dpkg-deb --fsys-tarfile "$tmp"/python3-skimage_*.deb |
    tar -xO "./usr/lib/python3/dist-packages/skimage/data/$p" >"$dest/$p"
done
echo "photos in $dest: $photos"
