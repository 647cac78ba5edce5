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
#include "cllinked.h"
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"
#include "cl/gstclmemory.h"

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

  cl_test_register_elements ();
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

static GstClockTime
pts_of (guint index)
{
  return gst_util_uint64_scale (index, GST_SECOND, 30);
}

static void
push (GstElement * pipeline, const gchar * src_name, GstBuffer * buf,
    GstCaps * caps, guint index)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), src_name);

  if (caps)
    g_object_set (src, "caps", caps, NULL);
  GST_BUFFER_PTS (buf) = pts_of (index);
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
  CASE_CROP_WRAPPING,
  CASE_LONGER,
  N_CASES
} Case;

static const gchar *case_names[] = {
  "empty buffer", "one byte", "one byte short", "half the bytes",
  "stride 0", "negative stride", "stride under a row",
  "stride overflowing", "offset past the end", "plane past the end",
  "offset overflowing", "meta smaller than caps", "meta of another format",
  "meta with fewer planes", "planes padded, in reverse order",
  "meta larger than caps", "crop whose corner wraps past 2^32 (ignored)",
  "longer than needed",
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
    case CASE_CROP_WRAPPING:
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
  if (c == CASE_CROP_WRAPPING) {
    /* its bottom, y + height, wraps to height - 1 in 32 bits: a crop that
     * does not fit, ignored with a warning */
    GstVideoCropMeta *crop = gst_buffer_add_video_crop_meta (buf);

    crop->x = 0;
    crop->y = G_MAXUINT;
    crop->width = width;
    crop->height = height;
  }
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

/* ---- caps changing every frame ---- */

/* the formats each element takes, a few of them */
static const GstVideoFormat *
formats_of (const Filter * f)
{
  static const GstVideoFormat luma[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_UNKNOWN
  };
  static const GstVideoFormat any[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_xBGR,
    GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_UNKNOWN
  };
  static const GstVideoFormat composite[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_UNKNOWN, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_UNKNOWN
  };

  if (g_str_equal (f->name, "clboxblur"))
    return any;
  /* one format a run: sink_1 takes sink_0's, and a change on both pads
   * reaches them at different times (a clean not-negotiated error, with
   * a warning saying why) */
  if (g_str_equal (f->name, "clcomposite"))
    return composite + (f->format == GST_VIDEO_FORMAT_RGBA ? 0 : 2);
  return luma;
}

/* Frames of @f's formats and odd sizes, the caps changing with every one
 * (on both pads of clcomposite, whose output follows sink_0), then @after;
 * every output is the reference's frame of its input. */
static void
check_caps_every_frame (const Filter * f, const gchar * after,
    gboolean device)
{
  static const gint sizes[][2] = { {1, 1}, {7, 5}, {33, 17}, {2, 3},
  {64, 1}, {1, 64}, {17, 17}, {3, 2}, {40, 9}, {1, 2}, {9, 1}, {31, 31}
  };
  const GstVideoFormat *formats = formats_of (f);
  guint n_formats = 0, n = G_N_ELEMENTS (sizes);
  GstElement *pipeline = pipeline_new (f, after);
  gboolean composite = g_str_equal (f->name, "clcomposite");
  GstBuffer *in[G_N_ELEMENTS (sizes)];
  gchar *error;

  while (formats[n_formats] != GST_VIDEO_FORMAT_UNKNOWN)
    n_formats++;
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (guint i = 0; i < n; i++) {
    GstVideoFormat format = formats[i % n_formats];
    GstCaps *caps = caps_of (format, sizes[i][0], sizes[i][1], FALSE);

    in[i] = case_buffer (CASE_LONGER, format, sizes[i][0], sizes[i][1],
        device, i);
    if (device)
      gst_caps_set_features (caps, 0,
          gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CL, NULL));
    push (pipeline, "a", gst_buffer_ref (in[i]), caps, i);
    if (composite) {
      /* the overlay of another size, in the same format */
      GstCaps *ov_caps = caps_of (format, sizes[n - 1 - i][0],
          sizes[n - 1 - i][1], FALSE);

      push (pipeline, "b", case_buffer (CASE_LONGER, format,
              sizes[n - 1 - i][0], sizes[n - 1 - i][1], FALSE, 50 + i),
          ov_caps, i);
      gst_caps_unref (ov_caps);
    }
    gst_caps_unref (caps);
  }
  end_of_stream (pipeline, "a");
  if (composite)
    end_of_stream (pipeline, "b");
  error = wait_end (pipeline, f->name);
  fail_unless (error == NULL, "%s%s, caps changing every frame: %s",
      f->launch, after ? after : "", error);
  for (guint i = 0; i < n; i++) {
    GstBuffer *out = pull (pipeline, 0);
    Filter as_format = *f;
    GstBuffer *want;
    GstVideoInfo info;

    fail_unless (out != NULL, "%s: frame %u of %u missing", f->launch, i, n);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), pts_of (i));
    as_format.format = formats[i % n_formats];
    gst_video_info_set_format (&info, as_format.format, sizes[i][0],
        sizes[i][1]);
    want = expected_output (&as_format, in[i], sizes[i][0], sizes[i][1]);
    fail_unless (same_pixels (out, want, &info), "%s%s: frame %u (%s %dx%d) "
        "is not the reference's", f->launch, after ? after : "", i,
        GST_VIDEO_INFO_NAME (&info), sizes[i][0], sizes[i][1]);
    counts.frames++;
    gst_buffer_unref (want);
    gst_buffer_unref (out);
    gst_buffer_unref (in[i]);
  }
  counts.tried++;
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_START_TEST (test_caps_every_frame)
{
  Filter nv12_composite = filters[G_N_ELEMENTS (filters) - 1];

  for (guint e = 0; e < G_N_ELEMENTS (filters); e++) {
    check_caps_every_frame (&filters[e], NULL, FALSE);
    check_caps_every_frame (&filters[e], NULL, TRUE);
    /* kept on the device into an identity element */
    check_caps_every_frame (&filters[e], "! clboxblur diameter=1", FALSE);
  }
  /* clcomposite in NV12 too */
  nv12_composite.format = GST_VIDEO_FORMAT_NV12;
  check_caps_every_frame (&nv12_composite, NULL, FALSE);
  check_caps_every_frame (&nv12_composite, NULL, TRUE);
  print_counts ("caps every frame");
}

