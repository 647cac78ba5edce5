/* gstclfilters: Sobel gradient magnitude kernels
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options: MODE (0 l1, 1 l2, 2 x, 3 y); for sobel_optimized also PX_W
 * (2, 4, 8 or 16) and PX_H (1 to 16), the tile of outputs of one work-item;
 * for sobel_words WORDS and PX_H, and NV_PTX where the compiler takes
 * NVIDIA's PTX assembly.
 *
 * gx = right column - left column and gy = bottom row - top row of the 3 x 3
 * neighbourhood, edges replicated, each weighted 1 2 1. Only magnitudes are
 * output, so the sign convention does not matter. Every intermediate stays
 * within +-2040: 16-bit integers hold it exactly.
 */

#define MODE_L1 0
#define MODE_L2 1
#define MODE_X 2
#define MODE_Y 3

#define CAT_(a, b) a ## b
#define CAT(a, b) CAT_(a, b)
/* conversions of scalars (N empty) and of N-vectors */
#define TO_INT(N) CAT (convert_int, N)
#define TO_FLOAT(N) CAT (convert_float, N)
#define TO_UCHAR_SAT(N) CAT (CAT (convert_uchar, N), _sat)

/* floor (sqrt (g) + 0.5) for l2, exactly: it is the largest r with r == 0 or
 * r * (r - 1) < g, as (r - 1/2)^2 <= g <=> r^2 - r < g for integers. The float
 * square root lands within one of it; the integer tests settle the rest. */
#define ROUNDED_HYPOT(N, gx, gy, out) do {                                   \
    CAT (int, N) x_ = TO_INT (N) (gx), y_ = TO_INT (N) (gy);                 \
    CAT (int, N) g_ = x_ * x_ + y_ * y_;                                     \
    CAT (int, N) r_ = TO_INT (N) (sqrt (TO_FLOAT (N) (g_)) + 0.5f);          \
    r_ = (r_ > 0 && r_ * (r_ - 1) >= g_) ? r_ - 1 : r_;                      \
    r_ = ((r_ + 1) * r_ < g_) ? r_ + 1 : r_;                                 \
    out = TO_UCHAR_SAT (N) (r_);                                             \
  } while (0)

/* out = the output of MODE for the gradients gx, gy (short, or short##N) */
#if MODE == MODE_L1
#define MAGNITUDE(N, gx, gy, out) (out = TO_UCHAR_SAT (N) (abs (gx) + abs (gy)))
#elif MODE == MODE_L2
#define MAGNITUDE(N, gx, gy, out) ROUNDED_HYPOT (N, gx, gy, out)
#elif MODE == MODE_X
#define MAGNITUDE(N, gx, gy, out) (out = TO_UCHAR_SAT (N) (abs (gx)))
#elif MODE == MODE_Y
#define MAGNITUDE(N, gx, gy, out) (out = TO_UCHAR_SAT (N) (abs (gy)))
#else
#error "MODE must be 0 to 3"
#endif

/* variant=reference: one output pixel per work-item, nine loads */
__kernel void
sobel_reference (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int width, int height)
{
  int x = get_global_id (0), y = get_global_id (1);
  int l, r;
  __global const uchar *top, *mid, *bot;
  short gx, gy;
  uchar out;

  if (x >= width || y >= height)
    return;
  l = max (x - 1, 0);
  r = min (x + 1, width - 1);
  top = src + max (y - 1, 0) * src_stride;
  mid = src + y * src_stride;
  bot = src + min (y + 1, height - 1) * src_stride;

  gx = (top[r] + 2 * mid[r] + bot[r]) - (top[l] + 2 * mid[l] + bot[l]);
  gy = (bot[l] + 2 * bot[x] + bot[r]) - (top[l] + 2 * top[x] + top[r]);
  MAGNITUDE (, gx, gy, out);
  dst[y * dst_stride + x] = out;
}

/* variant=optimized: a work-item computes PX_W x PX_H outputs from the
 * (PX_W + 2) x (PX_H + 2) pixels around them, loaded once, a vector and two
 * bytes a row, and slides down the rows keeping the last three in registers. */
