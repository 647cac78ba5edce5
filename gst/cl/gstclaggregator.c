/* gstclfilters: abstract base class of the OpenCL mixers
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What every mixer of frames on the device shares, as GstClBaseFilter does
 * for the filters: the device core (gstclcore.c), pads that never map their
 * frames, one format on every input (the kernels do not convert), the
 * output shaped after the first input, inputs left unlinked, the frame pass.
 * A subclass declares its pads, properties and kernels, and enqueues them in
 * dispatch().
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstclaggregator.h"
#include "gstclstamps.h"
#include "gstclerror.h"
#include "gstclmemory.h"
#include "gstclpool.h"
#include "gstclunlinked.h"
#include "gstclcaps.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_aggregator_debug);
#define GST_CAT_DEFAULT gst_cl_aggregator_debug

/* the pads */

G_DEFINE_ABSTRACT_TYPE (GstClAggregatorPad, gst_cl_aggregator_pad,
    GST_TYPE_VIDEO_AGGREGATOR_PAD);

/* Frames are not mapped here: the element maps only those that are not on
 * its device already. */
static gboolean
gst_cl_aggregator_pad_prepare_frame (GstVideoAggregatorPad * pad,
    GstVideoAggregator * vagg, GstBuffer * buffer,
    GstVideoFrame * prepared_frame)
{
  return TRUE;
}

static void
gst_cl_aggregator_pad_clean_frame (GstVideoAggregatorPad * pad,
    GstVideoAggregator * vagg, GstVideoFrame * prepared_frame)
{
}

static void
gst_cl_aggregator_pad_class_init (GstClAggregatorPadClass * klass)
{
  GstVideoAggregatorPadClass *vpad_class =
      GST_VIDEO_AGGREGATOR_PAD_CLASS (klass);

  vpad_class->prepare_frame = gst_cl_aggregator_pad_prepare_frame;
  vpad_class->clean_frame = gst_cl_aggregator_pad_clean_frame;
}

static void
gst_cl_aggregator_pad_init (GstClAggregatorPad * pad)
{
}

/* the element */

enum
{
  PROP_0,
  PROP_DEVICE_INDEX,
  PROP_VARIANT,
};

typedef struct
{
  GstClCore *core;
  GstClAggregatorPad *pads[GST_CL_CORE_MAX_INPUTS];
  guint n_pads;
  /* each input's format from its caps event on, before GstVideoAggregator
   * takes the event in its own thread (the pad's info): the other inputs
   * take it. Under the object lock. */
  GstVideoFormat formats[GST_CL_CORE_MAX_INPUTS];

  /* pads left unlinked, whose streams the element ends itself */
  GstClUnlinked *unlinked;

  /* reverse playback: the run of output frames being stamped
   * (gstclstamps.c), under the aggregator's streaming thread */
  GstClReverseStamps reverse;
} GstClAggregatorPrivate;

static void gst_cl_aggregator_child_proxy_init (gpointer iface,
    gpointer iface_data);
static void gst_cl_aggregator_constructed (GObject * object);

/* the pads are children, for sink_1::xpos=... on launch lines */
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClAggregator, gst_cl_aggregator,
    GST_TYPE_VIDEO_AGGREGATOR, G_ADD_PRIVATE (GstClAggregator);
    G_IMPLEMENT_INTERFACE (GST_TYPE_CHILD_PROXY,
        gst_cl_aggregator_child_proxy_init);
    GST_DEBUG_CATEGORY_INIT (gst_cl_aggregator_debug, "claggregator", 0,
        "OpenCL mixer base"));

#define GET_PRIV(a) \
    ((GstClAggregatorPrivate *) gst_cl_aggregator_get_instance_private (a))

/**
 * gst_cl_aggregator_class_add_pad_templates:
 * @caps: the formats, the same on every pad
 * @n_inputs: always sink pads sink_0 to sink_(n - 1), at most
 *   %GST_CL_CORE_MAX_INPUTS
 * @pad_types: (array length=n_inputs): the type of each, a
 *   #GstClAggregatorPad: inputs of different roles show different
 *   properties
 *
 * Adds the "src" and sink pad templates of @caps (see
 * gst_cl_core_template_caps()).
 */
