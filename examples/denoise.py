#!/usr/bin/env python3
# gstclfilters example: frames from numpy through clepsilon and back, in Python
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# What a Python program does first with the plugin: hand it frames it has in
# numpy arrays (from a camera SDK, a file, a model) through appsrc, and take
# the filtered frames back from appsink as numpy arrays.
#
#   GST_PLUGIN_PATH=build/gst python3 examples/denoise.py
#
# The frames here are a picture of flat areas and sharp edges with ringing
# around them, as a lossy codec leaves; clepsilon smooths the ringing and
# keeps the edges. Each output is checked against the same filter written
# in numpy, bit for bit. Needs python3-gi, gir1.2-gst-plugins-base-1.0 and
# python3-numpy.
import sys

NEEDS = ("needs PyGObject with GStreamer's introspection data and numpy. On "
         "Debian: sudo apt-get install python3-gi gir1.2-gst-plugins-base-1.0 "
         "python3-numpy, then run it with Debian's /usr/bin/python3, or in a "
         "virtual environment made with python3 -m venv "
         "--system-site-packages")

try:
    import gi
    import numpy as np
    gi.require_version("Gst", "1.0")
    gi.require_version("GstApp", "1.0")
    from gi.repository import Gst
except (ImportError, ValueError) as e:
    sys.exit("denoise.py %s (%s)" % (NEEDS, e))

W, H, FRAMES = 320, 240, 10
THRESHOLD, DIAMETER = 20, 9


def make_frame(i, rng):
    """An NV12 frame: luma of squares with ringing, grey chroma."""
    y = np.full((H, W), 60, np.int32)
    y[40:200, 60 + i * 4:160 + i * 4] = 200  # an edge that moves
    y += rng.integers(-12, 13, size=(H, W))  # the ringing
    uv = np.full((H // 2, W), 128, np.uint8)
    return np.clip(y, 0, 255).astype(np.uint8), uv


def epsilon(y, threshold, diameter):
    """clepsilon's formula: the rounded mean of the window's pixels within
    the threshold of the centre, edges replicated."""
    r = diameter // 2
    c = y.astype(np.int32)
    padded = np.pad(c, r, mode="edge")
    total = np.zeros_like(c)
    count = np.zeros_like(c)
    for dy in range(diameter):
        for dx in range(diameter):
            p = padded[dy:dy + H, dx:dx + W]
            near = np.abs(p - c) <= threshold
            total += np.where(near, p, 0)
            count += near
    return ((total + count // 2) // count).astype(np.uint8)


def main():
    Gst.init(None)
    pipeline = Gst.parse_launch(
        "appsrc name=src format=time caps=video/x-raw,format=NV12,"
        f"width={W},height={H},framerate=30/1 ! "
        f"clepsilon threshold={THRESHOLD} diameter={DIAMETER} ! "
        "appsink name=sink sync=false")
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)

    rng = np.random.default_rng(1)
    frames = [make_frame(i, rng) for i in range(FRAMES)]
    for i, (y, uv) in enumerate(frames):
        buf = Gst.Buffer.new_wrapped(y.tobytes() + uv.tobytes())
        buf.pts = i * Gst.SECOND // 30
        buf.duration = Gst.SECOND // 30
        src.emit("push-buffer", buf)
    src.emit("end-of-stream")

    wrong = 0
    for i, (y, uv) in enumerate(frames):
        sample = sink.emit("try-pull-sample", 30 * Gst.SECOND)
        if sample is None:
            bus = pipeline.get_bus()
            msg = bus.pop_filtered(Gst.MessageType.ERROR)
            err = msg.parse_error()[0].message if msg else "no frame"
            print(f"frame {i}: {err}", file=sys.stderr)
            pipeline.set_state(Gst.State.NULL)
            return 1
        ok, info = sample.get_buffer().map(Gst.MapFlags.READ)
        data = np.frombuffer(info.data, np.uint8)
        out_y = data[:W * H].reshape(H, W)  # default NV12 layout: no padding
        out_uv = data[W * H:W * H + W * H // 2].reshape(H // 2, W)
        same = (np.array_equal(out_y, epsilon(y, THRESHOLD, DIAMETER))
                and np.array_equal(out_uv, uv))
        # the ringing, as the spread of the luma in a flat area
        flat = (slice(0, 30), slice(0, 50))
        print(f"frame {i}: ringing {y[flat].std():4.1f} -> "
              f"{out_y[flat].std():4.1f}"
              f"{'' if same else '  DIFFERS from numpy'}")
        wrong += not same
        sample.get_buffer().unmap(info)

    pipeline.set_state(Gst.State.NULL)
    print(f"{FRAMES} frames, " + ("all equal to numpy's epsilon filter"
                                  if not wrong else f"{wrong} differ"))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
