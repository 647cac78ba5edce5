/* gstclfilters: what a cl element keeps on its device, and its frame pass
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Shared by the two element bases, the filter (GstBaseTransform) and the
 * aggregator (GstVideoAggregator): the context found or created on the way
 * to READY and shared through GstContext, the element's queue, the kernels
 * and buffers it keeps on the device, and one pass of a frame: map the
 * output and the inputs, run the element's kernels, send the output on its
 * way, unmap. Elements never touch queues, events or mapping themselves.
 */
#include "gstclcore.h"
#include "gstclerror.h"
#include "gstclframe.h"
#include "gstclgate.h"
#include "gstclkernel.h"
#include "gstclkernels.h"
#include "gstclmemory.h"
#include "gstclpacked.h"
#include "gstclprogram.h"
#include "gstclqueue.h"
#include "gstclreadback.h"
#include "gstclutils.h"
#include "gstclcuda.h"
#include "gstcldevice.h"
#include "gstclpool.h"

#define DEFAULT_DEVICE_INDEX -1
#define DEFAULT_VARIANT GST_CL_VARIANT_OPTIMIZED
#define N_SCRATCH 8
/* staging: the output's, then an input's each */
#define N_STAGING (1 + GST_CL_CORE_MAX_INPUTS)

struct _GstClCore
{
  GstElement *element;          /* the core's owner: no reference */
  guint device_index_id;
  guint variant_id;
  /* properties, under the element's object lock */
  gint device_index;
  GstClVariant variant;
  /* the device the element moved to, following frames in CUDA memory, or
   * -1 (gst_cl_core_start()) */
  gint followed_index;

  GstClContext *ctx;
  GstClGate *gate;              /* the context's device's */
  /* GStreamer's CUDA context (GstCudaContext) of CUDA memory output */
  GstObject *cuda_ctx;
  /* the element's work on the device: the queue of its last frame */
  GstClQueue *queue;
  GHashTable *kernels;          /* "source|options|name" -> cl_kernel */
  GstClPacked packed;           /* made with the caps */
  cl_mem scratch[N_SCRATCH];
  gsize scratch_size[N_SCRATCH];
  /* gst_cl_core_read_scratch()'s reads */
  GstClReadback readback;
  GstClStaging staging[N_STAGING];
  GstClBufferFrame tables;      /* gst_cl_core_map_tables()'s */
};

GType
gst_cl_variant_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {GST_CL_VARIANT_REFERENCE, "The element's straightforward kernels (one "
          "output a work-item), the baseline", "reference"},
    {GST_CL_VARIANT_OPTIMIZED, "The element's kernels chosen for this "
          "device; the same as reference where the element has only those",
        "optimized"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType type = g_enum_register_static ("GstClVariant", values);
    g_once_init_leave (&id, type);
  }
  return (GType) id;
}

/**
 * gst_cl_core_install_properties:
 * @device_index_id: the property id to give `device-index`
 * @variant_id: the property id to give `variant`
 *
 * Installs the properties every cl element has; the element passes the
 * same ids to gst_cl_core_new().
 */
