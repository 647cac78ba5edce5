#!/usr/bin/python3
# Copyright (C) 2026 the gstclfilters authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Usage: tools/denoise-quality.py [--frames N] [--sigmas 10,20] [--clips A,B]
                                  [--methods M,...] [--quick]

How well denoisers undo a camera's noise, on real footage: the sample videos
of Debian's opencv-doc (tools/fetch-footage.sh fetches them into
data/footage/), their first N frames as I420, with noise added with a fixed
seed to every plane: zero-mean Gaussian of each sigma (in 8-bit units), and
a sensor's signal-dependent model (Poisson-Gaussian: a variance of
sigma^2 / 4 + x * sigma / 32 for a pixel of value x, labelled "pg<sigma>").

Every method gets the noisy frames as raw I420 and gives raw I420 back:
the cl elements through gst-launch-1.0 (GST_PLUGIN_PATH, or build/gst), the
peers through FFmpeg's filters (Debian's ffmpeg). None gets its defaults: each
runs over a small grid of settings scaled to the noise (the table's settings
column), and the best by luma PSNR is shown, so a method is never judged on
settings made for another noise. cldenoise runs twice: measuring the noise
itself ("cldenoise"), and told it ("cldenoise-set", the best of 0.8, 1 and
1.25 times the noise's sigma); "cldenoise-motion", asked for, measures it
with motion=true; "cldenoise:PROPS" runs it with the properties PROPS
(space-separated, as gst-launch-1.0 takes them: "cldenoise:strength=2").

Prints a Markdown table a clip and noise: luma PSNR and SSIM, chroma PSNR
(U and V together), luma PSNR over the samples that moved (whose clean
value changed by more than 8 from the frame before: where trails and smear
show), frames/s (the whole process: decoding the raw input, filtering,
writing), and the settings. The noisy input's own row comes
first. --quick: 30 frames, one sigma, the fast methods.

--encode CRF: each method's best output, and the noisy and clean frames,
also encoded by x264 (FFmpeg's libx264, preset veryfast, tune zerolatency:
no B-frames and no look-ahead, as a live camera's encoder runs, and as
x264enc tune=zerolatency does, at that constant rate factor): two more
columns, the stream's kbit/s at 25 frames/s and the luma PSNR of its
decoded frames against the clean ones; left empty for a method run on the
first frames alone, whose stream's first frame would weigh more. Noise
costs an encoder bits; a denoiser before it saves them."""

import argparse
import os
import struct
import zlib
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:
    sys.exit("this needs numpy: apt-get install python3-numpy, and Debian's "
             "/usr/bin/python3 (README.md, 'The Python examples')")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOOTAGE = os.path.join(ROOT, "data", "footage")
CLIPS = ["vtest.avi", "tree.avi", "Megamind.avi"]


def probe(path):
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "stream=width,height", "-of", "csv=p=0", path],
        check=True, capture_output=True, text=True).stdout.strip()
    w, h = (int(v) for v in out.split(",")[:2])
    return w - w % 2, h - h % 2


def decode(path, frames, w, h):
    """The clip's first @frames frames as I420, cropped to even sizes."""
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-frames:v", str(frames),
         "-vf", f"crop={w}:{h}:0:0", "-pix_fmt", "yuv420p", "-f", "rawvideo",
         "-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, w * h * 3 // 2)


def add_noise(clean, noise):
    """@noise: ("gauss", sigma) or ("pg", sigma), with a fixed seed."""
    rng = np.random.default_rng(20261128)
    x = clean.astype(np.float64)
    kind, sigma = noise
    if kind == "gauss":
        std = sigma
    else:
        std = np.sqrt(sigma * sigma / 4.0 + x * sigma / 32.0)
    return np.clip(np.rint(x + rng.normal(0.0, 1.0, x.shape) * std), 0,
                   255).astype(np.uint8)


def planes(frames, w, h):
    y = frames[:, :w * h].reshape(-1, h, w)
    uv = frames[:, w * h:].reshape(-1, 2, h // 2, w // 2)
    return y, uv


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def moving_psnr(got, clean):
    """Luma PSNR over the samples that moved: those whose clean value
    differs by more than 8 from the frame before's (a trail shows there)."""
    moved = np.abs(clean[1:].astype(np.int16) - clean[:-1]) > 8
    if not moved.any():
        return float("nan")
    d = got[1:].astype(np.float64)[moved] - clean[1:].astype(np.float64)[moved]
    return 10 * np.log10(255.0 ** 2 / max(np.mean(d * d), 1e-9))


def gauss_blur(img):
    """An 11-tap Gaussian of sigma 1.5 along both axes, valid part only, as
    SSIM's reference implementation weights its windows."""
    t = np.arange(11) - 5
    k = np.exp(-t * t / (2 * 1.5 ** 2))
    k /= k.sum()
    out = sum(k[i] * img[..., i:img.shape[-2] - 10 + i, :] for i in range(11))
    return sum(k[i] * out[..., :, i:out.shape[-1] - 10 + i] for i in range(11))


def ssim(a, b):
    """Mean SSIM of two stacks of planes (Wang et al. 2004's constants)."""
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    vals = []
    for x, y in zip(a.astype(np.float64), b.astype(np.float64)):
        mx, my = gauss_blur(x), gauss_blur(y)
        sxx = gauss_blur(x * x) - mx * mx
        syy = gauss_blur(y * y) - my * my
        sxy = gauss_blur(x * y) - mx * my
        vals.append(np.mean((2 * mx * my + c1) * (2 * sxy + c2) /
                            ((mx * mx + my * my + c1) * (sxx + syy + c2))))
    return float(np.mean(vals))


def write_png(path, gray):
    """@gray, a 2-D uint8 array, as an 8-bit greyscale PNG."""
    h, w = gray.shape
    raw = b"".join(b"\0" + gray[y].tobytes() for y in range(h))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def picture(path, crops):
    """Crops of the luma side by side, each zoomed twice, 4 px apart."""
    zoomed = [np.kron(c, np.ones((2, 2), np.uint8)) for c in crops]
    gap = np.full((zoomed[0].shape[0], 4), 255, np.uint8)
    row = [zoomed[0]]
    for z in zoomed[1:]:
        row += [gap, z]
    write_png(path, np.hstack(row))


def plot(path, title, rows):
    """A bar a method, luma PSNR, a group a noise: @rows (noise, method,
    psnr) in order."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    noises = list(dict.fromkeys(r[0] for r in rows))
    methods = list(dict.fromkeys(r[1] for r in rows))
    val = {(n, m): p for n, m, p in rows}
    fig, ax = plt.subplots(figsize=(8, 3.6), dpi=100)
    width = 0.8 / len(methods)
    for i, m in enumerate(methods):
        xs = [j + i * width for j in range(len(noises))]
        ax.bar(xs, [val.get((n, m), 0) for n in noises], width, label=m)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(noises))])
    ax.set_xticklabels(noises)
    ax.set_ylabel("luma PSNR, dB")
    low = min(p for _, _, p in rows)
    ax.set_ylim(low - 2, max(p for _, _, p in rows) + 1)
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=4, loc="upper right")
    fig.tight_layout()
    fig.savefig(path)


def gst_cmd(element, w, h, src, dst):
    return ["gst-launch-1.0", "-q", "filesrc", f"location={src}", "!",
            "rawvideoparse", "format=i420", f"width={w}", f"height={h}",
            "framerate=25/1", "!"] + element.split() + [
            "!", "video/x-raw,format=I420", "!", "filesink",
            f"location={dst}"]


def raw_i420(w, h):
    """FFmpeg's options of raw I420 frames of @w x @h, read or written."""
    return ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{w}x{h}"]


def ffmpeg_cmd(vf, w, h, src, dst):
    return ["ffmpeg", "-v", "error", "-y"] + raw_i420(w, h) + [
            "-i", src, "-vf", vf] + raw_i420(w, h) + [dst]


def grid(method, sigma):
    """The settings tried for noise of @sigma: (label, command maker)."""
    s = sigma
    if method == "clepsilon":
        return [(f"threshold={t} diameter={d}",
                 lambda w, h, i, o, t=t, d=d: gst_cmd(
                     f"clepsilon threshold={t} diameter={d}", w, h, i, o))
                for d in (5, 9) for t in (min(255, round(k * s))
                                          for k in (2, 3, 4))]
    if method == "cldenoise":
        return [("the level estimated",
                 lambda w, h, i, o: gst_cmd("cldenoise", w, h, i, o))]
    if method == "cldenoise-motion":
        return [("motion=true, the level estimated",
                 lambda w, h, i, o: gst_cmd("cldenoise motion=true", w, h, i,
                                            o))]
    if method.startswith("cldenoise:"):
        # the properties given, as they are
        props = method.split(":", 1)[1]
        return [(props, lambda w, h, i, o: gst_cmd("cldenoise " + props, w,
                                                   h, i, o))]
    if method == "cldenoise-set":
        # the noise's own level, and the best of a few around it
        return [(f"noise-level={a:g}",
                 lambda w, h, i, o, a=a: gst_cmd(
                     f"cldenoise noise-level={a:g}", w, h, i, o))
                for a in (s * 0.8, s, s * 1.25)]
    if method == "hqdn3d":
        return [(f"hqdn3d={a:g}:{a * 0.75:g}:{b:g}:{b * 0.75:g}",
                 lambda w, h, i, o, a=a, b=b: ffmpeg_cmd(
                     f"hqdn3d={a:g}:{a * 0.75:g}:{b:g}:{b * 0.75:g}", w, h, i,
                     o))
                for a in (s * 0.4, s * 0.8, s * 1.2)
                for b in (s * 0.6, s * 1.2, s * 2.0)]
    if method == "atadenoise":
        return [(f"atadenoise 0a=1b={t:.3f} s={n}",
                 lambda w, h, i, o, t=t, n=n: ffmpeg_cmd(
                     f"atadenoise=0a={t:.3f}:1a={t:.3f}:2a={t:.3f}:"
                     f"0b={2 * t:.3f}:1b={2 * t:.3f}:2b={2 * t:.3f}:s={n}",
                     w, h, i, o))
                for t in (s / 255 * 1.5, s / 255 * 3) for n in (9, 15)]
    if method == "nlmeans":
        return [(f"nlmeans=s={a:g}",
                 lambda w, h, i, o, a=a: ffmpeg_cmd(
                     f"nlmeans=s={a:g}:p=7:r=15", w, h, i, o))
                for a in (s * 0.8, s * 1.0)]
    if method == "bm3d":
        # FFmpeg's bm3d takes its sigma on another scale: best at 2 - 4x
        return [(f"bm3d=sigma={a:g}",
                 lambda w, h, i, o, a=a: ffmpeg_cmd(
                     f"bm3d=sigma={a:g}:planes=7", w, h, i, o))
                for a in (s * 2, s * 4)]
    if method == "fftdnoiz":
        return [(f"fftdnoiz=sigma={a:g} prev=1 next=1",
                 lambda w, h, i, o, a=a: ffmpeg_cmd(
                     f"fftdnoiz=sigma={a:g}:prev=1:next=1", w, h, i, o))
                for a in (s * 0.5, s * 1.0)]
    raise SystemExit(f"no such method: {method}")


def encoded(src, w, h, n, crf, clean_y, tmp):
    """@src's @n I420 frames through x264 at @crf: (kbit/s at 25 frames/s,
    the decoded luma's PSNR against @clean_y)."""
    stream = os.path.join(tmp, "enc.h264")
    back = os.path.join(tmp, "dec.yuv")
    subprocess.run(["ffmpeg", "-v", "error", "-y"] + raw_i420(w, h) + [
        "-framerate", "25", "-i", src, "-frames:v", str(n), "-c:v", "libx264",
        "-preset", "veryfast", "-tune", "zerolatency", "-crf", str(crf),
        stream], check=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", stream, "-f",
                    "rawvideo", "-pix_fmt", "yuv420p", back], check=True)
    got = np.fromfile(back, np.uint8).reshape(n, -1)
    kbps = os.path.getsize(stream) * 8 / 1000 / (n / 25)
    return kbps, psnr(planes(got, w, h)[0], clean_y[:n])


def run_method(method, sigma, w, h, noisy_path, clean, tmp, slow_frames,
               crf=None):
    best = None
    y0, uv0 = planes(clean, w, h)
    for label, make in grid(method, sigma):
        out = os.path.join(tmp, "out.yuv")
        src = noisy_path
        n = len(clean)
        if method in ("bm3d", "nlmeans", "fftdnoiz") and slow_frames < n:
            # seconds a frame: the first frames alone
            n = slow_frames
            src = os.path.join(tmp, "head.yuv")
            with open(noisy_path, "rb") as f, open(src, "wb") as g:
                g.write(f.read(n * w * h * 3 // 2))
        start = time.monotonic()
        res = subprocess.run(make(w, h, src, out), capture_output=True,
                             text=True)
        took = time.monotonic() - start
        if res.returncode != 0:
            print(f"  {method} {label}: failed: {res.stderr.strip()[-300:]}",
                  file=sys.stderr)
            continue
        got = np.fromfile(out, np.uint8)
        if got.size != n * w * h * 3 // 2:
            print(f"  {method} {label}: {got.size} bytes, not {n} frames",
                  file=sys.stderr)
            continue
        y, uv = planes(got.reshape(n, -1), w, h)
        row = (psnr(y, y0[:n]), psnr(uv, uv0[:n]), n / took, label, n,
               moving_psnr(y, y0[:n]))
        if best is None or row[0] > best[0]:
            best = row + (y,)
            if crf is not None:
                os.replace(out, os.path.join(tmp, "best.yuv"))
    if best is None:
        return None
    enc = () if crf is None else (None, None) if best[4] < len(clean) else \
        encoded(os.path.join(tmp, "best.yuv"), w, h, best[4], crf, y0, tmp)
    # psnr, chroma psnr, frames/s, label, frames, ssim, luma, moving psnr,
    # and with crf, x264's kbit/s and PSNR
    return best[:5] + (ssim(best[6], y0[:best[4]]), best[6], best[5]) + enc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--sigmas", default="10,20",
                    help="Gaussian sigmas; pg<N> for the sensor model")
    ap.add_argument("--clips", default=",".join(CLIPS))
    ap.add_argument("--methods",
                    default="cldenoise,cldenoise-set,clepsilon,hqdn3d,"
                    "atadenoise,nlmeans,bm3d,fftdnoiz")
    ap.add_argument("--slow-frames", type=int, default=20,
                    help="frames for nlmeans, bm3d and fftdnoiz, which take "
                    "seconds a frame (20)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--encode", type=int, metavar="CRF",
                    help="also encode each best output with x264 at CRF")
    ap.add_argument("--picture", metavar="PNG",
                    help="crops of the first clip's frame 100, at the first "
                    "noise: clean, noisy, cldenoise, the best peer")
    ap.add_argument("--plot", metavar="PNG",
                    help="the first clip's luma PSNR, a bar a method")
    args = ap.parse_args()
    if args.quick:
        args.frames, args.sigmas = 30, args.sigmas.split(",")[0]
        args.methods = "cldenoise,clepsilon,hqdn3d,atadenoise"
    for tool in ("ffmpeg", "ffprobe", "gst-launch-1.0"):
        if not shutil.which(tool):
            sys.exit(f"no {tool}: apt-get install ffmpeg gstreamer1.0-tools")
    if "GST_PLUGIN_PATH" not in os.environ:
        os.environ["GST_PLUGIN_PATH"] = os.path.join(ROOT, "build", "gst")
    noises = [("pg", float(s[2:])) if s.startswith("pg") else
              ("gauss", float(s)) for s in args.sigmas.split(",")]
    plotted = []
    crf = args.encode
    enc_head = "" if crf is None else f" x264 crf {crf} kbit/s | its PSNR |"

    def enc_cols(r):
        """x264's columns of (kbit/s, PSNR), empty for (None, None)"""
        return "" if crf is None else " | |" if r[0] is None \
            else f" {r[0]:.0f} | {r[1]:.2f} |"

    with tempfile.TemporaryDirectory() as tmp:
        for ci, clip in enumerate(args.clips.split(",")):
            path = os.path.join(FOOTAGE, clip)
            if not os.path.exists(path):
                sys.exit(f"no {path}: run tools/fetch-footage.sh")
            w, h = probe(path)
            clean = decode(path, args.frames, w, h)
            y0, uv0 = planes(clean, w, h)
            n = len(clean)
            if crf is not None:
                # the clean clip's own stream, the same at every noise
                clean_path = os.path.join(tmp, "clean.yuv")
                clean.tofile(clean_path)
                clean_enc = encoded(clean_path, w, h, n, crf, y0, tmp)
            for ni, noise in enumerate(noises):
                results = {}
                noisy = add_noise(clean, noise)
                noisy_path = os.path.join(tmp, "noisy.yuv")
                noisy.tofile(noisy_path)
                y, uv = planes(noisy, w, h)
                name = ("sigma %g" if noise[0] == "gauss" else "pg%g") % \
                    noise[1]
                print(f"\n{clip}, {w}x{h}, {len(clean)} frames, {name}\n")
                print("| method | luma PSNR | luma SSIM | chroma PSNR | "
                      "moving luma PSNR | frames/s | settings |" + enc_head)
                print("|---|---:|---:|---:|---:|---:|---|" +
                      ("" if crf is None else "---:|---:|"))
                if crf is not None:
                    print("| clean input | | | | | | |" + enc_cols(clean_enc))
                print(f"| noisy input | {psnr(y, y0):.2f} | {ssim(y, y0):.4f}"
                      f" | {psnr(uv, uv0):.2f} | {moving_psnr(y, y0):.2f} | "
                      "| |" + ("" if crf is None else enc_cols(
                          encoded(noisy_path, w, h, n, crf, y0, tmp))))
                for m in args.methods.split(","):
                    r = run_method(m, noise[1], w, h, noisy_path, clean, tmp,
                                   args.slow_frames, crf)
                    if r is None:
                        print(f"| {m} | failed | | | | | |")
                        continue
                    results[m] = r
                    if ci == 0:
                        plotted.append((name, m, r[0]))
                    frames = "" if r[4] == len(clean) else \
                        f" (first {r[4]} frames)"
                    print(f"| {m} | {r[0]:.2f} | {r[5]:.4f} | {r[1]:.2f} | "
                          f"{r[7]:.2f} | {r[2]:.1f} | `{r[3]}`{frames} |" +
                          enc_cols(r[8:10]), flush=True)
                if args.picture and ci == 0 and ni == 0 and \
                        "cldenoise" in results:
                    peers = [m for m in results if not m.startswith("cl")]
                    best = max(peers, key=lambda m: results[m][0])
                    k = min(100, len(clean) - 1, results[best][6].shape[0] - 1)
                    cy, cx = h // 3, w // 3
                    crop = (slice(cy, cy + 128), slice(cx, cx + 160))
                    picture(args.picture, [
                        y0[k][crop], y[k][crop],
                        results["cldenoise"][6][k][crop],
                        results[best][6][k][crop]])
                    print(f"\n{args.picture}: frame {k}, clean, noisy, "
                          f"cldenoise, {best}")
        if args.plot and plotted:
            plot(args.plot, f"{args.clips.split(',')[0]}, {args.frames} "
                 "frames", plotted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
