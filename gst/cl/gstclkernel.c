/* gstclfilters: kernels: their arguments, their launch, their timing
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Kernels come from the context's programs (gstclprogram.c) and run on an
 * element's queue (gstclqueue.c). The few other commands a frame takes, a
 * plain copy or fill of a buffer, go through here too, so that the
 * benchmark times them as it times kernels.
 */
#include "gstclkernel.h"
#include "gstclcontext.h"
#include "gstclerror.h"
#include "gstclevent.h"
#include "gstclprogram.h"
#include "gstclqueue.h"

#include <stdarg.h>

/**
 * gst_cl_kernel_new:
 *
 * Returns: (transfer full) (nullable): a new kernel object of the program
 *   @source built with @options (see gst_cl_program_get())
 */
cl_kernel
gst_cl_kernel_new (GstClContext * ctx, const gchar * source,
    const gchar * options, const gchar * name, GError ** error)
{
  cl_program program;
  cl_kernel kernel;
  cl_int status = CL_SUCCESS;

  program = gst_cl_program_get (ctx, source, options, NULL, error);
  if (!program)
    return NULL;
  kernel = clCreateKernel (program, name, &status);
  if (!gst_cl_result (status, error, "clCreateKernel"))
    return NULL;
  return kernel;
}

static gboolean set_kernel_args (cl_kernel kernel, guint first,
    GError ** error, guint n_args, va_list args);

/**
 * gst_cl_kernel_set_args:
 * @n_args: how many (size, pointer) pairs follow; GST_CL_ARG() makes one
 *
 * Sets arguments 0 to @n_args - 1 of @kernel.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_kernel_set_args (cl_kernel kernel, GError ** error, guint n_args, ...)
{
  va_list args;
  gboolean ok;

  va_start (args, n_args);
  ok = gst_cl_kernel_set_args_valist (kernel, error, n_args, args);
  va_end (args);
  return ok;
}

/**
 * gst_cl_kernel_set_args_valist:
 *
 * gst_cl_kernel_set_args() for a va_list of (size, pointer) pairs.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_kernel_set_args_valist (cl_kernel kernel, GError ** error,
    guint n_args, va_list args)
{
  return set_kernel_args (kernel, 0, error, n_args, args);
}

/**
 * gst_cl_kernel_set_args_from:
 * @first: the index of the first argument set
 *
 * gst_cl_kernel_set_args() for arguments @first to @first + @n_args - 1.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_kernel_set_args_from (cl_kernel kernel, guint first, GError ** error,
    guint n_args, ...)
{
  va_list args;
  gboolean ok;

  va_start (args, n_args);
  ok = set_kernel_args (kernel, first, error, n_args, args);
  va_end (args);
  return ok;
}

static gboolean
set_kernel_args (cl_kernel kernel, guint first, GError ** error,
    guint n_args, va_list args)
{
  guint i;
  cl_int status = CL_SUCCESS;

  for (i = first; i < first + n_args && status == CL_SUCCESS; i++) {
    gsize size = va_arg (args, gsize);
    const void *value = va_arg (args, const void *);

    status = clSetKernelArg (kernel, i, size, value);
  }
  if (status != CL_SUCCESS) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "OpenCL call failed: %s (%d) in clSetKernelArg (argument %u)",
        gst_cl_error_name (status), status, i - 1);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_cl_kernel_enqueue:
 * @global: work size per dimension; rounded up to a multiple of @local
 * @local: (nullable): work-group size, or %NULL for the driver's choice
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_kernel_enqueue (GstClQueue * queue, cl_kernel kernel, guint dims,
    const gsize * global, const gsize * local, GError ** error)
{
  gsize rounded[3];
  guint i;
  cl_event event = NULL;
  cl_int status;

  g_return_val_if_fail (dims >= 1 && dims <= 3, FALSE);
  for (i = 0; i < dims; i++)
    rounded[i] = local ? (global[i] + local[i] - 1) /local[i] * local[i] :
        global[i];
  status = clEnqueueNDRangeKernel (queue->handle, kernel, dims, NULL, rounded,
      local, 0, NULL, gst_cl_events_timing (queue->events, &event));
  gst_cl_events_record (queue->events, event);
  return gst_cl_result (status, error, "clEnqueueNDRangeKernel");
}

/**
 * gst_cl_kernel_enqueue_copy:
 *
 * Enqueues a copy of @size bytes from the start of @src to the start of
 * @dst, timed as kernels are while profiling.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_kernel_enqueue_copy (GstClQueue * queue, cl_mem src, cl_mem dst,
    gsize size, GError ** error)
{
  cl_event event = NULL;
  cl_int status;

  status = clEnqueueCopyBuffer (queue->handle, src, dst, 0, 0, size, 0, NULL,
      gst_cl_events_timing (queue->events, &event));
  gst_cl_events_record (queue->events, event);
  return gst_cl_result (status, error, "clEnqueueCopyBuffer");
}

/**
 * gst_cl_kernel_enqueue_fill:
 *
 * Enqueues setting the first @size bytes of @mem to @value, timed as
 * kernels are while profiling.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_kernel_enqueue_fill (GstClQueue * queue, cl_mem mem, guint8 value,
    gsize size, GError ** error)
{
  cl_event event = NULL;
  cl_int status;

  status = clEnqueueFillBuffer (queue->handle, mem, &value, 1, 0, size, 0,
      NULL, gst_cl_events_timing (queue->events, &event));
  gst_cl_events_record (queue->events, event);
  return gst_cl_result (status, error, "clEnqueueFillBuffer");
}
