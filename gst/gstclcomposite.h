/* gstclfilters: clcomposite, an overlay over a background
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

#include "cl/gstclaggregator.h"

G_BEGIN_DECLS

/**
 * GstClCompositeOperator:
 * @GST_CL_COMPOSITE_OPERATOR_BLEND: alpha A + (1 - alpha) B where the
 *   overlay covers the background
 * @GST_CL_COMPOSITE_OPERATOR_OVER: the overlay weighted by (1 - alpha) times
 *   its own alpha; the background's alpha is kept
 */
typedef enum
{
  GST_CL_COMPOSITE_OPERATOR_BLEND,
  GST_CL_COMPOSITE_OPERATOR_OVER,
} GstClCompositeOperator;

#define GST_TYPE_CL_COMPOSITE_OPERATOR (gst_cl_composite_operator_get_type ())
GType gst_cl_composite_operator_get_type (void);

#define GST_TYPE_CL_COMPOSITE_PAD (gst_cl_composite_pad_get_type ())
G_DECLARE_FINAL_TYPE (GstClCompositePad, gst_cl_composite_pad, GST,
    CL_COMPOSITE_PAD, GstClAggregatorPad)

#define GST_TYPE_CL_COMPOSITE (gst_cl_composite_get_type ())
G_DECLARE_FINAL_TYPE (GstClComposite, gst_cl_composite, GST, CL_COMPOSITE,
    GstClAggregator)

GST_ELEMENT_REGISTER_DECLARE (clcomposite);

G_END_DECLS
