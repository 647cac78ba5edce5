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
#include "gstclkernels.h"
#include "cl/gstclplan.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_box_blur_debug);
#define GST_CAT_DEFAULT gst_cl_box_blur_debug

#define DEFAULT_DIAMETER 5
#define MAX_DIAMETER 255

#define FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, GRAY8, NV12, I420, YUY2, UYVY, YVYU }"

enum
{
  PROP_0,
  PROP_DIAMETER,
};

/* How the optimized kernels walk the image (the plans below; what each
 * gave on which device is in docs/clboxblur.md and
 * docs/benchmarks-journal.md). CPUs take one pass up to d = 31, a
 * work-item sliding down a band of rows with its column sums in private
 * memory, and two passes along rows above, whose caches follow one
 * work-item. GPUs, whose warps want neighbouring addresses, take kernels
 * built for the radius, which keep everything in registers: at d = 3 one
 * pass with neither local memory nor barriers; where the compiler takes
 * PTX (NVIDIA's), up to d = 31, the same with each column summed down and
 * the column sums beside taken from the work-items beside in the warp by
 * shuffles, and up to d = 121 the scan, whose windows start from sums of
 * rows a kernel before gave and sum across as differences of prefix sums;
 * elsewhere, from d = 7 to 31, one pass down blocks of 16-byte columns
 * summing across from local memory with the work-items' totals. Then one
 * pass down strips of columns, summing d column sums across from local
 * memory, for the other diameters up to 21, and two passes of column runs
 * stored through a transposing local tile, whose cost does not grow with
 * d. The kernels built for one radius are built at negotiation for the
 * diameter the stream starts with, and in the background for a diameter
 * changed while playing, the strips or the two passes serving meanwhile. */
typedef enum
{
  PLAN_SCAN,
  PLAN_SMALL,
  PLAN_WARP,
  PLAN_BLOCKS,
  PLAN_STRIPS,
  PLAN_BANDS,
  PLAN_TRANSPOSED,
  PLAN_ROWS,
} BoxBlurPlan;

/* the work-group of boxblur_strip (kernels/boxblur.cl), of which 2 radius
 * columns are shared with the strips beside, and the largest radius it
 * takes; rows a work-group of it slides down (more starve an H100 of
 * work-groups at 1080p, fewer repeat the d loads that start a window) */
#define STRIP 256
#define STRIP_MAX_RADIUS 10
#define STRIP_ROWS 16

/* boxblur_blocks: the bytes of a row a work-item takes, the work-items of
 * a work-group, GROUP_LARGE above LARGE_RADIUS, the rows a work-group
 * slides down (fewer repeat the window's start, more leave an H100 short
 * of work-groups at 1080p: BLOCK_FEW_ROWS where BLOCK_ROWS would leave
 * fewer than GROUPS_A_UNIT work-groups a compute unit), and the radii it
 * takes by default: below, the strips are as fast; above, the two passes
 * are faster (docs/clboxblur.md) */
#define ITEM 16
#define GROUP 64
#define GROUP_LARGE 128
#define LARGE_RADIUS 8
#define BLOCK_ROWS 16
#define BLOCK_FEW_ROWS 8
#define GROUPS_A_UNIT 4
#define BLOCKS_MIN_RADIUS 3
#define BLOCKS_MAX_RADIUS 15

/* boxblur_small: the radius it takes (from d = 5 neither its row sums nor
 * its column sums beat the strips) and the rows a work-item takes (4 and 8
 * measured best) */
#define SMALL_MAX_RADIUS 1
#define SMALL_ROWS 4

/* boxblur_warp (devices that take PTX): the rows a work-item takes up to
 * WARP_FEW_ROWS_RADIUS and above, the work-items of a work-group. The
 * kernel takes up to WARP_MAX_BYTES each side (four work-items): 16 pixels
 * of 4 bytes; by default up to WARP_MAX_RADIUS, where the scan takes over
 * (the rows measured, docs/benchmarks-journal.md#d--5-to-11-the-warps). */
#define WARP_MAX_BYTES 64
#define WARP_MAX_RADIUS 15
/* every format's pixels are at most 4 bytes */
G_STATIC_ASSERT (WARP_MAX_RADIUS * 4 <= WARP_MAX_BYTES);
#define WARP_FEW_ROWS_RADIUS 2
#define WARP_FEW_ROWS 4
#define WARP_ROWS 8
#define WARP_GROUP 64
/* With the asynchronous copies, work-groups of one warp, whose copies run
 * ahead of its rows, or of WARP_ASYNC_STACK warps one above the other,
 * which copy their rows once for all (the rows each warp's window starts
 * with are the rows of the warp above): the stack where a plane has fewer
 * than WARP_STACK_WARPS warps of WARP_ROWS rows a compute unit, and from
 * WARP_LONG_RADIUS, there with WARP_LONG_ROWS rows a warp where the
 * warps are many (docs/benchmarks-journal.md#the-warps-one-above-the-other). */
