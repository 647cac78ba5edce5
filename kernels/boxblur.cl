/* gstclfilters: box blur kernels
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build option CH: interleaved channels per pixel of the plane (1, 2 or 4).
 * out = floor ((S + n/2) / n) per channel, S the sum of the d x d neighbourhood
 * with edges replicated, n = d * d.
 */

/* variant=reference: one output pixel per work-item, d x d loads */
__kernel void
boxblur_reference (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int width, int height, int radius)
{
  int x = get_global_id (0), y = get_global_id (1);
  uint d = 2 * radius + 1, n = d * d;

  if (x >= width || y >= height)
    return;
  for (int c = 0; c < CH; c++) {
    uint sum = 0;
    for (int dy = -radius; dy <= radius; dy++) {
      int yy = clamp (y + dy, 0, height - 1);
      for (int dx = -radius; dx <= radius; dx++) {
        int xx = clamp (x + dx, 0, width - 1);
        sum += src[yy * src_stride + xx * CH + c];
      }
    }
    dst[y * dst_stride + x * CH + c] = (uchar) ((sum + n / 2) / n);
  }
}

/* variant=optimized: separable running sums, whose cost per pixel does not
 * grow with the diameter. A column sum of d bytes is at most 255 * 255, so the
 * intermediate fits in 16 bits. */

#define ROW(y) (src + clamp ((y), 0, height - 1) * src_stride)

/* Pass 1: sum of the d rows around each byte, for all channels alike since
 * the vertical pass does not mix bytes. A work-item takes 4 byte columns and
 * slides down rows_per_item rows: two loads per output. */
__kernel void
boxblur_vsum (__global const uchar * restrict src, int src_stride,
    __global ushort * restrict tmp, int tmp_stride, int row_bytes, int height,
    int radius, int rows_per_item)
{
  int x = get_global_id (0) * 4;
  int y0 = get_global_id (1) * rows_per_item;
  int y1 = min (y0 + rows_per_item, height);
  /* rows replicated above and below the image, then the rows inside */
  int top = max (radius - y0, 0), bottom = max (y0 + radius - (height - 1), 0);
  int first = max (y0 - radius, 0), last = min (y0 + radius, height - 1);

  if (x >= row_bytes || y0 >= height)
    return;

  if (x + 4 <= row_bytes) {
    uint4 sum = convert_uint4 (vload4 (0, ROW (0) + x)) * (uint) top +
        convert_uint4 (vload4 (0, ROW (height - 1) + x)) * (uint) bottom;
    for (int y = first; y <= last; y++)
      sum += convert_uint4 (vload4 (0, ROW (y) + x));
    for (int y = y0; y < y1; y++) {
      vstore4 (convert_ushort4 (sum), 0, tmp + y * tmp_stride + x);
      sum += convert_uint4 (vload4 (0, ROW (y + radius + 1) + x));
      sum -= convert_uint4 (vload4 (0, ROW (y - radius) + x));
    }
    return;
  }

  /* the last 1 to 3 bytes of a row */
  for (int b = x; b < row_bytes; b++) {
    uint sum = ROW (0)[b] * (uint) top + ROW (height - 1)[b] * (uint) bottom;
    for (int y = first; y <= last; y++)
      sum += ROW (y)[b];
    for (int y = y0; y < y1; y++) {
      tmp[y * tmp_stride + b] = (ushort) sum;
      sum += ROW (y + radius + 1)[b];
      sum -= ROW (y - radius)[b];
    }
  }
}

#if CH == 1
#define SUM_T uint
#define LOAD_SUM(p) ((uint) *(p))
#define STORE_PIXEL(v, p) (*(p) = (uchar) (v))
#elif CH == 2
#define SUM_T uint2
#define LOAD_SUM(p) convert_uint2 (vload2 (0, (p)))
#define STORE_PIXEL(v, p) vstore2 (convert_uchar2 (v), 0, (p))
#elif CH == 4
#define SUM_T uint4
#define LOAD_SUM(p) convert_uint4 (vload4 (0, (p)))
#define STORE_PIXEL(v, p) vstore4 (convert_uchar4 (v), 0, (p))
#else
#error "CH must be 1, 2 or 4"
#endif

#define COL(x) (row + clamp ((x), 0, width - 1) * CH)

/* Pass 2: sum of d column sums along the row, then the rounded division as a
 * multiply-high by a magic number (exact for every n = d * d and S < 2^24, see
 * gstclboxblur.c). A work-item slides along cols_per_item pixels. */
__kernel void
boxblur_hsum (__global const ushort * restrict tmp, int tmp_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int radius, int cols_per_item, uint n, uint magic, uint shift)
{
  int x0 = get_global_id (0) * cols_per_item;
  int y = get_global_id (1);
  int x1 = min (x0 + cols_per_item, width);
  __global const ushort *row = tmp + y * tmp_stride;
  __global uchar *out = dst + y * dst_stride;
  int left = max (radius - x0, 0), right = max (x0 + radius - (width - 1), 0);
  int first = max (x0 - radius, 0), last = min (x0 + radius, width - 1);
  SUM_T sum;

  if (x0 >= width || y >= height)
    return;

  sum = LOAD_SUM (COL (0)) * (uint) left +
      LOAD_SUM (COL (width - 1)) * (uint) right;
  for (int x = first; x <= last; x++)
    sum += LOAD_SUM (COL (x));
  for (int x = x0; x < x1; x++) {
    SUM_T rounded = sum + n / 2;
    STORE_PIXEL (n == 1 ? rounded : mul_hi (rounded, (SUM_T) magic) >> shift,
        out + x * CH);
    sum += LOAD_SUM (COL (x + radius + 1));
    sum -= LOAD_SUM (COL (x - radius));
  }
}

/* The same two passes laid out for GPUs, where a work-item sliding along a row
 * would read and write memory far from its neighbours'. Both passes slide
 * down columns, so a warp's loads are coalesced, and each stores its result
 * transposed through a local tile, so its stores are too: pass 1 turns image
 * columns into rows of tmp, pass 2 turns them back. A work-group is TILE
 * work-items wide and moves TILE rows at a time. */
#define TILE 32

#if CH == 1
#define TMP_T ushort
#define PIX_T uchar
#define LOAD_TMP(i, p) ((uint) (p)[i])
#define STORE_TMP(v, i, p) ((p)[i] = (v))
#define STORE_PIX(v, i, p) ((p)[i] = (v))
#define TO_TMP(v) convert_ushort (v)
#define TO_PIX(v) convert_uchar (v)
#elif CH == 2
#define TMP_T ushort2
#define PIX_T uchar2
#define LOAD_TMP(i, p) convert_uint2 (vload2 ((i), (p)))
#define STORE_TMP(v, i, p) vstore2 ((v), (i), (p))
#define STORE_PIX(v, i, p) vstore2 ((v), (i), (p))
#define TO_TMP(v) convert_ushort2 (v)
#define TO_PIX(v) convert_uchar2 (v)
#else
#define TMP_T ushort4
#define PIX_T uchar4
#define LOAD_TMP(i, p) convert_uint4 (vload4 ((i), (p)))
#define STORE_TMP(v, i, p) vstore4 ((v), (i), (p))
#define STORE_PIX(v, i, p) vstore4 ((v), (i), (p))
#define TO_TMP(v) convert_ushort4 (v)
#define TO_PIX(v) convert_uchar4 (v)
#endif

#define PIX(y, x) LOAD_SUM (ROW (y) + (x) * CH)