void
gst_cl_core_install_properties (GObjectClass * klass, guint device_index_id,
    guint variant_id)
{
  g_object_class_install_property (klass, device_index_id,
      g_param_spec_int ("device-index", "Device index",
          "OpenCL device to use, counting platform by platform as clinfo -l "
          "lists them; -1 picks "
          "the one GST_CL_DEVICE names, else a GPU, else an accelerator, "
          "else a CPU; set it in the NULL state, the device is taken on the "
          "way to READY", -1, G_MAXINT, DEFAULT_DEVICE_INDEX,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (klass, variant_id,
      g_param_spec_enum ("variant", "Variant",
          "Kernel implementation; both give the same output",
          GST_TYPE_CL_VARIANT, DEFAULT_VARIANT, G_PARAM_READWRITE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));
}

/**
 * gst_cl_core_template_caps:
 * @caps: video caps of the formats an element takes
 *
 * Returns: (transfer full): @caps as a cl element's pad templates take
 *   them: in memory:OpenCL and in system memory, and progressive, as the
 *   kernels would mix the two fields of interlaced video
 */
GstCaps *
gst_cl_core_template_caps (const gchar * caps)
{
  GstCaps *raw = gst_caps_from_string (caps);
  GstCaps *templ;

  gst_caps_set_simple (raw, "interlace-mode", G_TYPE_STRING, "progressive",
      NULL);
  templ = gst_cl_caps_add_memory_feature (raw);
  gst_caps_unref (raw);
  return templ;
}

static void
release_kernel (gpointer kernel)
{
  clReleaseKernel (kernel);
}

/**
 * gst_cl_core_new:
 * @element: the element the core is for; it frees the core before itself
 *
 * Returns: (transfer full): a new core, with no context until
 *   gst_cl_core_open() or gst_cl_core_set_context()
 */
GstClCore *
gst_cl_core_new (GstElement * element, guint device_index_id, guint variant_id)
{
  GstClCore *core = g_new0 (GstClCore, 1);

  /* frames in CUDA memory go through gstclcudaframe.c */
  gst_cl_cuda_frames_register ();
  core->element = element;
  core->device_index_id = device_index_id;
  core->variant_id = variant_id;
  core->device_index = DEFAULT_DEVICE_INDEX;
  core->followed_index = -1;
  core->variant = DEFAULT_VARIANT;
  core->kernels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      release_kernel);
  return core;
}

/* What the element keeps on the device, released before its context. */
static void
release_device_state (GstClCore * core)
{
  guint i;

  gst_cl_readback_wait (&core->readback, core->queue, NULL);
  gst_cl_packed_clear (&core->packed);
  g_hash_table_remove_all (core->kernels);
  for (i = 0; i < N_SCRATCH; i++) {
    if (core->scratch[i])
      clReleaseMemObject (core->scratch[i]);
    core->scratch[i] = NULL;
    core->scratch_size[i] = 0;
  }
  for (i = 0; i < N_STAGING; i++)
    gst_cl_staging_clear (&core->staging[i]);
  g_clear_pointer (&core->queue, gst_cl_queue_free);
}

void
gst_cl_core_free (GstClCore * core)
{
  if (!core)
    return;
  release_device_state (core);
  g_hash_table_unref (core->kernels);
  gst_clear_object (&core->ctx);
  g_free (core);
}

/**
 * gst_cl_core_set_property:
 *
 * Returns: %TRUE where @prop_id is one of the core's, now set
 */
gboolean
gst_cl_core_set_property (GstClCore * core, guint prop_id, const GValue * value)
{
  if (prop_id != core->device_index_id && prop_id != core->variant_id)
    return FALSE;
  GST_OBJECT_LOCK (core->element);
  if (prop_id == core->device_index_id)
    core->device_index = g_value_get_int (value);
  else
    core->variant = g_value_get_enum (value);
  GST_OBJECT_UNLOCK (core->element);
  return TRUE;
}

/**
 * gst_cl_core_get_property:
 *
 * Returns: %TRUE where @prop_id is one of the core's, now in @value
 */
gboolean
gst_cl_core_get_property (GstClCore * core, guint prop_id, GValue * value)
{
  if (prop_id != core->device_index_id && prop_id != core->variant_id)
    return FALSE;
  GST_OBJECT_LOCK (core->element);
  if (prop_id == core->device_index_id)
    g_value_set_int (value, core->device_index);
  else
    g_value_set_enum (value, core->variant);
  GST_OBJECT_UNLOCK (core->element);
  return TRUE;
}

/**
 * gst_cl_core_get_variant:
 *
 * Returns: the `variant` property, read under the object lock
 */
GstClVariant
gst_cl_core_get_variant (GstClCore * core)
{
  GstClVariant variant;

  GST_OBJECT_LOCK (core->element);
  variant = core->variant;
  GST_OBJECT_UNLOCK (core->element);
  return variant;
}

/* the context, referenced, for queries from threads racing to NULL */
static GstClContext *
context_ref (GstClCore * core)
{
  GstClContext *ctx;

  GST_OBJECT_LOCK (core->element);
  ctx = core->ctx ? gst_object_ref (core->ctx) : NULL;
  GST_OBJECT_UNLOCK (core->element);
  return ctx;
}

static void
context_clear (GstClCore * core)
{
  GstClContext *ctx;

  GST_OBJECT_LOCK (core->element);
  ctx = core->ctx;
  core->ctx = NULL;
  core->gate = NULL;
  GST_OBJECT_UNLOCK (core->element);
  gst_clear_object (&ctx);
}

/**
 * gst_cl_core_open:
 *
 * On the way to READY: takes a context shared in the pipeline, or creates
 * one (see gst_cl_ensure_element_context()); posts an element error where
 * none can be had.
 *
 * Returns: %TRUE when the core has a context
 */
gboolean
gst_cl_core_open (GstClCore * core)
{
  return gst_cl_ensure_element_context (core->element, core->device_index,
      &core->ctx);
}

/**
 * gst_cl_core_start:
 *
 * On the way to PAUSED, where the element chooses its device
 * (`device-index` -1, no GST_CL_DEVICE): frames from upstream in CUDA
 * memory (a decoder's) are on the GPU of the CUDA context upstream
 * shares; the element moves to that GPU's OpenCL device, whose context is
 * shared in turn. Posts an element error where the move fails. The core's
 * own programs start building in the background, and the element's queue
 * is made.
 *
 * Returns: %TRUE when the core has a context
 */
static gboolean
follow_upstream (GstClCore * core)
{
  GstObject *cuda_ctx;
  gint index, device_index;
  gchar *env = gst_cl_device_env ();
  gboolean named = *env != '\0';

  g_free (env);
  GST_OBJECT_LOCK (core->element);
  device_index = core->device_index;
  GST_OBJECT_UNLOCK (core->element);
  if (device_index >= 0 || named || !core->ctx ||
      !(cuda_ctx = gst_cl_cuda_query_upstream (core->element)))
    return core->ctx != NULL;
  index = gst_cl_cuda_device_index (cuda_ctx);
  if (index >= 0 && index != gst_cl_context_get_device_index (core->ctx)) {
    GST_INFO_OBJECT (core->element, "upstream's frames are in CUDA memory "
        "of OpenCL device %d: moving there from \"%s\"", index,
        gst_cl_context_get_device_name (core->ctx));
    release_device_state (core);
    context_clear (core);
    /* a context the pipeline shares is taken only if it is that device's */
    core->followed_index = index;
    if (!gst_cl_ensure_element_context (core->element, index, &core->ctx)) {
      gst_object_unref (cuda_ctx);
      return FALSE;
    }
  }
  gst_object_replace (&core->cuda_ctx, cuda_ctx);
  gst_object_unref (cuda_ctx);
  return TRUE;
}

gboolean
gst_cl_core_start (GstClCore * core)
{
  GError *err = NULL;

  if (!follow_upstream (core))
    return FALSE;
  /* the core's own kernels (copies, packed 4:2:2) start building in the
   * background, ahead of any caps */
  gst_cl_program_ready (core->ctx, gst_cl_kernel_plane, "");
  core->gate = gst_cl_gate_get (core->ctx);
  if (!core->queue && !(core->queue = gst_cl_queue_new (core->ctx, &err))) {
    GST_CL_POST_ERROR (core->element, err);
    g_clear_error (&err);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_cl_core_stop:
 *
 * On the way back to READY: frames sent on are complete when their events
 * say so; what is left on the queue is the element's own, done here.
 */
void
gst_cl_core_stop (GstClCore * core)
{
  if (core->queue && core->queue->handle)
    clFinish (core->queue->handle);
}

/**
 * gst_cl_core_close:
 *
 * On the way to NULL: releases what the element keeps on the device, and
 * its context.
 */
void
gst_cl_core_close (GstClCore * core)
{
  release_device_state (core);
  /* no build it may have started in the background outlives the element:
   * the process may end as soon as its last element is gone, a driver's
   * compiler still running (Intel's aborts then) */
  if (core->ctx)
    gst_cl_program_wait_builds (core->ctx);
  context_clear (core);
  gst_clear_object (&core->cuda_ctx);
  core->followed_index = -1;
}

/**
 * gst_cl_core_set_context:
 *
 * For the element's set_context(): takes a context of its device that the
 * pipeline shares, where it has none yet; likewise GStreamer's CUDA
 * context, for output in CUDA memory.
 */
void
gst_cl_core_set_context (GstClCore * core, GstContext * context)
{
  if (!gst_cl_handle_set_context (core->element, context,
          core->followed_index >= 0 ? core->followed_index :
          core->device_index, &core->ctx))
    gst_cl_cuda_handle_set_context (core->element, context, &core->cuda_ctx);
}

/**
 * gst_cl_core_query:
 *
 * Returns: %TRUE where @query was a context query, answered
 */
gboolean
gst_cl_core_query (GstClCore * core, GstQuery * query)
{
  GstClContext *ctx;
  gboolean answered;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  ctx = context_ref (core);
  answered = gst_cl_handle_context_query (core->element, query, ctx) ||
      gst_cl_cuda_handle_context_query (core->element, query, core->cuda_ctx);
  gst_clear_object (&ctx);
  return answered;
}

/**
 * gst_cl_core_usable_caps:
 * @caps: (transfer full): caps a pad of the element could take or give
 *
 * Where the element's device cannot take frames in CUDA memory (an OpenCL
 * driver without cl_khr_external_memory_opaque_fd), @caps less their
 * memory:CUDAMemory structures, so that a decoder downloads its frames
 * for the element as before; before the element has a device, @caps.
 *
 * Returns: (transfer full): the caps
 */
GstCaps *
gst_cl_core_usable_caps (GstClCore * core, GstCaps * caps)
{
  GstClContext *ctx = context_ref (core);
  gboolean all = !ctx || !gst_cl_cuda_available () ||
      gst_caps_is_any (caps) || gst_cl_cuda_context_takes (ctx);
  guint i;

  gst_clear_object (&ctx);
  if (all)
    return caps;
  caps = gst_caps_make_writable (caps);
  for (i = gst_caps_get_size (caps); i > 0; i--) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i - 1);

    if (f && !gst_caps_features_is_any (f) &&
        gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_CUDA))
      gst_caps_remove_structure (caps, i - 1);
  }
  return caps;
}

