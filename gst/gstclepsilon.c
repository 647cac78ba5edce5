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
 * The optimized kernel computes several neighbouring outputs per work-item,
 * sliding their windows along each row loaded once: in 16-bit vectors on
 * CPUs, and on GPUs from a tile in local memory, in floats, or two outputs
 * an instruction in packed halves where the compiler takes PTX (NVIDIA).
 * The kernels are built for the diameter; after a change while playing, the
 * frames go through the reference kernel until the new one is built.
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
#include "cl/gstclprogram.h"

#include <string.h>

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
  /* the optimized kernel and its outputs per work-item: as set for a
   * benchmark (NULL, 0 = automatic), and as picked for the device */
  const gchar *forced_kernel;
  guint forced_pixels;
  const gchar *kernel;
  guint pixels;
  guint pixels_wide_window;
  /* epsilon_tiled in packed halves, where the compiler takes PTX */
  gboolean halves;
  /* the radius at negotiation, whose optimized kernel a frame waits for;
   * one changed while playing is built in the background */
  gint negotiated_radius;
};

G_DEFINE_TYPE (GstClEpsilon, gst_cl_epsilon, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clepsilon, "clepsilon", GST_RANK_NONE,
    GST_TYPE_CL_EPSILON);

/* The optimized kernel and its outputs per work-item, by device type, for
 * small windows and for windows wider than 9.
 * CPUs (PoCL, 1920x1080, threshold 20, d = 9): 16-bit vectors, 16 outputs,
 * 5-6 ms, where 8 take 8-9, 4 take 24, the reference 62; the order is the
 * same for d = 3 and d = 15.
 * GPUs (H100, 3840x2160 NV12, threshold 20, kernel time): floats from a
 * local tile, sum and count in one accumulator (see kernels/epsilon.cl). At
 * d = 9, 16 outputs take 0.118 ms, 8 take 0.125, 4 take 0.130, the same
 * floats loaded by each work-item (epsilon_packed) 0.141, the 16-bit vector
 * kernel 0.280, the reference 0.416. At d = 15, 8 outputs take 0.265, 16
 * 0.275, against 1.020 for the reference.
 * Where the compiler takes PTX, the tile in packed halves, two outputs an
 * instruction: 8 outputs take 0.085 ms at d = 9 and 0.192 at d = 15, 16
 * take 0.088 and 0.197, and at 1920x1080 0.026 against 0.031.
 * GST_CL_EPSILON_KERNEL=vector|packed|tiled|tiled-float overrides the
 * kernel, to compare (tiled-float: the tile in floats everywhere). */
#define WIDE_WINDOW_RADIUS 4
#define FALLBACK_PIXELS_PER_ITEM 4
#define HALVES_PIXELS_PER_ITEM 8

static const struct
{
  cl_device_type type;
  const gchar *kernel;
  guint pixels;
  guint pixels_wide_window;
} kernels[] = {
  {CL_DEVICE_TYPE_GPU, "epsilon_tiled", 16, 8},
  {CL_DEVICE_TYPE_CPU, "epsilon_optimized", 16, 16},
};

/* The work-group of epsilon_tiled, whose local tile holds the pixels under
 * the windows of its LX * pixels by LY outputs: 16 by 8 in floats, 8 by 32
 * in halves (H100, 4K NV12, threshold 20, kernel ms, against 16 by 8: d =
 * 3 0.0266 -> 0.0263, 9 0.0721 -> 0.0697, 13 0.1411 -> 0.1310, 15 0.1816
 * -> 0.1755; 8 by 16 0.0700 at d = 9 but 0.139 at 13; in floats 8 by 32
 * took d = 9 from 0.0937 to 0.1027). */
#define TILED_LX 16
#define TILED_LY 8
#define HALVES_LX 8
#define HALVES_LY 32

static void
tiled_group (gboolean halves, gsize local[2])
{
  local[0] = halves ? HALVES_LX : TILED_LX;
  local[1] = halves ? HALVES_LY : TILED_LY;
}

static const gchar *const kernel_names[] = {
  "epsilon_optimized", "epsilon_packed", "epsilon_tiled", NULL
};

/* Bytes of local memory that epsilon_tiled needs in work-groups of @local,
 * as its SKEW and PITCH. */
static gsize
tiled_local_size (guint radius, guint pixels, const gsize local[2])
{
  gsize w = (local[0] * pixels + 2 * radius + 31) / 32 * 32;

  return (local[1] + 2 * radius) * (w + w / 32 * 4) * sizeof (gfloat);
}

