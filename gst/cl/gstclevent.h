/* gstclfilters: events, and how the host waits for them
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstclcontext.h"

G_BEGIN_DECLS

cl_int   gst_cl_event_status (cl_event event);

gboolean gst_cl_event_wait (GstClContext * ctx, cl_event event,
                            GError ** error);

gboolean gst_cl_event_wait_queued (GstClContext * ctx,
                                   cl_command_queue queue, cl_event event,
                                   GError ** error);

gint     gst_cl_event_get_waiting (GstClContext * ctx);

GArray * gst_cl_event_array_new (void);

G_END_DECLS
