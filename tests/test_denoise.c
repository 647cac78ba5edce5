/* gstclfilters tests: cldenoise against its C reference, whole sequences
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reference is docs/cldenoise.md's formulas, written again here plainly:
 * it keeps, per plane, the last output and each sample's count of still
 * frames, and the noise estimate, and starts afresh where the element must
 * (a DISCONT buffer, a flushing seek, a gap, new caps). Every frame of every
 * sequence, bit for bit.
 */
#include "cltest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* kernels/denoise.cl's constants (docs/cldenoise.md) */
#define CMAX 31
#define STILL 6
#define HALF 10
#define STILL5 6
#define HALF5 12
#define SAD 14
#define SADHALF 16
#define YOUNG 1
#define TW 3
#define MIDDLE 5
#define FLAT 45
#define MB 32
#define MR 4
#define MSTEP 4
#define MBIAS 1
#define MFIT 12
#define MSPARSE 4
#define LEVEL_MAX 1008

typedef struct
{
  /* per plane of the frame as the kernels see it (packed 4:2:2: Y42B's):
   * the last output in 1/8 of a step, and the count */
  gint *state[3], *count[3];
  gint est16, s16;
  gdouble level;                /* the element's noise-level */
  gdouble strength;             /* the element's strength */
  gboolean motion;              /* the element's motion */
  gboolean reset;
  /* the frame's histograms of |L| and of its change since the last frame,
   * and the last frame's L at the samples counted */
  guint32 hist[2][256];
  gint *resp;
  /* each block's motion, in luma samples, and the blocks a row; the last
   * frame's, where it was searched (searched), the next search's start */
  gint *dy, *dx, blocks_x;
  gint *last_dy, *last_dx;
  gboolean searched;
  guint moved;                  /* the blocks found moved, all frames */
} Ref;

/* the median's bin, -1 for none */
static gint
median_bin (const guint32 * hist)
{
  guint64 total = 0, below = 0;
  gint b = 0;

  for (gint i = 0; i < 256; i++)
    total += hist[i];
  if (total == 0)
    return -1;
  while (b < 255 && 2 * (below + hist[b]) < total)
    below += hist[b++];
  return b;
}

/* the level the histograms say, in 1/16 of a step: the change's median;
 * |L|'s at a frame that starts afresh, and at a frame that repeats the
 * last (the change's median 0, or none) where it is lower than the
 * estimate; the estimate where no response counted */
static gint
sigma16 (const Ref * r)
{
  gint d = median_bin (r->hist[1]), l = median_bin (r->hist[0]);
  gint l16 = (MAX (l, 0) * 16000 + 2023) / 4047;

  if (d > 0)
    return (d * 16000 + 2023) / 4047;
  if (r->reset)
    return l16;
  return l < 0 ? r->est16 : MIN (l16, r->est16);
}

/* a response whose 3 x 3 holds 0 or 255 */
#define CLIPPED G_MININT

static void
luma_histograms (Ref * r, const ClRefPlane * p)
{
  gint i = 0;

  memset (r->hist, 0, sizeof (r->hist));
  if (r->reset) {
    g_free (r->resp);
    r->resp = g_new0 (gint, MAX ((p->width + 1) / 4 * ((p->height + 5) / 8),
            1));
  }
  for (gint y = 1; y < p->height - 1; y += 8)
    for (gint x = 1; x < p->width - 1; x += 4, i++) {
      static const gint w[3][3] = { {1, -2, 1}, {-2, 4, -2}, {1, -2, 1} };
      gboolean clipped = FALSE;
      gint l = 0;

      for (gint dy = -1; dy <= 1; dy++)
        for (gint dx = -1; dx <= 1; dx++) {
          gint n = cl_ref_sample (p, x + dx, y + dy, 0);

          clipped |= n == 0 || n == 255;
          l += w[dy + 1][dx + 1] * n;
        }
      if (clipped)
        l = CLIPPED;
      else {
        r->hist[0][MIN (abs (l), 255)]++;
        if (!r->reset && r->resp[i] != CLIPPED)
          r->hist[1][MIN ((abs (l - r->resp[i]) * 181 + 128) >> 8, 255)]++;
      }
      r->resp[i] = l;
    }
}

/* the rounded mean of the samples of the (2 r + 1)^2 window around (x, y)
 * within t of its centre */
