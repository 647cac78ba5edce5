/* gstclfilters: cldenoise, a camera's noise reduced over time and space
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * docs/cldenoise.md gives the formulas; every step is integer arithmetic,
 * so that the C reference (tests/test_denoise.c) gives the same bytes.
 *
 * denoise_plane: PX samples of RY rows a work-item (below), of a plane of
 * @pwidth pixels of
 * @pstride interleaved channels (NV12's UV: 2), each channel on its own
 * grid, edges replicated. Each sample's state is one 16-bit word in @kept
 * (planes of @width x @height words, rows of @width = pwidth * pstride
 * samples): its last output in eighths of a step (8.3 fixed point, 11
 * bits) above the count of frames it has been still (5 bits). The state
 * is read at @last_at, as its neighbours' work-items need it, and the new
 * one written at @next_at (the two places swap each frame), in words;
 * @first starts it afresh.
 *
 * denoise_histogram: the histograms of min (|L|, 255), L the 3 x 3
 * Laplacian-like response [1 -2 1; -2 4 -2; 1 -2 1] of the luma, over every
 * 4th sample of every 8th row from (1, 1), off the frame's border, where
 * no sample of the 3 x 3 is 0 or 255, and of the change of L since the
 * last frame there; @hist holds 2 x 256 counts, zeroed first.
 *
 * denoise_estimate: one work-group of 256: the noise level the histograms
 * say, in 1/16 of an 8-bit step, and the estimate in @est[0] moved half
 * of the way to it (set to it where @first), all on the device: the host
 * never waits for it; in @est[1] the level the other kernels take, the
 * level set or the estimate, times the element's strength. It clears the
 * histograms for the next frame (the element clears them where a frame
 * starts afresh).
 */

/* the longest memory, in frames: the count's largest (CBITS below) */
#define CMAX 31
/* a sample is still where the 3 x 3 sums of its neighbours' last outputs
 * and of the present frame around it differ by at most STILL x sigma (their
 * means by 0.67 sigma), the 5 x 5 sums, scaled by 3/5 (to the 3 x 3 sums'
 * noise), by at most STILL5 x sigma, and the 3 x 3 samples one by one, the
 * sum of |8 n - v| (for noise alone its mean is 7.2 sigma, its deviation
 * 1.8 sigma), is at most SAD x sigma: a texture that shifted keeps its
 * local means, not its samples; half as still up to HALF, HALF5 and
 * SADHALF x sigma; where its count is at most YOUNG (it moved, or its
 * state starts, or it was still for one frame), the present frame's part
 * is its 5 x 5 window's mean within TW x sigma */
#define STILL 6
#define HALF 10
#define STILL5 6
#define HALF5 12
#define SAD 14
#define SADHALF 16
#define YOUNG 1
#define TW 3
/* where the count is 2 to MIDDLE and the last outputs around the sample
 * are flat, 5 P3 - 3 P35 (in eighths: 45 times the difference of their 3
 * x 3 and 3 x 5 means) within (FLAT s + 16) >> 5 (the means within 1/16
 * sigma of each other), the 3 x 3 window is taken within TW x sigma */
#define MIDDLE 5
#define FLAT 45
/* The motion (the element's; denoise_search, then denoise_move): each MB
 * x MB block of the luma takes a shift within MR samples, the least of a
 * few whose sum of |8 X - V| (in eighths) over its every MSTEP-th row (X
 * the present frame, V the last output shifted) is least (denoise_search
 * says which), none unless one is less than none's less MBIAS / 20 sigma a
 * sample, and only where its sum is at most MFIT sigma a sample (for
 * noise alone, 6.4); every plane's last outputs and counts are read
 * through it (halved on a subsampled plane). MB, and SB (the blocks a
 * work-group of the search takes on a GPU), are the element's build
 * options. */
#if !defined (MB) || !defined (SB)
#error "the element gives the motion's blocks: -DMB=... -DSB=..."
#endif
#define MR 4
#define MSTEP 4
#define MBIAS 1
#define MFIT 12
/* the largest level the formulas take (denoise_estimate's @est[1]), the
 * estimate's largest: the bounds below hold up to it */
#define LEVEL_MAX 1008

/* the last output's bits below the 8-bit step, and the count's */
#define FRAC 3
#define CBITS 5
#if CMAX != (1 << CBITS) - 1
#error "CMAX is the largest count of CBITS bits"
#endif

/* A work-item takes PX samples of a row (PX of 1, 2, 4, 8 or 16, a build
 * option, the element's plans: 16-lane vectors for CPUs, 1 for GPUs, 2 in
 * packed halves for NVIDIA's) in RY rows, one below the other (a build
 * option), so that each row's sums across 5 and 3 samples
 * serve the five windows that hold the row: the 5 x 5 and 3 x 3 box sums
 * of the frame and of the last outputs cost a row's sums and 6 additions,
 * not 32 loads and additions.
 *
 * The formula's values fit 16 bits: the 5 x 5 sums at most 25 x 2047 <
 * 2^16 (the last outputs') and 8 x 25 x 255 (the frame's, in the last
 * outputs' units; their difference below), the next V's numerator at most
 * 31 x 2040 + 8 x 255 + 16 < 2^16, the 3 x 3 epsilon window's sum and
 * count as sum + 4096 count at most 2295 + 9 x 4096. So CPUs, whose
 * vectors hold twice as many 16-bit lanes as 32-bit ones, compute in
 * ushort vectors (uP); GPUs in ints, whose 16-bit arithmetic is no
 * faster.
 *
 * The vectors divide in floats, exactly: for integers a < 2^17 and 0 < d
 * <= 50, (a + 1/2) / d lies at least 1/100 from any integer, beyond the
 * 2.5 ulp (below 0.04 / d here) that OpenCL allows a division, so its
 * floor is floor (a / d) on every device. */
#ifndef PX
#define PX 16
#endif
#ifndef RY
#define RY 16
#endif
#define CAT_(a, b) a ## b
#define CAT(a, b) CAT_ (a, b)
#if PX >= 8
#define u_t ushort
#else
#define u_t int
#endif
#if defined (HALVES) && PX != 2
#error "HALVES takes two samples a work-item"
#endif
#if PX == 1
#define ANY(v) (v)
#define uP u_t
#define TO_U(v) ((u_t) (v))
#define TO_FLOAT(v) ((float) (v))
#define LOAD(p) ((u_t) (p)[0])
#define STORE_O(v, p) ((p)[0] = (v))
#else
#define ANY(v) any (v)
#define uP CAT (u_t, PX)
#define TO_U(v) CAT (CAT (convert_, u_t), PX) (v)
#define TO_FLOAT(v) CAT (convert_float, PX) (v)
#define LOAD(p) TO_U (CAT (vload, PX) (0, (p)))
#define STORE_O(v, p) CAT (vstore, PX) ((v), 0, (p))
#endif
/* floor (a / d) for 0 <= a < 2^17, 0 < d <= 50 (above); the quotient is
 * positive, and a conversion to integers rounds towards zero */
