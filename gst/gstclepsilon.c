/* gstclfilters: clepsilon, an edge-preserving smoother of the luma
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-clepsilon
 * @title: clepsilon
 *
 * The epsilon filter, against the ringing ("mosquito noise") that lossy
 * codecs leave around edges: every luma pixel c becomes the rounded mean of
 * the pixels p of the d x d window around it (edges replicated) that are
 * close to it, |p - c| <= threshold; c itself always counts. So flat areas
 * are smoothed while edges, further apart than the threshold, stay sharp.
 * out = floor ((sum (P) + |P|/2) / |P|), exactly. Chroma is copied unchanged.
 * A threshold of 0 or a diameter of 1 passes frames through.
 *
 * The optimized kernel computes several neighbouring outputs per work-item
 * in 16-bit vectors, sliding their windows along each row loaded once.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=in.jpg ! jpegdec ! videoconvert ! video/x-raw,format=NV12 ! clepsilon threshold=20 diameter=9 ! videoconvert ! imagefreeze ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclepsilon.h"
#include "gstclkernels.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_epsilon_debug);
#define GST_CAT_DEFAULT gst_cl_epsilon_debug

#define DEFAULT_THRESHOLD 20
#define MAX_THRESHOLD 255
#define DEFAULT_DIAMETER 9
#define MAX_DIAMETER 15

#define FORMATS "{ NV12, I420, GRAY8 }"

enum
{
  PROP_0,
  PROP_THRESHOLD,
  PROP_DIAMETER,
};

struct _GstClEpsilon
{
  GstClBaseFilter parent;

  guint threshold;
  guint diameter;
  /* outputs per work-item of the optimized kernel: as set for a benchmark
   * (0 = automatic), and as picked for the device */
  guint pixels_per_item;
  guint auto_pixels_per_item;
  guint auto_pixels_wide_window;
  const gchar *kernel;
};

G_DEFINE_TYPE (GstClEpsilon, gst_cl_epsilon, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clepsilon, "clepsilon", GST_RANK_NONE,
    GST_TYPE_CL_EPSILON);

/* The optimized kernel and its outputs per work-item, by device type, for
 * small windows and for windows wider than 9.
 * CPUs (PoCL, 1920x1080, threshold 20, d = 9): 16-bit vectors, 16 outputs,
 * 5-6 ms, where 8 take 8-9, 4 take 24, the reference 62; the order is the
 * same for d = 3 and d = 15.
 * GPUs (H200, 3840x2160 NV12, threshold 20): floats, sum and count in one
 * accumulator (see kernels/epsilon.cl). At d = 9, 16 outputs take 0.137 ms,
 * 8 take 0.154, 4 take 0.168, the 32-bit integer version of the same kernel
 * 0.172, the 16-bit vector kernel 0.277, the reference 0.413. At d = 15, 16
 * outputs spill registers (0.719 ms) and 8 take 0.327, against 1.018 for the
 * reference. GST_CL_EPSILON_KERNEL=vector|packed overrides the kernel, to
 * compare. */
#define WIDE_WINDOW_RADIUS 4

static const struct
{
  cl_device_type type;
  guint pixels;
  guint pixels_wide_window;
  const gchar *kernel;
} pixels_per_item[] = {
  {CL_DEVICE_TYPE_GPU, 16, 8, "epsilon_packed"},
  {CL_DEVICE_TYPE_CPU, 16, 16, "epsilon_optimized"},
};

#define FALLBACK_PIXELS_PER_ITEM 4

/**
 * gst_cl_epsilon_set_pixels_per_item:
 * @n: outputs per work-item: 1, 2, 4, 8 or 16
 *
 * Overrides the outputs per work-item of the optimized kernel picked for the
 * device, from the next frame on; for benchmarks. 0 goes back to the
 * automatic choice.
 */
void
gst_cl_epsilon_set_pixels_per_item (GstClEpsilon * self, guint n)
{
  g_return_if_fail (GST_IS_CL_EPSILON (self));
  g_return_if_fail (n <= 16 && (n & (n - 1)) == 0);

  GST_OBJECT_LOCK (self);
  self->pixels_per_item = n;
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cl_epsilon_set_info (GstClBaseFilter * base,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info,
    GError ** error)
{
  GstClEpsilon *self = GST_CL_EPSILON (base);
  cl_device_type type = gst_cl_base_filter_get_context (base)->caps.type;
  const gchar *env = g_getenv ("GST_CL_EPSILON_KERNEL");
  guint i;

  self->auto_pixels_per_item = FALLBACK_PIXELS_PER_ITEM;
  self->auto_pixels_wide_window = FALLBACK_PIXELS_PER_ITEM;
  self->kernel = "epsilon_packed";
  for (i = 0; i < G_N_ELEMENTS (pixels_per_item); i++) {
    if (type & pixels_per_item[i].type) {
      self->auto_pixels_per_item = pixels_per_item[i].pixels;
      self->auto_pixels_wide_window = pixels_per_item[i].pixels_wide_window;
      self->kernel = pixels_per_item[i].kernel;
      break;
    }
  }
  if (g_strcmp0 (env, "vector") == 0)
    self->kernel = "epsilon_optimized";
  else if (g_strcmp0 (env, "packed") == 0)
    self->kernel = "epsilon_packed";
  GST_DEBUG_OBJECT (self, "%s, %u pixels per work-item", self->kernel,
      self->auto_pixels_per_item);
  return TRUE;
}

static gboolean
filter_luma_reference (GstClBaseFilter * base, const GstClPlane * in,
    const GstClPlane * out, gint radius, gint threshold, GError ** error)
{
  GstClContext *ctx = gst_cl_base_filter_get_context (base);
  gsize global[2] = { in->width, in->height };
  cl_kernel k;

  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_epsilon, "",
      "epsilon_reference", error);
  return k && gst_cl_set_kernel_args (k, error, 8, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height), GST_CL_ARG (radius),
      GST_CL_ARG (threshold)) &&
      gst_cl_context_enqueue_kernel (ctx, k, 2, global, NULL, error);
}