/**
 * gst_cl_core_propose_allocation:
 * @query: an ALLOCATION query arriving at a sink pad of the element
 *
 * See gst_cl_propose_allocation(); frames in CUDA memory come in the
 * pool of the element upstream (a decoder's), which the core copies from.
 */
void
gst_cl_core_propose_allocation (GstClCore * core, GstQuery * query)
{
  GstCaps *caps = NULL;

  gst_query_parse_allocation (query, &caps, NULL);
  if (gst_cl_caps_has_cuda_feature (caps)) {
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    gst_query_add_allocation_meta (query, GST_VIDEO_CROP_META_API_TYPE, NULL);
    return;
  }
  gst_cl_propose_allocation (core->element, core->ctx, query);
}

/**
 * gst_cl_core_decide_allocation:
 * @query: the ALLOCATION query the element sent downstream, answered
 * @info: the output frames
 *
 * See gst_cl_decide_allocation(); for output in CUDA memory, a pool of
 * GstCudaMemory on the element's GPU.
 *
 * Returns: %FALSE if @query has no caps, or no pool can be had
 */
gboolean
gst_cl_core_decide_allocation (GstClCore * core, GstQuery * query,
    const GstVideoInfo * info)
{
  GstCaps *caps = NULL;

  gst_query_parse_allocation (query, &caps, NULL);
  if (gst_cl_caps_has_cuda_feature (caps))
    return gst_cl_cuda_decide_allocation (core->element, core->ctx,
        &core->cuda_ctx, query, caps, info);
  return gst_cl_decide_allocation (core->element, core->ctx, query, info);
}

