/* gstclfilters: whole-plane kernels of the core
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* A work-item handles 16 bytes of a row of @row_bytes (the pixels, not the
 * padding): one 16-byte store where the address allows, one byte at a time
 * at the end of the row and at other addresses. */
#define CHUNK 16

__kernel void
plane_fill (__global uchar * dst, int stride, int row_bytes, int value)
{
  int x = get_global_id (0) * CHUNK;
  __global uchar *d = dst + get_global_id (1) * stride + x;
  uchar v = (uchar) value;

  if (x + CHUNK <= row_bytes && ((size_t) d & (CHUNK - 1)) == 0) {
    *(__global uchar16 *) d = (uchar16) v;
  } else {
    for (int i = 0; i < CHUNK && x + i < row_bytes; i++)
      d[i] = v;
  }
}

/* The same between planes of different strides. */
__kernel void
plane_copy (__global const uchar * src, int src_stride, __global uchar * dst,
    int dst_stride, int row_bytes)
{
  int x = get_global_id (0) * CHUNK, y = get_global_id (1);
  __global const uchar *s = src + y * src_stride + x;
  __global uchar *d = dst + y * dst_stride + x;

  if (x + CHUNK <= row_bytes && (((size_t) s | (size_t) d) & (CHUNK - 1)) == 0) {
    *(__global uchar16 *) d = *(__global const uchar16 *) s;
  } else {
    for (int i = 0; i < CHUNK && x + i < row_bytes; i++)
      d[i] = s[i];
  }
}

/* Packed 4:2:2 (YUY2, UYVY, YVYU) to and from the planes of Y42B that the
 * elements' kernels take. A macropixel is 4 bytes: two luma samples at
 * @y_offset and @y_offset + 2 (0 or 1), U at @u_offset and V at @v_offset.
 * A work-item takes 4 macropixels, 16 bytes, in one load and one store
 * each way where they are all in the row, one macropixel at a time at its
 * end. A row of an odd @width ends in a macropixel with a second luma
 * sample beyond the picture: unpacking leaves it out, packing writes the
 * last luma of the row there again. */
#define MACROS 4

__kernel void
plane_unpack_422 (__global const uchar * src, int src_stride,
    __global uchar * y, int y_stride, __global uchar * u, int u_stride,
    __global uchar * v, int v_stride, int width, int y_offset, int u_offset,
    int v_offset)
{
  int m = get_global_id (0) * MACROS, row = get_global_id (1);
  int macros = (width + 1) / 2;
  __global const uchar *s = src + row * src_stride + m * 4;
  __global uchar *yd = y + row * y_stride + m * 2;
  __global uchar *ud = u + row * u_stride + m;
  __global uchar *vd = v + row * v_stride + m;

  if ((m + MACROS) * 2 <= width) {
    uchar16 p = vload16 (0, s);
    uchar8 luma = y_offset ? p.odd : p.even;
    uchar8 chroma = y_offset ? p.even : p.odd;
    /* chroma holds the macropixels' first and second chroma bytes in turn */
    uchar4 first = chroma.even, second = chroma.odd;

    vstore8 (luma, 0, yd);
    vstore4 (u_offset < v_offset ? first : second, 0, ud);
    vstore4 (u_offset < v_offset ? second : first, 0, vd);
    return;
  }
  for (int i = 0; i < MACROS && m + i < macros; i++) {
    __global const uchar *q = s + i * 4;

    yd[2 * i] = q[y_offset];
    if ((m + i) * 2 + 1 < width)
      yd[2 * i + 1] = q[y_offset + 2];
    ud[i] = q[u_offset];
    vd[i] = q[v_offset];
  }
}

__kernel void
plane_pack_422 (__global const uchar * y, int y_stride,
    __global const uchar * u, int u_stride, __global const uchar * v,
    int v_stride, __global uchar * dst, int dst_stride, int width,
    int y_offset, int u_offset, int v_offset)
{
  int m = get_global_id (0) * MACROS, row = get_global_id (1);
  int macros = (width + 1) / 2;
  __global const uchar *ys = y + row * y_stride + m * 2;
  __global const uchar *us = u + row * u_stride + m;
  __global const uchar *vs = v + row * v_stride + m;
  __global uchar *d = dst + row * dst_stride + m * 4;

  if ((m + MACROS) * 2 <= width) {
    uchar8 luma = vload8 (0, ys);
    uchar4 cu = vload4 (0, us), cv = vload4 (0, vs);
    uchar4 first = u_offset < v_offset ? cu : cv;
    uchar4 second = u_offset < v_offset ? cv : cu;
    uchar8 chroma = (uchar8) (first.s0, second.s0, first.s1, second.s1,
        first.s2, second.s2, first.s3, second.s3);
    uchar8 a = y_offset ? chroma : luma, b = y_offset ? luma : chroma;

    vstore16 ((uchar16) (a.s0, b.s0, a.s1, b.s1, a.s2, b.s2, a.s3, b.s3,
            a.s4, b.s4, a.s5, b.s5, a.s6, b.s6, a.s7, b.s7), 0, d);
    return;
  }
  for (int i = 0; i < MACROS && m + i < macros; i++) {
    __global uchar *q = d + i * 4;
    int x = (m + i) * 2;

    q[y_offset] = ys[2 * i];
    q[y_offset + 2] = ys[x + 1 < width ? 2 * i + 1 : 2 * i];
    q[u_offset] = us[i];
    q[v_offset] = vs[i];
  }
}
