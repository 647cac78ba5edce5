/* gstclfilters: clintegral, the integral image of the luma as buffer meta
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-clintegral
 * @title: clintegral
 *
 * Computes the integral image (summed-area table) of the luma and attaches
 * it to the buffer, which passes through untouched, as a #GstCustomMeta
 * named `GstClIntegralMeta`. Its structure holds:
 *
 * - `width`, `height` (int): the luma plane's size;
 * - `stride` (int): bytes per row of `sum`;
 * - `sum` (#GstBuffer): guint32 I (x, y) = the sum of Y (i, j) over i <= x,
 *   j <= y, modulo 2^32;
 * - with #GstClIntegral:squared, `sqsum` (#GstBuffer): guint64 sums of
 *   Y (i, j)^2, and `sqsum-stride` (int), bytes per row of `sqsum`.
 *
 * The sum over any box x0..x1, y0..y1 is then I (x1, y1) - I (x0 - 1, y1) -
 * I (x1, y0 - 1) + I (x0 - 1, y0 - 1), exact modulo 2^32 (terms with x0 - 1 or
 * y0 - 1 below 0 are 0): a constant-time box sum for box filters, local means
 * and variances, Haar features.
 *
 * The reference sums whole rows, then whole columns. The optimized kernels
 * follow, on GPUs, tiles of 128x32 pixels (or the 4x4-block integral
 * image): each tile's own sums, joined by scans over their totals; on CPUs,
 * bands of rows, each run down by one work-item from the column sums of the
 * bands above.
 *
 * The tables are device memory from pools of the element: mapping `sum` or
 * `sqsum` waits for the kernels that write it and reads it in place where
 * the device shares host memory; on other devices only a table that is
 * mapped comes back over the bus.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=10 ! video/x-raw,format=NV12 ! clintegral squared=true ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclintegral.h"
#include "gstclkernels.h"
#include "cl/gstclerror.h"
#include "cl/gstclmemory.h"
#include "cl/gstclpool.h"
#include "cl/gstclplan.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_integral_debug);
#define GST_CAT_DEFAULT gst_cl_integral_debug

#define DEFAULT_SQUARED FALSE

#define FORMATS "{ GRAY8, NV12, NV21, I420, YV12, Y42B, Y444, YUY2, UYVY, YVYU }"

enum
{
  PROP_0,
  PROP_SQUARED,
};

/* scratch buffers on the device */
enum
{
  SCRATCH_VERT,
  SCRATCH_HORIZ,
};

struct _GstClIntegral
{
  GstClBaseFilter parent;

  gboolean squared;
  /* the tables' buffers (sum, sqsum), on the device */
  GstBufferPool *pools[2];
  GstClPlanner *planner;
};

G_DEFINE_TYPE (GstClIntegral, gst_cl_integral, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clintegral, "clintegral", GST_RANK_NONE,
    GST_TYPE_CL_INTEGRAL);

/* Enqueues the kernel @name of the program built with @options on @global
 * work-items in work-groups of @local (NULL: the driver's choice), with the
 * (size, pointer) pairs that follow as arguments. */
static gboolean
run (GstClBaseFilter * base, const gchar * options, const gchar * name,
    guint dims, gsize global0, gsize global1, const gsize * local,
    GError ** error, guint n_args, ...)
{
  gsize global[2] = { global0, global1 };
  cl_kernel k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_integral,
      options, name, error);
  va_list args;
  gboolean ok;

  if (!k)
    return FALSE;
  va_start (args, n_args);
  ok = gst_cl_kernel_set_args_valist (k, error, n_args, args);
  va_end (args);
  if (!ok)
    return FALSE;
  return gst_cl_base_filter_enqueue_kernel (base, k, dims, global, local,
      error);
}

typedef enum
{
  PLAN_SCANS,
  PLAN_STRIPS,
  PLAN_BANDS,
  PLAN_BLOCKS,
  PLAN_TILES,
} IntegralPlan;

/* the work-group of integral_tile_* (kernels/integral.cl) */
#define TILE_W 128
#define TILE_H 32
#define TILE_LX 32
#define TILE_LY 8

static gboolean
tiles_takes (const GstClPlanQuery * q)
{
  return q->caps->max_work_group_size >= TILE_LX * TILE_LY;
}

