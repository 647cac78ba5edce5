#!/bin/sh
# Draws docs/epsilon-jpeg.png: a crop of the test photo, as is, after JPEG at
# quality 10, and after JPEG then clepsilon with its defaults, side by side,
# each enlarged 2x without smoothing.
set -eu
cd "$(dirname "$0")/.."
export GST_PLUGIN_PATH="$PWD/build/gst"
photo=data/photos/astronaut.png
crop="videocrop left=150 top=40 right=170 bottom=280"
show="$crop ! videoscale method=nearest-neighbour ! video/x-raw,width=384,height=384"
src="filesrc location=$photo ! pngdec ! videoconvert ! video/x-raw,format=I420"
jpeg="jpegenc quality=10 ! jpegdec ! videoconvert ! video/x-raw,format=I420"

gst-launch-1.0 -q compositor name=m background=white \
    sink_1::xpos=392 sink_2::xpos=784 ! videoconvert ! pngenc ! \
    filesink location=docs/epsilon-jpeg.png \
  $src ! $show ! m.sink_0 \
  $src ! $jpeg ! $show ! m.sink_1 \
  $src ! $jpeg ! clepsilon ! $show ! m.sink_2
echo "wrote docs/epsilon-jpeg.png"