static gint
epsilon_mean (const ClRefPlane * p, gint x, gint y, gint c, gint r, gint t)
{
  gint X = cl_ref_sample (p, x, y, c), sum = 0, cnt = 0;

  for (gint dy = -r; dy <= r; dy++)
    for (gint dx = -r; dx <= r; dx++) {
      gint n = cl_ref_sample (p, x + dx, y + dy, c);

      if (abs (n - X) <= t) {
        sum += n;
        cnt++;
      }
    }
  return (2 * sum + cnt) / (2 * cnt);
}

/* the sum of |8 X - V| over block (@bx, @by)'s every @step-th row (X the
 * present frame, V the last output shifted by (@dy, @dx), its edges
 * replicated), and the samples it counts (@n) */
static gint
block_cost (const Ref * r, const ClRefPlane * p, gint bx, gint by, gint dy,
    gint dx, gint step, gint * n)
{
  gint cost = 0;

  *n = 0;
  for (gint y = by * MB; y < MIN (by * MB + MB, p->height); y += step)
    for (gint x = bx * MB; x < MIN (bx * MB + MB, p->width); x++) {
      gint yy = CLAMP (y + dy, 0, p->height - 1);
      gint xx = CLAMP (x + dx, 0, p->width - 1);

      cost += abs (8 * cl_ref_sample (p, x, y, 0) -
          r->state[0][(gsize) yy * p->width + xx]);
      (*n)++;
    }
  return cost;
}

/* The motion of each MB x MB block of the luma since the last frame: the
 * least of a few shifts, by block_cost, in this order (a later one taken
 * only where its cost is less): none, its cost less MBIAS / 20 sigma a
 * sample counted; the shift the last frame's search gave the block, then
 * those it gave the blocks above, left, right and below it (at the
 * frame's edge the block's own), where the last frame was searched; then
 * the 8 shifts a sample around the least of those, in rows, within MR
 * samples. Where the least is then more than MFIT sigma a sample, the
 * shift within MR samples whose cost over every MSPARSE-th of those rows
 * is least (none first, less the bias over its samples, then in rows),
 * where its whole cost is less. No shift where the least is more than MFIT
 * sigma a sample. */
static void
search_motion (Ref * r, const ClRefPlane * p)
{
  gint bx_n = (p->width + MB - 1) / MB, by_n = (p->height + MB - 1) / MB;
  gboolean history = r->searched && !r->reset;

  g_free (r->last_dy);
  g_free (r->last_dx);
  r->last_dy = r->dy;
  r->last_dx = r->dx;
  r->dy = g_new0 (gint, bx_n * by_n);
  r->dx = g_new0 (gint, bx_n * by_n);
  r->blocks_x = bx_n;
  r->searched = !r->reset && r->motion;
  if (!r->searched)
    return;
  for (gint by = 0; by < by_n; by++)
    for (gint bx = 0; bx < bx_n; bx++) {
      static const gint oy[] = { 0, -1, 0, 0, 1 }, ox[] = { 0, 0, -1, 1, 0 };
      gint n, none = block_cost (r, p, bx, by, 0, 0, MSTEP, &n);
      gint best = none - MBIAS * r->s16 * n / 40, dy = 0, dx = 0, cy, cx;

      for (gint k = 0; k < 5 && history; k++) {
        gint b = CLAMP (by + oy[k], 0, by_n - 1) * bx_n +
            CLAMP (bx + ox[k], 0, bx_n - 1);
        gint cost = r->last_dy[b] || r->last_dx[b] ? block_cost (r, p, bx,
            by, r->last_dy[b], r->last_dx[b], MSTEP, &n) : G_MAXINT;

        if (cost < best) {
          best = cost;
          dy = r->last_dy[b];
          dx = r->last_dx[b];
        }
      }
      cy = dy;
      cx = dx;
      for (gint k = 0; k < 9; k++) {
        gint ty = cy + k / 3 - 1, tx = cx + k % 3 - 1, cost;

        if (k == 4 || ABS (ty) > MR || ABS (tx) > MR)
          continue;
        cost = ty || tx ? block_cost (r, p, bx, by, ty, tx, MSTEP, &n) :
            none - MBIAS * r->s16 * n / 40;
        if (cost < best) {
          best = cost;
          dy = ty;
          dx = tx;
        }
      }
      if (best * 16 > MFIT * r->s16 * n) {
        gint ns, least, sy = 0, sx = 0;

        /* the cost first: it counts ns, which the bias then reads (in one
         * expression, the two are unsequenced) */
        least = block_cost (r, p, bx, by, 0, 0, MSTEP * MSPARSE, &ns);
        least -= MBIAS * r->s16 * ns / 40;
        for (gint ty = -MR; ty <= MR; ty++)
          for (gint tx = -MR; tx <= MR; tx++) {
            gint cost = ty || tx ? block_cost (r, p, bx, by, ty, tx,
                MSTEP * MSPARSE, &ns) : G_MAXINT;

            if (cost < least) {
              least = cost;
              sy = ty;
              sx = tx;
            }
          }
        least = sy || sx ? block_cost (r, p, bx, by, sy, sx, MSTEP, &n) :
            G_MAXINT;
        if (least < best) {
          best = least;
          dy = sy;
          dx = sx;
        }
      }
      /* a shift only where it fits: at most MFIT sigma a sample */
      if (best * 16 > MFIT * r->s16 * n)
        dy = dx = 0;
      r->dy[by * bx_n + bx] = dy;
      r->dx[by * bx_n + bx] = dx;
      r->moved += dy || dx;
    }
}

