/* gstclfilters: GstMemory in OpenCL device buffers
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

/**
 * GST_CAPS_FEATURE_MEMORY_CL:
 *
 * The caps feature of video in #GstClMemory: frames that stay on the device
 * between cl elements.
 */
#define GST_CAPS_FEATURE_MEMORY_CL "memory:OpenCL"

/**
 * GST_MAP_CL:
 *
 * Map flag of #GstClMemory that gives the device buffer, not its bytes:
 * the map's data points to the memory's cl_mem. With %GST_MAP_READ the map
 * returns once the commands that write the buffer are done; with
 * %GST_MAP_WRITE, once those that read it are done too. Commands the
 * caller enqueues on the buffer must be finished before the unmap. Only
 * memories that start at the start of their buffer map this way (not a
 * region shared out of one). The same value as %GST_MAP_GL and
 * %GST_MAP_CUDA, as each memory type's own flag is.
 */
#define GST_MAP_CL (GST_MAP_FLAG_LAST << 1)

/**
 * GST_CL_MEMORY_TYPE:
 *
 * The memory type of #GstClMemory, as gst_memory_is_type() takes it.
 */
#define GST_CL_MEMORY_TYPE "ClMemory"

/**
 * GstClMemory:
 *
 * A #GstMemory whose bytes are an OpenCL buffer on one context's device.
 * Mapping it maps the buffer (clEnqueueMapBuffer): in place on devices that
 * share host memory, a copy to and from the host elsewhere. cl elements use
 * the buffer as it is, without mapping.
 */
typedef struct _GstClMemory GstClMemory;

GstMemory *    gst_cl_memory_new (GstClContext * ctx, gsize size,
                                  GError ** error);

gboolean       gst_is_cl_memory (GstMemory * mem);

cl_mem         gst_cl_memory_get_buffer (GstMemory * mem);

GstClContext * gst_cl_memory_get_context (GstMemory * mem);

void           gst_cl_memory_get_dependencies (GstMemory * mem,
                                               gboolean write,
                                               GArray * events);

void           gst_cl_memory_add_access (GstMemory * mem, gboolean write,
                                         cl_event done);

gboolean       gst_cl_caps_has_memory_feature (GstCaps * caps);

GstCaps *      gst_cl_caps_add_memory_feature (GstCaps * caps);

gboolean       gst_cl_caps_pass_as (GstCaps * incaps, GstCaps * outcaps);

GstCaps *      gst_cl_caps_prefer_for_peer (GstPad * srcpad, GstCaps * caps);

G_END_DECLS