#define DIV(a, d) TO_U ((TO_FLOAT (a) + 0.5f) / TO_FLOAT (d))
/* a constant of the vectors' lanes */
#define U(k) ((u_t) (k))
/* a comparison's result as a mask of the lanes' type: all ones or 0 */
#if PX == 1
#define MASK(cond) (-(u_t) (cond))
#else
#define MASK(cond) CAT (CAT (as_, u_t), PX) (cond)
#endif
/* |n - X| <= t, as n - (X - t) <= 2 t unsigned: @lo X - t, @t2 2 t */
#if PX >= 8
#define WITHIN(n, lo, t2) ((n) - (lo) <= (t2))
#elif PX == 1
#define WITHIN(n, lo, t2) ((uint) ((n) - (lo)) <= (uint) (t2))
#else
#define WITHIN(n, lo, t2) (CAT (as_uint, PX) ((n) - (lo)) <= \
    CAT (as_uint, PX) (t2))
#endif

/* the widest pstride (NV12's UV), and a work-item's window of a row */
#define MAX_PSTRIDE 2
#define WIN (PX + 4 * MAX_PSTRIDE)

#if PX >= 8
#include "vectors.cl"
#endif

/* The first @n of PX outputs @o and states @v, to @po and @pn: fewer at
 * the right edge. */
static inline void
store_samples (uP o, uP v, __global uchar * po, __global ushort * pn,
    int n)
{
#if PX == 1
  po[0] = o;
  pn[0] = v;
#else
  if (n == PX) {
#if PX >= 8
    /* whole vectors, where vstoreN took PoCL a byte at a time */
    STORE_WHOLE (uchar, PX, CAT (convert_uchar, PX) (o), po);
    STORE_WHOLE (ushort, PX, CAT (convert_ushort, PX) (v), pn);
#else
    CAT (vstore, PX) (CAT (convert_uchar, PX) (o), 0, po);
    CAT (vstore, PX) (CAT (convert_ushort, PX) (v), 0, pn);
#endif
  } else {
    u_t o_[PX], v_[PX];

    STORE_O (o, o_);
    STORE_O (v, v_);
    for (int j = 0; j < n; j++) {
      po[j] = o_[j];
      pn[j] = v_[j];
    }
  }
#endif
}

/* The ring of five rows: slot q holds its row of the frame (NB (q, dx): the
 * PX samples dx samples of their channel away) and, of the row's sums across
 * 3 and 5 samples, those of the last outputs less 8 times the frame's (d3_q,
 * d5_q), f3_q, 5 times the last outputs' sum across 3 less 3 times that
 * across 5, and e3_q, the sum across 3 of |8 n - v| (three rows' at most 9 x
 * 2047 < 2^16, exact in ushort lanes). Five rows' d5 add up to P5 - 8 B5, at
 * most 25 x 2047 in size: in ushort lanes, modulo 2^16, read as a signed
 * 16-bit number it is exact up to 2^15 and above it reads at least 2^16 - 25
 * x 2047 = 14361, beyond every threshold it is tested against (at most (5 x
 * 6048 + 4) / 3 = 10081), so the tests hold. Likewise three rows' f3 add up
 * to 5 P3 - 3 P35, at most 3 x 6 x 2047 = 36846 in size, which reads at
 * least 2^16 - 36846 = 28690 where it is not exact, beyond the flat test's
 * threshold (at most (FLAT x 1008 + 16) >> 5 = 1418, at LEVEL_MAX 1008).
 * DECL (q), ROW (q), the row's first sample, FETCH (q, yy), which fills
 * slot q with row yy (clamped), and LC (yy), the state's words of row yy,
 * are each instantiation's. */
#define NB(q, dx) LOAD (ROW (q) + (dx) * pstride)
#define LV(p, dx) (LOAD ((p) + (dx) * pstride) >> U (CBITS))
#if PX >= 8
/* |v| of the lanes read as signed 16-bit numbers, in plain operators:
 * PoCL took abs () of a short16 apart, two lanes at a time */
static inline uP
sabs (uP v)
{
  CAT (short, PX) s = CAT (as_short, PX) (v), m = s >> (short) 15;

  return CAT (as_ushort, PX) ((s ^ m) - m);
}

#define SABS(v) sabs (v)
#else
#define SABS(v) TO_U (abs (v))
#endif
#define ROW_SUMS(q, p) { \
    uP n0_ = NB (q, -1), n1_ = NB (q, 0), n2_ = NB (q, 1); \
    uP v0_ = LV (p, -1), v1_ = LV (p, 0), v2_ = LV (p, 1); \
    uP i3_ = n0_ + n1_ + n2_, i5_ = i3_ + NB (q, -2) + NB (q, 2); \
    uP l3_ = v0_ + v1_ + v2_, o2_ = LV (p, -2) + LV (p, 2); \
 \
    d5_##q = l3_ + o2_ - (i5_ << U (FRAC)); \
    f3_##q = U (2) * l3_ - U (3) * o2_; \
    KEEP_DE (q, l3_ - (i3_ << U (FRAC)), SABS ((n0_ << U (FRAC)) - v0_) + \
        SABS ((n1_ << U (FRAC)) - v1_) + SABS ((n2_ << U (FRAC)) - v2_)); \
  }
#if PX >= 8
#define SLOT_SUMS(q) uP d3_##q = (uP) (0), d5_##q = (uP) (0), \
    f3_##q = (uP) (0), e3_##q = (uP) (0);
#define KEEP_DE(q, d3, e3) { d3_##q = (d3); e3_##q = (e3); }
#define SUM_DE(A, E, q1, q2, q3) { \
    A = SABS (d3_##q1 + d3_##q2 + d3_##q3); \
    E = e3_##q1 + e3_##q2 + e3_##q3; \
  }
#else
/* In int lanes (GPUs), a row's d3 and e3 in one word, (e3 << 16) + d3 +
 * DBIAS: d3 within -6120 .. 6141, so d3 + DBIAS within 2072 .. 14333, three
 * rows' within 16 bits, three rows' e3 at most 18423 above them: a
 * register a slot fewer. */
#define DBIAS 8192
#define SLOT_SUMS(q) uP d3_##q = (uP) (0), d5_##q = (uP) (0), \
    f3_##q = (uP) (0);
#define KEEP_DE(q, d3, e3) d3_##q = ((e3) << 16) + (d3) + DBIAS;
#define SUM_DE(A, E, q1, q2, q3) { \
    uP de_ = d3_##q1 + d3_##q2 + d3_##q3; \
 \
    A = SABS ((de_ & 0xffff) - 3 * DBIAS); \
    E = de_ >> 16; \
  }
#endif

/* The epsilon windows: where a sample is not young, the 3 x 3 one within
 * te (tw where mid); where it is, the 5 x 5 one within tw. Their inner
 * 3 x 3 taps are taken together, each lane with its own threshold, and
 * the outer ring of 16 only where a lane is young. A tap tested as
 * |n - X| <= t (WITHIN) adds n + ONE to an accumulator: the sum in its low
 * bits, the count above. In ushort lanes (CPUs) ONE is 4096: 9 taps at
 * most 9 x (255 + 4096) < 2^16, the inner ones in one accumulator and the
 * ring's in two of 9 and 7; in int lanes (GPUs) 2^16, the ring in one. The
 * centre always counts. */
#define EPS_TAP(acc, q, dx) \
    acc += (NB (q, dx) + U (ONE)) & MASK (WITHIN (NB (q, dx), lo_, t2_));
#define EPS_INNER(q1, q2, q3) \
    EPS_TAP (in_, q1, -1) EPS_TAP (in_, q1, 0) EPS_TAP (in_, q1, 1) \
    EPS_TAP (in_, q2, -1) EPS_TAP (in_, q2, 1) \
    EPS_TAP (in_, q3, -1) EPS_TAP (in_, q3, 0) EPS_TAP (in_, q3, 1)
