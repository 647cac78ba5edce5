/* gstclfilters: clsobel, the Sobel gradient magnitude of the luma
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-clsobel
 * @title: clsobel
 *
 * Edge detection: replaces the luma by the magnitude of its Sobel gradient
 * and sets the chroma to grey (128). With edges replicated,
 * gx = [-1 0 1; -2 0 2; -1 0 1] * Y and gy is its transpose; the output is,
 * by #GstClSobel:mode, min (255, |gx| + |gy|), min (255, floor (sqrt (gx^2 +
 * gy^2) + 0.5)), min (255, |gx|) or min (255, |gy|), in exact integer
 * arithmetic. The optimized kernel computes a tile of outputs per work-item
 * from one vector-loaded window, in 16-bit vectors on CPUs and, on GPUs, in
 * 32-bit words holding two 16-bit lanes.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=NV12 ! clsobel mode=l2 ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclsobel.h"
#include "gstclkernels.h"
#include "cl/gstclplan.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_sobel_debug);
#define GST_CAT_DEFAULT gst_cl_sobel_debug

#define DEFAULT_MODE GST_CL_SOBEL_MODE_L1
#define CHROMA_GREY 128
#define MAX_TILE_H 16

#define FORMATS "{ GRAY8, NV12, NV21, I420, YV12, Y42B, Y444, YUY2, UYVY, YVYU }"

enum
{
  PROP_0,
  PROP_MODE,
};

struct _GstClSobel
{
  GstClBaseFilter parent;

  GstClSobelMode mode;
  GstClPlanner *planner;
};

G_DEFINE_TYPE (GstClSobel, gst_cl_sobel, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clsobel, "clsobel", GST_RANK_NONE,
    GST_TYPE_CL_SOBEL);

typedef enum
{
  PLAN_WORDS,
  PLAN_OPTIMIZED,
} SobelPlan;

/* The optimized kernel (the plans below) and its outputs per work-item,
 * by device type, as measured (docs/clsobel.md): on GPUs sobel_words, 4 x
 * 8 outputs in work-groups of 32 x 8; on CPUs sobel_optimized, whose 16 x
 * 8 ties with 16 x 16 and leaves more work-items to more cores. */
static const struct
{
  cl_device_type type;
  guint w, h;
} tiles[] = {
  {CL_DEVICE_TYPE_GPU, 4, 8},
  {CL_DEVICE_TYPE_CPU, 16, 8},
};

/* the work-group of sobel_words */
#define WORDS_LX 32
#define WORDS_LY 8

#define FALLBACK_TILE_W 16
#define FALLBACK_TILE_H 1

/* the outputs a work-item of @q's plan takes: the tunable tile, else the
 * device's; sobel_words has words of 4 outputs */
static void
tile_size (const GstClPlanQuery * q, gint * w, gint * h)
{
  *w = FALLBACK_TILE_W;
  *h = FALLBACK_TILE_H;
  for (guint i = 0; i < G_N_ELEMENTS (tiles); i++) {
    if (q->caps->type & tiles[i].type) {
      *w = tiles[i].w;
      *h = tiles[i].h;
      break;
    }
  }
  gst_cl_plan_get_size (q, "tile", w, h);
  if (q->plan->id == PLAN_WORDS)
    *w = 4;
}

/* the tiles the kernels take: 2, 4, 8 or 16 outputs along a row (4 in
 * sobel_words) by 1 to MAX_TILE_H rows */
static gboolean
tile_takes (const GstClPlanQuery * q)
{
  gint w = 0, h = 0;

  if (!gst_cl_plan_get_size (q, "tile", &w, &h))
    return TRUE;
  return (q->plan->id == PLAN_WORDS ? w == 4 : (w == 2 || w == 4 || w == 8
          || w == 16)) && h >= 1 && h <= MAX_TILE_H;
}

static gboolean
gpu_prefers (const GstClPlanQuery * q)
{
  return (q->caps->type & CL_DEVICE_TYPE_GPU) != 0;
}

static void
sobel_options (const GstClPlanQuery * q, gchar * options, gsize size)
{
  GstClSobelMode mode = *(const GstClSobelMode *) q->settings;
  gint w, h;

  tile_size (q, &w, &h);
  if (q->plan->id == PLAN_WORDS)
    g_snprintf (options, size, "-DMODE=%d -DWORDS -DPX_H=%d%s", mode, h,
        q->caps->nv_ptx ? " -DNV_PTX" : "");
  else
    g_snprintf (options, size, "-DMODE=%d -DPX_W=%d -DPX_H=%d", mode, w, h);
}

/* In the order they are tried. The tunable tile: WxH outputs a work-item
 * (4xH for the words). */
static const GstClPlan plans[] = {
  {"words", PLAN_WORDS, tile_takes, gpu_prefers, gst_cl_kernel_sobel,
      "sobel_words", sobel_options, GST_CL_PLAN_NONE, "tile"},
  {"optimized", PLAN_OPTIMIZED, tile_takes, gst_cl_plan_always,
        gst_cl_kernel_sobel, "sobel_optimized", sobel_options, GST_CL_PLAN_NONE,
      "tile"},
  {NULL}
};

