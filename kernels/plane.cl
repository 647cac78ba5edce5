/* gstclfilters: whole-plane kernels of the core
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Sets one byte per work-item; the global size covers the pixels of each
 * row, not its padding. */
__kernel void
plane_fill (__global uchar * dst, int stride, int value)
{
  dst[get_global_id (1) * stride + get_global_id (0)] = (uchar) value;
}

/* Copies one byte per work-item between planes of different strides. */
__kernel void
plane_copy (__global const uchar * src, int src_stride, __global uchar * dst,
    int dst_stride)
{
  int x = get_global_id (0), y = get_global_id (1);

  dst[y * dst_stride + x] = src[y * src_stride + x];
}
