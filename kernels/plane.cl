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
