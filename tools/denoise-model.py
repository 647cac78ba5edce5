#!/usr/bin/env python3
"""A model of cldenoise's luma formula in numpy, to try a change in seconds.

The formula of kernels/denoise.cl (docs/cldenoise.md), on the luma of a clip
with the noise of tools/denoise-quality.py and its level set, not estimated;
then the same with each variant asked for. On the present formula it gives
the element's luma PSNR within 0.01 dB (Megamind.avi 38.01 against 38.00,
vtest.avi 38.03 against 38.03; 60 frames, sigma 10), so that a change can be
weighed here before it is written into the kernel and its C reference
(tests/test_denoise.c), which stay the formula's definition.

    /usr/bin/python3 tools/denoise-model.py --clip Megamind.avi --frames 60 \\
        --sigma 10 --variants exact,young1,motion5

Variants (comma-separated, each on its own; join them with '+'):
  exact      the last output kept exactly, not rounded to 8 bits
  youngN     the 5 x 5 window where the count is at most N, not only at 0
  motion5    still also needs the 5 x 5 sums within the same thresholds
             (scaled to the 3 x 3 sums' noise)
  motion5w   the same within 6 and 12 sigma
  cmaxN      the count capped at N, not 31
"""
import argparse
import importlib.util
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "dq", os.path.join(HERE, "denoise-quality.py"))
dq = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dq)


def shifted(a, dy, dx):
    return np.pad(a, 2, mode="edge")[2 + dy:2 + dy + a.shape[0],
                                     2 + dx:2 + dx + a.shape[1]]


def window_sum(a, r):
    return sum(shifted(a, dy, dx) for dy in range(-r, r + 1)
               for dx in range(-r, r + 1))


def epsilon_mean(x, r, t):
    """The rounded mean of the (2r+1)^2 neighbours within t of the sample."""
    total = np.zeros_like(x)
    count = np.zeros_like(x)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            n = shifted(x, dy, dx)
            m = np.abs(n - x) <= t
            total += n * m
            count += m
    return (2 * total + count) // (2 * count)


