/* gstclfilters: Sobel gradient magnitude kernels
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options: MODE (0 l1, 1 l2, 2 x, 3 y); for sobel_optimized also PX_W
 * (2, 4, 8 or 16) and PX_H (1 to 16), the tile of outputs of one work-item.
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
 * (PX_W + 2) x (PX_H + 2) pixels around them, loaded once, two vector loads a
 * row, and slides down the rows keeping the last three in registers. */
#ifdef PX_W

#define VSHORT CAT (short, PX_W)
#define VUCHAR CAT (uchar, PX_W)
#define VLOAD CAT (vload, PX_W)
#define VSTORE CAT (vstore, PX_W)
#define TO_VSHORT CAT (convert_short, PX_W)

/* From the PX_W + 2 pixels of a row, as a (the first PX_W) and t (the last
 * two): the centres and right neighbours of the PX_W outputs; a itself holds
 * their left neighbours. */
#if PX_W == 2
#define CENTRES(a, t) ((short2) (a.s1, t.s0))
#define RIGHTS(a, t) (t)
#elif PX_W == 4
#define CENTRES(a, t) ((short4) (a.s123, t.s0))
#define RIGHTS(a, t) ((short4) (a.s23, t))
#elif PX_W == 8
#define CENTRES(a, t) ((short8) (a.s1234, a.s567, t.s0))
#define RIGHTS(a, t) ((short8) (a.s2345, a.s67, t))
#elif PX_W == 16
#define CENTRES(a, t) ((short16) (a.s1234, a.s5678, a.s9abc, a.sdef, t.s0))
#define RIGHTS(a, t) ((short16) (a.s2345, a.s6789, a.sabcd, a.sef, t))
#else
#error "PX_W must be 2, 4, 8 or 16"
#endif

/* Columns x0 - 1 .. x0 + PX_W of a row into a and t. Tiles at the left and
 * right edges go through a private copy with clamped columns. */
inline void
load_row (__global const uchar * row, int x0, int width, int inside,
    VSHORT * a, short2 * t)
{
  if (inside) {
    *a = TO_VSHORT (VLOAD (0, row + x0 - 1));
    *t = convert_short2 (vload2 (0, row + x0 - 1 + PX_W));
  } else {
    uchar px[PX_W + 2];

    for (int i = 0; i < PX_W + 2; i++)
      px[i] = row[clamp (x0 - 1 + i, 0, width - 1)];
    *a = TO_VSHORT (VLOAD (0, px));
    *t = convert_short2 (vload2 (0, px + PX_W));
  }
}

/* Outputs past the right edge of the image are not written. */
inline void
store_outputs (VUCHAR v, __global uchar * out, int n)
{
  if (n >= PX_W) {
    VSTORE (v, 0, out);
  } else {
    uchar px[PX_W];

    VSTORE (v, 0, px);
    for (int i = 0; i < n; i++)
      out[i] = px[i];
  }
}

__kernel void
sobel_optimized (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int width, int height)
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
    VSHORT a, left, centre, right, diff, smooth;
    short2 t;

    load_row (row, x0, width, inside, &a, &t);
    left = a;
    centre = CENTRES (a, t);
    right = RIGHTS (a, t);
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