#ifdef PX_W

#define VSHORT CAT (short, PX_W)
#define VUCHAR CAT (uchar, PX_W)
#define VLOAD CAT (vload, PX_W)
#define VSTORE CAT (vstore, PX_W)
#define TO_VSHORT CAT (convert_short, PX_W)

/* The left and right neighbours of the PX_W pixels c, l and r being the
 * pixels just before and after them. */
#if PX_W == 2
#define LEFTS(c, l) ((VSHORT) (l, c.s0))
#define RIGHTS(c, r) ((VSHORT) (c.s1, r))
#elif PX_W == 4
#define LEFTS(c, l) ((VSHORT) (l, c.s012))
#define RIGHTS(c, r) ((VSHORT) (c.s123, r))
#elif PX_W == 8
#define LEFTS(c, l) ((VSHORT) (l, c.s0123, c.s456))
#define RIGHTS(c, r) ((VSHORT) (c.s1234, c.s567, r))
#elif PX_W == 16
#define LEFTS(c, l) ((VSHORT) (l, c.s0123, c.s4567, c.s89ab, c.scde))
#define RIGHTS(c, r) ((VSHORT) (c.s1234, c.s5678, c.s9abc, c.sdef, r))
#else
#error "PX_W must be 2, 4, 8 or 16"
#endif

/* Columns x0 - 1 .. x0 + PX_W of a row, as the left neighbours, centres
 * and right neighbours of the PX_W outputs. The centres come in one vector
 * load, a whole aligned word where the row allows (GPUs split unaligned
 * vector loads into bytes); tiles at the left and right edges go through a
 * private copy with clamped columns. */
inline void
load_row (__global const uchar * row, int x0, int width, int inside,
    VSHORT * left, VSHORT * centre, VSHORT * right)
{
  VUCHAR c;
  short l, r;

  if (inside) {
    __global const uchar *p = row + x0;

    c = ((size_t) p & (PX_W - 1)) == 0 ? *(__global const VUCHAR *) p :
        VLOAD (0, p);
    l = p[-1];
    r = p[PX_W];
  } else {
    uchar px[PX_W];

    for (int i = 0; i < PX_W; i++)
      px[i] = row[clamp (x0 + i, 0, width - 1)];
    c = VLOAD (0, px);
    l = row[max (x0 - 1, 0)];
    r = row[min (x0 + PX_W, width - 1)];
  }
  VSHORT cs = TO_VSHORT (c);

  *centre = cs;
  *left = LEFTS (cs, l);
  *right = RIGHTS (cs, r);
}

/* Outputs past the right edge of the image are not written. A whole
 * aligned word is one store: GPUs split unaligned vector stores into bytes. */
inline void
store_outputs (VUCHAR v, __global uchar * out, int n)
{
  if (n >= PX_W && ((size_t) out & (PX_W - 1)) == 0) {
    *(__global VUCHAR *) out = v;
  } else if (n >= PX_W) {
    VSTORE (v, 0, out);
  } else {
    uchar px[PX_W];

    VSTORE (v, 0, px);
    for (int i = 0; i < n; i++)
      out[i] = px[i];
  }
}

__kernel void
sobel_optimized (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height)
{
  int x0 = get_global_id (0) * PX_W, y0 = get_global_id (1) * PX_H;
  int inside = x0 >= 1 && x0 + PX_W < width;
  /* per row: horizontal difference (right - left) and smoothing (1 2 1) */
  VSHORT diff_a, diff_b, smooth_a, smooth_b;

  if (x0 >= width || y0 >= height)
    return;

  /* a constant trip count, so that the loop unrolls into registers; rows
   * below the image are clamped reads and not stored */
  for (int r = 0; r < PX_H + 2; r++) {
    __global const uchar *row = src + clamp (y0 - 1 + r, 0, height - 1) *
        src_stride;
    VSHORT left, centre, right, diff, smooth;

    load_row (row, x0, width, inside, &left, &centre, &right);
    diff = right - left;
    smooth = left + centre + centre + right;
    if (r >= 2 && y0 + r - 2 < height) {
      VSHORT gx = diff_a + diff_b + diff_b + diff;
      VSHORT gy = smooth - smooth_a;
      VUCHAR out;

      MAGNITUDE (PX_W, gx, gy, out);
      store_outputs (out, dst + (y0 + r - 2) * dst_stride + x0, width - x0);
    }
    diff_a = diff_b;
    diff_b = diff;
    smooth_a = smooth_b;
    smooth_b = smooth;
  }
}

