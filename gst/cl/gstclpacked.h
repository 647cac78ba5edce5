/* gstclfilters: packed 4:2:2 frames, as their planes
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstclframe.h"

G_BEGIN_DECLS
/**
 * GstClPacked:
 *
 * The kernels that unpack a frame of packed 4:2:2 (YUY2, UYVY, YVYU) into
 * its kernel view's planes (gst_cl_video_info_kernel_view()) and pack them
 * back: made with the caps (gst_cl_packed_prepare()), so that a frame pass
 * only runs them. Cleared with gst_cl_packed_clear().
 */
    typedef struct
{
  cl_kernel unpack;
  cl_kernel pack;
} GstClPacked;

gboolean gst_cl_packed_prepare (GstClPacked * packed, GstClContext * ctx,
    const GstVideoInfo * info, GError ** error);

void gst_cl_packed_clear (GstClPacked * packed);

gboolean gst_cl_packed_convert (GstClPacked * packed, GstClQueue * queue,
    const GstVideoInfo * info,
    const GstClPlane * plane,
    GstClStaging * staging, GstClFrame * planar, GError ** error);

G_END_DECLS
