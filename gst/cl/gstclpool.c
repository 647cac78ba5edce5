/* gstclfilters: buffer pools of pinned host memory and of device memory
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Pinned: each buffer's memory is an OpenCL buffer allocated by the driver in host
 * memory (CL_MEM_ALLOC_HOST_PTR) and kept mapped: page-locked on discrete
 * GPUs, so that reads and writes between it and device buffers go by DMA at
 * full bus speed, where ordinary (pageable) memory goes through a bounce
 * buffer at a fraction of it. Buffers return to the pool and are reused;
 * the last one gone unmaps and releases its OpenCL buffer.
 *
 * Device: buffers of #GstClMemory, for memory:OpenCL caps; a video frame has
 * one memory per plane, so that every plane is a whole OpenCL buffer that
 * kernels use as it is.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclpool.h"
#include "gstclerror.h"
#include "gstclevent.h"
#include "gstclgate.h"
#include "gstclqueue.h"
#include "gstclmemory.h"

#include <gst/video/video.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_cl_buffer_pool_debug

struct _GstClBufferPool
{
  GstBufferPool parent;

  GstClContext *ctx;
  GstClPoolMemory memory;
  gsize size;
  /* where a buffer that cannot be had is reported: the element that made
   * the pool, whoever acquires from it */
  GWeakRef element;
  /* for video caps: the layout, and whether buffers carry it as a meta */
  gboolean video;
  gboolean video_meta;
  GstVideoInfo info;
};

G_DEFINE_TYPE_WITH_CODE (GstClBufferPool, gst_cl_buffer_pool,
    GST_TYPE_BUFFER_POOL, GST_DEBUG_CATEGORY_INIT (gst_cl_buffer_pool_debug,
        "clbufferpool", 0, "OpenCL buffer pools"));

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

  /* not through the device's gate: a pool frees its buffers holding its
   * lock, which a thread in the gate may want as it gives a buffer back */
  if (clEnqueueUnmapMemObject (gst_cl_queue_get_shared_handle (pinned->ctx),
          pinned->mem, pinned->data, 0, NULL, &done) == CL_SUCCESS && done) {
    clWaitForEvents (1, &done);
    clReleaseEvent (done);
  }
  clReleaseMemObject (pinned->mem);
  gst_object_unref (pinned->ctx);
  g_free (pinned);
}

static const gchar **
gst_cl_buffer_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

static gboolean
gst_cl_buffer_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (pool);
  GstCaps *caps = NULL;
  guint size = 0, min = 0, max = 0;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max))
    return FALSE;
  self->video = caps && gst_video_info_from_caps (&self->info, caps);
  self->video_meta = self->video && gst_buffer_pool_config_has_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  /* a video frame's buffer is at least as large as its layout */
  self->size = self->video ? MAX (size, GST_VIDEO_INFO_SIZE (&self->info)) :
      size;
  if (self->video && self->size != size)
    gst_buffer_pool_config_set_params (config, caps, self->size, min, max);
  return GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->set_config
      (pool, config);
}

static GstMemory *
new_pinned_memory (GstClBufferPool * self, gsize size, GError ** error)
{
  Pinned *pinned = g_new0 (Pinned, 1);
  GstClQueue *shared;
  cl_int status = CL_SUCCESS;

  /* hundreds of streams start at once: their pools' allocations take turns
   * at the device too */
  gst_cl_gate_enter (gst_cl_gate_get (self->ctx));
  pinned->mem =
      clCreateBuffer (gst_cl_context_get_handle (self->ctx),
      CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, MAX (size, 1), NULL, &status);
  if (!gst_cl_result (status, error, "clCreateBuffer (CL_MEM_ALLOC_HOST_PTR)"))
    goto failed;
  if (!(shared = gst_cl_queue_get_shared (self->ctx, error)))
    goto failed;
  pinned->data = clEnqueueMapBuffer (shared->handle,
      pinned->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, MAX (size, 1), 0,
      NULL, NULL, &status);
  if (!gst_cl_result (status, error, "clEnqueueMapBuffer"))
    goto failed;
  gst_cl_gate_leave (gst_cl_gate_get (self->ctx));
  pinned->ctx = gst_object_ref (self->ctx);
  return gst_memory_new_wrapped (0, pinned->data, MAX (size, 1), 0, size,
      pinned, pinned_free);

failed:
  if (pinned->mem)
    clReleaseMemObject (pinned->mem);
  gst_cl_gate_leave (gst_cl_gate_get (self->ctx));
  g_free (pinned);
  return NULL;
}

/* Upstream, which acquires from a pool we proposed, sees only
 * GST_FLOW_ERROR: the OpenCL error goes on the bus from here. */
static void
post_alloc_error (GstClBufferPool * self, gsize size, GError * err)
{
  GstElement *element = g_weak_ref_get (&self->element);

  GST_WARNING_OBJECT (self, "no buffer of %" G_GSIZE_FORMAT " bytes: %s",
      size, err->message);
  if (element) {
    GST_CL_POST_ERROR (element, err);
    gst_object_unref (element);
  }
  g_error_free (err);
}

