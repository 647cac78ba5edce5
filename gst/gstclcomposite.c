/* gstclfilters: clcomposite, an overlay over a background
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-clcomposite
 * @title: clcomposite
 *
 * Composes the overlay of `sink_1` (B) over the background of `sink_0` (A)
 * on an OpenCL device, with the pad properties of `compositor` where it
 * does the same: the overlay's top-left corner goes to
 * #GstClCompositeOverlayPad:xpos, #GstClCompositeOverlayPad:ypos of
 * `sink_1`, scaled to #GstClCompositeOverlayPad:width x
 * #GstClCompositeOverlayPad:height (0 or less: its own size) by nearest
 * neighbour, at #GstClCompositeOverlayPad:alpha. It may be smaller or larger than the
 * background and lie partly outside, and is clipped. Per channel, alpha
 * being `sink_1`'s, where the overlay covers the pixel:
 *
 * - `blend`: out = (1 - alpha) A + alpha B + g;
 * - `over`: w = alpha aB / 255, out = w B + (1 - w) A + g, and the alpha
 *   channel keeps A's (aB: the overlay's alpha, 255 in formats without
 *   one);
 *
 * and elsewhere out = A + g; rounded half up, clamped to 0..255. g is
 * #GstClComposite:gamma for R, G, B and Y, 0 for alpha, U and V. Scaled to
 * W x H, the overlay's pixel at column x of the scaled picture is its
 * column floor ((2 x + 1) w / (2 W)) of w, and likewise for rows: the
 * nearest to the scaled pixel's centre. In subsampled chroma planes the
 * overlay starts at xpos and ypos divided by the plane's subsampling,
 * rounded down ((floor (xpos / 2), floor (ypos / 2)) in I420), and is
 * scaled from its chroma size to that of a W x H frame.
 *
 * `sink_1` is always drawn over `sink_0`; their zorders, 0 and 1, say so,
 * and setting them changes nothing. The element's #GstClComposite:alpha,
 * the background's weight 1 - `sink_1::alpha`, is deprecated.
 *
 * Both pads take the same format. The output has the size and framerate of
 * `sink_0` unless downstream asks otherwise; timestamps, live sources, EOS
 * and latency behave as in `compositor` (a #GstVideoAggregator). Without a
 * background frame, A is black.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 clcomposite name=c sink_1::alpha=0.7 sink_1::xpos=64 sink_1::ypos=48 ! videoconvert ! autovideosink videotestsrc ! video/x-raw,format=RGBA,width=640,height=480 ! c.sink_0 videotestsrc pattern=ball ! video/x-raw,format=RGBA,width=320,height=240 ! c.sink_1
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstclcomposite.h"
#include "gstclkernels.h"
#include "cl/gstclkernel.h"
#include "cl/gstclplan.h"
#include "cl/gstclprogram.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_composite_debug);
#define GST_CAT_DEFAULT gst_cl_composite_debug

#define DEFAULT_PAD_ALPHA 1.0
#define DEFAULT_GAMMA 0
#define DEFAULT_OPERATOR GST_CL_COMPOSITE_OPERATOR_BLEND

#define FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, NV12, NV21, I420, YV12, Y42B, Y444, YUY2, UYVY, YVYU }"

/* the pads: the background's has no property of its own, as it always
 * fills the output from 0, 0 at its own size, weighted by what the overlay
 * leaves */

struct _GstClCompositeBackgroundPad
{
  GstClAggregatorPad parent;
};

G_DEFINE_TYPE (GstClCompositeBackgroundPad, gst_cl_composite_background_pad,
    GST_TYPE_CL_AGGREGATOR_PAD);

static void
gst_cl_composite_background_pad_class_init (GstClCompositeBackgroundPadClass *
    klass)
{
}

static void
gst_cl_composite_background_pad_init (GstClCompositeBackgroundPad * pad)
{
}

enum
{
  PROP_PAD_0,
  PROP_PAD_ALPHA,
  PROP_PAD_XPOS,
  PROP_PAD_YPOS,
  PROP_PAD_WIDTH,
  PROP_PAD_HEIGHT,
};

struct _GstClCompositeOverlayPad
{
  GstClAggregatorPad parent;

