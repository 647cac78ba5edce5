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
 * means by 0.67 sigma) and the 5 x 5 sums, scaled by 3/5 (to the 3 x 3
 * sums' noise), by at most STILL5 x sigma; half as still up to HALF and
 * HALF5 x sigma; where its count is at most YOUNG (it moved, or its state
 * starts, or it was still for one frame), the present frame's part is its
 * 5 x 5 window's mean within TW x sigma */
#define STILL 6
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
#define STORE_INTS(v, p) CAT (vstore, PX) ((v), 0, (p))
#define TO_FLOAT(v) CAT (convert_float, PX) (v)
#define TO_INT(v) CAT (convert_int, PX) (v)
#endif
/* floor (a / d) for 0 <= a < 2^17, 0 < d <= 50 (above) */
#define DIV(a, d) TO_INT (floor ((TO_FLOAT (a) + 0.5f) / TO_FLOAT (d)))

/* The vector path's body, for every PX: NB_IN (dy, dx) and NB_LAST (dy,
 * dx) give the present frame's and the state's PX samples dy rows and dx
 * samples of its channel from (x0, y), as intP. EACH25 (F) runs F over
 * the 5 x 5 window: unrolled in the source for 8 samples a work-item or
 * more (CPUs: PoCL's 16-lane vectors took 6.8 ms a 1080p NV12 frame so,
 * against 8.8 in loops), in loops below (GPUs: an H200 took 0.43 ms a 4K
 * frame unrolled, against 0.27 in loops). */
#if PX >= 8
#define EACH5(F, dy) F (dy, -2) F (dy, -1) F (dy, 0) F (dy, 1) F (dy, 2)
#define EACH25(F) EACH5 (F, -2) EACH5 (F, -1) EACH5 (F, 0) EACH5 (F, 1) \
    EACH5 (F, 2)
#else
#define EACH25(F) \
  for (int dy_ = -2; dy_ <= 2; dy_++) \
    for (int dx_ = -2; dx_ <= 2; dx_++) \
      F (dy_, dx_)
#endif
#define INNER3(dy, dx) ((dy) >= -1 && (dy) <= 1 && (dx) >= -1 && (dx) <= 1)
/* the 3 x 3 window's sums (B, and those within te: sum, cnt); B5 */
#define F_IN(dy, dx) { \
    intP n_ = NB_IN (dy, dx); \
    B5 += n_; \
    if (INNER3 (dy, dx)) { \
      intP m_ = MASK (TO_INT (abs (n_ - X)) <= te); \
      B += n_; sum += n_ & m_; cnt -= m_; \
    } \
  }
/* the 5 x 5 window's within tw (sumw, cntw) */
#define F_WIDE(dy, dx) { \
    intP n_ = NB_IN (dy, dx), w_ = MASK (TO_INT (abs (n_ - X)) <= tw); \
    sumw += n_ & w_; cntw -= w_; \
  }
/* the state's last outputs: their 3 x 3 and 5 x 5 sums */
#define F_LAST(dy, dx) { \
    intP v_ = NB_LAST (dy, dx) >> CBITS; \
    P5 += v_; \
    if (INNER3 (dy, dx)) \
      P += v_; \
  }
/* PX samples of a row, from the windows NB_IN and NB_LAST give, to @out
 * and @next as STORE_OUT writes them (each defined for each
 * instantiation). The parameters: @__VA_ARGS__, then out, next, pstride,
 * s16, first. */
#define DENOISE_VECTOR(name, ...) \
static void \
name (__VA_ARGS__, __global uchar * out, __global ushort * next, \
    int pstride, int s16, int first) \
{ \
  int te = (2 * s16 + 8) >> 4, tw = (TW * s16 + 8) >> 4; \
  intP X, B, B5, sum, cnt, sumw, cntw, S, V, O, c, prev; \
  THRESHOLDS (s16); \
 \
  X = NB_IN (0, 0); \
  B = B5 = sum = cnt = (intP) (0); \
  EACH25 (F_IN); \
  prev = c = (intP) (0); \
  if (!first) { \
    intP P = (intP) (0), P5 = (intP) (0), A, A5; \
 \
    EACH25 (F_LAST); \
    prev = NB_LAST (0, 0); \
    c = prev & ((1 << CBITS) - 1); \
    prev >>= CBITS; \
    /* 3 A5 / 5 <= t, floored: 3 A5 <= 5 t + 4 */ \
    A = TO_INT (abs (P - (B << FRAC))); \
    A5 = 3 * TO_INT (abs (P5 - (B5 << FRAC))); \
    c = A <= t_still && A5 <= t_still5 ? min (c + 1, CMAX) : \
        A <= t_half && A5 <= t_half5 ? c >> 1 : (intP) (0); \
  } \
  S = DIV (2 * sum + cnt, 2 * cnt); \
  /* where a sample is young, the present frame's wider window */ \
  if (ANY (c <= YOUNG)) { \
    sumw = cntw = (intP) (0); \
    EACH25 (F_WIDE); \
    S = c <= YOUNG ? DIV (2 * sumw + cntw, 2 * cntw) : S; \
  } \
  V = DIV (c * prev + (S << FRAC) + ((c + 1) >> 1), c + 1); \
  O = (V + (1 << (FRAC - 1))) >> FRAC; \
  STORE_OUT (O, (V << CBITS) | c, out, next); \
}

