/* gstclfilters: frames in CUDA memory, as NVIDIA's decoders give them
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

/**
 * GST_CAPS_FEATURE_MEMORY_CUDA:
 *
 * The caps feature of video in GStreamer's CUDA memory (GstCudaMemory), the
 * same string as GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY of gst/cuda.
 */
#define GST_CAPS_FEATURE_MEMORY_CUDA "memory:CUDAMemory"

/**
 * GST_CL_CUDA_CONTEXT_TYPE:
 *
 * The GstContext type of GStreamer's CUDA context, GST_CUDA_CONTEXT_TYPE of
 * gst/cuda.
 */
#define GST_CL_CUDA_CONTEXT_TYPE "gst.cuda.context"

/**
 * GST_CL_CUDA_DISABLE_ENV:
 *
 * Set to 1, the plugin leaves CUDA memory alone: no element offers it, as
 * where GStreamer's CUDA library or NVIDIA's driver is missing.
 */
#define GST_CL_CUDA_DISABLE_ENV "GST_CL_CUDA_DISABLE"

gboolean      gst_cl_cuda_available (void);

const gchar * gst_cl_cuda_unavailable_reason (void);

gboolean      gst_cl_cuda_buffer_is_cuda (GstBuffer * buffer);

gboolean      gst_cl_cuda_context_takes (GstClContext * ctx);

gboolean      gst_cl_caps_has_cuda_feature (GstCaps * caps);

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

G_END_DECLS
