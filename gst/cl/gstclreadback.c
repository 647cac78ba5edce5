/* gstclfilters: a few bytes of an element's results, read back to the host
 * without holding a frame up
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * See GstClReadback. The page-locked buffer is made at the first read and
 * kept, mapped, until gst_cl_readback_clear(): its bytes are the driver's
 * to write while a read is under way, and the host's once it is over.
 */
#include <string.h>

#include "gstclreadback.h"
#include "gstclcontext.h"
#include "gstclerror.h"

/* a read's smallest page-locked buffer: an element's results are a few
 * words */
#define MIN_SIZE 64

static void
release_host (GstClReadback * rb, GstClQueue * queue)
{
  cl_event done = NULL;

  if (!rb->host)
    return;
  if (queue
      && clEnqueueUnmapMemObject (queue->handle, rb->host,
          rb->data, 0, NULL, &done) == CL_SUCCESS && done) {
    clWaitForEvents (1, &done);
    clReleaseEvent (done);
  }
  clReleaseMemObject (rb->host);
  rb->host = NULL;
  rb->data = NULL;
  rb->size = 0;
}

static gboolean
ensure_host (GstClReadback * rb, GstClQueue * queue, gsize size,
    GError ** error)
{
  cl_int status = CL_SUCCESS;

  if (rb->host && rb->size >= size)
    return TRUE;
  release_host (rb, queue);
  size = MAX (size, MIN_SIZE);
  rb->host = clCreateBuffer (gst_cl_context_get_handle
      (queue->ctx),
      CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL, &status);
  if (!gst_cl_result (status, error, "clCreateBuffer (CL_MEM_ALLOC_HOST_PTR)"))
    goto failed;
  rb->data = clEnqueueMapBuffer (queue->handle, rb->host,
      CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &status);
  if (!gst_cl_result (status, error, "clEnqueueMapBuffer"))
    goto failed;
  rb->size = size;
  return TRUE;

failed:
  if (rb->host)
    clReleaseMemObject (rb->host);
  rb->host = NULL;
  rb->data = NULL;
  return FALSE;
}

/**
 * gst_cl_readback_start:
 * @queue: the queue whose commands so far the read comes after
 * @dest: where the bytes go, valid until the read is waited for or polled
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

  if (!ensure_host (rb, queue, size, error))
    return FALSE;
  if (!gst_cl_result (clEnqueueReadBuffer (queue->handle,
              src, CL_FALSE, 0, size, rb->data, 0, NULL, &rb->read), error,
          "clEnqueueReadBuffer (results)")) {
    rb->read = NULL;
    return FALSE;
  }
  rb->dest = dest;
  rb->dest_size = size;
  return gst_cl_queue_flush (queue, error);
}

static void
read_over (GstClReadback * rb, gboolean arrived)
{
  if (arrived)
    memcpy (rb->dest, rb->data, rb->dest_size);
  clReleaseEvent (rb->read);
  rb->read = NULL;
  rb->dest = NULL;
}

/**
 * gst_cl_readback_wait:
 *
 * Waits for the read under way, if there is one.
 *
 * Returns: %TRUE when its bytes are in its @dest (or there was none)
 */
gboolean
gst_cl_readback_wait (GstClReadback * rb, GstClQueue * queue, GError ** error)
{
  gboolean ok;

  if (!rb->read)
    return TRUE;
  ok = gst_cl_queue_wait (queue, rb->read, error);
  read_over (rb, ok);
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
  read_over (rb, *arrived);
  return TRUE;
}

/**
 * gst_cl_readback_clear:
 * @queue: (nullable): a queue of the context the reads were made in
 *
 * Waits for the read under way and lets the page-locked buffer go.
 */
void
gst_cl_readback_clear (GstClReadback * rb, GstClQueue * queue)
{
  if (queue) {
    gst_cl_readback_wait (rb, queue, NULL);
  } else if (rb->read) {
    clWaitForEvents (1, &rb->read);
    read_over (rb, FALSE);
  }
  release_host (rb, queue);
}