/* the ring: two rows of 5 (q0, q4), the ends of three (q1 to q3) */
#define EPS_ROW5(acc, q) EPS_TAP (acc, q, -2) EPS_TAP (acc, q, -1) \
    EPS_TAP (acc, q, 0) EPS_TAP (acc, q, 1) EPS_TAP (acc, q, 2)
#define EPS_ENDS(acc, q) EPS_TAP (acc, q, -2) EPS_TAP (acc, q, 2)
#if PX >= 8
#define ONE 4096
#define SHIFT 12
#define EPS_RING(q0, q1, q2, q3, q4) { \
    uP ra_ = (uP) (0), rb_ = (uP) (0); \
 \
    EPS_ROW5 (ra_, q0) EPS_ENDS (ra_, q1) EPS_ENDS (ra_, q2) \
    EPS_ROW5 (rb_, q4) EPS_ENDS (rb_, q3) \
    sum += ((ra_ & U (ONE - 1)) + (rb_ & U (ONE - 1))) & young; \
    cnt += ((ra_ >> U (SHIFT)) + (rb_ >> U (SHIFT))) & young; \
  }
#else
#define ONE 0x10000
#define SHIFT 16
#define EPS_RING(q0, q1, q2, q3, q4) { \
    uP r_ = (uP) (0); \
 \
    EPS_ROW5 (r_, q0) EPS_ENDS (r_, q1) EPS_ENDS (r_, q2) \
    EPS_ENDS (r_, q3) EPS_ROW5 (r_, q4) \
    sum += (r_ & U (ONE - 1)) & young; \
    cnt += (r_ >> U (SHIFT)) & young; \
  }
#endif

#ifdef HALVES
/* HALVES, a build option (the plan "halves"), with two samples a
 * work-item: their epsilon windows take both at once, in the halves of
 * packed half-precision floats (f16x2) with NV_PTX (NVIDIA's compiler,
 * which takes PTX assembly), every value an exact integer, as
 * clepsilon's: each row slot keeps its five pairs of samples
 * (dx = -2 .. 2) as 1024 + n in each half (the bits 0x6400 | n), and a tap
 * is four instructions for the two samples:
 *   e = v - v_X                 n - X, exactly
 *   m = sat (t + 1 - |e|)       1 where |n - X| <= t, else 0
 *   s += m * e                  the sum of n - X over the window
 *   k += m                      its count
 * Halves hold every integer up to 2048: the inner 8 taps' s at most 8 x
 * 189 (t at most (3 x LEVEL_MAX + 8) >> 4 in 8-bit steps), the ring's in
 * two accumulators of 7 and 9 taps. The window's sum is then s + (k + 1)
 * X, the centre counted once. */
#include "halves.cl"

#define HTAP(s, k, q, i) { \
    uint e_ = sub_f16x2 (h_##q[i], hx_), m_ = mask_f16x2 (e_, t1_); \
 \
    s = fma_f16x2 (m_, e_, s); \
    k = add_f16x2 (k, m_); \
  }
#define HROW5(s, k, q) HTAP (s, k, q, 0) HTAP (s, k, q, 1) HTAP (s, k, q, 2) \
    HTAP (s, k, q, 3) HTAP (s, k, q, 4)
#define HENDS(s, k, q) HTAP (s, k, q, 0) HTAP (s, k, q, 4)
#define CENTRE(q) ((uP) (h_##q[2] & 0xff, (h_##q[2] >> 16) & 0xff))
#define EPS_MEAN(q0, q1, q2, q3, q4) { \
    uP young = MASK (c <= (uP) (YOUNG)), cnt; \
    uint t1_ = to_f16x2 (select (te_, tw_, young | mid) + 1); \
    uint hx_ = h_##q2[2]; \
    uint s_ = 0, k_ = 0; \
    float2 sf_, kf_; \
 \
    HTAP (s_, k_, q1, 1) HTAP (s_, k_, q1, 2) HTAP (s_, k_, q1, 3) \
    HTAP (s_, k_, q2, 1) HTAP (s_, k_, q2, 3) \
    HTAP (s_, k_, q3, 1) HTAP (s_, k_, q3, 2) HTAP (s_, k_, q3, 3) \
    sf_ = from_f16x2 (s_); \
    kf_ = from_f16x2 (k_); \
    if (ANY (young)) { \
      uint ra_ = 0, rb_ = 0, rk_ = 0; \
 \
      HROW5 (ra_, rk_, q0) HENDS (ra_, rk_, q1) \
      HROW5 (rb_, rk_, q4) HENDS (rb_, rk_, q3) HENDS (rb_, rk_, q2) \
      sf_ += select ((float2) (0.0f), from_f16x2 (ra_) + from_f16x2 (rb_), \
          young); \
      kf_ += select ((float2) (0.0f), from_f16x2 (rk_), young); \
    } \
    cnt = convert_int2 (kf_) + 1; \
    S = DIV (U (2) * (convert_int2 (sf_) + cnt * X) + cnt, U (2) * cnt); \
  }
#else
/* the epsilon windows' mean S of the sample X whose count is c: the 3 x 3
 * one, each lane within its own threshold (tw where it is young or
 * middling in a flat area, mid, else te), and the ring where a lane is
 * young. A second path for the work-items with no such lane, all within
 * te, measured 13% slower on PoCL once mid came in: which path a
 * work-item took no longer followed a pattern the CPU could foresee. */
#define CENTRE(q) NB (q, 0)
#define EPS_MEAN(q0, q1, q2, q3, q4) { \
    uP young = MASK (c <= (uP) (YOUNG)); \
    uP t_ = select (te_, tw_, young | mid), lo_ = X - t_, t2_ = t_ + t_; \
    uP in_ = X + U (ONE), sum, cnt; \
 \
    EPS_INNER (q1, q2, q3) \
    sum = in_ & U (ONE - 1); \
    cnt = in_ >> U (SHIFT); \
    if (ANY (c <= (uP) (YOUNG))) \
      EPS_RING (q0, q1, q2, q3, q4) \
    S = DIV (U (2) * sum + cnt, U (2) * cnt); \
  }
#endif

