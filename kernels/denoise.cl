/* gstclfilters: cldenoise, a camera's noise reduced over time and space
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * docs/cldenoise.md gives the formulas; every step is integer arithmetic,
 * so that the C reference (tests/test_denoise.c) gives the same bytes.
 *
 * denoise_plane: PX samples a work-item, of a plane of @pwidth pixels of
 * @pstride interleaved channels (NV12's UV: 2), each channel on its own
 * grid, edges replicated. Each sample's state is one 16-bit word in @kept
 * (planes of @width x @height words, rows of @width = pwidth * pstride
 * samples): its last output in eighths of a step (8.3 fixed point, 11
 * bits) above the count of frames it has been still (5 bits). The state
 * is read at @last_at, as its neighbours' work-items need it, and the new
 * one written at @next_at (the two places swap each frame), in words;
 * @first starts it afresh.
 *
 * denoise_histogram: the histogram of min (|L|, 255), L the 3 x 3
 * Laplacian-like response [1 -2 1; -2 4 -2; 1 -2 1] of the luma, over every
 * 4th sample of every 4th row from (1, 1), off the frame's border (a run
 * of HIST_RUN of them a work-item, so that a work-group's local histogram,
 * cleared and added up once, counts many); @hist holds 256 counts, zeroed
 * first.
 *
 * denoise_estimate: one work-item: the noise level the histogram says, in
 * 1/16 of an 8-bit step, and the estimate in @est moved a quarter of the
 * way to it (set to it where @first), all on the device: the host never
 * waits for it.
 */

/* the longest memory, in frames */
#define CMAX 31
/* a sample is still where the 3 x 3 sums of its neighbours' last outputs
 * and of the present frame around it differ by at most STILL x sigma (their
 * means by 0.56 sigma) and the 5 x 5 sums, scaled by 3/5 (to the 3 x 3
 * sums' noise), by at most STILL5 x sigma; half as still up to HALF and
 * HALF5 x sigma; where its count is at most YOUNG (it moved, or its state
 * starts, or it was still for one frame), the present frame's part is its
 * 5 x 5 window's mean within TW x sigma */
#define STILL 5
#define HALF 10
#define STILL5 6
#define HALF5 12
#define YOUNG 1
#define TW 3
/* the last output's bits below the 8-bit step, and the count's */
#define FRAC 3
#define CBITS 5
/* the motion tests' thresholds in the kept output's units: the 3 x 3 sums'
 * as they are, the 5 x 5 ones' as 5 t + 4 against 3 times the difference
 * (3/5 of it, floored, at most t) */
#define THRESHOLDS(s16) \
  int t_still = (STILL * (s16) << FRAC) >> 4; \
  int t_half = (HALF * (s16) << FRAC) >> 4; \
  int t_still5 = 5 * ((STILL5 * (s16) << FRAC) >> 4) + 4; \
  int t_half5 = 5 * ((HALF5 * (s16) << FRAC) >> 4) + 4

/* one sample, at (@x, @y), @x counting samples: the formulas as written */
static void
denoise_sample (__global const uchar * in, int in_stride,
    __global uchar * out, int out_stride, __global const ushort * last,
    __global ushort * next, int pwidth, int pstride, int height, int s16,
    int first, int x, int y)
{
  int width = pwidth * pstride;
  int px = x / pstride, ch = x - px * pstride;
  int X = in[y * in_stride + x], B = 0, B5 = 0, sum = 0, cnt = 0;
  int sumw = 0, cntw = 0, S, V, c = 0, prev = 0;
  int te = (2 * s16 + 8) >> 4, tw = (TW * s16 + 8) >> 4;
  THRESHOLDS (s16);

  for (int dy = -2; dy <= 2; dy++) {
    int row = clamp (y + dy, 0, height - 1) * in_stride;

    for (int dx = -2; dx <= 2; dx++) {
      int n = in[row + clamp (px + dx, 0, pwidth - 1) * pstride + ch];
      int d = abs (n - X);

      B5 += n;
      if (d <= tw) {
        sumw += n;
        cntw++;
      }
      if (abs (dx) <= 1 && abs (dy) <= 1) {
        B += n;
        if (d <= te) {
          sum += n;
          cnt++;
        }
      }
    }
  }
  if (!first) {
    int P = 0, P5 = 0, A, A5;

    for (int dy = -2; dy <= 2; dy++) {
      int row = clamp (y + dy, 0, height - 1) * width;

      for (int dx = -2; dx <= 2; dx++) {
        int v = last[row + clamp (px + dx, 0, pwidth - 1) * pstride + ch] >>
            CBITS;

        P5 += v;
        if (abs (dx) <= 1 && abs (dy) <= 1)
          P += v;
      }
    }
    prev = last[y * width + x];
    c = prev & ((1 << CBITS) - 1);
    prev >>= CBITS;
    A = abs (P - (B << FRAC));
    A5 = 3 * abs (P5 - (B5 << FRAC));
    c = A <= t_still && A5 <= t_still5 ? min (c + 1, CMAX) :
        A <= t_half && A5 <= t_half5 ? c >> 1 : 0;
  }
  S = c <= YOUNG ? (2 * sumw + cntw) / (2 * cntw) : (2 * sum + cnt) /
      (2 * cnt);
  V = (c * prev + (S << FRAC) + ((c + 1) >> 1)) / (c + 1);
  out[y * out_stride + x] = (V + (1 << (FRAC - 1))) >> FRAC;
  next[y * width + x] = (V << CBITS) | c;
}