static gboolean
gpu_prefers (const GstClPlanQuery * q)
{
  return (q->caps->type & CL_DEVICE_TYPE_GPU) != 0;
}

/* The optimized plans, in the order they are tried, as measured
 * (docs/clintegral.md): on GPUs the tiles where their work-groups of 32 x
 * 8 work-items fit, else the 4x4 blocks; elsewhere the bands. The strips
 * and the two scans with vector columns are there to compare. Their
 * programs take no setting but squared, which changes no plan. */
static const GstClPlan plans[] = {
  {"tiles", PLAN_TILES, tiles_takes, gpu_prefers, gst_cl_kernel_integral,
      "integral_tile_sums", NULL, GST_CL_PLAN_NONE, NULL},
  {"blocks", PLAN_BLOCKS, NULL, gpu_prefers, gst_cl_kernel_integral,
      "integral_block", NULL, GST_CL_PLAN_NONE, NULL},
  {"bands", PLAN_BANDS, NULL, gst_cl_plan_always, gst_cl_kernel_integral,
      "integral_band_sums", NULL, GST_CL_PLAN_NONE, NULL},
  {"strips", PLAN_STRIPS, NULL, NULL, gst_cl_kernel_integral,
      "integral_strip_carries", NULL, GST_CL_PLAN_NONE, NULL},
  {"scans", PLAN_SCANS, NULL, NULL, gst_cl_kernel_integral, "integral_rows",
      NULL, GST_CL_PLAN_NONE, NULL},
  {NULL}
};

/* The three passes over 128 x 32 tiles (kernels/integral.cl): the tiles'
 * totals into one scratch buffer, their carries into another. With
 * @sq_table, the same passes also make the table of squares, and the
 * carries of both are 64-bit. */
static gboolean
integral_tiles (GstClBaseFilter * base, const GstClPlane * in, cl_mem table,
    cl_mem sq_table, GError ** error)
{
  gint w = in->width, h = in->height, pitch = w;
  gint tiles_w = (w + TILE_W - 1) / TILE_W, tiles_h = (h + TILE_H - 1) / TILE_H;
  gint col_at = tiles_w * h, tile_at = col_at + tiles_h * w;
  gint chan_at = tile_at + tiles_w * tiles_h, channels = sq_table ? 2 : 1;
  gsize carry_size = sq_table ? sizeof (guint64) : sizeof (guint32);
  const gchar *options = sq_table ? "-DSQUARED" : "";
  gsize local[2] = { TILE_LX, TILE_LY };
  gsize grid[2] = { (gsize) tiles_w * TILE_LX, (gsize) tiles_h * TILE_LY };
  gsize carries = (gsize) channels * (h + w + tiles_w);
  cl_mem tot, carry, sq = sq_table ? sq_table : table;

  tot = gst_cl_base_filter_get_scratch (base, SCRATCH_VERT,
      (gsize) channels * chan_at * carry_size, error);
  carry = tot ? gst_cl_base_filter_get_scratch (base, SCRATCH_HORIZ,
      (gsize) channels * chan_at * carry_size, error) : NULL;
  if (!carry)
    return FALSE;

  return run (base, options, "integral_tile_sums", 2, grid[0], grid[1], local,
      error, 8, GST_CL_ARG (in->mem), GST_CL_ARG (in->stride), GST_CL_ARG (w),
      GST_CL_ARG (h), GST_CL_ARG (tot), GST_CL_ARG (chan_at),
      GST_CL_ARG (col_at), GST_CL_ARG (tile_at)) &&
      run (base, options, "integral_tile_carries", 1, carries, 1, NULL, error,
      9, GST_CL_ARG (tot), GST_CL_ARG (carry), GST_CL_ARG (w), GST_CL_ARG (h),
      GST_CL_ARG (tiles_w), GST_CL_ARG (tiles_h), GST_CL_ARG (chan_at),
      GST_CL_ARG (col_at), GST_CL_ARG (tile_at)) &&
      run (base, options, "integral_tile_finish", 2, grid[0], grid[1], local,
      error, 11, GST_CL_ARG (in->mem), GST_CL_ARG (in->stride),
      GST_CL_ARG (table), GST_CL_ARG (sq), GST_CL_ARG (pitch), GST_CL_ARG (w),
      GST_CL_ARG (h), GST_CL_ARG (carry), GST_CL_ARG (chan_at),
      GST_CL_ARG (col_at), GST_CL_ARG (tile_at));
}

