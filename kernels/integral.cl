/* gstclfilters: integral image kernels
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * I (x, y) = the sum of Y (i, j) over i <= x, j <= y: in uint, modulo 2^32,
 * or, built with -DSQUARED, the sum of Y (i, j)^2 in ulong. The table has
 * `pitch` elements a row. Unsigned arithmetic wraps, so every order of the
 * additions gives the same table.
 */

#ifdef SQUARED
typedef ulong T;
typedef ulong4 T4;
#define VALUE(p) ((T) (p) * (T) (p))
#define CONVERT_T4 convert_ulong4
#else
typedef uint T;
typedef uint4 T4;
#define VALUE(p) ((T) (p))
#define CONVERT_T4 convert_uint4
#endif

/* variant=reference, the straightforward one: a work-item sums a whole row,
 * then one sums a whole column of those sums. */
__kernel void
integral_rows (__global const uchar * src, int src_stride, __global T * dst,
    int pitch, int width, int height)
{
  int y = get_global_id (0);
  T acc = 0;

  if (y >= height)
    return;
  for (int x = 0; x < width; x++) {
    acc += VALUE (src[y * src_stride + x]);
    dst[y * pitch + x] = acc;
  }
}

__kernel void
integral_cols (__global T * dst, int pitch, int width, int height)
{
  int x = get_global_id (0);
  T acc = 0;

  if (x >= width)
    return;
  for (int y = 0; y < height; y++) {
    acc += dst[y * pitch + x];
    dst[y * pitch + x] = acc;
  }
}

/* variant=optimized on CPUs: the reference's row sums, then the columns four
 * at a time in vectors; each pass reads and writes memory in order, which
 * suits a CPU's caches and its compiler's vectors across work-items. */
__kernel void
integral_cols4 (__global T * dst, int pitch, int width, int height)
{
  int x0 = get_global_id (0) * 4;
  T4 acc = 0;

  if (x0 >= width)
    return;
  if (x0 + 4 <= width) {
    for (int y = 0; y < height; y++) {
      acc += vload4 (0, dst + y * pitch + x0);
      vstore4 (acc, 0, dst + y * pitch + x0);
    }
  } else {
    for (int x = x0; x < width; x++) {
      T col = 0;

      for (int y = 0; y < height; y++) {
        col += dst[y * pitch + x];
        dst[y * pitch + x] = col;
      }
    }
  }
}

/* variant=optimized on GPUs, in five steps over 4x4 blocks:
 * 1. integral_block: each block's own integral image, from 16 pixels loaded
 *    as four words;
 * 2. integral_scan_v: per column, the sum of the blocks above each block row
 *    (their bottom rows, accumulated down the column);
 * 3. integral_add_v: adds it to the block's rows: sums now run from the top
 *    of the image, but only from the left edge of the block;
 * 4. integral_scan_h: per row, the sum of the blocks left of each block
 *    (their right columns, accumulated along the row);
 * 5. integral_add_h: adds it, giving the whole integral image.
 * Steps 3 and 5 take 4 outputs a work-item. vert and horiz hold the scans:
 * one value per block row and column, and per row and block column. */
__kernel void
integral_block (__global const uchar * restrict src, int src_stride,
    __global T * restrict dst, int pitch, int width, int height)
{
  int x0 = get_global_id (0) * 4, y0 = get_global_id (1) * 4;
  T4 acc = 0;

  if (x0 >= width || y0 >= height)
    return;
  for (int r = 0; r < 4 && y0 + r < height; r++) {
    __global const uchar *row = src + (y0 + r) * src_stride + x0;
    uchar4 p;
    T4 v;

    if (x0 + 4 <= width) {
      p = vload4 (0, row);
    } else {
      p = (uchar4) (row[0], x0 + 1 < width ? row[1] : 0,
          x0 + 2 < width ? row[2] : 0, 0);
    }
    v = CONVERT_T4 (p);
#ifdef SQUARED
    v *= v;
#endif
    v.s1 += v.s0;
    v.s2 += v.s1;
    v.s3 += v.s2;
    acc += v;
    if (x0 + 4 <= width) {
      vstore4 (acc, 0, dst + (y0 + r) * pitch + x0);
    } else {
      __global T *out = dst + (y0 + r) * pitch + x0;

      out[0] = acc.s0;
      if (x0 + 1 < width)
        out[1] = acc.s1;
      if (x0 + 2 < width)
        out[2] = acc.s2;
    }
  }
}

__kernel void
integral_scan_v (__global const T * restrict dst, int pitch, int width,
    int height, __global T * restrict vert)
{
  int x = get_global_id (0);
  T acc = 0;

  if (x >= width)
    return;
  for (int b = 0; 4 * b < height; b++) {
    vert[b * pitch + x] = acc;
    if (4 * b + 3 < height)
      acc += dst[(4 * b + 3) * pitch + x];
  }
}

__kernel void
integral_add_v (__global T * restrict dst, int pitch, int width, int height,
    __global const T * restrict vert)
{
  int x0 = get_global_id (0) * 4, y = get_global_id (1);
  __global T *out = dst + y * pitch + x0;
  __global const T *add = vert + (y / 4) * pitch + x0;

  if (x0 >= width || y >= height)
    return;
  if (x0 + 4 <= width)
    vstore4 (vload4 (0, out) + vload4 (0, add), 0, out);
  else
    for (int i = 0; x0 + i < width; i++)
      out[i] += add[i];
}

__kernel void
integral_scan_h (__global const T * restrict dst, int pitch, int width,
    int height, __global T * restrict horiz, int horiz_pitch)
{
  int y = get_global_id (0);
  T acc = 0;

  if (y >= height)
    return;
  for (int b = 0; 4 * b < width; b++) {
    horiz[y * horiz_pitch + b] = acc;
    if (4 * b + 3 < width)
      acc += dst[y * pitch + 4 * b + 3];
  }
}

__kernel void
integral_add_h (__global T * restrict dst, int pitch, int width, int height,
    __global const T * restrict horiz, int horiz_pitch)
{
  int x0 = get_global_id (0) * 4, y = get_global_id (1);
  __global T *out = dst + y * pitch + x0;
  T add;

  if (x0 >= width || y >= height)
    return;
  add = horiz[y * horiz_pitch + x0 / 4];
  if (x0 + 4 <= width)
    vstore4 (vload4 (0, out) + add, 0, out);
  else
    for (int i = 0; x0 + i < width; i++)
      out[i] += add;
}
