#!/usr/bin/env python3
"""A model of cldenoise's luma formula in numpy, to try a change in seconds.

The formula of kernels/denoise.cl (docs/cldenoise.md), on the luma of a clip
with the noise of tools/denoise-quality.py and its level set, not estimated;
then the same with each variant asked for, so that a change can be weighed
here before it is written into the kernel and its C reference
(tests/test_denoise.c), which stay the formula's definition. It gives the
element's luma PSNR within 0.01 dB (the formula before the present one:
Megamind.avi 38.01 against 38.00, vtest.avi 38.03 against 38.03, 60
frames, sigma 10; the present one, 200 frames at sigma 10, the level
set: vtest.avi 38.63, tree.avi 34.41 and Megamind.avi 39.22, and 29.71,
27.01 and 32.08 over the samples that moved, as the element gives).
--pg takes the sensor model's noise (pg<sigma> there) in place of
Gaussian noise.

    /usr/bin/python3 tools/denoise-model.py --clip Megamind.avi --frames 60 \
        --sigma 10 --variants young2,tw4,ps30_60

Variants (comma-separated, each on its own; join changes with '+'), of the
present formula:
  fracN      the last output kept with N bits below the step, not 3
  youngN     the 5 x 5 window where the count is at most N, not 1
  twN        that window's mean within N sigma, not 3
  cmaxN      the count capped at N, not 31
  stA_B      still and half still over the 3 x 3 sums up to A and B
             sigma, not 6 and 10
  m5_A_B     the same over the 5 x 5 sums, not 6 and 12
  psA_B      also moved where the 3 x 3 mean is more than A / 10 sigma from
             the last output, half as still up to B / 10
  sadA_B     moved where the 3 x 3 sum of |present - last output| is
             more than A sigma (noise alone: 7.2 sigma, deviation 1.8),
             half as still up to B, not 14 and 16
  nosad      no such test (the formula before the present one)
  wsadA_B    the same over the 5 x 5 samples (noise alone: 20 sigma,
             deviation 3)
  clampxK    the output held within K / 10 sigma of the present sample
  clampK     the output held within K / 10 sigma of its epsilon mean S
  clampsK    the same, the state held there too (the next frame's last output)
  clampwK    the output held within K / 10 sigma of the 5 x 5 window's mean
             within the wide threshold (3 sigma unless twN: clepsilon's
             best); clampwsK the state too
  nbcapN     the count held at N where a sample of the 3 x 3 had a count
             of 0 in the frame before; +nbkK: where K of them had
  mcK        motion compensated: each sample's last output and count taken
             from the neighbour (or itself) whose 3 x 3 sum of |present -
             last output| is least, itself unless beaten by K sigma
  bmB_R_K[_S[_F[_C[_N]]]]
             motion compensated by blocks: each B x B block's last outputs
             and counts taken from the shift within R samples whose sum of
             |8 present - last output| over the block (its every S-th row)
             is least, none unless beaten by K / 10 sigma a sample, and
             none where the least is above F sigma a sample; C 1: a shift
             only where the block took the same in the frame before, 2: or
             one of its four neighbours; N: none wherever none's sum is at
             most N sigma a sample
  rsR_N_I[_P[_F]]
             motion by blocks of 32 from candidates, not every shift: none,
             the block's own shift in the frame before and its N (0, 4 or
             8) neighbours' there, then I times the 8 shifts a sample
             around the best, all within R samples; the sums over every
             4th row, none unless beaten by a twentieth of sigma a sample
             (or bb's), none where the least is above 12 sigma a sample;
             P 1: the frame after starts from the shift so kept, not the
             least found; F 1: where the least does not fit, every shift
             by its sum over every 16th row, and the least so found where
             its whole sum is less. rs4_4_1_1_1 is the element's motion
  bbN        with bm, none unless beaten by N / 100 sigma a sample
  csN        with bm, the sums over every N-th sample of a row too
  gsR_K      one shift within R samples for the whole frame, by the same
             sum over every 4th sample of every 8th row
  oracle     the count set to 0 wherever the clean frame moved (by more
             than 8): what a perfect motion test would give
  pgmS[_F]   each sample's own level, as the sensor model of sigma S (pg
             noise, --pg) gives it at the 3 x 3 mean of the present frame
             around it, times F / 10 (10 unless given): a level that
             follows the noise's rise with the light
  pgcS[_F]   the same at the clean sample's value (a perfect brightness)
  epsT_R     clepsilon's filter alone, threshold T, window radius R
  noblend    where the count is at most young, the present frame alone
  noflat     no flat areas: the 3 x 3 window within 2 sigma at every count
             above young (the formula before the present one)
and of the formula before it (the last output in 8 bits, the 3 x 3 sums,
the wide window at a count of 0), which "old" names on its own:
  old        that formula
  old+exact  the last output kept exactly
  old+youngN, old+motion5 (the 5 x 5 sums within the same thresholds),
  old+motion5w (within 6 and 12 sigma), old+cmaxN
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


def window_rows(a, ry, rx):
    """The sum over the (2 ry + 1) x (2 rx + 1) window, edges replicated."""
    return sum(shifted(a, dy, dx) for dy in range(-ry, ry + 1)
               for dx in range(-rx, rx + 1))


def window_sum(a, r):
    return window_rows(a, r, r)


def epsilon_mean(x, r, t):
    """The rounded mean of the (2r+1)^2 neighbours within t of the sample."""
    total = np.zeros_like(x)
    count = np.zeros_like(x)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            n = shifted_by(x, dy, dx, r)
            m = np.abs(n - x) <= t
            total += n * m
            count += m
    return (2 * total + count) // (2 * count)


class Score:
    """Luma PSNR over the frames, and over the samples that moved (whose
    clean value changed by more than 8 from the frame before)."""

    def __init__(self, clean):
        self.clean, self.sq, self.moved_sq, self.moved_n = clean, [], 0.0, 0

    def add(self, t, out):
        err = (out - self.clean[t]) ** 2
        self.sq.append(err.mean())
        if t:
            moved = np.abs(self.clean[t] - self.clean[t - 1]) > 8
            self.moved_sq += err[moved].sum()
            self.moved_n += moved.sum()

    def result(self, count):
        mse_moved = max(self.moved_sq / max(self.moved_n, 1), 1e-9)
        return (10 * np.log10(255.0 ** 2 / np.mean(self.sq)),
                10 * np.log10(255.0 ** 2 / mse_moved), float(count.mean()))


def run(noisy, clean, s16, exact=False, young=0, motion5=None, cmax=31):
    """Luma PSNR, that of the samples that moved, and the mean count at the
    end, for the formula with the given variants."""
    te, tw = (2 * s16 + 8) >> 4, (3 * s16 + 8) >> 4
    still, half = (5 * s16 + 8) >> 4, (10 * s16 + 8) >> 4
    prev = count = None
    score = Score(clean)
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
        score.add(t, np.rint(out) if exact else out)
    return score.result(count)


def shifted_by(a, dy, dx, r):
    return np.pad(a, r, mode="edge")[r + dy:r + dy + a.shape[0],
                                     r + dx:r + dx + a.shape[1]]


def block_match(xs, v, count, bm, s16, frac, memo=None):
    """The last outputs and counts moved block by block: each B x B block
    takes the shift within R samples whose sum of |8 x - v| over the block
    is least, the unshifted one unless another beats it by K / 10 sigma a
    sample."""
    b, r, k = bm[:3]
    step = bm[3] if len(bm) > 3 else 1
    h, w = xs.shape
    hb, wb = -(-h // b), -(-w // b)
    rows = (np.arange(hb * b) % step) == 0
    cstep = memo.get("cs") or 1 if memo is not None else 1
    cols = (np.arange(wb * b) % cstep) == 0

    def block_sums(e):
        e = np.pad(e, ((0, hb * b - h), (0, wb * b - w)), mode="edge")
        e = e * rows[:, None] * cols[None, :]
        return e.reshape(hb, b, wb, b).sum(axis=(1, 3))

    # K in tenths of sigma a sample, or bb's hundredths
    best = block_sums(np.abs(xs - v)) - \
        ((k * s16 << frac) * b * b // step // cstep) // 160
    if memo is not None and memo.get("bb") is not None:
        best = block_sums(np.abs(xs - v)) - \
            ((memo["bb"] * s16 << frac) * b * b // step // cstep) // 1600
    shifts = [(dy, dx) for dy in range(-r, r + 1) for dx in range(-r, r + 1)]
    pick = np.full((hb, wb), shifts.index((0, 0)), dtype=np.int64)
    for i, (dy, dx) in enumerate(shifts):
        if dy == 0 and dx == 0:
            continue
        e = block_sums(np.abs(xs - shifted_by(v, dy, dx, r)))
        take = e < best
        best = np.where(take, e, best)
        pick = np.where(take, i, pick)
    none = shifts.index((0, 0))
    if len(bm) > 6 and bm[6]:
        # none wherever none fits: its sum at most bm[6] sigma a sample
        n = block_sums(np.ones_like(xs))
        c0 = block_sums(np.abs(xs - v))
        pick = np.where(c0 * 16 <= bm[6] * s16 * n, none, pick)
    if len(bm) > 4:
        # a shift only where it fits: its sum at most bm[4] sigma a sample
        n = block_sums(np.ones_like(xs))
        pick = np.where(best * 16 <= bm[4] * s16 * n, pick, none)
    if len(bm) > 5 and bm[5] and memo is not None:
        # a shift only where the block (1), or it or one of its four
        # neighbours (2), took the same in the frame before, untested
        raw, last = pick, memo.get("raw")
        if last is not None:
            same = last == pick
            if bm[5] > 1:
                p = np.pad(last, 1, mode="edge")
                for sy, sx in ((0, 1), (2, 1), (1, 0), (1, 2)):
                    same |= p[sy:sy + hb, sx:sx + wb] == pick
            pick = np.where(same, pick, none)
        else:
            pick = np.full_like(pick, none)
        memo["raw"] = raw
    pick = np.repeat(np.repeat(pick, b, 0), b, 1)[:h, :w]
    bv, bc = v.copy(), count.copy()
    for i, (dy, dx) in enumerate(shifts):
        m = pick == i
        if dy == 0 and dx == 0 or not m.any():
            continue
        bv = np.where(m, shifted_by(v, dy, dx, r), bv)
        bc = np.where(m, shifted_by(count, dy, dx, r), bc)
    return bv, bc


def recursive_search(xs, v, count, rs, s16, frac, memo):
    """The last outputs and counts moved block by block, each block of 32
    taking the least of a few candidate shifts: none, its own and its
    neighbours' in the frame before, then the shifts around the best."""
    r, nb, iters = rs[:3]
    keep_final = len(rs) > 3 and rs[3]
    b, step, fit = 32, 4, 12
    bb = memo.get("bb") or 5
    h, w = xs.shape
    hb, wb = -(-h // b), -(-w // b)
    rows = (np.arange(hb * b) % step) == 0

    def block_sums(e):
        e = np.pad(e, ((0, hb * b - h), (0, wb * b - w)), mode="edge")
        e = e * rows[:, None]
        return e.reshape(hb, b, wb, b).sum(axis=(1, 3))

    side = 2 * r + 1
    table = np.stack([block_sums(np.abs(xs - shifted_by(v, dy, dx, r)))
                      for dy in range(-r, r + 1) for dx in range(-r, r + 1)],
                     axis=-1)
    n = block_sums(np.ones_like(xs))
    none_sum = table[..., r * side + r] - ((bb * s16 << frac) * n) // 1600
    last = memo.get("rs")
    if last is None:
        last = np.zeros((hb, wb, 2), dtype=np.int64)
    by, bx = np.meshgrid(np.arange(hb), np.arange(wb), indexing="ij")

    def sums_at(cand):
        dy, dx = cand[..., 0], cand[..., 1]
        inside = (np.abs(dy) <= r) & (np.abs(dx) <= r)
        k = np.clip(dy + r, 0, side - 1) * side + np.clip(dx + r, 0, side - 1)
        e = table[by, bx, k]
        e = np.where((dy == 0) & (dx == 0), none_sum, e)
        return np.where(inside, e, np.iinfo(np.int64).max)

    best_v = np.zeros((hb, wb, 2), dtype=np.int64)
    best = none_sum.copy()
    p = np.pad(last, ((1, 1), (1, 1), (0, 0)), mode="edge")
    cands = [last]
    offs = {0: [], 4: [(-1, 0), (0, -1), (0, 1), (1, 0)],
            8: [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1),
                (1, 0), (1, 1)]}[nb]
    for oy, ox in offs:
        cands.append(p[1 + oy:1 + oy + hb, 1 + ox:1 + ox + wb])
    for c in cands:
        e = sums_at(c)
        take = e < best
        best = np.where(take, e, best)
        best_v = np.where(take[..., None], c, best_v)
    for _ in range(iters):
        centre = best_v.copy()
        for oy in (-1, 0, 1):
            for ox in (-1, 0, 1):
                if oy == 0 and ox == 0:
                    continue
                c = centre + np.array([oy, ox])
                e = sums_at(c)
                take = e < best
                best = np.where(take, e, best)
                best_v = np.where(take[..., None], c, best_v)
    if len(rs) > 4 and rs[4]:
        # where the least does not fit, every shift within r by its sum
        # over every 16th row (none first, less the bias), and the least so
        # found where its whole sum is less
        redo = best * 16 > fit * s16 * n
        sparse_rows = (np.arange(hb * b) % (4 * step)) == 0

        def sparse_sums(e):
            e = np.pad(e, ((0, hb * b - h), (0, wb * b - w)), mode="edge")
            return (e * sparse_rows[:, None]).reshape(hb, b, wb, b).sum(
                axis=(1, 3))

        ns = sparse_sums(np.ones_like(xs))
        least = sparse_sums(np.abs(xs - v)) - ((bb * s16 << frac) * ns) // 1600
        least_v = np.zeros((hb, wb, 2), dtype=np.int64)
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                if dy or dx:
                    e = sparse_sums(np.abs(xs - shifted_by(v, dy, dx, r)))
                    take = e < least
                    least = np.where(take, e, least)
                    least_v = np.where(take[..., None],
                                       np.array([dy, dx]), least_v)
        whole = sums_at(least_v)
        take = redo & (least_v != 0).any(axis=-1) & (whole < best)
        best = np.where(take, whole, best)
        best_v = np.where(take[..., None], least_v, best_v)
    moved = (best_v != 0).any(axis=-1)
    fits = best * 16 <= fit * s16 * n
    final = np.where((moved & fits)[..., None], best_v, 0)
    memo["rs"] = final if keep_final else best_v
    memo["rs_stats"] = memo.get("rs_stats", 0) + int((final != 0).any(-1).sum())
    pick = final[..., 0] * side + final[..., 1]
    pick = np.repeat(np.repeat(pick, b, 0), b, 1)[:h, :w]
    bv, bc = v.copy(), count.copy()
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            m = pick == dy * side + dx
            if dy == 0 and dx == 0 or not m.any():
                continue
            bv = np.where(m, shifted_by(v, dy, dx, r), bv)
            bc = np.where(m, shifted_by(count, dy, dx, r), bc)
    return bv, bc


