#!/bin/sh
# Runs one example on real input and checks what it says; `meson test`
# calls it for each (meson test -C build --suite examples).
set -eu
photo=$CL_TEST_PHOTO_DIR/coffee.png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Debian's own Python, with its python3-gi and python3-numpy
python=/usr/bin/python3

# A short, low-quality MJPEG clip of the photo: ringing for clepsilon.
make_clip() {
  gst-launch-1.0 -q filesrc location="$photo" ! decodebin ! videoconvert ! \
    videoscale ! video/x-raw,width=320,height=240 ! \
    imagefreeze num-buffers="$1" ! video/x-raw,framerate=30/1 ! \
    jpegenc quality=15 ! avimux ! filesink location="$tmp/clip.avi"
}

expect() {
  grep -q "$1" "$tmp/out" || { cat "$tmp/out"; echo "expected: $1"; exit 1; }
}

case $1 in
  denoise-c)
    make_clip 30
    "$EXAMPLES_BUILD/denoise" --sink fakesink --sweep "$tmp/clip.avi" \
      >"$tmp/out" 2>&1
    expect "^30 frames denoised$"
    ;;
  denoise-temporal-c)
    # cldenoise: the clip's noise measured, notified, then the level set
    make_clip 60
    "$EXAMPLES_BUILD/denoise" --temporal --sink "fakesink sync=true" \
      --sweep "$tmp/clip.avi" >"$tmp/out" 2>&1
    expect "^60 frames denoised$"
    expect "^noise estimated [0-9]"
    expect "^noise level 10$"
    ;;
  denoise-stop-c)
    # played in real time for 10 s; Ctrl-C after 2: an EOS, then NULL
    make_clip 300
    "$EXAMPLES_BUILD/denoise" --sink "fakesink sync=true" --sweep \
      "$tmp/clip.avi" >"$tmp/out" 2>&1 &
    pid=$!
    sleep 3
    kill -INT $pid
    wait $pid
    expect "Ctrl-C: ending the stream"
    expect "threshold 8"
    expect "frames denoised, stopped cleanly"
    ;;
  integral-c)
    "$EXAMPLES_BUILD/integral" "$photo" >"$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
    expect "^1 frames, every box sum equal to the loop's$"
    ;;
  shared-context-c)
    "$EXAMPLES_BUILD/shared-context" >"$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
    expect "^3 frames read on the device by our kernel, all right$"
    ;;
  denoise-py)
    "$python" "$EXAMPLES_SOURCE/denoise.py" >"$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
    expect "^10 frames, all equal to numpy's epsilon filter$"
    ;;
  denoise-py-venv)
    # the documented way in a virtual environment: it sees Debian's gi
    "$python" -m venv --system-site-packages "$tmp/venv"
    "$tmp/venv/bin/python" "$EXAMPLES_SOURCE/denoise.py" >"$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
    expect "^10 frames, all equal to numpy's epsilon filter$"
    ;;
  py-needs)
    # a Python without gi and numpy (-S: no site packages) is told what to
    # install, and how to run the examples
    for e in denoise.py integral.py; do
      if "$python" -S "$EXAMPLES_SOURCE/$e" "$photo" >"$tmp/out" 2>&1; then
        cat "$tmp/out"; echo "$e ran without gi"; exit 1
      fi
      expect "^$e needs PyGObject.*apt-get install python3-gi.*--system-site-packages"
    done
    ;;
  integral-py)
    "$python" "$EXAMPLES_SOURCE/integral.py" "$photo" >"$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
    expect "^1 frames, tables and box sums equal to numpy's$"
    ;;
esac
cat "$tmp/out"