/* Pass 1: tmp[x * tmp_stride + y] = sum of the d rows around (x, y). */
__kernel __attribute__ ((reqd_work_group_size (TILE, 1, 1)))
void
boxblur_vsum_t (__global const uchar * restrict src, int src_stride,
    __global ushort * restrict tmp, int tmp_stride, int width, int height,
    int radius, int rows_per_item)
{
  __local TMP_T tile[TILE][TILE + 1];
  int lx = get_local_id (0);
  int gx = get_group_id (0) * TILE;
  /* work-items past the edge compute a copy of the last column, to take part
   * in the barriers, and store nothing */
  int x = min (gx + lx, width - 1);
  int y0 = get_global_id (1) * rows_per_item;
  int y1 = min (y0 + rows_per_item, height);
  int top = max (radius - y0, 0), bottom = max (y0 + radius - (height - 1), 0);
  int first = max (y0 - radius, 0), last = min (y0 + radius, height - 1);
  SUM_T sum;

  if (y0 >= height)
    return;

  sum = PIX (0, x) * (uint) top + PIX (height - 1, x) * (uint) bottom;
  for (int y = first; y <= last; y++)
    sum += PIX (y, x);

  for (int yb = y0; yb < y1; yb += TILE) {
    for (int i = 0; i < TILE; i++) {
      tile[i][lx] = TO_TMP (sum);
      sum += PIX (yb + i + radius + 1, x);
      sum -= PIX (yb + i - radius, x);
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    if (yb + lx < y1) {
      for (int j = 0; j < TILE && gx + j < width; j++)
        STORE_TMP (tile[lx][j], (gx + j) * tmp_stride + yb + lx, tmp);
    }
    barrier (CLK_LOCAL_MEM_FENCE);
  }
}

/* Pass 2: the sum of the d values of tmp around (x, y) along x, divided. */
__kernel __attribute__ ((reqd_work_group_size (TILE, 1, 1)))
void
boxblur_hsum_t (__global const ushort * restrict tmp, int tmp_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int radius, int cols_per_item, uint n, uint magic, uint shift)
{
  __local PIX_T tile[TILE][TILE + 1];
  int ly = get_local_id (0);
  int gy = get_group_id (0) * TILE;
  int y = min (gy + ly, height - 1);
  int x0 = get_global_id (1) * cols_per_item;
  int x1 = min (x0 + cols_per_item, width);
  int left = max (radius - x0, 0), right = max (x0 + radius - (width - 1), 0);
  int first = max (x0 - radius, 0), last = min (x0 + radius, width - 1);
  SUM_T sum;

#define T(x) LOAD_TMP (clamp ((x), 0, width - 1) * tmp_stride + y, tmp)
  if (x0 >= width)
    return;

  sum = T (0) * (uint) left + T (width - 1) * (uint) right;
  for (int x = first; x <= last; x++)
    sum += T (x);

  for (int xb = x0; xb < x1; xb += TILE) {
    for (int i = 0; i < TILE; i++) {
      SUM_T rounded = sum + n / 2;

      tile[i][ly] = TO_PIX (n == 1 ? rounded :
          mul_hi (rounded, (SUM_T) magic) >> shift);
      sum += T (xb + i + radius + 1);
      sum -= T (xb + i - radius);
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    if (xb + ly < x1) {
      for (int j = 0; j < TILE && gy + j < height; j++)
        STORE_PIX (tile[ly][j], xb + ly, dst + (gy + j) * dst_stride);
    }
    barrier (CLK_LOCAL_MEM_FENCE);
  }
#undef T
}

/* One pass for GPUs, for the smaller diameters: a work-group of STRIP
 * work-items, one a pixel column of a strip STRIP pixels wide (radius
 * columns each side shared with the strips beside it), slides down `rows`
 * rows keeping each column's sum of the d pixels around the row; at each
 * row the d column sums around each pixel are added from local memory.
 * The image is read once (the rows leaving the window again, from the
 * cache), with no intermediate in global memory; the cost grows with d
 * through the d loads from local memory a pixel. */
#define STRIP 256

__kernel __attribute__ ((reqd_work_group_size (STRIP, 1, 1)))
void
boxblur_strip (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int radius, int rows, uint n, uint magic, uint shift)
{
  __local SUM_T sums[2][STRIP];
  int lx = get_local_id (0);
  int out_x = get_group_id (0) * (STRIP - 2 * radius) + lx - radius;
  int x = clamp (out_x, 0, width - 1);
  int y0 = get_group_id (1) * rows, y1 = min (y0 + rows, height);
  bool writes = lx >= radius && lx < STRIP - radius && out_x < width;
  __global uchar *out = dst + out_x * CH;
  SUM_T col = 0;

  for (int y = y0 - radius; y <= y0 + radius; y++)
    col += PIX (y, x);

  /* two buffers, so that one barrier a row keeps the writes of a row from
   * the reads of the one before */
  for (int y = y0, b = 0; y < y1; y++, b ^= 1) {
    sums[b][lx] = col;
    barrier (CLK_LOCAL_MEM_FENCE);
    if (writes) {
      SUM_T sum = 0, rounded;

      for (int i = lx - radius; i <= lx + radius; i++)
        sum += sums[b][i];
      rounded = sum + n / 2;
      STORE_PIXEL (n == 1 ? rounded : mul_hi (rounded, (SUM_T) magic) >>
          shift, out + y * dst_stride);
    }
    col += PIX (y + radius + 1, x);
    col -= PIX (y - radius, x);
  }
}

/* One pass for CPUs, at any d: a work-item takes a band of `band` bytes of
 * `rows` rows (from d = PREFIX_MIN_DIAMETER as few and as large as the
 * compute units allow, see bands_split) and slides down them keeping the
 * sum of the d bytes around the row for each byte of the band and the
 * radius pixels each side, in private memory (a few KiB, cache-resident). At each row it sums d of those column sums
 * around each byte: below d = PREFIX_MIN_DIAMETER directly, 16 bytes at a
 * time in vectors; beyond, from a running sum across the row, as the
 * difference of two of its values, so that the cost no longer grows with d
 * (band_prefix). Work-items of their own, rather than a work-group summing
 * across in local memory, because a CPU compiler vectorizes across
 * work-items only loops free of inner loops and barriers. The image is
 * read once (the rows leaving the window again, from the cache), written
 * once, with no intermediate in global memory. Column sums outside the
 * image repeat those of its edge pixels. The division is a float product,
 * corrected by the remainder beyond d = 31 (see divide16). */
#define MAX_BAND 8192           /* a band's bytes: 512 or more, by 16s */
#define BAND_PAD 528            /* >= the largest halo and a pixel, 127 * 4 + 4 */
#define PREFIX_MIN_DIAMETER 9
#define OUT_LAG 4

#define V16(p) vload16 (0, (p))

/* a store that need not stay in the cache: nobody reads the output soon
 * enough, and a cached store first reads the line it writes */
#if defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define STORE_STREAMING(v, p) __builtin_nontemporal_store ((v), (p))
#endif
#endif
#ifndef STORE_STREAMING
#define STORE_STREAMING(v, p) (*(p) = (v))
#endif

/* the running sum of each channel across the 16 bytes of v (CH 1, 2 or
 * 4), in log2 (16 / CH) shifts */
inline uint16
prefix16 (uint16 v)
{
#if CH == 1
  v += (uint16) (0, v.s0123, v.s4567, v.s89ab, v.scde);
#endif
#if CH <= 2
  v += (uint16) (0, 0, v.s0123, v.s4567, v.s89ab, v.scd);
#endif
  v += (uint16) (0, 0, 0, 0, v.s0123, v.s4567, v.s89ab);
  v += (uint16) (0, 0, 0, 0, 0, 0, 0, 0, v.s01234567);
  return v;
}

/* the last pixel's sums of v, in every pixel of a vector */
inline uint16
carry16 (uint16 v)
{
#if CH == 1
  return (uint16) (v.sf);
#elif CH == 2
  return (uint16) (v.sef, v.sef, v.sef, v.sef, v.sef, v.sef, v.sef, v.sef);
#else
  return (uint16) (v.scdef, v.scdef, v.scdef, v.scdef);
#endif
}

/* the CH values at px, in every pixel of a vector */
inline uint16
pixel16 (const uint * px)
{
#if CH == 1
  return (uint16) (px[0]);
#elif CH == 2
  uint2 v = vload2 (0, px);

  return (uint16) (v, v, v, v, v, v, v, v);
#else
  uint4 v = vload4 (0, px);

  return (uint16) (v, v, v, v);
#endif
}

/* floor ((S + n/2) / n) for S + n/2 in sum, inv = 1/n: floor ((S + n/2 +
 * 1/2) * inv), where the fraction of the exact quotient lies at least
 * 1/(2n) > 5e-4 from an integer, and the single-precision reciprocal
 * (2.5 ulp) and product (0.5 ulp) err by at most 4e-7 of it, under 1e-4
 * for S + n/2 < 2^18 (d <= 31), which is exact in a float with its half.
 * Beyond, S + n/2 < 2^24 (d <= 255), exact in a float, and the product
 * x * inv errs by less than 5e-5 of x / n < 256: truncated, one off at
 * most, which the remainder x - q * n then corrects. */
inline uchar16
divide16 (uint16 sum, uint n, float inv)
{
  if (n <= 31 * 31)
    return convert_uchar16 (convert_uint16 ((convert_float16 (sum) + 0.5f) *
            inv));
  else {
    int16 q = convert_int16 (convert_float16 (sum) * inv);
    int16 r = as_int16 (sum) - q * (int) n;

    return convert_uchar16 (q + (r < 0) - (r >= (int) n));
  }
}

/* the 16 bytes of o at out + p, those before e; aligned: out + p is a
 * multiple of 16 (vstore16 may store byte by byte, a vector store needs
 * the alignment, which a band of a 16-byte aligned row keeps) */
inline void
store16 (uchar16 o, __global uchar * out, int p, int e, bool aligned)
{
  if (p + 16 <= e && aligned)
    STORE_STREAMING (o, (__global uchar16 *) (out + p));
  else if (p + 16 <= e)
    vstore16 (o, 0, out + p);
  else {
    uchar tmp[16];

    vstore16 (o, 0, tmp);
    for (int q = p; q < e; q++)
      out[q] = tmp[q - p];
  }
}

/* c[q] for q in [q0, q1) outside the image, blocks of 16 from q0: the
 * columns of its edge pixels (a block's byte i is of channel i % CH,
 * q0 being a multiple of CH) */
inline void
fill_edges (uint * c, int q0, int q1, int row_bytes)
{
  if (q0 < 0) {
    uint16 left = pixel16 (c);

    for (int q = q0; q < 0; q += 16) {
      if (q + 16 <= 0)
        *(uint16 *) (c + q) = left;
      else
        for (int k = q; k < 0; k++)
          c[k] = c[CH - 1 - (-k - 1) % CH];
    }
  }
  if (q1 > row_bytes) {
    uint16 right = pixel16 (c + row_bytes - CH);

    for (int q = q1 - 16; q + 16 > row_bytes; q -= 16) {
      if (q >= row_bytes)
        *(uint16 *) (c + q) = right;
      else
        for (int k = row_bytes; k < q + 16; k++)
          c[k] = c[row_bytes - CH + (k - row_bytes) % CH];
    }
  }
}

/* c[q] for q in [q0, q1), blocks of 16 from q0: the sums of the d rows
 * around row y0 of those bytes that lie inside the image */
inline void
column_sums (__global const uchar * restrict src, int src_stride,
    int height, int row_bytes, int radius, int y0, uint * c, int q0, int q1)
{
  for (int p = q0; p < q1; p += 16) {
    if (p >= 0 && p + 16 <= row_bytes) {
      uint16 v = 0;

      for (int y = y0 - radius; y <= y0 + radius; y++)
        v += convert_uint16 (vload16 (0, ROW (y) + p));
      *(uint16 *) (c + p) = v;
    } else {
      for (int q = max (p, 0); q < min (p + 16, row_bytes); q++) {
        uint v = 0;

        for (int y = y0 - radius; y <= y0 + radius; y++)
          v += ROW (y)[q];
        c[q] = v;
      }
    }
  }
}

/* c[q] += add[q] - sub[q] for the bytes of the image of the block at q,
 * whose column sums are v */
inline void
columns_next (uint * c, int q, uint16 v, __global const uchar * add,
    __global const uchar * sub, int row_bytes)
{
  if (q >= 0 && q + 16 <= row_bytes)
    *(uint16 *) (c + q) = v + convert_uint16 (vload16 (0, add + q)) -
        convert_uint16 (vload16 (0, sub + q));
  else
    for (int k = max (q, 0); k < min (q + 16, row_bytes); k++)
      c[k] += add[k] - sub[k];
}

/* The rows of a band from d = PREFIX_MIN_DIAMETER, in one sweep across
 * each row: a block of 16 bytes of column sums makes the running sum's
 * block and the column sums for the next row, and the output block whose
 * window ended OUT_LAG blocks before is written. The blocks start where
 * the windows of the output's blocks end (p + halo for p = s, s + 16, ...),
 * so that of the two running sums an output block needs, the last is a
 * whole block and the first, span bytes before it, a load across two.
 * Both are from blocks stored a few blocks before, no longer on their way
 * to the cache: a load across two stores still on their way waits for
 * them (at d = 3 to 7 that doubled the time). The running sum may start
 * anywhere at or before the first byte of the first window (q0): values
 * before it cancel in the difference. */
inline void
band_prefix (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int height, int row_bytes,
    int radius, int s, int e, int y0, int y1, uint n, float inv, uint * cols,
    uint * sums)
{
  int halo = radius * CH, span = 2 * halo + CH;
  int q0 = s + halo - ((span + 15) & ~15);
  int q1 = s + halo + ((e - s + 15) & ~15);
  /* aligned to 64 bytes: q - q0 is a multiple of 16 */
  uint *c = cols - q0, *run_at = sums - q0;

  column_sums (src, src_stride, height, row_bytes, radius, y0, c, q0, q1);

  for (int y = y0; y < y1; y++) {
    __global const uchar *add = ROW (y + radius + 1), *sub = ROW (y - radius);
    __global uchar *out = dst + y * dst_stride;
    bool aligned = ((ulong) (out + s) & 15) == 0;
    uint16 carry = 0;

    fill_edges (c, q0, q1, row_bytes);
    for (int q = q0; q < q1; q += 16) {
      uint16 v = *(uint16 *) (c + q), block = prefix16 (v);
      int w = q - 16 * OUT_LAG;

      *(uint16 *) (run_at + q) = block + carry;
      carry += carry16 (block);
      columns_next (c, q, v, add, sub, row_bytes);
      if (w >= s + halo)
        store16 (divide16 (*(uint16 *) (run_at + w) - V16 (run_at + w - span) +
                n / 2, n, inv), out, w - halo, e, aligned);
    }
    for (int w = max (q1 - 16 * OUT_LAG, s + halo); w < q1; w += 16)
      store16 (divide16 (*(uint16 *) (run_at + w) - V16 (run_at + w - span) +
              n / 2, n, inv), out, w - halo, e, aligned);
  }
}

__kernel __attribute__ ((reqd_work_group_size (1, 1, 1)))
void
boxblur_band (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int radius, int rows, uint n, int band)
{
  uint cols[MAX_BAND + 2 * BAND_PAD + 16] __attribute__ ((aligned (64)));
  uint sums[MAX_BAND + 2 * BAND_PAD + 16] __attribute__ ((aligned (64)));
  int row_bytes = width * CH, halo = radius * CH;
  int s = get_global_id (0) * band, e = min (s + band, row_bytes);
  int y0 = get_global_id (1) * rows, y1 = min (y0 + rows, height);
  /* the bytes whose columns the band needs, in blocks of 16 from first
   * (aligned in cols, so that one store writes a block and the next row's
   * load of it forwards from that store) up to last; those of the image
   * up to hi */
  int first = s - ((halo + 15) & ~15);
  int last = first + ((e + halo - first + 15) & ~15);
  int hi = min (e + halo, row_bytes);
  float inv = 1.0f / n;
  /* cols[k] is the column of byte s - BAND_PAD + k */
  uint *c = cols + BAND_PAD - s;

  if (s >= row_bytes || y0 >= height)
    return;
  if (2 * radius + 1 >= PREFIX_MIN_DIAMETER) {
    band_prefix (src, src_stride, dst, dst_stride, height, row_bytes, radius,
        s, e, y0, y1, n, inv, cols, sums);
    return;
  }

  column_sums (src, src_stride, height, row_bytes, radius, y0, c, first, hi);
  for (int y = y0; y < y1; y++) {
    __global const uchar *add = ROW (y + radius + 1), *sub = ROW (y - radius);
    __global uchar *out = dst + y * dst_stride;
    bool aligned = ((ulong) (out + s) & 15) == 0;

    fill_edges (c, first, last, row_bytes);

    for (int p = s; p < e; p += 16) {
      uint16 sum = n / 2 + V16 (c + p + halo);

      /* in pairs, to halve the loop's overhead */
      for (int i = -halo; i < halo; i += 2 * CH)
        sum += V16 (c + p + i) + V16 (c + p + i + CH);
      store16 (divide16 (sum, n, inv), out, p, e, aligned);
    }

    for (int p = first; p < hi; p += 16) {
      uint16 v = *(uint16 *) (c + p);

      columns_next (c, p, v, add, sub, row_bytes);
    }
  }
}

#if defined (RADIUS) || defined (SMALL_RADIUS) || defined (WARP_RADIUS) || \
    defined (SCAN_RADIUS)
/* floor (a / b), for the constants of the kernels built for one radius */
#define FLOOR_DIV(a, b) ((a) >= 0 ? (a) / (b) : -((-(a) + (b) - 1) / (b)))

/* component i of a vector, i a constant once unrolled */
inline uint
get4 (uint4 v, int i)
{
  return i == 0 ? v.s0 : i == 1 ? v.s1 : i == 2 ? v.s2 : v.s3;
}

inline uint
get16 (uint16 v, int i)
{
  return get4 (i < 4 ? v.s0123 : i < 8 ? v.s4567 : i < 12 ? v.s89ab :
      v.scdef, i % 4);
}

inline uint4
put4 (uint4 v, int i, uint x)
{
  return (uint4) (i == 0 ? x : v.s0, i == 1 ? x : v.s1, i == 2 ? x : v.s2,
      i == 3 ? x : v.s3);
}

inline uint16
put16 (uint16 v, int i, uint x)
{
  if (i < 4)
    v.s0123 = put4 (v.s0123, i, x);
  else if (i < 8)
    v.s4567 = put4 (v.s4567, i - 4, x);
  else if (i < 12)
    v.s89ab = put4 (v.s89ab, i - 8, x);
  else
    v.scdef = put4 (v.scdef, i - 12, x);
  return v;
}

/* the 16 bytes at pixel x of a row, edge pixels repeated outside */
inline uchar16
load_item (__global const uchar * row, int x, int width)
{
  __global const uchar *p = row + x * CH;
  uint16 v = 0;

  /* vload16 promises only byte alignment, and may load byte by byte */
  if (x >= 0 && x + 16 / CH <= width)
    return ((size_t) p & 15) ? vload16 (0, p) : *(__global const uchar16 *) p;
#pragma unroll
  for (int b = 0; b < 16; b++)
    v = put16 (v, b, row[clamp (x + b / CH, 0, width - 1) * CH + b % CH]);
  return convert_uchar16 (v);
}

/* whether every row's 16 bytes at pixel x lie inside the row and 16-byte
 * aligned: then a plain vector load takes them, with no branch between the
 * loads of successive rows, which can all be in flight at once */
inline bool
item_inside (__global const uchar * src, int src_stride, int x, int width)
{
  return x >= 0 && x + 16 / CH <= width &&
      !(((size_t) (src + x * CH) | src_stride) & 15);
}

/* the 16 bytes at pixel x of row y: where item_inside() said so, and
 * where inside is what it said */
#define LOAD_INSIDE(y) (*(__global const uchar16 *) (ROW (y) + x * CH))
#define LOAD_ROW(y) (inside ? LOAD_INSIDE (y) : load_item (ROW (y), x, width))

/* the sums of the 16 bytes at pixel x down rows first to last, inside as
 * item_inside() says: then 8 loads in flight at a time */
inline uint16
sum_rows (__global const uchar * src, int src_stride, int height, int x,
    int width, bool inside, int first, int last)
{
  uint16 sum = 0;

  if (inside) {
#pragma unroll 8
    for (int y = first; y <= last; y++)
      sum += convert_uint16 (LOAD_INSIDE (y));
  } else {
    for (int y = first; y <= last; y++)
      sum += convert_uint16 (load_item (ROW (y), x, width));
  }
  return sum;
}

/* the d x d sums, divided, stored at row y */
inline void
store_item (uint16 o, __global uchar * dst, int dst_stride, int x, int y,
    int width, uint n, uint magic, uint shift)
{
  __global uchar *out = dst + y * dst_stride + x * CH;

  o = mul_hi (o + n / 2, magic) >> shift;
  if (x + 16 / CH <= width && !((size_t) out & 15)) {
    *(__global uchar16 *) out = convert_uchar16 (o);
  } else if (x + 16 / CH <= width) {
    vstore16 (convert_uchar16 (o), 0, out);
  } else {
#pragma unroll
    for (int b = 0; b < 16; b++)
      if (b < (width - x) * CH)
        out[b] = get16 (o, b);
  }
}

#endif

/* Shuffles within a warp of 32 work-items (NV_PTX: NVIDIA's, through PTX
 * assembly): v of the work-item delta lanes before this one (shfl_up) or
 * after it (shfl_down), v itself where that is outside the warp. */
#if defined (NV_PTX) && (defined (WARP_RADIUS) || defined (SCAN_RADIUS))
inline uint
shfl_up (uint v, uint delta)
{
  uint r;

  asm volatile ("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;":"=r" (r)
      :"r" (v), "r" (delta));
  return r;
}

inline uint
shfl_down (uint v, uint delta)
{
  uint r;

  asm volatile ("shfl.sync.down.b32 %0, %1, %2, 31, 0xffffffff;":"=r" (r)
      :"r" (v), "r" (delta));
  return r;
}
#endif

/* The asynchronous copies of NVIDIA's GPUs from compute capability 8.0
 * (-DASYNC_COPY=K, with NV_PTX): 16 aligned bytes from global to local memory
 * with no register held while in flight; a group of them committed; a wait
 * until at most n groups are in flight, after which this work-item reads
 * what its own copies wrote. */
#ifdef ASYNC_COPY
inline void
copy_async_16 (__local void *dst, __global const void *src)
{
  asm volatile ("cp.async.cg.shared.global [%0], [%1], 16;"::"r" ((uint) (size_t)
          dst), "l" (src):"memory");
}

inline void
copy_async_commit (void)
{
  asm volatile ("cp.async.commit_group;":::"memory");
}

/* the rows the warps' copies run ahead of their use: on an H100, 1 and 2
 * alike, 4 or all of them at once up to 5% slower at 4K RGBA and 13% on
 * 4K NV12 */
#define ASYNC_AHEAD 2

#define copy_async_wait(n) \
  asm volatile ("cp.async.wait_group " #n ";":::"memory")

/* a wait until at most n groups are in flight, n a constant once unrolled:
 * at most 7, waiting for more where n is larger */
inline void
copy_async_wait_rows (int n)
{
  if (n <= 0)
    copy_async_wait (0);
  else if (n == 1)
    copy_async_wait (1);
  else if (n == 2)
    copy_async_wait (2);
  else if (n == 3)
    copy_async_wait (3);
  else if (n == 4)
    copy_async_wait (4);
  else if (n == 5)
    copy_async_wait (5);
  else if (n == 6)
    copy_async_wait (6);
  else
    copy_async_wait (7);
}
#endif

/* One pass for GPUs at d = 3 (-DSMALL_RADIUS=1, with -DROWS): a work-item
 * takes 16 bytes of ROWS rows, loading each of the ROWS + 2 rows around
 * them once, with the 8 bytes beside them (which the work-items beside it
 * load too, from the cache): no local memory and no barrier, and all the
 * loads of a work-item can be in flight at once. Each row is summed across
 * first, the sums of 3 rows then added, in 32-bit lanes, one a byte. */
#ifdef SMALL_RADIUS

#if SMALL_RADIUS != 1
#error "SMALL_RADIUS must be 1"
#endif

/* the byte @off bytes from pixel x's first of a row, edge pixels repeated
 * outside */
inline uint
byte_at (__global const uchar * row, int x, int width, int off)
{
  int px = off >= 0 ? off / CH : -((-off + CH - 1) / CH);

  return row[clamp (x + px, 0, width - 1) * CH + off - px * CH];
}

/* c: the 16 bytes at pixel x of a row; h: the 8 bytes before them, then
 * the 8 after */
inline void
load_row (__global const uchar * row, int x, int width, uint16 * c,
    uint16 * h)
{
  __global const uchar *p = row + x * CH;

  if (x * CH >= 8 && x * CH + 24 <= width * CH && !((size_t) p & 15)) {
    *c = convert_uint16 (*(__global const uchar16 *) p);
    *h = convert_uint16 ((uchar16) (*(__global const uchar8 *) (p - 8),
            *(__global const uchar8 *) (p + 16)));
    return;
  }
  *c = *h = 0;
#pragma unroll
  for (int b = 0; b < 16; b++) {
    *c = put16 (*c, b, byte_at (row, x, width, b));
    *h = put16 (*h, b, byte_at (row, x, width, b < 8 ? b - 8 : b + 8));
  }
}

/* the sums across the window of each of the 16 bytes of c, h beside them
 * as load_row() gives them */
inline uint16
across (uint16 c, uint16 h)
{
  uint16 sum = c;

#pragma unroll
  for (int k = 1; k <= SMALL_RADIUS; k++)
#pragma unroll
    for (int b = 0; b < 16; b++) {
      int l = b - k * CH, r = b + k * CH;

      sum = put16 (sum, b, get16 (sum, b) + (l < 0 ? get16 (h, 8 + l) :
              get16 (c, l)) + (r >= 16 ? get16 (h, r - 8) : get16 (c, r)));
    }
  return sum;
}

__kernel void
boxblur_small (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    uint n, uint magic, uint shift)
{
  int x = get_global_id (0) * (16 / CH), y0 = get_global_id (1) * ROWS;
  /* the row sums of the window, oldest first */
  uint16 c, h, w0 = 0, w1 = 0;

  if (x >= width || y0 >= height)
    return;
#pragma unroll
  for (int i = 0; i < ROWS + 2; i++) {
    uint16 s;
    int y = y0 + i - 2;

    load_row (ROW (y0 - 1 + i), x, width, &c, &h);
    s = across (c, h);
    if (i >= 2 && y < height)
      store_item (w0 + w1 + s, dst, dst_stride, x, y, width, n, magic,
          shift);
    w0 = w1;
    w1 = s;
  }
}
#endif

/* One pass for GPUs at the small diameters, with warp shuffles (NV_PTX;
 * -DWARP_RADIUS, at most 64 bytes each side, with -DROWS): a work-item
 * takes 16 bytes of ROWS rows, loads its 16 bytes of each of the ROWS +
 * d - 1 rows around them once, and sums each column down; the column sums
 * of the bytes each side it takes from the one to four work-items beside it
 * in its warp by shuffles, and sums across. No barrier, and no byte
 * loaded twice but by the one to four work-items at each end of a warp,
 * which compute for their neighbours and write nothing. The first ROWS
 * rows it loads, which leave the window in turn, it keeps in local memory
 * of its own rather than loading them again (5-8% faster on an H100 at
 * d = 5 to 17). With -DASYNC_COPY=K it keeps instead every row it takes
 * in local memory, copied there by the device's asynchronous copies, in
 * work-groups of K warps (5-15% faster on an H100 at 4K, d = 7 to 17):
 * one warp's copies run ahead of its rows; K warps one above the other
 * copy the rows of all of them once, where each alone would copy again
 * the rows its window starts with (10-25% faster again at 4K d = 17 and
 * on 4K NV12). Its first pixel's windows take what lies with the
 * work-items beside it as sums of their bytes, one shuffle each, and the
 * bytes one by one only where the windows slide.
 * With -DWARP_EMULATED instead of NV_PTX (to test it on any device), the
 * column sums go through local memory between two barriers. */
#ifdef WARP_RADIUS

#if WARP_RADIUS * CH > 64 || !(defined (NV_PTX) || defined (WARP_EMULATED))
#error "boxblur_warp takes at most 64 bytes each side, and NV_PTX or WARP_EMULATED"
#endif
/* with the asynchronous copies, work-groups one warp wide (3-5% faster
 * than two on an H100 at 4K RGBA) and ASYNC_COPY warps high */
#ifdef ASYNC_COPY
#define WARP_GROUP_SIZE 32
#define WARP_STACK ASYNC_COPY
#else
#define WARP_GROUP_SIZE 64
#define WARP_STACK 1
#endif

#define WB (WARP_RADIUS * CH)   /* bytes each side */
#define WARP_LANES ((WB + 15) / 16)     /* work-items each side they span */

/* whether the column sum of byte q, counted from this work-item's first,
 * enters or leaves some window as the windows slide along its bytes: those
 * the work-item takes one by one, the others beside it only as sums */
#define WARP_SLIDES(q) (((q) >= CH + WB && (q) <= 15 + WB) || \
    ((q) >= -WB && (q) <= 15 - CH - WB))

/* Column sums of the work-items one to four lanes before this one (l1 to
 * l4) and after it (r1 to r4): with NVIDIA's shuffles only the bytes the
 * slides take; emulated, wl1 to wr4 hold them whole too. Variables of
 * their own, not a structure, which a compiler may keep in memory. */
#define SIDES_PARAMS uint16 l4, uint16 l3, uint16 l2, uint16 l1, uint16 r1, \
    uint16 r2, uint16 r3, uint16 r4
#define SIDES_ARGS l4, l3, l2, l1, r1, r2, r3, r4

/* the sides m lanes away, m a constant from -4 to 4 but 0 */
#define SIDE(m) ((m) == -4 ? l4 : (m) == -3 ? l3 : (m) == -2 ? l2 : \
    (m) == -1 ? l1 : (m) == 1 ? r1 : (m) == 2 ? r2 : (m) == 3 ? r3 : r4)
#define WHOLE_SIDE(m) ((m) == -4 ? wl4 : (m) == -3 ? wl3 : (m) == -2 ? wl2 : \
    (m) == -1 ? wl1 : (m) == 1 ? wr1 : (m) == 2 ? wr2 : (m) == 3 ? wr3 : wr4)

