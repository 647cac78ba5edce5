/* gstclfilters: what the core's files keep in a context, each its own part
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A context holds one part of state for each job of the core above it,
 * opaque to every file but the one that does that job, which makes it
 * when it first asks for it; the context frees it with itself. Not for
 * elements.
 */
#pragma once

#include "gstclcontext.h"

G_BEGIN_DECLS

/**
 * GstClContextAttachment:
 * @make: makes the data for a context, or sets @error
 * @free: frees it, once the context goes, before its cl_context
 * @order: the data of a lower order are freed first (a program table,
 *   whose builds use the rest, before the gate they pass)
 *
 * State a module above the context keeps per context (the queues, the
 * programs, the gate, the waits, the profile): the module owns its type
 * and says how it is made and freed, and the context holds it for as
 * long as it lives without knowing what it is. One static attachment a
 * kind of state.
 */
typedef struct
{
  gpointer (*make) (GstClContext * ctx, GError ** error);
  GDestroyNotify free;
  gint order;
  /*< private >*/
  gsize index;
} GstClContextAttachment;

gpointer            gst_cl_context_get_attached (GstClContext * ctx,
                                                 GstClContextAttachment * att,
                                                 GError ** error);
void                gst_cl_context_set_device_index (GstClContext * ctx,
                                                     gint index);
/* what makes a compiled binary valid: the device, its driver, their API */
const gchar *       gst_cl_context_get_cache_key (GstClContext * ctx);

G_END_DECLS
