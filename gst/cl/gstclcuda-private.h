/* gstclfilters: frames in CUDA memory, between gstclcuda.c and
 * gstclcudaframe.c
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

/* the CUDA device ordinal of a GstCudaContext */
gint     gst_cl_cuda_context_device_id (GstObject * cuda_ctx);

/* whether @ctx's OpenCL device is CUDA device @ordinal; else an error that
 * names both */
gboolean gst_cl_cuda_same_device (GstClContext * ctx, gint ordinal,
                                  GError ** error);

/* how threads wait for the current CUDA context's work, as
 * GST_CL_CUDA_SCHED says (see gstclcuda.c) */
void     gst_cl_cuda_context_set_sched (void);

G_END_DECLS