GST_END_TEST;

/* ---- properties flipped from another thread while playing ---- */

typedef struct
{
  GstElement *element;
  GstPad *pad;
  const gchar *const *props;    /* name, value, value..., NULL, name... */
  volatile gint stop;
  guint flips;
} Flipper;

/* Sets each property to one of its values: a random one, or the first
 * (with no @rand). */
static void
set_properties (Flipper * fl, GRand * rand)
{
  const gchar *const *p = fl->props;

  while (*p) {
    const gchar *name = *p++;
    guint n = 0;
    GObject *target = G_OBJECT (fl->element);

    while (p[n])
      n++;
    if (g_str_has_prefix (name, "sink_1::")) {
      target = G_OBJECT (fl->pad);
      name += strlen ("sink_1::");
    }
    gst_util_set_object_arg (target, name, p[rand ? g_rand_int_range (rand,
                0, n) : 0]);
    fl->flips++;
    p += n + 1;
  }
}

/* Flips the properties as fast as it can. */
static gpointer
flip_properties (gpointer data)
{
  Flipper *fl = data;
  GRand *rand = g_rand_new_with_seed (5);

  while (!g_atomic_int_get (&fl->stop)) {
    set_properties (fl, rand);
    g_thread_yield ();
  }
  g_rand_free (rand);
  return NULL;
}

/* SPEC: clamp (A + g), g on R, G, B and Y only */
static void
ref_gamma (const GstVideoFrame * in, guint plane, guint8 * out,
    gint out_stride, gpointer user_data)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gint gamma = GPOINTER_TO_INT (user_data);
  ClRefPlane p;

  cl_test_plane_of (in, plane, &p);
  ref_copy (in, plane, out, out_stride, NULL);
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    gint g = c == GST_VIDEO_COMP_A || (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) &&
        c != 0) ? 0 : gamma;

    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != plane)
      continue;
    for (gint y = 0; y < p.height; y++)
      for (gint x = 0; x < p.width; x++) {
        guint8 *o = out + (gsize) y * out_stride + x * p.pstride +
            GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);

        *o = CLAMP (*o + g, 0, 255);
      }
  }
}

/* Checks that the luma sums of clintegral's meta on @out are those of
 * @in's luma. */