/* output row y, from the ring's rows y - 2 (q0) to y + 2 (q4) */
#define OUTPUT(q0, q1, q2, q3, q4) { \
    uP X = CENTRE (q2), S, V, c = (uP) (0), prev = (uP) (0); \
    uP mid = (uP) (0); \
 \
    if (!first) { \
      uP A5 = SABS (d5_##q0 + d5_##q1 + d5_##q2 + d5_##q3 + d5_##q4); \
      uP F = SABS (f3_##q1 + f3_##q2 + f3_##q3); \
      uP lc = LC (y), A, E; \
 \
      SUM_DE (A, E, q1, q2, q3) \
 \
      c = lc & U ((1 << CBITS) - 1); \
      prev = lc >> U (CBITS); \
      c = select (select ((uP) (0), c >> U (1), A <= t_half_ && \
              A5 <= t_half5_ && E <= t_sadhalf_), \
          min (c + U (1), (uP) (CMAX)), A <= t_still_ && \
          A5 <= t_still5_ && E <= t_sad_); \
      mid = MASK (c >= U (2) && c <= U (MIDDLE) && F <= t_flat_); \
    } \
    EPS_MEAN (q0, q1, q2, q3, q4) \
    V = c * prev + (S << U (FRAC)) + ((c + U (1)) >> U (1)); \
    /* still for the longest memory, CMAX + 1 = 2^CBITS: a shift */ \
    V = ANY (c != (uP) (CMAX)) ? DIV (V, c + U (1)) : V >> U (CBITS); \
    store_samples ((V + U (1 << (FRAC - 1))) >> U (FRAC), \
        (V << U (CBITS)) | c, \
        out + y * out_stride + x0, next + y * width + x0, n); \
  }

/* the ring turned by one row: row y + 2 into q4, then output row y */
#define STEP(q0, q1, q2, q3, q4) \
    if (y >= yend) \
      return; \
    FETCH (q4, y + 2); \
    OUTPUT (q0, q1, q2, q3, q4); \
    y++;

/* The work-item's RY rows from @y0, @n samples of each from @x0; @col,
 * where the instantiation takes it, the columns of its window, clamped.
 * The 5 x 5 sums' test, 3/5 of the difference within t (floored), is 3
 * times it within 5 t + 4, and so the difference within (5 t + 4) / 3. */
#define DENOISE_ROWS(name) \
static inline void \
name (__global const uchar * in, int in_stride, __global uchar * out, \
    int out_stride, __global const ushort * last, __global ushort * next, \
    int width, int height, const int pstride, const int *col, int x0, \
    int y0, int n, int s16, int first) \
{ \
  uP te_ = (uP) ((2 * s16 + 8) >> 4), tw_ = (uP) ((TW * s16 + 8) >> 4); \
  uP t_still_ = (uP) ((STILL * s16 << FRAC) >> 4); \
  uP t_half_ = (uP) ((HALF * s16 << FRAC) >> 4); \
  uP t_still5_ = (uP) ((5 * ((STILL5 * s16 << FRAC) >> 4) + 4) / 3); \
  uP t_half5_ = (uP) ((5 * ((HALF5 * s16 << FRAC) >> 4) + 4) / 3); \
  uP t_flat_ = (uP) ((FLAT * s16 + 16) >> 5); \
  uP t_sad_ = (uP) ((SAD * s16 << FRAC) >> 4); \
  uP t_sadhalf_ = (uP) ((SADHALF * s16 << FRAC) >> 4); \
  int y = y0, yend = min (y0 + RY, height); \
  DECL (r0) DECL (r1) DECL (r2) DECL (r3) DECL (r4) \
 \
  FETCH (r0, y - 2); \
  FETCH (r1, y - 1); \
  FETCH (r2, y); \
  FETCH (r3, y + 1); \
  for (;;) { \
    STEP (r0, r1, r2, r3, r4) \
    STEP (r1, r2, r3, r4, r0) \
    STEP (r2, r3, r4, r0, r1) \
    STEP (r3, r4, r0, r1, r2) \
    STEP (r4, r0, r1, r2, r3) \
  } \
}

#if PX >= 8
/* The rows in place, read by the vectors of each tap: on CPUs, whose
 * caches serve the neighbouring vectors' loads, away from the frame's left
 * and right edges. */
#define DECL(q) __global const uchar *w_##q; SLOT_SUMS (q)
#define ROW(q) w_##q
#define FETCH(q, yy) { \
    int r_ = clamp (yy, 0, height - 1); \
 \
    w_##q = in + r_ * in_stride + x0; \
    if (!first) \
      ROW_SUMS (q, last + r_ * width + x0); \
  }
#define LC(yy) LOAD (last + (yy) * width + x0)
DENOISE_ROWS (denoise_rows_in_place)
#undef DECL
#undef ROW
#undef FETCH
#undef LC
#endif

/* the state's PX words of a row at the columns @col */
static inline uP
lc_copied (__global const ushort * row, const int *col)
{
  ushort w[PX];

  for (int j = 0; j < PX; j++)
    w[j] = row[col[j]];
  return LOAD (w);
}

/* Each row's window copied, its columns @col clamped: the rows of GPUs,
 * whose work-items read each sample once so, and CPUs' along the left and
 * right edges; with HALVES, a slot keeps the window's pairs packed, the
 * bytes only while its sums are taken. */
#ifdef HALVES
#define DECL(q) uint h_##q[5]; SLOT_SUMS (q)
#define WINDOW(q) uchar w_##q[WIN];
#define PACK(q) \
    for (int k_ = 0; k_ < 5; k_++) \
      h_##q[k_] = 0x64006400u | w_##q[k_ * pstride] | \
          (uint) w_##q[k_ * pstride + 1] << 16;
#else
#define DECL(q) uchar w_##q[WIN]; SLOT_SUMS (q)
#define WINDOW(q)
#define PACK(q)
#endif
#define ROW(q) (w_##q + 2 * pstride)
#define FETCH(q, yy) { \
    int r_ = clamp (yy, 0, height - 1); \
    __global const uchar *ri_ = in + r_ * in_stride; \
    __global const ushort *rl_ = last + r_ * width; \
    ushort l_[WIN]; \
    WINDOW (q) \
 \
    for (int i_ = 0; i_ < PX + 4 * pstride; i_++) \
      w_##q[i_] = ri_[col[i_]]; \
    PACK (q) \
    if (!first) { \
      for (int i_ = 0; i_ < PX + 4 * pstride; i_++) \
        l_[i_] = rl_[col[i_]]; \
      ROW_SUMS (q, l_ + 2 * pstride); \
    } \
  }
#define LC(yy) lc_copied (last + (yy) * width, col + 2 * pstride)
DENOISE_ROWS (denoise_rows_copied)
#undef DECL
#undef PACK
#undef WINDOW
#undef ROW
#undef FETCH
#undef LC

/* a work-item's samples, @pstride a constant in each call (below) */
static inline void
denoise_item (__global const uchar * in, int in_stride,
    __global uchar * out, int out_stride, __global const ushort * last,
    __global ushort * next, int pwidth, const int pstride, int height,
    int s16, int first, int x0, int y0)
{
  int width = pwidth * pstride, n = min (PX, width - x0);
  int col[WIN];

#if PX >= 8
  if (x0 >= 2 * pstride && x0 + PX + 2 * pstride <= width) {
    denoise_rows_in_place (in, in_stride, out, out_stride, last, next,
        width, height, pstride, col, x0, y0, n, s16, first);
    return;
  }
#endif
  for (int i = 0; i < PX + 4 * pstride; i++) {
    int xs = x0 - 2 * pstride + i;
    int px = (xs + 2 * pstride) / pstride - 2, ch = xs - px * pstride;

    col[i] = clamp (px, 0, pwidth - 1) * pstride + ch;
  }
  denoise_rows_copied (in, in_stride, out, out_stride, last, next, width,
      height, pstride, col, x0, y0, n, s16, first);
}

/* The luma blocks' reach from one another that a work-item's footprint
 * (its samples and 2 beyond them, each way) spans at most, across and
 * down, on any plane (subsampled at most by 2) */
#define REACH_X (((PX + 4) * 2 + MB - 1) / MB)
#define REACH_Y (((RY + 4) * 2 + MB - 1) / MB)

/* Whether no block that the footprint of the work-item at (@x0, @y0) of a
 * plane (@pwidth samples of @pstride words by @height rows, subsampled by
 * @xsh and @ysh) covers has moved: denoise_move leaves such blocks out on
 * a CPU, where the state is read where it is */
