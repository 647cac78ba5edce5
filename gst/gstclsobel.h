/* gstclfilters: clsobel, the Sobel gradient magnitude of the luma
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "cl/gstclbasefilter.h"

G_BEGIN_DECLS

/**
 * GstClSobelMode:
 * @GST_CL_SOBEL_MODE_L1: |gx| + |gy|
 * @GST_CL_SOBEL_MODE_L2: sqrt (gx^2 + gy^2), rounded
 * @GST_CL_SOBEL_MODE_X: |gx|, the horizontal gradient
 * @GST_CL_SOBEL_MODE_Y: |gy|, the vertical gradient
 *
 * What clsobel outputs, saturated to 255.
 */
typedef enum
{
  GST_CL_SOBEL_MODE_L1,
  GST_CL_SOBEL_MODE_L2,
  GST_CL_SOBEL_MODE_X,
  GST_CL_SOBEL_MODE_Y,
} GstClSobelMode;

#define GST_TYPE_CL_SOBEL_MODE (gst_cl_sobel_mode_get_type ())
GType gst_cl_sobel_mode_get_type (void);

#define GST_TYPE_CL_SOBEL (gst_cl_sobel_get_type ())
G_DECLARE_FINAL_TYPE (GstClSobel, gst_cl_sobel, GST, CL_SOBEL, GstClBaseFilter)

GST_ELEMENT_REGISTER_DECLARE (clsobel);

G_END_DECLS
