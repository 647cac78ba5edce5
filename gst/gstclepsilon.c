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
#include "cl/gstclplan.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_epsilon_debug);
#define GST_CAT_DEFAULT gst_cl_epsilon_debug

#define DEFAULT_THRESHOLD 20
#define MAX_THRESHOLD 255
#define DEFAULT_DIAMETER 9
#define MAX_DIAMETER 15

#define FORMATS "{ NV12, NV21, I420, YV12, Y42B, Y444, GRAY8, YUY2, UYVY, YVYU }"

enum
{
  PROP_0,
  PROP_THRESHOLD,
  PROP_DIAMETER,
};

/* What the plans are chosen for: the radius, built into the optimized
 * kernels so that their window loops unroll, and the chroma planes they
 * copy. */
typedef struct
{
  gint radius;
  guint chroma_planes;
} EpsilonSettings;

struct _GstClEpsilon
{
  GstClBaseFilter parent;

  guint threshold;
  guint diameter;
  GstClPlanner *planner;
};

G_DEFINE_TYPE (GstClEpsilon, gst_cl_epsilon, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clepsilon, "clepsilon", GST_RANK_NONE,
    GST_TYPE_CL_EPSILON);

/* The optimized kernels (the plans below) and their outputs per
 * work-item, by device type, for small windows and for windows wider than
 * 9, as measured (docs/clepsilon.md): on CPUs 16-bit vectors, 16 outputs;
 * on GPUs floats from a local tile, sum and count in one accumulator (see
 * kernels/epsilon.cl), 16 outputs, 8 for the wider windows; where the
 * compiler takes PTX, the tile in packed halves, two outputs an
 * instruction, 8 outputs. Elsewhere the floats each work-item loads. */
#define WIDE_WINDOW_RADIUS 4
#define FALLBACK_PIXELS_PER_ITEM 4
#define HALVES_PIXELS_PER_ITEM 8

typedef enum
{
  PLAN_TILED,
  PLAN_TILED_FLOAT,
  PLAN_VECTOR,
  PLAN_PACKED,
  PLAN_REFERENCE,
} EpsilonPlan;

/* The work-group of epsilon_tiled, whose local tile holds the pixels under
 * the windows of its LX * pixels by LY outputs: 16 by 8 in floats, 8 by 32
 * in halves, measured best for each (docs/clepsilon.md). */
#define TILED_LX 16
#define TILED_LY 8
#define HALVES_LX 8
#define HALVES_LY 32

/* epsilon_tiled in packed halves: the plan tiled where the compiler takes
 * PTX */
static gboolean
halves (const GstClPlanQuery * q)
{
  return q->plan->id == PLAN_TILED && q->caps->nv_ptx;
}

static void
tiled_group (const GstClPlanQuery * q, gsize local[2])
{
  local[0] = halves (q) ? HALVES_LX : TILED_LX;
  local[1] = halves (q) ? HALVES_LY : TILED_LY;
}

/* the outputs per work-item of @q's plan: the tunable px, else the
 * device's */
static guint
pixels_per_item (const GstClPlanQuery * q)
{
  gint radius = ((const EpsilonSettings *) q->settings)->radius;

  if (gst_cl_plan_get_int (q, "px", 0) > 0)
    return gst_cl_plan_get_int (q, "px", 0);
  if (halves (q))
    return HALVES_PIXELS_PER_ITEM;
  if (q->caps->type & CL_DEVICE_TYPE_GPU)
    return radius > WIDE_WINDOW_RADIUS ? 8 : 16;
  if (q->caps->type & CL_DEVICE_TYPE_CPU)
    return 16;
  return FALLBACK_PIXELS_PER_ITEM;
}

/* Bytes of local memory that epsilon_tiled needs in work-groups of @local,
 * as its SKEW and PITCH. */
static gsize
tiled_local_size (guint radius, guint pixels, const gsize local[2])
{
  gsize w = (local[0] * pixels + 2 * radius + 31) / 32 * 32;

  return (local[1] + 2 * radius) * (w + w / 32 * 4) * sizeof (gfloat);
}