  /* The overlay's opacity, and the background's weight, 1 - alpha, which
   * the kernels take. Each is kept as it was set, on the pad (alpha) or on
   * the element (its deprecated alpha, the weight), so that either reads
   * back what was written and old launch lines compute what they did. */
  gdouble alpha, weight;
  gint xpos, ypos;
  /* 0 or less: the overlay's own */
  gint width, height;
};

G_DEFINE_TYPE (GstClCompositeOverlayPad, gst_cl_composite_overlay_pad,
    GST_TYPE_CL_AGGREGATOR_PAD);

static void
gst_cl_composite_overlay_pad_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClCompositeOverlayPad *pad = GST_CL_COMPOSITE_OVERLAY_PAD (object);

  GST_OBJECT_LOCK (pad);
  switch (prop_id) {
    case PROP_PAD_ALPHA:
      pad->alpha = g_value_get_double (value);
      pad->weight = 1.0 - pad->alpha;
      break;
    case PROP_PAD_XPOS:
      pad->xpos = g_value_get_int (value);
      break;
    case PROP_PAD_YPOS:
      pad->ypos = g_value_get_int (value);
      break;
    case PROP_PAD_WIDTH:
      pad->width = g_value_get_int (value);
      break;
    case PROP_PAD_HEIGHT:
      pad->height = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (pad);
}

static void
gst_cl_composite_overlay_pad_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClCompositeOverlayPad *pad = GST_CL_COMPOSITE_OVERLAY_PAD (object);

  GST_OBJECT_LOCK (pad);
  switch (prop_id) {
    case PROP_PAD_ALPHA:
      g_value_set_double (value, pad->alpha);
      break;
    case PROP_PAD_XPOS:
      g_value_set_int (value, pad->xpos);
      break;
    case PROP_PAD_YPOS:
      g_value_set_int (value, pad->ypos);
      break;
    case PROP_PAD_WIDTH:
      g_value_set_int (value, pad->width);
      break;
    case PROP_PAD_HEIGHT:
      g_value_set_int (value, pad->height);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (pad);
}

#define PAD_PROP_FLAGS (G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE | \
    GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS)

static void
gst_cl_composite_overlay_pad_class_init (GstClCompositeOverlayPadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->set_property = gst_cl_composite_overlay_pad_set_property;
  gobject_class->get_property = gst_cl_composite_overlay_pad_get_property;

  /* the names, types and meanings of compositor's pad properties, for its
   * launch lines; compositor's ranges too, where a value outside ours
   * would otherwise refuse one of its lines */
  g_object_class_install_property (gobject_class, PROP_PAD_ALPHA,
      g_param_spec_double ("alpha", "Alpha", "Opacity of the overlay: its "
          "weight where it covers the background (the background's is "
          "1 - alpha)", 0.0, 1.0, DEFAULT_PAD_ALPHA, PAD_PROP_FLAGS));
  g_object_class_install_property (gobject_class, PROP_PAD_XPOS,
      g_param_spec_int ("xpos", "X position", "Column of the output where "
          "the overlay's left edge goes (may be negative)",
          G_MININT, G_MAXINT, 0, PAD_PROP_FLAGS));
  g_object_class_install_property (gobject_class, PROP_PAD_YPOS,
      g_param_spec_int ("ypos", "Y position", "Row of the output where "
          "the overlay's top edge goes (may be negative)",
          G_MININT, G_MAXINT, 0, PAD_PROP_FLAGS));
  g_object_class_install_property (gobject_class, PROP_PAD_WIDTH,
      g_param_spec_int ("width", "Width", "Width the overlay is scaled to, "
          "nearest neighbour (0 or less: its own)",
          G_MININT, G_MAXINT, 0, PAD_PROP_FLAGS));
  g_object_class_install_property (gobject_class, PROP_PAD_HEIGHT,
      g_param_spec_int ("height", "Height", "Height the overlay is scaled "
          "to, nearest neighbour (0 or less: its own)",
          G_MININT, G_MAXINT, 0, PAD_PROP_FLAGS));
}

