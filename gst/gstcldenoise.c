/* gstclfilters: cldenoise, a camera's noise reduced over time and space
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cldenoise
 * @title: cldenoise
 *
 * Reduces a live camera's noise in every plane, with no frame of latency:
 * each sample is the running mean, over the frames it has been still, of
 * an edge-preserving 3 x 3 mean of the present frame, and a wider (5 x 5)
 * one alone where it moved. The noise level, in 8-bit units, is measured
 * from the stream itself (#GstClDenoise:estimated-noise) and followed as it
 * changes, unless #GstClDenoise:noise-level sets it; #GstClDenoise:strength
 * smooths harder or softer than that level says. With
 * #GstClDenoise:motion it follows a camera that pans or moves, each block's
 * last outputs moved with the picture before they are averaged. Everything
 * it keeps starts afresh at a flushing seek, a DISCONT buffer, a gap, new
 * caps and READY. It takes the formats cameras give, and those jpegdec
 * makes of a webcam's MJPEG (Y42B, I420, Y444).
 * The formulas, integer throughout: docs/cldenoise.md.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw,format=YUY2 ! cldenoise ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldenoise.h"
#include "gstclkernels.h"
#include "cl/gstclplan.h"
#include "cl/gstclprogram.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_denoise_debug);
#define GST_CAT_DEFAULT gst_cl_denoise_debug

#define FORMATS "{ GRAY8, NV12, NV21, I420, YV12, Y42B, Y444, YUY2, UYVY, YVYU }"

#define DEFAULT_NOISE_LEVEL 0.0
#define DEFAULT_STRENGTH 1.0
#define DEFAULT_MOTION FALSE
#define MAX_NOISE_LEVEL 60.0
#define MAX_STRENGTH 4.0
/* the scratch buffers: what is kept from frame to frame, the histograms,
 * the estimate and the luma's sampled responses (kept too, on the device) */
#define KEPT 0
#define HISTOGRAM 1
#define ESTIMATE 2
#define RESPONSES 3
#define MOTION 4                /* and 5: the last frame's, and this one's */
#define MOVED 6
#define NEEDED 7
#define BINS 256
/* the motion's blocks, in luma samples, and the blocks a work-group of the
 * search takes on a GPU: the kernels' build options MB and SB */
#define MOTION_BLOCK 32
#define SEARCH_BLOCKS 4
/* the longest build options of a plan */
#define PLAN_OPTIONS 160

enum
{
  PROP_0,
  PROP_NOISE_LEVEL,
  PROP_STRENGTH,
  PROP_ESTIMATED_NOISE,
  PROP_MOTION,
};

struct _GstClDenoise
{
  GstClBaseFilter parent;

  gdouble noise_level;          /* 0: the estimate's; under the object lock */
  gdouble strength;             /* under the object lock */
  gboolean motion;              /* under the object lock */
  /* the estimate, in 1/16 of an 8-bit step; under the object lock */
  gint estimate16;
  /* what is kept starts afresh at the next frame (atomic) */
  gint reset;
  /* which of a plane's two places holds the last output (streaming
   * thread) */
  gboolean swapped;
  /* the last frame's motion, in scratch buffer MOTION + motion_at, where
   * it was searched: the next search starts from it (streaming thread) */
  gboolean searched;
  guint motion_at;
  /* the device's estimate, read back for estimated-noise alone, taken
   * once there, never waited for */
  gint32 estimate_read;
  /* the chroma planes' subsampling, 1: halved (streaming thread) */
  gint xsh, ysh;
  GstClPlanner *planner;
};

/* notified from the streaming thread where a new estimate arrives */
static GParamSpec *estimated_noise_pspec;

G_DEFINE_TYPE (GstClDenoise, gst_cl_denoise, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cldenoise, "cldenoise", GST_RANK_NONE,
    GST_TYPE_CL_DENOISE);

static void
reset_state (GstClDenoise * self)
{
  g_atomic_int_set (&self->reset, 1);
}