static gboolean
integral_sums_right (GstBuffer * in, GstBuffer * out, const GstVideoInfo * info)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (out, "GstClIntegralMeta");
  GstBuffer *sum = NULL;
  GstVideoFrame frame;
  GstMapInfo map;
  gint stride = 0;
  gboolean right = TRUE;

  if (!meta || !gst_structure_get (gst_custom_meta_get_structure (meta), "sum",
          GST_TYPE_BUFFER, &sum, "stride", G_TYPE_INT, &stride, NULL))
    return FALSE;
  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, in,
          GST_MAP_READ));
  fail_unless (gst_buffer_map (sum, &map, GST_MAP_READ));
  for (gint y = 0; y < info->height && right; y++) {
    guint32 row = 0;

    for (gint x = 0; x < info->width && right; x++) {
      const guint8 *luma = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
      guint32 above = y ? ((guint32 *) (map.data + (gsize) (y - 1) *
              stride))[x] : 0;

      row += luma[(gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + x];
      right = ((guint32 *) (map.data + (gsize) y * stride))[x] == above + row;
    }
  }
  gst_buffer_unmap (sum, &map);
  gst_buffer_unref (sum);
  gst_video_frame_unmap (&frame);
  return right;
}

/* @n_frames frames of @in through @f while @props flip; each output must
 * be one of @wants (or, for clintegral, carry the right sums). */
static void
check_flipping (const Filter * f, const gchar * const *props, GstBuffer * in,
    const GstVideoInfo * info, GstBuffer ** wants, guint n_wants,
    guint n_frames)
{
  GstElement *pipeline = pipeline_new (f, NULL);
  Flipper fl = { gst_bin_get_by_name (GST_BIN (pipeline), "f"), NULL, props,
    0, 0
  };
  gboolean composite = g_str_equal (f->name, "clcomposite");
  GstCaps *caps = gst_video_info_to_caps (info);
  GThread *thread;
  guint i;

  if (composite)
    fl.pad = gst_element_get_static_pad (fl.element, "sink_1");
  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  /* no frame with the defaults, which need not be among the values */
  set_properties (&fl, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  thread = g_thread_new ("flipper", flip_properties, &fl);
  for (i = 0; i < n_frames; i++) {
    GstBuffer *out;
    gchar *error = NULL;
    guint w;

    push (pipeline, "a", gst_buffer_ref (in), i ? NULL : caps, i);
    if (composite)
      push (pipeline, "b", gst_buffer_ref (in), i ? NULL : caps, i);
    out = pull (pipeline, HANG_TIMEOUT);
    if (!out) {
      GstBus *bus = gst_element_get_bus (pipeline);
      GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
      GError *err = NULL;

      if (msg) {
        gst_message_parse_error (msg, &err, NULL);
        error = g_strdup (err->message);
        g_error_free (err);
        gst_message_unref (msg);
      }
      gst_object_unref (bus);
      fail ("%s, properties flipping: no frame %u: %s", f->name, i,
          error ? error : "hangs");
    }
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), pts_of (i));
    for (w = 0; w < n_wants; w++)
      if (same_pixels (out, wants[w], info))
        break;
    fail_unless (n_wants == 0 || w < n_wants, "%s, properties flipping: "
        "frame %u is none of the references' frames", f->name, i);
    fail_unless (!g_str_equal (f->name, "clintegral") ||
        integral_sums_right (in, out, info), "clintegral, properties "
        "flipping: frame %u has wrong sums", i);
    counts.frames++;
    gst_buffer_unref (out);
  }
  g_atomic_int_set (&fl.stop, 1);
  g_thread_join (thread);
  GST_INFO ("%s: %u settings while %u frames went through", f->name,
      fl.flips, n_frames);
  counts.tried++;
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_clear_object (&fl.pad);
  gst_object_unref (fl.element);
  gst_object_unref (pipeline);
  gst_caps_unref (caps);
}

/* the references' frames for every setting the flipper may leave */
static GstBuffer *
ref_frame (GstBuffer * in, const GstVideoInfo * info, ClRefPlaneFunc ref,
    gpointer data)
{
  return cl_test_apply_ref (in, info, ref, data);
}

#define N_FLIP_FRAMES 40

