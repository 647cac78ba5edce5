/* gstclfilters: buffers in pinned, device-mapped host memory
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each buffer's memory is an OpenCL buffer allocated by the driver in host
 * memory (CL_MEM_ALLOC_HOST_PTR) and kept mapped: page-locked on discrete
 * GPUs, so that reads and writes between it and device buffers go by DMA at
 * full bus speed, where ordinary (pageable) memory goes through a bounce
 * buffer at a fraction of it. Buffers return to the pool and are reused;
 * the last one gone unmaps and releases its OpenCL buffer.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclpool.h"
#include "gstclerror.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_pinned_pool_debug);
#define GST_CAT_DEFAULT gst_cl_pinned_pool_debug

struct _GstClPinnedPool
{
  GstBufferPool parent;

  GstClContext *ctx;
  gsize size;
};

G_DEFINE_TYPE_WITH_CODE (GstClPinnedPool, gst_cl_pinned_pool,
    GST_TYPE_BUFFER_POOL, GST_DEBUG_CATEGORY_INIT (gst_cl_pinned_pool_debug,
        "clpinnedpool", 0, "OpenCL pinned buffer pool"));

/* what a wrapped memory keeps alive */
typedef struct
{
  GstClContext *ctx;
  cl_mem mem;
  gpointer data;
} Pinned;

static void
pinned_free (gpointer user_data)
{
  Pinned *pinned = user_data;
  cl_event done = NULL;

  if (clEnqueueUnmapMemObject (pinned->ctx->queue, pinned->mem, pinned->data,
          0, NULL, &done) == CL_SUCCESS && done) {
    clWaitForEvents (1, &done);
    clReleaseEvent (done);
  }
  clReleaseMemObject (pinned->mem);
  gst_object_unref (pinned->ctx);
  g_free (pinned);
}

static GstFlowReturn
gst_cl_pinned_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstClPinnedPool *self = GST_CL_PINNED_POOL (pool);
  Pinned *pinned = g_new0 (Pinned, 1);
  gsize size = MAX (self->size, 1);
  cl_int status = CL_SUCCESS;

  pinned->mem = clCreateBuffer (self->ctx->context, CL_MEM_READ_WRITE |
      CL_MEM_ALLOC_HOST_PTR, size, NULL, &status);
  if (status == CL_SUCCESS)
    pinned->data = clEnqueueMapBuffer (self->ctx->queue, pinned->mem, CL_TRUE,
        CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &status);
  if (status != CL_SUCCESS) {
    GST_WARNING_OBJECT (self, "no pinned buffer of %" G_GSIZE_FORMAT
        " bytes: %s", size, gst_cl_error_name (status));
    if (pinned->mem)
      clReleaseMemObject (pinned->mem);
    g_free (pinned);
    return GST_FLOW_ERROR;
  }
  pinned->ctx = gst_object_ref (self->ctx);
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, gst_memory_new_wrapped (0, pinned->data,
          size, 0, self->size, pinned, pinned_free));
  return GST_FLOW_OK;
}

static void
gst_cl_pinned_pool_finalize (GObject * object)
{
  GstClPinnedPool *self = GST_CL_PINNED_POOL (object);

  gst_clear_object (&self->ctx);
  G_OBJECT_CLASS (gst_cl_pinned_pool_parent_class)->finalize (object);
}

static void
gst_cl_pinned_pool_class_init (GstClPinnedPoolClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_pinned_pool_finalize;
  GST_BUFFER_POOL_CLASS (klass)->alloc_buffer = gst_cl_pinned_pool_alloc_buffer;
}

static void
gst_cl_pinned_pool_init (GstClPinnedPool * self)
{
}

/**
 * gst_cl_pinned_pool_new:
 * @size: bytes of every buffer
 *
 * Returns: (transfer full): an active pool of buffers of @size bytes in
 *   pinned host memory that @ctx's device reads and writes by DMA
 */
GstBufferPool *
gst_cl_pinned_pool_new (GstClContext * ctx, gsize size)
{
  GstClPinnedPool *self = g_object_new (GST_TYPE_CL_PINNED_POOL, NULL);
  GstBufferPool *pool = GST_BUFFER_POOL (self);
  GstStructure *config;

  gst_object_ref_sink (self);
  self->ctx = gst_object_ref (ctx);
  self->size = size;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, NULL, size, 0, 0);
  gst_buffer_pool_set_config (pool, config);
  gst_buffer_pool_set_active (pool, TRUE);
  return pool;
}