/**
 * gst_cl_core_get_context:
 *
 * Returns: (transfer none) (nullable): the context, set from READY on
 */
GstClContext *
gst_cl_core_get_context (GstClCore * core)
{
  return core->ctx;
}

/**
 * gst_cl_core_get_queue:
 *
 * Returns: (transfer none) (nullable): the element's work on the device,
 *   on the queue of its last frame
 */
GstClQueue *
gst_cl_core_get_queue (GstClCore * core)
{
  return core->queue;
}

/**
 * gst_cl_core_follow_thread:
 *
 * Takes the calling thread's queue for the frame at hand (see
 * gst_cl_queue_follow_thread()).
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_core_follow_thread (GstClCore * core, GError ** error)
{
  if (!core->queue) {
    /* the queue is made on the way to PAUSED (gst_cl_core_start()) */
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_STATE_CHANGE,
        "a frame came before the element was started (READY to PAUSED)");
    return FALSE;
  }
  return gst_cl_queue_follow_thread (core->queue, error);
}

/**
 * gst_cl_core_get_kernel:
 *
 * Kernels are created once per (source, options, name) and kept until the
 * element goes back to NULL; their programs are shared by the context.
 *
 * Returns: (transfer none) (nullable): the kernel
 */
cl_kernel
gst_cl_core_get_kernel (GstClCore * core, const gchar * source,
    const gchar * options, const gchar * name, GError ** error)
{
  gchar *key = g_strdup_printf ("%p|%s|%s", source, options, name);
  cl_kernel kernel = g_hash_table_lookup (core->kernels, key);

  if (kernel) {
    g_free (key);
    return kernel;
  }
  kernel = gst_cl_kernel_new (core->ctx, source, options, name, error);
  if (kernel)
    g_hash_table_insert (core->kernels, key, kernel);
  else
    g_free (key);
  return kernel;
}