GST_START_TEST (test_properties_flipping)
{
  static const gchar *const blur[] = { "diameter", "1", "2", "3", "254",
    "255", NULL, "variant", "reference", "optimized", NULL, NULL
  };
  static const gchar *const sobel[] = { "mode", "l1", "l2", "x", "y", NULL,
    "variant", "reference", "optimized", NULL, NULL
  };
  static const gchar *const epsilon[] = { "threshold", "0", "1", "255", NULL,
    "diameter", "1", "2", "15", NULL, "variant", "reference", "optimized",
    NULL, NULL
  };
  static const gchar *const integral[] = { "squared", "true", "false", NULL,
    "variant", "reference", "optimized", NULL, NULL
  };
  static const gchar *const composite[] = { "gamma", "-255", "255", NULL,
    "operator", "blend", "over", NULL, "variant", "reference", "optimized",
    NULL, "sink_1::xpos", "-2147483648", "2147483647", "-7", "0", "20", NULL,
    "sink_1::ypos", "-2147483648", "2147483647", "-3", "0", "9", NULL, NULL
  };
  static const gchar *const composite_alpha[] = { "alpha", "0", "1", "0.5",
    NULL, "gamma", "-255", "0", "255", NULL, "sink_1::xpos", "-2147483648",
    "2147483647", "-7", "20", NULL, "sink_1::ypos", "-2147483648",
    "2147483647", "9", NULL, NULL
  };
  GstVideoInfo info;
  GstBuffer *in, *wants[6];
  ClTestEpsilon eps[4] = { {1, 3}, {1, 15}, {255, 3}, {255, 15} };

  /* clboxblur: 1 (passthrough), 3, 255 */
  in = case_buffer (CASE_LONGER, GST_VIDEO_FORMAT_NV12, 40, 30, FALSE, 1);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 40, 30);
  wants[0] = ref_frame (in, &info, ref_copy, NULL);
  wants[1] = ref_frame (in, &info, cl_test_ref_boxblur, GUINT_TO_POINTER (3));
  wants[2] = ref_frame (in, &info, cl_test_ref_boxblur,
      GUINT_TO_POINTER (255));
  check_flipping (&filters[0], blur, in, &info, wants, 3, N_FLIP_FRAMES);
  for (guint i = 0; i < 3; i++)
    gst_buffer_unref (wants[i]);

  /* clsobel: every mode */
  for (guint m = 0; m < 4; m++)
    wants[m] = ref_frame (in, &info, cl_test_ref_sobel, GUINT_TO_POINTER (m));
  check_flipping (&filters[1], sobel, in, &info, wants, 4, N_FLIP_FRAMES);
  for (guint i = 0; i < 4; i++)
    gst_buffer_unref (wants[i]);

  /* clepsilon: the identity, and each threshold with each diameter */
  wants[0] = ref_frame (in, &info, ref_copy, NULL);
  for (guint i = 0; i < 4; i++)
    wants[i + 1] = ref_frame (in, &info, cl_test_ref_epsilon, &eps[i]);
  check_flipping (&filters[2], epsilon, in, &info, wants, 5, N_FLIP_FRAMES);
  for (guint i = 0; i < 5; i++)
    gst_buffer_unref (wants[i]);

  /* clintegral: the video untouched, the sums right */
  wants[0] = ref_frame (in, &info, ref_copy, NULL);
  check_flipping (&filters[3], integral, in, &info, wants, 1, N_FLIP_FRAMES);
  gst_buffer_unref (wants[0]);
  gst_buffer_unref (in);

  /* clcomposite with alpha=1: the background, brightened or darkened all
   * over, wherever the overlay goes */
  for (guint f = 0; f < 2; f++) {
    GstVideoFormat format = f ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_RGBA;

    in = case_buffer (CASE_LONGER, format, 40, 30, FALSE, 2);
    gst_video_info_set_format (&info, format, 40, 30);
    wants[0] = ref_frame (in, &info, ref_gamma, GINT_TO_POINTER (-255));
    wants[1] = ref_frame (in, &info, ref_gamma, GINT_TO_POINTER (255));
    check_flipping (&filters[4], composite, in, &info, wants, 2,
        N_FLIP_FRAMES);
    /* and alpha too: frames of the right size, no error */
    check_flipping (&filters[4], composite_alpha, in, &info, NULL, 0,
        N_FLIP_FRAMES);
    gst_buffer_unref (wants[0]);
    gst_buffer_unref (wants[1]);
    gst_buffer_unref (in);
  }
  print_counts ("properties flipping");
}

GST_END_TEST;

/* ---- state cycles ---- */

#define N_CYCLES 100

GST_START_TEST (test_state_cycles)
{
  for (guint e = 0; e < G_N_ELEMENTS (filters); e++) {
    const Filter *f = &filters[e];
    GstElement *pipeline = pipeline_new (f, NULL);
    GstBuffer *in = case_buffer (CASE_LONGER, f->format, 33, 17, FALSE, e);
    GstBuffer *want = expected_output (f, in, 33, 17);
    GstCaps *caps = caps_of (f->format, 33, 17, FALSE);
    GstVideoInfo info;

    gst_video_info_set_format (&info, f->format, 33, 17);
    for (guint i = 0; i < N_CYCLES; i++) {
      GstBuffer *out;

      fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
          GST_STATE_CHANGE_FAILURE, "%s: cycle %u failed", f->name, i);
      /* each cycle a new stream, from 0 */
      push (pipeline, "a", gst_buffer_ref (in), caps, 0);
      if (g_str_equal (f->name, "clcomposite"))
        push (pipeline, "b", gst_buffer_ref (in), caps, 0);
      out = pull (pipeline, HANG_TIMEOUT);
      fail_unless (out != NULL, "%s: no frame in cycle %u", f->name, i);
      fail_unless (same_pixels (out, want, &info), "%s: cycle %u: not the "
          "reference's frame", f->name, i);
      gst_buffer_unref (out);
      counts.frames++;
      /* every other cycle from PLAYING at once, else by way of READY */
      if (i % 2)
        fail_unless (gst_element_set_state (pipeline, GST_STATE_READY) ==
            GST_STATE_CHANGE_SUCCESS);
      fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL) ==
          GST_STATE_CHANGE_SUCCESS);
      counts.tried++;
    }
    gst_object_unref (pipeline);
    gst_caps_unref (caps);
    gst_buffer_unref (want);
    gst_buffer_unref (in);
  }
  print_counts ("state cycles");
}

