/* gstclfilters: clcomposite, an overlay over a background
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-clcomposite
 * @title: clcomposite
 *
 * Composes the overlay of `sink_1` (B) over the background of `sink_0` (A)
 * on an OpenCL device. The overlay's top-left corner goes to the
 * #GstClCompositePad:xpos, #GstClCompositePad:ypos of `sink_1`; it may be
 * smaller or larger than the background and lie partly outside, and is
 * clipped. Per channel, where the overlay covers the pixel:
 *
 * - `blend`: out = alpha A + (1 - alpha) B + g;
 * - `over`: w = (1 - alpha) aB / 255, out = w B + (1 - w) A + g, and the
 *   alpha channel keeps A's (aB: the overlay's alpha, 255 in formats
 *   without one);
 *
 * and elsewhere out = A + g; rounded half up, clamped to 0..255. g is
 * #GstClComposite:gamma for R, G, B and Y, 0 for alpha, U and V. In
 * subsampled chroma planes the overlay starts at (floor (xpos / 2),
 * floor (ypos / 2)).
 *
 * Both pads take the same format. The output has the size and framerate of
 * `sink_0` unless downstream asks otherwise; timestamps, live sources, EOS
 * and latency behave as in `compositor` (a #GstVideoAggregator). Without a
 * background frame, A is black.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 clcomposite name=c alpha=0.3 sink_1::xpos=64 sink_1::ypos=48 ! videoconvert ! autovideosink videotestsrc ! video/x-raw,format=RGBA,width=640,height=480 ! c.sink_0 videotestsrc pattern=ball ! video/x-raw,format=RGBA,width=320,height=240 ! c.sink_1
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstclcomposite.h"
#include "gstclkernels.h"
#include "cl/gstclbasefilter.h"
#include "cl/gstclerror.h"
#include "cl/gstclmemory.h"
#include "cl/gstclpool.h"
#include "cl/gstclgate.h"
#include "cl/gstclutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_composite_debug);
#define GST_CAT_DEFAULT gst_cl_composite_debug

#define DEFAULT_ALPHA 0.5
#define DEFAULT_GAMMA 0
#define DEFAULT_OPERATOR GST_CL_COMPOSITE_OPERATOR_BLEND
/* as gst_cl_install_element_properties() installs them */
#define DEFAULT_DEVICE_INDEX -1
#define DEFAULT_VARIANT GST_CL_VARIANT_OPTIMIZED

#define FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, NV12, I420 }"

/* the overlay pad */

enum
{
  PROP_PAD_0,
  PROP_PAD_XPOS,
  PROP_PAD_YPOS,
};

struct _GstClCompositePad
{
  GstVideoAggregatorPad parent;

  gint xpos, ypos;
};

G_DEFINE_TYPE (GstClCompositePad, gst_cl_composite_pad,
    GST_TYPE_VIDEO_AGGREGATOR_PAD);

static void
gst_cl_composite_pad_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClCompositePad *pad = GST_CL_COMPOSITE_PAD (object);

  GST_OBJECT_LOCK (pad);
  switch (prop_id) {
    case PROP_PAD_XPOS:
      pad->xpos = g_value_get_int (value);
      break;
    case PROP_PAD_YPOS:
      pad->ypos = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (pad);
}

static void
gst_cl_composite_pad_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClCompositePad *pad = GST_CL_COMPOSITE_PAD (object);

  GST_OBJECT_LOCK (pad);
  switch (prop_id) {
    case PROP_PAD_XPOS:
      g_value_set_int (value, pad->xpos);
      break;
    case PROP_PAD_YPOS:
      g_value_set_int (value, pad->ypos);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (pad);
}

/* Frames are not mapped here: the element maps only those that are not on
 * its device already. */
static gboolean
gst_cl_composite_pad_prepare_frame (GstVideoAggregatorPad * pad,
    GstVideoAggregator * vagg, GstBuffer * buffer,
    GstVideoFrame * prepared_frame)
{
  return TRUE;
}

static void
gst_cl_composite_pad_clean_frame (GstVideoAggregatorPad * pad,
    GstVideoAggregator * vagg, GstVideoFrame * prepared_frame)
{
}

static void
gst_cl_composite_pad_class_init (GstClCompositePadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstVideoAggregatorPadClass *vpad_class =
      GST_VIDEO_AGGREGATOR_PAD_CLASS (klass);

  gobject_class->set_property = gst_cl_composite_pad_set_property;
  gobject_class->get_property = gst_cl_composite_pad_get_property;
  vpad_class->prepare_frame = gst_cl_composite_pad_prepare_frame;
  vpad_class->clean_frame = gst_cl_composite_pad_clean_frame;

  g_object_class_install_property (gobject_class, PROP_PAD_XPOS,
      g_param_spec_int ("xpos", "X position", "Column of the output where "
          "the overlay's left edge goes (sink_1 only: sink_0 is always at 0, 0; "
          "may be negative)",
          G_MININT, G_MAXINT, 0, G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_PAD_YPOS,
      g_param_spec_int ("ypos", "Y position", "Row of the output where "
          "the overlay's top edge goes (sink_1 only: sink_0 is always at 0, 0; "
          "may be negative)",
          G_MININT, G_MAXINT, 0, G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));
}

static void
gst_cl_composite_pad_init (GstClCompositePad * pad)
{
}

/* the element */

enum
{
  PROP_0,
  PROP_ALPHA,
  PROP_GAMMA,
  PROP_OPERATOR,
  PROP_DEVICE_INDEX,
  PROP_VARIANT,
};

/* the kernels, after their names in kernels/composite.cl */
typedef enum
{
  KERNEL_REFERENCE,
  KERNEL_BYTES,
  KERNEL_PIXELS,
  N_KERNELS,
} CompositeKernel;

struct _GstClComposite
{
  GstVideoAggregator parent;

  gdouble alpha;
  gint gamma;
  GstClCompositeOperator op;
  gint device_index;
  GstClVariant variant;

  GstClContext *ctx;
  GstClQueue *queue;            /* the last frame's */
  cl_kernel kernels[N_KERNELS];
  gboolean bytes_only;          /* GST_CL_COMPOSITE_KERNEL=bytes */
  GstClStaging staging[3];      /* background, overlay, output */
  GstVideoAggregatorPad *pads[2];
  /* each input's format from its caps event on, before GstVideoAggregator
   * takes the event in its own thread (the pad's info): the other input
   * takes it. Under the object lock. */
  GstVideoFormat formats[2];

  /* pads left unlinked, whose streams the element ended itself */
  GMutex unlinked_lock;
  gboolean watching;            /* PAUSED or PLAYING */
  GstClockID unlinked_timer;
  gboolean ended[2];
};

static void gst_cl_composite_child_proxy_init (gpointer iface,
    gpointer iface_data);

/* the pads are children, for sink_1::xpos=... on launch lines */
G_DEFINE_TYPE_WITH_CODE (GstClComposite, gst_cl_composite,
    GST_TYPE_VIDEO_AGGREGATOR, G_IMPLEMENT_INTERFACE (GST_TYPE_CHILD_PROXY,
        gst_cl_composite_child_proxy_init));
GST_ELEMENT_REGISTER_DEFINE (clcomposite, "clcomposite", GST_RANK_NONE,
    GST_TYPE_CL_COMPOSITE);


GType
gst_cl_composite_operator_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {GST_CL_COMPOSITE_OPERATOR_BLEND,
        "alpha A + (1 - alpha) B where the overlay covers", "blend"},
    {GST_CL_COMPOSITE_OPERATOR_OVER,
        "the overlay by (1 - alpha) times its alpha; the background's alpha "
          "is kept", "over"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType type = g_enum_register_static ("GstClCompositeOperator", values);
    g_once_init_leave (&id, type);
  }
  return (GType) id;
}