/* byte i of the sides m lanes away set to v */
#define SET_SIDE(m, i, v) do { \
    if ((m) == -4) l4 = put16 (l4, (i), (v)); \
    else if ((m) == -3) l3 = put16 (l3, (i), (v)); \
    else if ((m) == -2) l2 = put16 (l2, (i), (v)); \
    else if ((m) == -1) l1 = put16 (l1, (i), (v)); \
    else if ((m) == 1) r1 = put16 (r1, (i), (v)); \
    else if ((m) == 2) r2 = put16 (r2, (i), (v)); \
    else if ((m) == 3) r3 = put16 (r3, (i), (v)); \
    else r4 = put16 (r4, (i), (v)); \
  } while (0)

/* the column sum of byte b, counted from this work-item's first: its own,
 * or one the slides took from the work-items beside it */
#define WCOL(b) ((b) >= 0 && (b) < 16 ? get16 (col, (b)) : \
    get16 (SIDE (FLOOR_DIV (b, 16)), (b) - 16 * FLOOR_DIV (b, 16)))

/* the sum of bytes lo, lo + CH, ... hi of v, of one channel (the loops
 * over all 16 bytes, so that they unroll before lo and hi are known) */
inline uint
sum_channel (uint16 v, int lo, int hi)
{
  uint s = 0;

#pragma unroll
  for (int i = 0; i < 16; i++)
    if (i >= lo && i <= hi && i % CH == lo % CH)
      s += get16 (v, i);
  return s;
}

