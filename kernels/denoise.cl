/* gstclfilters: cldenoise, a camera's noise reduced over time and space
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * docs/cldenoise.md gives the formulas; every step is integer arithmetic,
 * so that the C reference (tests/test_denoise.c) gives the same bytes.
 *
 * denoise_plane: PX samples a work-item, of a plane of @pwidth pixels of
 * @pstride interleaved channels (NV12's UV: 2), each channel on its own
 * grid, edges replicated. The state and the counts, @width x @height
 * bytes each in @kept (rows of @width = pwidth * pstride samples), hold the
 * last output and how many frames each sample has been still: the last
 * output read at @last_at, as its neighbours' work-items need it, and the
 * new one written at @next_at (the two places swap each frame); the counts
 * at @count_at, each read and written by its own sample's work-item alone;
 * @first starts them afresh.
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
/* a sample is still where the 3 x 3 sums of the last output and of the
 * present frame around it differ by at most STILL x sigma (their means by
 * 0.56 sigma), half as still up to HALF x sigma; where its count is at
 * most YOUNG (0: where it moved, or its state starts), the present
 * frame's part is its 5 x 5 window's mean within TW x sigma */
#define STILL 5
#define HALF 10
#define YOUNG 0
#define TW 3

/* ceil (2^18 / d) for d = 1 to 32: floor (x / d) == (x * r) >> 18 for every
 * x below 8432 (checked for each d), the largest numerator here */
__constant uint recip[33] = {
  0, 262144, 131072, 87382, 65536, 52429, 43691, 37450,
  32768, 29128, 26215, 23832, 21846, 20165, 18725, 17477,
  16384, 15421, 14564, 13798, 13108, 12484, 11916, 11398,
  10923, 10486, 10083, 9710, 9363, 9040, 8739, 8457,
  8192
};

/* one sample, at (@x, @y), @x counting samples: the formulas as written */
static void
denoise_sample (__global const uchar * in, int in_stride,
    __global uchar * out, int out_stride, __global const uchar * last,
    __global uchar * next, __global uchar * count, int pwidth, int pstride,
    int height, int s16, int first, int x, int y)
{
  int width = pwidth * pstride;
  int px = x / pstride, ch = x - px * pstride;
  int X = in[y * in_stride + x], B = 0, sum = 0, cnt = 0, S, O, c, i;
  int te = (2 * s16 + 8) >> 4, tw = (TW * s16 + 8) >> 4, prev = 0;

  for (int dy = -1; dy <= 1; dy++) {
    int row = clamp (y + dy, 0, height - 1) * in_stride;

    for (int dx = -1; dx <= 1; dx++) {
      int n = in[row + clamp (px + dx, 0, pwidth - 1) * pstride + ch];

      B += n;
      if (abs (n - X) <= te) {
        sum += n;
        cnt++;
      }
    }
  }
  S = ((uint) (2 * sum + cnt) * recip[2 * cnt]) >> 18;
  i = y * width + x;
  if (first) {
    c = 0;
  } else {
    int P = 0, A;

    for (int dy = -1; dy <= 1; dy++) {
      int row = clamp (y + dy, 0, height - 1) * width;

      for (int dx = -1; dx <= 1; dx++)
        P += last[row + clamp (px + dx, 0, pwidth - 1) * pstride + ch];
    }
    prev = last[i];
    A = abs (P - B);
    c = count[i];
    c = A <= (STILL * s16 + 8) >> 4 ? min (c + 1, CMAX) :
        A <= (HALF * s16 + 8) >> 4 ? c >> 1 : 0;
  }
  if (c <= YOUNG) {
    sum = cnt = 0;
    for (int dy = -2; dy <= 2; dy++) {
      int row = clamp (y + dy, 0, height - 1) * in_stride;

      for (int dx = -2; dx <= 2; dx++) {
        int n = in[row + clamp (px + dx, 0, pwidth - 1) * pstride + ch];

        if (abs (n - X) <= tw) {
          sum += n;
          cnt++;
        }
      }
    }
    S = (2 * sum + cnt) / (2 * cnt);
  }
  O = ((uint) (c * prev + S + ((c + 1) >> 1)) * recip[c + 1]) >> 18;
  out[y * out_stride + x] = O;
  next[i] = O;
  count[i] = c;
}

