/* gstclfilters: clboxblur, a d x d mean filter
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-clboxblur
 * @title: clboxblur
 *
 * Replaces every sample by the rounded mean of the d x d samples around it,
 * edges replicated: out = floor ((S + n/2) / n), n = d * d. Every channel of
 * every plane is blurred on its own grid (NV12's U and V separately, at chroma
 * resolution), alpha included. The optimized kernels use running sums, so a
 * large diameter costs about as much as a small one.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! clboxblur diameter=15 ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclboxblur.h"
#include "gstclboxblur-plans.h"
#include "gstclkernels.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_box_blur_debug);
#define GST_CAT_DEFAULT gst_cl_box_blur_debug

#define DEFAULT_DIAMETER 5

#define FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, GRAY8, NV12, NV21, I420, YV12, Y42B, Y444, YUY2, UYVY, YVYU }"

enum
{
  PROP_0,
  PROP_DIAMETER,
};

struct _GstClBoxBlur
{
  GstClBaseFilter parent;

  guint diameter;
  GstClPlanner *planner;
};

G_DEFINE_TYPE (GstClBoxBlur, gst_cl_box_blur, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clboxblur, "clboxblur", GST_RANK_NONE,
    GST_TYPE_CL_BOX_BLUR);

/* The plan for the diameter the stream starts with: the kernels built for
 * one radius take long to build on NVIDIA's compiler (docs/clboxblur.md),
 * so they are built here, and no frame waits for them. */
static gboolean
gst_cl_box_blur_set_info (GstClBaseFilter * base, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GError ** error)
{
  GstClBoxBlur *self = GST_CL_BOX_BLUR (base);
  BoxBlurSettings settings;
  GstClPlanQuery q;
  GstClFrame frame;
  gint radius;

  if (gst_cl_base_filter_get_variant (base) != GST_CL_VARIANT_OPTIMIZED)
    return TRUE;
  GST_OBJECT_LOCK (self);
  radius = self->diameter / 2;
  GST_OBJECT_UNLOCK (self);
  gst_cl_frame_set_geometry (&frame, in_info);
  gst_cl_box_blur_settings_from_frame (&settings, radius, &frame);
  gst_cl_plan_query_init (&q, self->planner,
      gst_cl_base_filter_get_context (base), &settings, settings.n_planes);
  return gst_cl_plan_prepare (&q, error) != NULL;
}

static gboolean
blur_plane_reference (GstClBaseFilter * base, const GstClPlane * in,
    const GstClPlane * out, gint radius, GError ** error)
{
  gchar options[32];
  cl_kernel k;
  gsize global[2] = { in->width, in->height };

  g_snprintf (options, sizeof (options), "-DCH=%d", in->pstride);
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_boxblur, options,
      "boxblur_reference", error);
  return k && gst_cl_kernel_set_args (k, error, 7, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height), GST_CL_ARG (radius)) &&
      gst_cl_base_filter_enqueue_kernel (base, k, 2, global, NULL, error);
}

/* The bands of a plane of @row_bytes x @height for a window of @span
 * bytes across (d pixels) and @d rows down, where the running sums take
 * them (d >= PREFIX_MIN_DIAMETER): each band sweeps span bytes and d rows
 * beyond those it writes, so the fewer and larger the better, as long as
 * every compute unit has as much to do. The cost of a split is that of
 * the waves of work-items the units take, each a band's bytes and its
 * halo times its rows and those that start its window, plus what a
 * work-item costs whatever its size; the cheapest is taken (a few dozen
 * splits tried for a few cores, a thousand for 64). The bands of the
 * direct sums (smaller windows) keep BAND bytes and BAND_ROWS rows or
 * more, tuned on their own. */