GST_END_TEST;

/* ---- many pipelines at once ---- */

#define N_PIPELINES 16
#define N_STREAM_FRAMES 30

typedef struct
{
  guint index;
  gchar *failure;
} Stream;

/* One pipeline of its own element, format and size, every frame checked
 * against the reference and in order; sets @failure rather than failing
 * the test from another thread. */
static gpointer
run_stream (gpointer data)
{
  Stream *st = data;
  const Filter *f = &filters[st->index % G_N_ELEMENTS (filters)];
  gint width = 17 + st->index * 5, height = 9 + st->index * 3;
  GstElement *pipeline = pipeline_new (f, st->index % 3 == 0 ?
      "! clboxblur diameter=1" : NULL);
  GstCaps *caps = caps_of (f->format, width, height, FALSE);
  GstBuffer *in[N_STREAM_FRAMES], *want[N_STREAM_FRAMES];
  GstVideoInfo info;
  gboolean composite = g_str_equal (f->name, "clcomposite");
  guint i;

  gst_video_info_set_format (&info, f->format, width, height);
  for (i = 0; i < N_STREAM_FRAMES; i++) {
    in[i] = case_buffer (CASE_LONGER, f->format, width, height, FALSE,
        st->index * 100 + i);
    want[i] = expected_output (f, in[i], width, height);
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (i = 0; i < N_STREAM_FRAMES; i++) {
    push (pipeline, "a", gst_buffer_ref (in[i]), i ? NULL : caps, i);
    if (composite)
      push (pipeline, "b", gst_buffer_ref (in[i]), i ? NULL : caps, i);
  }
  for (i = 0; i < N_STREAM_FRAMES && !st->failure; i++) {
    GstBuffer *out = pull (pipeline, HANG_TIMEOUT);

    if (!out)
      st->failure = g_strdup_printf ("%s #%u: no frame %u", f->name,
          st->index, i);
    else if (GST_BUFFER_PTS (out) != pts_of (i))
      st->failure = g_strdup_printf ("%s #%u: frame at %" GST_TIME_FORMAT
          " where %u was due", f->name, st->index,
          GST_TIME_ARGS (GST_BUFFER_PTS (out)), i);
    else if (!same_pixels (out, want[i], &info))
      st->failure = g_strdup_printf ("%s #%u: frame %u is not the "
          "reference's", f->name, st->index, i);
    gst_clear_buffer (&out);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  for (i = 0; i < N_STREAM_FRAMES; i++) {
    gst_buffer_unref (in[i]);
    gst_buffer_unref (want[i]);
  }
  gst_caps_unref (caps);
  gst_object_unref (pipeline);
  return NULL;
}

GST_START_TEST (test_many_pipelines)
{
  Stream streams[N_PIPELINES];
  GThread *threads[N_PIPELINES];

  for (guint i = 0; i < N_PIPELINES; i++) {
    streams[i].index = i;
    streams[i].failure = NULL;
    threads[i] = g_thread_new ("stream", run_stream, &streams[i]);
  }
  for (guint i = 0; i < N_PIPELINES; i++)
    g_thread_join (threads[i]);
  for (guint i = 0; i < N_PIPELINES; i++) {
    fail_unless (streams[i].failure == NULL, "%s", streams[i].failure);
    counts.tried++;
    counts.frames += N_STREAM_FRAMES;
  }
  print_counts ("many pipelines");
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
  tcase_add_test (tc, test_caps_every_frame);
  tcase_add_test (tc, test_properties_flipping);
  tcase_add_test (tc, test_state_cycles);
  tcase_add_test (tc, test_many_pipelines);
  return s;
}

GST_CHECK_MAIN (hostile);