/* How a format's planes compose: per plane, which bytes of a pixel take the
 * gamma, which one is the alpha, and the bytes of black. */
typedef struct
{
  guint gamma_mask;
  gint alpha_index;
  guint32 fill;
} PlaneLayout;

static void
plane_layout (const GstVideoInfo * info, guint plane, PlaneLayout * layout)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gboolean yuv = GST_VIDEO_FORMAT_INFO_IS_YUV (finfo);
  guint c;

  layout->gamma_mask = 0;
  layout->alpha_index = -1;
  layout->fill = 0;
  for (c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    guint offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
    guint black;

    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != plane)
      continue;
    if (c == GST_VIDEO_COMP_A) {
      layout->alpha_index = offset;
      black = 255;
    } else if (yuv) {
      black = c == GST_VIDEO_COMP_Y ? 16 : 128;
    } else {
      black = 0;
    }
    /* R, G, B and Y take the gamma */
    if (c == 0 || (!yuv && c < 3))
      layout->gamma_mask |= 1u << offset;
    layout->fill |= black << (8 * offset);
  }
}

/* floor (a / 2^shift), also for negative a */
static gint
floor_shift (gint a, guint shift)
{
  return a >= 0 ? a >> shift : -((-a + (1 << shift) - 1) >> shift);
}

static const gchar *kernel_names[N_KERNELS] = { "composite_reference",
  "composite_optimized", "composite_pixels"
};

/* The kernel for a plane of @pstride-byte pixels. For 4-byte pixels a pixel
 * per work-item, moved as words, measured faster than 4 bytes of a row
 * (RGBA 4K blend, kernel time: H100 0.049 against 0.061 ms, PoCL 9.3
 * against 19.7 ms); for smaller ones the 4 bytes hold several pixels.
 * GST_CL_COMPOSITE_KERNEL=bytes forces the 4-byte runs, to compare. */
static CompositeKernel
pick_kernel (GstClComposite * self, GstClVariant variant, gint pstride)
{
  if (variant == GST_CL_VARIANT_REFERENCE)
    return KERNEL_REFERENCE;
  return pstride == 4 && !self->bytes_only ? KERNEL_PIXELS : KERNEL_BYTES;
}

static gboolean
composite_plane (GstClComposite * self, const GstVideoInfo * info, guint p,
    const GstClPlane * bg, const GstClPlane * ov, const GstClPlane * out,
    gint xpos, gint ypos, gfloat alpha, gint gamma, gint op,
    GstClVariant variant, GError ** error)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  PlaneLayout layout;
  CompositeKernel id = pick_kernel (self, variant, out->pstride);
  cl_kernel k;
  gsize global[2];
  gint bg_w = bg ? bg->width : 0, bg_h = bg ? bg->height : 0;
  gint ov_w = ov ? ov->width : 0, ov_h = ov ? ov->height : 0, ox, oy;
  cl_mem bg_mem = bg ? bg->mem : out->mem, ov_mem = ov ? ov->mem : out->mem;
  gint bg_stride = bg ? bg->stride : 0, ov_stride = ov ? ov->stride : 0;

  if (!self->kernels[id])
    self->kernels[id] = gst_cl_kernel_new (self->ctx,
        gst_cl_kernel_composite, "", kernel_names[id], error);
  k = self->kernels[id];
  if (!k)
    return FALSE;

  gst_video_format_info_component (finfo, p, comp);
  ox = floor_shift (xpos, GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp[0]));
  oy = floor_shift (ypos, GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp[0]));
  plane_layout (info, p, &layout);
  /* black for every byte of a 4-byte run: pixels of 1 or 2 bytes repeated */
  if (out->pstride == 1)
    layout.fill = (layout.fill & 0xff) * 0x01010101u;
  else if (out->pstride == 2)
    layout.fill = (layout.fill & 0xffff) * 0x00010001u;
  /* composite_optimized takes 4 bytes of a row, the others a pixel */
  global[0] = id != KERNEL_BYTES ? (gsize) out->width :
      ((gsize) out->width * out->pstride + 3) / 4;
  global[1] = out->height;

  return gst_cl_kernel_set_args (k, error, 21, GST_CL_ARG (bg_mem),
      GST_CL_ARG (bg_stride), GST_CL_ARG (bg_w), GST_CL_ARG (bg_h),
      GST_CL_ARG (layout.fill),
      GST_CL_ARG (ov_mem), GST_CL_ARG (ov_stride), GST_CL_ARG (ov_w),
      GST_CL_ARG (ov_h), GST_CL_ARG (ox), GST_CL_ARG (oy),
      GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (out->width), GST_CL_ARG (out->height),
      GST_CL_ARG (out->pstride), GST_CL_ARG (alpha), GST_CL_ARG (gamma),
      GST_CL_ARG (layout.gamma_mask), GST_CL_ARG (op),
      GST_CL_ARG (layout.alpha_index)) &&
      gst_cl_kernel_enqueue (self->queue, k, 2, global, NULL, error);
}

