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
 * from one vector-loaded window, in 16-bit arithmetic.
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

GST_DEBUG_CATEGORY_STATIC (gst_cl_sobel_debug);
#define GST_CAT_DEFAULT gst_cl_sobel_debug

#define DEFAULT_MODE GST_CL_SOBEL_MODE_L1
#define CHROMA_GREY 128
#define MAX_TILE_H 16

#define FORMATS "{ GRAY8, NV12, I420 }"

enum
{
  PROP_0,
  PROP_MODE,
};

struct _GstClSobel
{
  GstClBaseFilter parent;

  GstClSobelMode mode;
  /* tile of the optimized kernel: as set for a benchmark (0 = automatic),
   * and as picked for the device */
  guint tile_w, tile_h;
  guint auto_tile_w, auto_tile_h;
};

G_DEFINE_TYPE (GstClSobel, gst_cl_sobel, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clsobel, "clsobel", GST_RANK_NONE,
    GST_TYPE_CL_SOBEL);

/* Outputs per work-item of the optimized kernel, by device type. GPUs (H200,
 * 3840x2160 and 3264x2448 GRAY8, l1): 4 x 4 and 8 x 4 tie at 0.019 ms, ahead
 * of 8 x 1 (0.023), 16 x 4 (0.024) and 16 x 16 (0.033); the reference takes
 * 0.027, of which 0.009 is launching any kernel. CPUs (PoCL, 1920x1080):
 * 16 x 8 and 16 x 16 tie at 0.7-0.8 ms, ahead of 16 x 4 (0.9) and 16 x 1
 * (1.0-1.3), the reference taking 2.6-2.9 ms; 16 x 8 leaves more work-items
 * to more cores. */
static const struct
{
  cl_device_type type;
  guint w, h;
} tiles[] = {
  {CL_DEVICE_TYPE_GPU, 4, 4},
  {CL_DEVICE_TYPE_CPU, 16, 8},
};

#define FALLBACK_TILE_W 16
#define FALLBACK_TILE_H 1

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

/**
 * gst_cl_sobel_set_tile:
 * @m: outputs per work-item along a row: 2, 4, 8 or 16
 * @n: rows of outputs per work-item, 1 to 16
 *
 * Overrides the tile of the optimized kernel picked for the device, from the
 * next frame on; for benchmarks. @m = @n = 0 goes back to the automatic
 * choice.
 */
void
gst_cl_sobel_set_tile (GstClSobel * self, guint m, guint n)
{
  g_return_if_fail (GST_IS_CL_SOBEL (self));
  g_return_if_fail ((m == 0 && n == 0) || ((m == 2 || m == 4 || m == 8 ||
              m == 16) && n >= 1 && n <= MAX_TILE_H));

  GST_OBJECT_LOCK (self);
  self->tile_w = m;
  self->tile_h = n;
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cl_sobel_set_info (GstClBaseFilter * base, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GError ** error)
{
  GstClSobel *self = GST_CL_SOBEL (base);
  cl_device_type type = gst_cl_base_filter_get_context (base)->caps.type;
  guint i;

  self->auto_tile_w = FALLBACK_TILE_W;
  self->auto_tile_h = FALLBACK_TILE_H;
  for (i = 0; i < G_N_ELEMENTS (tiles); i++) {
    if (type & tiles[i].type) {
      self->auto_tile_w = tiles[i].w;
      self->auto_tile_h = tiles[i].h;
      break;
    }
  }
  GST_DEBUG_OBJECT (self, "tile %ux%u", self->auto_tile_w, self->auto_tile_h);
  return TRUE;
}

static gboolean
sobel_luma (GstClBaseFilter * base, const GstClPlane * in,
    const GstClPlane * out, const gchar * name, const gchar * options,
    guint tile_w, guint tile_h, GError ** error)
{
  GstClContext *ctx = gst_cl_base_filter_get_context (base);
  gsize global[2] = { (in->width + tile_w - 1) / tile_w,
    (in->height + tile_h - 1) / tile_h
  };
  cl_kernel k;

  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_sobel, options, name,
      error);
  return k && gst_cl_set_kernel_args (k, error, 6, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height)) &&
      gst_cl_context_enqueue_kernel (ctx, k, 2, global, NULL, error);
}

static gboolean
gst_cl_sobel_dispatch (GstClBaseFilter * base, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  GstClSobel *self = GST_CL_SOBEL (base);
  gboolean reference =
      gst_cl_base_filter_get_variant (base) == GST_CL_VARIANT_REFERENCE;
  GstClSobelMode mode;
  guint tile_w, tile_h, p;
  gchar options[64];
  gboolean ok;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  tile_w = self->tile_w ? self->tile_w : self->auto_tile_w;
  tile_h = self->tile_w ? self->tile_h : self->auto_tile_h;
  GST_OBJECT_UNLOCK (self);

  if (reference) {
    g_snprintf (options, sizeof (options), "-DMODE=%d", mode);
    ok = sobel_luma (base, &in->planes[0], &out->planes[0],
        "sobel_reference", options, 1, 1, error);
  } else {
    g_snprintf (options, sizeof (options), "-DMODE=%d -DPX_W=%u -DPX_H=%u",
        mode, tile_w, tile_h);
    ok = sobel_luma (base, &in->planes[0], &out->planes[0],
        "sobel_optimized", options, tile_w, tile_h, error);
  }

  for (p = 1; ok && p < out->n_planes; p++)
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
  self->auto_tile_w = FALLBACK_TILE_W;
  self->auto_tile_h = FALLBACK_TILE_H;
}
