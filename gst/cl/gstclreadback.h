/* gstclfilters: a few bytes of an element's results, read back to the host
 * without holding a frame up
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstclqueue.h"

G_BEGIN_DECLS

/**
 * GstClReadback:
 *
 * One read of a device buffer's first bytes under way at a time, straight
 * into the caller's memory, which the host reads once the read is found
 * over: waited for, or polled without waiting.
 */
typedef struct
{
  cl_event read;                /* the read under way, or NULL */
} GstClReadback;

gboolean gst_cl_readback_start (GstClReadback * rb, GstClQueue * queue,
                                cl_mem src, gsize size, gpointer dest,
                                GError ** error);
gboolean gst_cl_readback_wait  (GstClReadback * rb, GstClQueue * queue,
                                GError ** error);
gboolean gst_cl_readback_poll  (GstClReadback * rb, gboolean * arrived,
                                GError ** error);

G_END_DECLS