/**
 * gst_cl_epsilon_set_kernel:
 * @kernel: (nullable): `epsilon_optimized`, `epsilon_packed` or
 *   `epsilon_tiled`, or %NULL for the device's
 * @pixels: outputs per work-item: 1, 2, 4, 8 or 16 (a multiple of 4 for
 *   `epsilon_tiled`), or 0 for the device's
 *
 * Overrides the optimized kernel picked for the device, from the next frame
 * on; for benchmarks and tests.
 */
void
gst_cl_epsilon_set_kernel (GstClEpsilon * self, const gchar * kernel,
    guint pixels)
{
  const gchar *name = NULL;

  g_return_if_fail (GST_IS_CL_EPSILON (self));
  g_return_if_fail (pixels <= 16 && (pixels & (pixels - 1)) == 0);
  for (guint i = 0; kernel && kernel_names[i]; i++)
    if (strcmp (kernel, kernel_names[i]) == 0)
      name = kernel_names[i];
  g_return_if_fail (!kernel || name);
  g_return_if_fail (!name || strcmp (name, "epsilon_tiled") != 0 ||
      pixels % 4 == 0);

  GST_OBJECT_LOCK (self);
  self->forced_kernel = name;
  self->forced_pixels = pixels;
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cl_epsilon_set_info (GstClBaseFilter * base,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info,
    GError ** error)
{
  GstClEpsilon *self = GST_CL_EPSILON (base);
  GstClContext *ctx = gst_cl_base_filter_get_context (base);
  cl_device_type type = gst_cl_context_get_caps (ctx)->type;
  const gchar *env = g_getenv ("GST_CL_EPSILON_KERNEL");
  guint i;

  self->kernel = "epsilon_packed";
  self->pixels = self->pixels_wide_window = FALLBACK_PIXELS_PER_ITEM;
  for (i = 0; i < G_N_ELEMENTS (kernels); i++) {
    if (type & kernels[i].type) {
      self->kernel = kernels[i].kernel;
      self->pixels = kernels[i].pixels;
      self->pixels_wide_window = kernels[i].pixels_wide_window;
      break;
    }
  }
  if (g_strcmp0 (env, "vector") == 0)
    self->kernel = "epsilon_optimized";
  else if (g_strcmp0 (env, "packed") == 0)
    self->kernel = "epsilon_packed";
  else if (g_strcmp0 (env, "tiled") == 0 || g_strcmp0 (env, "tiled-float") == 0)
    self->kernel = "epsilon_tiled";
  self->halves = gst_cl_context_get_caps (ctx)->nv_ptx
      && g_strcmp0 (env, "tiled-float") != 0;
  if (self->halves && strcmp (self->kernel, "epsilon_tiled") == 0)
    self->pixels = self->pixels_wide_window = HALVES_PIXELS_PER_ITEM;
  GST_DEBUG_OBJECT (self, "%s%s, %u pixels per work-item", self->kernel,
      self->halves ? " in halves" : "", self->pixels);

  GST_OBJECT_LOCK (self);
  self->negotiated_radius = self->diameter / 2;
  GST_OBJECT_UNLOCK (self);
  /* what serves a diameter changed while playing until its own kernel is
   * built */
  gst_cl_program_ready (ctx, gst_cl_kernel_epsilon, "");
  return TRUE;
}

static gboolean
filter_luma_reference (GstClBaseFilter * base, const GstClPlane * in,
    const GstClPlane * out, gint radius, gint threshold, GError ** error)
{
  gsize global[2] = { in->width, in->height };
  cl_kernel k;

  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_epsilon, "",
      "epsilon_reference", error);
  return k && gst_cl_kernel_set_args (k, error, 8, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height), GST_CL_ARG (radius),
      GST_CL_ARG (threshold)) &&
      gst_cl_base_filter_enqueue_kernel (base, k, 2, global, NULL, error);
}

/* the build options of the optimized @kernel: the radius is built in, so
 * that the window loops unroll */
static void
optimized_options (gchar * options, gsize size, const gchar * kernel,
    gint radius, guint pixels, guint chroma_planes, gboolean halves,
    const gsize local[2])
{
  gint n = g_snprintf (options, size, "-DRADIUS=%d -DPX=%u -DCHROMA=%u",
      radius, pixels, chroma_planes);

  if (strcmp (kernel, "epsilon_tiled") == 0)
    g_snprintf (options + n, size - n, " -DLX=%d -DLY=%d%s", (gint) local[0],
        (gint) local[1], halves ? " -DNV_PTX" : "");
}

/* The luma of @in filtered into @out's; the planes after it (1 or 2, the
 * same size), copied by the same work-items where @chroma. */