/* The last outputs and counts of @plane moved by the luma's blocks'
 * motion (halved on a subsampled plane, towards zero), edges replicated:
 * what the frame's tests and running means read. */
static void
move_state (const Ref * r, const GstVideoFrame * in, guint plane,
    const ClRefPlane * p, gint * state, gint * count)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS], xs, ys, w = p->width * p->pstride;

  gst_video_format_info_component (in->info.finfo, plane, comp);
  xs = GST_VIDEO_FORMAT_INFO_W_SUB (in->info.finfo, comp[0]);
  ys = GST_VIDEO_FORMAT_INFO_H_SUB (in->info.finfo, comp[0]);
  for (gint y = 0; y < p->height; y++)
    for (gint x = 0; x < p->width; x++) {
      gint b = ((y << ys) / MB) * r->blocks_x + (x << xs) / MB;
      gint yy = CLAMP (y + r->dy[b] / (1 << ys), 0, p->height - 1);
      gint xx = CLAMP (x + r->dx[b] / (1 << xs), 0, p->width - 1);

      for (gint c = 0; c < p->pstride; c++) {
        gsize from = (gsize) yy * w + xx * p->pstride + c;
        gsize to = (gsize) y * w + x * p->pstride + c;

        state[to] = r->state[plane][from];
        count[to] = r->count[plane][from];
      }
    }
}

