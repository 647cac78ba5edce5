/* gstclfilters: clboxblur's kernel plans: which kernels run on which
 * device, and their shapes
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The plans of gstclboxblur-plans.h as a table for the planner
 * (cl/gstclplan.h): what each takes and prefers, its build options and
 * the shapes of its work-groups, which gstclboxblur.c's dispatch enqueues.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclboxblur-plans.h"
#include "gstclkernels.h"

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

void
gst_cl_box_blur_settings_from_frame (BoxBlurSettings * s, gint radius,
    const GstClFrame * frame)
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
gboolean
gst_cl_box_blur_blocks_shape (const GstClPlanQuery * q, gint * group,
    gint * writers)
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

/* boxblur_scan's shape for @q's radius and part, as gst_cl_box_blur_blocks_shape() */
gboolean
gst_cl_box_blur_scan_shape (const GstClPlanQuery * q, gint * group,
    gint * writers)
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
gint
gst_cl_box_blur_warp_writers (gint radius, gint pstride)
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
void
gst_cl_box_blur_warp_shape (const GstClPlanQuery * q, gint * rows, gint * stack)
{
  const BoxBlurSettings *s = q->settings;
  gint radius = s->radius, pstride = s->planes[q->part].pstride;
  gint width = s->planes[q->part].width, height = s->planes[q->part].height;
  gint64 items = (width + ITEM / pstride - 1) / (ITEM / pstride);
  gint writers = gst_cl_box_blur_warp_writers (radius, pstride);
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
      gst_cl_box_blur_scan_shape (q, &group, &writers);
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

  return radius_of (q) >= 1
      && gst_cl_box_blur_blocks_shape (q, &group, &writers);
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

void
gst_cl_box_blur_warp_options (const GstClPlanQuery * q, gchar * options,
    gsize size)
{
  gint rows, stack, n;

  gst_cl_box_blur_warp_shape (q, &rows, &stack);
  n = g_snprintf (options, size, "-DCH=%d -DWARP_RADIUS=%d -DROWS=%d %s",
      pstride_of (q), radius_of (q), rows,
      q->caps->nv_ptx ? "-DNV_PTX" : "-DWARP_EMULATED");
  if (stack > 0)
    g_snprintf (options + n, size - n, " -DASYNC_COPY=%d", stack);
}

void
gst_cl_box_blur_scan_options (const GstClPlanQuery * q, gchar * options,
    gsize size)
{
  gint group, writers, n;

  gst_cl_box_blur_scan_shape (q, &group, &writers);
  n = g_snprintf (options, size, "-DCH=%d -DSCAN_RADIUS=%d -DGROUP=%d %s%s",
      pstride_of (q), radius_of (q), group,
      q->caps->nv_ptx ? "-DNV_PTX" : "-DSCAN_EMULATED",
      q->caps->async_copy ? " -DASYNC_COPY" : "");
  if (q->caps->async_copy || !q->caps->nv_ptx)
    g_snprintf (options + n, size - n, " -DSCAN_AHEAD=%d", SCAN_AHEAD);
}

void
gst_cl_box_blur_blocks_options (const GstClPlanQuery * q, gchar * options,
    gsize size)
{
  gint group, writers;

  gst_cl_box_blur_blocks_shape (q, &group, &writers);
  g_snprintf (options, size, "-DCH=%d -DRADIUS=%d -DGROUP=%d",
      pstride_of (q), radius_of (q), group);
}

/* In the order they are tried. The tunables: run, the rows a run, a strip,
 * a band, a block or a warp's work-item takes (there 4, 8, 16 or 32);
 * group, the work-items of a block's or the scan's work-group, or with the
 * warps' asynchronous copies 32 for one warp a work-group and more for a
 * stack of them. */
const GstClPlan gst_cl_box_blur_plans[] = {
  {"scan", PLAN_SCAN, scan_takes, scan_prefers, gst_cl_kernel_boxblur,
        "boxblur_scan", gst_cl_box_blur_scan_options,
        GST_CL_PLAN_BUILT_FOR_SETTINGS,
      "run,group"},
  {"small", PLAN_SMALL, small_takes, gpu_prefers, gst_cl_kernel_boxblur,
      "boxblur_small", small_options, GST_CL_PLAN_BUILT_FOR_SETTINGS, NULL},
  {"warp", PLAN_WARP, warp_takes, warp_prefers, gst_cl_kernel_boxblur,
        "boxblur_warp", gst_cl_box_blur_warp_options,
        GST_CL_PLAN_BUILT_FOR_SETTINGS,
      "run,group"},
  {"blocks", PLAN_BLOCKS, blocks_takes, blocks_prefers, gst_cl_kernel_boxblur,
        "boxblur_blocks", gst_cl_box_blur_blocks_options,
        GST_CL_PLAN_BUILT_FOR_SETTINGS,
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
gint
gst_cl_box_blur_items_per_run (const GstClPlanQuery * q, guint radius)
{
  gboolean transposed = q->plan->id == PLAN_TRANSPOSED;
  gint run = gst_cl_plan_get_int (q, "run", 0);

  if (run > 0)
    return transposed ? GST_ROUND_UP_32 (run) : run;
  if (transposed)
    return CLAMP (GST_ROUND_UP_32 (2 * radius + 1), 64, 256);
  return CLAMP (GST_ROUND_UP_16 (4 * radius + 1), 32, 512);
}
