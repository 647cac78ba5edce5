/* gstclfilters: clintegral, the integral image of the luma as buffer meta
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "cl/gstclbasefilter.h"

G_BEGIN_DECLS

/**
 * GST_CL_INTEGRAL_META_NAME:
 *
 * The name of the #GstCustomMeta that clintegral attaches to every buffer:
 * get it with gst_buffer_get_custom_meta().
 */
#define GST_CL_INTEGRAL_META_NAME "GstClIntegralMeta"

#define GST_TYPE_CL_INTEGRAL (gst_cl_integral_get_type ())
G_DECLARE_FINAL_TYPE (GstClIntegral, gst_cl_integral, GST, CL_INTEGRAL,
    GstClBaseFilter)

GST_ELEMENT_REGISTER_DECLARE (clintegral);

G_END_DECLS