/* Takes the calling thread's queue for the frame at hand. */
static gboolean
follow_thread (GstClComposite * self, GError ** error)
{
  if (!self->queue)
    self->queue = gst_cl_queue_new (self->ctx);
  return gst_cl_queue_follow_thread (self->queue, error);
}

/**
 * gst_cl_composite_process:
 * @bg: (nullable): the background on the device, or %NULL for black
 * @ov: (nullable): the overlay on the device, of the same format, or %NULL
 * @out: the output frame on the device, of @info's format and size
 *
 * Enqueues the composition with the current properties, as the element
 * does for every output frame; for benchmarks and tests. Needs READY.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_composite_process (GstClComposite * self, const GstVideoInfo * info,
    const GstClFrame * bg, const GstClFrame * ov, const GstClFrame * out,
    GError ** error)
{
  GstClVariant variant;
  gfloat alpha;
  gint gamma, op, xpos, ypos;
  gboolean ok;
  guint p;

  g_return_val_if_fail (GST_IS_CL_COMPOSITE (self), FALSE);
  g_return_val_if_fail (self->ctx != NULL, FALSE);
  /* a no-op from the element's own frames, which took the queue already */
  if (!follow_thread (self, error))
    return FALSE;

  GST_OBJECT_LOCK (self);
  alpha = self->alpha;
  gamma = self->gamma;
  op = self->op;
  variant = self->variant;
  GST_OBJECT_UNLOCK (self);
  GST_OBJECT_LOCK (self->pads[1]);
  xpos = GST_CL_COMPOSITE_PAD (self->pads[1])->xpos;
  ypos = GST_CL_COMPOSITE_PAD (self->pads[1])->ypos;
  GST_OBJECT_UNLOCK (self->pads[1]);
  /* anything further out covers nothing; the kernels' subtractions stay in
   * range */
  xpos = CLAMP (xpos, -G_MAXINT / 4, G_MAXINT / 4);
  ypos = CLAMP (ypos, -G_MAXINT / 4, G_MAXINT / 4);

  for (p = 0, ok = TRUE; ok && p < out->n_planes; p++)
    ok = composite_plane (self, info, p, bg ? &bg->planes[p] : NULL,
        ov ? &ov->planes[p] : NULL, &out->planes[p], xpos, ypos, alpha,
        gamma, op, variant, error);
  return ok;
}

/**
 * gst_cl_composite_get_context:
 *
 * Returns: (transfer none) (nullable): the element's context, set from
 *   READY on
 */
GstClContext *
gst_cl_composite_get_context (GstClComposite * self)
{
  g_return_val_if_fail (GST_IS_CL_COMPOSITE (self), NULL);
  return self->ctx;
}

/**
 * gst_cl_composite_get_queue:
 *
 * Returns: (transfer none) (nullable): the queue of the element's last
 *   frame, where gst_cl_composite_process() enqueues
 */
GstClQueue *
gst_cl_composite_get_queue (GstClComposite * self)
{
  g_return_val_if_fail (GST_IS_CL_COMPOSITE (self), NULL);
  return self->queue;
}

/* the pad's frame for this output frame, if it has one */
static GstBuffer *
pad_buffer (GstVideoAggregatorPad * pad)
{
  GstBuffer *buf = gst_video_aggregator_pad_get_current_buffer (pad);

  if (buf && gst_buffer_get_size (buf) == 0 &&
      GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP))
    return NULL;
  return buf;
}