/**
 * gst_cl_core_get_scratch:
 * @slot: which of the element's scratch buffers, 0 to 7
 *
 * Returns: (transfer none) (nullable): a device buffer of at least @size
 *   bytes, kept from frame to frame
 */
cl_mem
gst_cl_core_get_scratch (GstClCore * core, guint slot, gsize size,
    GError ** error)
{
  g_return_val_if_fail (slot < N_SCRATCH, NULL);
  /* readable from the host: analysing elements read their results back */
  return gst_cl_device_buffer_ensure (core->queue->context,
      &core->scratch[slot], &core->scratch_size[slot], size,
      "clCreateBuffer (scratch)", error);
}

/**
 * gst_cl_core_read_scratch:
 * @dest: where the bytes go, valid until the read is found over
 *
 * Enqueues a read of the first @size bytes of scratch buffer @slot into
 * @dest, after the commands enqueued so far, and submits it: an element's
 * results for the host (clcore never waits for it here; GstClReadback).
 * One read at a time: before @dest is read, or another read is enqueued,
 * the element finds it over with gst_cl_core_read_poll().
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_core_read_scratch (GstClCore * core, guint slot, gsize size,
    gpointer dest, GError ** error)
{
  g_return_val_if_fail (slot < N_SCRATCH, FALSE);

  if (!core->scratch[slot] || core->scratch_size[slot] < size) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "no scratch buffer %u of %" G_GSIZE_FORMAT " bytes to read", slot,
        size);
    return FALSE;
  }
  return gst_cl_readback_start (&core->readback, core->queue,
      core->scratch[slot], size, dest, error);
}

/**
 * gst_cl_core_read_poll:
 * @arrived: (out): whether the read that was under way delivered its bytes
 *
 * Asks, without waiting, whether gst_cl_core_read_scratch()'s read is
 * over: for results the host only reports, which never hold up a frame.
 *
 * Returns: %TRUE when no read is under way any more (or there was none)
 */
gboolean
gst_cl_core_read_poll (GstClCore * core, gboolean * arrived)
{
  GError *err = NULL;

  if (!gst_cl_readback_poll (&core->readback, arrived, &err))
    return FALSE;
  if (err) {
    GST_WARNING_OBJECT (core->element, "a read of results failed: %s",
        err->message);
    g_error_free (err);
  }
  return TRUE;
}

/* work-items of kernels/plane.cl for a row: 16 bytes each */
#define PLANE_CHUNKS(row_bytes) (((gsize) (row_bytes) + 15) / 16)

/**
 * gst_cl_core_copy_plane:
 * @src: a plane of the same size and pixel stride as @dst
 *
 * Enqueues a copy of the pixels of @src into @dst, whatever their strides:
 * clEnqueueCopyBuffer where neither has padding, else a kernel. Not
 * clEnqueueCopyBufferRect: drivers differ on whether a rectangle may end
 * before the last row's full pitch, which a plane's buffer does.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_core_copy_plane (GstClCore * core, const GstClPlane * src,
    const GstClPlane * dst, GError ** error)
{
  gint row_bytes = src->width * src->pstride;
  gsize global[2] = { PLANE_CHUNKS (row_bytes), src->height };
  cl_kernel k;

  g_return_val_if_fail (src->width == dst->width &&
      src->height == dst->height && src->pstride == dst->pstride, FALSE);
  /* rows without padding: one plain copy, one call into the driver */
  if (src->stride == row_bytes && dst->stride == row_bytes)
    return gst_cl_kernel_enqueue_copy (core->queue, src->mem, dst->mem,
        gst_cl_plane_size (src), error);
  k = gst_cl_core_get_kernel (core, gst_cl_kernel_plane, "", "plane_copy",
      error);
  return k && gst_cl_kernel_set_args (k, error, 5, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
      GST_CL_ARG (dst->stride), GST_CL_ARG (row_bytes)) &&
      gst_cl_kernel_enqueue (core->queue, k, 2, global, NULL, error);
}

