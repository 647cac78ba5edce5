/* gstclfilters tests: hostile input through appsrc
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Buffers shorter than their caps, GstVideoMetas whose planes do not fit
 * their buffer, caps changing every frame, properties flipped between their
 * extremes from another thread while playing, state cycles and many
 * pipelines at once. Every case ends in a frame equal to the reference or
 * in an element error saying what is wrong: never a crash, a hang, an
 * access out of bounds (run under AddressSanitizer) or a leak. The elements
 * are linked in, so that frames can also come in GstClMemory.
 */
#include "cltest.h"
#include "cl/gstclcontext.h"
#include "cl/gstclmemory.h"
#include "gstclboxblur.h"
#include "gstclcomposite.h"
#include "gstclepsilon.h"
#include "gstclintegral.h"
#include "gstclsobel.h"

#include <gst/app/app.h>
#include <string.h>

/* a pipeline that neither ends nor fails in this time hangs */
#define HANG_TIMEOUT (60 * GST_SECOND)

/* One element under test, with settings whose output the reference knows. */
typedef struct
{
  const gchar *name;
  /* the element, named "f", and its settings as a launch line */
  const gchar *launch;
  GstVideoFormat format;
  ClRefPlaneFunc ref;
  gpointer ref_data;
} Filter;

static const ClTestEpsilon epsilon_settings = { 20, 9 };

static void ref_copy (const GstVideoFrame * in, guint plane, guint8 * out,
    gint out_stride, gpointer user_data);

/* clcomposite with alpha=1 gives its background, whatever the overlay */
static const Filter filters[] = {
  {"clboxblur", "clboxblur name=f diameter=5", GST_VIDEO_FORMAT_NV12,
      cl_test_ref_boxblur, GUINT_TO_POINTER (5)},
  {"clsobel", "clsobel name=f", GST_VIDEO_FORMAT_I420, cl_test_ref_sobel,
      GUINT_TO_POINTER (CL_REF_SOBEL_L1)},
  {"clepsilon", "clepsilon name=f", GST_VIDEO_FORMAT_NV12,
      cl_test_ref_epsilon, (gpointer) & epsilon_settings},
  {"clintegral", "clintegral name=f", GST_VIDEO_FORMAT_GRAY8, ref_copy, NULL},
  {"clcomposite", "clcomposite name=f alpha=1", GST_VIDEO_FORMAT_RGBA,
      ref_copy, NULL},
};

/* what the cases ended in, printed at the end of each test */
typedef struct
{
  guint tried, errors, frames;
} Counts;

static Counts counts;
static GstContext *shared;

static void
ref_copy (const GstVideoFrame * in, guint plane, guint8 * out,
    gint out_stride, gpointer user_data)
{
  ClRefPlane p;

  cl_test_plane_of (in, plane, &p);
  for (gint y = 0; y < p.height; y++)
    memcpy (out + (gsize) y * out_stride, p.data + (gsize) y * p.stride,
        (gsize) p.width * p.pstride);
}

static void
register_elements (void)
{
  static gboolean done;

  if (done)
    return;
  fail_unless (GST_ELEMENT_REGISTER (clboxblur, NULL) &&
      GST_ELEMENT_REGISTER (clcomposite, NULL) &&
      GST_ELEMENT_REGISTER (clsobel, NULL) &&
      GST_ELEMENT_REGISTER (clepsilon, NULL) &&
      GST_ELEMENT_REGISTER (clintegral, NULL));
  done = TRUE;
}

static GstClContext *
shared_cl_context (void)
{
  const GstStructure *s = gst_context_get_structure (shared);
  GstClContext *ctx = NULL;

  fail_unless (gst_structure_get (s, "context", GST_TYPE_CL_CONTEXT, &ctx,
          NULL));
  return ctx;
}

