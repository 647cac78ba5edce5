/* gstclfilters: kernels: their arguments, their launch, their timing
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdarg.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

cl_kernel gst_cl_kernel_new (GstClContext * ctx, const gchar * source,
                             const gchar * options, const gchar * name,
                             GError ** error);

/* One (size, pointer) pair of gst_cl_kernel_set_args(). */
#define GST_CL_ARG(x) (gsize) sizeof (x), (const void *) &(x)

gboolean  gst_cl_kernel_set_args (cl_kernel kernel, GError ** error,
                                  guint n_args, ...);

gboolean  gst_cl_kernel_set_args_valist (cl_kernel kernel, GError ** error,
                                         guint n_args, va_list args);

gboolean  gst_cl_kernel_set_args_from (cl_kernel kernel, guint first,
                                       GError ** error, guint n_args, ...);

gboolean  gst_cl_kernel_enqueue (GstClQueue * queue, cl_kernel kernel,
                                 guint dims, const gsize * global,
                                 const gsize * local, GError ** error);

gboolean  gst_cl_kernel_enqueue_copy (GstClQueue * queue, cl_mem src,
                                      cl_mem dst, gsize size,
                                      GError ** error);

gboolean  gst_cl_kernel_enqueue_fill (GstClQueue * queue, cl_mem mem,
                                      guint8 value, gsize size,
                                      GError ** error);

G_END_DECLS
