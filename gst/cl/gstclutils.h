/* gstclfilters: a context shared through a pipeline, as GstContext
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

/**
 * GST_CL_CONTEXT_TYPE:
 *
 * The GstContext type that carries a #GstClContext through a pipeline. Its
 * structure has the fields "context" (#GstClContext), "cl-context" and
 * "cl-device" (gpointer: cl_context, cl_device_id), "device-index" (gint, -1
 * for an application's device the ICD loader does not list), "device-name"
 * (gchararray) and "contexts" (a #GstValueArray of #GstClContext: this one
 * and those of the pipeline's other devices).
 */
#define GST_CL_CONTEXT_TYPE "gst.cl.context"

gboolean     gst_cl_ensure_element_context (GstElement * element,
                                            gint device_index,
                                            GstClContext ** ctx);

gboolean     gst_cl_handle_set_context (GstElement * element,
                                        GstContext * context,
                                        gint device_index,
                                        GstClContext ** ctx);

gboolean     gst_cl_handle_context_query (GstElement * element,
                                          GstQuery * query,
                                          GstClContext * ctx);

GstContext * gst_context_new_cl_context (GstClContext * ctx);

gboolean     gst_cl_run_peer_query (GstElement * element, GstQuery * query,
                                    GstPadDirection dir);

G_END_DECLS
