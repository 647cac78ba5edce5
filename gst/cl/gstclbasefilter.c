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
#include "gstclplan.h"
#include "gstclutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug


enum
{
  PROP_0,
  PROP_DEVICE_INDEX,
  PROP_VARIANT,
};

typedef struct
{
  GstClCore *core;

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

/**
 * gst_cl_base_filter_class_add_pad_templates:
 * @caps: the formats, the same on both pads
 *
 * Adds always "sink" and "src" pad templates of @caps (see
 * gst_cl_core_template_caps()).
 */
void
gst_cl_base_filter_class_add_pad_templates (GstClBaseFilterClass * klass,
    const gchar * caps)
{
  GstElementClass *eclass = GST_ELEMENT_CLASS (klass);
  GstCaps *templ = gst_cl_core_template_caps (caps);

  gst_element_class_add_pad_template (eclass,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, templ));
  gst_element_class_add_pad_template (eclass,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, templ));
  gst_caps_unref (templ);
}

/**
 * gst_cl_base_filter_get_core:
 *
 * Returns: (transfer none): what the element keeps on its device
 */
GstClCore *
gst_cl_base_filter_get_core (GstClBaseFilter * filter)
{
  return GET_PRIV (filter)->core;
}

/**
 * gst_cl_base_filter_get_context:
 *
 * Returns: (transfer none) (nullable): the context, set from READY on
 */
GstClContext *
gst_cl_base_filter_get_context (GstClBaseFilter * filter)
{
  return gst_cl_core_get_context (GET_PRIV (filter)->core);
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
  return gst_cl_core_get_queue (GET_PRIV (filter)->core);
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
  return gst_cl_kernel_enqueue (gst_cl_base_filter_get_queue (filter), kernel,
      dims, global, local, error);
}

/**
 * gst_cl_base_filter_get_variant:
 *
 * Returns: the `variant` property, read under the object lock
 */
GstClVariant
gst_cl_base_filter_get_variant (GstClBaseFilter * filter)
{
  return gst_cl_core_get_variant (GET_PRIV (filter)->core);
}

/**
 * gst_cl_base_filter_get_kernel:
 *
 * See gst_cl_core_get_kernel().
 *
 * Returns: (transfer none) (nullable): the kernel
 */
cl_kernel
gst_cl_base_filter_get_kernel (GstClBaseFilter * filter, const gchar * source,
    const gchar * options, const gchar * name, GError ** error)
{
  return gst_cl_core_get_kernel (GET_PRIV (filter)->core, source, options,
      name, error);
}

/**
 * gst_cl_base_filter_get_scratch:
 * @slot: which of the filter's scratch buffers, 0 to 7
 *
 * Returns: (transfer none) (nullable): a device buffer of at least @size
 *   bytes, kept from frame to frame
 */
cl_mem
gst_cl_base_filter_get_scratch (GstClBaseFilter * filter, guint slot,
    gsize size, GError ** error)
{
  return gst_cl_core_get_scratch (GET_PRIV (filter)->core, slot, size, error);
}

/**
 * gst_cl_base_filter_read_scratch:
 *
 * See gst_cl_core_read_scratch(): results of the element's kernels for the
 * host, read without waiting.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_base_filter_read_scratch (GstClBaseFilter * filter, guint slot,
    gsize size, gpointer dest, GError ** error)
{
  return gst_cl_core_read_scratch (GET_PRIV (filter)->core, slot, size, dest,
      error);
}

/**
 * gst_cl_base_filter_read_poll:
 *
 * See gst_cl_core_read_poll().
 */
gboolean
gst_cl_base_filter_read_poll (GstClBaseFilter * filter, gboolean * arrived)
{
  return gst_cl_core_read_poll (GET_PRIV (filter)->core, arrived);
}

/**
 * gst_cl_base_filter_copy_plane:
 *
 * See gst_cl_core_copy_plane().
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_base_filter_copy_plane (GstClBaseFilter * filter,
    const GstClPlane * src, const GstClPlane * dst, GError ** error)
{
  return gst_cl_core_copy_plane (GET_PRIV (filter)->core, src, dst, error);
}

/**
 * gst_cl_base_filter_fill_plane:
 *
 * See gst_cl_core_fill_plane().
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_base_filter_fill_plane (GstClBaseFilter * filter,
    const GstClPlane * plane, guint8 value, GError ** error)
{
  return gst_cl_core_fill_plane (GET_PRIV (filter)->core, plane, value, error);
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
  if (!gst_cl_core_follow_thread (GET_PRIV (filter)->core, error))
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

/* the caps upstream can give, where they name one format and size: those
 * the stream will have (a capsfilter's, as a launch line has before the
 * element) */
