/* gstclfilters tests: plain C reference implementations, the only oracle
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written for clarity, straight from the formulas of each element's page
 * (docs/cl<name>.md), never for speed.
 */
#include "clref.h"

#include <math.h>
#include <stdlib.h>

/* SPEC: out = floor ((S + n/2) / n), S the sum of the d x d clamped
 * neighbourhood, n = d * d; an even diameter is the next odd one.
 * S = sum over dx of (sum over dy of p (clamp (x + dx), clamp (y + dy))):
 * the column sums of the window's rows first, then d of them along the
 * row, the same integers as the double sum, at d operations a pixel
 * instead of d * d (the suites check diameters up to 255). */
void
cl_ref_boxblur (const ClRefPlane * in, guint8 * out, gint out_stride,
    guint diameter)
{
  gint r = diameter / 2;
  guint n = (2 * r + 1) * (2 * r + 1);
  guint *column = g_new (guint, in->width);

  for (gint c = 0; c < in->pstride; c++)
    for (gint y = 0; y < in->height; y++) {
      for (gint x = 0; x < in->width; x++) {
        column[x] = 0;
        for (gint dy = -r; dy <= r; dy++)
          column[x] += cl_ref_sample (in, x, y + dy, c);
      }
      for (gint x = 0; x < in->width; x++) {
        guint sum = 0;

        for (gint dx = -r; dx <= r; dx++)
          sum += column[CLAMP (x + dx, 0, in->width - 1)];
        out[(gsize) y * out_stride + (gsize) x * in->pstride + c] =
            (sum + n / 2) / n;
      }
    }
  g_free (column);
}

/* SPEC: gx = [-1 0 1; -2 0 2; -1 0 1] * Y, gy its transpose, clamped. */
static void
sobel_gradient (const ClRefPlane * in, gint x, gint y, gint * gx, gint * gy)
{
  static const gint kx[3][3] = { {-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1} };

  *gx = *gy = 0;
  for (gint j = 0; j < 3; j++)
    for (gint i = 0; i < 3; i++) {
      gint p = cl_ref_sample (in, x + i - 1, y + j - 1, 0);

      *gx += kx[j][i] * p;
      *gy += kx[i][j] * p;
    }
}

/* SPEC: l1 min (255, |gx| + |gy|), l2 min (255, floor (sqrt (gx^2 + gy^2) +
 * 0.5)), x min (255, |gx|), y min (255, |gy|). The double square root of an
 * integer below 2^22 is never within 1e-4 of a half-integer it is not, so
 * the floor is exact. */
static guint8
sobel_magnitude (gint gx, gint gy, ClRefSobelMode mode)
{
  gint m = 0;

  switch (mode) {
    case CL_REF_SOBEL_L1:
      m = abs (gx) + abs (gy);
      break;
    case CL_REF_SOBEL_L2:
      m = (gint) floor (sqrt ((double) (gx * gx + gy * gy)) + 0.5);
      break;
    case CL_REF_SOBEL_X:
      m = abs (gx);
      break;
    case CL_REF_SOBEL_Y:
      m = abs (gy);
      break;
  }
  return MIN (m, 255);
}

/* The luma plane @in (pstride 1) of clsobel's output. */
void
cl_ref_sobel (const ClRefPlane * in, guint8 * out, gint out_stride,
    ClRefSobelMode mode)
{
  for (gint y = 0; y < in->height; y++)
    for (gint x = 0; x < in->width; x++) {
      gint gx, gy;

      sobel_gradient (in, x, y, &gx, &gy);
      out[(gsize) y * out_stride + x] = sobel_magnitude (gx, gy, mode);
    }
}

/* SPEC: P = the pixels p of the d x d clamped window with |p - c| <=
 * threshold, out = floor ((sum (P) + |P|/2) / |P|); an even diameter is the
 * next odd one. For the luma plane @in (pstride 1). */
void
cl_ref_epsilon (const ClRefPlane * in, guint8 * out, gint out_stride,
    guint threshold, guint diameter)
{
  gint r = diameter / 2;

  for (gint y = 0; y < in->height; y++)
    for (gint x = 0; x < in->width; x++) {
      gint c = cl_ref_sample (in, x, y, 0);
      guint sum = 0, n = 0;

      for (gint dy = -r; dy <= r; dy++)
        for (gint dx = -r; dx <= r; dx++) {
          gint p = cl_ref_sample (in, x + dx, y + dy, 0);

          if ((guint) abs (p - c) <= threshold) {
            sum += p;
            n++;
          }
        }
      out[(gsize) y * out_stride + x] = (sum + n / 2) / n;
    }
}

/* SPEC: of a picture of @src pixels scaled to @dst, nearest neighbour,
 * pixel @i (0 <= i < dst) is the source's floor ((2 i + 1) src / (2 dst)):
 * the one under its centre. */
gint
cl_ref_nearest (gint i, gint src, gint dst)
{
  return (gint) (((2 * (gint64) i + 1) * src) / (2 * (gint64) dst));
}

/* SPEC: clcomposite's output where the overlay covers the background, for
 * a channel of background value @a and overlay value @b, @alpha_b the
 * overlay's alpha (255 in formats without), @alpha sink_1's, @gamma the
 * channel's g (0 for alpha and chroma):
 *   blend: clamp (floor ((1 - alpha) a + alpha b + g + 0.5))
 *   over: w = alpha alpha_b / 255, clamp (floor (w b + (1 - w) a + g + 0.5)),
 *     a itself for the alpha channel (@is_alpha)
 * In doubles: the element computes in floats, within 1 of this. */
gint
cl_ref_composite (gint a, gint b, gint alpha_b, gdouble alpha, gint gamma,
    gboolean over, gboolean is_alpha)
{
  gdouble v;

  if (over && is_alpha)
    return a;
  if (over) {
    gdouble w = alpha * alpha_b / 255.0;

    v = floor (w * b + (1.0 - w) * a + gamma + 0.5);
  } else {
    v = floor ((1.0 - alpha) * a + alpha * b + gamma + 0.5);
  }
  return (gint) CLAMP (v, 0, 255);
}
