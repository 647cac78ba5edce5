/* gstclfilters: an element's device work on the thread at hand
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstclcontext.h"

G_BEGIN_DECLS

GstClQueue *     gst_cl_queue_new (GstClContext * ctx);

void             gst_cl_queue_free (GstClQueue * queue);

GstClContext *   gst_cl_queue_get_context (GstClQueue * queue);

GstClQueue *     gst_cl_queue_get_shared (GstClContext * ctx, GError ** error);

cl_command_queue gst_cl_queue_get_handle (GstClQueue * queue);

gboolean         gst_cl_queue_follow_thread (GstClQueue * queue,
                                             GError ** error);

cl_event         gst_cl_queue_mark (GstClQueue * queue, GError ** error);

gboolean         gst_cl_queue_flush (GstClQueue * queue, GError ** error);

gboolean         gst_cl_queue_wait (GstClQueue * queue, cl_event event,
                                    GError ** error);

gboolean         gst_cl_queue_wait_for (GstClQueue * queue, GArray * events,
                                        GError ** error);

gboolean         gst_cl_queue_finish (GstClQueue * queue, GError ** error);

G_END_DECLS