/* PX samples of a row a work-item (PX of 1, 2, 4, 8 or 16, a build
 * option: 16-lane vectors for CPUs, 4 for GPUs, whose neighbouring
 * work-items then read neighbouring words together), away from the
 * frame's edges; one by one along them. The vectors divide in floats, exactly: for
 * integers a < 2^14 and 0 < d <= 50, (a + 1/2) / d lies at least 1/100 from
 * any integer, far beyond the 2.5 ulp (about 0.0025 here) that OpenCL
 * allows a division, so its floor is floor (a / d) on every device. */
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
#define TO_FLOAT(v) ((float) (v))
#define TO_INT(v) ((int) (v))
#else
#define ANY(v) any (v)
#define MASK(v) (v)
#define intP CAT (int, PX)
#define floatP CAT (float, PX)
#define LOAD(p) CAT (convert_int, PX) (CAT (vload, PX) (0, (p)))
#define STORE(v, p) CAT (vstore, PX) (CAT (convert_uchar, PX) (v), 0, (p))
#define TO_FLOAT(v) CAT (convert_float, PX) (v)
#define TO_INT(v) CAT (convert_int, PX) (v)
#endif

/* the sample at @p added to B and to the sums and counts of the
 * neighbours within te (sum, cnt) and within tw (sumw, cntw); WIDE: to the
 * latter alone. A vector comparison's true is -1, a scalar's 1 (MASK). */
#define NEAR(p) do { \
    intP n_ = LOAD (p), d_ = TO_INT (abs (n_ - X)); \
    intP m_ = MASK (d_ <= te), w_ = MASK (d_ <= tw); \
    B += n_; sum += n_ & m_; cnt -= m_; sumw += n_ & w_; cntw -= w_; \
  } while (0)
#define WIDE(p) do { \
    intP n_ = LOAD (p), w_ = MASK (abs (n_ - X) <= tw); \
    sumw += n_ & w_; cntw -= w_; \
  } while (0)

/* @level16: the level set, in 1/16 of a step, or 0 for the estimate's in
 * @est (denoise_estimate's) */
__kernel void
denoise_plane (__global const uchar * in, int in_stride,
    __global uchar * out, int out_stride, __global uchar * kept,
    int last_at, int next_at, int count_at, int pwidth, int pstride,
    int height, int level16, __global const int *est, int first)
{
  __global const uchar *last = kept + last_at;
  __global uchar *next = kept + next_at, *count = kept + count_at;
  int width = pwidth * pstride;
  int x0 = get_global_id (0) * PX, y = get_global_id (1);
  intP X, B, sum, cnt, sumw, cntw, S, O, c, prev, A;
  int s16 = level16 > 0 ? level16 : est[0];
  int te = (2 * s16 + 8) >> 4, tw = (TW * s16 + 8) >> 4, i;

  if (x0 >= width || y >= height)
    return;
  if (y < 2 || y >= height - 2 || x0 < 2 * pstride ||
      x0 + PX + 2 * pstride > width) {
    for (int x = x0; x < min (x0 + PX, width); x++)
      denoise_sample (in, in_stride, out, out_stride, last, next, count,
          pwidth, pstride, height, s16, first, x, y);
    return;
  }
  /* the 3 x 3 window once, for both thresholds; the 5 x 5 one's outer
   * ring only where it is needed */
  X = LOAD (in + y * in_stride + x0);
  B = sum = cnt = sumw = cntw = (intP) (0);
  for (int dy = -1; dy <= 1; dy++) {
    __global const uchar *row = in + (y + dy) * in_stride + x0;

    for (int dx = -1; dx <= 1; dx++)
      NEAR (row + dx * pstride);
  }
  S = TO_INT (floor ((TO_FLOAT (2 * sum + cnt) + 0.5f) /
          TO_FLOAT (2 * cnt)));
  i = y * width + x0;
  if (first) {
    prev = c = (intP) (0);
  } else {
    intP P = (intP) (0);

    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++)
        P += LOAD (last + i + dy * width + dx * pstride);
    prev = LOAD (last + i);
    c = LOAD (count + i);
    A = TO_INT (abs (P - B));
    c = A <= (STILL * s16 + 8) >> 4 ? min (c + 1, CMAX) :
        A <= (HALF * s16 + 8) >> 4 ? c >> 1 : (intP) (0);
  }
  /* where the sample moved (or is young), the present frame alone: the
   * wider window */
  if (ANY (c <= YOUNG)) {
    __global const uchar *row = in + y * in_stride + x0;

    for (int dx = -2; dx <= 2; dx++) {
      WIDE (row - 2 * in_stride + dx * pstride);
      WIDE (row + 2 * in_stride + dx * pstride);
    }
    for (int dy = -1; dy <= 1; dy++) {
      WIDE (row + dy * in_stride - 2 * pstride);
      WIDE (row + dy * in_stride + 2 * pstride);
    }
    S = c <= YOUNG ? TO_INT (floor ((TO_FLOAT (2 * sumw + cntw) + 0.5f) /
            TO_FLOAT (2 * cntw))) : S;
  }
  O = TO_INT (floor ((TO_FLOAT (c * prev + S + ((c + 1) >> 1)) + 0.5f) /
          TO_FLOAT (c + 1)));
  STORE (O, out + y * out_stride + x0);
  STORE (O, next + i);
  STORE (c, count + i);
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