/* PX samples of a row a work-item (PX of 1, 2, 4, 8 or 16, a build
 * option: 16-lane vectors for CPUs, 4 for GPUs, whose neighbouring
 * work-items then read neighbouring words together), away from the
 * frame's edges; one by one along them. The vectors divide in floats,
 * exactly: for integers a < 2^17 and 0 < d <= 50, (a + 1/2) / d lies at
 * least 1/100 from any integer, beyond the 2.5 ulp (below 0.04 / d here)
 * that OpenCL allows a division, so its floor is floor (a / d) on every
 * device. */
#ifndef PX
#define PX 16
#endif
#define CAT_(a, b) a ## b
#define CAT(a, b) CAT_ (a, b)
#if PX == 1
#define ANY(v) (v)
#define MASK(v) (-(v))
#define intP int
#define floatP float
#define LOAD(p) ((int) (p)[0])
#define STORE(v, p) ((p)[0] = (uchar) (v))
#define STORE16(v, p) ((p)[0] = (ushort) (v))
#define TO_FLOAT(v) ((float) (v))
#define TO_INT(v) ((int) (v))
#else
#define ANY(v) any (v)
#define MASK(v) (v)
#define intP CAT (int, PX)
#define floatP CAT (float, PX)
#define LOAD(p) CAT (convert_int, PX) (CAT (vload, PX) (0, (p)))
#define STORE(v, p) CAT (vstore, PX) (CAT (convert_uchar, PX) (v), 0, (p))
#define STORE16(v, p) CAT (vstore, PX) (CAT (convert_ushort, PX) (v), 0, (p))
#define TO_FLOAT(v) CAT (convert_float, PX) (v)
#define TO_INT(v) CAT (convert_int, PX) (v)
#endif
/* floor (a / d) for 0 <= a < 2^17, 0 < d <= 50 (above) */
#define DIV(a, d) TO_INT (floor ((TO_FLOAT (a) + 0.5f) / TO_FLOAT (d)))

/* the present sample at @p added to the 3 x 3 sum B and to the sum and
 * count of the neighbours within te (sum, cnt); WIDE: to the sum and count
 * of the 5 x 5 window's within tw (sumw, cntw). A vector comparison's true
 * is -1, a scalar's 1 (MASK). */
#define INNER(p) do { \
    intP n_ = LOAD (p), m_ = MASK (abs (n_ - X) <= te); \
    B += n_; sum += n_ & m_; cnt -= m_; \
  } while (0)
#define WIDE(p) do { \
    intP n_ = LOAD (p), w_ = MASK (abs (n_ - X) <= tw); \
    sumw += n_ & w_; cntw -= w_; \
  } while (0)

/* @level16: the level set, in 1/16 of a step, or 0 for the estimate's in
 * @est (denoise_estimate's) */