/* the optimized kernels take 1, 2, 4, 8 or 16 outputs a work-item */
static gboolean
optimized_takes (const GstClPlanQuery * q)
{
  guint pixels = pixels_per_item (q);

  return pixels <= 16 && (pixels & (pixels - 1)) == 0;
}

/* the tiled kernel reads its outputs 4 at a time, from a local tile that
 * must fit */
static gboolean
tiled_takes (const GstClPlanQuery * q)
{
  gint radius = ((const EpsilonSettings *) q->settings)->radius;
  guint pixels = pixels_per_item (q);
  gsize local[2];

  tiled_group (q, local);
  return optimized_takes (q) && pixels % 4 == 0 &&
      tiled_local_size (radius, pixels, local) <= q->caps->local_mem_size &&
      local[0] * local[1] <= q->caps->max_work_group_size;
}

static gboolean
gpu_prefers (const GstClPlanQuery * q)
{
  return (q->caps->type & CL_DEVICE_TYPE_GPU) != 0;
}

static gboolean
cpu_prefers (const GstClPlanQuery * q)
{
  return (q->caps->type & CL_DEVICE_TYPE_CPU) != 0;
}

/* the build options of the optimized kernels: the radius is built in, so
 * that the window loops unroll */
static void
optimized_options (const GstClPlanQuery * q, gchar * options, gsize size)
{
  const EpsilonSettings *s = q->settings;
  gint n = g_snprintf (options, size, "-DRADIUS=%d -DPX=%u -DCHROMA=%u",
      s->radius, pixels_per_item (q), s->chroma_planes);

  if (q->plan->id == PLAN_TILED || q->plan->id == PLAN_TILED_FLOAT) {
    gsize local[2];

    tiled_group (q, local);
    g_snprintf (options + n, size - n, " -DLX=%d -DLY=%d%s", (gint) local[0],
        (gint) local[1], halves (q) ? " -DNV_PTX" : "");
  }
}

/* In the order they are tried; tiled-float keeps the tile in floats where
 * the compiler takes PTX, to compare. The reference kernel, which takes
 * any diameter, serves while the kernel of a diameter changed while
 * playing builds (docs/clepsilon.md says how long). The tunable px: the
 * outputs a work-item, 1, 2, 4, 8 or 16 (a multiple of 4 for the tiles). */
static const GstClPlan plans[] = {
  {"tiled", PLAN_TILED, tiled_takes, gpu_prefers, gst_cl_kernel_epsilon,
      "epsilon_tiled", optimized_options, GST_CL_PLAN_BUILT_FOR_SETTINGS, "px"},
  {"tiled-float", PLAN_TILED_FLOAT, tiled_takes, NULL, gst_cl_kernel_epsilon,
      "epsilon_tiled", optimized_options, GST_CL_PLAN_BUILT_FOR_SETTINGS, "px"},
  {"vector", PLAN_VECTOR, optimized_takes, cpu_prefers, gst_cl_kernel_epsilon,
        "epsilon_optimized", optimized_options,
      GST_CL_PLAN_BUILT_FOR_SETTINGS, "px"},
  {"packed", PLAN_PACKED, optimized_takes, gst_cl_plan_always,
        gst_cl_kernel_epsilon, "epsilon_packed", optimized_options,
      GST_CL_PLAN_BUILT_FOR_SETTINGS, "px"},
  {"reference", PLAN_REFERENCE, NULL, NULL, gst_cl_kernel_epsilon,
      "epsilon_reference", NULL, GST_CL_PLAN_FALLBACK, NULL},
  {NULL}
};

/* the chroma planes the optimized kernels copy themselves, after the
 * luma: one command a frame, where many streams share a driver that
 * serializes its calls */
static guint
chroma_planes (const GstClFrame * frame)
{
  return frame->n_planes > 1 && frame->n_planes <= 3 &&
      frame->planes[1].height <= frame->planes[0].height ?
      frame->n_planes - 1 : 0;
}

/* The plan for the diameter the stream starts with, its kernel built
 * here. */