static void
bands_split (gint row_bytes, gint height, gint span, gint d, guint units,
    gint * band, gint * rows)
{
  gdouble best = G_MAXDOUBLE;
  gint fewest = (row_bytes + MAX_BAND - 1) / MAX_BAND;

  units = MAX (units, 1);
  for (gint nb = fewest; nb <= MAX (fewest, 64); nb++) {
    gint b = GST_ROUND_UP_16 ((row_bytes + nb - 1) / nb);

    if (nb > 1 && (nb - 1) * b >= row_bytes)
      break;
    /* up to four waves of work-items */
    for (gint nr = 1; nr <= MIN (height, (4 * (gint) units + nb - 1) / nb);
        nr++) {
      gint r = (height + nr - 1) / nr;
      guint items = (guint) nb * (guint) ((height + r - 1) / r);
      gdouble cost = (gdouble) ((items + units - 1) / units) *
          ((gdouble) (b + GST_ROUND_UP_16 (span) + 16) * (r + d) +
          BAND_ITEM_COST);

      if (cost < best) {
        best = cost;
        *band = b;
        *rows = r;
      }
    }
  }
}

/* One pass down strips of STRIP columns, STRIP_ROWS rows a work-group, or
 * bands (bands_split). */
static gboolean
blur_plane_one_pass (GstClBoxBlur * self, const GstClPlanQuery * q,
    const GstClPlane * in, const GstClPlane * out, gint radius,
    const gchar * options, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gboolean bands = q->plan->id == PLAN_BANDS;
  guint d = 2 * radius + 1, n = d * d, magic, shift;
  gint row_bytes = in->width * in->pstride, span = d * in->pstride;
  gint rows = BAND_ROWS, band = BAND;
  gint out_w = STRIP - 2 * radius;
  gsize local[2] = { bands ? 1 : STRIP, 1 };
  gsize global[2];
  cl_kernel k;

  if (bands && d >= PREFIX_MIN_DIAMETER) {
    bands_split (row_bytes, in->height, span, d, q->caps->compute_units,
        &band, &rows);
  } else if (bands) {
    gint n_bands = (row_bytes + band - 1) / band;

    /* as many bytes and rows in each work-item, so that the cores end
     * together */
    band = MAX ((row_bytes + n_bands - 1) / n_bands + 15, 16) / 16 * 16;
    if (in->height > rows)
      rows = (in->height + in->height / rows - 1) / (in->height / rows);
  } else {
    rows = STRIP_ROWS;
  }
  rows = gst_cl_plan_get_int (q, "run", rows);

  global[0] = bands ? (gsize) (row_bytes + band - 1) / band :
      (gsize) (in->width + out_w - 1) / out_w * STRIP;
  global[1] = (gsize) (in->height + rows - 1) / rows;
  gst_cl_box_blur_divisor (n, &magic, &shift);
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_boxblur, options,
      q->plan->kernel, error);
  /* the bands divide by a float product, the strips by magic and shift */
  return k && gst_cl_kernel_set_args (k, error, 9, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height), GST_CL_ARG (radius),
      GST_CL_ARG (rows), GST_CL_ARG (n)) && (bands ?
      gst_cl_kernel_set_args_from (k, 9, error, 1, GST_CL_ARG (band)) :
      gst_cl_kernel_set_args_from (k, 9, error, 2, GST_CL_ARG (magic),
          GST_CL_ARG (shift))) &&
      gst_cl_base_filter_enqueue_kernel (base, k, 2, global, local, error);
}

/* One pass for the small radii, work-items of ITEM bytes and the plan's
 * rows, the kernel built for the radius: the small kernel, or the warps,
 * whose first and last work-items compute for their neighbours. */