__kernel void
denoise_plane (__global const uchar * in, int in_stride,
    __global uchar * out, int out_stride, __global ushort * kept,
    int last_at, int next_at, int pwidth, int pstride, int height,
    int level16, __global const int *est, int first)
{
  __global const ushort *last = kept + last_at;
  __global ushort *next = kept + next_at;
  int width = pwidth * pstride;
  int x0 = get_global_id (0) * PX, y = get_global_id (1);
  intP X, B, B5, sum, cnt, sumw, cntw, S, V, c, prev;
  int s16 = level16 > 0 ? level16 : est[0];
  int te = (2 * s16 + 8) >> 4, tw = (TW * s16 + 8) >> 4, i;
  THRESHOLDS (s16);

  if (x0 >= width || y >= height)
    return;
  if (y < 2 || y >= height - 2 || x0 < 2 * pstride ||
      x0 + PX + 2 * pstride > width) {
    for (int x = x0; x < min (x0 + PX, width); x++)
      denoise_sample (in, in_stride, out, out_stride, last, next, pwidth,
          pstride, height, s16, first, x, y);
    return;
  }
  /* the 3 x 3 window's sums; the 5 x 5 one's outer ring added to B5 */
  X = LOAD (in + y * in_stride + x0);
  B = B5 = sum = cnt = (intP) (0);
  for (int dy = -2; dy <= 2; dy++) {
    __global const uchar *row = in + (y + dy) * in_stride + x0;

    for (int dx = -2; dx <= 2; dx++) {
      if (dy < -1 || dy > 1 || dx < -1 || dx > 1)
        B5 += LOAD (row + dx * pstride);
      else
        INNER (row + dx * pstride);
    }
  }
  B5 += B;
  i = y * width + x0;
  prev = c = (intP) (0);
  if (!first) {
    intP P = (intP) (0), P5 = (intP) (0), A, A5;

    for (int dy = -2; dy <= 2; dy++)
      for (int dx = -2; dx <= 2; dx++) {
        intP v = LOAD (last + i + dy * width + dx * pstride) >> CBITS;

        P5 += v;
        if (dy >= -1 && dy <= 1 && dx >= -1 && dx <= 1)
          P += v;
      }
    prev = LOAD (last + i);
    c = prev & ((1 << CBITS) - 1);
    prev >>= CBITS;
    /* 3 A5 / 5 <= t, floored: 3 A5 <= 5 t + 4 */
    A = TO_INT (abs (P - (B << FRAC)));
    A5 = 3 * TO_INT (abs (P5 - (B5 << FRAC)));
    c = A <= t_still && A5 <= t_still5 ? min (c + 1, CMAX) :
        A <= t_half && A5 <= t_half5 ? c >> 1 : (intP) (0);
  }
  S = DIV (2 * sum + cnt, 2 * cnt);
  /* where a sample is young, the present frame's wider window */
  if (ANY (c <= YOUNG)) {
    sumw = cntw = (intP) (0);
    for (int dy = -2; dy <= 2; dy++)
      for (int dx = -2; dx <= 2; dx++)
        WIDE (in + (y + dy) * in_stride + x0 + dx * pstride);
    S = c <= YOUNG ? DIV (2 * sumw + cntw, 2 * cntw) : S;
  }
  V = DIV (c * prev + (S << FRAC) + ((c + 1) >> 1), c + 1);
  STORE ((V + (1 << (FRAC - 1))) >> FRAC, out + y * out_stride + x0);
  STORE16 ((V << CBITS) | c, next + i);
}

/* HIST_RUN, a build option: 64 on CPUs, where each work-group's local
 * histogram costs as much to clear and add up as many samples; 1 on GPUs */
#ifndef HIST_RUN
#define HIST_RUN 1
#endif

__kernel void
denoise_histogram (__global const uchar * in, int stride, int width,
    int height, __global uint * hist)
{
  __local uint h[256];
  int lid = get_local_id (1) * get_local_size (0) + get_local_id (0);
  int lsize = get_local_size (0) * get_local_size (1);
  int x0 = 1 + 4 * HIST_RUN * get_global_id (0), y = 1 + 4 * get_global_id (1);

  for (int b = lid; b < 256; b += lsize)
    h[b] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int x = x0; y < height - 1 && x < min (x0 + 4 * HIST_RUN, width - 1);
      x += 4) {
    __global const uchar *p = in + y * stride + x;
    int l = p[-stride - 1] + p[-stride + 1] + p[stride - 1] + p[stride + 1]
        - 2 * (p[-stride] + p[stride] + p[-1] + p[1]) + 4 * p[0];

    atomic_inc (&h[min (abs (l), 255u)]);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 256; b += lsize)
    if (h[b])
      atomic_add (&hist[b], h[b]);
}

__kernel void
denoise_estimate (__global const uint * hist, __global int *est, int first)
{
  ulong total = 0, below = 0;
  int b = 0, m16 = 0;

  for (int i = 0; i < 256; i++)
    total += hist[i];
  if (total > 0) {
    while (b < 255 && 2 * (below + hist[b]) < total)
      below += hist[b++];
    m16 = (b * 16000 + 2023) / 4047;
  }
  est[0] = first ? m16 : est[0] + (m16 - est[0]) / 4;
}