void
gst_cl_aggregator_class_add_pad_templates (GstClAggregatorClass * klass,
    const gchar * caps, guint n_inputs, const GType * pad_types)
{
  GstElementClass *eclass = GST_ELEMENT_CLASS (klass);
  GstCaps *templ;
  guint i;

  g_return_if_fail (n_inputs <= GST_CL_CORE_MAX_INPUTS);
  for (i = 0; i < n_inputs; i++)
    g_return_if_fail (g_type_is_a (pad_types[i], GST_TYPE_CL_AGGREGATOR_PAD));

  templ = gst_cl_core_template_caps (caps);
  gst_element_class_add_pad_template (eclass,
      gst_pad_template_new_with_gtype ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          templ, GST_TYPE_AGGREGATOR_PAD));
  for (i = 0; i < n_inputs; i++) {
    gchar *name = g_strdup_printf ("sink_%u", i);

    gst_element_class_add_pad_template (eclass,
        gst_pad_template_new_with_gtype (name, GST_PAD_SINK, GST_PAD_ALWAYS,
            templ, pad_types[i]));
    g_free (name);
  }
  gst_caps_unref (templ);
}

/**
 * gst_cl_aggregator_get_core:
 *
 * Returns: (transfer none): what the element keeps on its device: its
 *   context, queue and kernels (see gstclcore.h)
 */
GstClCore *
gst_cl_aggregator_get_core (GstClAggregator * agg)
{
  return GET_PRIV (agg)->core;
}

/**
 * gst_cl_aggregator_get_pad:
 * @index: of the sink pad, from 0
 *
 * Returns: (transfer none) (nullable): the sink pad sink_@index
 */
GstClAggregatorPad *
gst_cl_aggregator_get_pad (GstClAggregator * agg, guint index)
{
  GstClAggregatorPrivate *priv = GET_PRIV (agg);

  return index < priv->n_pads ? priv->pads[index] : NULL;
}

static gboolean
run_dispatch (gpointer data, const GstClFrame * const *inputs,
    const GstClFrame * out, GError ** error)
{
  GstClAggregator *self = data;
  GstVideoInfo view;

  /* the frames' format as the kernels see them (packed 4:2:2 in planes) */
  gst_cl_video_info_kernel_view (&GST_VIDEO_AGGREGATOR (self)->info, &view);
  return GST_CL_AGGREGATOR_GET_CLASS (self)->dispatch (self, &view, inputs,
      out, error);
}

/**
 * gst_cl_aggregator_process:
 * @info: the format and size of the output, and of the inputs' format
 * @inputs: a frame on the device for each sink pad, %NULL for none
 * @out: the output frame on the device, of @info
 *
 * Enqueues the element's kernels for frames already on the device, as the
 * element does for every output frame; for benchmarks and tests. Needs
 * READY.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_aggregator_process (GstClAggregator * agg, const GstVideoInfo * info,
    const GstClFrame * const *inputs, const GstClFrame * out, GError ** error)
{
  g_return_val_if_fail (GST_IS_CL_AGGREGATOR (agg), FALSE);

  if (!gst_cl_core_follow_thread (GET_PRIV (agg)->core, error))
    return FALSE;
  return GST_CL_AGGREGATOR_GET_CLASS (agg)->dispatch (agg, info, inputs, out,
      error);
}

/* The index of @pad among the sink pads */
static guint
pad_index (GstClAggregatorPrivate * priv, GstPad * pad)
{
  guint i;

  for (i = 0; i < priv->n_pads; i++)
    if (pad == GST_PAD (priv->pads[i]))
      return i;
  g_return_val_if_reached (0);
}

/* The format of another input's stream than @pad's, and that input
 * (@other, nullable), or GST_VIDEO_FORMAT_UNKNOWN before any has caps */
static GstVideoFormat
other_format (GstClAggregator * self, GstPad * pad, GstPad ** other)
{
  GstClAggregatorPrivate *priv = GET_PRIV (self);
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  guint i, mine = pad_index (priv, pad);

  GST_OBJECT_LOCK (self);
  for (i = 0; i < priv->n_pads && format == GST_VIDEO_FORMAT_UNKNOWN; i++) {
    if (i == mine)
      continue;
    format = priv->formats[i];
    if (other)
      *other = GST_PAD (priv->pads[i]);
  }
  GST_OBJECT_UNLOCK (self);
  return format;
}

/* The kernels do not convert, so all inputs take one format: another
 * input's where its stream has one; else the first, in downstream's order,
 * that the upstreams linked can give. That is the same answer whichever pad
 * asks first and whether or not the others are linked yet, so inputs that
 * negotiate at once, or one as another is linked, agree wherever their
 * upstreams can convert. */
