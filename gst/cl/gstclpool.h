/* gstclfilters: buffers in pinned, device-mapped host memory
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_PINNED_POOL (gst_cl_pinned_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstClPinnedPool, gst_cl_pinned_pool, GST,
    CL_PINNED_POOL, GstBufferPool)

GstBufferPool * gst_cl_pinned_pool_new (GstClContext * ctx);

GstBufferPool * gst_cl_pinned_pool_new_active (GstClContext * ctx, gsize size);

G_END_DECLS