#if PX >= 8
/* CPUs: the windows' rows as pointers, rin[k] and rlast[k] the present
 * frame's and the state's row dy = k - 2 from the work-item's first
 * sample, in the frame or in a copy of an edge's windows, clamped: every
 * work-item in vectors (the one-by-one path of the GPUs' kernel cost PoCL
 * 2 ms a 1080p frame along the edges) */
#define NB_IN(dy, dx) LOAD (rin[(dy) + 2] + (dx) * pstride)
#define NB_LAST(dy, dx) LOAD (rlast[(dy) + 2] + (dx) * pstride)
/* the first @n of the PX samples: fewer at the right edge */
#define STORE_OUT(o, v, out, next) do { \
    if (n == PX) { \
      STORE (o, out); \
      STORE16 (v, next); \
    } else { \
      int o_[PX], v_[PX]; \
 \
      STORE_INTS (o, o_); \
      STORE_INTS (v, v_); \
      for (int j = 0; j < n; j++) { \
        out[j] = o_[j]; \
        next[j] = v_[j]; \
      } \
    } \
  } while (0)
DENOISE_VECTOR (denoise_vector, __global const uchar ** rin,
    __global const ushort ** rlast, int n)
DENOISE_VECTOR (denoise_vector_copied, __private const uchar ** rin,
    __private const ushort ** rlast, int n)

/* the widest pstride the edges' copies take (NV12's UV) */
#define MAX_PSTRIDE 2

#else
/* GPUs: the windows read in place, away from the frame's edges, and one
 * sample at a time along them (the rows as pointers and the edges'
 * windows copied took an H200 0.47 ms a 4K frame, against 0.26) */
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

#define NB_IN(dy, dx) LOAD (in + (y + (dy)) * in_stride + x0 + \
    (dx) * pstride)
#define NB_LAST(dy, dx) LOAD (last + (y + (dy)) * width + x0 + (dx) * pstride)
#define STORE_OUT(o, v, out, next) do { \
    STORE (o, out); \
    STORE16 (v, next); \
  } while (0)
DENOISE_VECTOR (denoise_vector, __global const uchar * in, int in_stride,
    __global const ushort * last, int width, int x0, int y)
#endif

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
  int s16 = level16 > 0 ? level16 : est[0];

  if (x0 >= width || y >= height)
    return;
#if PX >= 8
  {
    int n = min (PX, width - x0);

    /* rows above and below the frame are its first and last (the windows'
     * columns below) */
    if (x0 >= 2 * pstride && x0 + PX + 2 * pstride <= width) {
      __global const uchar *rin[5];
      __global const ushort *rlast[5];

      for (int k = 0; k < 5; k++) {
        int yy = clamp (y + k - 2, 0, height - 1);

        rin[k] = in + yy * in_stride + x0;
        rlast[k] = last + yy * width + x0;
      }
      denoise_vector (rin, rlast, n, out + y * out_stride + x0,
          next + y * width + x0, pstride, s16, first);
    } else {
      /* at the left and right edges, the windows' samples copied, columns
       * outside the frame its first and last pixel's */
      uchar cin[5][PX + 4 * MAX_PSTRIDE];
      ushort clast[5][PX + 4 * MAX_PSTRIDE];
      __private const uchar *rin[5];
      __private const ushort *rlast[5];

      for (int k = 0; k < 5; k++) {
        int yy = clamp (y + k - 2, 0, height - 1);

        for (int j = 0; j < PX + 4 * pstride; j++) {
          int xs = x0 - 2 * pstride + j;
          int px = (xs + 2 * pstride) / pstride - 2, ch = xs - px * pstride;
          int xc = clamp (px, 0, pwidth - 1) * pstride + ch;

          cin[k][j] = in[yy * in_stride + xc];
          clast[k][j] = first ? 0 : last[yy * width + xc];
        }
        rin[k] = &cin[k][2 * pstride];
        rlast[k] = &clast[k][2 * pstride];
      }
      denoise_vector_copied (rin, rlast, n, out + y * out_stride + x0,
          next + y * width + x0, pstride, s16, first);
    }
  }
#else
  if (y < 2 || y >= height - 2 || x0 < 2 * pstride ||
      x0 + PX + 2 * pstride > width) {
    for (int x = x0; x < min (x0 + PX, width); x++)
      denoise_sample (in, in_stride, out, out_stride, last, next, pwidth,
          pstride, height, s16, first, x, y);
    return;
  }
  denoise_vector (in, in_stride, last, width, x0, y,
      out + y * out_stride + x0, next + y * width + x0, pstride, s16, first);
#endif
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