static GstCaps *
agree_on_format (GstClAggregator * self, GstPad * pad, GstCaps * caps)
{
  GstClAggregatorPrivate *priv = GET_PRIV (self);
  GstVideoFormat format = other_format (self, pad, NULL);
  GstCaps *upstream[GST_CL_CORE_MAX_INPUTS];
  const GValue *v;
  gboolean settle;
  guint i;

  if (format != GST_VIDEO_FORMAT_UNKNOWN)
    return gst_cl_caps_keep_format (caps, gst_video_format_to_string (format));

  /* in the pads' order, whichever asks: the same steps give the same
   * format. One is settled on only where this pad's upstream is known, not
   * while its link is checked. */
  for (i = 0; i < priv->n_pads; i++)
    upstream[i] =
        gst_cl_pad_peer_formats (GST_OBJECT (self), GST_PAD (priv->pads[i]));
  settle = upstream[pad_index (priv, pad)] != NULL;
  for (i = 0; i < priv->n_pads; i++)
    caps = gst_cl_caps_keep_formats (caps, upstream[i]);
  if (!settle || gst_caps_is_empty (caps))
    return caps;
  v = gst_structure_get_value (gst_caps_get_structure (caps, 0), "format");
  if (GST_VALUE_HOLDS_LIST (v))
    v = gst_value_list_get_value (v, 0);
  if (!v || !G_VALUE_HOLDS_STRING (v))
    return caps;
  return gst_cl_caps_keep_format (caps, g_value_get_string (v));
}

/* Where caps in @format come into @pad while @other's stream is in @taken:
 * the element says what to do, as upstream's error will not */
static void
warn_format_taken (GstClAggregator * self, GstPad * pad, GstPad * other,
    GstVideoFormat taken, GstVideoFormat format)
{
  GST_ELEMENT_WARNING (self, CORE, NEGOTIATION, ("%s takes the format of "
          "%s, %s, not %s: put a videoconvert before it", GST_PAD_NAME (pad),
          GST_PAD_NAME (other), gst_video_format_to_string (taken),
          gst_video_format_to_string (format)), (NULL));
}

/* The output is in the pads' format, preferably with the first input's
 * framerate
 * (25/1 for still pictures, as compositor), colorimetry, chroma siting and
 * pixel aspect ratio, whichever of those downstream allows, in memory:OpenCL
 * where downstream prefers it. */
static GstCaps *
gst_cl_aggregator_update_caps (GstVideoAggregator * vagg, GstCaps * caps)
{
  GstClAggregatorPrivate *priv = GET_PRIV (GST_CL_AGGREGATOR (vagg));
  GstVideoInfo info;
  gboolean have_info = FALSE;
  GstCaps *res, *best, *both;
  gint fps_n = 25, fps_d = 1;
  gchar *colorimetry;
  guint i;

  GST_OBJECT_LOCK (vagg);
  for (i = priv->n_pads; i > 0; i--) {
    GstVideoInfo *pad_info =
        &GST_VIDEO_AGGREGATOR_PAD (priv->pads[i - 1])->info;

    if (pad_info->finfo &&
        GST_VIDEO_INFO_FORMAT (pad_info) != GST_VIDEO_FORMAT_UNKNOWN) {
      info = *pad_info;
      have_info = TRUE;
    }
  }
  GST_OBJECT_UNLOCK (vagg);
  if (!have_info)
    return gst_caps_ref (caps);
  if (GST_VIDEO_INFO_FPS_N (&info) > 0 && GST_VIDEO_INFO_FPS_D (&info) > 0) {
    fps_n = GST_VIDEO_INFO_FPS_N (&info);
    fps_d = GST_VIDEO_INFO_FPS_D (&info);
  }

  res = gst_caps_copy (caps);
  for (i = 0; i < gst_caps_get_size (res); i++)
    gst_structure_set (gst_caps_get_structure (res, i), "format",
        G_TYPE_STRING, gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
            (&info)), NULL);

  /* the input's properties first, any other downstream takes after them */
  best = gst_caps_copy (res);
  colorimetry = gst_video_colorimetry_to_string (&info.colorimetry);
  for (i = 0; i < gst_caps_get_size (best); i++) {
    GstStructure *s = gst_caps_get_structure (best, i);

    gst_structure_set (s, "framerate", GST_TYPE_FRACTION, fps_n, fps_d,
        "pixel-aspect-ratio", GST_TYPE_FRACTION, GST_VIDEO_INFO_PAR_N (&info),
        GST_VIDEO_INFO_PAR_D (&info), NULL);
    if (colorimetry)
      gst_structure_set (s, "colorimetry", G_TYPE_STRING, colorimetry, NULL);
    if (info.chroma_site != GST_VIDEO_CHROMA_SITE_UNKNOWN) {
      gchar *site = gst_video_chroma_site_to_string (info.chroma_site);

      if (site)
        gst_structure_set (s, "chroma-site", G_TYPE_STRING, site, NULL);
      g_free (site);
    }
  }
  g_free (colorimetry);
  res = gst_caps_merge (best, res);
  both = gst_cl_caps_add_memory_feature (res);
  gst_caps_unref (res);
  res = gst_caps_intersect_full (both, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (both);
  res = gst_cl_core_usable_caps (GET_PRIV (GST_CL_AGGREGATOR (vagg))->core,
      res);
  return gst_cl_caps_prefer_for_peer (GST_AGGREGATOR_SRC_PAD (vagg), res);
}