#define WARP_ASYNC_GROUP 32
#define WARP_ASYNC_STACK 4
#define WARP_STACK_WARPS 32
#define WARP_LONG_RADIUS 5
#define WARP_LONG_ROWS 16

/* boxblur_scan (devices that take PTX): the work-items of a work-group,
 * the rows it slides down, and the smallest radius it takes by default;
 * it takes any radius whose windows span fewer than 32 work-items, as
 * SCAN_LEFT and SCAN_RIGHT in the kernel. Its windows start from the sums
 * of SUM_ROWS rows (boxblur_block_sums, SUM_ROWS in the kernel), so that
 * short runs of rows cost little; 16 rows a run led with and without its
 * rows copied ahead (docs/benchmarks-journal.md#the-scans-rows-copied-ahead). */
#define SCAN_GROUP 128
#define SCAN_ROWS 16
#define SCAN_MIN_RADIUS 16
#define SUM_ROWS 8
/* the steps its rows are copied ahead of their use, where the copies are
 * asynchronous or emulated (-DSCAN_AHEAD) */
#define SCAN_AHEAD 2

/* the bytes of the build options of the kernels */
#define OPTIONS_SIZE 96

/* the bytes of a row a work-item of boxblur_band takes with direct sums,
 * the most with running sums, the largest radius it takes and the rows it
 * slides down with direct sums; the diameter from which it takes running
 * sums; what a work-item costs beyond its bytes, in bytes swept
 * (bands_split) */
#define BAND 512
#define MAX_BAND 8192           /* kernels/boxblur.cl's */
#define BAND_MAX_RADIUS (MAX_DIAMETER / 2)
#define BAND_ROWS 32
#define PREFIX_MIN_DIAMETER 9   /* kernels/boxblur.cl's */
#define BAND_ITEM_COST 65536.0

/* What the plans are chosen for: the radius, and each plane's pixels. */
typedef struct
{
  gint radius;
  guint n_planes;
  struct
  {
    gint pstride, width, height;
  } planes[GST_VIDEO_MAX_PLANES];
} BoxBlurSettings;

struct _GstClBoxBlur
{
  GstClBaseFilter parent;

  guint diameter;
  GstClPlanner *planner;
};

G_DEFINE_TYPE (GstClBoxBlur, gst_cl_box_blur, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clboxblur, "clboxblur", GST_RANK_NONE,
    GST_TYPE_CL_BOX_BLUR);

/**
 * gst_cl_box_blur_divisor:
 * @n: the divisor, d * d for an odd d <= 255
 * @magic: (out): multiplier
 * @shift: (out): right shift after the high word of the product
 *
 * floor (x / n) == mul_hi (x, magic) >> shift for every x < 2^24, with
 * shift = floor (log2 n) and magic = floor (2^(32+shift) / n) + 1: the error of
 * the multiplier is below x / 2^(32+shift) < 1/n, too little to reach the next
 * integer. n == 1 needs no division.
 */
void
gst_cl_box_blur_divisor (guint n, guint * magic, guint * shift)
{
  guint s = g_bit_nth_msf (n, -1);

  *shift = s;
  *magic = n > 1 ? (guint) (((guint64) 1 << (32 + s)) / n + 1) : 0;
}

static void
settings_from_frame (BoxBlurSettings * s, gint radius, const GstClFrame * frame)
{
  s->radius = radius;
  s->n_planes = frame->n_planes;
  for (guint p = 0; p < frame->n_planes; p++) {
    s->planes[p].pstride = frame->planes[p].pstride;
    s->planes[p].width = frame->planes[p].width;
    s->planes[p].height = frame->planes[p].height;
  }
}

static gint
radius_of (const GstClPlanQuery * q)
{
  return ((const BoxBlurSettings *) q->settings)->radius;
}

static gint
pstride_of (const GstClPlanQuery * q)
{
  return ((const BoxBlurSettings *) q->settings)->planes[q->part].pstride;
}

/* the local memory of boxblur_blocks: two rows of column sums and totals */
static gsize
blocks_local_mem (gint group)
{
  return 2 * (ITEM / 4 + 1) * (gsize) group *16;
}

/* the devices the kernels built for one radius and the strips are for:
 * not CPUs, with the blocks' largest work-groups and their local memory */