static inline bool
still_footprint (__global const int *motion, int blocks_x, int xsh,
    int ysh, int pwidth, int pstride, int height, int x0, int y0)
{
  int px0 = max (x0 / pstride - 2, 0);
  int px1 = min ((x0 + PX - 1) / pstride + 2, pwidth - 1);
  int py0 = max (y0 - 2, 0), py1 = min (y0 + RY + 1, height - 1);

  for (int by = (py0 << ysh) / MB; by <= (py1 << ysh) / MB; by++)
    for (int bx = (px0 << xsh) / MB; bx <= (px1 << xsh) / MB; bx++)
      if (motion[by * blocks_x + bx])
        return false;
  return true;
}

/* @from at @from_at: the plane's state, its last outputs and counts (or,
 * with the motion, the same moved by denoise_move), which is @kept at
 * @last_at without it; the next to @kept at @next_at. @est[1]: the level
 * (denoise_estimate's). @motion (NULL without the motion),
 * @blocks_x, @xsh and @ysh: the blocks' motion, as denoise_move takes it,
 * and the plane's subsampling. */
__kernel void
denoise_plane (__global const uchar * in, int in_stride,
    __global uchar * out, int out_stride, __global const ushort * from,
    int from_at, __global ushort * kept, int last_at, int next_at,
    int pwidth, int pstride, int height, __global const int *est,
    int first, __global const int *motion,
    int blocks_x, int xsh, int ysh)
{
  __global const ushort *last = from + from_at;
  __global ushort *next = kept + next_at;
  int x0 = get_global_id (0) * PX, y0 = get_global_id (1) * RY;
  int s16 = est[1];

  if (x0 >= pwidth * pstride || y0 >= height)
    return;
#if PX >= 8
  if (motion && still_footprint (motion, blocks_x, xsh, ysh, pwidth,
          pstride, height, x0, y0))
    last = kept + last_at;
#endif
  /* each pstride its own code, its windows' offsets constants */
  if (pstride == 1)
    denoise_item (in, in_stride, out, out_stride, last, next, pwidth, 1,
        height, s16, first, x0, y0);
  else
    denoise_item (in, in_stride, out, out_stride, last, next, pwidth, 2,
        height, s16, first, x0, y0);
}

/* With the motion: each plane's state moved by the luma blocks' motion
 * (denoise_search's words in @motion, @blocks_x of them a row of blocks),
 * into @moved, which denoise_plane then reads as the last: the word of
 * sample (x, y) from (x + dx, y + dy), clamped to the plane, where the
 * block of the luma position it covers moved, halved (towards zero) along
 * a subsampled axis. One launch for the frame's planes, their rows one
 * after the other: plane i (at most 3) of @pwidth.si samples of
 * @pstride.si words by @height.si rows, its state in @kept at @last_at.si,
 * moved to @moved_at.si; the planes after the first subsampled by @sub (x
 * across, y down; 1: halved). PX words a work-item, in a vector on a CPU
 * where they are a block's and stay within the plane. */
#define PLANE_OF(v, i) ((i) == 0 ? (v).s0 : (i) == 1 ? (v).s1 : (v).s2)

/* the shift of denoise_search's word @m, (down, across), halved (towards
 * zero) along a subsampled axis (@xsh, @ysh 1) */
static inline int2
word_shift (int m, int xsh, int ysh)
{
  return (int2) ((m >> 16) / (1 << ysh), ((m << 16) >> 16) / (1 << xsh));
}

__kernel void
denoise_move (__global const ushort * kept, int4 last_at,
    __global ushort * moved, int4 moved_at, int4 pwidth, int4 pstride,
    int4 height, int2 sub, __global const int *motion, int blocks_x,
    __global const int *needed)
{
  int y = get_global_id (1), x0 = get_global_id (0) * PX;
  int i = y < height.s0 ? 0 : y < height.s0 + height.s1 ? 1 : 2;
  int pw = PLANE_OF (pwidth, i), ps = PLANE_OF (pstride, i);
  int h = PLANE_OF (height, i), width = pw * ps;
  int xsh = i > 0 ? sub.x : 0, ysh = i > 0 ? sub.y : 0;
  __global const ushort *last = kept + PLANE_OF (last_at, i);
  __global ushort *to;
  int row, x1, b0, b1;

  y -= i == 0 ? 0 : i == 1 ? height.s0 : height.s0 + height.s1;
  if (x0 >= width || y >= h)
    return;
  /* the row of blocks, and those of the first and last words */
  row = ((y << ysh) / MB) * blocks_x;
  x1 = min (x0 + PX, width);
  b0 = ((x0 / ps) << xsh) / MB;
  b1 = (((x1 - 1) / ps) << xsh) / MB;
  to = moved + PLANE_OF (moved_at, i) + y * width;
#if PX >= 8
  /* none of the blocks of the PX words, nor those within reach of them,
   * moved: no work-item reads them here (still_footprint ()) */
  if (!needed[row + b0] && !needed[row + b1])
    return;
  if (x1 == x0 + PX && b0 == b1) {
    int2 d = word_shift (motion[row + b0], xsh, ysh);

    if (x0 + d.y * ps >= 0 && x1 + d.y * ps <= width) {
      CAT (vstore, PX) (CAT (vload, PX) (0, last + clamp (y + d.x, 0,
                  h - 1) * width + x0 + d.y * ps), 0, to + x0);
      return;
    }
  }
#endif
  for (int xs = x0; xs < x1; xs++) {
    int px = xs / ps;
    int2 d = word_shift (motion[row + ((px << xsh) / MB)], xsh, ysh);

    to[xs] = last[clamp (y + d.x, 0, h - 1) * width + clamp (px + d.y, 0,
            pw - 1) * ps + xs - px * ps];
  }
}

/* On a CPU, for denoise_move: whether any block within REACH_X blocks
 * across and REACH_Y down of each of the @blocks_x x @blocks_y blocks
 * moved, into @needed */
__kernel void
denoise_needed (__global const int *motion, int blocks_x, int blocks_y,
    __global int *needed)
{
  int bx = get_global_id (0), by = get_global_id (1), any = 0;

  if (bx >= blocks_x || by >= blocks_y)
    return;
  for (int y = max (by - REACH_Y, 0); y <= min (by + REACH_Y, blocks_y - 1);
      y++)
    for (int x = max (bx - REACH_X, 0); x <= min (bx + REACH_X,
            blocks_x - 1); x++)
      any |= motion[y * blocks_x + x] != 0;
  needed[by * blocks_x + bx] = any;
}

/* The motion of each MB x MB block of the luma (@in, @width x @height,
 * @last its state) since the last frame, into @motion (a word a block,
 * its rows of blocks one after the other, the shift down in its upper half
 * and across in its lower, in luma samples): the least of a few shifts,
 * tried in the C reference's order so that ties go the same way. None
 * first; then, where @history, the shift that the last frame's search
 * (@before) gave the block, and those it gave the blocks above, left,
 * right and below it (a block at the frame's edge reading its own again);
 * then the 8 shifts a sample around the least so
 * far, within MR samples. Where the least does not fit, above MFIT
 * sigma a sample (the motion just begun, or a cut), every shift within MR
 * samples by its sum over every MSPARSE-th of those rows (none first, less
 * the same bias, then in rows), and the least so found where its whole
 * sum is less. A shift's sum is that of |8 X - V| over the block's every
 * MSTEP-th row, none's less MBIAS / 20 sigma a sample; a shift is kept
 * only where it fits. */
#define CANDIDATES 5
#define AROUND 8
#define MSPARSE 4
#define SHIFTS ((2 * MR + 1) * (2 * MR + 1))

