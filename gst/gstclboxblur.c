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
#include "cl/gstclprogram.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_box_blur_debug);
#define GST_CAT_DEFAULT gst_cl_box_blur_debug

#define DEFAULT_DIAMETER 5
#define MAX_DIAMETER 255

#define FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, GRAY8, NV12, I420 }"

enum
{
  PROP_0,
  PROP_DIAMETER,
};

/* How the optimized kernels walk the image: CPUs take one pass up to
 * d = 31, a work-item sliding down a band of rows 512 bytes wide with its
 * column sums in private memory, adding them across in vectors of 16 bytes
 * (PoCL, 2 cores, 1080p RGBA kernel time: about 2.1 ms at d = 9 and 5 at 31,
 * against 8-10 for the two passes), and two passes along rows above, whose
 * caches follow one work-item; GPUs, whose warps want neighbouring
 * addresses, take at d = 3 one pass of 16 bytes by 4 rows a work-item with
 * neither local memory nor barriers; where the compiler takes PTX
 * (NVIDIA's), from d = 5 to 17, the same with each column summed down and
 * the column sums beside taken from the work-items beside in the warp by
 * shuffles; one pass down blocks of 16-byte columns built for the radius,
 * from d = 7 (19 after the warps) to 31, summing across the block from
 * local memory with the work-items' totals; with PTX from d = 33, the
 * same down wider blocks, starting each window from sums of 8 rows a
 * kernel before gave, summing across as differences of prefix sums, its
 * rows copied two steps ahead where the device has asynchronous copies;
 * one pass down strips of columns, summing d column sums across from local
 * memory, for the other diameters up to 21; and two passes of column runs
 * stored through a transposing local tile above, whose cost does not grow
 * with d (H100, 4K RGBA, kernel ms at d = 3 / 9 / 17 / 31 / 51 / 101:
 * small 0.038; warps 0.037 (d = 5), 0.046, 0.061; blocks 0.062, 0.067,
 * 0.080, 0.105, 0.173; scan -, -, 0.093 (before its copies ahead),
 * 0.090, 0.102; strips 0.055, 0.078, -, 0.165 (two passes), 0.164 (two
 * passes), 0.171 (two passes)). The kernels built for one radius are
 * built at negotiation for the diameter the stream starts with, and in the
 * background for a diameter changed while playing.
 * GST_CL_BOXBLUR_METHOD=small takes the small kernel at d = 3 and no
 * blocks, =warp the warps up to d = 17, =scan the scan at every diameter
 * it takes, to test them on any device. */
typedef enum
{
  BOX_BLUR_RUNS_ALONG_ROWS,
  BOX_BLUR_RUNS_TRANSPOSED,
  BOX_BLUR_STRIPS,
  BOX_BLUR_BANDS,
  BOX_BLUR_BLOCKS,
} BoxBlurMethod;

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
 * fewer than GROUPS_A_UNIT work-groups a compute unit; H100, 1080p RGBA,
 * d = 31: 0.029 ms with 8 rows, 0.032 with 16; 4K 0.087 and 0.080), and
 * the radii it takes by default: below, the strips are as fast (H100, 4K
 * RGBA: 0.055 ms at d = 3 for both); above, the two passes (0.17 ms at
 * d = 101, the blocks 0.19) */
#define ITEM 16
#define GROUP 64
#define GROUP_LARGE 128
#define LARGE_RADIUS 8
#define BLOCK_ROWS 16
#define BLOCK_FEW_ROWS 8
#define GROUPS_A_UNIT 4
#define BLOCKS_MIN_RADIUS 3
#define BLOCKS_MAX_RADIUS 15

/* boxblur_small: the radius it takes (H100, 4K RGBA, kernel ms at d = 3:
 * 0.038, the strips 0.055; at d = 5 neither its row sums nor column sums
 * beat the strips, 0.083-0.100 and 0.060-0.073 against 0.061) and the rows
 * a work-item takes (2 to 32 measured, 4 and 8 best) */
#define SMALL_MAX_RADIUS 1
#define SMALL_ROWS 4