/* @total columns or rows in pieces, @per_unit for each compute unit so that
 * the threads share them out evenly, each from @min to @max wide and a
 * multiple of @align. Returns a piece's size; @count: how many. */
static gint
share_out (GstClBaseFilter * base, gint total, gint per_unit, gint min,
    gint max, gint align, gint * count)
{
  GstClContext *ctx = gst_cl_base_filter_get_context (base);
  gint units = MAX ((gint) gst_cl_context_get_caps (ctx)->compute_units, 1);
  gint size = CLAMP ((total + units * per_unit - 1) / (units * per_unit), min,
      max);

  size = (size + align - 1) / align * align;
  *count = (total + size - 1) / size;
  return size;
}

/* strips of integral_strips (kernels/integral.cl): this many a compute
 * unit, for the threads to share them out evenly, and at least this wide */
#define STRIPS_PER_UNIT 4
#define STRIP_MIN_W 64
#define STRIP_MAX_W 512         /* STRIP_MAX */

/* The two passes over strips of columns, a work-item a strip (a work-group
 * of its own, so that the strips go to every core). */
static gboolean
integral_strips (GstClBaseFilter * base, const GstClPlane * in, cl_mem table,
    gsize elem_size, const gchar * options, GError ** error)
{
  gint w = in->width, h = in->height, pitch = w, strips;
  gint strip = share_out (base, w, STRIPS_PER_UNIT, STRIP_MIN_W, STRIP_MAX_W,
      8, &strips);
  gsize one = 1;
  cl_mem carry;

  carry = gst_cl_base_filter_get_scratch (base, SCRATCH_VERT,
      (gsize) h * strips * elem_size, error);
  return carry &&
      run (base, options, "integral_strip_carries", 1, h, 1, NULL, error, 7,
      GST_CL_ARG (in->mem), GST_CL_ARG (in->stride), GST_CL_ARG (carry),
      GST_CL_ARG (w), GST_CL_ARG (h), GST_CL_ARG (strip), GST_CL_ARG (strips))
      && run (base, options, "integral_strips", 1, strips, 1, &one, error, 9,
      GST_CL_ARG (in->mem), GST_CL_ARG (in->stride), GST_CL_ARG (table),
      GST_CL_ARG (pitch), GST_CL_ARG (w), GST_CL_ARG (h), GST_CL_ARG (carry),
      GST_CL_ARG (strip), GST_CL_ARG (strips));
}

/* bands of integral_bands (kernels/integral.cl): this many a compute unit,
 * for the threads to share them out evenly */
#define BANDS_PER_UNIT 4

/* The two passes over bands of rows, a work-item a band (a work-group of
 * its own, so that the bands go to every core): the bands' column sums
 * into one scratch buffer, the table's row above each band, kept as its
 * rows are made, in another. */
static gboolean
integral_bands (GstClBaseFilter * base, const GstClPlane * in, cl_mem table,
    gsize elem_size, const gchar * options, GError ** error)
{
  gint w = in->width, h = in->height, pitch = w, bands;
  gint band = share_out (base, h, BANDS_PER_UNIT, 1, G_MAXINT, 1, &bands);
  gsize one = 1;
  cl_mem sums, cols;

  sums = gst_cl_base_filter_get_scratch (base, SCRATCH_VERT,
      (gsize) bands * w * elem_size, error);
  cols = sums ? gst_cl_base_filter_get_scratch (base, SCRATCH_HORIZ,
      (gsize) bands * w * elem_size, error) : NULL;
  return cols &&
      run (base, options, "integral_band_sums", 1, bands, 1, &one, error, 6,
      GST_CL_ARG (in->mem), GST_CL_ARG (in->stride), GST_CL_ARG (sums),
      GST_CL_ARG (w), GST_CL_ARG (h), GST_CL_ARG (band))
      && run (base, options, "integral_bands", 1, bands, 1, &one, error, 9,
      GST_CL_ARG (in->mem), GST_CL_ARG (in->stride), GST_CL_ARG (table),
      GST_CL_ARG (pitch), GST_CL_ARG (w), GST_CL_ARG (h), GST_CL_ARG (sums),
      GST_CL_ARG (band), GST_CL_ARG (cols));
}