static gboolean
gst_cl_epsilon_set_info (GstClBaseFilter * base,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info,
    GError ** error)
{
  GstClEpsilon *self = GST_CL_EPSILON (base);
  EpsilonSettings settings;
  GstClPlanQuery q;
  GstClFrame frame;

  if (gst_cl_base_filter_get_variant (base) != GST_CL_VARIANT_OPTIMIZED)
    return TRUE;
  GST_OBJECT_LOCK (self);
  settings.radius = self->diameter / 2;
  GST_OBJECT_UNLOCK (self);
  gst_cl_frame_set_geometry (&frame, out_info);
  settings.chroma_planes = chroma_planes (&frame);
  gst_cl_plan_query_init (&q, self->planner,
      gst_cl_base_filter_get_context (base), &settings, 1);
  if (!gst_cl_plan_prepare (&q, error))
    return FALSE;
  GST_DEBUG_OBJECT (self, "%u pixels per work-item", pixels_per_item (&q));
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

/* The luma of @in filtered into @out's by @q's plan; the planes after it
 * (1 or 2, the same size), copied by the same work-items where the plan's
 * settings say. */
static gboolean
filter_luma_optimized (GstClBaseFilter * base, const GstClPlanQuery * q,
    const GstClFrame * in, const GstClFrame * out, gint threshold,
    GError ** error)
{
  const EpsilonSettings *s = q->settings;
  const GstClPlane *y_in = &in->planes[0], *y_out = &out->planes[0];
  const GstClPlane *c0_in = &in->planes[1], *c0_out = &out->planes[1];
  const GstClPlane *c1_in = &in->planes[in->n_planes - 1];
  const GstClPlane *c1_out = &out->planes[out->n_planes - 1];
  guint pixels = pixels_per_item (q);
  gsize global[2] = { (y_in->width + pixels - 1) / pixels, y_in->height };
  gboolean tiled = q->plan->id == PLAN_TILED || q->plan->id == PLAN_TILED_FLOAT;
  gint c_bytes = c0_in->width * c0_in->pstride, c_rows = c0_in->height;
  gchar options[128];
  gsize local[2];
  cl_kernel k;

  gst_cl_plan_get_options (q, 0, options, sizeof (options));
  tiled_group (q, local);
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_epsilon, options,
      q->plan->kernel, error);
  if (!k || !gst_cl_kernel_set_args (k, error, 7, GST_CL_ARG (y_in->mem),
          GST_CL_ARG (y_in->stride), GST_CL_ARG (y_out->mem),
          GST_CL_ARG (y_out->stride), GST_CL_ARG (y_in->width),
          GST_CL_ARG (y_in->height), GST_CL_ARG (threshold)))
    return FALSE;
  if (s->chroma_planes && !gst_cl_kernel_set_args_from (k, 7, error, 10,
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
  gboolean reference =
      gst_cl_base_filter_get_variant (base) == GST_CL_VARIANT_REFERENCE;
  EpsilonSettings settings;
  GstClPlanQuery q;
  gint threshold;
  gboolean ok, chroma = FALSE;

  GST_OBJECT_LOCK (self);
  settings.radius = self->diameter / 2;
  threshold = self->threshold;
  GST_OBJECT_UNLOCK (self);
  settings.chroma_planes = chroma_planes (out);

  /* a diameter changed while playing: the reference kernel until the
   * optimized one for it is built */
  if (!reference) {
    gst_cl_plan_query_init (&q, self->planner,
        gst_cl_base_filter_get_context (base), &settings, 1);
    reference = gst_cl_plan_select (&q)->id == PLAN_REFERENCE;
  }
  if (reference) {
    ok = filter_luma_reference (base, &in->planes[0], &out->planes[0],
        settings.radius, threshold, error);
  } else {
    ok = filter_luma_optimized (base, &q, in, out, threshold, error);
    chroma = settings.chroma_planes > 0;
  }

  for (guint p = 1; ok && !chroma && p < out->n_planes; p++)
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
  self->planner = gst_cl_plan_attach (GST_ELEMENT (self), "clepsilon", plans);
}
