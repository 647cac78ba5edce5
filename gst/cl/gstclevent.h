/* gstclfilters: events, and how the host waits for them
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstclcontext.h"

G_BEGIN_DECLS

typedef struct _GstClEvents GstClEvents;

GstClEvents * gst_cl_events_get (GstClContext * ctx);

cl_event *    gst_cl_events_timing (GstClEvents * events, cl_event * event);

void          gst_cl_events_record (GstClEvents * events, cl_event event);

cl_int        gst_cl_event_status (cl_event event);

gboolean      gst_cl_event_wait (GstClContext * ctx, cl_event event,
                                 GError ** error);

gboolean      gst_cl_event_wait_queued (GstClEvents * events,
                                        cl_command_queue queue,
                                        cl_event event, GError ** error);

gint          gst_cl_event_get_waiting (GstClContext * ctx);

void          gst_cl_event_profile_start (GstClContext * ctx);

gdouble       gst_cl_event_profile_stop (GstClContext * ctx);

GArray *      gst_cl_event_array_new (void);

G_END_DECLS