static GstFlowReturn
gst_cl_composite_aggregate_frames (GstVideoAggregator * vagg,
    GstBuffer * outbuf)
{
  GstClComposite *self = GST_CL_COMPOSITE (vagg);
  GstBuffer *bg = pad_buffer (self->pads[0]);
  GstBuffer *ov = pad_buffer (self->pads[1]);
  GstVideoInfo *bg_info = &self->pads[0]->info;
  GstVideoInfo *ov_info = &self->pads[1]->info;
  GstClBufferFrame cl_bg, cl_ov, cl_out;
  GstClockTime ts;
  GError *err = NULL;
  GstMapFlags in_flags;
  gboolean ok;

  GST_OBJECT_LOCK (GST_AGGREGATOR_SRC_PAD (vagg));
  ts = gst_segment_to_stream_time (&GST_AGGREGATOR_PAD (GST_AGGREGATOR_SRC_PAD
          (vagg))->segment, GST_FORMAT_TIME, GST_BUFFER_PTS (outbuf));
  GST_OBJECT_UNLOCK (GST_AGGREGATOR_SRC_PAD (vagg));
  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (vagg), ts);

  /* a pad whose caps GstVideoAggregator refused still has buffers queued,
   * and no video info */
  if ((bg && !bg_info->finfo) || (ov && !ov_info->finfo)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s has no accepted caps",
            bg && !bg_info->finfo ? "sink_0" : "sink_1"), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if ((bg && GST_VIDEO_INFO_FORMAT (bg_info) != GST_VIDEO_INFO_FORMAT
          (&vagg->info)) || (ov && GST_VIDEO_INFO_FORMAT (ov_info) !=
          GST_VIDEO_INFO_FORMAT (&vagg->info))) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("sink_0 and sink_1 must "
            "have the same format"), ("sink_0 %s, sink_1 %s",
            bg ? gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (bg_info)) :
            "-", ov ? gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
                (ov_info)) : "-"));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  memset (&cl_bg, 0, sizeof (cl_bg));
  memset (&cl_ov, 0, sizeof (cl_ov));
  memset (&cl_out, 0, sizeof (cl_out));
  gst_cl_gate_enter (self->ctx);
  /* the output first: where it is copied back to the host, waiting for
   * that copy waits for the inputs' copies to the device too */
  ok = follow_thread (self, &err) &&
      gst_cl_buffer_frame_map (self->queue, &cl_out, &vagg->info,
      outbuf, GST_MAP_WRITE, &self->staging[2], &err);
  in_flags = GST_MAP_READ | (cl_out.mapped ? GST_CL_MAP_FOLLOWED : 0);
  ok = ok &&
      (!bg || gst_cl_buffer_frame_map (self->queue, &cl_bg,
          bg_info, bg, in_flags, &self->staging[0], &err)) &&
      (!ov || gst_cl_buffer_frame_map (self->queue, &cl_ov,
          ov_info, ov, in_flags, &self->staging[1], &err)) &&
      gst_cl_composite_process (self, &vagg->info, bg ? &cl_bg.frame : NULL,
      ov ? &cl_ov.frame : NULL, &cl_out.frame, &err) &&
      gst_cl_buffer_frame_finish (self->queue, &cl_out, &err);
  gst_cl_buffer_frame_unmap (self->queue, &cl_out);
  gst_cl_buffer_frame_unmap (self->queue, &cl_ov);
  gst_cl_buffer_frame_unmap (self->queue, &cl_bg);
  gst_cl_gate_leave (self->ctx);
  if (!ok) {
    GST_CL_POST_ERROR (self, err);
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* The output is in the pads' format, preferably with sink_0's framerate
 * (25/1 for still pictures, as compositor), colorimetry, chroma siting and
 * pixel aspect ratio, whichever of those downstream allows, in memory:OpenCL
 * where downstream prefers it. */
static GstCaps *
gst_cl_composite_update_caps (GstVideoAggregator * vagg, GstCaps * caps)
{
  GstClComposite *self = GST_CL_COMPOSITE (vagg);
  GstVideoInfo info;
  gboolean have_info = FALSE;
  GstCaps *res, *best, *both;
  gint fps_n = 25, fps_d = 1;
  gchar *colorimetry;
  guint i;

  GST_OBJECT_LOCK (self);
  for (i = G_N_ELEMENTS (self->pads); i > 0; i--) {
    if (self->pads[i - 1]->info.finfo &&
        GST_VIDEO_INFO_FORMAT (&self->pads[i - 1]->info) !=
        GST_VIDEO_FORMAT_UNKNOWN) {
      info = self->pads[i - 1]->info;
      have_info = TRUE;
    }
  }
  GST_OBJECT_UNLOCK (self);
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
  return gst_cl_caps_prefer_for_peer (GST_AGGREGATOR_SRC_PAD (vagg), res);
}

/* The output takes sink_0's size, framerate and pixel aspect ratio, as near
 * as downstream allows. */
static GstCaps *
gst_cl_composite_fixate_src_caps (GstAggregator * agg, GstCaps * caps)
{
  GstClComposite *self = GST_CL_COMPOSITE (agg);
  GstVideoInfo info;
  GstStructure *s;

  /* GstVideoAggregator reads the pads' info under its own lock */
  GST_OBJECT_LOCK (self);
  info = self->pads[0]->info;
  GST_OBJECT_UNLOCK (self);
  if (!info.finfo || GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_UNKNOWN)
    return GST_AGGREGATOR_CLASS (gst_cl_composite_parent_class)->fixate_src_caps
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

static gboolean
gst_cl_composite_query (GstClComposite * self, GstQuery * query)
{
  return GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cl_handle_context_query (GST_ELEMENT (self), query, self->ctx);
}

static gboolean
gst_cl_composite_src_query (GstAggregator * agg, GstQuery * query)
{
  return gst_cl_composite_query (GST_CL_COMPOSITE (agg), query) ||
      GST_AGGREGATOR_CLASS (gst_cl_composite_parent_class)->src_query (agg,
      query);
}

/* The formats upstream of @pad can give, as caps in both memories; NULL for
 * any. A query that comes back here, through a tee feeding both pads, gets
 * no answer. */
static GstCaps *
peer_formats (GstClComposite * self, GstPad * pad)
{
  /* the elements asking in this thread */
  static GPrivate asking = G_PRIVATE_INIT (NULL);
  GSList *outer = g_private_get (&asking);
  GstCaps *peer, *formats, *res;
  guint i;

  if (g_slist_find (outer, self))
    return NULL;
  g_private_set (&asking, g_slist_prepend (outer, self));
  peer = gst_pad_peer_query_caps (pad, NULL);
  g_slist_free_1 (g_private_get (&asking));
  g_private_set (&asking, outer);
  if (gst_caps_is_any (peer) || gst_caps_is_empty (peer)) {
    gst_caps_unref (peer);
    return NULL;
  }
  formats = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (peer); i++) {
    const GValue *v = gst_structure_get_value (gst_caps_get_structure (peer,
            i), "format");
    GstStructure *s;

    if (!v) {
      gst_caps_unref (formats);
      gst_caps_unref (peer);
      return NULL;
    }
    s = gst_structure_new_empty ("video/x-raw");
    gst_structure_set_value (s, "format", v);
    formats = gst_caps_merge_structure (formats, s);
  }
  gst_caps_unref (peer);
  res = gst_cl_caps_add_memory_feature (formats);
  gst_caps_unref (formats);
  return res;
}

/* @caps less what @formats leave out, unless that is everything */
static GstCaps *
keep_formats (GstCaps * caps, GstCaps * formats)
{
  GstCaps *both;

  if (!formats)
    return caps;
  both = gst_caps_intersect_full (caps, formats, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (formats);
  if (gst_caps_is_empty (both)) {
    gst_caps_unref (both);
    return caps;
  }
  gst_caps_unref (caps);
  return both;
}

/* @caps in @format alone, unless they have none of it */
static GstCaps *
keep_format (GstCaps * caps, const gchar * format)
{
  GstCaps *one = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      format, NULL);

  caps = keep_formats (caps, gst_cl_caps_add_memory_feature (one));
  gst_caps_unref (one);
  return caps;
}

/* The index of @pad, sink_0 or sink_1 */
static guint
pad_index (GstClComposite * self, GstPad * pad)
{
  return pad == GST_PAD (self->pads[0]) ? 0 : 1;
}

/* The format of the other input's stream than @pad's, or
 * GST_VIDEO_FORMAT_UNKNOWN before its caps */
static GstVideoFormat
other_format (GstClComposite * self, GstPad * pad)
{
  GstVideoFormat format;

  GST_OBJECT_LOCK (self);
  format = self->formats[1 - pad_index (self, pad)];
  GST_OBJECT_UNLOCK (self);
  return format;
}

/* The kernels do not convert, so both inputs take one format: the other
 * input's where its stream has one; else the first, in downstream's order,
 * that the upstreams linked can give. That is the same answer whichever pad
 * asks first and whether or not the other is linked yet, so two inputs that
 * negotiate at once, or one as the other is linked, agree wherever their
 * upstreams can convert. */
static GstCaps *
agree_on_format (GstClComposite * self, GstPad * pad, GstCaps * caps)
{
  GstVideoFormat format = other_format (self, pad);
  const GValue *v;
  GstCaps *upstream[2];
  gboolean settle;
  guint i;

  if (format != GST_VIDEO_FORMAT_UNKNOWN)
    return keep_format (caps, gst_video_format_to_string (format));

  /* in the pads' order, whichever asks: the same steps give the same
   * format. One is settled on only where this pad's upstream is known, not
   * while its link is checked. */
  for (i = 0; i < G_N_ELEMENTS (upstream); i++)
    upstream[i] = peer_formats (self, GST_PAD (self->pads[i]));
  settle = upstream[pad_index (self, pad)] != NULL;
  for (i = 0; i < G_N_ELEMENTS (upstream); i++)
    caps = keep_formats (caps, upstream[i]);
  if (!settle || gst_caps_is_empty (caps))
    return caps;
  v = gst_structure_get_value (gst_caps_get_structure (caps, 0), "format");
  if (GST_VALUE_HOLDS_LIST (v))
    v = gst_value_list_get_value (v, 0);
  if (!v || !G_VALUE_HOLDS_STRING (v))
    return caps;
  return keep_format (caps, g_value_get_string (v));
}

/* Where caps in @format come into @pad while the other input's stream is in
 * @taken: the element says what to do, as upstream's error will not */
static void
warn_format_taken (GstClComposite * self, GstPad * pad, GstVideoFormat taken,
    GstVideoFormat format)
{
  GstPad *other = GST_PAD (self->pads[1 - pad_index (self, pad)]);

  GST_ELEMENT_WARNING (self, CORE, NEGOTIATION, ("%s takes the format of "
          "%s, %s, not %s: put a videoconvert before it", GST_PAD_NAME (pad),
          GST_PAD_NAME (other), gst_video_format_to_string (taken),
          gst_video_format_to_string (format)), (NULL));
}

/* Inputs may be in system memory or memory:OpenCL, whatever the output's
 * memory is: GstVideoAggregator would ask them in the output's; and of any
 * size, whatever the output's is. */
static gboolean
gst_cl_composite_sink_caps_query (GstAggregator * agg, GstAggregatorPad * pad,
    GstQuery * query)
{
  GstCaps *templ = gst_pad_get_pad_template_caps (GST_PAD (pad));
  GstCaps *filter, *caps, *both;
  GstPad *srcpad;
  guint i;

  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS) {
    GstClComposite *self = GST_CL_COMPOSITE (agg);
    GstVideoFormat taken = other_format (self, GST_PAD (pad));
    GstVideoInfo info;
    gboolean ok, differs;

    gst_query_parse_accept_caps (query, &caps);
    /* as GstPad does with GST_PAD_FLAG_ACCEPT_INTERSECT: fields the caps
     * leave out (interlace-mode) take the template's */
    ok = gst_caps_can_intersect (caps, templ);
    /* both pads in one format: the kernels do not convert */
    differs = ok && taken != GST_VIDEO_FORMAT_UNKNOWN &&
        gst_video_info_from_caps (&info, caps) &&
        GST_VIDEO_INFO_FORMAT (&info) != taken;
    ok = ok && !differs;
    gst_query_set_accept_caps_result (query, ok);
    if (differs && gst_cl_caps_in_event (caps))
      warn_format_taken (self, GST_PAD (pad), taken,
          GST_VIDEO_INFO_FORMAT (&info));
    else if (!ok)
      gst_cl_warn_caps_refused (GST_ELEMENT (agg), GST_PAD (pad), caps);
    gst_caps_unref (templ);
    return TRUE;
  }

  gst_query_parse_caps (query, &filter);
  /* what downstream allows, in whichever memory (GstVideoAggregator's own
   * answer loses the memory of formats without alpha); the output's size
   * and framerate are downstream's or sink_0's, whatever the inputs' (the
   * overlay is placed, the background is clipped or padded) */
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
  caps = agree_on_format (GST_CL_COMPOSITE (agg), GST_PAD (pad), caps);
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

/* Frames of @caps larger than the device takes fail negotiation with a
 * message, on the inputs and the output. */
static gboolean
caps_fit_device (GstClComposite * self, GstCaps * caps)
{
  GstVideoInfo info;

  return !self->ctx || !gst_video_info_from_caps (&info, caps) ||
      gst_cl_frame_fits_device (GST_ELEMENT (self), self->ctx, &info);
}

static gboolean
gst_cl_composite_sink_event (GstAggregator * agg, GstAggregatorPad * pad,
    GstEvent * event)
{
  GstCaps *caps;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    gst_event_parse_caps (event, &caps);
    if (!caps_fit_device (GST_CL_COMPOSITE (agg), caps)) {
      gst_event_unref (event);
      return FALSE;
    }
  }
  return GST_AGGREGATOR_CLASS (gst_cl_composite_parent_class)->sink_event
      (agg, pad, event);
}