/* one plane of one frame: plane 0 first, which sets the level */
static void
ref_denoise (const GstVideoFrame * in, guint plane, guint8 * out,
    gint out_stride, gpointer user_data)
{
  Ref *r = user_data;
  ClRefPlane p;
  gint w, te, tw, level;
  gint *next, *last, *kept;

  cl_test_plane_of (in, plane, &p);
  w = p.width * p.pstride;
  if (plane == 0) {
    luma_histograms (r, &p);
    r->est16 = r->reset ? sigma16 (r) : r->est16 + (sigma16 (r) - r->est16) / 2;
    /* the level set (0 below 1/32, not the estimate), or the estimate,
     * times the strength */
    level = r->level > 0 ? (gint) (r->level * 16 + 0.5) : r->est16;
    r->s16 = MIN ((level * (gint) (r->strength * 256 + 0.5) + 128) >> 8,
        LEVEL_MAX);
    for (guint i = 0; i < 3; i++) {
      if (r->reset) {
        g_free (r->state[i]);
        g_free (r->count[i]);
        r->state[i] = r->count[i] = NULL;
      }
    }
  }
  if (!r->state[plane]) {
    r->state[plane] = g_new0 (gint, (gsize) w * p.height);
    r->count[plane] = g_new0 (gint, (gsize) w * p.height);
  }
  if (plane == 0)
    search_motion (r, &p);
  last = g_new0 (gint, (gsize) w * p.height);
  kept = g_new0 (gint, (gsize) w * p.height);
  if (!r->reset)
    move_state (r, in, plane, &p, last, kept);
  te = (2 * r->s16 + 8) >> 4;
  tw = (TW * r->s16 + 8) >> 4;
  /* the last output stays as it was until the whole plane is done */
  next = g_new (gint, (gsize) w * p.height);
  for (gint y = 0; y < p.height; y++)
    for (gint x = 0; x < p.width; x++)
      for (gint c = 0; c < p.pstride; c++) {
        gint B = 0, B5 = 0, k = 0, prev = 0, S, V;
        gboolean mid = FALSE;
        gsize i = (gsize) y * w + x * p.pstride + c;

        for (gint dy = -2; dy <= 2; dy++)
          for (gint dx = -2; dx <= 2; dx++) {
            gint n = cl_ref_sample (&p, x + dx, y + dy, c);

            B5 += n;
            if (ABS (dx) <= 1 && ABS (dy) <= 1)
              B += n;
          }
        if (!r->reset) {
          gint P = 0, P35 = 0, P5 = 0, E = 0, A, A5;

          for (gint dy = -2; dy <= 2; dy++)
            for (gint dx = -2; dx <= 2; dx++) {
              gint xx = CLAMP (x + dx, 0, p.width - 1);
              gint yy = CLAMP (y + dy, 0, p.height - 1);
              gint v = last[(gsize) yy * w + xx * p.pstride + c];

              P5 += v;
              if (ABS (dy) <= 1)
                P35 += v;
              if (ABS (dx) <= 1 && ABS (dy) <= 1) {
                P += v;
                /* sample by sample, in 1/8 of a step */
                E += abs (8 * cl_ref_sample (&p, x + dx, y + dy, c) - v);
              }
            }
          prev = last[i];
          /* the sums' differences in 1/8 of a step; the 5 x 5 one
           * scaled to the 3 x 3 one's noise */
          A = abs (P - 8 * B);
          A5 = abs (P5 - 8 * B5) * 3 / 5;
          k = kept[i];
          k = A <= STILL * r->s16 / 2 && A5 <= STILL5 * r->s16 / 2 &&
              E <= SAD * r->s16 / 2 ? MIN (k + 1, CMAX) :
              A <= HALF * r->s16 / 2 && A5 <= HALF5 * r->s16 / 2 &&
              E <= SADHALF * r->s16 / 2 ? k / 2 : 0;
          /* flat: the last outputs' 3 x 3 and 3 x 5 means within 1/16
           * sigma of each other (5 P - 3 P35 is 45 times their
           * difference) */
          mid = k >= 2 && k <= MIDDLE &&
              abs (5 * P - 3 * P35) <= (FLAT * r->s16 + 16) >> 5;
        }
        /* young, moved or starting: the present frame's 5 x 5 window;
         * else its 3 x 3 one, within the wide threshold where the count is
         * middling and the last outputs flat */
        S = epsilon_mean (&p, x, y, c, k <= YOUNG ? 2 : 1, k <= YOUNG
            || mid ? tw : te);
        V = (k * prev + 8 * S + (k + 1) / 2) / (k + 1);
        out[(gsize) y * out_stride + x * p.pstride + c] = (V + 4) / 8;
        next[i] = V;
        r->count[plane][i] = k;
      }
  g_free (r->state[plane]);
  r->state[plane] = next;
  g_free (last);
  g_free (kept);
  if (plane + 1 == GST_VIDEO_FRAME_N_PLANES (in))
    r->reset = FALSE;
}

static void
ref_free (Ref * r)
{
  for (guint i = 0; i < 3; i++) {
    g_free (r->state[i]);
    g_free (r->count[i]);
  }
  g_free (r->resp);
  g_free (r->dy);
  g_free (r->dx);
  g_free (r->last_dy);
  g_free (r->last_dx);
}

/* A frame of @seq: a fixed random picture, a bright square moving across
 * it, and Gaussian-like noise of about @sigma, all from @seed; the bottom
 * eighth black and the square nearly white, so that the noise is clipped
 * there. Where @pan, the picture is a texture that moves @pan bytes of
 * each row to the left and a row of each plane up every frame, as a camera
 * that pans. */
static GstBuffer *
scene_frame (GstVideoFormat format, gint width, gint height, guint stride_pad,
    guint seq, gint sigma, gint pan, GstVideoInfo * info)
{
  GstBuffer *buf = cl_test_frame_new (format, width, height, stride_pad, 7,
      info);
  GRand *rand = g_rand_new_with_seed (1000 + seq);
  GstVideoFrame f;

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&f, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&f, p);
    gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&f, p == 0 ? 0 : 1);
    gint bytes = cl_test_row_bytes (&f, p);

    for (gint y = 0; y < rows; y++)
      for (gint x = 0; x < bytes; x++) {
        gint v = data[(gsize) y * stride + x] / 2 + 64;

        if (pan) {
          guint xx = x + seq * pan, yy = y + seq;

          v = 40 + ((xx * 37 + yy * 91) ^ (xx * yy * 13) ^ (xx >> 2) * 7) % 170;
        }
        gint n = (gint) g_rand_int_range (rand, -sigma, sigma + 1) +
            (gint) g_rand_int_range (rand, -sigma, sigma + 1);

        if (x / 8 == (gint) seq % (bytes / 8 + 1) && y < rows / 2)
          v = 250;
        else if (y >= rows - rows / 8)
          v = 2;
        data[(gsize) y * stride + x] = CLAMP (v + n, 0, 255);
      }
  }
  gst_video_frame_unmap (&f);
  g_rand_free (rand);
  return buf;
}