def run(noisy, clean, s16, exact=False, young=0, motion5=None, cmax=31):
    """Luma PSNR, that of the samples that moved, and the mean count at the
    end, for the formula with the given variants."""
    te, tw = (2 * s16 + 8) >> 4, (3 * s16 + 8) >> 4
    still, half = (5 * s16 + 8) >> 4, (10 * s16 + 8) >> 4
    prev = count = None
    sq, moved_sq, moved_n = [], 0.0, 0
    for t, x in enumerate(noisy):
        s = epsilon_mean(x, 1, te)
        if prev is None:
            count = np.zeros_like(x)
        else:
            last = np.rint(prev).astype(np.int64) if exact else prev
            ok_still = np.abs(window_sum(last, 1) - window_sum(x, 1)) <= still
            ok_half = np.abs(window_sum(last, 1) - window_sum(x, 1)) <= half
            if motion5:
                a5 = np.abs(window_sum(last, 2) - window_sum(x, 2)) * 3 // 5
                ok_still &= a5 <= (motion5[0] * s16 + 8) >> 4
                ok_half &= a5 <= (motion5[1] * s16 + 8) >> 4
            count = np.where(ok_still, np.minimum(count + 1, cmax),
                             np.where(ok_half, count >> 1, 0))
        s = np.where(count <= young, epsilon_mean(x, 2, tw), s)
        if prev is None:
            out = s.astype(np.float64) if exact else s
        elif exact:
            out = (count * prev + s) / (count + 1)
        else:
            out = (count * prev + s + (count + 1) // 2) // (count + 1)
        prev = out
        err = ((np.rint(out) if exact else out) - clean[t]) ** 2
        sq.append(err.mean())
        if t:
            moved = np.abs(clean[t] - clean[t - 1]) > 8
            moved_sq += err[moved].sum()
            moved_n += moved.sum()
    return (10 * np.log10(255.0 ** 2 / np.mean(sq)),
            10 * np.log10(255.0 ** 2 / max(moved_sq / max(moved_n, 1), 1e-9)),
            float(count.mean()))


def run_fixed(noisy, clean, s16, frac=4, young=1, motion5=(6, 12), cmax=31,
              twk=3, ps=None, noblend=False, st=(5, 10)):
    """The same in integers, the last output kept in fixed point with @frac
    bits below the 8-bit step: the motion tests compare the sums of the
    kept values with the present frame's, in those units."""
    te, tw = (2 * s16 + 8) >> 4, (twk * s16 + 8) >> 4
    one = 1 << frac

    def thr(k):
        return (k * s16 << frac) >> 4

    v = count = None
    sq, moved_sq, moved_n = [], 0.0, 0
    for t, x in enumerate(noisy):
        s = epsilon_mean(x, 1, te)
        if v is None:
            count = np.zeros_like(x)
        else:
            a3 = np.abs(window_sum(v, 1) - (window_sum(x, 1) << frac))
            ok_still, ok_half = a3 <= thr(st[0]), a3 <= thr(st[1])
            if motion5:
                a5 = np.abs(window_sum(v, 2) - (window_sum(x, 2) << frac)) \
                    * 3 // 5
                ok_still &= a5 <= thr(motion5[0])
                ok_half &= a5 <= thr(motion5[1])
            if ps:
                d = np.abs((s << frac) - v)
                ok_still &= d <= (ps[0] * s16 << frac) // 160
                ok_half &= d <= (ps[1] * s16 << frac) // 160
            count = np.where(ok_still, np.minimum(count + 1, cmax),
                             np.where(ok_half, count >> 1, 0))
        s = np.where(count <= young, epsilon_mean(x, 2, tw), s)
        if v is None:
            v = s << frac
        elif noblend:
            k = np.where(count <= young, 0, count)
            v = (k * v + (s << frac) + (k + 1) // 2) // (k + 1)
        else:
            v = (count * v + (s << frac) + (count + 1) // 2) // (count + 1)
        out = (v + one // 2) >> frac
        err = (out - clean[t]) ** 2
        sq.append(err.mean())
        if t:
            moved = np.abs(clean[t] - clean[t - 1]) > 8
            moved_sq += err[moved].sum()
            moved_n += moved.sum()
    return (10 * np.log10(255.0 ** 2 / np.mean(sq)),
            10 * np.log10(255.0 ** 2 / max(moved_sq / max(moved_n, 1), 1e-9)),
            float(count.mean()))


def parse_variant(name):
    kw = {}
    for part in name.split("+"):
        if part == "exact":
            kw["exact"] = True
        elif part.startswith("young"):
            kw["young"] = int(part[5:])
        elif part == "motion5":
            kw["motion5"] = (5, 10)
        elif part == "motion5w":
            kw["motion5"] = (6, 12)
        elif part.startswith("cmax"):
            kw["cmax"] = int(part[4:])
        else:
            raise SystemExit(f"no such variant: {part}")
    return kw


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clip", default="Megamind.avi")
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--sigma", type=float, default=10)
    ap.add_argument("--variants", default="")
    ap.add_argument("--level", type=float, default=None,
                    help="the level the formula is told (default: sigma)")
    args = ap.parse_args()
    path = os.path.join(dq.FOOTAGE, args.clip)
    if not os.path.exists(path):
        raise SystemExit(f"no {path}: run tools/fetch-footage.sh")
    w, h = dq.probe(path)
    clean = dq.decode(path, args.frames, w, h)
    noisy = dq.add_noise(clean, ("gauss", args.sigma))
    y0 = dq.planes(clean, w, h)[0].astype(np.int64)
    yn = dq.planes(noisy, w, h)[0].astype(np.int64)
    s16 = int(round((args.level or args.sigma) * 16))
    print(f"{args.clip}, {w}x{h}, {args.frames} frames, sigma "
          f"{args.sigma:g}, the level set to {s16 / 16:g}\n")
    print("| formula | luma PSNR | moving luma PSNR | mean count |")
    print("|---|---:|---:|---:|")
    for name in ["the present one"] + [v for v in args.variants.split(",")
                                       if v]:
        if name.startswith("fixed"):
            fkw = {}
            for part in name.split("+"):
                if part.startswith("fixed"):
                    fkw["frac"] = int(part[5:])
                elif part.startswith("young"):
                    fkw["young"] = int(part[5:])
                elif part.startswith("cmax"):
                    fkw["cmax"] = int(part[4:])
                elif part.startswith("st"):
                    a, b = part[2:].split("_")
                    fkw["st"] = (int(a), int(b))
                elif part == "noblend":
                    fkw["noblend"] = True
                elif part.startswith("ps"):
                    a, b = part[2:].split("_")
                    fkw["ps"] = (int(a), int(b))
                elif part.startswith("tw"):
                    fkw["twk"] = int(part[2:])
                elif part.startswith("m5_"):
                    a, b = part[3:].split("_")
                    fkw["motion5"] = (int(a), int(b))
            p, pm, c = run_fixed(yn, y0, s16, **fkw)
        else:
            kw = {} if name == "the present one" else parse_variant(name)
            p, pm, c = run(yn, y0, s16, **kw)
        print(f"| {name} | {p:.2f} | {pm:.2f} | {c:.1f} |", flush=True)


if __name__ == "__main__":
    main()