/* The kernels' plans (kernels/denoise.cl), one program each, its options
 * the work-item's shape: "vectors" for CPUs (16 samples of 8 rows a
 * work-item, in 16-bit vectors); "lanes" for GPUs (a sample of 16 rows,
 * neighbouring work-items reading neighbouring bytes together); "halves"
 * for NVIDIA's (two samples of 8 rows, their epsilon windows in packed
 * half floats, in PTX; elsewhere, forced, the same in integers). Tunables:
 * "samples" (1, 2, 4, 8 or 16; 2 in halves) and "rows" (1 to 64) a
 * work-item, and "registers" (the halves' cap, for NVIDIA's compiler). */
enum
{
  PLAN_HALVES,
  PLAN_LANES,
  PLAN_VECTORS,
};

/* The samples of a row each work-item of denoise_plane takes: 16, in
 * 16-bit vectors, on a CPU; one on a GPU, whose neighbouring work-items
 * then read neighbouring bytes together (on an H200, 16 decoded streams
 * ran at 0.74 - 0.75x the decoders' rate so, against 0.70 - 0.72x at 2
 * and 0.67x at 4 in integers: docs/benchmarks-journal.md); two in
 * halves, one in each half. */
static guint
plan_samples (const GstClPlanQuery * q)
{
  if (q->plan->id == PLAN_HALVES)
    return 2;
  return gst_cl_plan_get_int (q, "samples",
      q->plan->id == PLAN_VECTORS ? 16 : 1);
}

/* The rows each work-item of denoise_plane takes, one below the other: each
 * row's sums then serve the five windows that hold it. 8 on a CPU, whose
 * caches lost the rows of taller strips at 4K (PoCL: 23 ms a frame at 8,
 * 29 - 31 at 16 and more); 16 on a GPU; 8 in halves, whose registers are
 * capped (an H200: 0.054 ms a 1080p frame against 0.058 - 0.059 at 16,
 * and 0.148 at 4K either way). */
static guint
plan_rows (const GstClPlanQuery * q)
{
  return gst_cl_plan_get_int (q, "rows", q->plan->id == PLAN_LANES ? 16 : 8);
}

/* The rows of samples (every 8th row) each work-item of
 * denoise_histogram takes whole on a CPU, counting them in a histogram of
 * its own; 0 on a GPU, whose work-items take a sample each and count them
 * in their work-group's. A work-group's count in local memory cost PoCL
 * 0.4 ms more a 1080p frame, in its atomic additions
 * (docs/benchmarks-journal.md). */
static guint
plan_histogram_rows (const GstClPlanQuery * q)
{
  return q->plan->id == PLAN_VECTORS ? 16 : 0;
}

/* The registers a work-item of the plan "halves" may take, 16 to 255, as
 * NVIDIA's compiler is told (-cl-nv-maxrregcount): left to itself it took
 * 125, for 16 warps an SM; at 80 an H200 holds 24, and took 0.148 ms a 4K
 * NV12 frame against 0.162 (64, 72 and 88, and with the flat areas' rule
 * 96 and 104 too, were slower: docs/benchmarks-journal.md). */
static guint
plan_registers (const GstClPlanQuery * q)
{
  return gst_cl_plan_get_int (q, "registers", 80);
}

static gboolean
shape_takes (const GstClPlanQuery * q)
{
  guint px = plan_samples (q), ry = plan_rows (q), regs = plan_registers (q);

  return regs >= 16 && regs <= 255 && (px == 1 || px == 2
      || px == 4 || px == 8 || px == 16) && ry >= 1 && ry <= 64
      && (q->plan->id != PLAN_HALVES
      || gst_cl_plan_get_int (q, "samples", 2) == 2);
}

static gboolean
halves_prefers (const GstClPlanQuery * q)
{
  return (q->caps->type & CL_DEVICE_TYPE_GPU) && q->caps->nv_ptx;
}

static gboolean
gpu_prefers (const GstClPlanQuery * q)
{
  return (q->caps->type & CL_DEVICE_TYPE_GPU) != 0;
}