static gboolean
foreseen_info (GstClBaseFilter * self, GstVideoInfo * info)
{
  GstPad *sink = GST_BASE_TRANSFORM_SINK_PAD (self);
  GstCaps *tmpl = gst_pad_get_pad_template_caps (sink);
  GstCaps *peer = gst_pad_peer_query_caps (sink, tmpl);
  const gchar *format = NULL;
  gint width = 0, height = 0;
  gboolean one = peer && !gst_caps_is_empty (peer) && !gst_caps_is_any (peer);

  for (guint i = 0; one && i < gst_caps_get_size (peer); i++) {
    const GstStructure *st = gst_caps_get_structure (peer, i);
    const gchar *f = gst_structure_get_string (st, "format");
    gint w = 0, h = 0;

    one = f && gst_structure_get_int (st, "width", &w) &&
        gst_structure_get_int (st, "height", &h) &&
        (i == 0 || (g_str_equal (f, format) && w == width && h == height));
    format = f;
    width = w;
    height = h;
  }
  if (one) {
    peer = gst_caps_fixate (peer);
    one = gst_video_info_from_caps (info, peer);
  }
  gst_clear_caps (&peer);
  gst_caps_unref (tmpl);
  return one;
}

/* At READY to PAUSED, where upstream already says what caps will come, the
 * element prepares for them as set_info() will, its programs building in
 * the background meanwhile: a source that takes its time to start (a
 * network camera, a decoder) hides the build, and the first frame waits
 * for less. The core's own kernels started with it (gst_cl_core_start()). */
static void
prebuild (GstClBaseFilter * self)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClContext *ctx = gst_cl_core_get_context (GET_PRIV (self)->core);
  GstVideoInfo info, view;
  GError *err = NULL;

  if (!ctx || !klass->set_info || !foreseen_info (self, &info))
    return;
  GST_DEBUG_OBJECT (self, "building ahead of the caps, for %s %dx%d",
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&info)),
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info));
  gst_cl_video_info_kernel_view (&info, &view);
  gst_cl_plan_set_prebuild (GST_ELEMENT (self), TRUE);
  if (!klass->set_info (self, &view, &view, &err)) {
    GST_DEBUG_OBJECT (self, "nothing built ahead: %s", err ? err->message :
        "no reason given");
    g_clear_error (&err);
  }
  gst_cl_plan_set_prebuild (GST_ELEMENT (self), FALSE);
}

static GstStateChangeReturn
gst_cl_base_filter_change_state (GstElement * element,
    GstStateChange transition)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (element);
  GstClBaseFilterPrivate *priv = GET_PRIV (self);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY &&
      !gst_cl_core_open (priv->core))
    return GST_STATE_CHANGE_FAILURE;
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    if (!gst_cl_core_start (priv->core))
      return GST_STATE_CHANGE_FAILURE;
    prebuild (self);
  }

  ret = GST_ELEMENT_CLASS (gst_cl_base_filter_parent_class)->change_state
      (element, transition);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_cl_core_close (priv->core);
  return ret;
}

static void
gst_cl_base_filter_set_context (GstElement * element, GstContext * context)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (element));

  gst_cl_core_set_context (priv->core, context);
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

  if (gst_cl_core_query (priv->core, query))
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
  /* at its identity setting, such a filter copies frames to the device
   * (or from one device memory to the other) */
  priv->uploads = !gst_cl_caps_pass_as (incaps, outcaps);
  if (!gst_cl_core_set_info (priv->core, &priv->in_info) ||
      !gst_cl_core_set_info (priv->core, &priv->out_info))
    return FALSE;
  if (klass->set_info) {
    GstVideoInfo in_view, out_view;

    /* frames as the kernels see them (packed 4:2:2 in planes) */
    gst_cl_video_info_kernel_view (&priv->in_info, &in_view);
    gst_cl_video_info_kernel_view (&priv->out_info, &out_view);
    if (!klass->set_info (self, &in_view, &out_view, &err))
      goto set_info_failed;
  }

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

/* An analysing element passes its buffers on as they came: a frame in
 * device memory (OpenCL's or CUDA's) may go on as system memory (what maps
 * it reads it back), never a frame in system memory as device memory. */