def global_shift(xs, v, count, gs, s16, frac):
    """The last outputs and counts moved by one shift for the whole frame:
    that within R samples whose sum of |8 x - v| over every 4th sample of
    every 8th row is least, none unless one beats it by K / 10 sigma a
    sample."""
    r, k = gs
    sub = (slice(1, None, 8), slice(1, None, 4))
    n = xs[sub].size
    best = np.abs(xs - v)[sub].sum() - ((k * s16 << frac) * n) // 160
    pick = (0, 0)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            if dy or dx:
                e = np.abs(xs - shifted_by(v, dy, dx, r))[sub].sum()
                if e < best:
                    best, pick = e, (dy, dx)
    if pick == (0, 0):
        return v, count
    return (shifted_by(v, *pick, r), shifted_by(count, *pick, r))


def run_fixed(noisy, clean, s16, frac=3, young=1, motion5=(6, 12), cmax=31,
              twk=3, ps=None, noblend=False, st=(6, 10), sad=(14, 16),
              wsad=None, flat=True, clamp=None, clampx=None, nbcap=None,
              nbk=1, mc=None, bm=None, oracle=False, gs=None, bb=None,
              cs=None, rs=None, pgm=None, clamps=None, clampw=None,
              clampws=None):
    """The same in integers, the last output kept in fixed point with @frac
    bits below the 8-bit step: the motion tests compare the sums of the
    kept values with the present frame's, in those units."""
    te, tw = (2 * s16 + 8) >> 4, (twk * s16 + 8) >> 4
    one = 1 << frac

    def thr(k):
        return (k * s16 << frac) >> 4

    v = count = None
    score = Score(clean)
    clean_t = clean
    memo = {"bb": bb, "cs": cs}
    for t, x in enumerate(noisy):
        if pgm is not None:
            # the level of each sample, from the sensor model's variance
            # at its brightness (sigma^2 / 4 + m sigma / 32)
            sig, f, exact = pgm
            m = clean[t] if exact else window_sum(x, 1) // 9
            s16 = np.round(1.6 * f * np.sqrt(sig * sig / 4 + m * sig / 32)
                           ).astype(np.int64)
            te, tw = (2 * s16 + 8) >> 4, (twk * s16 + 8) >> 4
        s = epsilon_mean(x, 1, te)
        if v is None:
            count = np.zeros_like(x)
        else:
            if mc is not None:
                # the last outputs shifted by up to a sample, per sample the
                # shift whose 3 x 3 sum of |8 x - v| is least, the unshifted
                # one kept unless another is below it by mc sigma
                xs = x << frac
                best = window_sum(np.abs(xs - v), 1) - thr(mc)
                bv, bc = v, count
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        if dy == 0 and dx == 0:
                            continue
                        sv = shifted(v, dy, dx)
                        e = window_sum(np.abs(xs - sv), 1)
                        take = e < best
                        best = np.where(take, e, best)
                        bv = np.where(take, sv, bv)
                        bc = np.where(take, shifted(count, dy, dx), bc)
                v, count = bv, bc
            if gs is not None:
                v, count = global_shift(x << frac, v, count, gs, s16, frac)
            if rs is not None:
                v, count = recursive_search(x << frac, v, count, rs, s16,
                                            frac, memo)
            if bm is not None:
                v, count = block_match(x << frac, v, count, bm, s16, frac,
                                       memo)
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
            if sad:
                d = window_sum(np.abs((x << frac) - v), 1)
                ok_still &= d <= thr(sad[0])
                ok_half &= d <= thr(sad[1])
            if wsad:
                d = window_sum(np.abs((x << frac) - v), 2)
                ok_still &= d <= thr(wsad[0])
                ok_half &= d <= thr(wsad[1])
            # the count held at nbcap where at least nbk of the 3 x 3
            # samples had moved in the frame before
            held = nbcap is not None and \
                window_sum((count == 0).astype(np.int64), 1) >= nbk
            count = np.where(ok_still, np.minimum(count + 1, cmax),
                             np.where(ok_half, count >> 1, 0))
            if oracle:
                count = np.where(np.abs(clean_t[t] - clean_t[t - 1]) > 8, 0,
                                 count)
            if nbcap is not None:
                count = np.where(held, np.minimum(count, nbcap), count)
            if flat:
                # flat where the last outputs' 3 x 3 and 3 x 5 means
                # differ by at most 1/16 sigma: counts 2 to 5 there take
                # the 3 x 3 window within the wide one's threshold
                f = np.abs(5 * window_sum(v, 1) - 3 * window_rows(v, 1, 2))
                mid = ((f <= ((45 * s16 << frac) + 128) >> 8) &
                       (count >= 2) & (count <= 5))
                s = np.where(mid, epsilon_mean(x, 1, tw), s)
        s = np.where(count <= young, epsilon_mean(x, 2, tw), s)
        if v is None:
            v = s << frac
        elif noblend:
            k = np.where(count <= young, 0, count)
            v = (k * v + (s << frac) + (k + 1) // 2) // (k + 1)
        else:
            v = (count * v + (s << frac) + (count + 1) // 2) // (count + 1)
        # the output, not the state, held within some sigma of the present
        # sample (clampx) or of its epsilon mean (clamp)
        o = v
        wide = epsilon_mean(x, 2, tw) if (clampw or clampws) else None
        for k, around, state in ((clampx, x, False), (clamp, s, False),
                                 (clamps, s, True), (clampw, wide, False),
                                 (clampws, wide, True)):
            if k:
                lo = (around << frac) - (k * s16 << frac) // 160
                hi = (around << frac) + (k * s16 << frac) // 160
                o = np.clip(o, lo, hi)
                if state:
                    v = np.clip(v, lo, hi)
        score.add(t, (o + one // 2) >> frac)
    return score.result(count)


def parse_old(parts):
    kw = {}
    for part in parts:
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
            raise SystemExit(f"no such variant of the old formula: {part}")
    return kw


def pair(text):
    a, b = text.split("_")
    return int(a), int(b)


def parse_present(parts):
    kw = {}
    for part in parts:
        if part == "noblend":
            kw["noblend"] = True
        elif part == "noflat":
            kw["flat"] = False
        elif part == "oracle":
            kw["oracle"] = True
        elif part.startswith("pgm") or part.startswith("pgc"):
            a = [int(q) for q in part[3:].split("_")]
            kw["pgm"] = (a[0], a[1] if len(a) > 1 else 10, part[2] == "c")
        elif part.startswith("cs"):
            kw["cs"] = int(part[2:])
        elif part.startswith("bb"):
            kw["bb"] = int(part[2:])
        elif part.startswith("gs"):
            kw["gs"] = pair(part[2:])
        elif part.startswith("rs"):
            kw["rs"] = tuple(int(a) for a in part[2:].split("_"))
        elif part.startswith("bm"):
            kw["bm"] = tuple(int(a) for a in part[2:].split("_"))
        elif part == "nosad":
            kw["sad"] = None
        elif part.startswith("m5_"):
            kw["motion5"] = pair(part[3:])
        else:
            for prefix, key, read in (("frac", "frac", int),
                                      ("young", "young", int),
                                      ("tw", "twk", int),
                                      ("cmax", "cmax", int),
                                      ("st", "st", pair), ("ps", "ps", pair),
                                      ("sad", "sad", pair),
                                      ("wsad", "wsad", pair),
                                      ("clampx", "clampx", int),
                                      ("nbcap", "nbcap", int),
                                      ("nbk", "nbk", int),
                                      ("mc", "mc", int),
                                      ("clampws", "clampws", int),
                                      ("clampw", "clampw", int),
                                      ("clamps", "clamps", int),
                                      ("clamp", "clamp", int)):
                if part.startswith(prefix):
                    kw[key] = read(part[len(prefix):])
                    break
            else:
                raise SystemExit(f"no such variant: {part}")
    return kw


def run_spatial(noisy, clean, threshold, radius):
    """clepsilon's filter alone (threshold in 8-bit steps, the window's
    radius), every frame on its own."""
    score = Score(clean)
    for t, x in enumerate(noisy):
        score.add(t, epsilon_mean(x, radius, threshold))
    return score.result(np.zeros(1))


def run_variant(name, yn, y0, s16):
    parts = [p for p in name.split("+") if p]
    if parts and parts[0].startswith("eps"):
        return run_spatial(yn, y0, *pair(parts[0][3:]))
    if parts and parts[0] == "old":
        return run(yn, y0, s16, **parse_old(parts[1:]))
    return run_fixed(yn, y0, s16, **parse_present(parts))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clip", default="Megamind.avi")
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--sigma", type=float, default=10)
    ap.add_argument("--pg", action="store_true",
                    help="the sensor model's noise (pg), not Gaussian")
    ap.add_argument("--variants", default="")
    ap.add_argument("--level", type=float, default=None,
                    help="the level the formula is told (default: sigma)")
    args = ap.parse_args()
    path = os.path.join(dq.FOOTAGE, args.clip)
    if not os.path.exists(path):
        raise SystemExit(f"no {path}: run tools/fetch-footage.sh")
    w, h = dq.probe(path)
    clean = dq.decode(path, args.frames, w, h)
    noisy = dq.add_noise(clean, ("pg" if args.pg else "gauss", args.sigma))
    y0 = dq.planes(clean, w, h)[0].astype(np.int64)
    yn = dq.planes(noisy, w, h)[0].astype(np.int64)
    s16 = int(round((args.level or args.sigma) * 16))
    print(f"{args.clip}, {w}x{h}, {args.frames} frames, sigma "
          f"{args.sigma:g}, the level set to {s16 / 16:g}\n")
    print("| formula | luma PSNR | moving luma PSNR | mean count |")
    print("|---|---:|---:|---:|")
    for name in ["the present one"] + [v for v in args.variants.split(",")
                                       if v]:
        p, pm, c = run_variant("" if name == "the present one" else name,
                               yn, y0, s16)
        print(f"| {name} | {p:.2f} | {pm:.2f} | {c:.1f} |", flush=True)


if __name__ == "__main__":
    main()