/* the element's motion at frame @i of @n: MOTION_TOGGLED follows it but
 * for two frames from the third of the sequence, after which the search
 * starts from none again */
#define MOTION_TOGGLED 2

static gboolean
motion_at (gint motion, guint i, guint n)
{
  return motion == MOTION_TOGGLED ? i < n / 3 || i >= n / 3 + 2 : motion;
}

/* the element's strength at frame @i of @n: STRENGTH_STEPPED is 1 for
 * the first third of the sequence, 2.5 for the second and 0.25 after */
#define STRENGTH_STEPPED -1

static gdouble
strength_at (gdouble strength, guint i, guint n)
{
  if (strength != STRENGTH_STEPPED)
    return strength;
  return i < n / 3 ? 1 : i < 2 * n / 3 ? 2.5 : 0.25;
}

/* @n frames of @format through one element, the picture panning by @pan
 * (scene_frame), its motion followed where @motion (or MOTION_TOGGLED),
 * its level @level and its strength @strength (or STRENGTH_STEPPED);
 * at frame @discont a DISCONT buffer, at @flush a flushing seek's events,
 * at @resize new caps of @size[0] x @size[1], each starting afresh.
 * Returns how many blocks the reference found moved, over all frames. */
static guint
check_sequence_with_caps (GstVideoFormat format, gint width, gint height,
    guint stride_pad, guint n, gint sigma, gdouble level, gdouble strength,
    gint pan, gint motion, guint discont, guint flush, guint resize,
    const gint * size)
{
  guint moved;
  GstHarness *h = cl_test_harness_new ("cldenoise", format, width, height);
  Ref r;

  memset (&r, 0, sizeof (r));

  r.reset = TRUE;
  r.level = level;
  g_object_set (h->element, "noise-level", level, NULL);
  for (guint i = 0; i < n; i++) {
    GstVideoInfo info;
    GstBuffer *in, *out;
    gchar *why = NULL;

    r.motion = motion_at (motion, i, n);
    r.strength = strength_at (strength, i, n);
    g_object_set (h->element, "motion", r.motion, "strength", r.strength, NULL);
    if (i == flush) {
      fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
      GstSegment segment;

      fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
      gst_segment_init (&segment, GST_FORMAT_TIME);
      fail_unless (gst_harness_push_event (h,
              gst_event_new_segment (&segment)));
      r.reset = TRUE;
    }
    if (i == resize) {
      gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
          "height=%d,framerate=30/1", gst_video_format_to_string (format),
          size[0], size[1]);

      width = size[0];
      height = size[1];
      gst_harness_set_src_caps_str (h, caps);
      g_free (caps);
      r.reset = TRUE;
    }
    in = scene_frame (format, width, height, stride_pad, i, sigma, pan, &info);
    if (i == discont) {
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
      r.reset = TRUE;
    }
    out = cl_test_push_pull (h, gst_buffer_ref (in));
    fail_unless (cl_test_check_output (in, out, &info, ref_denoise, &r,
            &why), "%s %dx%d (pad %u) frame %u, sigma %d, level %g, "
        "strength %g, motion %d: %s", gst_video_format_to_string (format),
        width, height, stride_pad, i, sigma, level, r.strength, r.motion, why);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
  moved = r.moved;
  ref_free (&r);
  return moved;
}

static void
check_sequence (GstVideoFormat format, gint width, gint height,
    guint stride_pad, guint n, gint sigma, gdouble level, gboolean motion,
    guint discont, guint flush)
{
  check_sequence_with_caps (format, width, height, stride_pad, n, sigma,
      level, 1, 0, motion, discont, flush, G_MAXUINT, NULL);
}

GST_START_TEST (test_formats_and_sizes)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444,
    GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU
  };
  static const gint sizes[][2] = { {1, 1}, {7, 5}, {66, 37} };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (gint motion = 0; motion < 2; motion++)
        check_sequence (formats[f], sizes[s][0], sizes[s][1], s * 13, 8, 8,
            0, motion, G_MAXUINT, G_MAXUINT);
}

GST_END_TEST;

/* a DISCONT buffer and a flushing seek in the middle of a sequence start
 * the element afresh, as the reference */
GST_START_TEST (test_discont_and_flush)
{
  check_sequence (GST_VIDEO_FORMAT_NV12, 64, 48, 0, 16, 10, 0, TRUE, 5, 11);
  check_sequence (GST_VIDEO_FORMAT_YUY2, 33, 20, 3, 12, 6, 0, FALSE, 9, 3);
}