/* whether the bytes lo, lo + CH, ... hi of the work-item m lanes away are
 * all among those WARP_SLIDES() takes one by one */
inline bool
warp_slides_all (int m, int lo, int hi)
{
  bool all = true;

#pragma unroll
  for (int i = 0; i < 16; i++)
    if (i >= lo && i <= hi && i % CH == lo % CH)
      all = all && WARP_SLIDES (16 * m + i);
  return all;
}

/* Emulated, the whole column sums of the work-items beside this one too
 * (so that a test on any device finds a byte taken that no shuffle would
 * have passed on) */
#ifdef NV_PTX
#define WARP_WHOLE_PARAM
#define WARP_WHOLE_ARG
#else
#define WARP_WHOLE_PARAM , uint16 wl4, uint16 wl3, uint16 wl2, uint16 wl1, \
    uint16 wr1, uint16 wr2, uint16 wr3, uint16 wr4
#define WARP_WHOLE_ARG , wl4, wl3, wl2, wl1, wr1, wr2, wr3, wr4
#endif

/* channel c's part of the window of this work-item's first pixel that lies
 * with the work-item m lanes away, bytes lo to hi there: one by one where
 * the slides take them, else their sum, which that work-item adds up and
 * passes on in one shuffle. Functions of constants, not loops, so that
 * every compiler unrolls what calls them. */
