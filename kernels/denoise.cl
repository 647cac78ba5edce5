/* gstclfilters: cldenoise, a camera's noise reduced over time and space
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * docs/cldenoise.md gives the formulas; every step is integer arithmetic,
 * so that the C reference (tests/test_denoise.c) gives the same bytes.
 *
 * denoise_plane: one sample a work-item, of a plane of @pwidth pixels of
 * @pstride interleaved channels (NV12's UV: 2), each channel on its own
 * grid, edges replicated. The state and the counts, at @state_at and
 * @count_at in @kept, @width x @height bytes each (rows of @width = pwidth
 * * pstride samples), hold the last output and how many frames each sample
 * has been still; @first starts them afresh.
 *
 * denoise_histogram: the histogram of min (|L|, 255), L the 3 x 3
 * Laplacian-like response [1 -2 1; -2 4 -2; 1 -2 1] of the luma, over every
 * 4th sample of every 4th row from (1, 1), off the frame's border (a
 * work-item each); @hist holds 256 counts, zeroed first.
 */

#define CMAX 31

__kernel void
denoise_plane (__global const uchar * in, int in_stride,
    __global uchar * out, int out_stride, __global uchar * kept,
    int state_at, int count_at, int pwidth, int pstride, int height,
    int s16, int first)
{
  __global uchar *state = kept + state_at, *count = kept + count_at;
  int x = get_global_id (0), y = get_global_id (1);
  int width = pwidth * pstride;
  int px, ch, X, B = 0, sum = 0, cnt = 0, te, S, O, c, i;

  if (x >= width || y >= height)
    return;
  px = x / pstride;
  ch = x - px * pstride;
  X = in[y * in_stride + x];
  te = (2 * s16 + 8) >> 4;
  for (int dy = -1; dy <= 1; dy++) {
    int row = clamp (y + dy, 0, height - 1) * in_stride;

    for (int dx = -1; dx <= 1; dx++) {
      int n = in[row + clamp (px + dx, 0, pwidth - 1) * pstride + ch];

      B += n;
      if (abs (n - X) <= te) {
        sum += n;
        cnt++;
      }
    }
  }
  S = (2 * sum + cnt) / (2 * cnt);
  i = y * width + x;
  if (first) {
    O = S;
    c = 0;
  } else {
    int prev = state[i], A = abs (9 * prev - B);

    c = count[i];
    c = A <= (9 * s16 + 8) >> 4 ? min (c + 1, CMAX) :
        A <= (15 * s16 + 8) >> 4 ? c >> 1 : 0;
    O = (c * prev + S + (c + 1) / 2) / (c + 1);
  }
  out[y * out_stride + x] = O;
  state[i] = O;
  count[i] = c;
}

__kernel void
denoise_histogram (__global const uchar * in, int stride, int width,
    int height, __global uint * hist)
{
  __local uint h[256];
  int lid = get_local_id (1) * get_local_size (0) + get_local_id (0);
  int lsize = get_local_size (0) * get_local_size (1);
  int x = 1 + 4 * get_global_id (0), y = 1 + 4 * get_global_id (1);

  for (int b = lid; b < 256; b += lsize)
    h[b] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  if (x < width - 1 && y < height - 1) {
    __global const uchar *p = in + y * stride + x;
    int l = p[-stride - 1] + p[-stride + 1] + p[stride - 1] + p[stride + 1]
        - 2 * (p[-stride] + p[stride] + p[-1] + p[1]) + 4 * p[0];

    atomic_inc (&h[min (abs (l), 255u)]);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 256; b += lsize)
    if (h[b])
      atomic_add (&hist[b], h[b]);
}
