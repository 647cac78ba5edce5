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

#include <string.h>

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
  /* the optimized kernel and its tile: as set for a benchmark (NULL and 0 =
   * automatic), and as picked for the device */
  const gchar *forced_kernel;
  guint forced_w, forced_h;
  const gchar *kernel;
  guint tile_w, tile_h;
};

G_DEFINE_TYPE (GstClSobel, gst_cl_sobel, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clsobel, "clsobel", GST_RANK_NONE,
    GST_TYPE_CL_SOBEL);

/* The optimized kernel and its outputs per work-item, by device type.
 * GPUs (H100, 3840x2160 GRAY8, l1, kernel time): sobel_words, 4 x 8 outputs
 * in work-groups of 32 x 8, 0.0134 ms (4 x 4: 0.0138; 4 x 1: 0.0197; in
 * the driver's work-groups 0.0143), against 0.0276 for the reference and
 * 0.0088 for a copy of the frame; the 16-bit vector kernel's best tile, 4 x
 * 4, takes 0.0195, or 0.016 in 32-bit vectors. Every kernel there, even an
 * empty one, takes 7 us.
 * CPUs (PoCL, 1920x1080): sobel_optimized, 16 x 8 and 16 x 16 tie at
 * 0.7-0.8 ms, ahead of 16 x 4 (0.9) and 16 x 1 (1.0-1.3), the reference
 * taking 2.6-2.9 ms; 16 x 8 leaves more work-items to more cores.
 * GST_CL_SOBEL_KERNEL=optimized|words overrides the kernel, to compare. */
static const struct
{
  cl_device_type type;
  const gchar *kernel;
  guint w, h;
} tiles[] = {
  {CL_DEVICE_TYPE_GPU, "sobel_words", 4, 8},
  {CL_DEVICE_TYPE_CPU, "sobel_optimized", 16, 8},
};

/* the work-group of sobel_words */
#define WORDS_LX 32
#define WORDS_LY 8

#define FALLBACK_KERNEL "sobel_optimized"
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
 * gst_cl_sobel_set_kernel:
 * @kernel: (nullable): `sobel_optimized` or `sobel_words`, or %NULL for the
 *   device's
 * @m: outputs per work-item along a row: 2, 4, 8 or 16 (4 for
 *   `sobel_words`), or 0 for the device's
 * @n: rows of outputs per work-item, 1 to 16, or 0 with @m
 *
 * Overrides the optimized kernel and tile picked for the device, from the
 * next frame on; for benchmarks and tests.
 */
void
gst_cl_sobel_set_kernel (GstClSobel * self, const gchar * kernel, guint m,
    guint n)
{
  gboolean words = g_strcmp0 (kernel, "sobel_words") == 0;

  g_return_if_fail (GST_IS_CL_SOBEL (self));
  g_return_if_fail (!kernel || words ||
      g_strcmp0 (kernel, "sobel_optimized") == 0);
  g_return_if_fail ((m == 0 && n == 0) || ((m == 2 || m == 4 || m == 8 ||
              m == 16) && n >= 1 && n <= MAX_TILE_H));
  g_return_if_fail (!words || m == 0 || m == 4);

  GST_OBJECT_LOCK (self);
  self->forced_kernel = words ? "sobel_words" : kernel ? "sobel_optimized" :
      NULL;
  self->forced_w = m;
  self->forced_h = n;
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cl_sobel_set_info (GstClBaseFilter * base, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GError ** error)
{
  GstClSobel *self = GST_CL_SOBEL (base);
  cl_device_type type =
      gst_cl_context_get_caps (gst_cl_base_filter_get_context (base))->type;
  const gchar *env = g_getenv ("GST_CL_SOBEL_KERNEL");
  guint i;

  self->kernel = FALLBACK_KERNEL;
  self->tile_w = FALLBACK_TILE_W;
  self->tile_h = FALLBACK_TILE_H;
  for (i = 0; i < G_N_ELEMENTS (tiles); i++) {
    if (type & tiles[i].type) {
      self->kernel = tiles[i].kernel;
      self->tile_w = tiles[i].w;
      self->tile_h = tiles[i].h;
      break;
    }
  }
  if (g_strcmp0 (env, "optimized") == 0) {
    self->kernel = "sobel_optimized";
  } else if (g_strcmp0 (env, "words") == 0) {
    self->kernel = "sobel_words";
  }
  GST_DEBUG_OBJECT (self, "%s, tile %ux%u", self->kernel, self->tile_w,
      self->tile_h);
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
  gboolean reference =
      gst_cl_base_filter_get_variant (base) == GST_CL_VARIANT_REFERENCE;
  static const gsize words_local[2] = { WORDS_LX, WORDS_LY };
  const gsize *local = NULL;
  const gchar *kernel;
  GstClSobelMode mode;
  guint tile_w, tile_h, p;
  gchar options[96];
  gboolean ok;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  kernel = self->forced_kernel ? self->forced_kernel : self->kernel;
  tile_w = self->forced_w ? self->forced_w : self->tile_w;
  tile_h = self->forced_w ? self->forced_h : self->tile_h;
  GST_OBJECT_UNLOCK (self);

  /* sobel_words has words of 4 outputs; the plain kernel takes any tile */
  if (strcmp (kernel, "sobel_words") == 0)
    tile_w = 4;

  if (reference) {
    kernel = "sobel_reference";
    tile_w = tile_h = 1;
    g_snprintf (options, sizeof (options), "-DMODE=%d", mode);
  } else if (strcmp (kernel, "sobel_words") == 0) {
    g_snprintf (options, sizeof (options), "-DMODE=%d -DWORDS -DPX_H=%u%s",
        mode, tile_h, gst_cl_context_get_caps (ctx)->nv_ptx ? " -DNV_PTX" : "");
  } else {
    g_snprintf (options, sizeof (options), "-DMODE=%d -DPX_W=%u -DPX_H=%u",
        mode, tile_w, tile_h);
  }
  /* sobel_words in the work-groups measured best, where the device allows */
  if (strcmp (kernel, "sobel_words") == 0 &&
      WORDS_LX * WORDS_LY <= gst_cl_context_get_caps (ctx)->max_work_group_size)
    local = words_local;
  ok = sobel_luma (base, &in->planes[0], &out->planes[0], kernel, options,
      tile_w, tile_h, local, error);

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
  self->kernel = FALLBACK_KERNEL;
  self->tile_w = FALLBACK_TILE_W;
  self->tile_h = FALLBACK_TILE_H;
}