/* Enqueues the integral image of @in into @table, @elem_size bytes an
 * element, one row of the plane's width a row. */
static gboolean
integral_table (GstClBaseFilter * base, IntegralPlan plan,
    gboolean reference, const GstClPlane * in, cl_mem table, gsize elem_size,
    const gchar * options, GError ** error)
{
  gint w = in->width, h = in->height, pitch = w;
  gint blocks_w = (w + 3) / 4, blocks_h = (h + 3) / 4;
  cl_mem vert, horiz;

  if (!reference && plan == PLAN_STRIPS)
    return integral_strips (base, in, table, elem_size, options, error);
  if (!reference && plan == PLAN_BANDS)
    return integral_bands (base, in, table, elem_size, options, error);
  /* the reference's two passes, the columns in vectors; else the 4x4 blocks
   * (see kernels/integral.cl) */
  if (reference || plan == PLAN_SCANS)
    return run (base, options, "integral_rows", 1, h, 1, NULL, error, 6,
        GST_CL_ARG (in->mem), GST_CL_ARG (in->stride), GST_CL_ARG (table),
        GST_CL_ARG (pitch), GST_CL_ARG (w), GST_CL_ARG (h)) &&
        run (base, options, reference ? "integral_cols" : "integral_cols4", 1,
        reference ? w : blocks_w, 1, NULL, error, 4, GST_CL_ARG (table),
        GST_CL_ARG (pitch), GST_CL_ARG (w), GST_CL_ARG (h));

  vert = gst_cl_base_filter_get_scratch (base, SCRATCH_VERT,
      (gsize) blocks_h * pitch * elem_size, error);
  horiz = vert ? gst_cl_base_filter_get_scratch (base, SCRATCH_HORIZ,
      (gsize) h * blocks_w * elem_size, error) : NULL;
  return horiz &&
      run (base, options, "integral_block", 2, blocks_w, blocks_h, NULL, error,
      6, GST_CL_ARG (in->mem), GST_CL_ARG (in->stride), GST_CL_ARG (table),
      GST_CL_ARG (pitch), GST_CL_ARG (w), GST_CL_ARG (h))
      && run (base, options, "integral_scan_v", 1, w, 1, NULL, error, 5,
      GST_CL_ARG (table), GST_CL_ARG (pitch), GST_CL_ARG (w), GST_CL_ARG (h),
      GST_CL_ARG (vert))
      && run (base, options, "integral_add_v", 2, blocks_w, h, NULL, error, 5,
      GST_CL_ARG (table), GST_CL_ARG (pitch), GST_CL_ARG (w), GST_CL_ARG (h),
      GST_CL_ARG (vert))
      && run (base, options, "integral_scan_h", 1, h, 1, NULL, error, 6,
      GST_CL_ARG (table), GST_CL_ARG (pitch), GST_CL_ARG (w), GST_CL_ARG (h),
      GST_CL_ARG (horiz), GST_CL_ARG (blocks_w))
      && run (base, options, "integral_add_h", 2, blocks_w, h, NULL, error, 6,
      GST_CL_ARG (table), GST_CL_ARG (pitch), GST_CL_ARG (w), GST_CL_ARG (h),
      GST_CL_ARG (horiz), GST_CL_ARG (blocks_w));
}

/* Enqueues the integral image of @in into @table, and that of its squares
 * into @sq_table where not NULL: in one go by tiles, else one after the
 * other. */
static gboolean
integral_tables (GstClIntegral * self, const GstClPlane * in, cl_mem table,
    cl_mem sq_table, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gboolean reference =
      gst_cl_base_filter_get_variant (base) == GST_CL_VARIANT_REFERENCE;
  IntegralPlan plan = PLAN_SCANS;

  if (!reference) {
    GstClPlanQuery q;

    gst_cl_plan_query_init (&q, self->planner,
        gst_cl_base_filter_get_context (base), NULL, 1);
    plan = gst_cl_plan_select (&q)->id;
  }
  if (plan == PLAN_TILES)
    return integral_tiles (base, in, table, sq_table, error);
  return integral_table (base, plan, reference, in, table, sizeof (guint32),
      "", error) && (!sq_table || integral_table (base, plan, reference, in,
          sq_table, sizeof (guint64), "-DSQUARED", error));
}

