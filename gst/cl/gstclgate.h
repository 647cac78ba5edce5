/* gstclfilters: how many threads have frames in a device's driver at once
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstclcontext.h"

G_BEGIN_DECLS

typedef struct _GstClGate GstClGate;

GstClGate * gst_cl_gate_get (GstClContext * ctx);

void        gst_cl_gate_enter (GstClGate * gate);

void        gst_cl_gate_leave (GstClGate * gate);

void        gst_cl_gate_step_out (void);

void        gst_cl_gate_step_in (void);

guint       gst_cl_gate_get_limit (GstClContext * ctx);

G_END_DECLS