inline uint
warp_segment (uint16 col, SIDES_PARAMS WARP_WHOLE_PARAM, int c, int m)
{
  /* (ternaries, not max () and min (): constants for any compiler) */
  int lo = c - WB - 16 * m > c ? c - WB - 16 * m : c;
  int hi = c + WB - 16 * m < 16 - CH + c ? c + WB - 16 * m : 16 - CH + c;
  uint s = 0;

  if (lo > hi)
    return 0;
  if (m == 0)
    return sum_channel (col, lo, hi);
  if (warp_slides_all (m, lo, hi)) {
#pragma unroll
    for (int i = 0; i < 16; i++)
      if (i >= lo && i <= hi && i % CH == c)
        s += WCOL (16 * m + i);
    return s;
  }
#ifdef NV_PTX
  s = sum_channel (col, lo, hi);
  return m < 0 ? shfl_up (s, -m) : shfl_down (s, m);
#else
  return sum_channel (WHOLE_SIDE (m), lo, hi);
#endif
}

/* the sum of channel c over the window of this work-item's first pixel,
 * which reaches at most four lanes each side */
inline uint
warp_first (uint16 col, SIDES_PARAMS WARP_WHOLE_PARAM, int c)
{
  return warp_segment (col, SIDES_ARGS WARP_WHOLE_ARG, c, -4) +
      warp_segment (col, SIDES_ARGS WARP_WHOLE_ARG, c, -3) +
      warp_segment (col, SIDES_ARGS WARP_WHOLE_ARG, c, -2) +
      warp_segment (col, SIDES_ARGS WARP_WHOLE_ARG, c, -1) +
      warp_segment (col, SIDES_ARGS WARP_WHOLE_ARG, c, 0) +
      warp_segment (col, SIDES_ARGS WARP_WHOLE_ARG, c, 1) +
      warp_segment (col, SIDES_ARGS WARP_WHOLE_ARG, c, 2) +
      warp_segment (col, SIDES_ARGS WARP_WHOLE_ARG, c, 3) +
      warp_segment (col, SIDES_ARGS WARP_WHOLE_ARG, c, 4);
}

