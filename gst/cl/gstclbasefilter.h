/* gstclfilters: abstract base class of the single-input OpenCL filters
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "gstclcontext.h"
#include "gstclcore.h"
#include "gstclframe.h"
#include "gstclkernel.h"
#include "gstclqueue.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_BASE_FILTER (gst_cl_base_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstClBaseFilter, gst_cl_base_filter, GST,
    CL_BASE_FILTER, GstBaseTransform)

/**
 * GstClBaseFilterClass:
 * @set_info: the caps are negotiated; prepare for frames of @in_info (as
 *   the kernels see them: packed 4:2:2 as Y42B, see
 *   gst_cl_video_info_kernel_view())
 * @is_passthrough: whether the current properties leave frames unchanged;
 *   asked before every frame, after the controlled values are synced
 * @dispatch: enqueue the kernels that compute @out from @in. @in and @out are
 *   device buffers, one per plane; the base class waits for them and moves
 *   them between host and device.
 * @analyse: instead of @dispatch, for an element that passes the video
 *   through and only reads it: compute from @in and attach the results to
 *   @buffer, the (writable) buffer going downstream. The subclass makes its
 *   instances in-place with gst_base_transform_set_in_place().
 *
 * An element only declares its formats, its properties and its kernels.
 */
struct _GstClBaseFilterClass
{
  GstBaseTransformClass parent_class;

  gboolean (*set_info)       (GstClBaseFilter * filter,
                              const GstVideoInfo * in_info,
                              const GstVideoInfo * out_info,
                              GError ** error);
  gboolean (*is_passthrough) (GstClBaseFilter * filter);
  gboolean (*dispatch)       (GstClBaseFilter * filter,
                              const GstClFrame * in,
                              const GstClFrame * out,
                              GError ** error);
  gboolean (*analyse)        (GstClBaseFilter * filter,
                              const GstClFrame * in,
                              GstBuffer * buffer,
                              GError ** error);

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING];
};

void           gst_cl_base_filter_class_add_pad_templates (GstClBaseFilterClass * klass,
                                                           const gchar * caps);

GstClCore *    gst_cl_base_filter_get_core (GstClBaseFilter * filter);

GstClContext * gst_cl_base_filter_get_context (GstClBaseFilter * filter);

GstClQueue *   gst_cl_base_filter_get_queue (GstClBaseFilter * filter);

gboolean       gst_cl_base_filter_enqueue_kernel (GstClBaseFilter * filter,
                                                  cl_kernel kernel,
                                                  guint dims,
                                                  const gsize * global,
                                                  const gsize * local,
                                                  GError ** error);

GstClVariant   gst_cl_base_filter_get_variant (GstClBaseFilter * filter);

cl_kernel      gst_cl_base_filter_get_kernel (GstClBaseFilter * filter,
                                              const gchar * source,
                                              const gchar * options,
                                              const gchar * name,
                                              GError ** error);

cl_mem         gst_cl_base_filter_get_scratch (GstClBaseFilter * filter,
                                               guint slot, gsize size,
                                               GError ** error);

gboolean       gst_cl_base_filter_read_scratch (GstClBaseFilter * filter,
                                                guint slot, gsize size,
                                                gpointer dest,
                                                GError ** error);

gboolean       gst_cl_base_filter_read_poll (GstClBaseFilter * filter,
                                             gboolean * arrived);

gboolean       gst_cl_base_filter_copy_plane (GstClBaseFilter * filter,
                                              const GstClPlane * src,
                                              const GstClPlane * dst,
                                              GError ** error);

gboolean       gst_cl_base_filter_fill_plane (GstClBaseFilter * filter,
                                              const GstClPlane * plane,
                                              guint8 value, GError ** error);

gboolean       gst_cl_base_filter_process (GstClBaseFilter * filter,
                                           const GstClFrame * in,
                                           const GstClFrame * out,
                                           GError ** error);

G_END_DECLS