static void
clear_pool (GstBufferPool ** pool)
{
  if (*pool) {
    gst_buffer_pool_set_active (*pool, FALSE);
    gst_clear_object (pool);
  }
}

/* A buffer of @size bytes from @pool (replaced when its buffers are of
 * another size): one #GstClMemory, which the kernels write the table into
 * and which stays on the device until someone maps it; the map waits for
 * them, and is in place where the device shares host memory. */
static GstBuffer *
acquire_table (GstClBaseFilter * base, GstBufferPool ** pool, gsize size,
    GError ** error)
{
  GstBuffer *buf = NULL;

  if (*pool) {
    GstStructure *config = gst_buffer_pool_get_config (*pool);
    guint pool_size = 0;

    gst_buffer_pool_config_get_params (config, NULL, &pool_size, NULL, NULL);
    gst_structure_free (config);
    if (pool_size != size)
      clear_pool (pool);
  }
  if (!*pool) {
    *pool = gst_cl_buffer_pool_new_active (gst_cl_base_filter_get_context
        (base), GST_CL_POOL_DEVICE, size);
    gst_cl_buffer_pool_set_element (*pool, GST_ELEMENT (base));
  }
  if (gst_buffer_pool_acquire_buffer (*pool, &buf, NULL) != GST_FLOW_OK) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "could not allocate a %" G_GSIZE_FORMAT "-byte integral image", size);
    return NULL;
  }
  return buf;
}

/* The tables @sum and, where not NULL, @sqsum of @luma, enqueued: the
 * frame layer makes the kernels wait for what still uses the tables, and
 * makes them the tables' writers, which maps and later frames wait for. */
static gboolean
enqueue_tables (GstClBaseFilter * base, const GstClPlane * luma,
    GstBuffer * sum, GstBuffer * sqsum, GError ** error)
{
  GstClCore *core = gst_cl_base_filter_get_core (base);
  GstBuffer *buffers[2] = { sum, sqsum };
  cl_mem tables[2] = { NULL, NULL };
  gboolean ok;

  if (!gst_cl_core_map_tables (core, buffers, sqsum ? 2 : 1, tables, error))
    return FALSE;
  ok = integral_tables (GST_CL_INTEGRAL (base), luma, tables[0], tables[1],
      error);
  gst_cl_core_unmap_tables (core);
  return ok;
}

/* The plan for the caps: its program (any frame's) is built ahead of
 * them where they are foreseen (gst_cl_plan_set_prebuild()), else at the
 * first frame. */
static gboolean
gst_cl_integral_set_info (GstClBaseFilter * base, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GError ** error)
{
  GstClIntegral *self = GST_CL_INTEGRAL (base);
  GstClPlanQuery q;

  if (gst_cl_base_filter_get_variant (base) != GST_CL_VARIANT_OPTIMIZED)
    return TRUE;
  gst_cl_plan_query_init (&q, self->planner,
      gst_cl_base_filter_get_context (base), NULL, 1);
  return gst_cl_plan_prepare (&q, error) != NULL;
}

