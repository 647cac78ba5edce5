/* gstclfilters: abstract base class of the single-input OpenCL filters
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Owns what every filter shares: the OpenCL context (found or created when
 * going to READY, shared through GstContext), the kernels and scratch buffers
 * on it, the moves between host and device, errors, QoS, controlled values and
 * passthrough. A subclass declares formats and properties and enqueues its
 * kernels in dispatch(), or, if it passes the video through, in analyse().
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclbasefilter.h"
#include "gstclpool.h"
#include "gstclmemory.h"
#include "gstclerror.h"
#include "gstclgate.h"
#include "gstclkernel.h"
#include "gstclkernels.h"
#include "gstclutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

#define DEFAULT_DEVICE_INDEX -1
#define DEFAULT_VARIANT GST_CL_VARIANT_OPTIMIZED
#define N_SCRATCH 4

enum
{
  PROP_0,
  PROP_DEVICE_INDEX,
  PROP_VARIANT,
};

typedef struct
{
  gint device_index;
  GstClVariant variant;

  GstClContext *ctx;
  /* the element's work on the device: the queue of its last frame */
  GstClQueue *queue;
  GHashTable *kernels;
  cl_mem scratch[N_SCRATCH];
  gsize scratch_size[N_SCRATCH];
  GstClStaging in_staging;
  GstClStaging out_staging;

  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gboolean negotiated;
  /* system memory in, memory:OpenCL out: a frame cannot pass as it is */
  gboolean uploads;
  /* the properties leave frames unchanged */
  gboolean identity;
  gboolean cropped;             /* the input at hand has a GstVideoCropMeta */
  gint64 last_qos_message;      /* monotonic us; 0: none yet */
} GstClBaseFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClBaseFilter, gst_cl_base_filter,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstClBaseFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cl_base_filter_debug, "clbasefilter", 0,
        "OpenCL base filter"));

#define GET_PRIV(f) \
    ((GstClBaseFilterPrivate *) gst_cl_base_filter_get_instance_private (f))

GType
gst_cl_variant_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {GST_CL_VARIANT_REFERENCE, "One output per work-item, the baseline",
        "reference"},
    {GST_CL_VARIANT_OPTIMIZED, "The fast kernels for this device",
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
 * gst_cl_base_filter_class_add_pad_templates:
 * @caps: the formats, the same on both pads
 *
 * Adds always "sink" and "src" pad templates of @caps, in memory:OpenCL
 * and in system memory.
 */
void
gst_cl_base_filter_class_add_pad_templates (GstClBaseFilterClass * klass,
    const gchar * caps)
{
  GstElementClass *eclass = GST_ELEMENT_CLASS (klass);
  GstCaps *raw = gst_caps_from_string (caps);
  GstCaps *templ;

  /* the neighbourhood filters would mix the two fields of interlaced video */
  gst_caps_set_simple (raw, "interlace-mode", G_TYPE_STRING, "progressive",
      NULL);
  templ = gst_cl_caps_add_memory_feature (raw);
  gst_caps_unref (raw);

  gst_element_class_add_pad_template (eclass,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, templ));
  gst_element_class_add_pad_template (eclass,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, templ));
  gst_caps_unref (templ);
}

static void
release_device_state (GstClBaseFilter * self)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (self);
  guint i;

  g_hash_table_remove_all (priv->kernels);
  for (i = 0; i < N_SCRATCH; i++) {
    if (priv->scratch[i])
      clReleaseMemObject (priv->scratch[i]);
    priv->scratch[i] = NULL;
    priv->scratch_size[i] = 0;
  }
  gst_cl_staging_clear (&priv->in_staging);
  gst_cl_staging_clear (&priv->out_staging);
  g_clear_pointer (&priv->queue, gst_cl_queue_free);
}

/**
 * gst_cl_base_filter_get_context:
 *
 * Returns: (transfer none) (nullable): the context, set from READY on
 */
GstClContext *
gst_cl_base_filter_get_context (GstClBaseFilter * filter)
{
  return GET_PRIV (filter)->ctx;
}

