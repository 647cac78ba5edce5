#!/usr/bin/env python3
# gstclfilters: each element against what a user would take instead, timed
# in one run and interleaved, printed as a Markdown table.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   tools/setup.sh && tools/peers.py                  # 1080p and 4K
#   tools/peers.py --sizes 1920x1080 --rounds 5
#   tools/peers.py --only clintegral                # one element's rows
#   tools/peers.py --diameters 3,9,31,101 --devices pocl,intel
#                         # clboxblur against cv2.blur at each diameter, on
#                         # each device named as GST_CL_DEVICE names them
#
# Peers: OpenCV's functions on the CPU (cv2.blur, cv2.Sobel with the L1
# magnitude, cv2.integral, cv2.addWeighted), timed on a frame in memory, and
# GStreamer's own elements where one exists (cvsmooth, cvsobel from
# gst-plugins-bad's opencv plugin, compositor), timed as the elements are.
# An element's time is the slope of a real pipeline, `videotestsrc
# pattern=solid-color ! <caps> ! <element> ! video/x-raw ! fakesink`: the
# time of N + K frames less that of N, over K, so that start and stop
# cancel out, with K (100 at least) large enough that the K frames take
# about a second (on a GPU 100 frames take less than the start's jitter);
# a first run of each contender, not timed, compiles its kernels; "identity" in the element's place gives what the source and
# sink cost alone. The best of --rounds rounds; each round times every
# contender once, in turn.
#
# Needs gst-launch-1.0 and numpy (tools/setup.sh installs them), not the
# GObject bindings, so it runs wherever GStreamer's tools do; OpenCV is
# optional: apt-get install python3-opencv gstreamer1.0-opencv (or pip's
# opencv-python-headless, for the functions alone).
import argparse
import glob
import os
import shlex
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError as e:
    sys.exit("peers.py needs numpy (%s). On Debian: sudo apt-get install "
             "python3-numpy python3-gi, then run it with Debian's "
             "/usr/bin/python3, or in a virtual environment made with "
             "python3 -m venv --system-site-packages" % e)

try:
    import cv2
except ImportError:
    cv2 = None


class Failed(Exception):
    pass


def seconds(desc, env=None):
    """Wall seconds of gst-launch-1.0 running @desc to its end, in a process
    of its own: a peer that crashes fails its row, not the run (cvsmooth
    crashed on 4K frames inside a Python process)."""
    start = time.perf_counter()
    try:
        res = subprocess.run(["gst-launch-1.0", "-q"] + shlex.split(desc),
                             capture_output=True, timeout=300, env=env)
    except subprocess.TimeoutExpired:
        raise Failed("timed out")
    if res.returncode != 0:
        raise Failed("crashed" if res.returncode < 0 else "failed")
    return time.perf_counter() - start


def pipeline_desc(element, fmt, w, h, second=None):
    """A function of the frame count giving the launch line of @element in
    a real pipeline; @second: a second input's caps, for a two-input
    element."""
    def desc(frames):
        src = (f"videotestsrc pattern=solid-color num-buffers={frames} ! "
               f"video/x-raw,format={fmt},width={w},height={h},"
               "framerate=1000/1")
        if second is None:
            return f"{src} ! {element} ! video/x-raw ! fakesink sync=false"
        return (f"{element} name=m ! video/x-raw ! fakesink sync=false "
                f"{src} ! m.sink_0 videotestsrc num-buffers={frames} "
                f"pattern=solid-color ! {second},framerate=1000/1 ! "
                "m.sink_1")
    return desc


def frames_for_a_second(desc, n=20, env=None):
    """K such that K frames of @desc take about a second, from a first
    run (which also compiles the kernels) and a run of 100 more frames."""
    seconds(desc(n), env)
    per_frame = (seconds(desc(n + 100), env) - seconds(desc(n), env)) / 100
    return min(max(100, int(1.0 / max(per_frame, 1e-5))), 5000)


def pipeline_ms(desc, frames, n=20, env=None):
    """ms a frame of @desc, the slope over @frames frames."""
    return 1000 * (seconds(desc(n + frames), env) -
                   seconds(desc(n), env)) / frames


