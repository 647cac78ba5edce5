/* gstclfilters: clboxblur's kernel plans, between gstclboxblur.c and
 * gstclboxblur-plans.c
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "cl/gstclbasefilter.h"
#include "cl/gstclplan.h"

G_BEGIN_DECLS

void gst_cl_box_blur_divisor (guint n, guint * magic, guint * shift);

/* the largest diameter boxblur_band (kernels/boxblur.cl) divides by in
 * single precision; beyond, it multiplies by gst_cl_box_blur_divisor()'s */
#define GST_CL_BOX_BLUR_BAND_FLOAT_MAX_DIAMETER 31

#define MAX_DIAMETER 255

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

/* the plans, for gst_cl_plan_attach(), ended by an empty one */
extern const GstClPlan gst_cl_box_blur_plans[];

void gst_cl_box_blur_settings_from_frame (BoxBlurSettings * s, gint radius, const GstClFrame * frame);

gboolean gst_cl_box_blur_blocks_shape (const GstClPlanQuery * q, gint * group, gint * writers);

gboolean gst_cl_box_blur_scan_shape (const GstClPlanQuery * q, gint * group, gint * writers);

gint gst_cl_box_blur_warp_writers (gint radius, gint pstride);

void gst_cl_box_blur_warp_shape (const GstClPlanQuery * q, gint * rows, gint * stack);

void gst_cl_box_blur_warp_options (const GstClPlanQuery * q, gchar * options, gsize size);

void gst_cl_box_blur_scan_options (const GstClPlanQuery * q, gchar * options, gsize size);

void gst_cl_box_blur_blocks_options (const GstClPlanQuery * q, gchar * options, gsize size);

gint gst_cl_box_blur_items_per_run (const GstClPlanQuery * q, guint radius);

G_END_DECLS