/**
 * gst_cl_base_filter_get_queue:
 *
 * Returns: (transfer none) (nullable): the element's work on the device,
 *   on the queue of its last frame (see gst_cl_queue_follow_thread())
 */
GstClQueue *
gst_cl_base_filter_get_queue (GstClBaseFilter * filter)
{
  return GET_PRIV (filter)->queue;
}

/* Takes the calling thread's queue for the frame at hand. */
static gboolean
follow_thread (GstClBaseFilter * filter, GError ** error)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (filter);

  if (!priv->queue)
    priv->queue = gst_cl_queue_new (priv->ctx);
  return gst_cl_queue_follow_thread (priv->queue, error);
}

/**
 * gst_cl_base_filter_enqueue_kernel:
 *
 * gst_cl_kernel_enqueue() on the element's queue.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_base_filter_enqueue_kernel (GstClBaseFilter * filter, cl_kernel kernel,
    guint dims, const gsize * global, const gsize * local, GError ** error)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (filter);

  return gst_cl_kernel_enqueue (priv->queue, kernel, dims, global, local,
      error);
}

/**
 * gst_cl_base_filter_get_variant:
 *
 * Returns: the `variant` property, read under the object lock
 */
GstClVariant
gst_cl_base_filter_get_variant (GstClBaseFilter * filter)
{
  GstClVariant variant;

  GST_OBJECT_LOCK (filter);
  variant = GET_PRIV (filter)->variant;
  GST_OBJECT_UNLOCK (filter);
  return variant;
}

/**
 * gst_cl_base_filter_get_kernel:
 *
 * Kernels are created once per (source, options, name) and kept until the
 * element goes back to NULL; their programs are shared by the context.
 *
 * Returns: (transfer none) (nullable): the kernel
 */
cl_kernel
gst_cl_base_filter_get_kernel (GstClBaseFilter * filter, const gchar * source,
    const gchar * options, const gchar * name, GError ** error)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (filter);
  gchar *key = g_strdup_printf ("%p|%s|%s", source, options, name);
  cl_kernel kernel = g_hash_table_lookup (priv->kernels, key);

  if (kernel) {
    g_free (key);
    return kernel;
  }
  kernel = gst_cl_kernel_new (priv->ctx, source, options, name, error);
  if (kernel)
    g_hash_table_insert (priv->kernels, key, kernel);
  else
    g_free (key);
  return kernel;
}

/**
 * gst_cl_base_filter_get_scratch:
 * @slot: which of the filter's scratch buffers, 0 to 3
 *
 * Returns: (transfer none) (nullable): a device buffer of at least @size
 *   bytes, kept from frame to frame
 */
cl_mem
gst_cl_base_filter_get_scratch (GstClBaseFilter * filter, guint slot,
    gsize size, GError ** error)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (filter);
  cl_int status = CL_SUCCESS;

  g_return_val_if_fail (slot < N_SCRATCH, NULL);
  if (priv->scratch[slot] && priv->scratch_size[slot] >= size)
    return priv->scratch[slot];
  if (priv->scratch[slot])
    clReleaseMemObject (priv->scratch[slot]);
  /* readable from the host: analysing elements read their results back */
  priv->scratch[slot] = clCreateBuffer (gst_cl_context_get_handle (priv->ctx),
      CL_MEM_READ_WRITE, MAX (size, 1), NULL, &status);
  priv->scratch_size[slot] = size;
  if (!gst_cl_result (status, error, "clCreateBuffer (scratch)")) {
    priv->scratch[slot] = NULL;
    priv->scratch_size[slot] = 0;
  }
  return priv->scratch[slot];
}

/* work-items of kernels/plane.cl for a row: 16 bytes each */
#define PLANE_CHUNKS(row_bytes) (((gsize) (row_bytes) + 15) / 16)