static GstFlowReturn
gst_cl_buffer_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (pool);
  GstVideoInfo *info = &self->info;
  gboolean planes = self->video && self->memory == GST_CL_POOL_DEVICE;
  guint n = planes ? GST_VIDEO_INFO_N_PLANES (info) : 1;
  guint p;

  *buffer = gst_buffer_new ();
  for (p = 0; p < n; p++) {
    /* a plane a memory: from its offset to the next plane's */
    gsize start = planes ? info->offset[p] : 0;
    gsize end = planes && p + 1 < n ? info->offset[p + 1] : self->size;
    GError *err = NULL;
    GstMemory *mem = self->memory == GST_CL_POOL_DEVICE ?
        gst_cl_memory_new (self->ctx, end - start, &err) :
        new_pinned_memory (self, end - start, &err);

    if (!mem) {
      post_alloc_error (self, end - start, err);
      gst_clear_buffer (buffer);
      return GST_FLOW_ERROR;
    }
    gst_buffer_append_memory (*buffer, mem);
  }
  /* device frames always carry their layout: there is nothing to guess */
  if (self->video_meta || planes)
    gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        info->offset, info->stride);
  return GST_FLOW_OK;
}

static void
gst_cl_buffer_pool_finalize (GObject * object)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (object);

  gst_clear_object (&self->ctx);
  g_weak_ref_clear (&self->element);
  G_OBJECT_CLASS (gst_cl_buffer_pool_parent_class)->finalize (object);
}

static void
gst_cl_buffer_pool_class_init (GstClBufferPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gst_cl_buffer_pool_finalize;
  pool_class->get_options = gst_cl_buffer_pool_get_options;
  pool_class->set_config = gst_cl_buffer_pool_set_config;
  pool_class->alloc_buffer = gst_cl_buffer_pool_alloc_buffer;
}

static void
gst_cl_buffer_pool_init (GstClBufferPool * self)
{
  g_weak_ref_init (&self->element, NULL);
}

/**
 * gst_cl_buffer_pool_new:
 * @memory: pinned host memory or device memory
 *
 * A pool to configure as any other: with video caps and the
 * %GST_BUFFER_POOL_OPTION_VIDEO_META option, its buffers hold video frames
 * of the caps' default layout and carry it as a #GstVideoMeta (device
 * frames always do).
 *
 * Returns: (transfer full): an inactive, unconfigured pool of buffers on
 *   @ctx's device, or in pinned host memory that it reads and writes by DMA
 */
GstBufferPool *
gst_cl_buffer_pool_new (GstClContext * ctx, GstClPoolMemory memory)
{
  GstClBufferPool *self = g_object_new (GST_TYPE_CL_BUFFER_POOL, NULL);

  gst_object_ref_sink (self);
  self->ctx = gst_object_ref (ctx);
  self->memory = memory;
  return GST_BUFFER_POOL (self);
}

/**
 * gst_cl_buffer_pool_set_element:
 * @element: (nullable): where to post an element error when a buffer cannot
 *   be allocated; not kept alive by @pool
 */
void
gst_cl_buffer_pool_set_element (GstBufferPool * pool, GstElement * element)
{
  g_return_if_fail (GST_IS_CL_BUFFER_POOL (pool));

  g_weak_ref_set (&GST_CL_BUFFER_POOL (pool)->element, element);
}

/**
 * gst_cl_buffer_pool_new_active:
 * @memory: pinned host memory or device memory
 * @size: bytes of every buffer
 *
 * Returns: (transfer full): an active pool of @size-byte buffers, each one
 *   memory: a #GstClMemory on @ctx's device, or pinned host memory that it
 *   reads and writes by DMA
 */
GstBufferPool *
gst_cl_buffer_pool_new_active (GstClContext * ctx, GstClPoolMemory memory,
    gsize size)
{
  GstBufferPool *pool = gst_cl_buffer_pool_new (ctx, memory);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, NULL, size, 0, 0);
  gst_buffer_pool_set_config (pool, config);
  gst_buffer_pool_set_active (pool, TRUE);
  return pool;
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
  return gst_cl_buffer_pool_new_active (ctx, GST_CL_POOL_PINNED, size);
}

/**
 * gst_cl_host_alignment:
 *
 * Returns: the alignment host memory the device of @ctx uses in place
 *   takes: its CL_DEVICE_MEM_BASE_ADDR_ALIGN, and on devices that share
 *   host memory at least a page, which some implementations (Intel's CPU
 *   runtime) need to use a buffer in place rather than copy it
 */
gsize
gst_cl_host_alignment (GstClContext * ctx)
{
  const GstClDeviceCaps *caps = gst_cl_context_get_caps (ctx);
  gsize align = MAX (caps->mem_base_addr_align / 8, 1);

  return caps->unified_memory ? MAX (align, 4096) : align;
}

