/* gstclfilters: a few bytes of an element's results, read back to the host
 * without holding a frame up
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * See GstClReadback. Into ordinary memory: a read into page-locked memory
 * (a CL_MEM_ALLOC_HOST_PTR buffer kept mapped) was measured, and was no
 * faster on NVIDIA's driver (docs/benchmarks-journal.md).
 */
#include "gstclreadback.h"
#include "gstclerror.h"

/**
 * gst_cl_readback_start:
 * @queue: the queue whose commands so far the read comes after
 * @dest: where the bytes go, for the host to read once the read is over
 *
 * Enqueues a read of the first @size bytes of @src and submits it. One
 * read at a time: the one before must have been waited for or polled over.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_readback_start (GstClReadback * rb, GstClQueue * queue, cl_mem src,
    gsize size, gpointer dest, GError ** error)
{
  g_return_val_if_fail (!rb->read, FALSE);

  if (!gst_cl_result (clEnqueueReadBuffer (queue->handle, src, CL_FALSE, 0,
              size, dest, 0, NULL, &rb->read), error,
          "clEnqueueReadBuffer (results)")) {
    rb->read = NULL;
    return FALSE;
  }
  return gst_cl_queue_flush (queue, error);
}

/**
 * gst_cl_readback_wait:
 *
 * Waits for the read under way, if there is one.
 *
 * Returns: %TRUE when its bytes are there (or there was none)
 */
gboolean
gst_cl_readback_wait (GstClReadback * rb, GstClQueue * queue, GError ** error)
{
  gboolean ok;

  if (!rb->read)
    return TRUE;
  ok = gst_cl_queue_wait (queue, rb->read, error);
  g_clear_pointer (&rb->read, clReleaseEvent);
  return ok;
}

/**
 * gst_cl_readback_poll:
 * @arrived: (out): whether the read that was under way delivered its bytes
 * @error: set where it ended without them
 *
 * Asks, without waiting, whether the read under way is over.
 *
 * Returns: %TRUE when no read is under way any more (or there was none)
 */
gboolean
gst_cl_readback_poll (GstClReadback * rb, gboolean * arrived, GError ** error)
{
  cl_int status = CL_COMPLETE;

  *arrived = FALSE;
  if (!rb->read)
    return TRUE;
  if (clGetEventInfo (rb->read, CL_EVENT_COMMAND_EXECUTION_STATUS,
          sizeof (status), &status, NULL) != CL_SUCCESS)
    status = CL_INVALID_EVENT;
  if (status > CL_COMPLETE)
    return FALSE;
  if (status < 0)
    gst_cl_result (status, error, "clEnqueueReadBuffer (results)");
  *arrived = status == CL_COMPLETE;
  g_clear_pointer (&rb->read, clReleaseEvent);
  return TRUE;
}