static gboolean
gst_cl_integral_analyse (GstClBaseFilter * base, const GstClFrame * in,
    GstBuffer * buffer, GError ** error)
{
  GstClIntegral *self = GST_CL_INTEGRAL (base);
  const GstClPlane *luma = &in->planes[0];
  gint stride = luma->width * sizeof (guint32);
  gint sq_stride = luma->width * sizeof (guint64);
  gsize size = (gsize) stride * luma->height;
  gsize sq_size = (gsize) sq_stride * luma->height;
  GstBuffer *sum = NULL, *sqsum = NULL;
  GstCustomMeta *meta;
  GstStructure *s;
  gboolean squared;

  GST_OBJECT_LOCK (self);
  squared = self->squared;
  GST_OBJECT_UNLOCK (self);

  sum = acquire_table (base, &self->pools[0], size, error);
  if (sum && squared)
    sqsum = acquire_table (base, &self->pools[1], sq_size, error);
  if (!sum || (squared && !sqsum) ||
      !enqueue_tables (base, luma, sum, sqsum, error)) {
    gst_clear_buffer (&sum);
    gst_clear_buffer (&sqsum);
    return FALSE;
  }

  /* a table of an earlier clintegral is replaced, not shadowed */
  meta = gst_buffer_get_custom_meta (buffer, GST_CL_INTEGRAL_META_NAME);
  if (meta)
    gst_buffer_remove_meta (buffer, (GstMeta *) meta);
  meta = gst_buffer_add_custom_meta (buffer, GST_CL_INTEGRAL_META_NAME);
  s = gst_custom_meta_get_structure (meta);
  gst_structure_set (s, "width", G_TYPE_INT, luma->width, "height", G_TYPE_INT,
      luma->height, "stride", G_TYPE_INT, stride, "sum", GST_TYPE_BUFFER, sum,
      NULL);
  if (sqsum)
    gst_structure_set (s, "sqsum", GST_TYPE_BUFFER, sqsum, "sqsum-stride",
        G_TYPE_INT, sq_stride, NULL);
  gst_buffer_unref (sum);
  gst_clear_buffer (&sqsum);
  return TRUE;
}

static void
gst_cl_integral_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClIntegral *self = GST_CL_INTEGRAL (object);

  switch (prop_id) {
    case PROP_SQUARED:
      GST_OBJECT_LOCK (self);
      self->squared = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_integral_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClIntegral *self = GST_CL_INTEGRAL (object);

  switch (prop_id) {
    case PROP_SQUARED:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->squared);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static gboolean
gst_cl_integral_stop (GstBaseTransform * trans)
{
  GstClIntegral *self = GST_CL_INTEGRAL (trans);

  clear_pool (&self->pools[0]);
  clear_pool (&self->pools[1]);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_integral_parent_class)->stop (trans);
}

static void
gst_cl_integral_finalize (GObject * object)
{
  GstClIntegral *self = GST_CL_INTEGRAL (object);

  clear_pool (&self->pools[0]);
  clear_pool (&self->pools[1]);
  G_OBJECT_CLASS (gst_cl_integral_parent_class)->finalize (object);
}

static void
gst_cl_integral_class_init (GstClIntegralClass * klass)
{
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_SIZE_STR, GST_META_TAG_VIDEO_ORIENTATION_STR, NULL
  };
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstClBaseFilterClass *filter_class = GST_CL_BASE_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_integral_debug, "clintegral", 0,
      "OpenCL integral image");

  /* the tags: it describes the picture, its size and orientation, so that
   * elements changing those drop it; copies of the buffer copy it */
  gst_meta_register_custom (GST_CL_INTEGRAL_META_NAME, tags, NULL, NULL, NULL);

  gobject_class->set_property = gst_cl_integral_set_property;
  gobject_class->get_property = gst_cl_integral_get_property;
  gobject_class->finalize = gst_cl_integral_finalize;
  GST_BASE_TRANSFORM_CLASS (klass)->stop =
      GST_DEBUG_FUNCPTR (gst_cl_integral_stop);

  g_object_class_install_property (gobject_class, PROP_SQUARED,
      g_param_spec_boolean ("squared", "Squared",
          "Also attach the integral image of the squared luma (sqsum, "
          "guint64), for variances", DEFAULT_SQUARED, G_PARAM_READWRITE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class,
      "OpenCL integral image", "Filter/Analyzer/Video",
      "Attaches the integral image of the luma to every buffer, computed on "
      "an OpenCL device; the video passes through",
      "gstclfilters contributors");
  gst_cl_base_filter_class_add_pad_templates (filter_class,
      GST_VIDEO_CAPS_MAKE (FORMATS));

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_integral_set_info);
  filter_class->analyse = GST_DEBUG_FUNCPTR (gst_cl_integral_analyse);
}

static void
gst_cl_integral_init (GstClIntegral * self)
{
  self->squared = DEFAULT_SQUARED;
  self->planner = gst_cl_plan_attach (GST_ELEMENT (self), "clintegral", plans);
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
