/* gstclfilters: inputs of a mixer that nothing feeds
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _GstClUnlinked GstClUnlinked;

GstClUnlinked * gst_cl_unlinked_new   (GstElement * element,
                                       GstPad ** pads, guint n_pads);

void            gst_cl_unlinked_free  (GstClUnlinked * unlinked);

void            gst_cl_unlinked_watch (GstClUnlinked * unlinked,
                                       gboolean watch);

void            gst_cl_unlinked_flush (GstClUnlinked * unlinked,
                                       guint32 seqnum);

G_END_DECLS