GST_END_TEST;

/* 100 frames, long enough for the still samples to reach the longest
 * memory (31 frames) twice, with a flushing seek at 40, new caps at 75
 * and a DISCONT buffer at 88; the level estimated, then set, its
 * strength changed at 33 and 66 */
GST_START_TEST (test_long_sequences)
{
  static const gint smaller[] = { 77, 45 };

  check_sequence_with_caps (GST_VIDEO_FORMAT_NV12, 96, 64, 5, 100, 6, 0, 1,
      0, TRUE, 88, 40, 75, smaller);
  check_sequence_with_caps (GST_VIDEO_FORMAT_YUY2, 70, 40, 0, 100, 8, 9,
      STRENGTH_STEPPED, 0, FALSE, 88, 40, 75, smaller);
}

GST_END_TEST;

/* A camera that pans, a sample and a row a frame, and two samples and a
 * row, its motion followed: the blocks' motion found and followed, in
 * every plane (NV12's interleaved chroma, I420's, packed 4:2:2's at full
 * height), blocks across the frame's edges and a frame a block and a half
 * wide; the reference finds the picture moved, or the sequence would not
 * test it. Not followed, no block moves. */
GST_START_TEST (test_panning)
{
  fail_unless (check_sequence_with_caps (GST_VIDEO_FORMAT_NV12, 96, 70, 3,
          24, 6, 0, 1, 1, TRUE, G_MAXUINT, 12, G_MAXUINT, NULL) > 0);
  fail_unless (check_sequence_with_caps (GST_VIDEO_FORMAT_I420, 77, 45, 0,
          16, 8, 8, 1, 2, MOTION_TOGGLED, G_MAXUINT, G_MAXUINT, G_MAXUINT,
          NULL) > 0);
  fail_unless (check_sequence_with_caps (GST_VIDEO_FORMAT_YUY2, 48, 40, 0, 16,
          4, 0, 1, 2, TRUE, 9, G_MAXUINT, G_MAXUINT, NULL) > 0);
  fail_unless (check_sequence_with_caps (GST_VIDEO_FORMAT_GRAY8, 131, 67, 0, 12,
          10, 10, 1, 2, TRUE, G_MAXUINT, G_MAXUINT, G_MAXUINT, NULL) > 0);
  fail_unless (check_sequence_with_caps (GST_VIDEO_FORMAT_NV12, 96, 70, 3, 12,
          6, 0, 1, 1, FALSE, G_MAXUINT, G_MAXUINT, G_MAXUINT, NULL) == 0);
}

GST_END_TEST;

/* noise-level set: every frame at that level, whatever the estimate; a
 * level below 1/32 is 0, not the estimate's */
GST_START_TEST (test_fixed_levels)
{
  static const gdouble levels[] = { 0.01, 0.5, 4, 12.25, 60 };

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    check_sequence (GST_VIDEO_FORMAT_I420, 40, 30, 0, 6, 8, levels[i],
        i % 2, G_MAXUINT, G_MAXUINT);
}

GST_END_TEST;

/* strength: the level, estimated or set, taken times it, and at most 63
 * (the estimate of noise of sigma 24 times 4, 60 times 1.7 or 4); 0, the
 * frames nearly as they come; changed while playing */
GST_START_TEST (test_strengths)
{
  static const gdouble strengths[] = { 0, 0.5, 1.7, 4 };
  static const gdouble levels[] = { 0, 7.5, 60 };

  for (guint i = 0; i < G_N_ELEMENTS (strengths); i++)
    for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
      check_sequence_with_caps (l % 2 ? GST_VIDEO_FORMAT_NV12 :
          GST_VIDEO_FORMAT_YUY2, 40, 30, 3, 8, levels[l] > 0 ? 10 : 24,
          levels[l], strengths[i], 0, (i + l) % 2, G_MAXUINT, G_MAXUINT,
          G_MAXUINT, NULL);
  check_sequence_with_caps (GST_VIDEO_FORMAT_I420, 40, 30, 0, 15, 10, 0,
      STRENGTH_STEPPED, 1, TRUE, G_MAXUINT, G_MAXUINT, G_MAXUINT, NULL);
}

GST_END_TEST;

/* A large odd frame, padded strides */
GST_START_TEST (test_large_odd_frame)
{
  check_sequence (GST_VIDEO_FORMAT_NV12, 1917, 1079, 13, 3, 8, 0, TRUE,
      G_MAXUINT, G_MAXUINT);
}