/**
 * gst_cl_propose_allocation:
 * @element: the cl element, where the pool reports a buffer it cannot make
 * @query: an ALLOCATION query arriving at a cl element's sink pad
 *
 * Says that any stride and plane offset will do (GstVideoMeta), and so does
 * a crop of the frame (GstVideoCropMeta: videocrop then copies nothing); and
 * offers
 * upstream a pool to write its frames into: device memory for memory:OpenCL
 * caps; where frames cross to a discrete device, pinned memory, which it
 * reads by DMA, several times faster than ordinary memory. Devices sharing
 * host memory use any frame in place.
 */
void
gst_cl_propose_allocation (GstElement * element, GstClContext * ctx,
    GstQuery * query)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstCaps *caps = NULL;
  gboolean need_pool = FALSE, device;
  GstVideoInfo info;

  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_add_allocation_meta (query, GST_VIDEO_CROP_META_API_TYPE, NULL);
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!ctx || !caps || !gst_video_info_from_caps (&info, caps))
    return;
  device = gst_cl_caps_has_memory_feature (caps);
  if (!device && gst_cl_context_get_caps (ctx)->unified_memory) {
    /* frames used in place: upstream's own, aligned as the device wants */
    GstAllocationParams params;

    gst_allocation_params_init (&params);
    params.align = gst_cl_host_alignment (ctx) - 1;
    gst_query_add_allocation_param (query, NULL, &params);
    return;
  }
  if (!device && !need_pool)
    return;
  pool = gst_cl_buffer_pool_new (ctx, device ? GST_CL_POOL_DEVICE :
      GST_CL_POOL_PINNED);
  gst_cl_buffer_pool_set_element (pool, element);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      0, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (gst_buffer_pool_set_config (pool, config))
    gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info),
        0, 0);
  gst_object_unref (pool);
}

/* a pool whose buffers the element can write its output into: for device
 * frames, one of @ctx itself, as gst_cl_buffer_frame_map() uses only those
 * in place (another context wrapping the same cl_context has another queue) */
static gboolean
pool_fits (GstClContext * ctx, GstBufferPool * pool, gboolean device)
{
  GstClBufferPool *cl;

  if (!device)
    return pool != NULL;
  if (!GST_IS_CL_BUFFER_POOL (pool))
    return FALSE;
  cl = GST_CL_BUFFER_POOL (pool);
  return cl->memory == GST_CL_POOL_DEVICE && cl->ctx == ctx;
}

/**
 * gst_cl_decide_allocation:
 * @element: the cl element, where a pool of ours reports a buffer it cannot
 *   make
 * @query: the ALLOCATION query a cl element sent downstream, answered
 * @info: the output frames
 *
 * Leaves in @query the pool the output frames come from, configured:
 * downstream's when it offers one that fits (so that its strides are
 * honoured), else one of our own: device memory for memory:OpenCL caps,
 * else host memory aligned as the device likes memory it uses in place,
 * pinned where results come back from a discrete device.
 *
 * Returns: %FALSE if @query has no caps
 */
gboolean
gst_cl_decide_allocation (GstElement * element, GstClContext * ctx,
    GstQuery * query, const GstVideoInfo * info)
{
  GstBufferPool *pool = NULL;
  GstAllocator *allocator = NULL;
  GstAllocationParams params;
  GstStructure *config;
  GstCaps *caps;
  guint size, min = 0, max = 0;
  gsize align = gst_cl_host_alignment (ctx) - 1;
  gboolean update = gst_query_get_n_allocation_pools (query) > 0;
  gboolean device;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;
  device = gst_cl_caps_has_memory_feature (caps);

  /* the pool is configured with the query's allocation params: raise their
   * alignment there */
  gst_allocation_params_init (&params);
  if (gst_query_get_n_allocation_params (query) > 0) {
    gst_query_parse_nth_allocation_param (query, 0, &allocator, &params);
    params.align = MAX (params.align, align);
    gst_query_set_nth_allocation_param (query, 0, allocator, &params);
    gst_clear_object (&allocator);
  } else {
    params.align = align;
    gst_query_add_allocation_param (query, NULL, &params);
  }

  size = GST_VIDEO_INFO_SIZE (info);
  if (update)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (!pool_fits (ctx, pool, device)) {
    gst_clear_object (&pool);
    size = GST_VIDEO_INFO_SIZE (info);
    if (device)
      pool = gst_cl_buffer_pool_new (ctx, GST_CL_POOL_DEVICE);
    else if (gst_cl_context_get_caps (ctx)->unified_memory)
      pool = gst_video_buffer_pool_new ();
    else
      pool = gst_cl_buffer_pool_new (ctx, GST_CL_POOL_PINNED);
    if (GST_IS_CL_BUFFER_POOL (pool))
      gst_cl_buffer_pool_set_element (pool, element);
  }

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_set_allocator (config, NULL, &params);
  if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min, max)
        || !gst_buffer_pool_set_config (pool, config)) {
      GST_WARNING_OBJECT (pool, "the pool refused our configuration");
      gst_clear_object (&pool);
    }
  }

  if (pool && update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else if (pool)
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_clear_object (&pool);
  return TRUE;
}
