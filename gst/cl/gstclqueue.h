/* gstclfilters: an element's device work on the thread at hand
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstclcontext.h"
#include "gstclevent.h"

G_BEGIN_DECLS

/**
 * GstClQueue:
 * @ctx: the context, which a queue keeps alive (but the context's own)
 * @context: its cl_context
 * @caps: its device's capabilities
 * @events: how its commands are waited for and timed
 * @handle: the command queue of the thread at hand: the calling thread's
 *   since gst_cl_queue_follow_thread(), %NULL before
 *
 * An element's device work, and all that a frame call asks of its context:
 * read, never written, by the files that take a queue, so that a frame's
 * way down asks no layer back for what its queue already holds.
 */
struct _GstClQueue
{
  GstClContext *ctx;
  cl_context context;
  const GstClDeviceCaps *caps;
  GstClEvents *events;
  cl_command_queue handle;
  /*< private >*/
  gboolean own;                 /* the context's: its handle is its own */
  gpointer table;               /* the context's queues, but the context's own */
};

GstClQueue *     gst_cl_queue_new (GstClContext * ctx, GError ** error);

void             gst_cl_queue_free (GstClQueue * queue);

GstClQueue *     gst_cl_queue_get_shared (GstClContext * ctx, GError ** error);

cl_command_queue gst_cl_queue_get_shared_handle (GstClContext * ctx);

gboolean         gst_cl_queue_follow_thread (GstClQueue * queue,
                                             GError ** error);

cl_event         gst_cl_queue_mark (GstClQueue * queue, GError ** error);

gboolean         gst_cl_queue_flush (GstClQueue * queue, GError ** error);

gboolean         gst_cl_queue_wait (GstClQueue * queue, cl_event event,
                                    GError ** error);

gboolean         gst_cl_queue_wait_for (GstClQueue * queue, GArray * events,
                                        GError ** error);

G_END_DECLS