/* In the upstream's thread, before the queue: the caps' format is the
 * input's from now on, for the other input to take at once. Caps that passed
 * the ACCEPT_CAPS check while the other input's, in another format, were on
 * their way in too are refused here. */
static GstFlowReturn
gst_cl_composite_sink_event_pre_queue (GstAggregator * agg,
    GstAggregatorPad * pad, GstEvent * event)
{
  GstClComposite *self = GST_CL_COMPOSITE (agg);
  GstVideoFormat taken = GST_VIDEO_FORMAT_UNKNOWN;
  GstVideoInfo info;
  GstCaps *caps;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    guint i = pad_index (self, GST_PAD (pad));

    gst_event_parse_caps (event, &caps);
    if (gst_video_info_from_caps (&info, caps)) {
      GST_OBJECT_LOCK (self);
      taken = self->formats[1 - i];
      if (taken == GST_VIDEO_INFO_FORMAT (&info))
        taken = GST_VIDEO_FORMAT_UNKNOWN;
      if (taken == GST_VIDEO_FORMAT_UNKNOWN)
        self->formats[i] = GST_VIDEO_INFO_FORMAT (&info);
      GST_OBJECT_UNLOCK (self);
    }
  }
  if (taken != GST_VIDEO_FORMAT_UNKNOWN) {
    warn_format_taken (self, GST_PAD (pad), taken,
        GST_VIDEO_INFO_FORMAT (&info));
    gst_event_unref (event);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  return GST_AGGREGATOR_CLASS
      (gst_cl_composite_parent_class)->sink_event_pre_queue (agg, pad, event);
}