#endif /* PX_W */


/* variant=optimized on GPUs, which have no 16-bit vector arithmetic and
 * where every instruction counts: a work-item computes a word of 4 outputs
 * in each of PX_H rows. The 4 pixels of a row are one 32-bit load, split into
 * the even and odd pixels, two to a register in 16-bit lanes; the sums of
 * rows and the gradients are made two outputs per instruction, biased so that
 * no lane ever borrows from the next:
 *   d = right - left + 256       in [1, 511]
 *   s = left + 2 centre + right  in [0, 1020]
 *   gx = d0 + 2 d1 + d2          = Gx + 1024, in [4, 2044]
 *   gy = s2 - s0 + 1024          = Gy + 1024, in [4, 2044]
 * With NV_PTX (NVIDIA's compiler, which takes PTX assembly) the magnitudes
 * of l1, x and y stay in the lanes too: 1024 + |G| = max (g, 2048 - g) and
 * the minimum with 255 are one instruction for two outputs each. Otherwise
 * they go through 32-bit integers. */
#ifdef WORDS

#define LANES(a, b) ((a) | (b) << 16)
#define LO(v) ((int) ((v) & 0xffff))
#define HI(v) ((int) ((v) >> 16))

#if defined (NV_PTX) && MODE != MODE_L2
#define LANE_MAGNITUDES
inline uint
max_u16x2 (uint a, uint b)
{
  uint r;

  asm ("max.u16x2 %0, %1, %2;" : "=r" (r) : "r" (a), "r" (b));
  return r;
}

inline uint
min_u16x2 (uint a, uint b)
{
  uint r;

  asm ("min.u16x2 %0, %1, %2;" : "=r" (r) : "r" (a), "r" (b));
  return r;
}

/* 1024 + |G| in each lane of g = G + 1024 */
#define ABS_LANES(g) max_u16x2 ((g), LANES (2048, 2048) - (g))
#endif

/* A row's pixels x0 - 1 .. x0 + 4, columns clamped to the image, as the
 * differences and sums of the even (0, 2) and odd (1, 3) outputs. With
 * @whole, x0 .. x0 + 3 are one aligned word inside the image. */
inline void
row_sums (__global const uchar * row, int x0, int width, const int whole,
    uint * d_even, uint * d_odd, uint * s_even, uint * s_odd)
{
  __global const uchar *p = row + x0;
  uint w, left = row[max (x0 - 1, 0)], right = row[min (x0 + 4, width - 1)];

  if (whole || (x0 + 4 <= width && ((size_t) p & 3) == 0))
    w = *(__global const uint *) p;
  else
    w = row[min (x0, width - 1)] | (uint) row[min (x0 + 1, width - 1)] << 8 |
        (uint) row[min (x0 + 2, width - 1)] << 16 |
        (uint) row[min (x0 + 3, width - 1)] << 24;

  uint even = w & 0x00ff00ff, odd = (w >> 8) & 0x00ff00ff;
  /* left of the even pixels: left, 1; right of the odd ones: 2, right */
  uint even_left = LANES (left, odd & 0xffff);
  uint odd_right = LANES (even >> 16, right);

  *d_even = odd - even_left + LANES (256, 256);
  *d_odd = odd_right - even + LANES (256, 256);
  *s_even = even_left + even + even + odd;
  *s_odd = even + odd + odd + odd_right;
}