/* boxblur_warp (devices that take PTX): the largest radius it takes by
 * default, the rows a work-item takes up to WARP_FEW_ROWS_RADIUS and above,
 * the work-items of a work-group. H100, 4K RGBA, kernel ms, rows 4 / 8 /
 * 16: d = 5 0.043 / 0.045 / 0.050, d = 7 0.047 / 0.049 / 0.054, d = 9
 * 0.051 / 0.050 / 0.057, d = 11 0.061 / 0.057 / 0.060 (a version
 * loading each row a row ahead, 3-11% slower than the kernel's 0.039,
 * 0.045, 0.048, 0.053 with rows 4 / 8 / 8 / 8); rows 8 at d = 13 0.056
 * and 17 0.063, against the blocks' 0.073 and 0.067. Since the rows
 * leaving the window come from local memory: d = 5 0.037, 7 0.042, 9
 * 0.046, 11 0.050, 13 0.054, 17 0.061 with 8 rows; 4 rows the same to
 * d = 9 and slower above, 16 slower at every d. The kernel takes up to
 * WARP_MAX_BYTES each side (four work-items): 16 pixels of 4 bytes;
 * by default up to WARP_MAX_RADIUS, where the scan takes over. */
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
 * warps are many. H100, kernel ms, one warp / 4 warps (2 / 8): 4K RGBA
 * d = 7 0.0385 / 0.0411 (0.0416 / 0.055), 9 0.0406 / 0.0430, 11 0.0464 /
 * 0.0466, 13 0.0497 / 0.0477, 17 0.0567 / 0.0508 (0.0531 / 0.069);
 * 1080p RGBA d = 9 0.0157 / 0.0148, 11 0.0184 / 0.0168; 4K NV12 d = 9
 * 0.0297 / 0.0243, 17 0.0380 / 0.0283 (72, 18, 16 and 8 warps a compute
 * unit). With 16 rows, 4 warps: 4K RGBA d = 7 0.0414, 9 0.0422, 11
 * 0.0456, 13 0.0460, 17 0.0484; 1080p d = 9 0.0169, NV12 d = 9 0.0312. */
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
 * short runs of rows cost little: H100, RGBA, kernel ms, rows 8 / 16 / 32
 * / 64: 4K d = 51 0.098 / 0.096 / 0.097 / 0.128, d = 101 0.115 / 0.111 /
 * 0.118 / 0.140; 1080p d = 101 0.038 / 0.037 / 0.051 / 0.075 (before the
 * sums, each run loaded its d rows: 32 rows at 4K, 16 at 1080p, d = 101
 * 0.132 and 0.058). With its rows copied ahead (SCAN_AHEAD), 16 rows still
 * lead: 4K d = 51 0.092 / 0.089 / 0.091 / 0.102, d = 101 0.110 / 0.102 /
 * 0.105 / 0.106; 1080p d = 101 0.038 / 0.036 / 0.045 / 0.060. */
#define SCAN_GROUP 128
#define SCAN_ROWS 16
#define SCAN_MIN_RADIUS 16
#define SUM_ROWS 8
/* the steps its rows are copied ahead of their use, where the copies are
 * asynchronous or emulated (-DSCAN_AHEAD) */
#define SCAN_AHEAD 2

/* the bytes of the build options of the kernels built for one radius */
#define ONE_RADIUS_OPTIONS 96

/* the bytes of a row a work-item of boxblur_band takes, the largest radius
 * it takes (its private sums keep 64 bytes each side) and the rows it
 * slides down */
#define BAND 512
#define BAND_MAX_RADIUS (GST_CL_BOX_BLUR_BAND_MAX_DIAMETER / 2)
#define BAND_ROWS 32

struct _GstClBoxBlur
{
  GstClBaseFilter parent;