/**
 * gst_cl_base_filter_copy_plane:
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
gst_cl_base_filter_copy_plane (GstClBaseFilter * filter,
    const GstClPlane * src, const GstClPlane * dst, GError ** error)
{
  gint row_bytes = src->width * src->pstride;
  gsize global[2] = { PLANE_CHUNKS (row_bytes), src->height };
  cl_kernel k;

  g_return_val_if_fail (src->width == dst->width &&
      src->height == dst->height && src->pstride == dst->pstride, FALSE);
  /* rows without padding: one plain copy, one call into the driver */
  if (src->stride == row_bytes && dst->stride == row_bytes)
    return gst_cl_kernel_enqueue_copy (GET_PRIV (filter)->queue, src->mem,
        dst->mem, gst_cl_plane_size (src), error);
  k = gst_cl_base_filter_get_kernel (filter, gst_cl_kernel_plane, "",
      "plane_copy", error);
  return k && gst_cl_kernel_set_args (k, error, 5, GST_CL_ARG (src->mem),
      GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
      GST_CL_ARG (dst->stride), GST_CL_ARG (row_bytes)) &&
      gst_cl_base_filter_enqueue_kernel (filter, k, 2, global, NULL, error);
}

/**
 * gst_cl_base_filter_fill_plane:
 *
 * Enqueues setting every byte of the pixels of @plane to @value. The padding
 * at the end of the rows is left alone: a GstVideoMeta may place another
 * plane there, and clEnqueueFillBuffer knows no strides, so it fills only
 * planes without padding.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_base_filter_fill_plane (GstClBaseFilter * filter,
    const GstClPlane * plane, guint8 value, GError ** error)
{
  gint row_bytes = plane->width * plane->pstride, fill = value;
  gsize global[2] = { PLANE_CHUNKS (row_bytes), plane->height };
  cl_kernel k;

  if (plane->stride == row_bytes)
    return gst_cl_kernel_enqueue_fill (GET_PRIV (filter)->queue, plane->mem,
        value, gst_cl_plane_size (plane), error);
  k = gst_cl_base_filter_get_kernel (filter, gst_cl_kernel_plane, "",
      "plane_fill", error);
  return k && gst_cl_kernel_set_args (k, error, 4, GST_CL_ARG (plane->mem),
      GST_CL_ARG (plane->stride), GST_CL_ARG (row_bytes), GST_CL_ARG (fill)) &&
      gst_cl_base_filter_enqueue_kernel (filter, k, 2, global, NULL, error);
}

/**
 * gst_cl_base_filter_process:
 *
 * Enqueues the element's kernels for frames already on the device, as the
 * element does for every buffer; for benchmarks and tests. Needs negotiated
 * caps. An analysing element attaches its results to a buffer of its own,
 * dropped at once (clintegral's tables, which nobody maps, stay on the
 * device), and ignores @out.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_base_filter_process (GstClBaseFilter * filter, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (filter);

  GstBuffer *buffer;
  gboolean ok;

  g_return_val_if_fail (GET_PRIV (filter)->negotiated, FALSE);
  if (!follow_thread (filter, error))
    return FALSE;
  if (klass->dispatch)
    return klass->dispatch (filter, in, out, error);
  /* an analysing element: its results go to a buffer of their own */
  g_return_val_if_fail (klass->analyse != NULL, FALSE);
  buffer = gst_buffer_new ();
  ok = klass->analyse (filter, in, buffer, error);
  gst_buffer_unref (buffer);
  return ok;
}

static GstStateChangeReturn
gst_cl_base_filter_change_state (GstElement * element,
    GstStateChange transition)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (element);
  GstClBaseFilterPrivate *priv = GET_PRIV (self);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY &&
      !gst_cl_ensure_element_context (element, priv->device_index, &priv->ctx))
    return GST_STATE_CHANGE_FAILURE;

  ret = GST_ELEMENT_CLASS (gst_cl_base_filter_parent_class)->change_state
      (element, transition);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL) {
    release_device_state (self);
    gst_clear_object (&priv->ctx);
  }
  return ret;
}

static void
gst_cl_base_filter_set_context (GstElement * element, GstContext * context)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (element));

  gst_cl_handle_set_context (element, context, priv->device_index, &priv->ctx);
  GST_ELEMENT_CLASS (gst_cl_base_filter_parent_class)->set_context (element,
      context);
}

