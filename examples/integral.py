#!/usr/bin/env python3
# gstclfilters example: clintegral's tables as numpy arrays, in Python
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# clintegral attaches to every buffer the integral image of its luma,
# I(x,y) = the sum of Y over 0..x, 0..y (a "GstClIntegralMeta"), from which
# the sum of any box takes four lookups.
#
#   GST_PLUGIN_PATH=build/gst python3 examples/integral.py picture.png
#
# The table is checked against numpy's cumulative sums, and box sums from
# it against numpy's sums over the boxes. Needs python3-gi,
# gir1.2-gst-plugins-base-1.0 and python3-numpy.
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
    gi.require_version("GstVideo", "1.0")
    from gi.repository import Gst, GstVideo
except (ImportError, ValueError) as e:
    sys.exit("integral.py %s (%s)" % (NEEDS, e))


def box_sum(table, x0, y0, x1, y1):
    """The sum over x0..x1, y0..y1: four lookups, exact modulo 2^32."""
    def at(x, y):
        return int(table[y, x]) if x >= 0 and y >= 0 else 0
    return (at(x1, y1) - at(x0 - 1, y1) - at(x1, y0 - 1)
            + at(x0 - 1, y0 - 1)) % 2**32


def table_of(buffer):
    """The meta's "sum" table as a (height, width) uint32 array."""
    meta = buffer.get_custom_meta("GstClIntegralMeta")
    if meta is None:
        raise RuntimeError("no GstClIntegralMeta on the buffer")
    s = meta.get_structure()
    w, h, stride = s.get_value("width"), s.get_value("height"), \
        s.get_value("stride")
    ok, info = s.get_value("sum").map(Gst.MapFlags.READ)
    rows = np.frombuffer(info.data, np.uint8)[:stride * h].reshape(h, stride)
    table = rows[:, :w * 4].copy().view(np.uint32)
    s.get_value("sum").unmap(info)
    return table


def main():
    if len(sys.argv) < 2:
        print(f"usage: {sys.argv[0]} PICTURE-OR-VIDEO", file=sys.stderr)
        return 2
    Gst.init(None)
    uri = Gst.filename_to_uri(sys.argv[1])
    pipeline = Gst.parse_launch(
        f'uridecodebin uri="{uri}" ! videoconvert ! video/x-raw,format=GRAY8 '
        "! clintegral ! appsink name=sink sync=false")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)

    frames = wrong = 0
    while (sample := sink.emit("pull-sample")) is not None:
        buffer = sample.get_buffer()
        video = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
        w, h, stride = video.width, video.height, video.stride[0]
        ok, info = buffer.map(Gst.MapFlags.READ)
        luma = np.frombuffer(info.data, np.uint8)[:stride * h]
        luma = luma.reshape(h, stride)[:, :w].astype(np.uint64)
        buffer.unmap(info)

        table = table_of(buffer)
        want = (luma.cumsum(0).cumsum(1) % 2**32).astype(np.uint32)
        wrong += not np.array_equal(table, want)
        for (x0, y0, x1, y1) in [(0, 0, w - 1, h - 1),
                                 (w // 4, h // 4, w // 2, h // 2),
                                 (w - 9, h - 9, w - 1, h - 1)]:
            fast = box_sum(table, x0, y0, x1, y1)
            slow = int(luma[y0:y1 + 1, x0:x1 + 1].sum()) % 2**32
            n = (x1 - x0 + 1) * (y1 - y0 + 1)
            print(f"box {x0},{y0} - {x1},{y1}: mean luma {fast / n:6.2f}"
                  f"{'' if fast == slow else '  WRONG'}")
            wrong += fast != slow
        frames += 1

    pipeline.set_state(Gst.State.NULL)
    print(f"{frames} frames, " + ("tables and box sums equal to numpy's"
                                  if not wrong else "some WRONG"))
    return 1 if wrong or frames == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
