/* gstclfilters: epsilon filter kernels
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * For a centre c, the set P of the pixels p of the d x d window (edges
 * replicated) with |p - c| <= threshold; out = floor ((sum (P) + |P|/2) / |P|).
 * c itself is always in P, so |P| >= 1.
 *
 * Build options of epsilon_optimized: RADIUS (d = 2 RADIUS + 1, at most 15)
 * and PX, the outputs of one work-item along a row (1, 2, 4, 8 or 16); of
 * the optimized kernels, CHROMA: the planes after the luma (1 for NV12, 2
 * for I420), which their work-items copy as they are (see copy_chroma), or
 * 0.
 */

/* variant=reference: one output pixel per work-item, d x d loads */
__kernel void
epsilon_reference (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int width, int height, int radius,
    int threshold)
{
  int x = get_global_id (0), y = get_global_id (1);
  uint sum = 0, n = 0;
  int c;

  if (x >= width || y >= height)
    return;
  c = src[y * src_stride + x];
  for (int dy = -radius; dy <= radius; dy++) {
    int yy = clamp (y + dy, 0, height - 1);
    for (int dx = -radius; dx <= radius; dx++) {
      int p = src[yy * src_stride + clamp (x + dx, 0, width - 1)];
      if (abs (p - c) <= threshold) {
        sum += p;
        n++;
      }
    }
  }
  dst[y * dst_stride + x] = (uchar) ((sum + n / 2) / n);
}

/* variant=optimized: a work-item computes PX neighbouring outputs of a row
 * at once, in ushort vectors: sums stay below 225 * 255 + 112 < 2^16. For
 * each column offset of the window, one vector load gives all PX outputs
 * their pixel at that offset, so each load serves PX outputs and the window
 * slides along the row one vector at a time. The loads overlap and are
 * served by the cache: on PoCL that measured twice as fast as a private copy
 * of the row, and several times faster than shuffles of it in registers. */
#ifdef PX

#define CAT_(a, b) a ## b
#define CAT(a, b) CAT_(a, b)

/* pixels of a row that the windows of PX outputs cover */
#define SPAN (PX + 2 * RADIUS)

#if PX == 1
#define VUSHORT ushort
#define LOAD_PX(p) ((ushort) *(p))
#define TO_UCHAR(v) ((uchar) (v))
#define VSTORE(v, o, p) ((p)[o] = (v))
#elif PX == 2 || PX == 4 || PX == 8 || PX == 16
#define VUSHORT CAT (ushort, PX)
#define LOAD_PX(p) CAT (convert_ushort, PX) (CAT (vload, PX) (0, (p)))
#define TO_UCHAR(v) CAT (convert_uchar, PX) (v)
#define VSTORE CAT (vstore, PX)
#else
#error "PX must be 1, 2, 4, 8 or 16"
#endif

#if CHROMA
/* The planes that the filter leaves alone, copied by the work-items of the
 * luma rather than by commands of their own, which cost a driver call and a
 * launch each: the work-item at (x0, y) copies bytes x0 to x0 + PX - 1 of
 * row y of each, and the last one of a row up to the row's end (NV12's
 * chroma rows may be a byte wider than the luma's). */
#define CHROMA_PARAMS , __global const uchar * restrict c0_src, \
    int c0_src_stride, __global uchar * restrict c0_dst, int c0_dst_stride, \
    __global const uchar * restrict c1_src, int c1_src_stride, \
    __global uchar * restrict c1_dst, int c1_dst_stride, int c_bytes, \
    int c_rows
#define COPY_CHROMA(x0, y, width) \
  copy_chroma (c0_src + (y) * c0_src_stride, c0_dst + (y) * c0_dst_stride, \
      c1_src + (y) * c1_src_stride, c1_dst + (y) * c1_dst_stride, (x0), \
      (y), (width), c_bytes, c_rows)

inline void
copy_chroma (__global const uchar * s0, __global uchar * d0,
    __global const uchar * s1, __global uchar * d1, int x0, int y, int width,
    int c_bytes, int c_rows)
{
  int end = x0 + PX >= width ? c_bytes : min (x0 + PX, c_bytes);

  if (y >= c_rows)
    return;
  for (int i = x0; i < end; i++) {
    d0[i] = s0[i];
#if CHROMA == 2
    d1[i] = s1[i];
#endif
  }
}
#else
#define CHROMA_PARAMS
#define COPY_CHROMA(x0, y, width)
#endif

/* For the work-items at the left and right edges of the image: the SPAN
 * pixels of a row from column xs on, columns clamped. */