/* the build options of the plan's program, all its kernels: the plan's
 * and the motion's */
static void
denoise_options (const GstClPlanQuery * q, gchar * options, gsize size)
{
  gboolean nv_halves = q->plan->id == PLAN_HALVES && q->caps->nv_ptx;
  gchar regs[32] = "";

  if (nv_halves)
    g_snprintf (regs, sizeof (regs), " -cl-nv-maxrregcount=%u",
        plan_registers (q));
  g_snprintf (options, size, "-DPX=%u -DRY=%u -DHIST_ROWS=%u -DMB=%d "
      "-DSB=%d%s%s%s", plan_samples (q), plan_rows (q),
      plan_histogram_rows (q), MOTION_BLOCK, SEARCH_BLOCKS,
      q->plan->id == PLAN_HALVES ? " -DHALVES" : "",
      nv_halves ? " -DNV_PTX" : "", regs);
}

/* In the order they are tried */
static const GstClPlan plans[] = {
  {"halves", PLAN_HALVES, shape_takes, halves_prefers, gst_cl_kernel_denoise,
        "denoise_plane", denoise_options, GST_CL_PLAN_NONE,
      "samples,rows,registers"},
  {"lanes", PLAN_LANES, shape_takes, gpu_prefers, gst_cl_kernel_denoise,
      "denoise_plane", denoise_options, GST_CL_PLAN_NONE, "samples,rows"},
  {"vectors", PLAN_VECTORS, shape_takes, gst_cl_plan_always,
        gst_cl_kernel_denoise, "denoise_plane", denoise_options,
      GST_CL_PLAN_NONE, "samples,rows"},
  {NULL}
};

/* the program starts building now, in the background where the caps are
 * foreseen at READY to PAUSED (the base class's prebuild) */
static gboolean
gst_cl_denoise_set_info (GstClBaseFilter * base, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GError ** error)
{
  GstClDenoise *self = GST_CL_DENOISE (base);
  GstClContext *ctx = gst_cl_base_filter_get_context (base);
  GstClPlanQuery q;
  gchar options[PLAN_OPTIONS];

  gst_cl_plan_query_init (&q, self->planner, ctx, NULL, 1);
  gst_cl_plan_prepare (&q, NULL);
  gst_cl_plan_get_options (&q, 0, options, sizeof (options));
  GST_DEBUG_OBJECT (self, "plan %s: %s", q.plan->name, options);
  gst_cl_program_ready (ctx, gst_cl_kernel_denoise, options);
  self->xsh = GST_VIDEO_INFO_N_COMPONENTS (in_info) > 1 ?
      GST_VIDEO_FORMAT_INFO_W_SUB (in_info->finfo, 1) : 0;
  self->ysh = GST_VIDEO_INFO_N_COMPONENTS (in_info) > 1 ?
      GST_VIDEO_FORMAT_INFO_H_SUB (in_info->finfo, 1) : 0;
  reset_state (self);
  return TRUE;
}

/* The frame's noise, measured on the device: the histograms of @luma's
 * |L| and of its change since the last frame (unless @first), then the
 * estimate moved towards what they say (or set to it where @first), in
 * the estimate's scratch buffer, and beside it the level the other kernels
 * take: @level16 (-1 for none set: the estimate) times @gain / 256. */