GType
gst_cl_sobel_mode_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {GST_CL_SOBEL_MODE_L1, "min (255, |gx| + |gy|)", "l1"},
    {GST_CL_SOBEL_MODE_L2, "min (255, floor (sqrt (gx^2 + gy^2) + 0.5))",
        "l2"},
    {GST_CL_SOBEL_MODE_X, "min (255, |gx|): vertical edges", "x"},
    {GST_CL_SOBEL_MODE_Y, "min (255, |gy|): horizontal edges", "y"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType type = g_enum_register_static ("GstClSobelMode", values);
    g_once_init_leave (&id, type);
  }
  return (GType) id;
}

static gboolean
gst_cl_sobel_set_info (GstClBaseFilter * base, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GError ** error)
{
  GstClSobel *self = GST_CL_SOBEL (base);
  GstClSobelMode mode;
  GstClPlanQuery q;
  gint w, h;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  GST_OBJECT_UNLOCK (self);
  gst_cl_plan_query_init (&q, self->planner,
      gst_cl_base_filter_get_context (base), &mode, 1);
  gst_cl_plan_prepare (&q, NULL);
  tile_size (&q, &w, &h);
  GST_DEBUG_OBJECT (self, "%s, tile %dx%d", q.plan->kernel, w, h);
  return TRUE;
}

static gboolean
sobel_luma (GstClBaseFilter * base, const GstClPlane * in,
    const GstClPlane * out, const gchar * name, const gchar * options,
    guint tile_w, guint tile_h, const gsize * local, GError ** error)
{
  gsize global[2] = { (in->width + tile_w - 1) / tile_w,
    (in->height + tile_h - 1) / tile_h
  };
  cl_kernel k;

  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_sobel, options, name,
      error);
  return k && gst_cl_kernel_set_args (k, error, 6, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height)) &&
      gst_cl_base_filter_enqueue_kernel (base, k, 2, global, local, error);
}

static gboolean
gst_cl_sobel_dispatch (GstClBaseFilter * base, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  GstClSobel *self = GST_CL_SOBEL (base);
  GstClContext *ctx = gst_cl_base_filter_get_context (base);
  static const gsize words_local[2] = { WORDS_LX, WORDS_LY };
  const gsize *local = NULL;
  const gchar *kernel;
  GstClSobelMode mode;
  gint tile_w, tile_h;
  gchar options[96];
  gboolean ok;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  GST_OBJECT_UNLOCK (self);

  if (gst_cl_base_filter_get_variant (base) == GST_CL_VARIANT_REFERENCE) {
    kernel = "sobel_reference";
    tile_w = tile_h = 1;
    g_snprintf (options, sizeof (options), "-DMODE=%d", mode);
  } else {
    GstClPlanQuery q;

    gst_cl_plan_query_init (&q, self->planner, ctx, &mode, 1);
    gst_cl_plan_select (&q);
    kernel = q.plan->kernel;
    tile_size (&q, &tile_w, &tile_h);
    gst_cl_plan_get_options (&q, 0, options, sizeof (options));
    /* sobel_words in the work-groups measured best, where the device
     * allows */
    if (q.plan->id == PLAN_WORDS && WORDS_LX * WORDS_LY <=
        gst_cl_context_get_caps (ctx)->max_work_group_size)
      local = words_local;
  }
  ok = sobel_luma (base, &in->planes[0], &out->planes[0], kernel, options,
      tile_w, tile_h, local, error);

  for (guint p = 1; ok && p < out->n_planes; p++)
    ok = gst_cl_base_filter_fill_plane (base, &out->planes[p], CHROMA_GREY,
        error);
  return ok;
}

static void
gst_cl_sobel_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClSobel *self = GST_CL_SOBEL (object);

  switch (prop_id) {
    case PROP_MODE:
      GST_OBJECT_LOCK (self);
      self->mode = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_sobel_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClSobel *self = GST_CL_SOBEL (object);

  switch (prop_id) {
    case PROP_MODE:
      GST_OBJECT_LOCK (self);
      g_value_set_enum (value, self->mode);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_sobel_class_init (GstClSobelClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstClBaseFilterClass *filter_class = GST_CL_BASE_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_sobel_debug, "clsobel", 0,
      "OpenCL Sobel filter");

  gobject_class->set_property = gst_cl_sobel_set_property;
  gobject_class->get_property = gst_cl_sobel_get_property;

  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "What to output of the gradient (gx, gy), saturated to 255",
          GST_TYPE_CL_SOBEL_MODE, DEFAULT_MODE, G_PARAM_READWRITE |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class, "OpenCL Sobel filter",
      "Filter/Effect/Video", "Sobel gradient magnitude of the luma, chroma "
      "set to grey, on an OpenCL device", "gstclfilters contributors");
  gst_cl_base_filter_class_add_pad_templates (filter_class,
      GST_VIDEO_CAPS_MAKE (FORMATS));

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_sobel_set_info);
  filter_class->dispatch = GST_DEBUG_FUNCPTR (gst_cl_sobel_dispatch);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_SOBEL_MODE, 0);
}

static void
gst_cl_sobel_init (GstClSobel * self)
{
  self->mode = DEFAULT_MODE;
  self->planner = gst_cl_plan_attach (GST_ELEMENT (self), "clsobel", plans);
}
