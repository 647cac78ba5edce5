#!/bin/sh
# The main job: a real photo through clboxblur into out/boxblur.png, then the
# speed of clboxblur on 1920x1080 RGBA frames made from that photo.
#   DIAMETER=31 FRAMES=200 tools/demo.sh
set -eu
cd "$(dirname "$0")/.."
export GST_PLUGIN_PATH="$PWD/build/gst"
photo=data/photos/coffee.png
d=${DIAMETER:-15}
frames=${FRAMES:-100}
mkdir -p out

gst-launch-1.0 -q filesrc location=$photo ! decodebin ! videoconvert ! \
  video/x-raw,format=RGBA ! clboxblur diameter=$d ! videoconvert ! pngenc ! \
  filesink location=out/boxblur.png
echo "wrote out/boxblur.png: $photo blurred with diameter $d"

# imagefreeze repeats the decoded photo; fakesink takes frames as fast as they come
log=$(gst-launch-1.0 filesrc location=$photo ! decodebin ! videoconvert ! \
  videoscale ! video/x-raw,format=RGBA,width=1920,height=1080 ! \
  imagefreeze num-buffers=$frames ! clboxblur diameter=$d ! \
  fakesink sync=false 2>&1)
t=$(echo "$log" | sed -n 's/.*Execution ended after \([0-9:.]*\).*/\1/p')
if [ -z "$t" ]; then
  echo "$log"
  exit 1
fi
echo "$t" | awk -F: -v n=$frames -v d=$d '{ s = $1 * 3600 + $2 * 60 + $3;
  printf "clboxblur diameter=%d, 1920x1080 RGBA: %d frames in %.2f s = %.1f fps (%.2f ms/frame)\n",
  d, n, s, n / s, 1000 * s / n }'
