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