/* the @k-th shift within MR samples, in rows */
static inline int2
every (int k)
{
  return (int2) (k / (2 * MR + 1) - MR, k % (2 * MR + 1) - MR);
}

/* the @i-th shift within MR samples, none first, then the others in rows */
static inline int2
sparse_order (int i)
{
  return i == 0 ? (int2) (0) : every (i - 1 + (i - 1 >= SHIFTS / 2));
}

/* the word of the shift @d, (down, across) */
static inline int
shift_word (int2 d)
{
  return d.x << 16 | (d.y & 0xffff);
}

/* candidate @k of block (@bx, @by) of @blocks_x x @blocks_y: the last
 * frame's shift of the block itself, above, left, right or below it */
static inline int2
candidate (__global const int *before, int history, int bx, int by,
    int blocks_x, int blocks_y, int k)
{
  int m;

  if (!history)
    return (int2) (0);
  m = before[clamp (by - (k == 1) + (k == 4), 0, blocks_y - 1) * blocks_x +
      clamp (bx - (k == 2) + (k == 3), 0, blocks_x - 1)];
  return word_shift (m, 0, 0);
}

/* the @k-th of the 8 shifts a sample around @d, in rows */
static inline int2
around (int2 d, int k)
{
  int i = k + (k >= 4);

  return d + (int2) (i / 3 - 1, i % 3 - 1);
}

static inline bool
within (int2 d)
{
  return abs (d.x) <= MR && abs (d.y) <= MR;
}

static inline bool
is_none (int2 d)
{
  return d.x == 0 && d.y == 0;
}

/* the word of the least shift @pick, its sum @best over @n samples: none
 * where that does not fit */
static inline int
motion_word (int2 pick, int best, int n, int s16)
{
  if (best * 16 > MFIT * s16 * n)
    pick = (int2) (0);
  return shift_word (pick);
}

#if PX >= 8
/* CPUs: a work-item a block, its rows' 32 samples in two vectors of 16 */
static inline uint
sum16 (ushort16 v)
{
  uint8 a = convert_uint8 (v.lo) + convert_uint8 (v.hi);
  uint4 b = a.lo + a.hi;
  uint2 c = b.lo + b.hi;

  return c.x + c.y;
}

/* the sum of |8 X - V| over the block (@x0, @y0) to (@x1, @y1), every
 * @step-th row, V shifted by @d */
static inline int
block_sum (__global const uchar * in, int in_stride,
    __global const ushort * last, int width, int height, int x0, int y0,
    int x1, int y1, int step, int2 d)
{
  int sum = 0;

  if (MB == 32 && x1 == x0 + MB && x0 + d.y >= 0 && x1 + d.y <= width) {
    ushort16 acc = (ushort16) (0);

    /* at most 2 x 8 x 2047 a lane */
    for (int y = y0; y < y1; y += step) {
      __global const uchar *pi = in + y * in_stride + x0;
      __global const ushort *pl = last + clamp (y + d.x, 0, height - 1) *
          width + x0 + d.y;

      acc += abs_diff (convert_ushort16 (vload16 (0, pi)) << (ushort) 3,
          vload16 (0, pl) >> (ushort) CBITS);
      acc += abs_diff (convert_ushort16 (vload16 (1, pi)) << (ushort) 3,
          vload16 (1, pl) >> (ushort) CBITS);
    }
    return sum16 (acc);
  }
  for (int y = y0; y < y1; y += step) {
    __global const ushort *pl = last + clamp (y + d.x, 0, height - 1) *
        width;

    for (int x = x0; x < x1; x++)
      sum += abs ((in[y * in_stride + x] << FRAC) - (pl[clamp (x + d.y, 0,
                      width - 1)] >> CBITS));
  }
  return sum;
}

__kernel void
denoise_search (__global const uchar * in, int in_stride,
    __global const ushort * kept, int last_at, int width, int height,
    __global const int *est, __global const int *before,
    int history, __global int *motion)
{
  __global const ushort *last = kept + last_at;
  int bx = get_global_id (0), by = get_global_id (1);
  int blocks_x = (width + MB - 1) / MB, blocks_y = (height + MB - 1) / MB;
  int x0 = bx * MB, y0 = by * MB, y1 = min (y0 + MB, height);
  int x1 = min (x0 + MB, width), s16 = est[1];
  int n = (x1 - x0) * ((y1 - y0 + MSTEP - 1) / MSTEP), none, best;
  int2 pick = (int2) (0), centre;

  if (bx >= blocks_x || by >= blocks_y)
    return;
  none = block_sum (in, in_stride, last, width, height, x0, y0, x1, y1,
      MSTEP, pick) - MBIAS * s16 * n / 40;
  best = none;
  /* a shift tried again, the least's or none's, could not be less */
  for (int k = 0; k < CANDIDATES; k++) {
    int2 d = candidate (before, history, bx, by, blocks_x, blocks_y, k);
    int sum;

    if (is_none (d) || all (d == pick))
      continue;
    sum = block_sum (in, in_stride, last, width, height, x0, y0, x1, y1,
        MSTEP, d);
    if (sum < best) {
      best = sum;
      pick = d;
    }
  }
  centre = pick;
  for (int k = 0; k < AROUND; k++) {
    int2 d = around (centre, k);
    int sum;

    if (!within (d))
      continue;
    sum = is_none (d) ? none : block_sum (in, in_stride, last, width, height,
        x0, y0, x1, y1, MSTEP, d);
    if (sum < best) {
      best = sum;
      pick = d;
    }
  }
  if (best * 16 > MFIT * s16 * n) {
    int ns = (x1 - x0) * ((y1 - y0 + MSTEP * MSPARSE - 1) / (MSTEP *
            MSPARSE));
    int least = block_sum (in, in_stride, last, width, height, x0, y0, x1,
        y1, MSTEP * MSPARSE, (int2) (0)) - MBIAS * s16 * ns / 40;
    int2 sparse = (int2) (0);

    for (int k = 0; k < SHIFTS; k++) {
      int2 d = every (k);
      int sum;

      if (is_none (d))
        continue;
      sum = block_sum (in, in_stride, last, width, height, x0, y0, x1, y1,
          MSTEP * MSPARSE, d);
      if (sum < least) {
        least = sum;
        sparse = d;
      }
    }
    if (!is_none (sparse) && !all (sparse == pick)) {
      int sum = block_sum (in, in_stride, last, width, height, x0, y0, x1,
          y1, MSTEP, sparse);

      if (sum < best) {
        best = sum;
        pick = sparse;
      }
    }
  }
  motion[by * blocks_x + bx] = motion_word (pick, best, n, s16);
}
#else
/* GPUs: a work-group of MB x SB work-items takes SB blocks side by side.
 * A block's samples (its every MSTEP-th row) and the last outputs that
 * its shifts reach are first copied to local memory, then each shift's sum
 * is taken there in PARTS parts, a work-item a part, and the parts added
 * up; every work-item of a block picks the least alike. */
#define SROWS (MB / MSTEP)
#define VROWS (MB - MSTEP + 1 + 2 * MR)
#define VCOLS (MB + 2 * MR)
#define PARTS (MB / AROUND)
#if SROWS % PARTS != 0
#error "a shift's sum is taken in PARTS parts of whole rows"
#endif

/* the sum of |8 X - V| over the rows @r0, @r0 + @dr, ... below @r1 of a
 * block's samples @xs (its first @cols a row), V the local copy @vs of the
 * last outputs, shifted by @d */