static gboolean
gst_cl_base_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (trans));
  gboolean ok, accepted;
  GstCaps *caps;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cl_handle_context_query (GST_ELEMENT (trans), query, priv->ctx))
    return TRUE;
  ok = GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)->query
      (trans, direction, query);
  if (ok && direction == GST_PAD_SINK &&
      GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS) {
    gst_query_parse_accept_caps_result (query, &accepted);
    gst_query_parse_accept_caps (query, &caps);
    if (!accepted)
      gst_cl_warn_caps_refused (GST_ELEMENT (trans), trans->sinkpad, caps);
  }
  return ok;
}

static void
update_passthrough (GstClBaseFilter * self)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBaseFilterPrivate *priv = GET_PRIV (self);
  gboolean passthrough;

  priv->identity = klass->is_passthrough && klass->is_passthrough (self);
  /* a crop goes on as a copy of it: downstream may not take the meta, which
   * only this element said it did */
  passthrough = priv->identity && !priv->uploads && !priv->cropped;

  if (passthrough != gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
          (self))) {
    GST_DEBUG_OBJECT (self, "passthrough %d", passthrough);
    gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), passthrough);
  }
}

static gboolean
gst_cl_base_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = GET_PRIV (self);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GError *err = NULL;

  priv->negotiated = FALSE;
  if (!gst_video_info_from_caps (&priv->in_info, incaps) ||
      !gst_video_info_from_caps (&priv->out_info, outcaps))
    goto invalid_caps;
  /* at its identity setting, such a filter copies frames to the device */
  priv->uploads = !gst_cl_caps_has_memory_feature (incaps) &&
      gst_cl_caps_has_memory_feature (outcaps);
  if (!gst_cl_frame_fits_device (GST_ELEMENT (self), priv->ctx, &priv->in_info))
    return FALSE;
  if (klass->set_info && !klass->set_info (self, &priv->in_info,
          &priv->out_info, &err))
    goto set_info_failed;

  priv->negotiated = TRUE;
  update_passthrough (self);
  return TRUE;

  /* ERRORS */
invalid_caps:
  {
    GST_ERROR_OBJECT (self, "invalid caps %" GST_PTR_FORMAT " -> %"
        GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
set_info_failed:
  {
    GST_CL_POST_ERROR (self, err);
    g_clear_error (&err);
    return FALSE;
  }
}

static void
gst_cl_base_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime ts = GST_CLOCK_TIME_NONE;

  /* controlled properties follow stream time; a stream without a time
   * segment (a bytes or default one from an unusual source) has none */
  if (trans->segment.format == GST_FORMAT_TIME)
    ts = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
        GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (trans), ts);
  GET_PRIV (GST_CL_BASE_FILTER (trans))->cropped =
      gst_buffer_get_video_crop_meta (buffer) != NULL;
  update_passthrough (GST_CL_BASE_FILTER (trans));
}

/* An analysing element passes its buffers on as they came: a frame on the
 * device may go on as system memory (what maps it reads it back), never a
 * frame in system memory as memory:OpenCL. */
static GstCaps *
analyser_transform_caps (GstPadDirection direction, GstCaps * caps)
{
  GstCaps *res = gst_caps_new_empty ();
  guint i;

  if (gst_caps_is_any (caps))
    return gst_caps_ref (caps);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCaps *one = gst_caps_copy_nth (caps, i);
    gboolean device = gst_cl_caps_has_memory_feature (one);

    /* downstream of the device, or upstream of system memory: either */
    if (device == (direction == GST_PAD_SINK)) {
      GstCaps *both = gst_cl_caps_add_memory_feature (one);

      gst_caps_unref (one);
      one = both;
    }
    res = gst_caps_merge (res, one);
  }
  return res;
}

/* Frames in and out may be in system memory or memory:OpenCL, whatever the
 * other side's are: memory:OpenCL first, so that chained cl elements keep
 * frames on the device. */
static GstCaps *
gst_cl_base_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *res = GST_CL_BASE_FILTER_GET_CLASS (trans)->analyse ?
      analyser_transform_caps (direction, caps) :
      gst_cl_caps_add_memory_feature (caps);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, res,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (res);
    res = tmp;
  }
  return res;
}

