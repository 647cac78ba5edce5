/* gstclfilters: clboxblur, a d x d mean filter
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "cl/gstclbasefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_BOX_BLUR (gst_cl_box_blur_get_type ())
G_DECLARE_FINAL_TYPE (GstClBoxBlur, gst_cl_box_blur, GST, CL_BOX_BLUR,
    GstClBaseFilter)

GST_ELEMENT_REGISTER_DECLARE (clboxblur);

void gst_cl_box_blur_divisor (guint n, guint * magic, guint * shift);

/* the largest diameter boxblur_band (kernels/boxblur.cl) divides by in
 * single precision; beyond, it multiplies by gst_cl_box_blur_divisor()'s */
#define GST_CL_BOX_BLUR_BAND_FLOAT_MAX_DIAMETER 31

G_END_DECLS