def function_ms(fn, *args, calls=20):
    """ms a call of @fn, the mean of @calls after a first one."""
    fn(*args)
    start = time.perf_counter()
    for _ in range(calls):
        fn(*args)
    return 1000 * (time.perf_counter() - start) / calls


def have(element):
    return subprocess.run(["gst-inspect-1.0", "--exists", element]).returncode == 0


def sobel_l1(g):
    gx = cv2.Sobel(g, cv2.CV_16S, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_16S, 0, 1, ksize=3)
    return cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy))


def cases(w, h):
    """(operation, our element and format, GStreamer peer and format,
    OpenCV call, second input's caps)"""
    rng = np.random.default_rng(0)
    rgba = rng.integers(0, 256, (h, w, 4), np.uint8)
    rgba2 = rng.integers(0, 256, (h, w, 4), np.uint8)
    grey = np.ascontiguousarray(rgba[..., 0])
    ov = f"video/x-raw,format=RGBA,width={w // 2},height={h // 2}"
    cv = cv2 is not None
    return [
        ("box blur 9x9", ("clboxblur diameter=9", "RGBA"),
         ("cvsmooth type=blur kernel-width=9 kernel-height=9", "RGB"),
         (lambda: cv2.blur(rgba, (9, 9))) if cv else None,
         "RGBA (cv2.blur on RGBA too; cvsmooth takes RGB)", None),
        ("Sobel, L1 magnitude", ("clsobel mode=l1", "GRAY8"),
         ("cvsobel", "RGB"), (lambda: sobel_l1(grey)) if cv else None,
         "GRAY8 (cvsobel takes RGB)", None),
        ("integral image", ("clintegral", "GRAY8"), None,
         (lambda: cv2.integral(grey)) if cv else None, "GRAY8", None),
        ("blend of two frames, alpha 0.5",
         ("clcomposite sink_1::alpha=0.5", "RGBA"),
         ("compositor sink_1::alpha=0.5", "RGBA"),
         (lambda: cv2.addWeighted(rgba, 0.5, rgba2, 0.5, 0)) if cv else None,
         "RGBA, an overlay of half the size (cv2: two whole frames)", ov),
        ("(the frame path alone)", ("identity", "RGBA"), None, None,
         "RGBA: what source and sink cost", None),
    ]


def best(values):
    values = [v for v in values if v is not None]
    return min(values) if values else None


def fmt_ms(v):
    return f"{v:.2f}" if v is not None else "-"


def ratio(a, b):
    return f"{b / a:.2f}" if a and b else "-"


def device_envs(devices):
    """An environment for each of @devices (GST_CL_DEVICE's values). Where
    Intel's CPU runtime is installed in the build (tools/setup.sh), the ICD
    loader is shown it beside the system's implementations, as
    docs/devices-and-contexts.md does by hand."""
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    intel = os.path.join(root, "build", "intel-ocl", "vendors")
    if os.path.isdir(intel) and "OCL_ICD_VENDORS" not in env:
        folder = tempfile.mkdtemp(prefix="clfilters-vendors-")
        for icd in (glob.glob("/etc/OpenCL/vendors/*.icd") +
                    glob.glob(os.path.join(intel, "*.icd"))):
            os.symlink(icd, os.path.join(folder, os.path.basename(icd)))
        env["OCL_ICD_VENDORS"] = folder
    return [(d, dict(env, GST_CL_DEVICE=d)) for d in devices]