static gboolean
estimate (GstClBaseFilter * base, const gchar * options, guint rows,
    const GstClPlane * luma, gboolean first, gint level16, gint gain,
    cl_mem * est, GError ** error)
{
  GstClPlane bins = { 0, };
  /* every 4th sample of every 8th row, off the border: a sample a
   * work-item, or their rows whole, @rows of them (HIST_ROWS) */
  gsize global[2] = { MAX (luma->width - 2 + 3, 0) / 4,
    MAX (luma->height - 2 + 7, 0) / 8
  };
  gsize bins_size = BINS;
  gint first_arg = first;
  cl_mem resp;
  cl_kernel hk, ek;

  if (rows > 0 && global[0] > 0) {
    global[0] = 1;
    global[1] = (global[1] + rows - 1) /rows;
  }

  bins.mem = gst_cl_base_filter_get_scratch (base, HISTOGRAM,
      2 * BINS * sizeof (guint32), error);
  /* the estimate, and the level the kernels take */
  *est = gst_cl_base_filter_get_scratch (base, ESTIMATE, 2 * sizeof (gint32),
      error);
  /* a response (16 bits) for each sample counted, at least one */
  resp = gst_cl_base_filter_get_scratch (base, RESPONSES, sizeof (gint16) *
      MAX ((luma->width + 1) / 4 * ((luma->height + 5) / 8), 1), error);
  if (!bins.mem || !*est || !resp)
    return FALSE;
  bins.width = 2 * BINS * sizeof (guint32);
  bins.pstride = 1;
  bins.stride = bins.width;
  bins.height = 1;
  hk = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_denoise, options,
      "denoise_histogram", error);
  ek = hk ? gst_cl_base_filter_get_kernel (base, gst_cl_kernel_denoise,
      options, "denoise_estimate", error) : NULL;
  /* denoise_estimate clears the histograms after it: a frame that starts
   * afresh, perhaps after one that failed, clears them first */
  if (!ek || (first && !gst_cl_base_filter_fill_plane (base, &bins, 0,
              error)) ||
      !gst_cl_kernel_set_args (hk, error, 7, GST_CL_ARG (luma->mem),
          GST_CL_ARG (luma->stride), GST_CL_ARG (luma->width),
          GST_CL_ARG (luma->height), GST_CL_ARG (bins.mem), GST_CL_ARG (resp),
          GST_CL_ARG (first_arg)))
    return FALSE;
  /* a luma under 3 x 3 has no inner sample: no count, a level of 0 */
  if (global[0] > 0 && global[1] > 0 &&
      !gst_cl_base_filter_enqueue_kernel (base, hk, 2, global, NULL, error))
      return FALSE;
  return gst_cl_kernel_set_args (ek, error, 5, GST_CL_ARG (bins.mem),
      GST_CL_ARG (*est), GST_CL_ARG (first_arg), GST_CL_ARG (level16),
      GST_CL_ARG (gain)) &&
      gst_cl_base_filter_enqueue_kernel (base, ek, 1, &bins_size, &bins_size,
      error);
}

/* The places of each plane's state, in 16-bit words: its last and its
 * next in the KEPT scratch buffer, and where it is moved to in MOVED, at
 * half the place of its two; @words: KEPT's size, in words (MOVED's half
 * of it) */
typedef struct
{
  gint last_at[3], next_at[3], moved_at[3];
  gsize words;
} StatePlaces;

static void
state_places (GstClDenoise * self, const GstClFrame * in, StatePlaces * sp)
{
  gint at = 0;
  guint p;

  /* GRAY8 one plane, the others three at most (packed 4:2:2 as three) */
  g_assert (in->n_planes <= 3);
  for (p = 0; p < in->n_planes; p++) {
    const GstClPlane *plane = &in->planes[p];
    /* a 16-bit word a sample's channel */
    gint size = plane->width * plane->pstride * plane->height;

    sp->last_at[p] = self->swapped ? at + size : at;
    sp->next_at[p] = self->swapped ? at : at + size;
    sp->moved_at[p] = at / 2;
    at += 2 * size;
  }
  sp->words = at;
}

/* the luma's blocks of the motion, across and down */
static void
luma_blocks (const GstClPlane * luma, gint blocks[2])
{
  blocks[0] = (luma->width + MOTION_BLOCK - 1) / MOTION_BLOCK;
  blocks[1] = (luma->height + MOTION_BLOCK - 1) / MOTION_BLOCK;
}

/* Each block's motion since the last frame, searched on @luma against its
 * last output (@kept at @last_at), starting from the last frame's where it
 * was searched, into the next of the motion's two scratch buffers,
 * @motion; none (NULL) where @skip (a frame that starts afresh, or the
 * motion off: the next search then starts from none). */