/* The output takes the first input's size, framerate and pixel aspect
 * ratio, as near as downstream allows. */
static GstCaps *
gst_cl_aggregator_fixate_src_caps (GstAggregator * agg, GstCaps * caps)
{
  GstClAggregatorPrivate *priv = GET_PRIV (GST_CL_AGGREGATOR (agg));
  GstVideoInfo info;
  GstStructure *s;

  /* GstVideoAggregator reads the pads' info under its own lock */
  GST_OBJECT_LOCK (agg);
  info = GST_VIDEO_AGGREGATOR_PAD (priv->pads[0])->info;
  GST_OBJECT_UNLOCK (agg);
  if (!info.finfo || GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_UNKNOWN)
    return
        GST_AGGREGATOR_CLASS (gst_cl_aggregator_parent_class)->fixate_src_caps
        (agg, caps);

  caps = gst_caps_make_writable (caps);
  s = gst_caps_get_structure (caps, 0);
  gst_structure_fixate_field_nearest_int (s, "width",
      GST_VIDEO_INFO_WIDTH (&info));
  gst_structure_fixate_field_nearest_int (s, "height",
      GST_VIDEO_INFO_HEIGHT (&info));
  if (gst_structure_has_field (s, "pixel-aspect-ratio"))
    gst_structure_fixate_field_nearest_fraction (s, "pixel-aspect-ratio",
        GST_VIDEO_INFO_PAR_N (&info), GST_VIDEO_INFO_PAR_D (&info));
  /* still pictures (0/1) make 25/1, as in compositor */
  if (GST_VIDEO_INFO_FPS_N (&info) > 0 && GST_VIDEO_INFO_FPS_D (&info) > 0)
    gst_structure_fixate_field_nearest_fraction (s, "framerate",
        GST_VIDEO_INFO_FPS_N (&info), GST_VIDEO_INFO_FPS_D (&info));
  else
    gst_structure_fixate_field_nearest_fraction (s, "framerate", 25, 1);
  return gst_caps_fixate (caps);
}

/* Inputs may be in system memory or memory:OpenCL, whatever the output's
 * memory is: GstVideoAggregator would ask them in the output's; and of any
 * size, whatever the output's is. */
static gboolean
gst_cl_aggregator_sink_caps_query (GstAggregator * agg, GstAggregatorPad * pad,
    GstQuery * query)
{
  GstCaps *templ = gst_pad_get_pad_template_caps (GST_PAD (pad));
  GstCaps *filter, *caps, *both;
  GstPad *srcpad;
  guint i;

  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS) {
    GstClAggregator *self = GST_CL_AGGREGATOR (agg);
    GstPad *other = NULL;
    GstVideoFormat taken = other_format (self, GST_PAD (pad), &other);
    GstVideoInfo info;
    gboolean ok, differs;

    gst_query_parse_accept_caps (query, &caps);
    /* as GstPad does with GST_PAD_FLAG_ACCEPT_INTERSECT: fields the caps
     * leave out (interlace-mode) take the template's */
    ok = gst_caps_can_intersect (caps, templ);
    /* all pads in one format: the kernels do not convert */
    differs = ok && taken != GST_VIDEO_FORMAT_UNKNOWN &&
        gst_video_info_from_caps (&info, caps) &&
        GST_VIDEO_INFO_FORMAT (&info) != taken;
    ok = ok && !differs;
    gst_query_set_accept_caps_result (query, ok);
    if (differs && gst_cl_caps_in_event (caps))
      warn_format_taken (self, GST_PAD (pad), other, taken,
          GST_VIDEO_INFO_FORMAT (&info));
    else if (!ok)
      gst_cl_warn_caps_refused (GST_ELEMENT (agg), GST_PAD (pad), caps);
    gst_caps_unref (templ);
    return TRUE;
  }

  gst_query_parse_caps (query, &filter);
  /* what downstream allows, in whichever memory (GstVideoAggregator's own
   * answer loses the memory of formats without alpha); the output's size
   * and framerate are downstream's or the first input's, whatever the
   * others' */
  srcpad = GST_PAD (GST_AGGREGATOR_SRC_PAD (agg));
  caps = gst_pad_get_pad_template_caps (srcpad);
  both = gst_pad_peer_query_caps (srcpad, caps);
  gst_caps_unref (caps);
  caps = gst_caps_make_writable (both);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);

    gst_structure_set (s, "width", GST_TYPE_INT_RANGE, 1, G_MAXINT,
        "height", GST_TYPE_INT_RANGE, 1, G_MAXINT, "framerate",
        GST_TYPE_FRACTION_RANGE, 0, 1, G_MAXINT, 1, NULL);
    gst_structure_remove_field (s, "pixel-aspect-ratio");
  }
  both = gst_cl_caps_add_memory_feature (caps);
  gst_caps_unref (caps);
  caps = gst_caps_intersect_full (both, templ, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (both);
  caps = agree_on_format (GST_CL_AGGREGATOR (agg), GST_PAD (pad), caps);
  caps = gst_cl_core_usable_caps (GET_PRIV (GST_CL_AGGREGATOR (agg))->core,
      caps);
  if (filter) {
    both = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = both;
  }
  gst_query_set_caps_result (query, caps);
  gst_caps_unref (caps);
  gst_caps_unref (templ);
  return TRUE;
}

