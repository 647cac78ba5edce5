/* gstclfilters: composition of an overlay over a background, plane by plane
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A is the background (sink_0), B the overlay (sink_1), placed at (ox, oy)
 * in this plane's pixels and covering ov_w x ov_h of them: its frame of
 * src_w x src_h scaled by nearest neighbour, pixel (bx, by) of the scaled
 * overlay taken from (scale_index (bx, src_w, ov_w), scale_index (by, src_h,
 * ov_h)) of the frame. weight is the background's, 1 - sink_1::alpha. Per
 * channel c of the pstride bytes of a pixel, g = gamma where bit c of
 * gamma_mask is set, else 0:
 *   where B covers the pixel, blend: out = A weight + B (1 - weight) + g
 *                             over:  w = (1 - weight) aB / 255,
 *                                    out = B w + A (1 - w) + g,
 *                                    the alpha channel keeps A's
 *   elsewhere:                         out = A + g
 * rounded half up and clamped to 0..255. aB is the overlay's alpha byte
 * (alpha_index), or 255 in formats without one. Without a background frame
 * A is the plane's black, byte c of fill.
 */

#define OP_BLEND 0
#define OP_OVER 1

/* Pixel i of a picture of dst scaled from src: the one nearest to its
 * centre, floor ((2 i + 1) src / (2 dst)), exact in integers (in 64 bits, as
 * dst and src may each take 31); i itself where the sizes are equal. */
inline int
scale_index (int i, int src, int dst)
{
  return src == dst ? i : (int) ((2 * (long) i + 1) * src / (2 * (long) dst));
}

inline uchar
composite_byte (int a, __global const uchar * b, int c, int covered,
    float weight, int gamma, uint gamma_mask, int op, int alpha_index)
{
  int g = (gamma_mask >> c) & 1 ? gamma : 0;
  float w, v;

  if (!covered)
    return (uchar) clamp (a + g, 0, 255);
  if (op == OP_OVER) {
    if (c == alpha_index)
      return (uchar) a;
    w = (1.0f - weight) * (alpha_index >= 0 ? b[alpha_index] : 255) / 255.0f;
    v = w * b[c] + (1.0f - w) * a;
  } else {
    v = weight * a + (1.0f - weight) * b[c];
  }
  return (uchar) clamp ((int) floor (v + g + 0.5f), 0, 255);
}

/* variant=reference: one pixel, all its channels, per work-item */
__kernel void
composite_reference (__global const uchar * bg, int bg_stride, int bg_w,
    int bg_h, uint fill, __global const uchar * ov, int ov_stride, int src_w,
    int src_h, int ov_w, int ov_h, int ox, int oy, __global uchar * dst,
    int dst_stride, int width, int height, int pstride, float weight,
    int gamma, uint gamma_mask, int op, int alpha_index)
{
  int x = get_global_id (0), y = get_global_id (1);
  int bx = x - ox, by = y - oy;
  int covered = bx >= 0 && bx < ov_w && by >= 0 && by < ov_h;
  __global const uchar *b = ov + (covered ?
      scale_index (by, src_h, ov_h) * ov_stride +
      scale_index (bx, src_w, ov_w) * pstride : 0);

  if (x >= width || y >= height)
    return;
  for (int c = 0; c < pstride; c++) {
    int a = x < bg_w && y < bg_h ? bg[y * bg_stride + x * pstride + c] :
        (int) ((fill >> (8 * c)) & 0xff);

    dst[y * dst_stride + x * pstride + c] = composite_byte (a, b, c, covered,
        weight, gamma, gamma_mask, op, alpha_index);
  }
}

/* The covered output of 4 bytes a of the background and b8 of the overlay,
 * channels c, gammas g; for over, the 4 bytes are one pixel. */
inline int4
blend4 (int4 a, uchar4 b8, int4 g, int4 c, float weight, int op,
    int alpha_index)
{
  float4 av = convert_float4 (a), bv = convert_float4 (b8), v;
  int4 result;

  if (op == OP_OVER) {
    float ab = alpha_index >= 0 ? (float) ((uchar *) & b8)[alpha_index] :
        255.0f;
    float4 w = (float4) ((1.0f - weight) * ab / 255.0f);

    v = w * bv + (1.0f - w) * av;
  } else {
    v = weight * av + (1.0f - weight) * bv;
  }
  v = floor (v + convert_float4 (g) + 0.5f);
  result = clamp (convert_int4 (v), 0, 255);
  /* over keeps the background's alpha */
  return op == OP_OVER ? select (result, a, c == alpha_index) : result;
}

/* variant=optimized: 4 bytes of a row per work-item, whatever the pixels
 * they belong to, taken as vectors: one 4-byte load of the
 * background and, where the unscaled overlay covers all four, one of the
 * overlay (its bytes lie in the same order), float4 arithmetic and one
 * 4-byte store. Runs outside the overlay skip it and the floats. */