static gboolean
filter_luma_optimized (GstClBaseFilter * base, const GstClPlane * in,
    const GstClPlane * out, gint radius, gint threshold, guint pixels,
    GError ** error)
{
  GstClContext *ctx = gst_cl_base_filter_get_context (base);
  gsize global[2] = { (in->width + pixels - 1) / pixels, in->height };
  gchar options[32];
  cl_kernel k;

  /* the radius is built in, so that the window loops unroll */
  g_snprintf (options, sizeof (options), "-DRADIUS=%d -DPX=%u", radius, pixels);
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_epsilon, options,
      GST_CL_EPSILON (base)->kernel, error);
  return k && gst_cl_set_kernel_args (k, error, 7, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height),
      GST_CL_ARG (threshold)) &&
      gst_cl_context_enqueue_kernel (ctx, k, 2, global, NULL, error);
}

static gboolean
gst_cl_epsilon_dispatch (GstClBaseFilter * base, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  GstClEpsilon *self = GST_CL_EPSILON (base);
  gboolean reference =
      gst_cl_base_filter_get_variant (base) == GST_CL_VARIANT_REFERENCE;
  gint radius, threshold;
  guint pixels, p;
  gboolean ok;

  GST_OBJECT_LOCK (self);
  radius = self->diameter / 2;
  threshold = self->threshold;
  if (self->pixels_per_item)
    pixels = self->pixels_per_item;
  else if (radius > WIDE_WINDOW_RADIUS)
    pixels = self->auto_pixels_wide_window;
  else
    pixels = self->auto_pixels_per_item;
  GST_OBJECT_UNLOCK (self);

  ok = reference ?
      filter_luma_reference (base, &in->planes[0], &out->planes[0], radius,
      threshold, error) : filter_luma_optimized (base, &in->planes[0],
      &out->planes[0], radius, threshold, pixels, error);

  for (p = 1; ok && p < out->n_planes; p++)
    ok = gst_cl_base_filter_copy_plane (base, &in->planes[p],
        &out->planes[p], error);
  return ok;
}

static gboolean
gst_cl_epsilon_is_passthrough (GstClBaseFilter * base)
{
  GstClEpsilon *self = GST_CL_EPSILON (base);
  gboolean identity;

  /* threshold 0 averages only pixels equal to the centre */
  GST_OBJECT_LOCK (self);
  identity = self->threshold == 0 || self->diameter / 2 == 0;
  GST_OBJECT_UNLOCK (self);
  return identity;
}

static void
gst_cl_epsilon_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      self->threshold = g_value_get_uint (value);
      break;
    case PROP_DIAMETER:
      self->diameter = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_epsilon_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      g_value_set_uint (value, self->threshold);
      break;
    case PROP_DIAMETER:
      g_value_set_uint (value, self->diameter);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_epsilon_class_init (GstClEpsilonClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstClBaseFilterClass *filter_class = GST_CL_BASE_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_epsilon_debug, "clepsilon", 0,
      "OpenCL epsilon filter");

  gobject_class->set_property = gst_cl_epsilon_set_property;
  gobject_class->get_property = gst_cl_epsilon_get_property;

  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_uint ("threshold", "Threshold",
          "Pixels of the window within this much of the centre pixel are "
          "averaged; 0 passes frames through", 0, MAX_THRESHOLD,
          DEFAULT_THRESHOLD,
          G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING
          | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DIAMETER,
      g_param_spec_uint ("diameter", "Diameter",
          "Width and height of the window, in pixels; an even value is taken "
          "as the next odd one, 1 passes frames through", 1, MAX_DIAMETER,
          DEFAULT_DIAMETER,
          G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING
          | G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class,
      "OpenCL epsilon filter", "Filter/Effect/Video",
      "Mean of the nearby luma values within a threshold of each pixel, "
      "against compression ringing, on an OpenCL device",
      "gstclfilters contributors");
  gst_cl_base_filter_class_add_pad_templates (filter_class,
      GST_VIDEO_CAPS_MAKE (FORMATS));

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_epsilon_set_info);
  filter_class->is_passthrough =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_is_passthrough);
  filter_class->dispatch = GST_DEBUG_FUNCPTR (gst_cl_epsilon_dispatch);
}

static void
gst_cl_epsilon_init (GstClEpsilon * self)
{
  self->threshold = DEFAULT_THRESHOLD;
  self->diameter = DEFAULT_DIAMETER;
  self->auto_pixels_per_item = FALLBACK_PIXELS_PER_ITEM;
  self->auto_pixels_wide_window = FALLBACK_PIXELS_PER_ITEM;
}