__kernel __attribute__ ((reqd_work_group_size (WARP_GROUP_SIZE, WARP_STACK,
            1)))
void
boxblur_warp (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    uint n, uint magic, uint shift)
{
  int lane = get_local_id (0) % 32;
  /* the work-items of a warp that write, all but WARP_LANES at each end */
  int x = ((int) get_global_id (0) / 32 * (32 - 2 * WARP_LANES) + lane -
      WARP_LANES) * (16 / CH);
  int y0 = get_global_id (1) * ROWS;
  bool writes = lane >= WARP_LANES && lane < 32 - WARP_LANES && x < width;
  bool inside = item_inside (src, src_stride, x, width);
  uint16 col;
  int lx = get_local_id (0);
#ifdef ASYNC_COPY
  /* every row the work-group's warps take, copied by the device's
   * asynchronous copies (no register held while they are in flight); row j
   * of warp w's, counted from its window's first, is row w ROWS + j of the
   * work-group's. A ring of the window's rows and the next ones took 7-19%
   * longer. */
#define STACKED (WARP_STACK * ROWS + 2 * WARP_RADIUS)
  __local uchar16 rows[STACKED][WARP_GROUP_SIZE];
  int w = get_local_id (1), gy = get_group_id (1) * WARP_STACK * ROWS;
#define SLOT(j) (rows[w * ROWS + (j)][lx])
#define LEAVING(i) SLOT (i)
#if WARP_STACK == 1
  /* one warp: the window's start, then each row entering it ASYNC_AHEAD
   * steps ahead of its use */
#define AHEAD (ASYNC_AHEAD < ROWS ? ASYNC_AHEAD : ROWS)
#define COPY_ROW(j) \
    copy_async_16 (&SLOT (j), ROW (y0 - WARP_RADIUS + (j)) + x * CH)
#endif
#else
  /* the first ROWS rows this work-item loads, which leave the window in
   * turn: from local memory then, not from the cache */
  __local uchar16 leaving[ROWS][WARP_GROUP_SIZE];
#define LEAVING(i) (leaving[(i)][lx])
#endif
#ifndef NV_PTX
  __local uint16 lanes[WARP_GROUP_SIZE];
#endif

  col = 0;
#if defined (ASYNC_COPY) && WARP_STACK > 1
  /* warps one above the other: the rows of all of them copied once, each
   * warp a share, where each warp alone would copy the rows its window
   * starts with again */
  if (inside) {
    for (int j = w; j < STACKED; j += WARP_STACK)
      copy_async_16 (&rows[j][lx], ROW (gy - WARP_RADIUS + j) + x * CH);
    copy_async_commit ();
    copy_async_wait (0);
  } else {
    for (int j = w; j < STACKED; j += WARP_STACK)
      rows[j][lx] = load_item (ROW (gy - WARP_RADIUS + j), x, width);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
#endif
  /* y0 is the same across a warp, so that a whole warp returns or none of
   * it: the shuffles need every work-item of the warp */
  if (y0 >= height)
    return;
#ifdef ASYNC_COPY
#if WARP_STACK == 1
  if (inside) {
    /* the start a group, then each row entering a group */
#pragma unroll
    for (int j = 0; j < 2 * WARP_RADIUS + AHEAD; j++) {
      COPY_ROW (j);
      if (j >= 2 * WARP_RADIUS - 1)
        copy_async_commit ();
    }
    copy_async_wait_rows (AHEAD);
  } else {
    for (int j = 0; j < 2 * WARP_RADIUS + ROWS; j++)
      SLOT (j) = load_item (ROW (y0 - WARP_RADIUS + j), x, width);
  }
#endif
#pragma unroll
  for (int j = 0; j < 2 * WARP_RADIUS; j++)
    col += convert_uint16 (SLOT (j));
#else
  /* as sum_rows(), but all the window's loads at once: 8 at a time made
   * the warps up to 11% slower */
  if (inside) {
#pragma unroll
    for (int i = -WARP_RADIUS; i < WARP_RADIUS; i++) {
      uchar16 v = LOAD_INSIDE (y0 + i);

      col += convert_uint16 (v);
      if (i + WARP_RADIUS < ROWS)
        leaving[i + WARP_RADIUS][lx] = v;
    }
  } else {
    for (int i = -WARP_RADIUS; i < WARP_RADIUS; i++) {
      uchar16 v = load_item (ROW (y0 + i), x, width);

      col += convert_uint16 (v);
      if (i + WARP_RADIUS < ROWS)
        leaving[i + WARP_RADIUS][lx] = v;
    }
  }
#endif

  /* emulated, not unrolled: PoCL 3.1 gave wrong sums, a different one
   * each run, with this loop unrolled around its barriers (d = 17 on one
   * byte a pixel, d = 9 on four with 4 rows) */
#ifdef NV_PTX
#pragma unroll
#else
#pragma unroll 1
#endif
  for (int i = 0; i < ROWS; i++) {
    uint16 l4 = 0, l3 = 0, l2 = 0, l1 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0;
    uint16 o = 0;

    /* the row entering the window (loading it a row ahead kept more
     * registers and ran 3-11% slower) */
#ifdef ASYNC_COPY
#if WARP_STACK == 1
    if (inside && i + AHEAD < ROWS) {
      COPY_ROW (2 * WARP_RADIUS + i + AHEAD);
      copy_async_commit ();
    }
    copy_async_wait_rows (min (AHEAD, ROWS - 1 - i));
#endif
    col += convert_uint16 (SLOT (2 * WARP_RADIUS + i));
#else
    {
      uchar16 v = LOAD_ROW (y0 + i + WARP_RADIUS);

      col += convert_uint16 (v);
      if (i + 2 * WARP_RADIUS < ROWS)
        leaving[i + 2 * WARP_RADIUS][lx] = v;
    }
#endif
#ifdef NV_PTX
#define TAKE(m, i) ((m) < 0 ? shfl_up (get16 (col, (i)), -(m)) : \
    shfl_down (get16 (col, (i)), (m)))
#else
    /* those at the ends of a warp take anything: they write nothing */
    uint16 wl4, wl3, wl2, wl1, wr1, wr2, wr3, wr4;

    lanes[lx] = col;
    barrier (CLK_LOCAL_MEM_FENCE);
    wl1 = lanes[max (lx - 1, 0)];
    wl2 = lanes[max (lx - 2, 0)];
    wl3 = lanes[max (lx - 3, 0)];
    wl4 = lanes[max (lx - 4, 0)];
    wr1 = lanes[min (lx + 1, WARP_GROUP_SIZE - 1)];
    wr2 = lanes[min (lx + 2, WARP_GROUP_SIZE - 1)];
    wr3 = lanes[min (lx + 3, WARP_GROUP_SIZE - 1)];
    wr4 = lanes[min (lx + 4, WARP_GROUP_SIZE - 1)];
    barrier (CLK_LOCAL_MEM_FENCE);
#define TAKE(m, i) get16 (WHOLE_SIDE (m), (i))
#endif
    /* the column sums of the bytes beside this work-item's that the windows
     * take or leave as they slide, one by one: byte q counted from its
     * first is byte q - 16 m of the work-item m = floor (q / 16) lanes
     * away */
#pragma unroll
    for (int q = -WB; q < (16 - CH - WB < 0 ? 16 - CH - WB : 0); q++)
      SET_SIDE (FLOOR_DIV (q, 16), q - 16 * FLOOR_DIV (q, 16),
          TAKE (FLOOR_DIV (q, 16), q - 16 * FLOOR_DIV (q, 16)));
#pragma unroll
    for (int q = CH + WB > 16 ? CH + WB : 16; q < 16 + WB; q++)
      SET_SIDE (q / 16, q % 16, TAKE (q / 16, q % 16));
#undef TAKE
    /* the first pixel's channels whole (at d = 17 on 4 bytes a pixel, 40
     * shuffles a row in all where the bytes one by one took 64), the
     * others sliding */
    o = put16 (o, 0, warp_first (col, SIDES_ARGS WARP_WHOLE_ARG, 0));
    if (CH > 1)
      o = put16 (o, 1, warp_first (col, SIDES_ARGS WARP_WHOLE_ARG, 1));
    if (CH > 2) {
      o = put16 (o, 2, warp_first (col, SIDES_ARGS WARP_WHOLE_ARG, 2));
      o = put16 (o, 3, warp_first (col, SIDES_ARGS WARP_WHOLE_ARG, 3));
    }
#pragma unroll
    for (int b = CH; b < 16; b++)
      o = put16 (o, b, get16 (o, b - CH) + WCOL (b + WB) -
          WCOL (b - CH - WB));
    if (writes && y0 + i < height)
      store_item (o, dst, dst_stride, x, y0 + i, width, n, magic, shift);
    col -= convert_uint16 (LEAVING (i));
  }
}
#undef WCOL
#undef LEAVING
#ifdef ASYNC_COPY
#undef STACKED
#undef SLOT
#if WARP_STACK == 1
#undef AHEAD
#undef COPY_ROW
#endif
#endif
#endif