static void
setup (void)
{
  GError *err = NULL;
  GstClContext *ctx;

  register_elements ();
  ctx = gst_cl_context_new (-1, &err);
  fail_unless (ctx != NULL, "%s", err ? err->message : "");
  shared = gst_context_new_cl_context (ctx);
  gst_object_unref (ctx);
  memset (&counts, 0, sizeof (counts));
}

static void
teardown (void)
{
  g_clear_pointer (&shared, gst_context_unref);
  cl_test_teardown ();
}

static void
print_counts (const gchar * test)
{
  g_print ("%s: %u cases, %u clean errors, %u frames checked\n", test,
      counts.tried, counts.errors, counts.frames);
}

static GstCaps *
caps_of (GstVideoFormat format, gint width, gint height, gboolean device)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, gst_video_format_to_string (format), "width",
      G_TYPE_INT, width, "height", G_TYPE_INT, height, "framerate",
      GST_TYPE_FRACTION, 30, 1, NULL);

  if (device)
    gst_caps_set_features (caps, 0,
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CL, NULL));
  return caps;
}

/* appsrc "a" (and "b" for clcomposite's overlay) into the filter, appsink
 * "sink" out of it, on the test's context */
static GstElement *
pipeline_new (const Filter * f, const gchar * after)
{
  gchar *desc = g_strdup_printf ("appsrc name=a format=time ! %s %s %s ! "
      "appsink name=sink sync=false wait-on-eos=false", g_str_equal (f->name, "clcomposite") ?
      "f.sink_0 appsrc name=b format=time ! f.sink_1" : "", f->launch,
      after ? after : "");
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);

  fail_unless (pipeline != NULL, "%s: %s", desc, err ? err->message : "");
  gst_element_set_context (pipeline, shared);
  g_free (desc);
  return pipeline;
}

static void
push (GstElement * pipeline, const gchar * src_name, GstBuffer * buf,
    GstCaps * caps, guint index)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), src_name);

  if (caps)
    g_object_set (src, "caps", caps, NULL);
  GST_BUFFER_PTS (buf) = index * GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  GST_BUFFER_OFFSET (buf) = index;
  /* flushing once the pipeline failed: the buffer is dropped */
  gst_app_src_push_buffer (GST_APP_SRC (src), buf);
  gst_object_unref (src);
}

static void
end_of_stream (GstElement * pipeline, const gchar * src_name)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), src_name);

  if (src)
    gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_clear_object (&src);
}

/* Waits for the end of the stream or an error, failing on a hang; returns
 * the error's text, or %NULL at the end of the stream. */
static gchar *
wait_end (GstElement * pipeline, const gchar * what)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, HANG_TIMEOUT,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  gchar *text = NULL;

  fail_unless (msg != NULL, "%s: hangs, neither EOS nor an error", what);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    text = g_strdup (err->message);
    g_error_free (err);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  return text;
}

static GstBuffer *
pull (GstElement * pipeline, GstClockTime timeout)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
      timeout);
  GstBuffer *buf = NULL;

  if (sample) {
    buf = gst_buffer_ref (gst_sample_get_buffer (sample));
    gst_sample_unref (sample);
  }
  gst_object_unref (sink);
  return buf;
}