/* The 4 outputs of the biased gradients of the even and odd pixels */
inline uchar4
word_magnitudes (uint gx_e, uint gx_o, uint gy_e, uint gy_o)
{
#ifdef LANE_MAGNITUDES
  uint m_e, m_o;

#if MODE == MODE_L1
  m_e = ABS_LANES (gx_e) + ABS_LANES (gy_e) - LANES (2048, 2048);
  m_o = ABS_LANES (gx_o) + ABS_LANES (gy_o) - LANES (2048, 2048);
#elif MODE == MODE_X
  m_e = ABS_LANES (gx_e) - LANES (1024, 1024);
  m_o = ABS_LANES (gx_o) - LANES (1024, 1024);
#else
  m_e = ABS_LANES (gy_e) - LANES (1024, 1024);
  m_o = ABS_LANES (gy_o) - LANES (1024, 1024);
#endif
  m_e = min_u16x2 (m_e, LANES (255, 255));
  m_o = min_u16x2 (m_o, LANES (255, 255));
  return (uchar4) ((uchar) m_e, (uchar) m_o, (uchar) (m_e >> 16),
      (uchar) (m_o >> 16));
#else
  int4 gx = (int4) (LO (gx_e), LO (gx_o), HI (gx_e), HI (gx_o)) - 1024;
  int4 gy = (int4) (LO (gy_e), LO (gy_o), HI (gy_e), HI (gy_o)) - 1024;
  uchar4 out;

#if MODE == MODE_L1
  /* a minimum is one instruction, a saturating conversion three */
  out = convert_uchar4 (min (abs (gx) + abs (gy), (uint4) 255));
#else
  MAGNITUDE (4, gx, gy, out);
#endif
  return out;
#endif
}

/* The work-item's words, in rows y0 .. y0 + PX_H - 1; with @whole, every
 * word of the input and output is aligned and inside the image, so the
 * common case compiles without the checks. */
inline void
words_tile (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int x0, int y0, const int whole)
{
  uint de[3], do_[3], se[3], so[3];

#pragma unroll
  for (int r = 0; r < PX_H + 2; r++) {
    __global const uchar *row = src + clamp (y0 - 1 + r, 0, height - 1) *
        src_stride;

    de[0] = de[1];
    do_[0] = do_[1];
    se[0] = se[1];
    so[0] = so[1];
    de[1] = de[2];
    do_[1] = do_[2];
    se[1] = se[2];
    so[1] = so[2];
    row_sums (row, x0, width, whole, &de[2], &do_[2], &se[2], &so[2]);

    if (r >= 2 && y0 + r - 2 < height) {
      uint gx_e = de[0] + de[1] + de[1] + de[2];
      uint gx_o = do_[0] + do_[1] + do_[1] + do_[2];
      uint gy_e = se[2] + LANES (1024, 1024) - se[0];
      uint gy_o = so[2] + LANES (1024, 1024) - so[0];
      __global uchar *o = dst + (y0 + r - 2) * dst_stride + x0;
      uchar4 out = word_magnitudes (gx_e, gx_o, gy_e, gy_o);

      if (whole || (x0 + 4 <= width && ((size_t) o & 3) == 0)) {
        *(__global uchar4 *) o = out;
      } else {
        o[0] = out.s0;
        if (x0 + 1 < width)
          o[1] = out.s1;
        if (x0 + 2 < width)
          o[2] = out.s2;
        if (x0 + 3 < width)
          o[3] = out.s3;
      }
    }
  }
}

__kernel void
sobel_words (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height)
{
  int x0 = get_global_id (0) * 4, y0 = get_global_id (1) * PX_H;

  if (x0 >= width || y0 >= height)
    return;
  if (x0 + 4 <= width &&
      (((size_t) src | (size_t) dst | src_stride | dst_stride) & 3) == 0)
    words_tile (src, src_stride, dst, dst_stride, width, height, x0, y0, 1);
  else
    words_tile (src, src_stride, dst, dst_stride, width, height, x0, y0, 0);
}

#endif /* WORDS */
