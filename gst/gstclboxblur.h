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

G_END_DECLS