static gboolean
gst_cl_aggregator_src_event (GstAggregator * agg, GstEvent * event)
{
  GstClAggregator *self = GST_CL_AGGREGATOR (agg);
  GstSeekFlags flags = 0;
  guint32 seqnum = gst_event_get_seqnum (event);
  gboolean seek = GST_EVENT_TYPE (event) == GST_EVENT_SEEK;
  gboolean ok;

  if (seek)
    gst_event_parse_seek (event, NULL, NULL, &flags, NULL, NULL, NULL, NULL);
  ok = GST_AGGREGATOR_CLASS (gst_cl_aggregator_parent_class)->src_event (agg,
      event);
  if (ok && seek && (flags & GST_SEEK_FLAG_FLUSH))
    gst_cl_unlinked_flush (GET_PRIV (self)->unlinked, seqnum);
  return ok;
}

static gboolean
gst_cl_aggregator_sink_event (GstAggregator * agg, GstAggregatorPad * pad,
    GstEvent * event)
{
  GstCaps *caps;

  /* frames larger than the device takes fail negotiation with a message */
  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    gst_event_parse_caps (event, &caps);
    if (!gst_cl_core_caps_fit_device (GET_PRIV (GST_CL_AGGREGATOR
                (agg))->core, caps)) {
      gst_event_unref (event);
      return FALSE;
    }
  }
  return GST_AGGREGATOR_CLASS (gst_cl_aggregator_parent_class)->sink_event
      (agg, pad, event);
}

/* In the upstream's thread, before the queue: the caps' format is the
 * input's from now on, for the other inputs to take at once. Caps that
 * passed the ACCEPT_CAPS check while another input's, in another format,
 * were on their way in too are refused here. */
static GstFlowReturn
gst_cl_aggregator_sink_event_pre_queue (GstAggregator * agg,
    GstAggregatorPad * pad, GstEvent * event)
{
  GstClAggregator *self = GST_CL_AGGREGATOR (agg);
  GstClAggregatorPrivate *priv = GET_PRIV (self);
  GstVideoFormat taken = GST_VIDEO_FORMAT_UNKNOWN;
  GstPad *other = NULL;
  GstVideoInfo info;
  GstCaps *caps;
  guint i, mine;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    mine = pad_index (priv, GST_PAD (pad));
    gst_event_parse_caps (event, &caps);
    if (gst_video_info_from_caps (&info, caps)) {
      GST_OBJECT_LOCK (self);
      for (i = 0; i < priv->n_pads && taken == GST_VIDEO_FORMAT_UNKNOWN; i++)
        if (i != mine && priv->formats[i] != GST_VIDEO_FORMAT_UNKNOWN &&
            priv->formats[i] != GST_VIDEO_INFO_FORMAT (&info)) {
          taken = priv->formats[i];
          other = GST_PAD (priv->pads[i]);
        }
      if (taken == GST_VIDEO_FORMAT_UNKNOWN)
        priv->formats[mine] = GST_VIDEO_INFO_FORMAT (&info);
      GST_OBJECT_UNLOCK (self);
    }
  }
  if (taken != GST_VIDEO_FORMAT_UNKNOWN) {
    warn_format_taken (self, GST_PAD (pad), other, taken,
        GST_VIDEO_INFO_FORMAT (&info));
    gst_event_unref (event);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  return GST_AGGREGATOR_CLASS
      (gst_cl_aggregator_parent_class)->sink_event_pre_queue (agg, pad, event);
}

