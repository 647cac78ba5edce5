/* gstclfilters: abstract base class of the OpenCL mixers
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

#include "gstclcore.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_AGGREGATOR_PAD (gst_cl_aggregator_pad_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstClAggregatorPad, gst_cl_aggregator_pad, GST,
    CL_AGGREGATOR_PAD, GstVideoAggregatorPad)

/**
 * GstClAggregatorPadClass:
 *
 * An input of a #GstClAggregator: its frames go to the device as they are,
 * never mapped by GstVideoAggregator.
 */
struct _GstClAggregatorPadClass
{
  GstVideoAggregatorPadClass parent_class;

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING];
};

#define GST_TYPE_CL_AGGREGATOR (gst_cl_aggregator_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstClAggregator, gst_cl_aggregator, GST,
    CL_AGGREGATOR, GstVideoAggregator)

/**
 * GstClAggregatorClass:
 * @dispatch: enqueue the kernels that compute @out from @inputs, a frame on
 *   the device for each sink pad in the pads' order (%NULL for a pad
 *   without a frame this time); @info is the output's format and size,
 *   as the kernels see them (packed 4:2:2 as Y42B, see
 *   gst_cl_video_info_kernel_view())
 * @prebuild: (nullable): at READY to PAUSED, before any caps, start
 *   building in the background the programs the element will need
 *   whatever the caps (gst_cl_program_ready())
 *
 * A mixer declares its pads, its properties and its kernels. Every input
 * and the output share one format (the kernels do not convert); the
 * output takes the first input's size, framerate and pixel aspect ratio
 * where downstream leaves them open.
 */
struct _GstClAggregatorClass
{
  GstVideoAggregatorClass parent_class;

  gboolean (*dispatch) (GstClAggregator * agg, const GstVideoInfo * info,
                        const GstClFrame * const * inputs,
                        const GstClFrame * out, GError ** error);
  void     (*prebuild) (GstClAggregator * agg, GstClContext * ctx);

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING];
};

void           gst_cl_aggregator_class_add_pad_templates (GstClAggregatorClass * klass,
                                                          const gchar * caps,
                                                          guint n_inputs,
                                                          const GType * pad_types);

GstClCore *    gst_cl_aggregator_get_core (GstClAggregator * agg);

GstClAggregatorPad * gst_cl_aggregator_get_pad (GstClAggregator * agg,
                                                guint index);

gboolean       gst_cl_aggregator_process (GstClAggregator * agg,
                                          const GstVideoInfo * info,
                                          const GstClFrame * const * inputs,
                                          const GstClFrame * out,
                                          GError ** error);

G_END_DECLS