__kernel void
composite_optimized (__global const uchar * restrict bg, int bg_stride,
    int bg_w, int bg_h, uint fill, __global const uchar * restrict ov,
    int ov_stride, int src_w, int src_h, int ov_w, int ov_h, int ox, int oy,
    __global uchar * restrict dst,
    int dst_stride, int width, int height, int pstride, float weight,
    int gamma, uint gamma_mask, int op, int alpha_index)
{
  int j0 = get_global_id (0) * 4, y = get_global_id (1);
  int n = min (4, width * pstride - j0), by = y - oy;
  int4 j = j0 + (int4) (0, 1, 2, 3);
  /* the pixel and channel of each byte; pstride is 1, 2 or 4 */
  int shift = pstride >> 1;
  int4 x = j >> shift, c = j & (pstride - 1);
  int4 bx = x - ox;
  /* vector comparisons give -1 for true, scalar ones 1: keep them apart */
  int4 covered = by >= 0 && by < ov_h ? bx >= 0 & bx < ov_w : (int4) 0;
  int4 g = select ((int4) 0, (int4) gamma,
      ((int4) gamma_mask >> c & 1) != 0);
  uchar4 a8, b8, out;
  int4 a, result;

  if (j0 >= width * pstride || y >= height)
    return;
  /* the background's bytes of this run, black past its edges */
  a8 = as_uchar4 (fill);        /* the pixels' bytes repeated to 4 */
  if (y < bg_h && bg_w * pstride - j0 >= 4) {
    a8 = vload4 (0, bg + y * bg_stride + j0);
  } else if (y < bg_h && bg_w * pstride > j0) {
    uchar t[4];

    vstore4 (a8, 0, t);
    for (int i = 0; i < n && j0 + i < bg_w * pstride; i++)
      t[i] = bg[y * bg_stride + j0 + i];
    a8 = vload4 (0, t);
  }
  a = convert_int4 (a8);
  result = clamp (a + g, 0, 255);

  if (any (covered)) {
    __global const uchar *ov_row = ov +
        scale_index (by, src_h, ov_h) * ov_stride;

    if (all (covered) && n == 4 && src_w == ov_w) {
      b8 = vload4 (0, ov_row + j0 - ox * pstride);
    } else {
      uchar b[4];

      for (int i = 0; i < 4; i++) {
        int xi = ((j0 + i) >> shift) - ox, ci = (j0 + i) & (pstride - 1);

        b[i] = i < n && xi >= 0 && xi < ov_w ?
            ov_row[scale_index (xi, src_w, ov_w) * pstride + ci] : 0;
      }
      b8 = vload4 (0, b);
    }
    /* formats with alpha have 4-byte pixels: this run is one of them */
    result = select (result, blend4 (a, b8, g, c, weight, op, alpha_index),
        covered);
  }

  out = convert_uchar4 (result);
  if (n == 4) {
    vstore4 (out, 0, dst + y * dst_stride + j0);
  } else {
    uchar o[4];

    vstore4 (out, 0, o);
    for (int i = 0; i < n; i++)
      dst[y * dst_stride + j0 + i] = o[i];
  }
}

/* 4 bytes as one word where they are aligned as one: compilers cannot know
 * it of a byte pointer, and GPUs would otherwise move them one by one */
inline uchar4
load4 (__global const uchar * p)
{
  return ((size_t) p & 3) == 0 ? as_uchar4 (*(__global const uint *) p) :
      vload4 (0, p);
}

inline void
store4 (uchar4 v, __global uchar * p)
{
  if (((size_t) p & 3) == 0)
    *(__global uint *) p = as_uint (v);
  else
    vstore4 (v, 0, p);
}

/* variant=optimized on GPUs, for planes of 4-byte pixels: a pixel per
 * work-item, as in the reference, but its bytes moved as one word each way
 * and its channels computed as one float4; where the overlay does not
 * cover it, no overlay load and no floats. */
__kernel void
composite_pixels (__global const uchar * restrict bg, int bg_stride,
    int bg_w, int bg_h, uint fill, __global const uchar * restrict ov,
    int ov_stride, int src_w, int src_h, int ov_w, int ov_h, int ox, int oy,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int pstride, float weight, int gamma, uint gamma_mask, int op,
    int alpha_index)
{
  int x = get_global_id (0), y = get_global_id (1);
  int bx = x - ox, by = y - oy;
  int4 c = (int4) (0, 1, 2, 3);
  int4 g = select ((int4) 0, (int4) gamma, ((int4) gamma_mask >> c & 1) != 0);
  uchar4 a8;
  int4 a, result;

  if (x >= width || y >= height)
    return;
  a8 = x < bg_w && y < bg_h ? load4 (bg + y * bg_stride + x * 4) :
      as_uchar4 (fill);
  a = convert_int4 (a8);
  result = clamp (a + g, 0, 255);
  if (bx >= 0 && bx < ov_w && by >= 0 && by < ov_h) {
    __global const uchar *b = ov + scale_index (by, src_h, ov_h) * ov_stride +
        scale_index (bx, src_w, ov_w) * 4;

    result = blend4 (a, load4 (b), g, c, weight, op, alpha_index);
  }
  store4 (convert_uchar4 (result), dst + y * dst_stride + x * 4);
}