static gboolean
gst_cl_aggregator_negotiated_src_caps (GstAggregator * agg, GstCaps * caps)
{
  /* the output's info, and the inputs' format with it */
  return GST_AGGREGATOR_CLASS
      (gst_cl_aggregator_parent_class)->negotiated_src_caps (agg, caps) &&
      gst_cl_core_set_info (GET_PRIV (GST_CL_AGGREGATOR (agg))->core,
      &GST_VIDEO_AGGREGATOR (agg)->info);
}

static gboolean
gst_cl_aggregator_sink_query (GstAggregator * agg, GstAggregatorPad * pad,
    GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS ||
      GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS)
    return gst_cl_aggregator_sink_caps_query (agg, pad, query);
  return gst_cl_core_query (GET_PRIV (GST_CL_AGGREGATOR (agg))->core, query)
      || GST_AGGREGATOR_CLASS (gst_cl_aggregator_parent_class)->sink_query
      (agg, pad, query);
}

static gboolean
gst_cl_aggregator_src_query (GstAggregator * agg, GstQuery * query)
{
  return gst_cl_core_query (GET_PRIV (GST_CL_AGGREGATOR (agg))->core, query)
      || GST_AGGREGATOR_CLASS (gst_cl_aggregator_parent_class)->src_query (agg,
      query);
}

static gboolean
gst_cl_aggregator_propose_allocation (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * decide_query, GstQuery * query)
{
  gst_cl_core_propose_allocation (GET_PRIV (GST_CL_AGGREGATOR (agg))->core,
      query);
  return TRUE;
}

static gboolean
gst_cl_aggregator_decide_allocation (GstAggregator * agg, GstQuery * query)
{
  return gst_cl_core_decide_allocation (GET_PRIV (GST_CL_AGGREGATOR
          (agg))->core, query, &GST_VIDEO_AGGREGATOR (agg)->info);
}

/* the pad's frame for this output frame, if it has one */
static GstBuffer *
pad_buffer (GstClAggregatorPad * pad)
{
  GstBuffer *buf = gst_video_aggregator_pad_get_current_buffer
      (GST_VIDEO_AGGREGATOR_PAD (pad));

  if (buf && gst_buffer_get_size (buf) == 0 &&
      GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP))
    return NULL;
  return buf;
}

/* Controlled properties follow the output's stream time. */
static void
sync_values (GstVideoAggregator * vagg, GstBuffer * outbuf)
{
  GstAggregatorPad *srcpad = GST_AGGREGATOR_PAD (GST_AGGREGATOR_SRC_PAD (vagg));
  GstClockTime ts;

  GST_OBJECT_LOCK (srcpad);
  ts = gst_segment_to_stream_time (&srcpad->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (outbuf));
  GST_OBJECT_UNLOCK (srcpad);
  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (vagg), ts);
}

/* The inputs' frames for this output frame, all in the output's format.
 * Returns FALSE, the error posted, where one is not. */
static gboolean
collect_inputs (GstClAggregator * self, GstBuffer ** buffers,
    const GstVideoInfo ** infos)
{
  GstClAggregatorPrivate *priv = GET_PRIV (self);
  GstVideoInfo *out_info = &GST_VIDEO_AGGREGATOR (self)->info;
  guint i;

  for (i = 0; i < priv->n_pads; i++) {
    GstVideoInfo *info = &GST_VIDEO_AGGREGATOR_PAD (priv->pads[i])->info;
    const gchar *name = GST_PAD_NAME (priv->pads[i]);

    buffers[i] = pad_buffer (priv->pads[i]);
    infos[i] = info;
    if (!buffers[i])
      continue;
    /* a pad whose caps GstVideoAggregator refused still has buffers
     * queued, and no video info */
    if (!info->finfo) {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s has no accepted caps",
              name), (NULL));
      return FALSE;
    }
    if (GST_VIDEO_INFO_FORMAT (info) != GST_VIDEO_INFO_FORMAT (out_info)) {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("the inputs must have "
              "the same format"), ("%s %s, the output %s", name,
              gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
              gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (out_info))));
      return FALSE;
    }
  }
  return TRUE;
}

