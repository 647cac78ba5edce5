#!/usr/bin/env python3
# gstclfilters tests: every gst-launch-1.0 line of the docs runs as written
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Collects the launch lines of README.md, docs/*.md and the elements'
# gst-inspect documentation (gst/*.c), and runs each with what a test
# machine lacks swapped in: fakesink for the display, a test source for the
# camera, a JPEG made from a test photo for "in.jpg", and a few frames from
# sources that would run for ever. A line that fails to parse, link or run
# fails the test. Lines of NVIDIA's decoders (docs/nvidia.md) run on H.264
# clips made here with x264enc where nvh264dec is there, and are skipped,
# saying so, where it is not; so are lines of an encoder from a package the
# tests do not install (OPTIONAL), where it is missing.
#
#   tests/launch-lines.py SOURCE_ROOT PHOTO
import glob
import os
import re
import subprocess
import sys
import tempfile

import clcases


def launch_lines(root):
    """(where, command) of every launch line, continuations joined."""
    files = [os.path.join(root, "README.md")]
    files += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    files += sorted(glob.glob(os.path.join(root, "gst", "*.c")))
    for path in files:
        with open(path) as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            line = re.sub(r"^\s*\*?\s*", "", lines[i])
            start = i
            if line.startswith("gst-launch-1.0 "):
                while line.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    line = line[:-1] + " " + re.sub(r"^\s*\*?\s*", "",
                                                    lines[i])
                where = f"{os.path.relpath(path, root)}:{start + 1}"
                yield where, line
            i += 1


def runnable(line, tmp, jpeg):
    """The line with a display, camera and endless sources swapped out."""
    line = re.sub(r"\b(autovideosink|xvimagesink|ximagesink|glimagesink)\b",
                  "fakesink", line)
    # a webcam's MJPEG: JPEG frames of 4:2:2, as most webcams send
    line = re.sub(r"\bv4l2src ! image/jpeg\b", "videotestsrc ! "
                  "video/x-raw,format=Y42B ! jpegenc ! image/jpeg", line)
    line = re.sub(r"\bv4l2src\b", "videotestsrc", line)
    line = line.replace("location=in.jpg", f"location={jpeg}")
    # what a line writes goes to the temporary folder, not the tree
    line = re.sub(r"\bfilesink location=(\w[\w.-]*)(?![\w./-])",
                  lambda m: f"filesink location={os.path.join(tmp, m.group(1))}",
                  line)
    # sources and freezes that never end: a few frames
    line = re.sub(r"\b(videotestsrc|imagefreeze)\b(?![^!]*num-buffers)",
                  r"\1 num-buffers=5", line)
    return line.replace("gst-launch-1.0 ", "gst-launch-1.0 -q ", 1)


NVIDIA = re.compile(r"\b(nvh26[45](device\d+)?dec|cudadownload|cudaupload)\b")
CLIPS = re.compile(r"location=(clip|a|b)\.h264\b")
# elements of packages tools/setup.sh leaves out, and those packages
OPTIONAL = {"x264enc": "gstreamer1.0-plugins-ugly"}


def nvidia_lines_runnable(tmp):
    """Why lines of NVIDIA's decoders cannot run here, or None."""
    for name in ("nvh264dec", "cudadownload", "h264parse"):
        if not clcases.has_element(name):
            return f"no {name} (NVIDIA's GPU, driver and gst-plugins-bad)"
    if not clcases.has_element("x264enc"):
        return "no x264enc to make the clips (gstreamer1.0-plugins-ugly)"
    for clip in ("clip", "a", "b"):
        subprocess.run(["gst-launch-1.0", "-q", "videotestsrc",
                        "num-buffers=30", "!",
                        "video/x-raw,width=640,height=360,format=I420", "!",
                        "x264enc", "!", "video/x-h264,stream-format=byte-stream",
                        "!", "filesink", f"location={os.path.join(tmp, clip)}.h264"],
                       check=True)
    return None


def main():
    root, photo = sys.argv[1], sys.argv[2]
    failed = ran = skipped = 0
    no_nvidia = False
    # without the test photos (tools/fetch-photos.sh), the lines that read
    # them are skipped and the JPEG is made from a test pattern
    no_photos = None if os.path.exists(photo) else (
        f"no test photos ({photo}: tools/fetch-photos.sh fetches them)")
    with tempfile.TemporaryDirectory() as tmp:
        jpeg = os.path.join(tmp, "in.jpg")
        source = (["videotestsrc", "num-buffers=1", "!",
                   "video/x-raw,width=640,height=480"] if no_photos else
                  ["filesrc", f"location={photo}", "!", "decodebin"])
        # 4:2:0 YCbCr, as a camera's or a photo's JPEG (from RGB, jpegenc
        # would write RGB, which jpegdec gives back)
        subprocess.run(["gst-launch-1.0", "-q"] + source + [
                        "!", "videoconvert", "!", "video/x-raw,format=I420",
                        "!", "jpegenc", "quality=30", "!",
                        "filesink", f"location={jpeg}"], check=True)
        for where, line in launch_lines(root):
            if no_photos and "data/photos/" in line:
                skipped += 1
                print(f"skip {where}: {no_photos}")
                continue
            missing = [f"no {e} ({p})" for e, p in OPTIONAL.items()
                       if re.search(rf"\b{e}\b", line)
                       and not clcases.has_element(e)]
            if missing:
                skipped += 1
                print(f"skip {where}: {', '.join(missing)}")
                continue
            if NVIDIA.search(line):
                if no_nvidia is False:
                    no_nvidia = nvidia_lines_runnable(tmp)
                if no_nvidia:
                    skipped += 1
                    print(f"skip {where}: {no_nvidia}")
                    continue
                line = CLIPS.sub(lambda m: f"location={tmp}/{m.group(1)}.h264",
                                 line)
            cmd = runnable(line, tmp, jpeg)
            try:
                res = subprocess.run(cmd, shell=True, cwd=root, timeout=120,
                                     capture_output=True, text=True)
                ok = res.returncode == 0
                out = res.stdout + res.stderr
            except subprocess.TimeoutExpired:
                ok, out = False, "timed out"
            ran += 1
            print(f"{'ok  ' if ok else 'FAIL'} {where}: {line}")
            if not ok:
                failed += 1
                print(f"     ran: {cmd}\n     {out.strip()}")
    print(f"{ran - failed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