static gboolean
search_motion (GstClDenoise * self, const gchar * options,
    gboolean vectors, const GstClPlane * luma, cl_mem kept, gint last_at,
    cl_mem est, gboolean skip, cl_mem * motion, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  /* a work-item a block in vectors (CPUs), else a work-group of a
   * work-item a column of SEARCH_BLOCKS blocks side by side */
  gsize local[2] = { MOTION_BLOCK, SEARCH_BLOCKS };
  gint blocks[2];
  gsize global[2], size;
  gint history = self->searched;
  cl_mem before;
  cl_kernel k;

  *motion = NULL;
  self->searched = FALSE;
  if (skip)
    return TRUE;
  luma_blocks (luma, blocks);
  global[0] = blocks[0];
  global[1] = blocks[1];
  size = sizeof (gint32) * blocks[0] * blocks[1];
  if (!vectors) {
    global[0] = (blocks[0] + SEARCH_BLOCKS - 1) / SEARCH_BLOCKS * local[0];
    global[1] = blocks[1] * local[1];
  }
  before = gst_cl_base_filter_get_scratch (base, MOTION + self->motion_at,
      size, error);
  *motion = before ? gst_cl_base_filter_get_scratch (base,
      MOTION + !self->motion_at, size, error) : NULL;
  k = *motion ? gst_cl_base_filter_get_kernel (base, gst_cl_kernel_denoise,
      options, "denoise_search", error) : NULL;
  if (!k || !gst_cl_kernel_set_args (k, error, 10, GST_CL_ARG (luma->mem),
          GST_CL_ARG (luma->stride), GST_CL_ARG (kept), GST_CL_ARG (last_at),
          GST_CL_ARG (luma->width), GST_CL_ARG (luma->height),
          GST_CL_ARG (est), GST_CL_ARG (before),
          GST_CL_ARG (history), GST_CL_ARG (*motion))
      || !gst_cl_base_filter_enqueue_kernel (base, k, 2, global,
          vectors ? NULL : local, error))
      return FALSE;
  self->motion_at = !self->motion_at;
  self->searched = TRUE;
  return TRUE;
}

/* estimated-noise: the last estimate read back that has arrived, notified
 * where it changed; a new read where none is under way */
static gboolean
report_estimate (GstClBaseFilter * base, GstClDenoise * self, GError ** error)
{
  gboolean arrived, changed = FALSE;

  if (!gst_cl_base_filter_read_poll (base, &arrived))
    return TRUE;
  if (arrived) {
    GST_OBJECT_LOCK (self);
    changed = self->estimate16 != self->estimate_read;
    self->estimate16 = self->estimate_read;
    GST_OBJECT_UNLOCK (self);
    GST_LOG_OBJECT (self, "noise estimated %.2f", self->estimate_read / 16.0);
  }
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), estimated_noise_pspec);
  return gst_cl_base_filter_read_scratch (base, ESTIMATE, sizeof (gint32),
      &self->estimate_read, error);
}

/* For denoise_move on a CPU: whether each block of the luma has a moved
 * block within reach, into the NEEDED scratch buffer */
static cl_mem
find_needed (GstClDenoise * self, const gchar * options,
    const GstClFrame * in, cl_mem motion, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  gint blocks[2];
  gsize global[2];
  cl_kernel k;
  cl_mem needed;

  luma_blocks (&in->planes[0], blocks);
  global[0] = blocks[0];
  global[1] = blocks[1];
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_denoise, options,
      "denoise_needed", error);
  needed = k ? gst_cl_base_filter_get_scratch (base, NEEDED,
      sizeof (gint32) * global[0] * global[1], error) : NULL;
  if (!needed || !gst_cl_kernel_set_args (k, error, 4, GST_CL_ARG (motion),
          GST_CL_ARG (blocks[0]), GST_CL_ARG (blocks[1]), GST_CL_ARG (needed))
      || !gst_cl_base_filter_enqueue_kernel (base, k, 2, global, NULL, error))
      return NULL;
  return needed;
}

