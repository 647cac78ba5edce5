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
typedef ulong8 T8;
#define VALUE(p) ((T) (p) * (T) (p))
#define CONVERT_T4 convert_ulong4
#define VALUE8(p) (convert_ulong8 (p) * convert_ulong8 (p))
#else
typedef uint T;
typedef uint4 T4;
typedef uint8 T8;
#define VALUE(p) ((T) (p))
#define CONVERT_T4 convert_uint4
#define VALUE8(p) convert_uint8 (p)
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

/* One row of the table from `n` pixels at `row`: their running sum from
 * `acc` (what the row left of them adds up to), added to `col` (the table's
 * row above, n elements, private or global), which becomes this row, also
 * stored at `out`; `stream`: past the caches, as whole vectors (`out` 32
 * bytes aligned). Without SQUARED, 16 pixels a step: the scan inside each
 * half of 8 in 16-bit lanes (16 pixels sum to at most 4080), by shifts that
 * stay inside 128-bit lanes, then the low half's total added to the high
 * half on its way to 32 bits: half the instructions a pixel of the 8-pixel
 * step. The carry's chain is one addition a step. */
#ifndef SQUARED
#define SCAN_ROW_16(row, out, col, n, acc, stream, i)                       \
  for (; i + 16 <= n; i += 16) {                                        \
    ushort16 p = convert_ushort16 (vload16 (0, (row) + i));               \
    uint8 lo, hi;                                                       \
    uint total;                                                         \
                                                                        \
    p += (ushort16) (0, p.s0123, p.s456, 0, p.s89ab, p.scde);           \
    p += (ushort16) (0, 0, p.s0123, p.s45, 0, 0, p.s89ab, p.scd);       \
    p += (ushort16) (0, 0, 0, 0, p.s0123, 0, 0, 0, 0, p.s89ab);         \
    total = (uint) p.s7 + (uint) p.sf;                                  \
    lo = convert_uint8 (p.lo) + acc + vload8 (0, (col) + i);              \
    hi = convert_uint8 (p.hi) + (acc + p.s7) + vload8 (0, (col) + i + 8); \
    acc += total;                                                       \
    vstore8 (lo, 0, (col) + i);                                           \
    vstore8 (hi, 0, (col) + i + 8);                                       \
    if (stream) {                                                       \
      __builtin_nontemporal_store (lo, (__global uint8 *) ((out) + i));   \
      __builtin_nontemporal_store (hi, (__global uint8 *) ((out) + i + 8)); \
    } else {                                                            \
      vstore8 (lo, 0, (out) + i);                                         \
      vstore8 (hi, 0, (out) + i + 8);                                     \
    }                                                                   \
  }
#else
#define SCAN_ROW_16(row, out, col, n, acc, stream, i)
#endif

#define SCAN_ROW(row, out, col, n, acc, stream)                             \
  do {                                                                  \
    int i = 0;                                                          \
                                                                        \
    SCAN_ROW_16 (row, out, col, n, acc, stream, i);                     \
    for (; i + 8 <= n; i += 8) {                                        \
      T8 p = VALUE8 (vload8 (0, (row) + i));                              \
      T total;                                                          \
                                                                        \
      p += (T8) (0, p.s012, p.s3456);                                   \
      p += (T8) (0, 0, p.s01, p.s2345);                                 \
      p += (T8) (0, 0, 0, 0, p.s0123);                                  \
      total = p.s7;                                                     \
      p += acc + vload8 (0, (col) + i);                                   \
      acc += total;                                                     \
      vstore8 (p, 0, (col) + i);                                          \
      if (stream)                                                       \
        __builtin_nontemporal_store (p, (__global T8 *) ((out) + i));     \
      else                                                              \
        vstore8 (p, 0, (out) + i);                                        \
    }                                                                   \
    for (; i < n; i++) {                                                \
      acc += VALUE ((row)[i]);                                            \
      (col)[i] += acc;                                                    \
      (out)[i] = (col)[i];                                                  \
    }                                                                   \
  } while (0)