/* an output frame playing backwards stamped as forward ones are
 * (gstclstamps.c) */
static void
restamp_reverse (GstClAggregator * self, GstBuffer * outbuf)
{
  GstVideoAggregator *vagg = GST_VIDEO_AGGREGATOR (self);
  GstAggregatorPad *src = GST_AGGREGATOR_PAD (GST_AGGREGATOR_SRC_PAD (self));
  gdouble rate;

  GST_OBJECT_LOCK (self);
  rate = src->segment.rate;
  GST_OBJECT_UNLOCK (self);
  gst_cl_reverse_stamps_apply (&GET_PRIV (self)->reverse, outbuf, rate,
      GST_VIDEO_INFO_FPS_N (&vagg->info), GST_VIDEO_INFO_FPS_D (&vagg->info));
}

static GstFlowReturn
gst_cl_aggregator_aggregate_frames (GstVideoAggregator * vagg,
    GstBuffer * outbuf)
{
  GstClAggregator *self = GST_CL_AGGREGATOR (vagg);
  GstClAggregatorPrivate *priv = GET_PRIV (self);
  GstBuffer *buffers[GST_CL_CORE_MAX_INPUTS];
  const GstVideoInfo *infos[GST_CL_CORE_MAX_INPUTS];
  GError *err = NULL;

  sync_values (vagg, outbuf);
  restamp_reverse (self, outbuf);
  if (!collect_inputs (self, buffers, infos))
    return GST_FLOW_NOT_NEGOTIATED;
  if (!gst_cl_core_process (priv->core, outbuf, &vagg->info, priv->n_pads,
          buffers, infos, 0, run_dispatch, self, &err)) {
    GST_CL_POST_ERROR (self, err);
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* At READY to PAUSED, before any caps: the element's programs that take
 * no caps start building in the background (the core's started with it),
 * so that the first frame waits for less. */
static void
prebuild (GstClAggregator * self)
{
  GstClAggregatorClass *klass = GST_CL_AGGREGATOR_GET_CLASS (self);
  GstClContext *ctx = gst_cl_core_get_context (GET_PRIV (self)->core);

  if (ctx && klass->prebuild)
    klass->prebuild (self, ctx);
}

static GstStateChangeReturn
gst_cl_aggregator_change_state (GstElement * element, GstStateChange transition)
{
  GstClAggregator *self = GST_CL_AGGREGATOR (element);
  GstClAggregatorPrivate *priv = GET_PRIV (self);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY &&
      !gst_cl_core_open (priv->core))
    return GST_STATE_CHANGE_FAILURE;
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    if (!gst_cl_core_start (priv->core))
      return GST_STATE_CHANGE_FAILURE;
    prebuild (self);
  }
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    gst_cl_unlinked_watch (priv->unlinked, FALSE);

  ret = GST_ELEMENT_CLASS (gst_cl_aggregator_parent_class)->change_state
      (element, transition);

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED &&
      ret != GST_STATE_CHANGE_FAILURE)
    gst_cl_unlinked_watch (priv->unlinked, TRUE);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) {
    gst_cl_core_stop (priv->core);
    /* the inputs negotiate again, as GstVideoAggregator forgets their
     * info */
    GST_OBJECT_LOCK (self);
    memset (priv->formats, 0, sizeof (priv->formats));
    GST_OBJECT_UNLOCK (self);
  }
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_cl_core_close (priv->core);
  return ret;
}

static void
gst_cl_aggregator_set_context (GstElement * element, GstContext * context)
{
  gst_cl_core_set_context (GET_PRIV (GST_CL_AGGREGATOR (element))->core,
      context);
  GST_ELEMENT_CLASS (gst_cl_aggregator_parent_class)->set_context (element,
      context);
}