/**
 * gst_cl_core_fill_plane:
 *
 * Enqueues setting every byte of the pixels of @plane to @value. The padding
 * at the end of the rows is left alone: a GstVideoMeta may place another
 * plane there, and clEnqueueFillBuffer knows no strides, so it fills only
 * planes without padding.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_core_fill_plane (GstClCore * core, const GstClPlane * plane,
    guint8 value, GError ** error)
{
  gint row_bytes = plane->width * plane->pstride, fill = value;
  gsize global[2] = { PLANE_CHUNKS (row_bytes), plane->height };
  cl_kernel k;

  if (plane->stride == row_bytes)
    return gst_cl_kernel_enqueue_fill (core->queue, plane->mem, value,
        gst_cl_plane_size (plane), error);
  k = gst_cl_core_get_kernel (core, gst_cl_kernel_plane, "", "plane_fill",
      error);
  return k && gst_cl_kernel_set_args (k, error, 4, GST_CL_ARG (plane->mem),
      GST_CL_ARG (plane->stride), GST_CL_ARG (row_bytes), GST_CL_ARG (fill)) &&
      gst_cl_kernel_enqueue (core->queue, k, 2, global, NULL, error);
}

/**
 * gst_cl_core_fits_device:
 *
 * Returns: whether frames of @info fit the device (see
 *   gst_cl_frame_fits_device(), which posts the error where not); %TRUE
 *   before the core has a context
 */
gboolean
gst_cl_core_fits_device (GstClCore * core, const GstVideoInfo * info)
{
  GstClContext *ctx = context_ref (core);
  gboolean fits = !ctx || gst_cl_frame_fits_device (core->element, ctx, info);

  gst_clear_object (&ctx);
  return fits;
}

/**
 * gst_cl_core_caps_fit_device:
 *
 * gst_cl_core_fits_device() for video caps; %TRUE for caps that are not.
 */
gboolean
gst_cl_core_caps_fit_device (GstClCore * core, GstCaps * caps)
{
  GstVideoInfo info;

  return !gst_video_info_from_caps (&info, caps) ||
      gst_cl_core_fits_device (core, &info);
}

/**
 * gst_cl_core_set_info:
 *
 * In the thread of the frame passes, for frames of @info that the element
 * settles on, in or out: gst_cl_core_fits_device(), and the kernels they
 * need beyond the element's (those that unpack packed 4:2:2 to planes and
 * pack it back) made, not left to the first frame. Posts an element error
 * where a kernel cannot be made.
 *
 * Returns: %TRUE when frames of @info can go through the core
 */
gboolean
gst_cl_core_set_info (GstClCore * core, const GstVideoInfo * info)
{
  GError *err = NULL;

  if (!gst_cl_core_fits_device (core, info))
    return FALSE;
  if (!core->ctx || gst_cl_packed_prepare (&core->packed, core->ctx, info,
          &err))
    return TRUE;
  GST_CL_POST_ERROR (core->element, err);
  g_clear_error (&err);
  return FALSE;
}