/* With the motion, every plane's state moved by the blocks' @motion, in
 * one launch, from @kept into the MOVED scratch buffer (@moved), at the
 * places @sp */
static gboolean
move_state (GstClDenoise * self, const gchar * options, guint px,
    const GstClFrame * in, const StatePlaces * sp, cl_mem kept,
    cl_mem motion, cl_mem * moved, GError ** error)
{
  GstClBaseFilter *base = GST_CL_BASE_FILTER (self);
  cl_int4 last_at = { {0} }, moved_at = { {0} }, pwidth = { {0} };
  cl_int4 pstride = { {1, 1, 1, 1} }, height = { {0} };
  cl_int2 sub = { {self->xsh, self->ysh} };
  gint blocks[2];
  gsize global[2] = { 0, 0 };
  cl_mem needed = NULL;
  cl_kernel k;
  guint p;

  luma_blocks (&in->planes[0], blocks);
  for (p = 0; p < in->n_planes; p++) {
    const GstClPlane *src = &in->planes[p];

    last_at.s[p] = sp->last_at[p];
    moved_at.s[p] = sp->moved_at[p];
    pwidth.s[p] = src->width;
    pstride.s[p] = src->pstride;
    height.s[p] = src->height;
    global[0] = MAX (global[0], ((gsize) src->width * src->pstride + px - 1)
        / px);
    global[1] += src->height;
  }
  /* on a CPU the blocks that no work-item reads moved are left out: those
   * with no moved block within reach (denoise_needed) */
  if (px >= 8 && !(needed = find_needed (self, options, in, motion, error)))
    return FALSE;
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_denoise, options,
      "denoise_move", error);
  *moved = k ? gst_cl_base_filter_get_scratch (base, MOVED,
      sizeof (guint16) * sp->words / 2, error) : NULL;
  return *moved && gst_cl_kernel_set_args (k, error, 11, GST_CL_ARG (kept),
      GST_CL_ARG (last_at), GST_CL_ARG (*moved), GST_CL_ARG (moved_at),
      GST_CL_ARG (pwidth), GST_CL_ARG (pstride), GST_CL_ARG (height),
      GST_CL_ARG (sub), GST_CL_ARG (motion), GST_CL_ARG (blocks[0]),
      GST_CL_ARG (needed)) &&
      gst_cl_base_filter_enqueue_kernel (base, k, 2, global, NULL, error);
}

