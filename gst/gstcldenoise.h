/* gstclfilters: cldenoise, a camera's noise reduced over time and space
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "cl/gstclbasefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_DENOISE (gst_cl_denoise_get_type ())
G_DECLARE_FINAL_TYPE (GstClDenoise, gst_cl_denoise, GST, CL_DENOISE,
    GstClBaseFilter)

GST_ELEMENT_REGISTER_DECLARE (cldenoise);

G_END_DECLS