def diameters_table(args):
    """clboxblur 1080p RGBA at each diameter on each device, and cv2.blur
    at the same diameters on an RGBA frame in memory, interleaved; beside
    each time, its ratio to the first diameter's."""
    w, h = (int(x) for x in args.sizes.split(",")[0].split("x"))
    ds = [int(d) for d in args.diameters.split(",")]
    devices = device_envs(args.devices.split(",") if args.devices else
                          [os.environ.get("GST_CL_DEVICE", "")])
    rgba = np.random.default_rng(0).integers(0, 256, (h, w, 4), np.uint8)
    descs = {}
    for name, env in devices:
        for d in ds:
            desc = pipeline_desc(f"clboxblur diameter={d}", "RGBA", w, h)
            descs[name, d] = (desc, frames_for_a_second(desc, env=env), env)
    times = {k: [] for k in descs}
    cv = {d: [] for d in ds}
    for _ in range(args.rounds):
        for k, (desc, frames, env) in descs.items():
            times[k].append(pipeline_ms(desc, frames, env=env))
        if cv2 is not None:
            for d in ds:
                cv[d].append(function_ms(lambda: cv2.blur(
                    rgba, (d, d), borderType=cv2.BORDER_REPLICATE)))
    names = [n or "default device" for n, _ in devices]
    print(f"clboxblur, {w}x{h} RGBA, ms a frame through `videotestsrc "
          f"pattern=solid-color ! <caps> ! clboxblur diameter=d ! "
          f"video/x-raw ! fakesink`, the best of {args.rounds}; cv2.blur "
          f"on RGBA in memory, BORDER_REPLICATE; each beside its time at "
          f"d = {ds[0]}\n")
    print("| d | " + " | ".join(f"{n} | / d = {ds[0]}" for n in names) +
          f" | cv2.blur | / d = {ds[0]} |")
    print("|---:|" + "---:|---:|" * (len(names) + 1))
    for d in ds:
        row = [f"{fmt_ms(best(times[n, d]))} | "
               f"{ratio(best(times[n, ds[0]]), best(times[n, d]))}"
               for n, _ in devices]
        print(f"| {d} | " + " | ".join(row) + f" | {fmt_ms(best(cv[d]))} | "
              f"{ratio(best(cv[ds[0]]), best(cv[d]))} |")
    return 0


def main():
    ap = argparse.ArgumentParser(
        description="each element against OpenCV and GStreamer peers")
    ap.add_argument("--sizes", default="1920x1080,3840x2160")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default=None,
                    help="only the rows whose element's name contains this")
    ap.add_argument("--diameters", default=None,
                    help="clboxblur at these diameters against cv2.blur "
                    "(the first size only)")
    ap.add_argument("--devices", default=None,
                    help="with --diameters: GST_CL_DEVICE values to compare,"
                    " e.g. pocl,intel")
    args = ap.parse_args()
    if args.diameters:
        return diameters_table(args)
    dev = os.environ.get("GST_CL_DEVICE", "the default device")
    print(f"clfilters on {dev}; OpenCV "
          f"{cv2.__version__ if cv2 else 'not installed'}, "
          f"{cv2.getNumThreads() if cv2 else 0} threads; "
          f"{os.cpu_count()} CPUs; {time.strftime('%Y-%m-%d')}\n")
    print("| operation | size | format | clfilters ms/frame | GStreamer "
          "peer | peer ms/frame | OpenCV ms/call | OpenCV / clfilters | "
          "peer / clfilters |")
    print("|---|---|---|---:|---|---:|---:|---:|---:|")
    for size in args.sizes.split(","):
        w, h = (int(x) for x in size.split("x"))
        for op, ours, peer, fn, note, second in cases(w, h):
            if args.only and args.only not in ours[0].split()[0]:
                continue
            peer_ok = peer is not None and have(peer[0].split()[0])
            t_ours, t_peer, t_cv, peer_failed = [], [], [], None
            d_ours = pipeline_desc(ours[0], ours[1], w, h, second)
            k_ours = frames_for_a_second(d_ours)
            if peer_ok:
                d_peer = pipeline_desc(peer[0], peer[1], w, h, second)
                try:
                    k_peer = frames_for_a_second(d_peer)
                except Failed as e:
                    peer_failed = str(e)
            for _ in range(args.rounds):
                t_ours.append(pipeline_ms(d_ours, k_ours))
                if peer_ok and not peer_failed:
                    try:
                        t_peer.append(pipeline_ms(d_peer, k_peer))
                    except Failed as e:
                        peer_failed = str(e)
                if fn:
                    t_cv.append(function_ms(fn))
            a, b, c = best(t_ours), best(t_peer), best(t_cv)
            print(f"| {op} | {w}x{h} | {note} | {fmt_ms(a)} | "
                  f"{peer[0] if peer_ok else '-'} | "
                  f"{peer_failed or fmt_ms(b)} | "
                  f"{fmt_ms(c)} | {ratio(a, c)} | {ratio(a, b)} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
