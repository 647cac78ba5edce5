/* gstclfilters: subgroup and work-group-collective formulations of the
 * filters, measured against the CPU kernels by tests/subgroups-bench.c
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Not part of the plugin. Build options: SG, the required subgroup size
 * (cl_intel_required_subgroup_size); RADIUS (d = 2 RADIUS + 1); ROWS, the
 * outputs of one work-item down a column (epsilon); PLAIN, the same kernels
 * with ordinary loads in place of the subgroup operations, to tell the two
 * apart; WG_SCAN (with -cl-std=CL2.0), the work-group scans only.
 */

#ifndef WG_SCAN

#define SG_SIZE __attribute__ ((intel_reqd_sub_group_size (SG)))

/* Box blur, after Intel's article on its subgroup extensions: a subgroup
 * takes 4 rows of 4 SG RGBA pixels, work-item l the pixels l, l + SG,
 * l + 2 SG and l + 3 SG of each row, as the block reads give them. The
 * window is summed whole, d x d reads of a block per row of outputs; the
 * bytes R, B and G, A in pairs of 16-bit sums (d^2 255 < 2^16 to d = 15). */
#ifdef PLAIN
#define READ4(p) ((uint4) ((p)[lid], (p)[lid + SG], (p)[lid + 2 * SG], \
        (p)[lid + 3 * SG]))
#define WRITE4(p, v) do { (p)[lid] = (v).s0; (p)[lid + SG] = (v).s1; \
    (p)[lid + 2 * SG] = (v).s2; (p)[lid + 3 * SG] = (v).s3; } while (0)
#else
#define READ4(p) intel_sub_group_block_read4 (p)
#define WRITE4(p, v) intel_sub_group_block_write4 (p, v)
#endif
#define AT(dx, k) row[clamp (xb + lid + (k) * SG + (dx), 0, width - 1)]

__kernel SG_SIZE void
boxblur_blocks (__global const uint * src, __global uint * dst, int width,
    int height)
{
  int lid = get_sub_group_local_id ();
  int xb = (get_global_id (0) - lid) * 4, y0 = get_global_id (1) * 4;
  int inside = xb >= RADIUS && xb + 4 * SG + RADIUS <= width;
  uint n = (2 * RADIUS + 1) * (2 * RADIUS + 1);

  for (int oy = 0; oy < 4; oy++) {
    uint4 lo = 0, hi = 0, v;

    for (int dy = -RADIUS; dy <= RADIUS; dy++) {
      const __global uint *row =
          src + clamp (y0 + oy + dy, 0, height - 1) * width;

      for (int dx = -RADIUS; dx <= RADIUS; dx++) {
        if (inside)
          v = READ4 (row + xb + dx);
        else
          v = (uint4) (AT (dx, 0), AT (dx, 1), AT (dx, 2), AT (dx, 3));
        lo += v & 0x00ff00ffu;
        hi += (v >> 8) & 0x00ff00ffu;
      }
    }
    lo = ((lo & 0xffff) + n / 2) / n | ((lo >> 16) + n / 2) / n << 16;
    hi = ((hi & 0xffff) + n / 2) / n | ((hi >> 16) + n / 2) / n << 16;
    if (y0 + oy < height)
      WRITE4 (dst + (y0 + oy) * width + xb, lo | hi << 8);
  }
}

/* Integral image, rows: one subgroup a row, SG pixels a step, the carry
 * from the step before broadcast from the last work-item. */
__kernel SG_SIZE void
integral_rows_sg (__global const uchar * src, int src_stride,
    __global uint * dst, int pitch, int width)
{
  int y = get_global_id (1), lid = get_sub_group_local_id ();
  uint carry = 0;

  for (int x0 = 0; x0 < width; x0 += SG) {
    int x = x0 + lid;
    uint s = sub_group_scan_inclusive_add (x < width ?
        (uint) src[y * src_stride + x] : 0u) + carry;

    if (x < width)
      dst[y * pitch + x] = s;
    carry = sub_group_broadcast (s, SG - 1);
  }
}

/* the same, 4 pixels a work-item (4 SG a step): each work-item's own prefix
 * sums, then one exclusive scan of their totals; width a multiple of 4 */