static gboolean
gpu_layout (const GstClDeviceCaps * caps)
{
  return !(caps->type & CL_DEVICE_TYPE_CPU) &&
      caps->max_work_group_size >= GROUP_LARGE &&
      caps->local_mem_size >= blocks_local_mem (GROUP_LARGE);
}

static gint
floor_div (gint a, gint b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* boxblur_blocks' shape for @q's radius and part: the work-items of a
 * work-group and how many of them write (the others compute the halo), or
 * FALSE when the device cannot take it */
static gboolean
blocks_shape (const GstClPlanQuery * q, gint * group, gint * writers)
{
  gint radius = radius_of (q), ip = ITEM / pstride_of (q);

  *group = gst_cl_plan_get_int (q, "group",
      radius > LARGE_RADIUS ? GROUP_LARGE : GROUP);
  /* the work-items from the leftmost a window of ours reaches to the
   * rightmost, as K_FIRST and K_LAST in the kernel */
  *writers = *group - (floor_div (ip - 1 + radius, ip) -
      floor_div (-radius, ip));
  return *writers > 0 && (gsize) * group <= q->caps->max_work_group_size &&
      blocks_local_mem (*group) <= q->caps->local_mem_size;
}

/* the work-items each side of a writer of boxblur_scan that its windows
 * reach at @radius, as SCAN_LEFT + SCAN_RIGHT in the kernel */
static gint
scan_halo (gint radius, gint pstride)
{
  return (radius * pstride + pstride + 15) / 16 + (radius * pstride + 15) / 16;
}

/* boxblur_scan's shape for @q's radius and part, as blocks_shape() */
static gboolean
scan_shape (const GstClPlanQuery * q, gint * group, gint * writers)
{
  /* the ring of rows copied ahead, where the copies are asynchronous or
   * emulated */
  gboolean ring = q->caps->async_copy || !q->caps->nv_ptx;

  *group = GST_ROUND_UP_32 (gst_cl_plan_get_int (q, "group", SCAN_GROUP));
  *writers = *group - scan_halo (radius_of (q), pstride_of (q));
  /* two rows of prefix sums in four words of 16 bytes, the warps'
   * totals, the shuffles' where there are none, and the ring (SCAN_AHEAD
   * + 1 steps of two rows) */
  return *writers > 0 && (gsize) * group <= q->caps->max_work_group_size &&
      (gsize) * group * 16 * (8 + (q->caps->nv_ptx ? 0 : 1) +
      (ring ? 2 * (SCAN_AHEAD + 1) : 0)) + 2 * 16 * (*group / 32) <=
      q->caps->local_mem_size;
}

/* the work-items of a warp of boxblur_warp that write at @radius and
 * @pstride bytes a pixel: all but those a window reaches at each end, as
 * in the kernel */
static gint
warp_writers (gint radius, gint pstride)
{
  return 32 - 2 * ((radius * pstride + 15) / 16);
}

/* the local memory of a work-group of boxblur_warp with the asynchronous
 * copies: every row its @stack warps of @rows rows take */
#define WARP_LOCAL_MEM(radius, stack, rows) \
  ((cl_ulong) (2 * (radius) + (stack) * (rows)) * WARP_ASYNC_GROUP * ITEM)

/* The shape of boxblur_warp for @q's radius and part: the rows a
 * work-item takes, and whether it takes them by the device's asynchronous
 * copies and in how many warps a work-group then (1 or WARP_ASYNC_STACK; 0
 * for no copies). The copies where the device has them, the work-items
 * take at least WARP_ROWS rows and local memory holds every row of a
 * work-group's work-items: they gained on 4K frames and lost a little at
 * 1080p and with 4 rows
 * (docs/benchmarks-journal.md#the-warps-rows-by-asynchronous-copies). The
 * stack and its rows as WARP_STACK_WARPS and WARP_LONG_RADIUS say; the
 * tunables run (4, 8, 16 or 32 rows) and group (32 for one warp a
 * work-group, more for the stack) override them. */
static void
warp_shape (const GstClPlanQuery * q, gint * rows, gint * stack)
{
  const BoxBlurSettings *s = q->settings;
  gint radius = s->radius, pstride = s->planes[q->part].pstride;
  gint width = s->planes[q->part].width, height = s->planes[q->part].height;
  gint64 items = (width + ITEM / pstride - 1) / (ITEM / pstride);
  gint writers = warp_writers (radius, pstride);
  gint64 warps = (items + writers - 1) / writers * ((height + WARP_ROWS -
          1) / WARP_ROWS);
  gboolean few = warps < (gint64) WARP_STACK_WARPS * q->caps->compute_units;
  gint run = gst_cl_plan_get_int (q, "run", 0);
  gint group = gst_cl_plan_get_int (q, "group", 0);

  /* a kernel unrolled over its rows, each in local memory: 4, 8, 16 or 32
   * (on PoCL, unrolled over 2 or 3 rows, it gave wrong sums) */
  *rows = radius <= WARP_FEW_ROWS_RADIUS ? WARP_FEW_ROWS :
      q->caps->async_copy && !few
      && radius >= WARP_LONG_RADIUS ? WARP_LONG_ROWS : WARP_ROWS;
  if (run > 0)
    *rows = CLAMP (1 << g_bit_storage (MIN (run, 32) - 1), 4, 32);
  *stack = 0;
  if (!q->caps->async_copy || *rows < WARP_ROWS)
    return;
  *stack = (group > 0 ? group > WARP_ASYNC_GROUP : few ||
      radius >= WARP_LONG_RADIUS) ? WARP_ASYNC_STACK : 1;
  if (*stack > 1 && WARP_LOCAL_MEM (radius, *stack, *rows) >
      q->caps->local_mem_size)
    *stack = 1;
  if (WARP_LOCAL_MEM (radius, *stack, *rows) > q->caps->local_mem_size)
    *stack = 0;
}

/* The plans' conditions. Forced, the kernels built for one radius take
 * any radius their shape takes, on any device: the warps' and the scan's
 * shuffles then go through local memory. */

static gboolean
scan_takes (const GstClPlanQuery * q)
{
  gint group, writers;

  /* where it takes the radius at 4 bytes a pixel, it takes it at fewer */
  return radius_of (q) >= 1 && scan_halo (radius_of (q), 4) <= 31 &&
      scan_shape (q, &group, &writers);
}

static gboolean
scan_prefers (const GstClPlanQuery * q)
{
  return gpu_layout (q->caps) && q->caps->nv_ptx &&
      radius_of (q) >= SCAN_MIN_RADIUS;
}

static gboolean
small_takes (const GstClPlanQuery * q)
{
  return radius_of (q) >= 1 && radius_of (q) <= SMALL_MAX_RADIUS;
}

static gboolean
gpu_prefers (const GstClPlanQuery * q)
{
  return gpu_layout (q->caps);
}

static gboolean
warp_takes (const GstClPlanQuery * q)
{
  return radius_of (q) >= 1 && radius_of (q) <= WARP_MAX_RADIUS;
}

static gboolean
warp_prefers (const GstClPlanQuery * q)
{
  return gpu_layout (q->caps) && q->caps->nv_ptx;
}

static gboolean
blocks_takes (const GstClPlanQuery * q)
{
  gint group, writers;

  return radius_of (q) >= 1 && blocks_shape (q, &group, &writers);
}

static gboolean
blocks_prefers (const GstClPlanQuery * q)
{
  return gpu_layout (q->caps) && radius_of (q) >= BLOCKS_MIN_RADIUS &&
      radius_of (q) <= BLOCKS_MAX_RADIUS;
}

static gboolean
strips_takes (const GstClPlanQuery * q)
{
  return radius_of (q) <= STRIP_MAX_RADIUS &&
      q->caps->max_work_group_size >= STRIP;
}

static gboolean
bands_takes (const GstClPlanQuery * q)
{
  return radius_of (q) <= BAND_MAX_RADIUS;
}

static gboolean
cpu_prefers (const GstClPlanQuery * q)
{
  return (q->caps->type & CL_DEVICE_TYPE_CPU) != 0;
}

static gboolean
not_cpu_prefers (const GstClPlanQuery * q)
{
  return !(q->caps->type & CL_DEVICE_TYPE_CPU);
}

/* The plans' build options, of @q's part (plane). The kernels built for
 * one radius keep their indices known at build time. */

static void
passes_options (const GstClPlanQuery * q, gchar * options, gsize size)
{
  g_snprintf (options, size, "-DCH=%d", pstride_of (q));
}

static void
small_options (const GstClPlanQuery * q, gchar * options, gsize size)
{
  g_snprintf (options, size, "-DCH=%d -DSMALL_RADIUS=%d -DROWS=%d",
      pstride_of (q), radius_of (q), SMALL_ROWS);
}

static void
warp_options (const GstClPlanQuery * q, gchar * options, gsize size)
{
  gint rows, stack, n;

  warp_shape (q, &rows, &stack);
  n = g_snprintf (options, size, "-DCH=%d -DWARP_RADIUS=%d -DROWS=%d %s",
      pstride_of (q), radius_of (q), rows,
      q->caps->nv_ptx ? "-DNV_PTX" : "-DWARP_EMULATED");
  if (stack > 0)
    g_snprintf (options + n, size - n, " -DASYNC_COPY=%d", stack);
}

static void
scan_options (const GstClPlanQuery * q, gchar * options, gsize size)
{
  gint group, writers, n;

  scan_shape (q, &group, &writers);
  n = g_snprintf (options, size, "-DCH=%d -DSCAN_RADIUS=%d -DGROUP=%d %s%s",
      pstride_of (q), radius_of (q), group,
      q->caps->nv_ptx ? "-DNV_PTX" : "-DSCAN_EMULATED",
      q->caps->async_copy ? " -DASYNC_COPY" : "");
  if (q->caps->async_copy || !q->caps->nv_ptx)
    g_snprintf (options + n, size - n, " -DSCAN_AHEAD=%d", SCAN_AHEAD);
}

static void
blocks_options (const GstClPlanQuery * q, gchar * options, gsize size)
{
  gint group, writers;

  blocks_shape (q, &group, &writers);
  g_snprintf (options, size, "-DCH=%d -DRADIUS=%d -DGROUP=%d",
      pstride_of (q), radius_of (q), group);
}

/* In the order they are tried. The tunables: run, the rows a run, a strip,
 * a band, a block or a warp's work-item takes (there 4, 8, 16 or 32);
 * group, the work-items of a block's or the scan's work-group, or with the
 * warps' asynchronous copies 32 for one warp a work-group and more for a
 * stack of them. */
static const GstClPlan plans[] = {
  {"scan", PLAN_SCAN, scan_takes, scan_prefers, gst_cl_kernel_boxblur,
        "boxblur_scan", scan_options, GST_CL_PLAN_BUILT_FOR_SETTINGS,
      "run,group"},
  {"small", PLAN_SMALL, small_takes, gpu_prefers, gst_cl_kernel_boxblur,
      "boxblur_small", small_options, GST_CL_PLAN_BUILT_FOR_SETTINGS, NULL},
  {"warp", PLAN_WARP, warp_takes, warp_prefers, gst_cl_kernel_boxblur,
        "boxblur_warp", warp_options, GST_CL_PLAN_BUILT_FOR_SETTINGS,
      "run,group"},
  {"blocks", PLAN_BLOCKS, blocks_takes, blocks_prefers, gst_cl_kernel_boxblur,
        "boxblur_blocks", blocks_options, GST_CL_PLAN_BUILT_FOR_SETTINGS,
      "run,group"},
  {"strips", PLAN_STRIPS, strips_takes, gpu_prefers, gst_cl_kernel_boxblur,
      "boxblur_strip", passes_options, GST_CL_PLAN_FALLBACK, "run"},
  {"bands", PLAN_BANDS, bands_takes, cpu_prefers, gst_cl_kernel_boxblur,
      "boxblur_band", passes_options, GST_CL_PLAN_NONE, "run"},
  {"transposed", PLAN_TRANSPOSED, NULL, not_cpu_prefers,
        gst_cl_kernel_boxblur, "boxblur_vsum_t", passes_options,
      GST_CL_PLAN_FALLBACK, "run"},
  {"rows", PLAN_ROWS, NULL, gst_cl_plan_always, gst_cl_kernel_boxblur,
      "boxblur_vsum", passes_options, GST_CL_PLAN_NONE, "run"},
  {NULL}
};

/* Rows or columns one work-item slides over: enough to amortize the d loads
 * that start the window, few enough to keep every compute unit busy. */
static gint
items_per_run (const GstClPlanQuery * q, guint radius)
{
  gboolean transposed = q->plan->id == PLAN_TRANSPOSED;
  gint run = gst_cl_plan_get_int (q, "run", 0);

  if (run > 0)
    return transposed ? GST_ROUND_UP_32 (run) : run;
  if (transposed)
    return CLAMP (GST_ROUND_UP_32 (2 * radius + 1), 64, 256);
  return CLAMP (GST_ROUND_UP_16 (4 * radius + 1), 32, 512);
}

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
  settings_from_frame (&settings, radius, &frame);
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
    gint writers = warp_writers (radius, in->pstride);

    /* as warp_options() built it for */
    warp_shape (q, &rows, &stack);
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

  /* as blocks_options() or scan_options() built it for */
  if (scan)
    scan_shape (q, &group, &writers);
  else
    blocks_shape (q, &group, &writers);
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
  gint run = items_per_run (q, radius);
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
  settings_from_frame (&settings, radius, in);
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
  self->planner = gst_cl_plan_attach (GST_ELEMENT (self), "clboxblur", plans);
}