static void
gst_cl_composite_overlay_pad_init (GstClCompositeOverlayPad * pad)
{
  pad->alpha = DEFAULT_PAD_ALPHA;
  pad->weight = 1.0 - DEFAULT_PAD_ALPHA;
}

/* the element */

enum
{
  PROP_0,
  PROP_ALPHA,
  PROP_GAMMA,
  PROP_OPERATOR,
};

/* the optimized kernels (kernels/composite.cl), as plans */
typedef enum
{
  PLAN_PIXELS,
  PLAN_BYTES,
} CompositePlan;

struct _GstClComposite
{
  GstClAggregator parent;

  gint gamma;
  GstClCompositeOperator op;
  GstClPlanner *planner;
};

G_DEFINE_TYPE (GstClComposite, gst_cl_composite, GST_TYPE_CL_AGGREGATOR);
GST_ELEMENT_REGISTER_DEFINE (clcomposite, "clcomposite", GST_RANK_NONE,
    GST_TYPE_CL_COMPOSITE);

GType
gst_cl_composite_operator_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {GST_CL_COMPOSITE_OPERATOR_BLEND,
          "(1 - alpha) A + alpha B where the overlay covers, alpha sink_1's",
        "blend"},
    {GST_CL_COMPOSITE_OPERATOR_OVER,
        "the overlay by sink_1::alpha times its own alpha; the background's "
          "alpha is kept", "over"},
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

/* a pixel a work-item, moved as a word: for planes of 4-byte pixels */
static gboolean
pixels_takes (const GstClPlanQuery * q)
{
  return *(const gint *) q->settings == 4;
}

/* For 4-byte pixels a pixel a work-item, measured faster than 4 bytes of a
 * row (docs/clcomposite.md); for smaller pixels the 4 bytes of a
 * work-item hold several. The settings: the plane's bytes a pixel. */
static const GstClPlan plans[] = {
  {"pixels", PLAN_PIXELS, pixels_takes, gst_cl_plan_always,
        gst_cl_kernel_composite, "composite_pixels", NULL, GST_CL_PLAN_NONE,
      NULL},
  {"bytes", PLAN_BYTES, NULL, gst_cl_plan_always, gst_cl_kernel_composite,
      "composite_optimized", NULL, GST_CL_PLAN_NONE, NULL},
  {NULL}
};

/* The kernel for a plane of @pstride-byte pixels, and whether a work-item
 * takes 4 bytes of a row rather than a pixel */
static const gchar *
pick_kernel (GstClComposite * self, GstClCore * core, GstClVariant variant,
    gint pstride, gboolean * bytes)
{
  GstClPlanQuery q;

  *bytes = FALSE;
  if (variant == GST_CL_VARIANT_REFERENCE)
    return "composite_reference";
  gst_cl_plan_query_init (&q, self->planner, gst_cl_core_get_context (core),
      &pstride, 1);
  gst_cl_plan_select (&q);
  *bytes = q.plan->id == PLAN_BYTES;
  return q.plan->kernel;
}

/* What one output frame is composed with: the properties as they were when
 * it began, xpos, ypos, width and height in the output's pixels (width and
 * height the overlay's, scaled or not) */
typedef struct
{
  gint xpos, ypos, width, height;
  gfloat weight;
  gint gamma, op;
} Composition;