  guint diameter;
  BoxBlurMethod method;
  gint run_override;            /* GST_CL_BOXBLUR_RUN, 0 when unset */
  gint group_override;          /* GST_CL_BOXBLUR_GROUP, 0 when unset */
  /* the radius the kernels built for one radius (the blocks, the small
   * kernel, the warps) are built for, -1 for none */
  gint built_radius;
  /* GST_CL_BOXBLUR_METHOD=blocks: the blocks at any radius; =small: the
   * small kernel, and no blocks */
  gboolean blocks_forced;
  gboolean small_only;
  /* GST_CL_BOXBLUR_METHOD=warp: the warps wherever they take the radius,
   * also at d = 3, on any device */
  gboolean warp_forced;
  /* GST_CL_BOXBLUR_METHOD=scan: the scan at every radius it takes, on any
   * device */
  gboolean scan_forced;
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

/* the local memory of boxblur_blocks: two rows of column sums and totals */
static gsize
blocks_local_mem (gint group)
{
  return 2 * (ITEM / 4 + 1) * (gsize) group *16;
}

static gint
floor_div (gint a, gint b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* boxblur_blocks' shape for @radius and @pstride bytes a pixel: the
 * work-items of a work-group and how many of them write (the others
 * compute the halo), or FALSE when the device cannot take it */
static gboolean
blocks_shape (GstClBoxBlur * self, gint radius, gint pstride, gint * group,
    gint * writers)
{
  GstClContext *ctx =
      gst_cl_base_filter_get_context (GST_CL_BASE_FILTER (self));
  gint ip;

  *group = self->group_override > 0 ? self->group_override :
      radius > LARGE_RADIUS ? GROUP_LARGE : GROUP;
  ip = ITEM / pstride;
  /* the work-items from the leftmost a window of ours reaches to the
   * rightmost, as K_FIRST and K_LAST in the kernel */
  *writers = *group - (floor_div (ip - 1 + radius, ip) -
      floor_div (-radius, ip));
  return *writers > 0
      && (gsize) * group <= gst_cl_context_get_caps (ctx)->max_work_group_size
      && blocks_local_mem (*group) <=
      gst_cl_context_get_caps (ctx)->local_mem_size;
}

/* the build options of the kernels for any radius (the strips, the bands,
 * the two passes), @pstride bytes a pixel */
#define PASSES_OPTIONS(buf, pstride) \
  g_snprintf ((buf), sizeof (buf), "-DCH=%d", (pstride))

/* The kernels built for one radius, whose indices known at build time keep
 * everything in registers. */
typedef enum
{
  ONE_RADIUS_NONE,
  ONE_RADIUS_SMALL,
  ONE_RADIUS_BLOCKS,
  ONE_RADIUS_WARP,
  ONE_RADIUS_SCAN,
} OneRadiusKernel;

static const gchar *const one_radius_names[] = {
  NULL, "boxblur_small", "boxblur_blocks", "boxblur_warp", "boxblur_scan"
};

/* the work-items each side of a writer of boxblur_scan that its windows
 * reach at @radius, as SCAN_LEFT + SCAN_RIGHT in the kernel */
static gint
scan_halo (gint radius, gint pstride)
{
  return (radius * pstride + pstride + 15) / 16 + (radius * pstride + 15) / 16;
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

/* The shape of boxblur_warp at @radius for a plane of @width x @height
 * pixels of @pstride bytes: the rows a work-item takes, and whether it
 * takes them by the device's asynchronous copies and in how many warps a
 * work-group then (1 or WARP_ASYNC_STACK; 0 for no copies). The copies
 * where the device has them, the work-items take at least WARP_ROWS rows
 * and local memory holds every row of a work-group's work-items; on an
 * H100 those of one warp gained 7-11% at 4K RGBA from d = 7 to 17 and
 * 5-15% on 4K NV12, and lost 4-5% at 1080p RGBA d = 11 and 2-7% with 4
 * rows (d = 5). The stack and its rows as WARP_STACK_WARPS and
 * WARP_LONG_RADIUS say. */
static void
warp_shape (GstClBoxBlur * self, GstClContext * ctx, gint radius,
    gint pstride, gint width, gint height, gint * rows, gint * stack)
{
  gint64 items = (width + ITEM / pstride - 1) / (ITEM / pstride);
  gint writers = warp_writers (radius, pstride);
  gint64 warps = (items + writers - 1) / writers * ((height + WARP_ROWS -
          1) / WARP_ROWS);
  gboolean few =
      warps <
      (gint64) WARP_STACK_WARPS * gst_cl_context_get_caps (ctx)->compute_units;

  /* a kernel unrolled over its rows, each in local memory: 4, 8, 16 or 32
   * (on PoCL, unrolled over 2 or 3 rows, it gave wrong sums) */
  *rows = radius <= WARP_FEW_ROWS_RADIUS ? WARP_FEW_ROWS :
      gst_cl_context_get_caps (ctx)->async_copy && !few
      && radius >= WARP_LONG_RADIUS ? WARP_LONG_ROWS : WARP_ROWS;
  if (self->run_override > 0)
    *rows = CLAMP (1 << g_bit_storage (MIN (self->run_override, 32) - 1), 4,
        32);
  *stack = 0;
  if (!gst_cl_context_get_caps (ctx)->async_copy || *rows < WARP_ROWS)
    return;
  /* GST_CL_BOXBLUR_GROUP=32 or 128 forces one warp or the stack */
  *stack = (self->group_override > 0 ?
      self->group_override > WARP_ASYNC_GROUP : few ||
      radius >= WARP_LONG_RADIUS) ? WARP_ASYNC_STACK : 1;
  if (*stack > 1 && WARP_LOCAL_MEM (radius, *stack, *rows) >
      gst_cl_context_get_caps (ctx)->local_mem_size)
    *stack = 1;
  if (WARP_LOCAL_MEM (radius, *stack,
          *rows) > gst_cl_context_get_caps (ctx)->local_mem_size)
    *stack = 0;
}

/* the kernel built for one radius that serves @radius, once built */
static OneRadiusKernel
one_radius_kernel (GstClBoxBlur * self, gint radius)
{
  gboolean nv_default;

  if (self->method != BOX_BLUR_BLOCKS || radius < 1 ||
      gst_cl_base_filter_get_variant (GST_CL_BASE_FILTER (self)) !=
      GST_CL_VARIANT_OPTIMIZED)
    return ONE_RADIUS_NONE;
  if (self->blocks_forced)
    return ONE_RADIUS_BLOCKS;
  /* the kernels of NVIDIA's GPUs, where no other is forced */
  nv_default =
      gst_cl_context_get_caps (gst_cl_base_filter_get_context
      (GST_CL_BASE_FILTER (self)))->nv_ptx && !self->small_only
      && !self->warp_forced;
  /* where the scan takes the radius at 4 bytes a pixel, it takes it at
   * fewer */
  if ((self->scan_forced || (nv_default && radius >= SCAN_MIN_RADIUS)) &&
      scan_halo (radius, 4) <= 31)
    return ONE_RADIUS_SCAN;
  if (radius <= SMALL_MAX_RADIUS && !self->warp_forced)
    return ONE_RADIUS_SMALL;
  if ((self->warp_forced || nv_default) && radius <= WARP_MAX_RADIUS)
    return ONE_RADIUS_WARP;
  if (!self->small_only && radius >= BLOCKS_MIN_RADIUS &&
      radius <= BLOCKS_MAX_RADIUS)
    return ONE_RADIUS_BLOCKS;
  return ONE_RADIUS_NONE;
}

/* the build options of @kind for @radius and @pstride bytes a pixel, and
 * for the blocks their work-items a work-group and how many of them write;
 * FALSE where the device cannot take it */
static gboolean
one_radius_options (GstClBoxBlur * self, OneRadiusKernel kind, gint radius,
    gint pstride, gint width, gint height, gchar options[ONE_RADIUS_OPTIONS],
    gint * group, gint * writers)
{
  GstClContext *ctx =
      gst_cl_base_filter_get_context (GST_CL_BASE_FILTER (self));

  /* the warps' and the scan's shuffles: NVIDIA's, or through local memory
   * where a test forces them */
  if (kind == ONE_RADIUS_WARP) {
    gint rows, stack;

    warp_shape (self, ctx, radius, pstride, width, height, &rows, &stack);

    g_snprintf (options, ONE_RADIUS_OPTIONS,
        "-DCH=%d -DWARP_RADIUS=%d -DROWS=%d %s", pstride, radius, rows,
        gst_cl_context_get_caps (ctx)->nv_ptx ? "-DNV_PTX" : "-DWARP_EMULATED");
    if (stack > 0)
      g_snprintf (options + strlen (options),
          ONE_RADIUS_OPTIONS - strlen (options), " -DASYNC_COPY=%d", stack);
    return TRUE;
  }
  if (kind == ONE_RADIUS_SMALL) {
    g_snprintf (options, ONE_RADIUS_OPTIONS,
        "-DCH=%d -DSMALL_RADIUS=%d -DROWS=%d", pstride, radius, SMALL_ROWS);
    return TRUE;
  }
  if (kind == ONE_RADIUS_SCAN) {
    /* the ring of rows copied ahead, where the copies are asynchronous or
     * emulated */
    gboolean ring = gst_cl_context_get_caps (ctx)->async_copy
        || !gst_cl_context_get_caps (ctx)->nv_ptx;

    *group = self->group_override > 0 ?
        GST_ROUND_UP_32 (self->group_override) : SCAN_GROUP;
    *writers = *group - scan_halo (radius, pstride);
    /* two rows of prefix sums in four words of 16 bytes, the warps'
     * totals, the shuffles' where there are none, and the ring (SCAN_AHEAD
     * + 1 steps of two rows) */
    if ((gsize) * group > gst_cl_context_get_caps (ctx)->max_work_group_size ||
        (gsize) * group * 16 * (8 +
            (gst_cl_context_get_caps (ctx)->nv_ptx ? 0 : 1) +
            (ring ? 2 * (SCAN_AHEAD + 1) : 0)) + 2 * 16 * (*group / 32) >
        gst_cl_context_get_caps (ctx)->local_mem_size)
      return FALSE;
    g_snprintf (options, ONE_RADIUS_OPTIONS,
        "-DCH=%d -DSCAN_RADIUS=%d -DGROUP=%d %s%s", pstride, radius, *group,
        gst_cl_context_get_caps (ctx)->nv_ptx ? "-DNV_PTX" : "-DSCAN_EMULATED",
        gst_cl_context_get_caps (ctx)->async_copy ? " -DASYNC_COPY" : "");
    if (ring)
      g_snprintf (options + strlen (options),
          ONE_RADIUS_OPTIONS - strlen (options), " -DSCAN_AHEAD=%d",
          SCAN_AHEAD);
    return TRUE;
  }
  if (!blocks_shape (self, radius, pstride, group, writers))
    return FALSE;
  g_snprintf (options, ONE_RADIUS_OPTIONS, "-DCH=%d -DRADIUS=%d -DGROUP=%d",
      pstride, radius, *group);
  return TRUE;
}

static cl_kernel
one_radius_get_kernel (GstClBoxBlur * self, OneRadiusKernel kind,
    const gchar * options, GError ** error)
{
  return gst_cl_base_filter_get_kernel (GST_CL_BASE_FILTER (self),
      gst_cl_kernel_boxblur, options, one_radius_names[kind], error);
}

/* Whether @kind is built for @radius for every plane of @frame; what is
 * not is built in the background meanwhile. */
static gboolean
one_radius_ready (GstClBoxBlur * self, OneRadiusKernel kind,
    const GstClFrame * frame, gint radius)
{
  GstClContext *ctx =
      gst_cl_base_filter_get_context (GST_CL_BASE_FILTER (self));
  gboolean ready = TRUE;

  for (guint p = 0; p < frame->n_planes; p++) {
    gint group, writers;
    gchar options[ONE_RADIUS_OPTIONS];

    if (!one_radius_options (self, kind, radius, frame->planes[p].pstride,
            frame->planes[p].width, frame->planes[p].height, options, &group,
            &writers))
      return FALSE;
    /* every plane's asked for, so that all build at once */
    ready &= gst_cl_program_ready (ctx, gst_cl_kernel_boxblur, options);
  }
  return ready;
}

/**
 * gst_cl_box_blur_get_built_diameter:
 *
 * For tests: the diameter that a kernel built for one radius (the blocks,
 * the small kernel, the warps) serves now, as built at negotiation or in the
 * background after a change while playing; 0 for none.
 */
guint
gst_cl_box_blur_get_built_diameter (GstClBoxBlur * self)
{
  g_return_val_if_fail (GST_IS_CL_BOX_BLUR (self), 0);

  return self->built_radius >= 0 ? 2 * self->built_radius + 1 : 0;
}

/* Rows or columns one work-item slides over: enough to amortize the d loads
 * that start the window, few enough to keep every compute unit busy.
 * GST_CL_BOXBLUR_RUN overrides it, for tuning. */
static gint
items_per_run (GstClBoxBlur * self, guint radius)
{
  gboolean transposed = self->method == BOX_BLUR_RUNS_TRANSPOSED ||
      self->method == BOX_BLUR_STRIPS || self->method == BOX_BLUR_BLOCKS;

  if (self->run_override > 0)
    return transposed ? GST_ROUND_UP_32 (self->run_override) :
        self->run_override;
  if (transposed)
    return CLAMP (GST_ROUND_UP_32 (2 * radius + 1), 64, 256);
  return CLAMP (GST_ROUND_UP_16 (4 * radius + 1), 32, 512);
}

/* GST_CL_BOXBLUR_METHOD=rows|transposed|strips|bands|blocks|small|warp|scan,
 * GST_CL_BOXBLUR_RUN=N (rows a run, a strip, a band, a block or a warp's
 * work-item, there 4, 8, 16 or 32) and
 * GST_CL_BOXBLUR_GROUP=N (work-items a block or the scan's work-group;
 * with the warps' asynchronous copies, 32 for one warp a work-group and
 * more for a stack of them) override the choices, to compare; read once
 * per negotiation, not per frame. */
static gboolean
gst_cl_box_blur_set_info (GstClBaseFilter * base, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GError ** error)
{
  GstClBoxBlur *self = GST_CL_BOX_BLUR (base);
  GstClContext *ctx = gst_cl_base_filter_get_context (base);
  const gchar *env = g_getenv ("GST_CL_BOXBLUR_METHOD");
  const gchar *run = g_getenv ("GST_CL_BOXBLUR_RUN");
  const gchar *group = g_getenv ("GST_CL_BOXBLUR_GROUP");

  if (env && g_str_equal (env, "rows"))
    self->method = BOX_BLUR_RUNS_ALONG_ROWS;
  else if (env && g_str_equal (env, "transposed"))
    self->method = BOX_BLUR_RUNS_TRANSPOSED;
  else if (env && g_str_equal (env, "bands"))
    self->method = BOX_BLUR_BANDS;
  else if (env && g_str_equal (env, "strips"))
    self->method = BOX_BLUR_STRIPS;
  else if (env && (g_str_equal (env, "blocks") || g_str_equal (env, "small")
          || g_str_equal (env, "warp") || g_str_equal (env, "scan")))
    self->method = BOX_BLUR_BLOCKS;
  else if (gst_cl_context_get_caps (ctx)->type & CL_DEVICE_TYPE_CPU)
    self->method = BOX_BLUR_BANDS;
  else if (gst_cl_context_get_caps (ctx)->max_work_group_size >= GROUP_LARGE &&
      gst_cl_context_get_caps (ctx)->local_mem_size >=
      blocks_local_mem (GROUP_LARGE))
    self->method = BOX_BLUR_BLOCKS;
  else
    self->method = BOX_BLUR_RUNS_TRANSPOSED;
  self->run_override = run ? CLAMP (g_ascii_strtoll (run, NULL, 10), 0,
      G_MAXINT) : 0;
  self->group_override = group ? CLAMP (g_ascii_strtoll (group, NULL, 10),
      0, G_MAXINT) : 0;
  GST_DEBUG_OBJECT (self, "optimized kernels: %s",
      self->method == BOX_BLUR_RUNS_ALONG_ROWS ? "runs along rows" :
      self->method == BOX_BLUR_STRIPS ? "strips" :
      self->method == BOX_BLUR_BANDS ? "bands" :
      self->method == BOX_BLUR_BLOCKS ? "blocks" : "transposed runs");

  /* the kernels built for one radius take a second or two each on an H100:
   * built here for the diameter the stream starts with, so that no frame
   * waits for them; a diameter changed while playing takes the strips or
   * the two passes, which take any, until its own is built in the
   * background (see gst_cl_box_blur_dispatch) */
  self->built_radius = -1;
  self->blocks_forced = env && g_str_equal (env, "blocks");
  self->small_only = env && g_str_equal (env, "small");
  self->warp_forced = env && g_str_equal (env, "warp");
  self->scan_forced = env && g_str_equal (env, "scan");
  if (self->method == BOX_BLUR_BLOCKS) {
    OneRadiusKernel kind;
    gint radius, group, writers;
    gboolean fits = TRUE;

    GST_OBJECT_LOCK (self);
    radius = self->diameter / 2;
    GST_OBJECT_UNLOCK (self);
    kind = one_radius_kernel (self, radius);
    for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (in_info); c++) {
      gint pstride = GST_VIDEO_INFO_COMP_PSTRIDE (in_info, c);
      gchar options[ONE_RADIUS_OPTIONS];

      /* and the strips and the two passes, in the background, for a
       * diameter changed while playing */
      PASSES_OPTIONS (options, pstride);
      gst_cl_program_ready (ctx, gst_cl_kernel_boxblur, options);
      if (kind == ONE_RADIUS_NONE || !fits)
        continue;
      fits = one_radius_options (self, kind, radius, pstride,
          GST_VIDEO_INFO_COMP_WIDTH (in_info, c),
          GST_VIDEO_INFO_COMP_HEIGHT (in_info, c), options, &group, &writers);
      if (fits && !one_radius_get_kernel (self, kind, options, error))
        return FALSE;
    }
    if (kind != ONE_RADIUS_NONE && fits)
      self->built_radius = radius;
  }
  return TRUE;
}

static gboolean
blur_plane_reference (GstClBaseFilter * base, const GstClPlane * in,
    const GstClPlane * out, gint radius, GError ** error)
{
  gchar options[32];
  cl_kernel k;
  gsize global[2] = { in->width, in->height };

  PASSES_OPTIONS (options, in->pstride);
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_boxblur, options,
      "boxblur_reference", error);
  return k && gst_cl_kernel_set_args (k, error, 7, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height), GST_CL_ARG (radius)) &&
      gst_cl_base_filter_enqueue_kernel (base, k, 2, global, NULL, error);
}