inline void
load_clamped (__global const uchar * row, int xs, int width, uchar * span)
{
  for (int i = 0; i < SPAN; i++)
    span[i] = row[clamp (xs + i, 0, width - 1)];
}

/* Counts the pixels p, one per output, that are close to their centres. */
inline void
accumulate (VUSHORT p, VUSHORT centre, VUSHORT threshold, VUSHORT * sum,
    VUSHORT * n)
{
  VUSHORT in_set = abs_diff (p, centre) <= threshold ? (VUSHORT) 1 :
      (VUSHORT) 0;

  *sum += p * in_set;
  *n += in_set;
}

/* Outputs past the right edge of the image are not written. */
inline void
store_outputs (VUSHORT v, __global uchar * out, int n)
{
  if (n >= PX) {
    VSTORE (TO_UCHAR (v), 0, out);
  } else {
    uchar px[PX];

    VSTORE (TO_UCHAR (v), 0, px);
    for (int i = 0; i < n; i++)
      out[i] = px[i];
  }
}

__kernel void
epsilon_optimized (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int threshold CHROMA_PARAMS)
{
  int x0 = get_global_id (0) * PX, y = get_global_id (1);
  int xs = x0 - RADIUS;
  int inside = xs >= 0 && xs + SPAN <= width;
  VUSHORT t = (VUSHORT) threshold;
  VUSHORT centre, sum = 0, n = 0;
  uchar span[SPAN];

  if (x0 >= width || y >= height)
    return;
  COPY_CHROMA (x0, y, width);

  if (inside) {
    centre = LOAD_PX (src + y * src_stride + x0);
  } else {
    load_clamped (src + y * src_stride, xs, width, span);
    centre = LOAD_PX (span + RADIUS);
  }

  for (int dy = -RADIUS; dy <= RADIUS; dy++) {
    __global const uchar *row = src + clamp (y + dy, 0, height - 1) *
        src_stride;

    if (inside) {
      for (int dx = 0; dx <= 2 * RADIUS; dx++)
        accumulate (LOAD_PX (row + xs + dx), centre, t, &sum, &n);
    } else {
      load_clamped (row, xs, width, span);
      for (int dx = 0; dx <= 2 * RADIUS; dx++)
        accumulate (LOAD_PX (span + dx), centre, t, &sum, &n);
    }
  }
  store_outputs ((sum + n / (VUSHORT) 2) / n, dst + y * dst_stride + x0,
      width - x0);
}

/* variant=optimized on GPUs, which run floats at twice the rate of 32-bit
 * integers and would only add conversions to 16-bit vectors. PX outputs per
 * work-item, the window's pixels held in registers row by row, and per pixel
 * and output three float operations, every value an exact integer:
 *   m = clamp (2t + 1 - 2 |p - c|, 0, 1)   1 if |p - c| <= t, else 0
 *   acc += m * (256 p + 1)                 sum and count in one accumulator
 * acc stays below 225 * 65281 < 2^24, where floats are exact, and the count
 * (<= 225) below 256. */
__kernel void
epsilon_packed (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int threshold CHROMA_PARAMS)
{
  int x0 = get_global_id (0) * PX, y = get_global_id (1);
  int xs = x0 - RADIUS;
  int inside = xs >= 0 && xs + SPAN <= width;
  float edge = 2 * threshold + 1;
  float centre[PX], acc[PX];

  if (x0 >= width || y >= height)
    return;
  COPY_CHROMA (x0, y, width);

  for (int j = 0; j < PX; j++) {
    centre[j] = src[y * src_stride + min (x0 + j, width - 1)];
    acc[j] = 0.0f;
  }

  for (int dy = -RADIUS; dy <= RADIUS; dy++) {
    __global const uchar *row = src + clamp (y + dy, 0, height - 1) *
        src_stride;
    float v[SPAN], taken[SPAN];

    for (int i = 0; i < SPAN; i++) {
      v[i] = inside ? row[xs + i] : row[clamp (xs + i, 0, width - 1)];
      taken[i] = v[i] * 256.0f + 1.0f;
    }
    for (int j = 0; j < PX; j++)
      for (int k = 0; k <= 2 * RADIUS; k++) {
        float m = clamp (fma (-2.0f, fabs (v[j + k] - centre[j]), edge),
            0.0f, 1.0f);

        acc[j] = fma (m, taken[j + k], acc[j]);
      }
  }

  for (int j = 0; j < PX && x0 + j < width; j++) {
    uint packed = (uint) acc[j], sum = packed >> 8, n = packed & 0xff;

    dst[y * dst_stride + x0 + j] = (uchar) ((sum + n / 2) / n);
  }
}

