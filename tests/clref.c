/* gstclfilters tests: plain C reference implementations, the only oracle
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written for clarity, straight from SPEC.md, never for speed.
 */
#include "clref.h"

/* SPEC: out = floor ((S + n/2) / n), S the sum of the d x d clamped
 * neighbourhood, n = d * d; an even diameter is the next odd one. */
void
cl_ref_boxblur (const ClRefPlane * in, guint8 * out, gint out_stride,
    guint diameter)
{
  gint r = diameter / 2;
  guint n = (2 * r + 1) * (2 * r + 1);

  for (gint y = 0; y < in->height; y++)
    for (gint x = 0; x < in->width; x++)
      for (gint c = 0; c < in->pstride; c++) {
        guint sum = 0;

        for (gint dy = -r; dy <= r; dy++)
          for (gint dx = -r; dx <= r; dx++)
            sum += cl_ref_sample (in, x + dx, y + dy, c);
        out[(gsize) y * out_stride + (gsize) x * in->pstride + c] =
            (sum + n / 2) / n;
      }
}