static GstCaps *
gst_cl_base_filter_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  if (direction == GST_PAD_SINK)
    othercaps = gst_cl_caps_prefer_for_peer (trans->srcpad, othercaps);
  GST_DEBUG_OBJECT (trans, "fixating %" GST_PTR_FORMAT, othercaps);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)
      ->fixate_caps (trans, direction, caps, othercaps);
}

static gboolean
gst_cl_base_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  if (!GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)
      ->propose_allocation (trans, decide_query, query))
    return FALSE;
  /* any stride and plane offset is fine, unless the query went on to
   * downstream (passthrough), which answers for itself */
  if (!decide_query)
    return TRUE;
  gst_cl_propose_allocation (GST_ELEMENT (trans),
      GET_PRIV (GST_CL_BASE_FILTER (trans))->ctx, query);
  return TRUE;
}

static gboolean
gst_cl_base_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (trans));

  return gst_cl_decide_allocation (GST_ELEMENT (trans), priv->ctx, query,
      &priv->out_info) &&
      GST_BASE_TRANSFORM_CLASS (gst_cl_base_filter_parent_class)
      ->decide_allocation (trans, query);
}

/* Output buffers have the negotiated layout, whatever the input's strides. */
static gboolean
gst_cl_base_filter_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps,
    gsize * othersize)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

static gboolean
copy_frame (GstClBaseFilter * self, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  guint p;

  for (p = 0; p < out->n_planes; p++)
    if (!gst_cl_base_filter_copy_plane (self, &in->planes[p], &out->planes[p],
            error))
      return FALSE;
  return TRUE;
}

static GstFlowReturn
gst_cl_base_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = GET_PRIV (self);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBufferFrame in, out;
  GError *err = NULL;
  gboolean ok, in_mapped;

  if (!priv->negotiated) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("a buffer arrived before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  gst_cl_gate_enter (priv->ctx);
  /* the output first: where it is copied back to the host, waiting for
   * that copy waits for the input's copy to the device too */
  ok = follow_thread (self, &err) &&
      gst_cl_buffer_frame_map (priv->queue, &out, &priv->out_info, outbuf,
      GST_MAP_WRITE, &priv->out_staging, &err);
  if (ok) {
    in_mapped =
        gst_cl_buffer_frame_map (priv->queue, &in, &priv->in_info, inbuf,
        GST_MAP_READ | (out.mapped ? GST_CL_MAP_FOLLOWED : 0),
        &priv->in_staging, &err);
    ok = in_mapped
        && (priv->identity ? copy_frame (self, &in.frame, &out.frame,
            &err) : klass->dispatch (self, &in.frame, &out.frame, &err))
        && gst_cl_buffer_frame_finish (priv->queue, &out, &err);
    gst_cl_buffer_frame_unmap (priv->queue, &out);
    if (in_mapped)
      gst_cl_buffer_frame_unmap (priv->queue, &in);
  }
  gst_cl_gate_leave (priv->ctx);
  if (!ok)
    goto failed;
  return GST_FLOW_OK;

failed:
  GST_CL_POST_ERROR (self, err);
  g_clear_error (&err);
  return GST_FLOW_ERROR;
}

/* For the elements that read frames and pass them through: the frame goes
 * to the device as the input of a transform would, and the subclass attaches
 * what it computes to the buffer. */
static GstFlowReturn
gst_cl_base_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = GET_PRIV (self);
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClBufferFrame in;
  GError *err = NULL;
  gboolean ok;

  if (!priv->negotiated) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("a buffer arrived before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  g_return_val_if_fail (klass->analyse != NULL, GST_FLOW_ERROR);
  /* no reference taken: the buffer must stay writable for analyse() */
  gst_cl_gate_enter (priv->ctx);
  ok = follow_thread (self, &err) &&
      gst_cl_buffer_frame_map (priv->queue, &in, &priv->in_info,
      buf, GST_MAP_READ | GST_VIDEO_FRAME_MAP_FLAG_NO_REF, &priv->in_staging,
      &err);
  if (ok) {
    ok = klass->analyse (self, &in.frame, buf, &err);
    gst_cl_buffer_frame_unmap (priv->queue, &in);
  }
  gst_cl_gate_leave (priv->ctx);
  if (!ok) {
    GST_CL_POST_ERROR (self, err);
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

static gboolean
gst_cl_base_filter_stop (GstBaseTransform * trans)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (trans));

  priv->negotiated = FALSE;
  priv->last_qos_message = 0;
  /* frames sent on are complete when their events say so; what is left is
   * the element's own, done before READY */
  if (priv->queue && gst_cl_queue_get_handle (priv->queue))
    clFinish (gst_cl_queue_get_handle (priv->queue));
  return TRUE;
}