/* One pass for GPUs at any diameter, built for one radius (-DRADIUS, with
 * -DGROUP work-items a work-group). A work-item takes 16 bytes of a row,
 * the column sums of its bytes in a vector, and slides down `rows` rows
 * adding the row below and subtracting the row above, two vector loads a
 * row. At each row it puts its column sums in local memory, four vectors
 * of 16 bytes whose loads and stores by a warp fall in distinct banks,
 * with its sum of each channel; the d column sums across one of its pixels
 * are then its own, the totals of the work-items that every window of its
 * pixels covers, and the columns of the work-items at the ends of the
 * windows, read from local memory and summed with indices known at build
 * time; along its pixels the window slides, two adds a sample. The image
 * is read once (the rows leaving the window again, from the cache) with
 * nothing in global memory in between, and local memory is read about
 * 2 + d / 8 bytes a byte, not d times as by the strips. The work-items
 * within reach of a window's end at each side of the work-group compute
 * columns for their neighbours and write nothing. Everything a work-item
 * keeps is in vectors indexed by constants, so that it stays in
 * registers. */
#ifdef RADIUS

#define IP (16 / CH)            /* pixels a work-item */
/* floor (a / IP) for the constants below */
#define FDIV(a) FLOOR_DIV (a, IP)
/* the work-items, relative to this one, that some window of its pixels
 * reaches, and those that every window covers whole */
#define K_FIRST FDIV (-RADIUS)
#define K_LAST FDIV (IP - 1 + RADIUS)
#define C_FIRST (-FDIV (RADIUS + 1 - IP))
#define C_LAST (FDIV (RADIUS + 1) - 1)
#define COMMON (C_FIRST <= C_LAST)
/* the pixels those cover, relative to this work-item's first */
#define QA (COMMON ? C_FIRST * IP : 0)
#define QB (COMMON ? (C_LAST + 1) * IP - 1 : -1)

/* the column sum of byte b of work-item lx + k */
inline uint
lane_of (__local const uint4 (*q)[GROUP], int lx, uint16 own, int k, int b)
{
  return k == 0 ? get16 (own, b) : get4 (q[b / 4][lx + k], b % 4);
}

/* the column sum of channel c of pixel p, p counted from this work-item's
 * first pixel */
#define X(p, c) lane_of (q, lx, own, FDIV (p), ((p) - FDIV (p) * IP) * CH + (c))

__kernel __attribute__ ((reqd_work_group_size (GROUP, 1, 1)))
void
boxblur_blocks (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int rows, uint n, uint magic, uint shift)
{
  __local uint4 cols[2][4][GROUP], totals[2][GROUP];
  int lx = get_local_id (0);
  /* work-items a work-group writes; the others compute a halo */
  int x = (get_group_id (0) * (GROUP + K_FIRST - K_LAST) + lx + K_FIRST) * IP;
  int y0 = get_group_id (1) * rows, y1 = min (y0 + rows, height);
  bool writes = lx >= -K_FIRST && lx < GROUP - K_LAST && x < width;
  const int radius = RADIUS;
  bool inside = item_inside (src, src_stride, x, width);
  uint16 own = sum_rows (src, src_stride, height, x, width, inside,
      y0 - radius, y0 + radius);

  for (int y = y0, buf = 0; y < y1; y++, buf ^= 1) {
    __local const uint4 (*q)[GROUP] = cols[buf];
    /* the next row's loads first, to be in flight across the barrier (a
     * step further ahead kept more registers and ran slower) */
    uint16 add = convert_uint16 (LOAD_ROW (y + radius + 1));
    uint16 sub = convert_uint16 (LOAD_ROW (y - radius));
    uint4 t = own.s0123 + own.s4567 + own.s89ab + own.scdef;

#if CH == 2
    t = (uint4) (t.s0 + t.s2, t.s1 + t.s3, 0, 0);
#elif CH == 1
    t = (uint4) (t.s0 + t.s1 + t.s2 + t.s3, 0, 0, 0);
#endif
    cols[buf][0][lx] = own.s0123;
    cols[buf][1][lx] = own.s4567;
    cols[buf][2][lx] = own.s89ab;
    cols[buf][3][lx] = own.scdef;
    totals[buf][lx] = t;
    barrier (CLK_LOCAL_MEM_FENCE);

    if (writes) {
      uint16 o = 0;

#pragma unroll
      for (int c = 0; c < CH; c++) {
        uint sum = 0;

        /* the first pixel: the work-items every window covers, then the
         * columns of the windows' ends */
#pragma unroll
        for (int k = C_FIRST; k <= C_LAST; k++)
          sum += k == 0 ? get4 (t, c) : get4 (totals[buf][lx + k], c);
#pragma unroll
        for (int p = -RADIUS; p < QA; p++)
          sum += X (p, c);
#pragma unroll
        for (int p = QB + 1; p <= RADIUS; p++)
          sum += X (p, c);
        o = put16 (o, c, sum);
#pragma unroll
        for (int p = 1; p < IP; p++) {
          sum += X (p + RADIUS, c);
          sum -= X (p - 1 - RADIUS, c);
          o = put16 (o, p * CH + c, sum);
        }
      }
      store_item (o, dst, dst_stride, x, y, width, n, magic, shift);
    }

    own += add - sub;
  }
}
#endif

/* One pass for GPUs at the large diameters, built for one radius
 * (-DSCAN_RADIUS, with -DGROUP work-items a work-group and NV_PTX or
 * SCAN_EMULATED): a work-item takes 16 bytes of a row and slides down
 * `rows` rows with the column sums of its bytes, as the blocks do, but
 * starts them from the sums of 8 rows that boxblur_block_sums gave (and
 * the d mod 8 rows after them), not from d loads; across,
 * the work-group sums each channel's column sums from its first byte
 * (prefix sums), and a window's sum is the difference of two of them, so
 * that what a sample costs does not grow with d. Each work-item sums along
 * its own bytes, then across its warp by shuffles; it puts those sums in
 * local memory, and its warp's total, behind one barrier a row. The two
 * ends of a window in different warps differ by the total of the warp of
 * the left one, since a window spans fewer than 32 work-items. With
 * -DSCAN_EMULATED instead of NV_PTX (to test it on any device), each
 * work-item sums the totals before it in its warp from local memory,
 * between two barriers. */
#ifdef SCAN_RADIUS

#define SB (SCAN_RADIUS * CH)   /* bytes each side */
/* the work-items beside a writer that its windows reach: its first byte's
 * window starts SB bytes before it, and takes the prefix sum CH bytes
 * before that */
#define SCAN_LEFT ((SB + CH + 15) / 16)
#define SCAN_RIGHT ((SB + 15) / 16)
#define SCAN_WARPS (GROUP / 32)

#if SCAN_LEFT + SCAN_RIGHT > 31 || GROUP % 32 || \
    !(defined (NV_PTX) || defined (SCAN_EMULATED))
#error "boxblur_scan: windows span at most 32 work-items, with NV_PTX or SCAN_EMULATED"
#endif

/* floor (a / 16) and a's remainder, for the constants below */
#define F16(a) FLOOR_DIV (a, 16)
#define R16(a) ((a) - 16 * F16 (a))

/* the prefix sum at byte b, counted from this work-item's first, as summed
 * within its warp */