/* the widest strip */
#define STRIP_MAX 512

/* the plan strips (GST_CL_PLAN=clintegral:strips), the CPUs' before the
 * bands, in two passes over strips of `strip` columns (a multiple of 8, at
 * most STRIP_MAX), the table's rows written once and in order:
 * 1. integral_strip_carries, a work-item a row: for each strip, the sum of
 *    the row left of it;
 * 2. integral_strips, a work-item a strip, down all its rows: SCAN_ROW from
 *    that carry, into the strip's column sums, which the work-item keeps in
 *    private memory.
 * The image is read twice, the table written once (past the caches where
 * its rows are whole vectors). */
__kernel void
integral_strip_carries (__global const uchar * src, int src_stride,
    __global T * carry, int width, int height, int strip, int strips)
{
  int y = get_global_id (0);
  __global const uchar *row = src + (size_t) y * src_stride;
  T acc = 0;

  if (y >= height)
    return;
  for (int s = 0; s < strips; s++) {
    int x = s * strip, x1 = min (x + strip, width);
    T sum = 0;

    carry[(size_t) y * strips + s] = acc;
#ifndef SQUARED
    {
      /* 16 pixels a step, in 16-bit lanes: a strip's at most 32 steps sum
       * to at most 32 x 255 a lane */
      ushort16 v = 0;
      uint8 v8;
      uint4 v4;

      for (; x + 16 <= x1; x += 16)
        v += convert_ushort16 (vload16 (0, row + x));
      v8 = convert_uint8 (v.lo) + convert_uint8 (v.hi);
      v4 = v8.lo + v8.hi;
      sum = v4.s0 + v4.s1 + v4.s2 + v4.s3;
    }
#endif
    for (; x < x1; x++)
      sum += VALUE (row[x]);
    acc += sum;
  }
}

__kernel void
integral_strips (__global const uchar * src, int src_stride, __global T * dst,
    int pitch, int width, int height, __global const T * carry, int strip,
    int strips)
{
  /* the strip's running column sums: the table's row above */
  T col[STRIP_MAX] __attribute__ ((aligned (64)));
  int s = get_global_id (0);
  int x0 = s * strip, x1 = min (x0 + strip, width), n = x1 - x0;
  /* rows of whole vectors: stored past the caches, which the table, written
   * once and read by someone else, would only crowd */
  bool stream = pitch % 8 == 0;

  if (x0 >= width)
    return;
  for (int i = 0; i < n; i++)
    col[i] = 0;
  for (int y = 0; y < height; y++) {
    T acc = carry[(size_t) y * strips + s];

    SCAN_ROW (src + (size_t) y * src_stride + x0,
        dst + (size_t) y * pitch + x0, col, n, acc, stream);
  }
}

/* variant=optimized on CPUs, in two passes over bands of `band` whole rows,
 * everything read and written in order:
 * 1. integral_band_sums, a work-item a band: its column sums, into `sums`
 *    (a row of `width` a band);
 * 2. integral_bands, a work-item a band: the table's row above it from the
 *    sums of the bands above (summed, then along the row) into its own row
 *    of `cols`, then SCAN_ROW down its rows, each from 0.
 * The image is read twice, the table written once (past the caches where
 * its rows are whole vectors). Unlike the strips' (a few hundred bytes a
 * row, then a jump to the next), each work-item's reads and writes run on
 * along whole rows. */
__kernel void
integral_band_sums (__global const uchar * src, int src_stride,
    __global T * sums, int width, int height, int band)
{
  int b = get_global_id (0);
  int y0 = b * band, y1 = min (y0 + band, height);
  __global T *sum = sums + (size_t) b * width;

  if (y0 >= height)
    return;
  for (int x = 0; x < width; x++)
    sum[x] = 0;
  for (int y = y0; y < y1; y++) {
    __global const uchar *row = src + (size_t) y * src_stride;
    int x = 0;

    for (; x + 8 <= width; x += 8)
      vstore8 (vload8 (0, sum + x) + VALUE8 (vload8 (0, row + x)), 0, sum + x);
    for (; x < width; x++)
      sum[x] += VALUE (row[x]);
  }
}