static inline int
local_sum (__local const short *xs, __local const short *vs, int cols,
    int r0, int r1, int dr, int2 d)
{
  int sum = 0;

  for (int r = r0; r < r1; r += dr) {
    __local const short *xr = xs + r * MB;
    __local const short *vr = vs + (r * MSTEP + MR + d.x) * VCOLS + MR + d.y;

    for (int c = 0; c < cols; c++)
      sum += abs (xr[c] - vr[c]);
  }
  return sum;
}

__kernel void
denoise_search (__global const uchar * in, int in_stride,
    __global const ushort * kept, int last_at, int width, int height,
    __global const int *est, __global const int *before,
    int history, __global int *motion)
{
  __local short xs[SB][SROWS * MB], vs[SB][VROWS * VCOLS];
  /* the parts of the candidates' sums and of those around the least,
   * the candidates, and the sparse sums */
  __local int first[SB][AROUND][PARTS], second[SB][AROUND][PARTS];
  __local int2 tried[SB][AROUND];
  __local int sparse_sums[SB][SHIFTS];
  __global const ushort *last = kept + last_at;
  int j = get_local_id (0), b = get_local_id (1);
  int bx = get_group_id (0) * SB + b, by = get_group_id (1);
  int blocks_x = (width + MB - 1) / MB, blocks_y = (height + MB - 1) / MB;
  int x0 = bx * MB, y0 = by * MB, valid = bx < blocks_x;
  int cols = valid ? min (width - x0, MB) : 0;
  int rows = (min (y0 + MB, height) - y0 + MSTEP - 1) / MSTEP;
  int n = cols * rows, ns = cols * ((rows + MSPARSE - 1) / MSPARSE);
  int s16 = est[1];
  /* work-item j takes part j / AROUND of shift j % AROUND */
  int k = j % AROUND, p = j / AROUND;
  int r0 = p * (SROWS / PARTS), r1 = min (r0 + SROWS / PARTS, rows);
  int none, best, least, t;
  int2 d, pick = (int2) (0), sparse = (int2) (0);
  bool redo;

  for (int r = 0; r < SROWS; r++)
    xs[b][r * MB + j] = j < cols && r < rows ?
        in[(y0 + r * MSTEP) * in_stride + x0 + j] << FRAC : 0;
  for (int i = j; i < VROWS * VCOLS; i += MB)
    vs[b][i] = valid ? last[clamp (y0 - MR + i / VCOLS, 0, height - 1) *
        width + clamp (x0 - MR + i % VCOLS, 0, width - 1)] >> CBITS : 0;
  /* none and the candidates (CANDIDATES + 1 <= AROUND) */
  d = k == 0 || k > CANDIDATES || !valid ? (int2) (0) : candidate (before,
      history, bx, by, blocks_x, blocks_y, k - 1);
  if (p == 0)
    tried[b][k] = d;
  barrier (CLK_LOCAL_MEM_FENCE);
  first[b][k][p] = k <= CANDIDATES ? local_sum (xs[b], vs[b], cols, r0, r1,
      1, d) : 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  t = 0;
  for (int q = 0; q < PARTS; q++)
    t += first[b][0][q];
  none = t - MBIAS * s16 * n / 40;
  best = none;
  for (int i = 1; i <= CANDIDATES; i++) {
    t = 0;
    for (int q = 0; q < PARTS; q++)
      t += first[b][i][q];
    if (!is_none (tried[b][i]) && t < best) {
      best = t;
      pick = tried[b][i];
    }
  }
  /* the 8 shifts around the least */
  d = around (pick, k);
  second[b][k][p] = within (d) && !is_none (d) ? local_sum (xs[b], vs[b],
      cols, r0, r1, 1, d) : 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  d = pick;
  for (int i = 0; i < AROUND; i++) {
    int2 e = around (d, i);

    t = 0;
    for (int q = 0; q < PARTS; q++)
      t += second[b][i][q];
    if (within (e) && (is_none (e) ? none : t) < best) {
      best = is_none (e) ? none : t;
      pick = e;
    }
  }
  /* where the least does not fit, every shift's sparse sum, none first,
   * a work-item a shift at a time */
  redo = valid && best * 16 > MFIT * s16 * n;
  for (int i = j; i < SHIFTS; i += MB)
    sparse_sums[b][i] = redo ? local_sum (xs[b], vs[b], cols, 0, rows,
        MSPARSE, sparse_order (i)) : 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  if (redo) {
    least = sparse_sums[b][0] - MBIAS * s16 * ns / 40;
    for (int i = 1; i < SHIFTS; i++)
      if (sparse_sums[b][i] < least) {
        least = sparse_sums[b][i];
        sparse = sparse_order (i);
      }
  }
  /* the least so found, by its whole sum */
  if (k == 0)
    first[b][0][p] = redo && !is_none (sparse) ? local_sum (xs[b], vs[b],
        cols, r0, r1, 1, sparse) : 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  if (redo && !is_none (sparse)) {
    t = 0;
    for (int q = 0; q < PARTS; q++)
      t += first[b][0][q];
    if (t < best) {
      best = t;
      pick = sparse;
    }
  }
  if (j == 0 && valid)
    motion[by * blocks_x + bx] = motion_word (pick, best, n, s16);
}
#endif

/* a response where a sample's window holds 0 or 255: the noise there is
 * clipped, and reads lower than it is */
#define CLIPPED (-32768)

/* the response L at @p, [1 -2 1; -2 4 -2; 1 -2 1]: -2040 to 2040, or
 * CLIPPED */
static inline int
response (__global const uchar * p, int stride)
{
  uchar a = p[-stride - 1], b = p[-stride], c = p[-stride + 1];
  uchar d = p[-1], e = p[0], f = p[1];
  uchar g = p[stride - 1], h = p[stride], k = p[stride + 1];
  uchar lo = min (min (min (a, b), min (c, d)), min (min (e, f),
          min (min (g, h), k)));
  uchar hi = max (max (max (a, b), max (c, d)), max (max (e, f),
          max (max (g, h), k)));

  if (lo == 0 || hi == 255)
    return CLIPPED;
  return a + c + g + k - 2 * (b + d + f + h) + 4 * e;
}

/* the bins of a response @l: |L|, and its change since the last frame's
 * @last, scaled by 181 / 256 (1 / sqrt 2) to the same deviation, in the
 * second half; each at most 255 */
static inline uint
response_bin (int l)
{
  return min (abs (l), 255u);
}

static inline uint
change_bin (int l, int last)
{
  return 256 + min ((abs (l - last) * 181 + 128) >> 8, 255u);
}

/* NO_BIN: a response counted in neither histogram */
#define NO_BIN 512

/* The bins that the sample at (@x, @y) counts in, NO_BIN for none: a
 * clipped response in neither, its change only where the last frame's
 * (@first: none yet) was not clipped; its response kept in @resp, (width +
 * 1) / 4 of them a row of samples, for the next frame. */
static inline uint2
sample_bins (__global const uchar * in, int stride, int width, int x, int y,
    __global short *resp, int first)
{
  __global short *r = resp + y / 8 * ((width + 1) / 4) + x / 4;
  int l = response (in + y * stride + x, stride), last = *r;
  uint2 bins = (uint2) (NO_BIN);

  *r = l;
  if (l != CLIPPED) {
    bins.x = response_bin (l);
    if (!first && last != CLIPPED)
      bins.y = change_bin (l, last);
  }
  return bins;
}