static gboolean
same_pixels (GstBuffer * got, GstBuffer * want, const GstVideoInfo * info)
{
  GstVideoFrame fg, fw;
  gboolean same = TRUE;

  fail_unless (gst_video_frame_map (&fg, (GstVideoInfo *) info, got,
          GST_MAP_READ), "the output does not map as %dx%d",
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  fail_unless (gst_video_frame_map (&fw, (GstVideoInfo *) info, want,
          GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fw) && same; p++) {
    ClRefPlane g, w;

    cl_test_plane_of (&fg, p, &g);
    cl_test_plane_of (&fw, p, &w);
    for (gint y = 0; y < w.height && same; y++)
      same = memcmp (g.data + (gsize) y * g.stride, w.data + (gsize) y *
          w.stride, (gsize) w.width * w.pstride) == 0;
  }
  gst_video_frame_unmap (&fw);
  gst_video_frame_unmap (&fg);
  return same;
}

/* ---- buffers that do not fit their caps ---- */

typedef enum
{
  /* broken: an element error is expected */
  CASE_EMPTY,
  CASE_ONE_BYTE,
  CASE_SHORT_BY_ONE,
  CASE_HALF,
  CASE_STRIDE_ZERO,
  CASE_STRIDE_NEGATIVE,
  CASE_STRIDE_UNDER_ROW,
  CASE_STRIDE_OVERFLOW,
  CASE_OFFSET_PAST_END,
  CASE_PLANE_PAST_END,
  CASE_OFFSET_OVERFLOW,
  CASE_META_SMALLER,
  CASE_META_OTHER_FORMAT,
  CASE_META_FEWER_PLANES,
  N_BROKEN,
  /* unusual but valid: the reference's output is expected */
  CASE_PADDED_REVERSED = N_BROKEN,
  CASE_META_LARGER,
  CASE_LONGER,
  N_CASES
} Case;

static const gchar *case_names[] = {
  "empty buffer", "one byte", "one byte short", "half the bytes",
  "stride 0", "negative stride", "stride under a row",
  "stride overflowing", "offset past the end", "plane past the end",
  "offset overflowing", "meta smaller than caps", "meta of another format",
  "meta with fewer planes", "planes padded, in reverse order",
  "meta larger than caps", "longer than needed",
};

/* Where the planes of a @format @width x @height frame go for @c, in
 * @layout (a GstVideoMeta when @meta is set), and how many bytes the
 * buffer gets. */
static gsize
case_layout (Case c, GstVideoFormat format, gint width, gint height,
    GstVideoInfo * layout, gboolean * meta)
{
  GstVideoInfo info;
  guint n, last;
  gsize size;

  gst_video_info_set_format (&info, format, width, height);
  *layout = info;
  size = GST_VIDEO_INFO_SIZE (&info);
  n = GST_VIDEO_INFO_N_PLANES (&info);
  last = n - 1;
  *meta = c >= CASE_STRIDE_ZERO && c != CASE_LONGER;
  switch (c) {
    case CASE_EMPTY:
      return 0;
    case CASE_ONE_BYTE:
      return 1;
    case CASE_SHORT_BY_ONE:
      return size - 1;
    case CASE_HALF:
      return size / 2;
    case CASE_STRIDE_ZERO:
      layout->stride[0] = 0;
      return size;
    case CASE_STRIDE_NEGATIVE:
      layout->stride[0] = -layout->stride[0];
      return size;
    case CASE_STRIDE_UNDER_ROW:
      layout->stride[0] = GST_VIDEO_INFO_COMP_WIDTH (&info, 0) *
          GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0) - 1;
      return size;
    case CASE_STRIDE_OVERFLOW:
      layout->stride[last] = G_MAXINT;
      return size;
    case CASE_OFFSET_PAST_END:
      layout->offset[last] = size + 64;
      return size;
    case CASE_PLANE_PAST_END:{
      /* its last pixel one byte past the end */
      gint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info.finfo, last,
          height);
      gint comp[GST_VIDEO_MAX_COMPONENTS];

      gst_video_format_info_component (info.finfo, last, comp);
      layout->offset[last] = size + 1 - (gsize) info.stride[last] *
          (rows - 1) - (gsize) GST_VIDEO_INFO_COMP_WIDTH (&info, comp[0]) *
          GST_VIDEO_INFO_COMP_PSTRIDE (&info, comp[0]);
      return size;
    }
    case CASE_OFFSET_OVERFLOW:
      layout->offset[last] = G_MAXSIZE - 16;
      return size;
    case CASE_META_SMALLER:
      layout->width = MAX (width - 2, 1);
      layout->height = MAX (height - 1, 1);
      return size;
    case CASE_META_OTHER_FORMAT:
      layout->finfo = gst_video_format_get_info (format ==
          GST_VIDEO_FORMAT_RGBA ? GST_VIDEO_FORMAT_BGRA : format ==
          GST_VIDEO_FORMAT_GRAY8 ? GST_VIDEO_FORMAT_Y41B :
          format == GST_VIDEO_FORMAT_NV12 ? GST_VIDEO_FORMAT_NV21 :
          GST_VIDEO_FORMAT_YV12);
      return size;
    case CASE_META_FEWER_PLANES:
      /* a one-plane format cannot have fewer; it gets one more */
      layout->finfo = info.finfo;
      return size;
    case CASE_PADDED_REVERSED:{
      gsize offset = 16;

      for (gint p = last; p >= 0; p--) {
        gint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info.finfo, p,
            height);

        layout->stride[p] += 24;
        layout->offset[p] = offset;
        offset += (gsize) layout->stride[p] * rows + 8;
      }
      return offset;
    }
    case CASE_META_LARGER:
      layout->width = width;
      layout->height = height;
      return size;
    case CASE_LONGER:
      return size + 4096;
    default:
      g_assert_not_reached ();
  }
  return size;
}

