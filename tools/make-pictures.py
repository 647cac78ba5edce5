#!/usr/bin/env python3
# gstclfilters: the before/after pictures of docs/pictures/, made by the
# elements themselves from the test photos, so they can be made again.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   tools/setup.sh && GST_PLUGIN_PATH=build/gst python3 tools/make-pictures.py
#
# Needs python3-gi, gir1.2-gst-plugins-base-1.0 and python3-numpy (which
# tools/setup.sh installs). Each picture is a row of panels, left to right
# as the element pages describe them, 8 grey pixels between panels.
import os
import sys

import gi
import numpy as np

gi.require_version("Gst", "1.0")
gi.require_version("GstApp", "1.0")
from gi.repository import Gst  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOS = os.path.join(ROOT, "data", "photos")
OUT = os.path.join(ROOT, "docs", "pictures")
GAP = 8


def pull_all(pipeline, name="out"):
    """Plays @pipeline to its end; the RGBA frames of appsink @name."""
    sink = pipeline.get_by_name(name)
    pipeline.set_state(Gst.State.PLAYING)
    frames = []
    while (sample := sink.emit("pull-sample")) is not None:
        s = sample.get_caps().get_structure(0)
        w, h = s.get_value("width"), s.get_value("height")
        ok, info = sample.get_buffer().map(Gst.MapFlags.READ)
        frames.append(np.frombuffer(info.data, np.uint8)[:w * h * 4]
                      .reshape(h, w, 4).copy())
        sample.get_buffer().unmap(info)
    bus = pipeline.get_bus()
    msg = bus.pop_filtered(Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if msg:
        raise RuntimeError(msg.parse_error()[0].message)
    return frames


def picture(path, size, fmt, middle, pre=""):
    """The photo @path at @size in @fmt, through @pre and @middle (launch
    descriptions), as RGBA."""
    w, h = size
    p = Gst.parse_launch(
        f'filesrc location="{path}" ! decodebin ! videoconvert ! '
        f"videoscale ! video/x-raw,format={fmt},width={w},height={h} ! {pre}"
        f"{middle} ! videoconvert ! video/x-raw,format=RGBA ! "
        "appsink name=out sync=false")
    return pull_all(p)[0]


def composite(bg, ov, props):
    p = Gst.parse_launch(
        f"clcomposite name=c {props} ! videoconvert ! "
        "video/x-raw,format=RGBA ! appsink name=out sync=false "
        f'filesrc location="{bg[0]}" ! decodebin ! videoconvert ! videoscale '
        f"! video/x-raw,format=RGBA,width={bg[1]},height={bg[2]} ! "
        "imagefreeze num-buffers=1 ! c.sink_0 "
        f'filesrc location="{ov[0]}" ! decodebin ! videoconvert ! videoscale '
        f"! video/x-raw,format=RGBA,width={ov[1]},height={ov[2]} ! "
        "imagefreeze num-buffers=1 ! c.sink_1")
    return pull_all(p)[0]


def integral_image(path, size):
    """The luma's integral image, scaled to 0..255 to be seen."""
    w, h = size
    p = Gst.parse_launch(
        f'filesrc location="{path}" ! decodebin ! videoconvert ! videoscale '
        f"! video/x-raw,format=GRAY8,width={w},height={h} ! clintegral ! "
        "appsink name=out sync=false")
    sink = p.get_by_name("out")
    p.set_state(Gst.State.PLAYING)
    sample = sink.emit("pull-sample")
    meta = sample.get_buffer().get_custom_meta("GstClIntegralMeta")
    s = meta.get_structure()
    stride = s.get_value("stride")
    ok, info = s.get_value("sum").map(Gst.MapFlags.READ)
    rows = np.frombuffer(info.data, np.uint8)[:stride * h].reshape(h, stride)
    table = rows[:, :w * 4].copy().view(np.uint32).astype(np.float64)
    s.get_value("sum").unmap(info)
    p.set_state(Gst.State.NULL)
    grey = (255 * table / table.max()).astype(np.uint8)
    return np.dstack([grey, grey, grey, np.full_like(grey, 255)])


def zoom(img, x, y, w, h, factor):
    """A crop of @img, each pixel repeated @factor times each way."""
    crop = img[y:y + h, x:x + w]
    return crop.repeat(factor, 0).repeat(factor, 1)


def row(panels):
    """Panels side by side, grey between them, their tops aligned."""
    h = max(p.shape[0] for p in panels)
    w = sum(p.shape[1] for p in panels) + GAP * (len(panels) - 1)
    out = np.full((h, w, 4), 128, np.uint8)
    out[..., 3] = 255
    x = 0
    for p in panels:
        out[:p.shape[0], x:x + p.shape[1]] = p
        x += p.shape[1] + GAP
    return out


def save(img, name):
    h, w = img.shape[:2]
    p = Gst.parse_launch(
        f"appsrc name=src caps=video/x-raw,format=RGBA,width={w},height={h},"
        "framerate=1/1 ! pngenc compression-level=9 ! filesink "
        f'location="{os.path.join(OUT, name)}"')
    src = p.get_by_name("src")
    p.set_state(Gst.State.PLAYING)
    src.emit("push-buffer", Gst.Buffer.new_wrapped(img.tobytes()))
    src.emit("end-of-stream")
    p.get_bus().timed_pop_filtered(Gst.CLOCK_TIME_NONE,
                                   Gst.MessageType.EOS |
                                   Gst.MessageType.ERROR)
    p.set_state(Gst.State.NULL)
    print(f"docs/pictures/{name}: {w}x{h}")


def main():
    Gst.init(None)
    os.makedirs(OUT, exist_ok=True)
    coffee = os.path.join(PHOTOS, "coffee.png")
    astronaut = os.path.join(PHOTOS, "astronaut.png")
    chelsea = os.path.join(PHOTOS, "chelsea.png")
    size = (300, 200)

    save(row([picture(coffee, size, "RGBA", "identity")] +
             [picture(coffee, size, "RGBA", f"clboxblur diameter={d}")
              for d in (5, 15, 31)]), "clboxblur.png")
    save(row([picture(astronaut, (256, 256), "GRAY8", "identity")] +
             [picture(astronaut, (256, 256), "GRAY8", f"clsobel mode={m}")
              for m in ("l1", "l2", "x", "y")]), "clsobel.png")

    # a JPEG of low quality, then clepsilon: its ringing, zoomed 3 times;
    # in NV12, and in a camera's packed 4:2:2, filtered in that format
    for fmt, name in (("NV12", "clepsilon.png"),
                      ("YUY2", "clepsilon-yuy2.png")):
        jpeg = "jpegenc quality=12 ! jpegdec ! videoconvert ! " \
            f"video/x-raw,format={fmt} ! "
        before = picture(coffee, (600, 400), "I420", "identity", jpeg)
        after = picture(coffee, (600, 400), "I420",
                        "clepsilon threshold=20 diameter=9", jpeg)
        save(row([zoom(before, 330, 60, 110, 110, 3),
                  zoom(after, 330, 60, 110, 110, 3)]), name)

    save(row([composite((coffee, 400, 266), (chelsea, 200, 133),
                        "sink_1::alpha=0.7 sink_1::xpos=24 sink_1::ypos=24"),
              composite((coffee, 400, 266), (chelsea, 200, 133),
                        "sink_1::alpha=0.3 sink_1::xpos=260 sink_1::ypos=180")]),
         "clcomposite.png")
    save(row([picture(astronaut, (256, 256), "GRAY8", "identity"),
              integral_image(astronaut, (256, 256))]), "clintegral.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