/* HIST_ROWS, a build option: on CPUs, the rows of samples (every 8th row)
 * each work-item takes whole, 16 samples at a time in vectors
 * (sample_bins16 ()), counting them in a histogram of its own (private
 * memory) that it adds to @hist once; 0 on GPUs, where each work-item
 * takes a sample and a work-group counts in local memory, by
 * sample_bins (). */
#ifndef HIST_ROWS
#define HIST_ROWS 0
#endif

#if HIST_ROWS > 0
/* sample_bins of the 16 samples @x, @x + 4, ... @x + 60 of row @y, in
 * vectors, each of the three rows' 64 bytes from @x - 1 read whole: the
 * bins of |L| into @bins 0 to 15, of the change into 16 to 31 */
#define EVERY4(v, o) ((uchar16) ((v)[0].s##o, (v)[1].s##o, (v)[2].s##o, \
        (v)[3].s##o))
static inline void
sample_bins16 (__global const uchar * in, int stride, int width, int x,
    int y, __global short *resp, int first, int *bins)
{
  __global const uchar *p = in + y * stride + x - 1;
  __global short *r = resp + y / 8 * ((width + 1) / 4) + x / 4;
  uchar16 a, b, c, e, f, g, hh, k, dd, lo, hi;
  short16 l, last = vload16 (0, r);
  int16 l32, last32, rb, cb;

  {
    uchar16 up[4], mid[4], dn[4];

    for (int i = 0; i < 4; i++) {
      up[i] = vload16 (i, p - stride);
      mid[i] = vload16 (i, p);
      dn[i] = vload16 (i, p + stride);
    }
    a = EVERY4 (up, 048c);
    b = EVERY4 (up, 159d);
    c = EVERY4 (up, 26ae);
    dd = EVERY4 (mid, 048c);
    e = EVERY4 (mid, 159d);
    f = EVERY4 (mid, 26ae);
    g = EVERY4 (dn, 048c);
    hh = EVERY4 (dn, 159d);
    k = EVERY4 (dn, 26ae);
  }
  lo = min (min (min (a, b), min (c, dd)), min (min (e, f), min (min (g, hh),
              k)));
  hi = max (max (max (a, b), max (c, dd)), max (max (e, f), max (max (g, hh),
              k)));
  l = convert_short16 (a) + convert_short16 (c) + convert_short16 (g) +
      convert_short16 (k) - (short) 2 * (convert_short16 (b) +
      convert_short16 (dd) + convert_short16 (f) + convert_short16 (hh)) +
      (short) 4 * convert_short16 (e);
  l = select (l, (short16) (CLIPPED), convert_short16 ((lo == (uchar) 0) |
          (hi == (uchar) 255)));
  vstore16 (l, 0, r);
  l32 = convert_int16 (l);
  last32 = convert_int16 (last);
  rb = convert_int16 (min (abs (l32), 255u));
  cb = 256 + convert_int16 (min ((abs (l32 - last32) * 181 + 128) >> 8,
          255u));
  rb = select (rb, (int16) (NO_BIN), l32 == CLIPPED);
  cb = select (cb, (int16) (NO_BIN), (l32 == CLIPPED) | (last32 == CLIPPED) |
      (int16) (-first));
  vstore16 (rb, 0, bins);
  vstore16 (cb, 1, bins);
}

__kernel void
denoise_histogram (__global const uchar * in, int stride, int width,
    int height, __global uint * hist, __global short *resp, int first)
{
  /* and a bin for the samples that count in none */
  uint h[NO_BIN + 1];
  int y0 = 1 + 8 * HIST_ROWS * get_global_id (1);

  for (int b = 0; b <= NO_BIN; b++)
    h[b] = 0;
  for (int y = y0; y < min (y0 + 8 * HIST_ROWS, height - 1); y += 8) {
    int x = 1;

    /* 16 samples at a time where their 64 bytes lie within the row */
    for (; x + 64 <= width; x += 64) {
      int bins[32];

      sample_bins16 (in, stride, width, x, y, resp, first, bins);
      for (int k = 0; k < 32; k++)
        h[bins[k]]++;
    }
    for (; x < width - 1; x += 4) {
      uint2 bins = sample_bins (in, stride, width, x, y, resp, first);

      h[bins.x]++;
      h[bins.y]++;
    }
  }
  for (int b = 0; b < 512; b++)
    if (h[b])
      atomic_add (&hist[b], h[b]);
}
#else
__kernel void
denoise_histogram (__global const uchar * in, int stride, int width,
    int height, __global uint * hist, __global short *resp, int first)
{
  __local uint h[512];
  int lid = get_local_id (1) * get_local_size (0) + get_local_id (0);
  int lsize = get_local_size (0) * get_local_size (1);
  int x = 1 + 4 * get_global_id (0), y = 1 + 8 * get_global_id (1);

  for (int b = lid; b < 512; b += lsize)
    h[b] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  if (x < width - 1 && y < height - 1) {
    uint2 bins = sample_bins (in, stride, width, x, y, resp, first);

    /* no atomic addition for none: every sample of a first frame */
    if (bins.x != NO_BIN)
      atomic_inc (&h[bins.x]);
    if (bins.y != NO_BIN)
      atomic_inc (&h[bins.y]);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 512; b += lsize)
    if (h[b])
      atomic_add (&hist[b], h[b]);
}
#endif

/* 256 work-items, one work-group: each histogram's running sums, then its
 * median's bin, the first whose running sum reaches half the total (at
 * most 255), found by the work-item of that bin. The level is the
 * change's median; |L|'s at a frame that starts afresh; at a frame that
 * repeats the last (the change's median 0, or no change counted), |L|'s
 * where it is lower than the estimate, else the estimate; a frame with no
 * response counted leaves the estimate as it is (0 where it starts
 * afresh). Each work-item clears its bins for the next frame. The level
 * the other kernels take, @est[1]: the level set, @level16 (-1 for none),
 * or the estimate, times @gain / 256 (the element's strength), rounded,
 * at most LEVEL_MAX. */
__kernel void
denoise_estimate (__global uint * hist, __global int *est, int first,
    int level16, int gain)
{
  __local uint run[2][256];
  __local int median[2];
  int i = get_local_id (0);

  for (int k = 0; k < 2; k++) {
    run[k][i] = hist[256 * k + i];
    hist[256 * k + i] = 0;
  }
  if (i < 2)
    median[i] = -1;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int o = 1; o < 256; o <<= 1) {
    uint v0 = i >= o ? run[0][i - o] : 0, v1 = i >= o ? run[1][i - o] : 0;

    barrier (CLK_LOCAL_MEM_FENCE);
    run[0][i] += v0;
    run[1][i] += v1;
    barrier (CLK_LOCAL_MEM_FENCE);
  }
  for (int k = 0; k < 2; k++) {
    ulong total = run[k][255];

    if (total > 0 && 2 * (ulong) run[k][i] >= total && (i == 0
            || 2 * (ulong) run[k][i - 1] < total))
      median[k] = i;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (i == 0) {
    int m16 = (max (median[0], 0) * 16000 + 2023) / 4047;

    if (median[1] > 0)
      m16 = (median[1] * 16000 + 2023) / 4047;
    else if (!first)
      m16 = median[0] < 0 ? est[0] : min (m16, est[0]);
    m16 = first ? m16 : est[0] + (m16 - est[0]) / 2;
    est[0] = m16;
    est[1] = min (((level16 >= 0 ? level16 : m16) * gain + 128) >> 8,
        LEVEL_MAX);
  }
}