static gboolean
composite_plane (GstClComposite * self, const GstVideoInfo * info, guint p,
    const GstClPlane * bg, const GstClPlane * ov, const GstClPlane * out,
    const Composition * cmp, GstClVariant variant, GError ** error)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  PlaneLayout layout;
  GstClCore *core = gst_cl_aggregator_get_core (GST_CL_AGGREGATOR (self));
  gboolean bytes;
  const gchar *name = pick_kernel (self, core, variant, out->pstride, &bytes);
  cl_kernel k = gst_cl_core_get_kernel (core, gst_cl_kernel_composite, "",
      name, error);
  gsize global[2];
  gint bg_w = bg ? bg->width : 0, bg_h = bg ? bg->height : 0;
  gint src_w = ov ? ov->width : 0, src_h = ov ? ov->height : 0;
  gint ov_w = 0, ov_h = 0, ox, oy;
  cl_mem bg_mem = bg ? bg->mem : out->mem, ov_mem = ov ? ov->mem : out->mem;
  gint bg_stride = bg ? bg->stride : 0, ov_stride = ov ? ov->stride : 0;
  guint wsub, hsub;

  if (!k)
    return FALSE;

  gst_video_format_info_component (finfo, p, comp);
  wsub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp[0]);
  hsub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp[0]);
  ox = floor_shift (cmp->xpos, wsub);
  oy = floor_shift (cmp->ypos, hsub);
  /* the scaled overlay's size in this plane, as GStreamer lays out a frame
   * of that size: subsampled planes rounded up */
  if (ov) {
    ov_w = GST_VIDEO_SUB_SCALE (wsub, cmp->width);
    ov_h = GST_VIDEO_SUB_SCALE (hsub, cmp->height);
  }
  plane_layout (info, p, &layout);
  /* black for every byte of a 4-byte run: pixels of 1 or 2 bytes repeated */
  if (out->pstride == 1)
    layout.fill = (layout.fill & 0xff) * 0x01010101u;
  else if (out->pstride == 2)
    layout.fill = (layout.fill & 0xffff) * 0x00010001u;
  /* composite_optimized takes 4 bytes of a row, the others a pixel */
  global[0] = !bytes ? (gsize) out->width :
      ((gsize) out->width * out->pstride + 3) / 4;
  global[1] = out->height;

  return gst_cl_kernel_set_args (k, error, 23, GST_CL_ARG (bg_mem),
      GST_CL_ARG (bg_stride), GST_CL_ARG (bg_w), GST_CL_ARG (bg_h),
      GST_CL_ARG (layout.fill),
      GST_CL_ARG (ov_mem), GST_CL_ARG (ov_stride), GST_CL_ARG (src_w),
      GST_CL_ARG (src_h), GST_CL_ARG (ov_w), GST_CL_ARG (ov_h),
      GST_CL_ARG (ox), GST_CL_ARG (oy),
      GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (out->width), GST_CL_ARG (out->height),
      GST_CL_ARG (out->pstride), GST_CL_ARG (cmp->weight),
      GST_CL_ARG (cmp->gamma), GST_CL_ARG (layout.gamma_mask),
      GST_CL_ARG (cmp->op), GST_CL_ARG (layout.alpha_index)) &&
      gst_cl_kernel_enqueue (gst_cl_core_get_queue (core), k, 2, global, NULL,
      error);
}

static GstClCompositeOverlayPad *
overlay_pad (GstClComposite * self)
{
  return GST_CL_COMPOSITE_OVERLAY_PAD (gst_cl_aggregator_get_pad
      (GST_CL_AGGREGATOR (self), 1));
}

/* The composition with the current properties, of @inputs: the background
 * (or none, for black) and the overlay (or none) */
static gboolean
gst_cl_composite_dispatch (GstClAggregator * agg, const GstVideoInfo * info,
    const GstClFrame * const *inputs, const GstClFrame * out, GError ** error)
{
  GstClComposite *self = GST_CL_COMPOSITE (agg);
  const GstClFrame *bg = inputs[0], *ov = inputs[1];
  GstClCompositeOverlayPad *pad = overlay_pad (self);
  GstClVariant variant =
      gst_cl_core_get_variant (gst_cl_aggregator_get_core (agg));
  Composition cmp;
  gboolean ok;
  guint p;

  GST_OBJECT_LOCK (self);
  cmp.gamma = self->gamma;
  cmp.op = self->op;
  GST_OBJECT_UNLOCK (self);
  GST_OBJECT_LOCK (pad);
  cmp.weight = pad->weight;
  cmp.xpos = pad->xpos;
  cmp.ypos = pad->ypos;
  cmp.width = pad->width;
  cmp.height = pad->height;
  GST_OBJECT_UNLOCK (pad);
  /* anything further out covers nothing; the kernels' subtractions stay in
   * range */
  cmp.xpos = CLAMP (cmp.xpos, -G_MAXINT / 4, G_MAXINT / 4);
  cmp.ypos = CLAMP (cmp.ypos, -G_MAXINT / 4, G_MAXINT / 4);
  /* the overlay frame's own size where none is set */
  if (ov && cmp.width <= 0)
    cmp.width = ov->planes[0].width;
  if (ov && cmp.height <= 0)
    cmp.height = ov->planes[0].height;

  for (p = 0, ok = TRUE; ok && p < out->n_planes; p++)
    ok = composite_plane (self, info, p,
        bg ? &bg->planes[p] : NULL, ov ? &ov->planes[p] : NULL,
        &out->planes[p], &cmp, variant, error);
  return ok;
}