static gboolean
blur_plane_small (GstClBoxBlur * self, const GstClPlanQuery * q,
    const GstClPlane * in, const GstClPlane * out, gint radius,
    const gchar * options, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gboolean warp = q->plan->id == PLAN_WARP;
  gint ip = ITEM / in->pstride, items = (in->width + ip - 1) / ip;
  gint rows = SMALL_ROWS, stack = 0;
  guint d = 2 * radius + 1, n = d * d, magic, shift;
  gsize local[2] = { WARP_GROUP, 1 };
  gsize global[2] = { items, (gsize) (in->height + rows - 1) / rows };
  cl_kernel k;

  if (warp) {
    gint writers = gst_cl_box_blur_warp_writers (radius, in->pstride);

    /* as gst_cl_box_blur_warp_options() built it for */
    gst_cl_box_blur_warp_shape (q, &rows, &stack);
    global[1] = (in->height + rows - 1) / rows;
    if (stack > 0) {
      local[0] = WARP_ASYNC_GROUP;
      local[1] = stack;
      global[1] = GST_ROUND_UP_N (global[1], stack);
    }
    global[0] = GST_ROUND_UP_N ((gsize) (items + writers - 1) / writers * 32,
        local[0]);
  }
  gst_cl_box_blur_divisor (n, &magic, &shift);
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_boxblur, options,
      q->plan->kernel, error);
  return k && gst_cl_kernel_set_args (k, error, 9, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height), GST_CL_ARG (n),
      GST_CL_ARG (magic), GST_CL_ARG (shift)) &&
      gst_cl_base_filter_enqueue_kernel (base, k, 2, global,
      warp ? local : NULL, error);
}

/* One pass, work-items of ITEM bytes sliding down BLOCK_ROWS rows (the
 * blocks; fewer where the work-groups would not fill the device) or
 * SCAN_ROWS (the scan, after the sums its windows start from), the kernel
 * built for the radius. */
static gboolean
blur_plane_blocks (GstClBoxBlur * self, const GstClPlanQuery * q,
    const GstClPlane * in, const GstClPlane * out, gint radius,
    const gchar * options, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gboolean scan = q->plan->id == PLAN_SCAN;
  gint rows = scan ? SCAN_ROWS : BLOCK_ROWS;
  gint run = gst_cl_plan_get_int (q, "run", 0);
  gint ip = ITEM / in->pstride;
  gint items = (in->width + ip - 1) / ip;
  gint group, writers;
  gsize across;
  guint d = 2 * radius + 1, n = d * d, magic, shift;
  gsize local[2] = { 0, 1 };
  gsize global[2];
  cl_kernel k;

  /* as gst_cl_box_blur_blocks_options() or gst_cl_box_blur_scan_options() built it for */
  if (scan)
    gst_cl_box_blur_scan_shape (q, &group, &writers);
  else
    gst_cl_box_blur_blocks_shape (q, &group, &writers);
  across = (gsize) (items + writers - 1) / writers;
  local[0] = group;
  if (!scan && across * ((in->height + rows - 1) / rows) < GROUPS_A_UNIT *
      q->caps->compute_units)
    rows = BLOCK_FEW_ROWS;
  if (run > 0)
    rows = scan ? GST_ROUND_UP_N (run, SUM_ROWS) : run;
  global[0] = across * group;
  global[1] = (in->height + rows - 1) / rows;
  gst_cl_box_blur_divisor (n, &magic, &shift);
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_boxblur, options,
      q->plan->kernel, error);
  if (!k || !gst_cl_kernel_set_args (k, error, 10, GST_CL_ARG (in->mem),
          GST_CL_ARG (in->stride), GST_CL_ARG (out->mem),
          GST_CL_ARG (out->stride), GST_CL_ARG (in->width),
          GST_CL_ARG (in->height), GST_CL_ARG (rows), GST_CL_ARG (n),
          GST_CL_ARG (magic), GST_CL_ARG (shift)))
    return FALSE;
  if (scan) {
    /* the sums of SUM_ROWS rows the scan starts its windows from, for
     * each of its work-items (those of the halo too) and each run of
     * SUM_ROWS rows its windows cover */
    gint items_a = (gint) (across - 1) * writers + group;
    gsize sums_global[2] = { items_a,
      (in->height - 1) / SUM_ROWS + d / SUM_ROWS + 1
    };
    cl_mem sums = gst_cl_base_filter_get_scratch (base, 0,
        sums_global[0] * sums_global[1] * ITEM * sizeof (guint16), error);
    cl_kernel ks = sums ? gst_cl_base_filter_get_kernel (base,
        gst_cl_kernel_boxblur, options, "boxblur_block_sums", error) : NULL;

    if (!ks || !gst_cl_kernel_set_args (ks, error, 6, GST_CL_ARG (in->mem),
            GST_CL_ARG (in->stride), GST_CL_ARG (sums), GST_CL_ARG (items_a),
            GST_CL_ARG (in->width), GST_CL_ARG (in->height)) ||
        !gst_cl_base_filter_enqueue_kernel (base, ks, 2, sums_global, NULL,
            error) || !gst_cl_kernel_set_args_from (k, 10, error, 2,
            GST_CL_ARG (sums), GST_CL_ARG (items_a)))
      return FALSE;
  }
  return gst_cl_base_filter_enqueue_kernel (base, k, 2, global, local, error);
}