/* One pass down strips of STRIP columns, STRIP_ROWS rows a work-group, or
 * bands of BAND bytes, BAND_ROWS rows a work-item. */
static gboolean
blur_plane_one_pass (GstClBoxBlur * self, const GstClPlane * in,
    const GstClPlane * out, gint radius, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gboolean bands = self->method == BOX_BLUR_BANDS;
  gint rows = self->run_override > 0 ? self->run_override :
      bands ? BAND_ROWS : STRIP_ROWS;
  gint out_w = STRIP - 2 * radius;
  guint d = 2 * radius + 1, n = d * d, magic, shift;
  gsize local[2] = { bands ? 1 : STRIP, 1 };
  gsize global[2] = { bands ?
        (gsize) (in->width * in->pstride + BAND - 1) / BAND :
        (gsize) (in->width + out_w - 1) / out_w * STRIP,
    (gsize) (in->height + rows - 1) / rows
  };
  gchar options[32];
  cl_kernel k;

  gst_cl_box_blur_divisor (n, &magic, &shift);
  PASSES_OPTIONS (options, in->pstride);
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_boxblur, options,
      bands ? "boxblur_band" : "boxblur_strip", error);
  return k && gst_cl_kernel_set_args (k, error, 11, GST_CL_ARG (in->mem),
      GST_CL_ARG (in->stride), GST_CL_ARG (out->mem), GST_CL_ARG (out->stride),
      GST_CL_ARG (in->width), GST_CL_ARG (in->height), GST_CL_ARG (radius),
      GST_CL_ARG (rows), GST_CL_ARG (n), GST_CL_ARG (magic),
      GST_CL_ARG (shift)) &&
      gst_cl_base_filter_enqueue_kernel (base, k, 2, global, local, error);
}

