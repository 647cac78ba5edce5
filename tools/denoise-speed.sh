#!/bin/sh
# cldenoise against FFmpeg's hqdn3d on the same 1080p NV12 frames, run in
# turn, a few rounds: the time a frame of each, the slope of a long run
# against a short one (so that neither start-up counts).
#
#   tools/fetch-footage.sh && tools/denoise-speed.sh [CLIP] [ROUNDS] [PROPS]
#
# The frames: the clip (default data/footage/vtest.avi) scaled to
# 1920x1080, with FFmpeg's temporal noise of strength 20. cldenoise runs
# with its level estimated and with noise-level=12; hqdn3d with settings
# for that noise (24:18:40:30); PROPS, more of cldenoise's properties
# (motion=true, say), for both. The plugin: GST_PLUGIN_PATH, or build/gst.
set -e
clip=${1:-data/footage/vtest.avi}
rounds=${2:-3}
props=${3:-}
long=110
short=10
[ -f "$clip" ] || { echo "no $clip: run tools/fetch-footage.sh" >&2; exit 1; }
for tool in ffmpeg gst-launch-1.0; do
  command -v $tool >/dev/null ||
    { echo "no $tool: apt-get install ffmpeg gstreamer1.0-tools" >&2; exit 1; }
done
here=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$here/build/gst}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for n in $long $short; do
  ffmpeg -v error -i "$clip" -frames:v $n \
    -vf scale=1920:1080,noise=alls=20:allf=t -pix_fmt nv12 -f rawvideo \
    "$tmp/in$n.nv12"
done

# seconds a run takes, with a clock of the shell's own
seconds () {
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}

gst () {
  gst-launch-1.0 -q filesrc location="$tmp/in$1.nv12" blocksize=3110400 ! \
    rawvideoparse format=nv12 width=1920 height=1080 framerate=30/1 ! \
    cldenoise $2 $props ! fakesink
}

ff () {
  ffmpeg -v error -f rawvideo -pix_fmt nv12 -s 1920x1080 -i "$tmp/in$1.nv12" \
    -vf hqdn3d=24:18:40:30 -f null -
}

# ms a frame: the long run's time less the short one's, over the frames
# between them
per_frame () {
  tl=$(seconds "$@" $long)
  ts=$(seconds "$@" $short)
  awk "BEGIN { printf \"%.2f\", ($tl - $ts) * 1000 / ($long - $short) }"
}

run_gst_estimated () { gst $1 ""; }
run_gst_set () { gst $1 noise-level=12; }
run_ff () { ff $1; }

echo "| round | cldenoise, level estimated, ms | cldenoise noise-level=12, ms | hqdn3d, ms |"
echo "|---:|---:|---:|---:|"
i=1
while [ $i -le $rounds ]; do
  a=$(per_frame run_gst_estimated)
  b=$(per_frame run_gst_set)
  c=$(per_frame run_ff)
  echo "| $i | $a | $b | $c |"
  i=$((i + 1))
done
