/* gstclfilters: buffer pools of pinned host memory and of device memory
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

/**
 * GstClPoolMemory:
 * @GST_CL_POOL_PINNED: page-locked host memory, mapped for the host; the
 *   device reads and writes it by DMA
 * @GST_CL_POOL_DEVICE: #GstClMemory, for memory:OpenCL caps
 */
typedef enum
{
  GST_CL_POOL_PINNED,
  GST_CL_POOL_DEVICE,
} GstClPoolMemory;

#define GST_TYPE_CL_BUFFER_POOL (gst_cl_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstClBufferPool, gst_cl_buffer_pool, GST,
    CL_BUFFER_POOL, GstBufferPool)

GstBufferPool * gst_cl_buffer_pool_new (GstClContext * ctx,
                                        GstClPoolMemory memory);

void            gst_cl_buffer_pool_set_element (GstBufferPool * pool,
                                                GstElement * element);

GstBufferPool * gst_cl_buffer_pool_new_active (GstClContext * ctx,
                                               GstClPoolMemory memory,
                                               gsize size);

GstBufferPool * gst_cl_pinned_pool_new_active (GstClContext * ctx, gsize size);

gsize           gst_cl_host_alignment (GstClContext * ctx);

void            gst_cl_propose_allocation (GstElement * element,
                                           GstClContext * ctx,
                                           GstQuery * query);

gboolean        gst_cl_decide_allocation (GstElement * element,
                                          GstClContext * ctx,
                                          GstQuery * query,
                                          const GstVideoInfo * info);

G_END_DECLS