/**
 * gst_cl_core_process:
 * @output: (nullable): the output buffer, writable, or %NULL for none
 * @out_info: (nullable): its layout
 * @inputs: @n_inputs buffers, %NULL for an input without a frame
 * @in_infos: their layouts
 * @in_flags: more map flags for the inputs (%GST_VIDEO_FRAME_MAP_FLAG_NO_REF
 *   for an input that stays writable, as an analysing element's)
 * @run: enqueues the kernels, given the frames on the device
 *
 * One frame pass: in the device's gate, on the calling thread's queue, the
 * output and the inputs on the device (their own memory, in place, or
 * through the core's staging buffers; those in CUDA memory acquired for
 * OpenCL in one call), @run, the output sent on (copied
 * back where it is in host memory), every frame unmapped. Frames of packed
 * 4:2:2 reach @run as the planes of their kernel view
 * (gst_cl_video_info_kernel_view()), unpacked before it and packed after.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_core_process (GstClCore * core, GstBuffer * output,
    const GstVideoInfo * out_info, guint n_inputs, GstBuffer * const *inputs,
    const GstVideoInfo * const *in_infos, GstMapFlags in_flags,
    GstClCoreRun run, gpointer data, GError ** error)
{
  GstClBufferFrame out, in[GST_CL_CORE_MAX_INPUTS];
  GstClBufferFrame *mapped[GST_CL_CORE_MAX_INPUTS + 1];
  const GstClFrame *frames[GST_CL_CORE_MAX_INPUTS] = { NULL, };
  GstClFrame planar[N_STAGING];
  const GstClFrame *out_frame = NULL;
  gboolean ok, out_mapped = FALSE, out_packed = FALSE;
  GstVideoInfo view;
  guint i, n_mapped = 0, n_in = 0;

  g_return_val_if_fail (n_inputs <= GST_CL_CORE_MAX_INPUTS, FALSE);

  gst_cl_gate_enter (core->gate);
  /* the output first: where it is copied back to the host, waiting for
   * that copy waits for the inputs' copies to the device too */
  ok = gst_cl_core_follow_thread (core, error);
  if (ok && output)
    ok = out_mapped = gst_cl_buffer_frame_map (core->queue, &out, out_info,
        output, GST_MAP_WRITE, &core->staging[0], error);
  if (out_mapped && out.mapped)
    in_flags |= GST_CL_MAP_FOLLOWED;
  for (i = 0; ok && i < n_inputs; i++, n_mapped++) {
    if (!inputs[i])
      continue;
    ok = gst_cl_buffer_frame_map (core->queue, &in[i], in_infos[i],
        inputs[i], GST_MAP_READ | in_flags, &core->staging[1 + i], error);
    if (ok) {
      frames[i] = &in[i].frame;
      mapped[1 + n_in++] = &in[i];
    }
  }
  /* the output's and the inputs' frames in CUDA memory, before the first
   * kernel */
  mapped[0] = &out;
  ok = ok && gst_cl_buffer_frames_acquire (core->queue, out_mapped ? mapped :
      mapped + 1, n_in + (out_mapped ? 1 : 0), error);
  /* a packed output's planar staging, before the inputs' conversions */
  if (ok && output) {
    out_frame = &out.frame;
    out_packed = gst_cl_video_info_kernel_view (out_info, &view);
    if (out_packed) {
      ok = gst_cl_staging_planar (&core->staging[0], core->queue->context,
          out_info, &planar[0], error);
      out_frame = &planar[0];
    }
  }
  for (i = 0; ok && i < n_inputs; i++) {
    /* a frame still mapped when this fails: unmapped below */
    if (frames[i] && gst_cl_video_info_kernel_view (in_infos[i], &view)) {
      frames[i] = &planar[1 + i];
      ok = gst_cl_packed_convert (&core->packed, core->queue, in_infos[i],
          &in[i].frame.planes[0], &core->staging[1 + i], &planar[1 + i], error);
    }
  }
  ok = ok && run (data, frames, out_frame, error) &&
      (!out_packed || gst_cl_packed_convert (&core->packed, core->queue,
          out_info, &out.frame.planes[0], NULL, &planar[0], error)) &&
      (!output || gst_cl_buffer_frame_finish (core->queue, &out, mapped + 1,
          n_in, error));
  if (out_mapped)
    gst_cl_buffer_frame_unmap (core->queue, &out);
  /* an input that failed to map is not mapped */
  for (i = n_mapped; i > 0; i--)
    if (frames[i - 1])
      gst_cl_buffer_frame_unmap (core->queue, &in[i - 1]);
  gst_cl_gate_leave (core->gate);
  return ok;
}

/**
 * gst_cl_core_map_tables:
 * @buffers: @n buffers, each one #GstClMemory of the core's context, for
 *   tables the element computes (not video frames)
 * @mems: (out caller-allocates): their device buffers, @n of them
 *
 * Inside a frame pass, before the element's kernels write the tables: the
 * kernels enqueued next wait for what still uses them. Followed by
 * gst_cl_core_unmap_tables() once they are enqueued.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_core_map_tables (GstClCore * core, GstBuffer * const *buffers,
    guint n, cl_mem * mems, GError ** error)
{
  guint i;

  if (!gst_cl_buffer_frame_map_tables (core->queue, &core->tables, buffers, n,
          GST_MAP_WRITE, error))
    return FALSE;
  for (i = 0; i < n; i++)
    mems[i] = core->tables.frame.planes[i].mem;
  return TRUE;
}

/**
 * gst_cl_core_unmap_tables:
 *
 * The commands enqueued so far become the writers of the tables of
 * gst_cl_core_map_tables(), which maps and later frames wait for.
 */
void
gst_cl_core_unmap_tables (GstClCore * core)
{
  gst_cl_buffer_frame_unmap (core->queue, &core->tables);
}