static gboolean
gst_cl_denoise_dispatch (GstClBaseFilter * base, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  GstClDenoise *self = GST_CL_DENOISE (base);
  gboolean reset = g_atomic_int_exchange (&self->reset, 0);
  gint first = reset, level16, gain, blocks[2];
  cl_mem kept, est, motion, moved = NULL;
  cl_kernel k;
  StatePlaces sp;
  gboolean motion_on, moving;
  guint p, px, ry;
  gchar options[PLAN_OPTIONS];
  GstClPlanQuery q;

  GST_OBJECT_LOCK (self);
  /* in 1/16 of a step, -1 for none set (a level below 1/32 is 0); the
   * strength in 1/256: denoise_estimate scales the level by it */
  level16 = self->noise_level > 0 ? (gint) (self->noise_level * 16 + 0.5) : -1;
  gain = (gint) (self->strength * 256 + 0.5);
  motion_on = self->motion;
  GST_OBJECT_UNLOCK (self);
  gst_cl_plan_query_init (&q, self->planner,
      gst_cl_base_filter_get_context (base), NULL, 1);
  gst_cl_plan_select (&q);
  px = plan_samples (&q);
  ry = plan_rows (&q);
  gst_cl_plan_get_options (&q, 0, options, sizeof (options));
  state_places (self, in, &sp);
  luma_blocks (&in->planes[0], blocks);
  if (!(kept = gst_cl_base_filter_get_scratch (base, KEPT,
              sizeof (guint16) * sp.words, error))
      || !estimate (base, options, plan_histogram_rows (&q), &in->planes[0],
          reset, level16, gain, &est, error)
      || !search_motion (self, options, px >= 8, &in->planes[0], kept,
          sp.last_at[0], est, first || !motion_on, &motion, error))
    goto failed;
  moving = motion != NULL;
  k = gst_cl_base_filter_get_kernel (base, gst_cl_kernel_denoise, options,
      "denoise_plane", error);
  if (!k || (moving && !move_state (self, options, px, in, &sp, kept,
              motion, &moved, error)))
    goto failed;
  for (p = 0; p < in->n_planes; p++) {
    const GstClPlane *src = &in->planes[p], *dst = &out->planes[p];
    gsize global[2] = { ((gsize) src->width * src->pstride + px - 1) / px,
      (src->height + ry - 1) / ry
    };
    /* with the motion, the state moved */
    cl_mem from = moving ? moved : kept;
    gint from_at = moving ? sp.moved_at[p] : sp.last_at[p];
    gint xsh = p > 0 ? self->xsh : 0, ysh = p > 0 ? self->ysh : 0;

    if (!gst_cl_kernel_set_args (k, error, 18, GST_CL_ARG (src->mem),
            GST_CL_ARG (src->stride), GST_CL_ARG (dst->mem),
            GST_CL_ARG (dst->stride), GST_CL_ARG (from), GST_CL_ARG (from_at),
            GST_CL_ARG (kept), GST_CL_ARG (sp.last_at[p]),
            GST_CL_ARG (sp.next_at[p]),
            GST_CL_ARG (src->width), GST_CL_ARG (src->pstride),
            GST_CL_ARG (src->height), GST_CL_ARG (est),
            GST_CL_ARG (first), GST_CL_ARG (motion), GST_CL_ARG (blocks[0]),
            GST_CL_ARG (xsh), GST_CL_ARG (ysh))
        || !gst_cl_base_filter_enqueue_kernel (base, k, 2, global, NULL, error))
        goto failed;
  }
  if (!report_estimate (base, self, error))
    goto failed;
  self->swapped = !self->swapped;
  return TRUE;

failed:
  /* whatever the device holds now is no frame's state */
  reset_state (self);
  return FALSE;
}

static gboolean
gst_cl_denoise_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
    case GST_EVENT_GAP:
    case GST_EVENT_STREAM_START:
      reset_state (GST_CL_DENOISE (trans));
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cl_denoise_parent_class)->sink_event
      (trans, event);
}

static void
gst_cl_denoise_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  if (GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_DISCONT))
    reset_state (GST_CL_DENOISE (trans));
  GST_BASE_TRANSFORM_CLASS (gst_cl_denoise_parent_class)->before_transform
      (trans, buffer);
}

static gboolean
gst_cl_denoise_stop (GstBaseTransform * trans)
{
  GstClDenoise *self = GST_CL_DENOISE (trans);

  reset_state (self);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_denoise_parent_class)->stop (trans);
}