static gboolean
filter_luma_optimized (GstClBaseFilter * base, const GstClFrame * in,
    const GstClFrame * out, gboolean chroma, gint threshold,
    const gchar * kernel, const gchar * options, guint pixels,
    const gsize local[2], GError ** error)
{
  const GstClPlane *y_in = &in->planes[0], *y_out = &out->planes[0];
  const GstClPlane *c0_in = &in->planes[1], *c0_out = &out->planes[1];
  const GstClPlane *c1_in = &in->planes[in->n_planes - 1];
  const GstClPlane *c1_out = &out->planes[out->n_planes - 1];
  gsize global[2] = { (y_in->width + pixels - 1) / pixels, y_in->height };
  gboolean tiled = strcmp (kernel, "epsilon_tiled") == 0;
  gint c_bytes = c0_in->width * c0_in->pstride, c_rows = c0_in->height;
  cl_kernel k;

  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_epsilon, options,
      kernel, error);
  if (!k || !gst_cl_kernel_set_args (k, error, 7, GST_CL_ARG (y_in->mem),
          GST_CL_ARG (y_in->stride), GST_CL_ARG (y_out->mem),
          GST_CL_ARG (y_out->stride), GST_CL_ARG (y_in->width),
          GST_CL_ARG (y_in->height), GST_CL_ARG (threshold)))
    return FALSE;
  if (chroma && !gst_cl_kernel_set_args_from (k, 7, error, 10,
          GST_CL_ARG (c0_in->mem), GST_CL_ARG (c0_in->stride),
          GST_CL_ARG (c0_out->mem), GST_CL_ARG (c0_out->stride),
          GST_CL_ARG (c1_in->mem), GST_CL_ARG (c1_in->stride),
          GST_CL_ARG (c1_out->mem), GST_CL_ARG (c1_out->stride),
          GST_CL_ARG (c_bytes), GST_CL_ARG (c_rows)))
    return FALSE;
  return gst_cl_base_filter_enqueue_kernel (base, k, 2, global,
      tiled ? local : NULL, error);
}

static gboolean
gst_cl_epsilon_dispatch (GstClBaseFilter * base, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  GstClEpsilon *self = GST_CL_EPSILON (base);
  GstClContext *ctx = gst_cl_base_filter_get_context (base);
  gboolean reference =
      gst_cl_base_filter_get_variant (base) == GST_CL_VARIANT_REFERENCE;
  const gchar *kernel;
  gint radius, threshold;
  guint pixels, p;
  gboolean ok, chroma, halves;
  gsize local[2];
  gchar options[128];

  GST_OBJECT_LOCK (self);
  radius = self->diameter / 2;
  threshold = self->threshold;
  kernel = self->forced_kernel ? self->forced_kernel : self->kernel;
  halves = self->halves;
  if (self->forced_pixels)
    pixels = self->forced_pixels;
  else if (radius > WIDE_WINDOW_RADIUS)
    pixels = self->pixels_wide_window;
  else
    pixels = self->pixels;
  GST_OBJECT_UNLOCK (self);

  /* the tiled kernel reads its outputs 4 at a time, from a local tile that
   * must fit */
  tiled_group (halves, local);
  if (strcmp (kernel, "epsilon_tiled") == 0 && (pixels % 4 ||
          tiled_local_size (radius, pixels, local) >
          gst_cl_context_get_caps (ctx)->local_mem_size ||
          local[0] * local[1] >
          gst_cl_context_get_caps (ctx)->max_work_group_size))
    kernel = "epsilon_packed";

  /* the optimized kernels copy the chroma themselves: one command a frame,
   * where many streams share a driver that serializes its calls */
  chroma = out->n_planes > 1 && out->n_planes <= 3 &&
      out->planes[1].height <= out->planes[0].height;
  optimized_options (options, sizeof (options), kernel, radius, pixels,
      chroma ? out->n_planes - 1 : 0, halves, local);
  /* a diameter changed while playing: the reference kernel, which takes
   * any, until the optimized one for it is built (a second or two on an
   * H100 the first time) */
  if (!reference && radius != self->negotiated_radius &&
      !gst_cl_program_ready (ctx, gst_cl_kernel_epsilon, options)) {
    GST_LOG_OBJECT (self, "d = %d: the reference kernel while the optimized "
        "one builds", 2 * radius + 1);
    reference = TRUE;
  }
  chroma &= !reference;
  ok = reference ?
      filter_luma_reference (base, &in->planes[0], &out->planes[0], radius,
      threshold, error) : filter_luma_optimized (base, in, out, chroma,
      threshold, kernel, options, pixels, local, error);

  for (p = 1; ok && !chroma && p < out->n_planes; p++)
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
  self->negotiated_radius = -1;
  self->kernel = "epsilon_packed";
  self->pixels = self->pixels_wide_window = FALLBACK_PIXELS_PER_ITEM;
}