/* variant=optimized on GPUs: a work-group of LX x LY work-items, each with
 * PX outputs of a row, first copies the source pixels under all their
 * windows into local memory, converted once to the floats the sums are made
 * of; each pixel is then read from there by every window that covers it,
 * four at a time.
 *
 * Per pixel of a window and output, three float operations, every value an
 * exact integer. With T = 256 p + 1 (T_c for the centre):
 *   e = T - T_c                            256 (p - c)
 *   m = clamp (E - e * e, 0, 1)            E = 65536 (t + 1/2)^2: 1 if
 *                                          |p - c| <= t, else 0
 *   acc += m * T                           sum and count in one accumulator
 * E - e * e is at least 16384 where |p - c| <= t and negative elsewhere, and
 * one rounding of a fused multiply-add keeps it so. acc stays below
 * 225 * 65281 < 2^24, where floats are exact, and the count (at most 225)
 * below 256.
 *
 * Local memory holds the rows in runs of 32 floats followed by 4 unused
 * ones, so that the 16-byte reads of neighbouring work-items, PX floats
 * apart, fall on different banks. */
#ifdef LX

#define TILE_W (LX * PX)
#define SRC_W (TILE_W + 2 * RADIUS)
#define SRC_H (LY + 2 * RADIUS)
#define SKEW(i) ((i) + ((i) >> 5) * 4)
#define PITCH SKEW ((SRC_W + 31) / 32 * 32)

#if PX % 4
#error "PX must be a multiple of 4"
#endif

__kernel __attribute__ ((reqd_work_group_size (LX, LY, 1)))
void
epsilon_tiled (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int threshold CHROMA_PARAMS)
{
  __local float tile[SRC_H * PITCH] __attribute__ ((aligned (16)));
  int lx = get_local_id (0), ly = get_local_id (1);
  int gx = get_group_id (0) * TILE_W - RADIUS;
  int gy = get_group_id (1) * LY - RADIUS;
  int x0 = get_group_id (0) * TILE_W + lx * PX, y = get_group_id (1) * LY + ly;
  float e_max = 16384.0f * (2 * threshold + 1) * (2 * threshold + 1);
  float centre[PX], acc[PX];

  for (int i = ly * LX + lx; i < SRC_H * SRC_W; i += LX * LY) {
    int r = i / SRC_W, c = i - r * SRC_W;
    uchar p = src[clamp (gy + r, 0, height - 1) * src_stride +
        clamp (gx + c, 0, width - 1)];

    tile[r * PITCH + SKEW (c)] = p * 256.0f + 1.0f;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (x0 >= width || y >= height)
    return;
  COPY_CHROMA (x0, y, width);

  for (int j = 0; j < PX; j++) {
    int c = lx * PX + RADIUS + j;

    centre[j] = tile[(ly + RADIUS) * PITCH + SKEW (c)];
    acc[j] = 0.0f;
  }

  for (int dy = 0; dy <= 2 * RADIUS; dy++) {
    __local const float *row = tile + (ly + dy) * PITCH;
    float v[(SPAN + 3) / 4 * 4];

    for (int i = 0; i < SPAN; i += 4)
      vstore4 (*(__local const float4 *) (row + SKEW (lx * PX + i)), 0,
          v + i);
    for (int j = 0; j < PX; j++)
      for (int k = 0; k <= 2 * RADIUS; k++) {
        float e = v[j + k] - centre[j];
        float m = clamp (fma (-e, e, e_max), 0.0f, 1.0f);

        acc[j] = fma (m, v[j + k], acc[j]);
      }
  }

  uchar out[PX];
  __global uchar *o = dst + y * dst_stride + x0;

  for (int j = 0; j < PX; j++) {
    uint packed = (uint) acc[j], n = packed & 0xff;
    uint num = (packed >> 8) + n / 2;
    uint q = (uint) ((float) num / (float) n);
    int r = (int) (num - q * n);

    /* a float division is within 2.5 ulps: q by at most one */
    out[j] = r < 0 ? q - 1 : r >= (int) n ? q + 1 : q;
  }
  /* one store of an aligned vector, not PX bytes */
  if (x0 + PX <= width && ((size_t) o & (PX - 1)) == 0)
    *(__global CAT (uchar, PX) *) o = CAT (vload, PX) (0, out);
  else
    for (int j = 0; j < PX && x0 + j < width; j++)
      o[j] = out[j];
}

#endif /* LX */

#endif /* PX */