static void
gst_cl_aggregator_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  if (!gst_cl_core_set_property (GET_PRIV (GST_CL_AGGREGATOR (object))->core,
          prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cl_aggregator_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  if (!gst_cl_core_get_property (GET_PRIV (GST_CL_AGGREGATOR (object))->core,
          prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cl_aggregator_finalize (GObject * object)
{
  GstClAggregatorPrivate *priv = GET_PRIV (GST_CL_AGGREGATOR (object));

  gst_cl_core_free (priv->core);
  gst_cl_unlinked_free (priv->unlinked);
  G_OBJECT_CLASS (gst_cl_aggregator_parent_class)->finalize (object);
}

static GObject *
gst_cl_aggregator_get_child_by_index (GstChildProxy * proxy, guint index)
{
  GstClAggregatorPad *pad = gst_cl_aggregator_get_pad (GST_CL_AGGREGATOR
      (proxy), index);

  return pad ? g_object_ref (G_OBJECT (pad)) : NULL;
}

static guint
gst_cl_aggregator_get_children_count (GstChildProxy * proxy)
{
  return GET_PRIV (GST_CL_AGGREGATOR (proxy))->n_pads;
}

static void
gst_cl_aggregator_child_proxy_init (gpointer iface, gpointer iface_data)
{
  GstChildProxyInterface *proxy = iface;

  proxy->get_child_by_index = gst_cl_aggregator_get_child_by_index;
  proxy->get_children_count = gst_cl_aggregator_get_children_count;
}

static void
gst_cl_aggregator_class_init (GstClAggregatorClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);
  GstVideoAggregatorClass *vagg_class = GST_VIDEO_AGGREGATOR_CLASS (klass);

  gobject_class->set_property = gst_cl_aggregator_set_property;
  gobject_class->get_property = gst_cl_aggregator_get_property;
  gobject_class->finalize = gst_cl_aggregator_finalize;
  gobject_class->constructed = gst_cl_aggregator_constructed;
  gst_cl_core_install_properties (gobject_class, PROP_DEVICE_INDEX,
      PROP_VARIANT);

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_aggregator_change_state);
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cl_aggregator_set_context);
  agg_class->fixate_src_caps =
      GST_DEBUG_FUNCPTR (gst_cl_aggregator_fixate_src_caps);
  agg_class->src_query = GST_DEBUG_FUNCPTR (gst_cl_aggregator_src_query);
  agg_class->sink_query = GST_DEBUG_FUNCPTR (gst_cl_aggregator_sink_query);
  agg_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_aggregator_sink_event);
  agg_class->sink_event_pre_queue =
      GST_DEBUG_FUNCPTR (gst_cl_aggregator_sink_event_pre_queue);
  agg_class->src_event = GST_DEBUG_FUNCPTR (gst_cl_aggregator_src_event);
  agg_class->negotiated_src_caps =
      GST_DEBUG_FUNCPTR (gst_cl_aggregator_negotiated_src_caps);
  agg_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_aggregator_propose_allocation);
  agg_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_aggregator_decide_allocation);
  vagg_class->update_caps = GST_DEBUG_FUNCPTR (gst_cl_aggregator_update_caps);
  vagg_class->aggregate_frames =
      GST_DEBUG_FUNCPTR (gst_cl_aggregator_aggregate_frames);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_AGGREGATOR, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_AGGREGATOR_PAD, 0);
}

/* The class's always sink pads, made from its templates in their order:
 * once the instance is whole, as the templates are the final class's. Each
 * has its index for zorder, as compositor numbers its request pads
 * (GstVideoAggregator leaves always pads at 0): the order a subclass draws
 * its inputs in. */
static void
gst_cl_aggregator_constructed (GObject * object)
{
  GstClAggregator *self = GST_CL_AGGREGATOR (object);
  GstClAggregatorPrivate *priv = GET_PRIV (self);
  GstElementClass *klass = GST_ELEMENT_GET_CLASS (self);
  GstPadTemplate *templ;
  gchar *name;

  G_OBJECT_CLASS (gst_cl_aggregator_parent_class)->constructed (object);
  for (name = g_strdup ("sink_0"); priv->n_pads < GST_CL_CORE_MAX_INPUTS &&
      (templ = gst_element_class_get_pad_template (klass, name));
      g_free (name), name = g_strdup_printf ("sink_%u", priv->n_pads)) {
    GstPad *pad = g_object_new (GST_PAD_TEMPLATE_GTYPE (templ), "name", name,
        "direction", GST_PAD_SINK, "template", templ, "zorder", priv->n_pads,
        NULL);

    priv->pads[priv->n_pads++] = GST_CL_AGGREGATOR_PAD (pad);
    gst_element_add_pad (GST_ELEMENT (self), pad);
    gst_cl_watch_caps_events (pad);
  }
  g_free (name);
  priv->unlinked = gst_cl_unlinked_new (GST_ELEMENT (self),
      (GstPad **) priv->pads, priv->n_pads);
}

static void
gst_cl_aggregator_init (GstClAggregator * self)
{
  GstClAggregatorPrivate *priv = GET_PRIV (self);

  priv->core = gst_cl_core_new (GST_ELEMENT (self), PROP_DEVICE_INDEX,
      PROP_VARIANT);
}