/* Two passes: column sums into a 16-bit scratch plane, then row sums of
 * those, divided; along rows, or down columns through a transposing local
 * tile. */
static gboolean
blur_plane_passes (GstClBoxBlur * self, const GstClPlanQuery * q,
    const GstClPlane * in, const GstClPlane * out, gint radius,
    const gchar * options, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gboolean transposed = q->plan->id == PLAN_TRANSPOSED;
  gint row_bytes = in->width * in->pstride;
  /* in elements of the tmp buffer: ushort along rows, pixels transposed */
  gint tmp_stride = transposed ? in->height : GST_ROUND_UP_4 (row_bytes);
  gint extent = transposed ? in->width : tmp_stride / 4;
  /* what pass 1 walks across: pixels when transposed, bytes along rows */
  gint vsum_width = transposed ? in->width : row_bytes;
  gsize tmp_size = (transposed ? (gsize) row_bytes * in->height :
      (gsize) tmp_stride * in->height) * sizeof (guint16);
  gint run = gst_cl_box_blur_items_per_run (q, radius);
  guint d = 2 * radius + 1, n = d * d, magic, shift;
  cl_kernel vsum, hsum;
  cl_mem tmp;
  gsize tile[2] = { 32, 1 };
  gsize vglobal[2] = { extent, (in->height + run - 1) / run };
  gsize hglobal[2] = { transposed ? in->height : (in->width + run - 1) / run,
    transposed ? (in->width + run - 1) / run : in->height
  };

  gst_cl_box_blur_divisor (n, &magic, &shift);
  tmp = gst_cl_base_filter_get_scratch (base, 0, tmp_size, error);
  vsum = tmp ? gst_cl_base_filter_get_kernel (base, gst_cl_kernel_boxblur,
      options, transposed ? "boxblur_vsum_t" : "boxblur_vsum", error) : NULL;
  hsum = vsum ? gst_cl_base_filter_get_kernel (base, gst_cl_kernel_boxblur,
      options, transposed ? "boxblur_hsum_t" : "boxblur_hsum", error) : NULL;
  if (!hsum)
    return FALSE;

  return gst_cl_kernel_set_args (vsum, error, 8, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (tmp), GST_CL_ARG (tmp_stride),
      GST_CL_ARG (vsum_width),
      GST_CL_ARG (in->height), GST_CL_ARG (radius), GST_CL_ARG (run)) &&
      gst_cl_base_filter_enqueue_kernel (base, vsum, 2, vglobal,
      transposed ? tile : NULL, error) &&
      gst_cl_kernel_set_args (hsum, error, 11, GST_CL_ARG (tmp),
      GST_CL_ARG (tmp_stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height), GST_CL_ARG (radius),
      GST_CL_ARG (run), GST_CL_ARG (n), GST_CL_ARG (magic),
      GST_CL_ARG (shift)) &&
      gst_cl_base_filter_enqueue_kernel (base, hsum, 2, hglobal,
      transposed ? tile : NULL, error);
}

