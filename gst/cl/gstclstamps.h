/* gstclfilters: the output frames of a mixer playing backwards, stamped
 * as forward ones are
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/* the run of output frames being stamped */
typedef struct
{
  GstClockTime origin;          /* the run's first frame's end */
  guint64 frames;
  GstClockTime last_pts;        /* as GstVideoAggregator stamped it */
  GstClockTime last_start;      /* as we did */
} GstClReverseStamps;

void gst_cl_reverse_stamps_apply (GstClReverseStamps * stamps,
                                  GstBuffer * outbuf, gdouble rate,
                                  gint fps_n, gint fps_d);

G_END_DECLS