static gboolean
gst_cl_composite_negotiated_src_caps (GstAggregator * agg, GstCaps * caps)
{
  if (!caps_fit_device (GST_CL_COMPOSITE (agg), caps))
    return FALSE;
  return
      GST_AGGREGATOR_CLASS (gst_cl_composite_parent_class)->negotiated_src_caps
      (agg, caps);
}

static gboolean
gst_cl_composite_sink_query (GstAggregator * agg, GstAggregatorPad * pad,
    GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS ||
      GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS)
    return gst_cl_composite_sink_caps_query (agg, pad, query);
  return gst_cl_composite_query (GST_CL_COMPOSITE (agg), query) ||
      GST_AGGREGATOR_CLASS (gst_cl_composite_parent_class)->sink_query (agg,
      pad, query);
}

static gboolean
gst_cl_composite_propose_allocation (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * decide_query, GstQuery * query)
{
  gst_cl_propose_allocation (GST_ELEMENT (agg), GST_CL_COMPOSITE (agg)->ctx,
      query);
  return TRUE;
}

static gboolean
gst_cl_composite_decide_allocation (GstAggregator * agg, GstQuery * query)
{
  return gst_cl_decide_allocation (GST_ELEMENT (agg),
      GST_CL_COMPOSITE (agg)->ctx, query, &GST_VIDEO_AGGREGATOR (agg)->info);
}

static void
release_device_state (GstClComposite * self)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (self->kernels); i++) {
    if (self->kernels[i])
      clReleaseKernel (self->kernels[i]);
    self->kernels[i] = NULL;
  }
  for (i = 0; i < G_N_ELEMENTS (self->staging); i++)
    gst_cl_staging_clear (&self->staging[i]);
  /* the context's, waited for and released with it */
  g_clear_pointer (&self->queue, gst_cl_queue_free);
}

/* Both sink pads always exist, and GstAggregator waits for data on every
 * pad that has not ended, so an input left unlinked would stall the other for
 * good. Once an input is linked and the other has stayed unlinked for a grace
 * period (time for a decodebin's pads to be linked), the element ends the
 * unlinked pad's stream itself: the linked input goes on alone (a black
 * background, or no overlay) and the output ends with it. A stream that
 * arrives on that pad later flushes the end away first. */
#define UNLINKED_GRACE (500 * GST_MSECOND)
#define UNLINKED_STREAM "/unlinked-by-clcomposite"

/* With self->unlinked_lock held: a whole empty stream into @pad */
static void
end_stream (GstClComposite * self, GstPad * pad)
{
  gchar *stream_id = g_strconcat (GST_ELEMENT_NAME (self), "/",
      GST_PAD_NAME (pad), UNLINKED_STREAM, NULL);
  GstSegment segment;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_send_event (pad, gst_event_new_stream_start (stream_id));
  gst_pad_send_event (pad, gst_event_new_segment (&segment));
  gst_pad_send_event (pad, gst_event_new_eos ());
  g_free (stream_id);
}

static gboolean
end_unlinked_pads (GstClock * clock, GstClockTime time, GstClockID id,
    gpointer user_data)
{
  GstClComposite *self = user_data;
  gboolean linked[2];
  guint i;

  g_mutex_lock (&self->unlinked_lock);
  for (i = 0; i < G_N_ELEMENTS (self->pads); i++)
    linked[i] = gst_pad_is_linked (GST_PAD (self->pads[i]));
  /* with neither linked yet, both may still be: the next link restarts the
   * grace */
  for (i = 0; self->unlinked_timer == id && (linked[0] || linked[1]) &&
      i < G_N_ELEMENTS (self->pads); i++) {
    GstPad *pad = GST_PAD (self->pads[i]);

    if (self->ended[i] || linked[i])
      continue;
    GST_INFO_OBJECT (pad, "not linked: ending its stream");
    self->ended[i] = TRUE;
    end_stream (self, pad);
  }
  g_mutex_unlock (&self->unlinked_lock);
  return TRUE;
}

/* With self->unlinked_lock held: (re)starts the grace where a pad is
 * unlinked. */
static void
schedule_unlinked_check (GstClComposite * self)
{
  GstClock *clock;

  if (self->unlinked_timer) {
    gst_clock_id_unschedule (self->unlinked_timer);
    gst_clock_id_unref (self->unlinked_timer);
    self->unlinked_timer = NULL;
  }
  if (!self->watching || (gst_pad_is_linked (GST_PAD (self->pads[0])) &&
          gst_pad_is_linked (GST_PAD (self->pads[1]))))
    return;
  clock = gst_system_clock_obtain ();
  self->unlinked_timer = gst_clock_new_single_shot_id (clock,
      gst_clock_get_time (clock) + UNLINKED_GRACE);
  gst_clock_id_wait_async (self->unlinked_timer, end_unlinked_pads,
      gst_object_ref (self), gst_object_unref);
  gst_object_unref (clock);
}

/* "linked" and "unlinked": the grace starts again */
static void
pad_linked (GstPad * pad, GstPad * peer, GstClComposite * self)
{
  g_mutex_lock (&self->unlinked_lock);
  schedule_unlinked_check (self);
  g_mutex_unlock (&self->unlinked_lock);
}

/* A flush of @pad, as upstream would send for the seek @seqnum (with
 * @reset_time), or for none (GST_SEQNUM_INVALID) */