/* One pass for the small radii, work-items of ITEM bytes and @kind's
 * rows, the kernel built for the radius: the small kernel, or the warps,
 * whose first and last work-items compute for their neighbours. */
static gboolean
blur_plane_small (GstClBoxBlur * self, OneRadiusKernel kind,
    const GstClPlane * in, const GstClPlane * out, gint radius,
    const gchar * options, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gboolean warp = kind == ONE_RADIUS_WARP;
  gint ip = ITEM / in->pstride, items = (in->width + ip - 1) / ip;
  gint rows = SMALL_ROWS, stack = 0;
  guint d = 2 * radius + 1, n = d * d, magic, shift;
  gsize local[2] = { WARP_GROUP, 1 };
  gsize global[2] = { items, (gsize) (in->height + rows - 1) / rows };
  cl_kernel k;

  if (warp) {
    gint writers = warp_writers (radius, in->pstride);

    /* as one_radius_options() built it for */
    warp_shape (self, gst_cl_base_filter_get_context (base), radius,
        in->pstride, in->width, in->height, &rows, &stack);
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
  k = one_radius_get_kernel (self, kind, options, error);
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
blur_plane_blocks (GstClBoxBlur * self, OneRadiusKernel kind,
    const GstClPlane * in, const GstClPlane * out, gint radius,
    const gchar * options, gint group, gint writers, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gboolean scan = kind == ONE_RADIUS_SCAN;
  gint rows = scan ? SCAN_ROWS : BLOCK_ROWS;
  gint ip = ITEM / in->pstride;
  gint items = (in->width + ip - 1) / ip;
  gsize across = (gsize) (items + writers - 1) / writers;
  guint d = 2 * radius + 1, n = d * d, magic, shift;
  gsize local[2] = { group, 1 };
  gsize global[2];
  cl_kernel k;

  if (!scan && across * ((in->height + rows - 1) / rows) < GROUPS_A_UNIT *
      gst_cl_context_get_caps (gst_cl_base_filter_get_context
          (base))->compute_units)
    rows = BLOCK_FEW_ROWS;
  if (self->run_override > 0)
    rows = scan ? GST_ROUND_UP_N (self->run_override, SUM_ROWS) :
        self->run_override;
  global[0] = across * group;
  global[1] = (in->height + rows - 1) / rows;
  gst_cl_box_blur_divisor (n, &magic, &shift);
  k = one_radius_get_kernel (self, kind, options, error);
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

static gboolean
blur_plane_optimized (GstClBoxBlur * self, const GstClPlane * in,
    const GstClPlane * out, gint radius, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gboolean transposed = self->method == BOX_BLUR_RUNS_TRANSPOSED ||
      self->method == BOX_BLUR_STRIPS || self->method == BOX_BLUR_BLOCKS;
  gint row_bytes = in->width * in->pstride;
  /* in elements of the tmp buffer: ushort along rows, pixels transposed */
  gint tmp_stride = transposed ? in->height : GST_ROUND_UP_4 (row_bytes);
  gint extent = transposed ? in->width : tmp_stride / 4;
  /* what pass 1 walks across: pixels when transposed, bytes along rows */
  gint vsum_width = transposed ? in->width : row_bytes;
  gsize tmp_size = (transposed ? (gsize) row_bytes * in->height :
      (gsize) tmp_stride * in->height) * sizeof (guint16);
  gint run = items_per_run (self, radius);
  guint d = 2 * radius + 1, n = d * d, magic, shift;
  gchar options[32];
  cl_kernel vsum, hsum;
  cl_mem tmp;
  gsize tile[2] = { 32, 1 };
  gsize vglobal[2] = { extent, (in->height + run - 1) / run };
  gsize hglobal[2] = { transposed ? in->height : (in->width + run - 1) / run,
    transposed ? (in->width + run - 1) / run : in->height
  };

  gst_cl_box_blur_divisor (n, &magic, &shift);
  PASSES_OPTIONS (options, in->pstride);
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
  gboolean reference =
      gst_cl_base_filter_get_variant (base) == GST_CL_VARIANT_REFERENCE;
  /* the strips, also for a diameter the blocks were not built for */
  gboolean strips = self->method == BOX_BLUR_STRIPS ||
      (self->method == BOX_BLUR_BLOCKS &&
      gst_cl_context_get_caps (gst_cl_base_filter_get_context
          (base))->max_work_group_size >= STRIP);
  OneRadiusKernel kind;
  gint radius;
  guint p;

  GST_OBJECT_LOCK (self);
  radius = self->diameter / 2;
  GST_OBJECT_UNLOCK (self);

  /* a diameter changed while playing: its kernel built for one radius from
   * the first frame after its background build */
  kind = one_radius_kernel (self, radius);
  if (kind != ONE_RADIUS_NONE && radius != self->built_radius &&
      one_radius_ready (self, kind, in, radius)) {
    GST_DEBUG_OBJECT (self, "%s for diameter %d ready",
        one_radius_names[kind], 2 * radius + 1);
    self->built_radius = radius;
  }

  for (p = 0; p < in->n_planes; p++) {
    gint group = 0, writers = 0;
    gchar options[ONE_RADIUS_OPTIONS];
    gboolean ok;

    if (reference)
      ok = blur_plane_reference (base, &in->planes[p], &out->planes[p],
          radius, error);
    else if (kind != ONE_RADIUS_NONE && radius == self->built_radius &&
        one_radius_options (self, kind, radius, in->planes[p].pstride,
            in->planes[p].width, in->planes[p].height, options, &group,
            &writers))
      ok = kind == ONE_RADIUS_BLOCKS || kind == ONE_RADIUS_SCAN ?
          blur_plane_blocks (self, kind, &in->planes[p], &out->planes[p],
          radius, options, group, writers, error) :
          blur_plane_small (self, kind, &in->planes[p], &out->planes[p],
          radius, options, error);
    else if ((strips && radius <= STRIP_MAX_RADIUS) ||
        (self->method == BOX_BLUR_BANDS && radius <= BAND_MAX_RADIUS))
      ok = blur_plane_one_pass (self, &in->planes[p], &out->planes[p],
          radius, error);
    else
      ok = blur_plane_optimized (self, &in->planes[p], &out->planes[p],
          radius, error);
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
}
