/* gstclfilters: what the core's files keep in a context, each its own part
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A context holds one part of state for each job of the core, opaque to
 * every file but the one that does that job. The context makes each part
 * as it is set up and frees it with itself. Not for elements.
 */
#pragma once

#include "gstclcontext.h"

G_BEGIN_DECLS

/* gstclprogram.c: the programs built on the context, and those building */
typedef struct _GstClProgramTable GstClProgramTable;

GstClProgramTable * gst_cl_program_table_new (void);
void                gst_cl_program_table_free (GstClProgramTable * table);

/* gstclqueue.c: the queue of each thread */
typedef struct _GstClQueueTable GstClQueueTable;

GstClQueueTable *   gst_cl_queue_table_new (void);
void                gst_cl_queue_table_free (GstClQueueTable * table);
GstClQueue *        gst_cl_queue_new_own (GstClContext * ctx,
                                          GError ** error);
void                gst_cl_queue_free_own (GstClQueue * queue);

/* gstclgate.c: the device's gate, shared by every context on it */
typedef struct _GstClGate GstClGate;

GstClGate *         gst_cl_gate_get (cl_device_id device);
void                gst_cl_gate_unref (GstClGate * gate);

/* gstclevent.c: the threads waiting for the device */
typedef struct _GstClWaits GstClWaits;

GstClWaits *        gst_cl_event_waits_new (void);
void                gst_cl_event_waits_free (GstClWaits * waits);

/* gstclkernel.c: the commands timed while profiling */
typedef struct _GstClProfile GstClProfile;

GstClProfile *      gst_cl_kernel_profile_new (void);
void                gst_cl_kernel_profile_free (GstClProfile * profile);

/* each part, from the context */
GstClProgramTable * gst_cl_context_get_program_table (GstClContext * ctx);
GstClQueueTable *   gst_cl_context_get_queue_table (GstClContext * ctx);
GstClGate *         gst_cl_context_get_gate (GstClContext * ctx);
GstClWaits *        gst_cl_context_get_waits (GstClContext * ctx);
GstClProfile *      gst_cl_context_get_profile (GstClContext * ctx);
/* the core's tests: one device labelled as another */
void                gst_cl_context_set_device_index (GstClContext * ctx,
                                                     gint index);
/* what makes a compiled binary valid: the device, its driver, their API */
const gchar *       gst_cl_context_get_cache_key (GstClContext * ctx);

G_END_DECLS
