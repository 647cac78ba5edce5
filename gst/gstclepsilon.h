/* gstclfilters: clepsilon, an edge-preserving smoother of the luma
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "cl/gstclbasefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_EPSILON (gst_cl_epsilon_get_type ())
G_DECLARE_FINAL_TYPE (GstClEpsilon, gst_cl_epsilon, GST, CL_EPSILON,
    GstClBaseFilter)

GST_ELEMENT_REGISTER_DECLARE (clepsilon);

G_END_DECLS