static gboolean
gst_cl_box_blur_dispatch (GstClBaseFilter * base, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  GstClBoxBlur *self = GST_CL_BOX_BLUR (base);
  BoxBlurSettings settings;
  GstClPlanQuery q;
  gint radius;

  GST_OBJECT_LOCK (self);
  radius = self->diameter / 2;
  GST_OBJECT_UNLOCK (self);

  if (gst_cl_base_filter_get_variant (base) == GST_CL_VARIANT_REFERENCE) {
    for (guint p = 0; p < in->n_planes; p++)
      if (!blur_plane_reference (base, &in->planes[p], &out->planes[p],
              radius, error))
        return FALSE;
    return TRUE;
  }

  /* a diameter changed while playing: the strips or the two passes until
   * its own kernel is built */
  gst_cl_box_blur_settings_from_frame (&settings, radius, in);
  gst_cl_plan_query_init (&q, self->planner,
      gst_cl_base_filter_get_context (base), &settings, in->n_planes);
  gst_cl_plan_select (&q);
  for (guint p = 0; p < in->n_planes; p++) {
    const GstClPlane *src = &in->planes[p], *dst = &out->planes[p];
    gchar options[OPTIONS_SIZE];
    gboolean ok;

    gst_cl_plan_get_options (&q, p, options, sizeof (options));
    q.part = p;
    switch (q.plan->id) {
      case PLAN_SCAN:
      case PLAN_BLOCKS:
        ok = blur_plane_blocks (self, &q, src, dst, radius, options, error);
        break;
      case PLAN_SMALL:
      case PLAN_WARP:
        ok = blur_plane_small (self, &q, src, dst, radius, options, error);
        break;
      case PLAN_STRIPS:
      case PLAN_BANDS:
        ok = blur_plane_one_pass (self, &q, src, dst, radius, options, error);
        break;
      default:
        ok = blur_plane_passes (self, &q, src, dst, radius, options, error);
        break;
    }
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

static gboolean
gst_cl_box_blur_is_passthrough (GstClBaseFilter * base)
{
  GstClBoxBlur *self = GST_CL_BOX_BLUR (base);
  gboolean identity;

  GST_OBJECT_LOCK (self);
  identity = self->diameter / 2 == 0;
  GST_OBJECT_UNLOCK (self);
  return identity;
}

static void
gst_cl_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClBoxBlur *self = GST_CL_BOX_BLUR (object);

  switch (prop_id) {
    case PROP_DIAMETER:
      GST_OBJECT_LOCK (self);
      self->diameter = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_box_blur_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClBoxBlur *self = GST_CL_BOX_BLUR (object);

  switch (prop_id) {
    case PROP_DIAMETER:
      GST_OBJECT_LOCK (self);
      g_value_set_uint (value, self->diameter);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_box_blur_class_init (GstClBoxBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstClBaseFilterClass *filter_class = GST_CL_BASE_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_box_blur_debug, "clboxblur", 0,
      "OpenCL box blur");

  gobject_class->set_property = gst_cl_box_blur_set_property;
  gobject_class->get_property = gst_cl_box_blur_get_property;

  g_object_class_install_property (gobject_class, PROP_DIAMETER,
      g_param_spec_uint ("diameter", "Diameter",
          "Width and height of the averaged square, in pixels; an even value "
          "is taken as the next odd one, 1 passes frames through", 1,
          MAX_DIAMETER, DEFAULT_DIAMETER, G_PARAM_READWRITE |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class, "OpenCL box blur",
      "Filter/Effect/Video", "Mean of the d x d neighbourhood, on an OpenCL "
      "device", "gstclfilters contributors");
  gst_cl_base_filter_class_add_pad_templates (filter_class,
      GST_VIDEO_CAPS_MAKE (FORMATS));

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_box_blur_set_info);
  filter_class->is_passthrough =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_is_passthrough);
  filter_class->dispatch = GST_DEBUG_FUNCPTR (gst_cl_box_blur_dispatch);
}

static void
gst_cl_box_blur_init (GstClBoxBlur * self)
{
  self->diameter = DEFAULT_DIAMETER;
  self->planner = gst_cl_plan_attach (GST_ELEMENT (self), "clboxblur",
      gst_cl_box_blur_plans);
}
