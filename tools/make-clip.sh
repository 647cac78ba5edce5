#!/bin/sh
# Makes an H.264 clip with Debian's x264enc (gstreamer1.0-plugins-ugly), for
# the pipelines that decode on an NVIDIA GPU (docs/nvidia.md):
#
#   tools/make-clip.sh clip.h264                  # 1920x1080, 30 s at 30 fps
#   tools/make-clip.sh small.h264 642x362 60      # WxH, frames
#
# The picture moves (videotestsrc's SMPTE bars scrolling, with a ball over
# them) and the stream has B-frames, as a camera's or a file's has.
set -eu
out=${1:?usage: $0 OUT.h264 [WxH] [FRAMES]}
size=${2:-1920x1080}
frames=${3:-900}
w=${size%x*}
h=${size#*x}
gst-launch-1.0 -q \
  videotestsrc num-buffers="$frames" pattern=smpte horizontal-speed=3 ! \
  video/x-raw,width="$w",height="$h",framerate=30/1,format=I420 ! \
  x264enc speed-preset=faster bitrate=${BITRATE:-6000} key-int-max=60 bframes=2 ! \
  video/x-h264,profile=high,stream-format=byte-stream ! \
  filesink location="$out"
echo "made $out: ${w}x$h, $frames frames, $(du -h "$out" | cut -f1)"
