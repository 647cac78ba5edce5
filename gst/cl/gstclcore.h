/* gstclfilters: what a cl element keeps on its device, and its frame pass
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

#include "gstclcontext.h"
#include "gstclframe.h"

G_BEGIN_DECLS

/**
 * GstClVariant:
 * @GST_CL_VARIANT_REFERENCE: one output per work-item, the straightforward
 *   kernel kept as correctness and speed baseline
 * @GST_CL_VARIANT_OPTIMIZED: the fast kernels
 */
typedef enum
{
  GST_CL_VARIANT_REFERENCE,
  GST_CL_VARIANT_OPTIMIZED,
} GstClVariant;

#define GST_TYPE_CL_VARIANT (gst_cl_variant_get_type ())
GType gst_cl_variant_get_type (void);

/**
 * GST_CL_CORE_MAX_INPUTS:
 *
 * The most input frames one pass of gst_cl_core_process() maps.
 */
#define GST_CL_CORE_MAX_INPUTS 4

/**
 * GstClCoreRun:
 * @data: the caller's
 * @inputs: a frame for each input on the device, %NULL where it has none
 * @output: (nullable): the output frame on the device
 *
 * Enqueues the kernels of one pass on the core's queue.
 *
 * Returns: %TRUE on success
 */
typedef gboolean (*GstClCoreRun) (gpointer data,
                                  const GstClFrame * const * inputs,
                                  const GstClFrame * output,
                                  GError ** error);

/**
 * GstClCore:
 *
 * What every cl element keeps on its device, whatever its base class: the
 * context, the element's queue, its kernels, scratch and staging buffers,
 * and the properties `device-index` and `variant`. Opaque.
 */
typedef struct _GstClCore GstClCore;

void           gst_cl_core_install_properties (GObjectClass * klass,
                                               guint device_index_id,
                                               guint variant_id);

GstCaps *      gst_cl_core_template_caps (const gchar * caps);

GstClCore *    gst_cl_core_new (GstElement * element,
                                guint device_index_id, guint variant_id);

void           gst_cl_core_free (GstClCore * core);

gboolean       gst_cl_core_set_property (GstClCore * core, guint prop_id,
                                         const GValue * value);

gboolean       gst_cl_core_get_property (GstClCore * core, guint prop_id,
                                         GValue * value);

GstClVariant   gst_cl_core_get_variant (GstClCore * core);

gboolean       gst_cl_core_open (GstClCore * core);

gboolean       gst_cl_core_start (GstClCore * core);

void           gst_cl_core_stop (GstClCore * core);

void           gst_cl_core_close (GstClCore * core);

void           gst_cl_core_set_context (GstClCore * core,
                                        GstContext * context);

gboolean       gst_cl_core_query (GstClCore * core, GstQuery * query);

GstCaps *      gst_cl_core_usable_caps (GstClCore * core, GstCaps * caps);

void           gst_cl_core_propose_allocation (GstClCore * core,
                                               GstQuery * query);

gboolean       gst_cl_core_decide_allocation (GstClCore * core,
                                              GstQuery * query,
                                              const GstVideoInfo * info);

GstClContext * gst_cl_core_get_context (GstClCore * core);

GstClQueue *   gst_cl_core_get_queue (GstClCore * core);

gboolean       gst_cl_core_follow_thread (GstClCore * core, GError ** error);

cl_kernel      gst_cl_core_get_kernel (GstClCore * core,
                                       const gchar * source,
                                       const gchar * options,
                                       const gchar * name, GError ** error);

cl_mem         gst_cl_core_get_scratch (GstClCore * core, guint slot,
                                        gsize size, GError ** error);

gboolean       gst_cl_core_read_scratch (GstClCore * core, guint slot,
                                         gsize size, gpointer dest,
                                         GError ** error);

gboolean       gst_cl_core_read_poll (GstClCore * core, gboolean * arrived);

gboolean       gst_cl_core_copy_plane (GstClCore * core,
                                       const GstClPlane * src,
                                       const GstClPlane * dst,
                                       GError ** error);

gboolean       gst_cl_core_fill_plane (GstClCore * core,
                                       const GstClPlane * plane,
                                       guint8 value, GError ** error);

gboolean       gst_cl_core_fits_device (GstClCore * core,
                                        const GstVideoInfo * info);

gboolean       gst_cl_core_caps_fit_device (GstClCore * core,
                                            GstCaps * caps);

gboolean       gst_cl_core_set_info (GstClCore * core,
                                     const GstVideoInfo * info);

gboolean       gst_cl_core_process (GstClCore * core, GstBuffer * output,
                                    const GstVideoInfo * out_info,
                                    guint n_inputs,
                                    GstBuffer * const * inputs,
                                    const GstVideoInfo * const * in_infos,
                                    GstMapFlags in_flags, GstClCoreRun run,
                                    gpointer data, GError ** error);

gboolean       gst_cl_core_map_tables (GstClCore * core,
                                       GstBuffer * const * buffers,
                                       guint n, cl_mem * mems,
                                       GError ** error);

void           gst_cl_core_unmap_tables (GstClCore * core);

G_END_DECLS