static void
flush_pad (GstPad * pad, guint32 seqnum, gboolean reset_time)
{
  GstEvent *start = gst_event_new_flush_start ();
  GstEvent *stop = gst_event_new_flush_stop (reset_time);

  if (seqnum != GST_SEQNUM_INVALID) {
    gst_event_set_seqnum (start, seqnum);
    gst_event_set_seqnum (stop, seqnum);
  }
  gst_pad_send_event (pad, start);
  gst_pad_send_event (pad, stop);
}

/* The first event of a stream on a pad whose stream the element ended, in
 * the thread of the upstream that sends it: a flush takes the end away. */
static GstPadProbeReturn
stream_after_end (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstClComposite *self = user_data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  guint i = pad_index (self, pad);
  const gchar *stream_id = NULL;
  gboolean ended;

  if (GST_EVENT_TYPE (event) != GST_EVENT_STREAM_START)
    return GST_PAD_PROBE_OK;
  gst_event_parse_stream_start (event, &stream_id);
  /* the element's own, sent with the lock held */
  if (stream_id && g_str_has_suffix (stream_id, UNLINKED_STREAM))
    return GST_PAD_PROBE_OK;
  g_mutex_lock (&self->unlinked_lock);
  ended = self->ended[i];
  self->ended[i] = FALSE;
  g_mutex_unlock (&self->unlinked_lock);
  if (ended) {
    GST_INFO_OBJECT (pad, "a stream after its end: flushing the end away");
    flush_pad (pad, GST_SEQNUM_INVALID, FALSE);
  }
  return GST_PAD_PROBE_OK;
}

/* A flushing seek goes upstream of every linked pad and comes back as a
 * flush on it; GstAggregator waits for that flush on every pad, an unlinked
 * one too, which never gets one from upstream. The element gives it one, and
 * ends its stream again where it had. */
static void
flush_unlinked_pads (GstClComposite * self, guint32 seqnum)
{
  guint i;

  g_mutex_lock (&self->unlinked_lock);
  for (i = 0; i < G_N_ELEMENTS (self->pads); i++) {
    GstPad *pad = GST_PAD (self->pads[i]);

    if (gst_pad_is_linked (pad))
      continue;
    GST_DEBUG_OBJECT (pad, "not linked: flushing it for the seek");
    flush_pad (pad, seqnum, TRUE);
    if (self->ended[i])
      end_stream (self, pad);
  }
  g_mutex_unlock (&self->unlinked_lock);
}

static gboolean
gst_cl_composite_src_event (GstAggregator * agg, GstEvent * event)
{
  GstClComposite *self = GST_CL_COMPOSITE (agg);
  GstSeekFlags flags = 0;
  guint32 seqnum = gst_event_get_seqnum (event);
  gboolean seek = GST_EVENT_TYPE (event) == GST_EVENT_SEEK;
  gboolean ok;

  if (seek)
    gst_event_parse_seek (event, NULL, NULL, &flags, NULL, NULL, NULL, NULL);
  ok = GST_AGGREGATOR_CLASS (gst_cl_composite_parent_class)->src_event (agg,
      event);
  if (ok && seek && (flags & GST_SEEK_FLAG_FLUSH))
    flush_unlinked_pads (self, seqnum);
  return ok;
}

static void
watch_unlinked_pads (GstClComposite * self, gboolean watch)
{
  g_mutex_lock (&self->unlinked_lock);
  self->watching = watch;
  self->ended[0] = self->ended[1] = FALSE;
  schedule_unlinked_check (self);
  g_mutex_unlock (&self->unlinked_lock);
}

static GstStateChangeReturn
gst_cl_composite_change_state (GstElement * element, GstStateChange transition)
{
  GstClComposite *self = GST_CL_COMPOSITE (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY &&
      !gst_cl_ensure_element_context (element, self->device_index, &self->ctx))
    return GST_STATE_CHANGE_FAILURE;
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    watch_unlinked_pads (self, FALSE);

  ret = GST_ELEMENT_CLASS (gst_cl_composite_parent_class)->change_state
      (element, transition);

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED &&
      ret != GST_STATE_CHANGE_FAILURE)
    watch_unlinked_pads (self, TRUE);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) {
    /* what the element enqueued is done before READY */
    if (self->queue && gst_cl_queue_get_handle (self->queue))
      clFinish (gst_cl_queue_get_handle (self->queue));
    /* the inputs negotiate again, as GstVideoAggregator forgets their
     * info */
    GST_OBJECT_LOCK (self);
    self->formats[0] = self->formats[1] = GST_VIDEO_FORMAT_UNKNOWN;
    GST_OBJECT_UNLOCK (self);
  }

  if (transition == GST_STATE_CHANGE_READY_TO_NULL) {
    release_device_state (self);
    gst_clear_object (&self->ctx);
  }
  return ret;
}

static void
gst_cl_composite_set_context (GstElement * element, GstContext * context)
{
  GstClComposite *self = GST_CL_COMPOSITE (element);

  gst_cl_handle_set_context (element, context, self->device_index, &self->ctx);
  GST_ELEMENT_CLASS (gst_cl_composite_parent_class)->set_context (element,
      context);
}

static void
gst_cl_composite_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClComposite *self = GST_CL_COMPOSITE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ALPHA:
      self->alpha = g_value_get_double (value);
      break;
    case PROP_GAMMA:
      self->gamma = g_value_get_int (value);
      break;
    case PROP_OPERATOR:
      self->op = g_value_get_enum (value);
      break;
    case PROP_DEVICE_INDEX:
      self->device_index = g_value_get_int (value);
      break;
    case PROP_VARIANT:
      self->variant = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_composite_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClComposite *self = GST_CL_COMPOSITE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ALPHA:
      g_value_set_double (value, self->alpha);
      break;
    case PROP_GAMMA:
      g_value_set_int (value, self->gamma);
      break;
    case PROP_OPERATOR:
      g_value_set_enum (value, self->op);
      break;
    case PROP_DEVICE_INDEX:
      g_value_set_int (value, self->device_index);
      break;
    case PROP_VARIANT:
      g_value_set_enum (value, self->variant);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_composite_finalize (GObject * object)
{
  GstClComposite *self = GST_CL_COMPOSITE (object);

  release_device_state (self);
  gst_clear_object (&self->ctx);
  g_mutex_clear (&self->unlinked_lock);
  G_OBJECT_CLASS (gst_cl_composite_parent_class)->finalize (object);
}