#define PREFIX(b) (F16 (b) == 0 ? get16 (pre, (b)) : \
    get4 (sums[buf][R16 (b) / 4][lx + F16 (b)], R16 (b) % 4))

/* what the prefix sums of a window's ends, of the work-items k and j
 * after this one, summed within their warps, lack of their difference for
 * channel c: the total of k's warp where j's is the next */
#define BETWEEN(k, j, c) ((lx + (k)) / 32 != (lx + (j)) / 32 ? \
    get4 (warps[buf][(lx + (k)) / 32], (c)) : 0)

/* The rows of a window the scan sums from boxblur_block_sums, SUM_ROWS at
 * a time, and those it loads after them */
#define SUM_ROWS 8
#define SUMMED ((2 * SCAN_RADIUS + 1) / SUM_ROWS * SUM_ROWS)

/* The two rows each step of the scan adds and takes away, copied to local
 * memory SCAN_AHEAD steps before it takes them, by the device's
 * asynchronous copies (-DASYNC_COPY, with NV_PTX): they hold no register
 * while in flight, and three steps' are in flight at once where the loads
 * were one step's, issued before its barrier (H100, 4K RGBA, kernel ms:
 * d = 51 0.0958 -> 0.0894, 101 0.1119 -> 0.1022; 1, 2 or 3 steps ahead
 * alike). With SCAN_EMULATED the same ring, filled by plain copies (no
 * wait then), so that any device tests its slots. The element passes
 * -DSCAN_AHEAD=2 with either, and no ring without. */
#ifdef SCAN_AHEAD
#ifndef ASYNC_COPY
#define copy_async_16(dst, src) \
    (*(__local uchar16 *) (dst) = *(__global const uchar16 *) (src))
#define copy_async_commit()
#define copy_async_wait_rows(n)
#endif
/* the rows of step y to slot i of the ring */
#define SCAN_COPY(i, y) do { \
    copy_async_16 (&ring[0][i][lx], ROW ((y) + SCAN_RADIUS + 1) + x * CH); \
    copy_async_16 (&ring[1][i][lx], ROW ((y) - SCAN_RADIUS) + x * CH); \
  } while (0)
#endif

/* Before the scan: the sums of the 16 bytes of work-item i (as the scan
 * numbers them, SCAN_LEFT before the first pixel) down SUM_ROWS rows from
 * row j SUM_ROWS - SCAN_RADIUS, edge rows and pixels repeated outside, to
 * blocks[j items + i]: the image read once, so that each run of the scan
 * starts its window from SUMMED / SUM_ROWS of these, not d rows. */
__kernel void
boxblur_block_sums (__global const uchar * restrict src, int src_stride,
    __global ushort16 * restrict blocks, int items, int width, int height)
{
  int i = get_global_id (0), j = get_global_id (1);
  int x = (i - SCAN_LEFT) * (16 / CH), first = j * SUM_ROWS - SCAN_RADIUS;

  if (i < items)
    blocks[j * items + i] = convert_ushort16 (sum_rows (src, src_stride,
            height, x, width, item_inside (src, src_stride, x, width), first,
            first + SUM_ROWS - 1));
}

__kernel __attribute__ ((reqd_work_group_size (GROUP, 1, 1)))
void
boxblur_scan (__global const uchar * restrict src, int src_stride,
    __global uchar * restrict dst, int dst_stride, int width, int height,
    int rows, uint n, uint magic, uint shift,
    __global const ushort16 * restrict blocks, int items)
{
  __local uint4 sums[2][4][GROUP], warps[2][SCAN_WARPS];
#ifndef NV_PTX
  __local uint4 lanes[GROUP];
#endif
#ifdef SCAN_AHEAD
  /* slot i of the ring: the rows entering the window, then those leaving
   * it, of the steps i, i + SCAN_AHEAD + 1, ... of this run */
  __local uchar16 ring[2][SCAN_AHEAD + 1][GROUP];
  int slot = 0;
#endif
  int lx = get_local_id (0), lane = lx % 32;
  int x = (get_group_id (0) * (GROUP - SCAN_LEFT - SCAN_RIGHT) + lx -
      SCAN_LEFT) * (16 / CH);
  int y0 = get_group_id (1) * rows, y1 = min (y0 + rows, height);
  bool writes = lx >= SCAN_LEFT && lx < GROUP - SCAN_RIGHT && x < width;
  bool inside = item_inside (src, src_stride, x, width);
  /* y0 is a multiple of SUM_ROWS */
  __global const ushort16 *block = blocks + y0 / SUM_ROWS * items +
      (x / (16 / CH) + SCAN_LEFT);
  uint16 own = sum_rows (src, src_stride, height, x, width, inside,
      y0 - SCAN_RADIUS + SUMMED, y0 + SCAN_RADIUS);

#pragma unroll
  for (int b = 0; b < SUMMED / SUM_ROWS; b++)
    own += convert_uint16 (block[b * items]);

#ifdef SCAN_AHEAD
  /* a group of copies a step, empty past the run's last, so that a wait
   * for all but the last SCAN_AHEAD groups is a wait for this step's */
  if (inside) {
    for (int i = 0; i < SCAN_AHEAD; i++) {
      if (y0 + i < y1)
        SCAN_COPY (i, y0 + i);
      copy_async_commit ();
    }
  }
#endif

  for (int y = y0, buf = 0; y < y1; y++, buf ^= 1) {
#ifdef SCAN_AHEAD
    uchar16 add, sub;

    /* the rows of the step SCAN_AHEAD ahead, to the slot taken last */
    if (inside) {
      if (y + SCAN_AHEAD < y1)
        SCAN_COPY (slot == 0 ? SCAN_AHEAD : slot - 1, y + SCAN_AHEAD);
      copy_async_commit ();
    } else {
      add = load_item (ROW (y + SCAN_RADIUS + 1), x, width);
      sub = load_item (ROW (y - SCAN_RADIUS), x, width);
    }
#else
    /* the next row's loads first, to be in flight across the barrier */
    uchar16 add = LOAD_ROW (y + SCAN_RADIUS + 1);
    uchar16 sub = LOAD_ROW (y - SCAN_RADIUS);
#endif
    uint16 pre = own;
    uint4 t, before;

    /* each channel's sums along this work-item's bytes */
#pragma unroll
    for (int b = CH; b < 16; b++)
      pre = put16 (pre, b, get16 (pre, b) + get16 (pre, b - CH));
#if CH == 4
    t = pre.scdef;
#elif CH == 2
    t = (uint4) (pre.se, pre.sf, 0, 0);
#else
    t = (uint4) (pre.sf, 0, 0, 0);
#endif

    /* the totals of the work-items up to this one in its warp */
#ifdef NV_PTX
    before = t;
#pragma unroll
    for (int delta = 1; delta < 32; delta *= 2) {
      uint4 up = 0;

#pragma unroll
      for (int c = 0; c < CH; c++)
        up = put4 (up, c, shfl_up (get4 (before, c), delta));
      if (lane >= delta)
        before += up;
    }
#else
    lanes[lx] = t;
    barrier (CLK_LOCAL_MEM_FENCE);
    before = 0;
    for (int i = lx - lane; i <= lx; i++)
      before += lanes[i];
    barrier (CLK_LOCAL_MEM_FENCE);
#endif
    if (lane == 31)
      warps[buf][lx / 32] = before;
    before -= t;

#if CH == 4
    pre += (uint16) (before, before, before, before);
#elif CH == 2
    pre += (uint16) (before.s0101, before.s0101, before.s0101, before.s0101);
#else
    pre += before.s0;
#endif
    sums[buf][0][lx] = pre.s0123;
    sums[buf][1][lx] = pre.s4567;
    sums[buf][2][lx] = pre.s89ab;
    sums[buf][3][lx] = pre.scdef;
    barrier (CLK_LOCAL_MEM_FENCE);

    if (writes) {
      uint16 o = 0;

#pragma unroll
      for (int b = 0; b < 16; b++)
        o = put16 (o, b, PREFIX (b + SB) - PREFIX (b - SB - CH) +
            BETWEEN (F16 (b - SB - CH), F16 (b + SB), b % CH));
      store_item (o, dst, dst_stride, x, y, width, n, magic, shift);
    }

#ifdef SCAN_AHEAD
    if (inside) {
      copy_async_wait_rows (SCAN_AHEAD);
      add = ring[0][slot][lx];
      sub = ring[1][slot][lx];
      slot = slot == SCAN_AHEAD ? 0 : slot + 1;
    }
#endif
    own += convert_uint16 (add) - convert_uint16 (sub);
  }
}
#undef PREFIX
#undef BETWEEN
#endif
