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
 * @GST_CL_COMPOSITE_OPERATOR_BLEND: (1 - alpha) A + alpha B where the
 *   overlay covers the background, alpha the overlay pad's
 * @GST_CL_COMPOSITE_OPERATOR_OVER: the overlay weighted by its pad's alpha
 *   times its own alpha; the background's alpha is kept
 */
typedef enum
{
  GST_CL_COMPOSITE_OPERATOR_BLEND,
  GST_CL_COMPOSITE_OPERATOR_OVER,
} GstClCompositeOperator;

#define GST_TYPE_CL_COMPOSITE_OPERATOR (gst_cl_composite_operator_get_type ())
GType gst_cl_composite_operator_get_type (void);

/* sink_0: no property of its own */
#define GST_TYPE_CL_COMPOSITE_BACKGROUND_PAD \
    (gst_cl_composite_background_pad_get_type ())
G_DECLARE_FINAL_TYPE (GstClCompositeBackgroundPad,
    gst_cl_composite_background_pad, GST, CL_COMPOSITE_BACKGROUND_PAD,
    GstClAggregatorPad)

/* sink_1: alpha, xpos, ypos, width, height */
#define GST_TYPE_CL_COMPOSITE_OVERLAY_PAD \
    (gst_cl_composite_overlay_pad_get_type ())
G_DECLARE_FINAL_TYPE (GstClCompositeOverlayPad, gst_cl_composite_overlay_pad,
    GST, CL_COMPOSITE_OVERLAY_PAD, GstClAggregatorPad)

#define GST_TYPE_CL_COMPOSITE (gst_cl_composite_get_type ())
G_DECLARE_FINAL_TYPE (GstClComposite, gst_cl_composite, GST, CL_COMPOSITE,
    GstClAggregator)

GST_ELEMENT_REGISTER_DECLARE (clcomposite);

G_END_DECLS
