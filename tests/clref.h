/* gstclfilters tests: plain C reference implementations, the only oracle
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One plane of @width x @height pixels of @pstride interleaved channels. */
typedef struct
{
  const guint8 *data;
  gint stride;
  gint width;
  gint height;
  gint pstride;
} ClRefPlane;

static inline guint8
cl_ref_sample (const ClRefPlane * p, gint x, gint y, gint c)
{
  x = CLAMP (x, 0, p->width - 1);
  y = CLAMP (y, 0, p->height - 1);
  return p->data[(gsize) y * p->stride + (gsize) x * p->pstride + c];
}

/* the values of clsobel's mode property */
typedef enum
{
  CL_REF_SOBEL_L1,
  CL_REF_SOBEL_L2,
  CL_REF_SOBEL_X,
  CL_REF_SOBEL_Y,
} ClRefSobelMode;

void cl_ref_boxblur (const ClRefPlane * in, guint8 * out, gint out_stride,
                     guint diameter);

void cl_ref_sobel   (const ClRefPlane * in, guint8 * out, gint out_stride,
                     ClRefSobelMode mode);

void cl_ref_epsilon (const ClRefPlane * in, guint8 * out, gint out_stride,
                     guint threshold, guint diameter);

gint cl_ref_nearest (gint i, gint src, gint dst);

gint cl_ref_composite (gint a, gint b, gint alpha_b, gdouble alpha,
                      gint gamma, gboolean over, gboolean is_alpha);

G_END_DECLS