/* its one program takes no options: built whatever the caps */
static void
gst_cl_composite_prebuild (GstClAggregator * agg, GstClContext * ctx)
{
  gst_cl_program_ready (ctx, gst_cl_kernel_composite, "");
}

static void
gst_cl_composite_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClComposite *self = GST_CL_COMPOSITE (object);
  GstClCompositeOverlayPad *pad;

  switch (prop_id) {
    case PROP_ALPHA:
      /* deprecated: the background's weight, the other side of the
       * overlay's alpha, which it sets */
      pad = overlay_pad (self);
      GST_OBJECT_LOCK (pad);
      pad->weight = g_value_get_double (value);
      pad->alpha = 1.0 - pad->weight;
      GST_OBJECT_UNLOCK (pad);
      return;
    default:
      break;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_GAMMA:
      self->gamma = g_value_get_int (value);
      break;
    case PROP_OPERATOR:
      self->op = g_value_get_enum (value);
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
  GstClCompositeOverlayPad *pad;

  switch (prop_id) {
    case PROP_ALPHA:
      pad = overlay_pad (self);
      GST_OBJECT_LOCK (pad);
      g_value_set_double (value, pad->weight);
      GST_OBJECT_UNLOCK (pad);
      return;
    default:
      break;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_GAMMA:
      g_value_set_int (value, self->gamma);
      break;
    case PROP_OPERATOR:
      g_value_set_enum (value, self->op);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_composite_class_init (GstClCompositeClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstClAggregatorClass *cl_class = GST_CL_AGGREGATOR_CLASS (klass);
  /* the background, then the overlay */
  const GType pad_types[] = { GST_TYPE_CL_COMPOSITE_BACKGROUND_PAD,
    GST_TYPE_CL_COMPOSITE_OVERLAY_PAD
  };

  GST_DEBUG_CATEGORY_INIT (gst_cl_composite_debug, "clcomposite", 0,
      "OpenCL composition");

  gobject_class->set_property = gst_cl_composite_set_property;
  gobject_class->get_property = gst_cl_composite_get_property;

  /* kept for the launch lines written before sink_1::alpha: the same
   * setting, from the background's side */
  g_object_class_install_property (gobject_class, PROP_ALPHA,
      g_param_spec_double ("alpha", "Alpha", "Deprecated: use sink_1::alpha. "
          "Weight of the background where the overlay covers it, "
          "1 - sink_1::alpha (setting either sets both)",
          0.0, 1.0, 1.0 - DEFAULT_PAD_ALPHA, G_PARAM_READWRITE |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_DEPRECATED | G_PARAM_STATIC_STRINGS));
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

  gst_cl_aggregator_class_add_pad_templates (cl_class,
      GST_VIDEO_CAPS_MAKE (FORMATS), G_N_ELEMENTS (pad_types), pad_types);
  gst_element_class_set_static_metadata (element_class,
      "OpenCL compositor", "Filter/Editor/Video/Compositor",
      "Blends an overlay (sink_1) over a background (sink_0) on an OpenCL "
      "device", "gstclfilters contributors");

  cl_class->dispatch = GST_DEBUG_FUNCPTR (gst_cl_composite_dispatch);
  cl_class->prebuild = GST_DEBUG_FUNCPTR (gst_cl_composite_prebuild);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_COMPOSITE_BACKGROUND_PAD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_COMPOSITE_OVERLAY_PAD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_COMPOSITE_OPERATOR, 0);
}

static void
gst_cl_composite_init (GstClComposite * self)
{
  self->gamma = DEFAULT_GAMMA;
  self->op = DEFAULT_OPERATOR;
  self->planner = gst_cl_plan_attach (GST_ELEMENT (self), "clcomposite", plans);
}