static gboolean
case_is_broken (Case c, gint width, gint height)
{
  /* a one-row plane's stride is never used: any stride is valid there */
  if (c == CASE_STRIDE_OVERFLOW && height == 1)
    return FALSE;
  /* nothing is smaller than 1x1 */
  if (c == CASE_META_SMALLER && width == 1 && height == 1)
    return FALSE;
  return c < N_BROKEN;
}

/* A frame of random bytes for case @c, in system memory or in GstClMemory
 * on the test's context. */
static GstBuffer *
case_buffer (Case c, GstVideoFormat format, gint width, gint height,
    gboolean device, guint32 seed)
{
  GstVideoInfo layout;
  gboolean meta;
  gsize size = case_layout (c, format, width, height, &layout, &meta);
  GstBuffer *buf;
  GRand *rand = g_rand_new_with_seed (seed);
  GstMapInfo map;

  if (device) {
    GstClContext *ctx = shared_cl_context ();
    GError *err = NULL;
    GstMemory *mem = gst_cl_memory_new (ctx, MAX (size, 1), &err);

    fail_unless (mem != NULL, "%s", err ? err->message : "");
    buf = gst_buffer_new ();
    gst_buffer_append_memory (buf, mem);
    /* an empty GstClMemory cannot be: the buffer is cut to none */
    gst_buffer_resize (buf, 0, size);
    gst_object_unref (ctx);
  } else {
    buf = gst_buffer_new_allocate (NULL, size, NULL);
  }
  if (size) {
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
    for (gsize i = 0; i < map.size; i++)
      map.data[i] = g_rand_int (rand) & 0xff;
    gst_buffer_unmap (buf, &map);
  }
  g_rand_free (rand);
  if (!meta)
    return buf;
  if (c == CASE_META_LARGER) {
    /* the caps' frame is the top-left of a larger one */
    GstVideoInfo large;

    gst_video_info_set_format (&large, format, width + 6, height + 4);
    gst_buffer_unref (buf);
    buf = case_buffer (CASE_LONGER, format, width + 6, height + 4, device,
        seed);
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, format,
        width + 6, height + 4, GST_VIDEO_INFO_N_PLANES (&large),
        large.offset, large.stride);
    return buf;
  }
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&layout), layout.width, layout.height,
      c == CASE_META_FEWER_PLANES ? (GST_VIDEO_INFO_N_PLANES (&layout) > 1 ?
          GST_VIDEO_INFO_N_PLANES (&layout) - 1 : 2) :
      GST_VIDEO_INFO_N_PLANES (&layout), layout.offset, layout.stride);
  return buf;
}

/* The frame of the element's reference for @in (the top-left @width x
 * @height of whatever its meta says), in the default layout. */
