/* gstclfilters: a context's OpenCL programs, with an on-disk binary cache
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <CL/cl.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

/**
 * GstClProgramOrigin:
 * @GST_CL_PROGRAM_COMPILED: built from source (and written to the disk cache)
 * @GST_CL_PROGRAM_DISK_CACHE: loaded as a binary from the disk cache
 * @GST_CL_PROGRAM_MEMORY: already built for this context
 */
typedef enum
{
  GST_CL_PROGRAM_COMPILED,
  GST_CL_PROGRAM_DISK_CACHE,
  GST_CL_PROGRAM_MEMORY,
} GstClProgramOrigin;

cl_program gst_cl_program_get (GstClContext * ctx, const gchar * source,
                               const gchar * options,
                               GstClProgramOrigin * origin, GError ** error);

gboolean   gst_cl_program_ready (GstClContext * ctx, const gchar * source,
                                 const gchar * options);

gboolean   gst_cl_program_failed (GstClContext * ctx, const gchar * source,
                                  const gchar * options);

void       gst_cl_program_wait_builds (GstClContext * ctx);

G_END_DECLS
