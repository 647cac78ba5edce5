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
 * One read of a device buffer's first bytes under way at a time, into
 * page-locked host memory (a CL_MEM_ALLOC_HOST_PTR buffer kept mapped) and
 * from there into the caller's @dest once it has arrived. A discrete GPU's
 * driver copies into such memory in the background, where a read into
 * ordinary memory goes through a bounce buffer of the driver's.
 */
typedef struct
{
  cl_mem host;                  /* CL_MEM_ALLOC_HOST_PTR, mapped at @data */
  gpointer data;
  gsize size;
  cl_event read;                /* the read under way, or NULL */
  gpointer dest;                /* where its bytes go once there */
  gsize dest_size;
} GstClReadback;

gboolean gst_cl_readback_start (GstClReadback * rb, GstClQueue * queue,
                                cl_mem src, gsize size, gpointer dest,
                                GError ** error);
gboolean gst_cl_readback_wait  (GstClReadback * rb, GstClQueue * queue,
                                GError ** error);
gboolean gst_cl_readback_poll  (GstClReadback * rb, gboolean * arrived,
                                GError ** error);
void     gst_cl_readback_clear (GstClReadback * rb, GstClQueue * queue);

G_END_DECLS