static GstBuffer *
expected_output (const Filter * f, GstBuffer * in, gint width, gint height)
{
  GstVideoInfo info;
  GstVideoFrame src, dst;
  GstBuffer *plain, *want;

  gst_video_info_set_format (&info, f->format, width, height);
  plain = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&src, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, &info, plain, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&dst); p++) {
    ClRefPlane d;

    cl_test_plane_of (&dst, p, &d);
    for (gint y = 0; y < d.height; y++)
      memcpy ((guint8 *) d.data + (gsize) y * d.stride,
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&src, p) + (gsize) y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&src, p), (gsize) d.width * d.pstride);
  }
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  want = cl_test_apply_ref (plain, &info, f->ref, f->ref_data);
  gst_buffer_unref (plain);
  return want;
}

/* One case: the hostile buffer on @pad ("a", or clcomposite's overlay "b"),
 * a good frame on the other. */
static void
run_case (const Filter * f, Case c, const gchar * pad, gboolean device,
    gint width, gint height)
{
  GstElement *pipeline = pipeline_new (f, NULL);
  GstCaps *caps = caps_of (f->format, width, height, device);
  GstCaps *sys_caps = caps_of (f->format, width, height, FALSE);
  GstBuffer *hostile = case_buffer (c, f->format, width, height, device,
      c * 7 + width);
  GstBuffer *good = case_buffer (CASE_LONGER, f->format, width, height,
      FALSE, 99);
  gboolean composite = g_str_equal (f->name, "clcomposite");
  gboolean on_a = g_str_equal (pad, "a");
  gchar *what = g_strdup_printf ("%s, %s on %s, %s, %dx%d", f->name,
      case_names[c], pad, device ? "memory:OpenCL" : "system memory", width,
      height);
  gchar *error;
  GstBuffer *out;

  counts.tried++;
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  push (pipeline, "a", gst_buffer_ref (on_a ? hostile : good),
      on_a ? caps : sys_caps, 0);
  if (composite)
    push (pipeline, "b", gst_buffer_ref (on_a ? good : hostile),
        on_a ? sys_caps : caps, 0);
  end_of_stream (pipeline, "a");
  if (composite)
    end_of_stream (pipeline, "b");
  error = wait_end (pipeline, what);
  out = pull (pipeline, 0);
  if (case_is_broken (c, width, height)) {
    fail_unless (error != NULL, "%s: no error, %s", what, out ? "a frame out" :
        "no frame either");
    fail_unless (strlen (error) > 20, "%s: an unhelpful error: %s", what,
        error);
    GST_INFO ("%s: %s", what, error);
    counts.errors++;
  } else {
    GstBuffer *want;
    GstVideoInfo info;

    fail_unless (error == NULL, "%s: %s", what, error);
    fail_unless (out != NULL, "%s: no frame out", what);
    want = expected_output (f, on_a ? hostile : good, width, height);
    gst_video_info_set_format (&info, f->format, width, height);
    fail_unless (same_pixels (out, want, &info), "%s: not the reference's "
        "frame", what);
    gst_buffer_unref (want);
    counts.frames++;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_clear_buffer (&out);
  g_free (error);
  g_free (what);
  gst_buffer_unref (good);
  gst_buffer_unref (hostile);
  gst_caps_unref (sys_caps);
  gst_caps_unref (caps);
  gst_object_unref (pipeline);
}

GST_START_TEST (test_broken_buffers)
{
  static const gint sizes[][2] = { {33, 17}, {1, 1} };

  for (guint e = 0; e < G_N_ELEMENTS (filters); e++)
    for (guint pad = 0; pad < (e == G_N_ELEMENTS (filters) - 1 ? 2 : 1);
        pad++)
      for (guint device = 0; device < 2; device++)
        for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
          for (Case c = 0; c < N_CASES; c++)
            run_case (&filters[e], c, pad ? "b" : "a", device, sizes[s][0],
                sizes[s][1]);
  print_counts ("broken buffers");
}

GST_END_TEST;

static Suite *
hostile_suite (void)
{
  Suite *s = suite_create ("hostile");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, setup, teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_broken_buffers);
  return s;
}

GST_CHECK_MAIN (hostile);
