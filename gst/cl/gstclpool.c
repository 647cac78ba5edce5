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

#include <gst/video/video.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_pinned_pool_debug);
#define GST_CAT_DEFAULT gst_cl_pinned_pool_debug

struct _GstClPinnedPool
{
  GstBufferPool parent;

  GstClContext *ctx;
  gsize size;
  /* for video caps: the layout, and whether buffers carry it as a meta */
  gboolean video;
  gboolean video_meta;
  GstVideoInfo info;
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

static const gchar **
gst_cl_pinned_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

static gboolean
gst_cl_pinned_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstClPinnedPool *self = GST_CL_PINNED_POOL (pool);
  GstCaps *caps = NULL;
  guint size = 0;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, NULL, NULL))
    return FALSE;
  self->video = caps && gst_video_info_from_caps (&self->info, caps);
  self->video_meta = self->video && gst_buffer_pool_config_has_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  /* a video frame's buffer is at least as large as its layout */
  self->size = self->video ? MAX (size, GST_VIDEO_INFO_SIZE (&self->info)) :
      size;
  if (self->video && self->size != size)
    gst_buffer_pool_config_set_params (config, caps, self->size, 0, 0);
  return GST_BUFFER_POOL_CLASS (gst_cl_pinned_pool_parent_class)->set_config
      (pool, config);
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
  if (self->video_meta)
    gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
        GST_VIDEO_INFO_HEIGHT (&self->info),
        GST_VIDEO_INFO_N_PLANES (&self->info), self->info.offset,
        self->info.stride);
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
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gst_cl_pinned_pool_finalize;
  pool_class->get_options = gst_cl_pinned_pool_get_options;
  pool_class->set_config = gst_cl_pinned_pool_set_config;
  pool_class->alloc_buffer = gst_cl_pinned_pool_alloc_buffer;
}

static void
gst_cl_pinned_pool_init (GstClPinnedPool * self)
{
}

/**
 * gst_cl_pinned_pool_new:
 *
 * A pool to configure as any other: with video caps and the
 * %GST_BUFFER_POOL_OPTION_VIDEO_META option, its buffers hold video frames
 * of the caps' default layout and carry it as a #GstVideoMeta.
 *
 * Returns: (transfer full): an inactive, unconfigured pool of buffers in
 *   pinned host memory that @ctx's device reads and writes by DMA
 */
GstBufferPool *
gst_cl_pinned_pool_new (GstClContext * ctx)
{
  GstClPinnedPool *self = g_object_new (GST_TYPE_CL_PINNED_POOL, NULL);

  gst_object_ref_sink (self);
  self->ctx = gst_object_ref (ctx);
  return GST_BUFFER_POOL (self);
}

/**
 * gst_cl_pinned_pool_new_active:
 * @size: bytes of every buffer
 *
 * Returns: (transfer full): an active pool of @size-byte buffers in pinned
 *   host memory that @ctx's device reads and writes by DMA
 */
GstBufferPool *
gst_cl_pinned_pool_new_active (GstClContext * ctx, gsize size)
{
  GstBufferPool *pool = gst_cl_pinned_pool_new (ctx);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, NULL, size, 0, 0);
  gst_buffer_pool_set_config (pool, config);
  gst_buffer_pool_set_active (pool, TRUE);
  return pool;
}