static void
gst_cl_base_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      priv->device_index = g_value_get_int (value);
      break;
    case PROP_VARIANT:
      priv->variant = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_base_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      g_value_set_int (value, priv->device_index);
      break;
    case PROP_VARIANT:
      g_value_set_enum (value, priv->variant);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_base_filter_finalize (GObject * object)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (object);
  GstClBaseFilterPrivate *priv = GET_PRIV (self);

  release_device_state (self);
  g_hash_table_unref (priv->kernels);
  gst_clear_object (&priv->ctx);
  G_OBJECT_CLASS (gst_cl_base_filter_parent_class)->finalize (object);
}

/* The QoS message of every frame dropped late, at most one a second: each
 * carries the counts of frames processed and dropped so far, so that an
 * application loses only the messages in between (the drops after the last
 * message are counted in the next). With hundreds of live streams in one
 * pipeline falling late together, a message a frame made hundreds of
 * streaming threads post to the one bus at once, whose queue waits for an
 * earlier writer by spinning: on 16 cores the streams stalled
 * (docs/benchmarks-journal.md). */
#define QOS_MESSAGE_INTERVAL G_USEC_PER_SEC

static gboolean
gst_cl_base_filter_post_message (GstElement * element, GstMessage * message)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (element));

  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_QOS &&
      GST_MESSAGE_SRC (message) == GST_OBJECT_CAST (element)) {
    /* posted from the streaming thread only */
    gint64 now = g_get_monotonic_time ();

    if (priv->last_qos_message &&
        now - priv->last_qos_message < QOS_MESSAGE_INTERVAL) {
      gst_message_unref (message);
      return TRUE;
    }
    priv->last_qos_message = now;
  }
  return GST_ELEMENT_CLASS (gst_cl_base_filter_parent_class)->post_message
      (element, message);
}

static void
gst_cl_base_filter_class_init (GstClBaseFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cl_base_filter_set_property;
  gobject_class->get_property = gst_cl_base_filter_get_property;
  gobject_class->finalize = gst_cl_base_filter_finalize;

  gst_cl_install_element_properties (gobject_class, PROP_DEVICE_INDEX,
      PROP_VARIANT);

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_change_state);
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_set_context);
  element_class->post_message =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_post_message);

  trans_class->passthrough_on_same_caps = FALSE;
  /* passed-through frames are left alone, analysed or not */
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_base_filter_query);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cl_base_filter_fixate_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_base_filter_set_caps);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_before_transform);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_decide_allocation);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_size);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_ip);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_base_filter_stop);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BASE_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_VARIANT, 0);
}

/**
 * gst_cl_install_element_properties:
 * @device_index_id: the property id to give `device-index`
 * @variant_id: the property id to give `variant`
 *
 * Installs the properties every cl element has, for the elements that are
 * not #GstClBaseFilter subclasses.
 */
void
gst_cl_install_element_properties (GObjectClass * klass,
    guint device_index_id, guint variant_id)
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

static void
release_kernel (gpointer kernel)
{
  clReleaseKernel (kernel);
}

static void
gst_cl_base_filter_init (GstClBaseFilter * self)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (self);

  priv->device_index = DEFAULT_DEVICE_INDEX;
  priv->variant = DEFAULT_VARIANT;
  priv->kernels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      release_kernel);
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  gst_cl_watch_caps_events (GST_BASE_TRANSFORM_SINK_PAD (self));
}