static void
gst_cl_denoise_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClDenoise *self = GST_CL_DENOISE (object);

  switch (prop_id) {
    case PROP_NOISE_LEVEL:
      GST_OBJECT_LOCK (self);
      self->noise_level = g_value_get_double (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_STRENGTH:
      GST_OBJECT_LOCK (self);
      self->strength = g_value_get_double (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_MOTION:
      GST_OBJECT_LOCK (self);
      self->motion = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_denoise_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClDenoise *self = GST_CL_DENOISE (object);

  switch (prop_id) {
    case PROP_NOISE_LEVEL:
      GST_OBJECT_LOCK (self);
      g_value_set_double (value, self->noise_level);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_STRENGTH:
      GST_OBJECT_LOCK (self);
      g_value_set_double (value, self->strength);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ESTIMATED_NOISE:
      GST_OBJECT_LOCK (self);
      g_value_set_double (value, self->estimate16 / 16.0);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_MOTION:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->motion);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_denoise_class_init (GstClDenoiseClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstClBaseFilterClass *filter_class = GST_CL_BASE_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_denoise_debug, "cldenoise", 0,
      "OpenCL temporal denoiser");

  gobject_class->set_property = gst_cl_denoise_set_property;
  gobject_class->get_property = gst_cl_denoise_get_property;

  g_object_class_install_property (gobject_class, PROP_NOISE_LEVEL,
      g_param_spec_double ("noise-level", "Noise level",
          "The noise's standard deviation in 8-bit units, the same in every "
          "plane; 0 follows the estimate measured from the stream",
          0, MAX_NOISE_LEVEL, DEFAULT_NOISE_LEVEL, G_PARAM_READWRITE |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  /**
   * GstClDenoise:strength:
   *
   * How hard to smooth: the level the formulas take is the noise's
   * (#GstClDenoise:noise-level, or the estimate where it is 0) times the
   * strength, at most 63. 1, the default, gives the best PSNR on every
   * clip and noise measured (docs/cldenoise.md); above it, a smoother
   * picture and fewer bits for an encoder (1.5: 12 - 59% fewer); below
   * it, less averaged where the picture changes a little (0.7 keeps
   * leaves in the wind as clepsilon does) and more noise left; 0, the
   * frames nearly as they come. #GstClDenoise:estimated-noise reads the
   * estimate as it is: the camera's gain is still followed.
   */
  g_object_class_install_property (gobject_class, PROP_STRENGTH,
      g_param_spec_double ("strength", "Strength",
          "How hard to smooth: the noise level (set or estimated) is taken "
          "times this; above 1 smoother, below 1 more detail kept",
          0, MAX_STRENGTH, DEFAULT_STRENGTH, G_PARAM_READWRITE |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  /**
   * GstClDenoise:estimated-noise:
   *
   * The noise level measured from the luma of the last frames, whether or
   * not #GstClDenoise:noise-level overrides it: the last value read back
   * from the device, a frame or two behind the stream. Notified (from the
   * streaming thread) where a value read back differs from the one
   * before, so that an application can follow a camera's gain without
   * polling.
   */
  estimated_noise_pspec = g_param_spec_double ("estimated-noise",
      "Estimated noise", "The noise level measured from the luma of the last "
      "frames, in 8-bit units, a step of 1/16; notified where it changes",
      0, 1000, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (gobject_class, PROP_ESTIMATED_NOISE,
      estimated_noise_pspec);
  /**
   * GstClDenoise:motion:
   *
   * Follows the picture's motion: each 32 x 32 block of the luma finds
   * the shift, within 4 samples, that brings its last outputs over the
   * present frame, and every plane averages along it. For a camera that
   * pans or moves; on a still camera it costs a tenth of a dB and the
   * search's time.
   */
  g_object_class_install_property (gobject_class, PROP_MOTION,
      g_param_spec_boolean ("motion", "Motion",
          "Follow the picture's motion, 32 x 32 blocks within 4 samples: "
          "for a camera that pans or moves", DEFAULT_MOTION,
          G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class,
      "OpenCL temporal denoiser", "Filter/Effect/Video",
      "A camera's noise reduced over time and space, every plane, on an "
      "OpenCL device", "gstclfilters contributors");
  gst_cl_base_filter_class_add_pad_templates (filter_class,
      GST_VIDEO_CAPS_MAKE (FORMATS));

  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_denoise_sink_event);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_denoise_before_transform);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_denoise_stop);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_denoise_set_info);
  filter_class->dispatch = GST_DEBUG_FUNCPTR (gst_cl_denoise_dispatch);
}

static void
gst_cl_denoise_init (GstClDenoise * self)
{
  self->noise_level = DEFAULT_NOISE_LEVEL;
  self->strength = DEFAULT_STRENGTH;
  self->motion = DEFAULT_MOTION;
  self->reset = 1;
  self->planner = gst_cl_plan_attach (GST_ELEMENT (self), "cldenoise", plans);
}