GST_END_TEST;

/* the estimate's tests: GRAY8 frames of 320 x 240, of a picture (@base)
 * plus noise from @rand */
typedef struct
{
  GstHarness *h;
  GRand *rand;
  guint8 *base;
} EstimateRun;

static void
estimate_run_init (EstimateRun * e, guint32 seed)
{
  e->h = cl_test_harness_new ("cldenoise", GST_VIDEO_FORMAT_GRAY8, 320, 240);
  e->rand = g_rand_new_with_seed (seed);
  e->base = g_malloc (320 * 240);
}

static void
estimate_run_clear (EstimateRun * e)
{
  g_free (e->base);
  g_rand_free (e->rand);
  gst_harness_teardown (e->h);
}

/* the picture plus Gaussian noise of @sigma */
static GstBuffer *
noisy_frame (EstimateRun * e, gint sigma)
{
  GstBuffer *in = gst_buffer_new_allocate (NULL, 320 * 240, NULL);
  GstMapInfo map;

  gst_buffer_map (in, &map, GST_MAP_WRITE);
  for (gsize k = 0; k < map.size; k++) {
    gdouble g = sqrt (-2 * log (1 - g_rand_double (e->rand))) *
        cos (2 * G_PI * g_rand_double (e->rand));

    map.data[k] = CLAMP (e->base[k] + (gint) floor (sigma * g + 0.5), 0, 255);
  }
  gst_buffer_unmap (in, &map);
  return in;
}

/* pushes @in, and returns estimated-noise after it */
static gdouble
push_estimate (EstimateRun * e, GstBuffer * in)
{
  gdouble est;

  gst_buffer_unref (cl_test_push_pull (e->h, in));
  g_object_get (e->h->element, "estimated-noise", &est, NULL);
  return est;
}

/* pushes @n noisy frames, and returns estimated-noise after the last */
static gdouble
push_noisy (EstimateRun * e, gint sigma, guint n)
{
  gdouble est = 0;

  for (guint i = 0; i < n; i++)
    est = push_estimate (e, noisy_frame (e, sigma));
  return est;
}

/* the estimate follows the noise: Gaussian noise of sigma on a flat grey
 * frame reads as sigma, within a step, and a sigma that steps up mid-stream
 * is followed within 10 frames (estimated-noise reads the estimate of a
 * frame or two before) */
GST_START_TEST (test_estimate)
{
  static const gint sigmas[] = { 3, 8, 16, 30 };
  EstimateRun e;

  estimate_run_init (&e, 5);
  memset (e.base, 128, 320 * 240);
  for (guint s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    gdouble est = push_noisy (&e, sigmas[s], 11);

    fail_unless (fabs (est - sigmas[s]) < MAX (1.0, sigmas[s] * 0.08),
        "sigma %d estimated %g", sigmas[s], est);
  }
  estimate_run_clear (&e);
}

GST_END_TEST;

/* notify::estimated-noise: each value notified differs from the one before,
 * is what the property reads in the handler, and the notifies follow the
 * steps of the noise; frames that leave the estimate as it is notify
 * nothing */
typedef struct
{
  GstElement *element;
  guint n;
  gdouble last;
} Notified;

static void
estimate_notified (GObject * object, GParamSpec * pspec, gpointer data)
{
  Notified *seen = data;
  gdouble est;

  g_object_get (object, "estimated-noise", &est, NULL);
  fail_unless (object == G_OBJECT (seen->element));
  fail_unless (est != seen->last, "%g notified again", est);
  seen->last = est;
  seen->n++;
}

GST_START_TEST (test_estimate_notified)
{
  EstimateRun e;
  Notified seen = { NULL, 0, 0 };
  guint after_first;
  GstBuffer *in;

  estimate_run_init (&e, 9);
  memset (e.base, 128, 320 * 240);
  seen.element = e.h->element;
  g_signal_connect (e.h->element, "notify::estimated-noise",
      G_CALLBACK (estimate_notified), &seen);
  fail_unless (fabs (push_noisy (&e, 8, 11) - 8) < 1.0);
  fail_unless (seen.n >= 1 && seen.n <= 11, "%u notifies", seen.n);
  fail_unless (fabs (seen.last - 8) < 1.0, "%g notified last", seen.last);
  after_first = seen.n;
  fail_unless (fabs (push_noisy (&e, 20, 11) - 20) < 1.6);
  fail_unless (seen.n > after_first, "a new level notified nothing");
  fail_unless (fabs (seen.last - 20) < 1.6, "%g notified last", seen.last);
  /* the same frame again and again: the estimate stays, nothing notified */
  in = noisy_frame (&e, 20);
  for (guint i = 0; i < 3; i++)
    push_estimate (&e, gst_buffer_copy_deep (in));
  after_first = seen.n;
  for (guint i = 0; i < 6; i++)
    push_estimate (&e, gst_buffer_copy_deep (in));
  fail_unless (seen.n == after_first, "%u notifies of a repeated frame",
      seen.n - after_first);
  gst_buffer_unref (in);
  estimate_run_clear (&e);
}

