/* gstclfilters: frames in CUDA memory, as NVIDIA's decoders give them
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

#include "gstclcontext.h"
#include "gstclcudaloader.h"

G_BEGIN_DECLS

gboolean      gst_cl_cuda_context_takes (GstClContext * ctx);

gboolean      gst_cl_cuda_handle_set_context (GstElement * element,
                                              GstContext * context,
                                              GstObject ** cuda_ctx);

gboolean      gst_cl_cuda_handle_context_query (GstElement * element,
                                                GstQuery * query,
                                                GstObject * cuda_ctx);

GstObject *   gst_cl_cuda_query_upstream (GstElement * element);

gint          gst_cl_cuda_device_index (GstObject * cuda_ctx);

GstBufferPool * gst_cl_cuda_pool_new (GstElement * element,
                                      GstClContext * ctx,
                                      GstObject ** cuda_ctx,
                                      GError ** error);

gboolean      gst_cl_cuda_pool_config_exported (GstStructure * config);

void          gst_cl_cuda_frames_register (void);

gboolean      gst_cl_cuda_decide_allocation (GstElement * element,
                                             GstClContext * ctx,
                                             GstObject ** cuda_ctx,
                                             GstQuery * query, GstCaps * caps,
                                             const GstVideoInfo * info);

G_END_DECLS