static GstCaps *
analyser_transform_caps (GstPadDirection direction, GstCaps * caps)
{
  GstCaps *res = gst_caps_new_empty ();
  guint i;

  if (gst_caps_is_any (caps))
    return gst_caps_ref (caps);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCaps *one = gst_caps_copy_nth (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (one, 0);
    gboolean system = !f || gst_caps_features_is_equal (f,
        GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY);

    if (direction == GST_PAD_SRC && system) {
      /* upstream of system memory: any memory */
      GstCaps *all = gst_cl_caps_add_memory_feature (one);

      gst_caps_unref (one);
      one = all;
    } else if (direction == GST_PAD_SINK && !system) {
      /* downstream of device memory: the same, or system memory */
      GstCaps *host = gst_caps_copy (one);

      gst_caps_set_features (host, 0, gst_caps_features_new
          (GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY, NULL));
      one = gst_caps_merge (one, host);
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

  res = gst_cl_core_usable_caps (GET_PRIV (GST_CL_BASE_FILTER (trans))->core,
      res);

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
  gst_cl_core_propose_allocation (GET_PRIV (GST_CL_BASE_FILTER (trans))->core,
      query);
  return TRUE;
}

static gboolean
gst_cl_base_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (trans));

  return gst_cl_core_decide_allocation (priv->core, query, &priv->out_info) &&
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

/* One frame's kernels, or a copy where the properties leave it unchanged */
static gboolean
run_dispatch (gpointer data, const GstClFrame * const *in,
    const GstClFrame * out, GError ** error)
{
  GstClBaseFilter *self = data;
  guint p;

  if (GET_PRIV (self)->identity) {
    for (p = 0; p < out->n_planes; p++)
      if (!gst_cl_core_copy_plane (GET_PRIV (self)->core, &in[0]->planes[p],
              &out->planes[p], error))
        return FALSE;
    return TRUE;
  }
  return GST_CL_BASE_FILTER_GET_CLASS (self)->dispatch (self, in[0], out,
      error);
}

static GstFlowReturn
gst_cl_base_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = GET_PRIV (self);
  const GstVideoInfo *in_info = &priv->in_info;
  GError *err = NULL;

  if (!priv->negotiated) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("a buffer arrived before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!gst_cl_core_process (priv->core, outbuf, &priv->out_info, 1, &inbuf,
          &in_info, 0, run_dispatch, self, &err)) {
    GST_CL_POST_ERROR (self, err);
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

typedef struct
{
  GstClBaseFilter *self;
  GstBuffer *buffer;
} Analysis;

static gboolean
run_analyse (gpointer data, const GstClFrame * const *in,
    const GstClFrame * out, GError ** error)
{
  Analysis *a = data;

  return GST_CL_BASE_FILTER_GET_CLASS (a->self)->analyse (a->self, in[0],
      a->buffer, error);
}

/* For the elements that read frames and pass them through: the frame goes
 * to the device as the input of a transform would, and the subclass attaches
 * what it computes to the buffer. */
static GstFlowReturn
gst_cl_base_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstClBaseFilterPrivate *priv = GET_PRIV (self);
  const GstVideoInfo *in_info = &priv->in_info;
  Analysis analysis = { self, buf };
  GError *err = NULL;

  if (!priv->negotiated) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("a buffer arrived before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  g_return_val_if_fail (GST_CL_BASE_FILTER_GET_CLASS (self)->analyse != NULL,
      GST_FLOW_ERROR);
  /* no reference taken: the buffer must stay writable for analyse() */
  if (!gst_cl_core_process (priv->core, NULL, NULL, 1, &buf, &in_info,
          (GstMapFlags) GST_VIDEO_FRAME_MAP_FLAG_NO_REF, run_analyse, &analysis,
          &err)) {
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
  gst_cl_core_stop (priv->core);
  return TRUE;
}

static void
gst_cl_base_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (object));

  if (!gst_cl_core_set_property (priv->core, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cl_base_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClBaseFilterPrivate *priv = GET_PRIV (GST_CL_BASE_FILTER (object));

  if (!gst_cl_core_get_property (priv->core, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cl_base_filter_finalize (GObject * object)
{
  gst_cl_core_free (GET_PRIV (GST_CL_BASE_FILTER (object))->core);
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

  gst_cl_core_install_properties (gobject_class, PROP_DEVICE_INDEX,
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

static void
gst_cl_base_filter_init (GstClBaseFilter * self)
{
  GET_PRIV (self)->core = gst_cl_core_new (GST_ELEMENT (self),
      PROP_DEVICE_INDEX, PROP_VARIANT);
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  gst_cl_watch_caps_events (GST_BASE_TRANSFORM_SINK_PAD (self));
}