GST_END_TEST;

/* A still texture whose |L| reads as noise of 3 times sigma: the estimate,
 * from the change of the responses from frame to frame, reads sigma; a
 * frame repeated (a source that repeats frames) leaves it there. */
GST_START_TEST (test_estimate_texture)
{
  EstimateRun e;
  ClRefPlane plane = { NULL, 320, 320, 240, 1 };
  Ref r;
  GstBuffer *in;
  gdouble est;

  estimate_run_init (&e, 7);
  for (gsize k = 0; k < 320 * 240; k++)
    e.base[k] = g_rand_int_range (e.rand, 88, 169);
  /* what |L| alone reads of it */
  plane.data = e.base;
  memset (&r, 0, sizeof (r));
  r.reset = TRUE;
  luma_histograms (&r, &plane);
  fail_unless (sigma16 (&r) > 3 * 6 * 16, "the texture reads %g",
      sigma16 (&r) / 16.0);
  ref_free (&r);

  push_noisy (&e, 6, 11);
  in = noisy_frame (&e, 6);
  est = push_estimate (&e, gst_buffer_ref (in));
  fail_unless (fabs (est - 6) < 1.0, "sigma 6 on a texture estimated %g", est);
  for (guint i = 0; i < 4; i++)
    est = push_estimate (&e, gst_buffer_copy_deep (in));
  fail_unless (fabs (est - 6) < 1.0, "sigma 6 repeated estimated %g", est);
  gst_buffer_unref (in);
  estimate_run_clear (&e);
}

GST_END_TEST;

/* Half of the frame so dark that the noise is clipped at 0 there: the
 * estimate reads the other half's, where the response of every sample
 * would read low */
GST_START_TEST (test_estimate_clipped)
{
  EstimateRun e;
  gdouble est;

  estimate_run_init (&e, 9);
  for (gsize k = 0; k < 320 * 240; k++)
    e.base[k] = k % 320 < 160 ? 4 : 128;
  est = push_noisy (&e, 12, 12);
  fail_unless (fabs (est - 12) < 1.0, "sigma 12, half clipped, estimated %g",
      est);
  estimate_run_clear (&e);
}

GST_END_TEST;

/* Black frames, where no sample counts, between frames of a picture: the
 * estimate holds through the black and reads the picture's noise again
 * after it */
GST_START_TEST (test_estimate_through_black)
{
  EstimateRun e;
  gdouble est;

  estimate_run_init (&e, 11);
  memset (e.base, 128, 320 * 240);
  est = push_noisy (&e, 8, 11);
  fail_unless (fabs (est - 8) < 1.0, "sigma 8 estimated %g", est);
  memset (e.base, 0, 320 * 240);
  est = push_noisy (&e, 0, 4);
  fail_unless (fabs (est - 8) < 1.0, "sigma 8 through black estimated %g", est);
  memset (e.base, 128, 320 * 240);
  est = push_noisy (&e, 8, 4);
  fail_unless (fabs (est - 8) < 1.0, "sigma 8 after black estimated %g", est);
  estimate_run_clear (&e);
}

GST_END_TEST;

static Suite *
denoise_suite (void)
{
  Suite *s = suite_create ("cldenoise");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  tcase_add_test (tc, test_formats_and_sizes);
  tcase_add_test (tc, test_discont_and_flush);
  tcase_add_test (tc, test_long_sequences);
  tcase_add_test (tc, test_panning);
  tcase_add_test (tc, test_fixed_levels);
  tcase_add_test (tc, test_large_odd_frame);
  tcase_add_test (tc, test_strengths);
  tcase_add_test (tc, test_estimate);
  tcase_add_test (tc, test_estimate_notified);
  tcase_add_test (tc, test_estimate_texture);
  tcase_add_test (tc, test_estimate_clipped);
  tcase_add_test (tc, test_estimate_through_black);
  suite_add_tcase (s, tc);
  return s;
}

GST_CHECK_MAIN (denoise);
