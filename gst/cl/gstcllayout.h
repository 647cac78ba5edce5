/* gstclfilters: a buffer's frame as its metas lay it out
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

gboolean                 gst_cl_buffer_holds_frame (const GstVideoInfo * info,
                                                    GstBuffer * buffer,
                                                    GError ** error);

const GstVideoCropMeta * gst_cl_buffer_input_crop (const GstVideoInfo * info,
                                                   GstBuffer * buffer);

gsize                    gst_cl_crop_offset (const GstVideoFormatInfo * finfo,
                                             guint p, gint stride,
                                             const GstVideoCropMeta * crop);

void                     gst_cl_buffer_frame_layout (const GstVideoInfo * info,
                                                     GstBuffer * buffer,
                                                     gboolean output,
                                                     GstVideoInfo * layout);

gboolean                 gst_cl_frame_fits_device (GstElement * element,
                                                   GstClContext * ctx,
                                                   const GstVideoInfo * info);

G_END_DECLS