__kernel SG_SIZE void
integral_rows_sg4 (__global const uchar * src, int src_stride,
    __global uint * dst, int pitch, int width)
{
  int y = get_global_id (1), lid = get_sub_group_local_id ();
  uint carry = 0;

  for (int x0 = 0; x0 < width; x0 += 4 * SG) {
    int x = x0 + 4 * lid;
    uint4 p = x < width ? convert_uint4 (vload4 (0, src + y * src_stride +
            x)) : (uint4) 0;
    uint before;

    p.s1 += p.s0;
    p.s2 += p.s1;
    p.s3 += p.s2;
    before = sub_group_scan_exclusive_add (p.s3) + carry;
    if (x < width)
      vstore4 (p + before, 0, dst + y * pitch + x);
    carry = sub_group_broadcast (before + p.s3, SG - 1);
  }
}

/* Epsilon filter (its formula in kernels/epsilon.cl), the luma plane: a
 * work-item a column, ROWS outputs down it; each source row is read once a
 * work-item (three loads: the subgroup's SG pixels and those on either
 * side), its d neighbours along the row shuffled in from the work-items
 * around. Sum and count in one accumulator, 256 sum + count. */
#ifdef ROWS
#ifdef PLAIN
#define NEIGHBOUR(dx) ((uint) row[clamp (x + (dx), 0, width - 1)])
#else
#define NEIGHBOUR(dx) ((dx) < 0 ? \
    intel_sub_group_shuffle_up (prev, cur, (uint) -(dx)) : \
    intel_sub_group_shuffle_down (cur, next, (uint) (dx)))
#endif

__kernel SG_SIZE void
epsilon_rows (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int width, int height,
    uint threshold)
{
  int x = get_global_id (0), y0 = get_global_id (1) * ROWS;
  uint centre[ROWS], acc[ROWS];

  for (int j = 0; j < ROWS; j++) {
    centre[j] = src[min (y0 + j, height - 1) * src_stride + min (x,
            width - 1)];
    acc[j] = 0;
  }
  for (int sy = -RADIUS; sy < ROWS + RADIUS; sy++) {
    const __global uchar *row = src + clamp (y0 + sy, 0, height - 1) *
        src_stride;
#ifndef PLAIN
    uint prev = row[max (x - SG, 0)], cur = row[min (x, width - 1)];
    uint next = row[min (x + SG, width - 1)];
#endif

    for (int dx = -RADIUS; dx <= RADIUS; dx++) {
      uint p = NEIGHBOUR (dx), taken = (p << 8) + 1;

      for (int j = 0; j < ROWS; j++)
        if (sy - j >= -RADIUS && sy - j <= RADIUS)
          acc[j] += abs_diff (p, centre[j]) <= threshold ? taken : 0;
    }
  }
  for (int j = 0; j < ROWS; j++) {
    uint sum = acc[j] >> 8, n = acc[j] & 0xff;

    if (x < width && y0 + j < height)
      dst[(y0 + j) * dst_stride + x] = (uchar) ((sum + n / 2) / n);
  }
}
#endif /* ROWS */

#else /* WG_SCAN */

/* Integral image, rows, with OpenCL C 2.0's collectives: one work-group a
 * row, its size a step. */
__kernel void
integral_rows_wg (__global const uchar * src, int src_stride,
    __global uint * dst, int pitch, int width)
{
  int y = get_global_id (1), lid = get_local_id (0), l = get_local_size (0);
  uint carry = 0;

  for (int x0 = 0; x0 < width; x0 += l) {
    int x = x0 + lid;
    uint s = work_group_scan_inclusive_add (x < width ?
        (uint) src[y * src_stride + x] : 0u) + carry;

    if (x < width)
      dst[y * pitch + x] = s;
    carry = work_group_broadcast (s, l - 1);
  }
}

#endif /* WG_SCAN */

/* Integral image, the plain passes every variant shares or is measured
 * against: a work-item sums a row (kernels/integral.cl's reference rows),
 * then the columns four at a time (its integral_cols4, width a multiple of
 * 4 here). */
__kernel void
integral_rows_plain (__global const uchar * src, int src_stride,
    __global uint * dst, int pitch, int width)
{
  int y = get_global_id (0);
  uint acc = 0;

  for (int x = 0; x < width; x++) {
    acc += src[y * src_stride + x];
    dst[y * pitch + x] = acc;
  }
}

__kernel void
integral_cols4 (__global uint * dst, int pitch, int height)
{
  int x0 = get_global_id (0) * 4;
  uint4 acc = 0;

  for (int y = 0; y < height; y++) {
    acc += vload4 (0, dst + y * pitch + x0);
    vstore4 (acc, 0, dst + y * pitch + x0);
  }
}