static GObject *
gst_cl_composite_get_child_by_index (GstChildProxy * proxy, guint index)
{
  GstClComposite *self = GST_CL_COMPOSITE (proxy);

  return index < G_N_ELEMENTS (self->pads) ?
      g_object_ref (G_OBJECT (self->pads[index])) : NULL;
}

static guint
gst_cl_composite_get_children_count (GstChildProxy * proxy)
{
  return G_N_ELEMENTS (GST_CL_COMPOSITE (proxy)->pads);
}

static void
gst_cl_composite_child_proxy_init (gpointer iface, gpointer iface_data)
{
  GstChildProxyInterface *proxy = iface;

  proxy->get_child_by_index = gst_cl_composite_get_child_by_index;
  proxy->get_children_count = gst_cl_composite_get_children_count;
}

static void
gst_cl_composite_class_init (GstClCompositeClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);
  GstVideoAggregatorClass *vagg_class = GST_VIDEO_AGGREGATOR_CLASS (klass);
  GstCaps *raw, *templ;

  GST_DEBUG_CATEGORY_INIT (gst_cl_composite_debug, "clcomposite", 0,
      "OpenCL composition");

  gobject_class->set_property = gst_cl_composite_set_property;
  gobject_class->get_property = gst_cl_composite_get_property;
  gobject_class->finalize = gst_cl_composite_finalize;

  g_object_class_install_property (gobject_class, PROP_ALPHA,
      g_param_spec_double ("alpha", "Alpha", "Weight of the background "
          "where the overlay covers it (blend); the overlay's is 1 - alpha",
          0.0, 1.0, DEFAULT_ALPHA, G_PARAM_READWRITE |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_GAMMA,
      g_param_spec_int ("gamma", "Gamma", "Added to R, G, B (or Y) of every "
          "output pixel, clamped", -255, 255, DEFAULT_GAMMA,
          G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_OPERATOR,
      g_param_spec_enum ("operator", "Operator", "How the overlay combines "
          "with the background", GST_TYPE_CL_COMPOSITE_OPERATOR,
          DEFAULT_OPERATOR, G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));
  gst_cl_install_element_properties (gobject_class, PROP_DEVICE_INDEX,
      PROP_VARIANT);

  raw = gst_caps_from_string (GST_VIDEO_CAPS_MAKE (FORMATS));
  /* fields of interlaced frames would be placed and blended as one picture */
  gst_caps_set_simple (raw, "interlace-mode", G_TYPE_STRING, "progressive",
      NULL);
  templ = gst_cl_caps_add_memory_feature (raw);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new_with_gtype ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          templ, GST_TYPE_AGGREGATOR_PAD));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new_with_gtype ("sink_0", GST_PAD_SINK, GST_PAD_ALWAYS,
          templ, GST_TYPE_CL_COMPOSITE_PAD));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new_with_gtype ("sink_1", GST_PAD_SINK, GST_PAD_ALWAYS,
          templ, GST_TYPE_CL_COMPOSITE_PAD));
  gst_caps_unref (templ);
  gst_caps_unref (raw);
  gst_element_class_set_static_metadata (element_class,
      "OpenCL compositor", "Filter/Editor/Video/Compositor",
      "Blends an overlay (sink_1) over a background (sink_0) on an OpenCL "
      "device", "gstclfilters contributors");

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_composite_change_state);
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cl_composite_set_context);
  agg_class->fixate_src_caps =
      GST_DEBUG_FUNCPTR (gst_cl_composite_fixate_src_caps);
  agg_class->src_query = GST_DEBUG_FUNCPTR (gst_cl_composite_src_query);
  agg_class->sink_query = GST_DEBUG_FUNCPTR (gst_cl_composite_sink_query);
  agg_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_composite_sink_event);
  agg_class->sink_event_pre_queue =
      GST_DEBUG_FUNCPTR (gst_cl_composite_sink_event_pre_queue);
  agg_class->src_event = GST_DEBUG_FUNCPTR (gst_cl_composite_src_event);
  agg_class->negotiated_src_caps =
      GST_DEBUG_FUNCPTR (gst_cl_composite_negotiated_src_caps);
  agg_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_composite_propose_allocation);
  agg_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_composite_decide_allocation);
  vagg_class->update_caps = GST_DEBUG_FUNCPTR (gst_cl_composite_update_caps);
  vagg_class->aggregate_frames =
      GST_DEBUG_FUNCPTR (gst_cl_composite_aggregate_frames);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_COMPOSITE_PAD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_COMPOSITE_OPERATOR, 0);
}

static void
gst_cl_composite_init (GstClComposite * self)
{
  GstElementClass *klass = GST_ELEMENT_GET_CLASS (self);
  static const gchar *names[] = { "sink_0", "sink_1" };
  guint i;

  self->alpha = DEFAULT_ALPHA;
  self->gamma = DEFAULT_GAMMA;
  self->op = DEFAULT_OPERATOR;
  self->device_index = DEFAULT_DEVICE_INDEX;
  self->variant = DEFAULT_VARIANT;
  self->bytes_only = g_strcmp0 (g_getenv ("GST_CL_COMPOSITE_KERNEL"),
      "bytes") == 0;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    GstPadTemplate *templ = gst_element_class_get_pad_template (klass,
        names[i]);

    self->pads[i] = g_object_new (GST_TYPE_CL_COMPOSITE_PAD, "name", names[i],
        "direction", GST_PAD_SINK, "template", templ, NULL);
    gst_element_add_pad (GST_ELEMENT (self), GST_PAD (self->pads[i]));
    g_signal_connect (self->pads[i], "linked", G_CALLBACK (pad_linked), self);
    g_signal_connect (self->pads[i], "unlinked", G_CALLBACK (pad_linked), self);
    gst_pad_add_probe (GST_PAD (self->pads[i]),
        GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, stream_after_end, self, NULL);
    gst_cl_watch_caps_events (GST_PAD (self->pads[i]));
  }
  g_mutex_init (&self->unlinked_lock);
}