__kernel void
integral_bands (__global const uchar * src, int src_stride, __global T * dst,
    int pitch, int width, int height, __global const T * sums, int band,
    __global T * cols)
{
  int b = get_global_id (0);
  int y0 = b * band, y1 = min (y0 + band, height);
  __global T *col = cols + (size_t) b * width;
  bool stream = pitch % 8 == 0;
  T run = 0;

  if (y0 >= height)
    return;
  for (int x = 0; x < width; x++) {
    for (int k = 0; k < b; k++)
      run += sums[(size_t) k * width + x];
    col[x] = run;
  }
  for (int y = y0; y < y1; y++) {
    T acc = 0;

    SCAN_ROW (src + (size_t) y * src_stride, dst + (size_t) y * pitch, col,
        width, acc, stream);
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

/* variant=optimized on GPUs, in three passes over tiles of TILE_W x TILE_H
 * pixels, each a work-group of 32 x 8 work-items of 4 x 4 pixels:
 * 1. integral_tile_sums: each tile's row totals (rowtot[tx][y]), column
 *    totals (coltot[ty][x]) and total (tiletot[ty][tx]);
 * 2. integral_tile_carries: exclusive scans of those across the tiles: per
 *    row, what the tiles to the left add (rowc); per column, what the tiles
 *    above add (colc); per tile column, the tiles above it (tilec);
 * 3. integral_tile_finish: each tile's own integral image, plus its row
 *    carries summed down, its column carries summed along, and the tiles
 *    above and left of it in its corner: one store of 4 values a row of a
 *    work-item.
 * The image is read twice and the table written once; what passes between
 * the passes is a few values a row and column of tiles. Built with
 * -DSQUARED, the passes make both tables at once, the sums (channel 0) and
 * the sums of squares (channel 1), with 64-bit carries for both: the sums
 * are stored modulo 2^32, the same whatever the width of the additions. A
 * tile's own sums fit in 32 bits even squared (128 x 32 x 255^2 < 2^32), so
 * only the carries take T. Totals and carries lie in one buffer each, a
 * channel every chan_at values: the row ones at 0, the column ones at
 * col_at, the tiles' at tile_at. */
#define TILE_W 128
#define TILE_H 32
#define TILE_LX 32
#define TILE_LY 8
#ifdef SQUARED
#define CHANNELS 2
#else
#define CHANNELS 1
#endif

typedef uint L;
typedef uint4 L4;

/* The 4 x 4 pixels of this work-item, as values of channel @c, each row
 * summed from the left (0 outside the image). */
static void
tile_patch (__global const uchar * src, int src_stride, int width,
    int height, int x0, int y0, int c, L4 rows[4])
{
  for (int k = 0; k < 4; k++) {
    __global const uchar *row = src + (y0 + k) * src_stride + x0;
    uchar4 p = 0;
    L4 v;

    if (y0 + k < height) {
      if (x0 + 4 <= width)
        p = vload4 (0, row);
      else if (x0 < width)
        p = (uchar4) (row[0], x0 + 1 < width ? row[1] : 0,
            x0 + 2 < width ? row[2] : 0, 0);
    }
    v = convert_uint4 (p);
    if (c == 1)
      v *= v;
    v.s1 += v.s0;
    v.s2 += v.s1;
    v.s3 += v.s2;
    rows[k] = v;
  }
}

__kernel __attribute__ ((reqd_work_group_size (TILE_LX, TILE_LY, 1)))
void
integral_tile_sums (__global const uchar * restrict src, int src_stride,
    int width, int height, __global T * restrict tot, int chan_at,
    int col_at, int tile_at)
{
  __local L row_part[CHANNELS][TILE_H][TILE_LX + 1];
  __local L col_part[CHANNELS][TILE_LY][TILE_W];
  __local L row_sum[CHANNELS][TILE_H];
  int lx = get_local_id (0), ly = get_local_id (1);
  int tx = get_group_id (0), ty = get_group_id (1);
  int x0 = tx * TILE_W + lx * 4, y0 = ty * TILE_H + ly * 4;
  int t = ly * TILE_LX + lx;

  for (int c = 0; c < CHANNELS; c++) {
    L4 rows[4], cols = 0;

    tile_patch (src, src_stride, width, height, x0, y0, c, rows);
    for (int k = 0; k < 4; k++) {
      L4 r = rows[k];

      row_part[c][ly * 4 + k][lx] = r.s3;
      cols += r - (L4) (0, r.s0, r.s1, r.s2);
    }
    vstore4 (cols, 0, &col_part[c][ly][lx * 4]);
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  for (int c = 0; c < CHANNELS; c++) {
    __global T *out = tot + c * chan_at;

    if (t < TILE_H) {
      L s = 0;

      for (int i = 0; i < TILE_LX; i++)
        s += row_part[c][t][i];
      row_sum[c][t] = s;
      if (ty * TILE_H + t < height)
        out[tx * height + ty * TILE_H + t] = s;
    } else if (t >= 64 && t < 64 + TILE_W) {
      int x = t - 64;
      L s = 0;

      for (int i = 0; i < TILE_LY; i++)
        s += col_part[c][i][x];
      if (tx * TILE_W + x < width)
        out[col_at + ty * width + tx * TILE_W + x] = s;
    }
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (t < CHANNELS) {
    L s = 0;

    for (int i = 0; i < TILE_H; i++)
      s += row_sum[t][i];
    tot[t * chan_at + tile_at + ty * get_num_groups (0) + tx] = s;
  }
}

/* One work-item a row, a column or a column of tiles of a channel: loads
 * that do not wait for the sums, so a loop keeps many in flight. */
__kernel void
integral_tile_carries (__global const T * restrict tot,
    __global T * restrict carry, int width, int height, int tiles_w,
    int tiles_h, int chan_at, int col_at, int tile_at)
{
  int per = height + width + tiles_w;
  int c = get_global_id (0) / per, i = get_global_id (0) % per;
  int n, step, at;
  T acc = 0;

  if (c >= CHANNELS)
    return;
  if (i < height) {
    n = tiles_w, step = height, at = i;
  } else if (i < height + width) {
    n = tiles_h, step = width, at = col_at + i - height;
  } else {
    n = tiles_h, step = tiles_w, at = tile_at + i - height - width;
  }
  at += c * chan_at;
#pragma unroll 4
  for (int b = 0; b < n; b++, at += step) {
    T v = tot[at];

    carry[at] = acc;
    acc += v;
  }
}

/* One channel of the tile's table; the channels one after the other keep
 * the registers and local memory of one. */
__kernel __attribute__ ((reqd_work_group_size (TILE_LX, TILE_LY, 1)))
void
integral_tile_finish (__global const uchar * restrict src, int src_stride,
    __global uint * restrict dst, __global T * restrict dst_sq, int pitch,
    int width, int height, __global const T * restrict carries, int chan_at,
    int col_at, int tile_at)
{
  __local L scan[TILE_H][TILE_LX + 1];
  /* 0: the column carries above the tile; 1: the tiles above and left of
   * it, in parts */
  __local T scan_t[2][TILE_LX + 1];
  __local L col_part[TILE_LY][TILE_W];
  __local T row_carry_part[TILE_LY];
  int lx = get_local_id (0), ly = get_local_id (1);
  int tx = get_group_id (0), ty = get_group_id (1);
  int x0 = tx * TILE_W + lx * 4, y0 = ty * TILE_H + ly * 4;

  for (int c = 0; c < CHANNELS; c++) {
    __global const T *carry = carries + c * chan_at;
    L4 rows[4], own = 0;
    T4 above = 0, acc;
    T row_carry[4], part = 0, carried = 0;

    if (c > 0)
      barrier (CLK_LOCAL_MEM_FENCE);
    tile_patch (src, src_stride, width, height, x0, y0, c, rows);
    /* the column carries of this work-item's columns, from the left */
    if (x0 < width)
      above.s0 = carry[col_at + ty * width + x0];
    if (x0 + 1 < width)
      above.s1 = carry[col_at + ty * width + x0 + 1];
    if (x0 + 2 < width)
      above.s2 = carry[col_at + ty * width + x0 + 2];
    if (x0 + 3 < width)
      above.s3 = carry[col_at + ty * width + x0 + 3];
    above.s1 += above.s0;
    above.s2 += above.s1;
    above.s3 += above.s2;

    for (int k = 0; k < 4; k++) {
      scan[ly * 4 + k][lx] = rows[k].s3;
      row_carry[k] = y0 + k < height ?
          carry[ty * TILE_H + ly * 4 + k + tx * height] : 0;
    }
    if (ly == 0)
      part = above.s3;
    else if (ly == 1)
      for (int b = lx; b < tx; b += TILE_LX)
        part += carry[tile_at + ty * get_num_groups (0) + b];
    if (ly < 2)
      scan_t[ly][lx] = part;
    barrier (CLK_LOCAL_MEM_FENCE);

    /* inclusive scans along the 32 work-items of each row */
    for (int off = 1; off < TILE_LX; off <<= 1) {
      L add[4];
      T add_t = ly < 2 && lx >= off ? scan_t[ly][lx - off] : 0;

      for (int k = 0; k < 4; k++)
        add[k] = lx >= off ? scan[ly * 4 + k][lx - off] : 0;
      barrier (CLK_LOCAL_MEM_FENCE);
      for (int k = 0; k < 4; k++)
        scan[ly * 4 + k][lx] += add[k];
      if (ly < 2)
        scan_t[ly][lx] += add_t;
      barrier (CLK_LOCAL_MEM_FENCE);
    }

    /* each row of the tile from the tile's left edge, and what the tiles
     * to the left of it add to each */
    for (int k = 0; k < 4; k++) {
      rows[k] += scan[ly * 4 + k][lx] - rows[k].s3;
      own += rows[k];
      carried += row_carry[k];
    }
    vstore4 (own, 0, &col_part[ly][lx * 4]);
    row_carry_part[ly] = carried;
    acc = scan_t[1][TILE_LX - 1] + scan_t[0][lx] - above.s3 + above;
    barrier (CLK_LOCAL_MEM_FENCE);

    /* down the columns: what is above the tile, the rows of the
     * work-items above in it, then this one's */
    own = 0;
    carried = 0;
    for (int l = 0; l < ly; l++) {
      own += vload4 (0, &col_part[l][lx * 4]);
      carried += row_carry_part[l];
    }
    for (int k = 0; k < 4 && y0 + k < height; k++) {
      int at = (y0 + k) * pitch + x0;
      T4 v;

      own += rows[k];
      carried += row_carry[k];
      v = acc + carried + CONVERT_T4 (own);
      if (c == 0 && x0 + 4 <= width) {
        vstore4 (convert_uint4 (v), 0, dst + at);
      } else if (c == 0 && x0 < width) {
        dst[at] = v.s0;
        if (x0 + 1 < width)
          dst[at + 1] = v.s1;
        if (x0 + 2 < width)
          dst[at + 2] = v.s2;
      } else if (x0 + 4 <= width) {
        vstore4 (v, 0, dst_sq + at);
      } else if (x0 < width) {
        dst_sq[at] = v.s0;
        if (x0 + 1 < width)
          dst_sq[at + 1] = v.s1;
        if (x0 + 2 < width)
          dst_sq[at + 2] = v.s2;
      }
    }
  }
}
