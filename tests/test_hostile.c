/* gstclfilters tests: hostile input through appsrc
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Buffers shorter than their caps, GstVideoMetas whose planes do not fit
 * their buffer, caps changing every frame, properties flipped between their
 * extremes from another thread while playing, state cycles and many
 * pipelines at once, for every element of the list (clcases.h). Every
 * case ends in a frame equal to the reference or in an element error
 * saying what is wrong: never a crash, a hang, an access out of bounds (run
 * under AddressSanitizer) or a leak. The elements are linked in, so that
 * frames can also come in GstClMemory.
 */
#include "cltest.h"
#include "clcases.h"
#include "cllinked.h"
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"
#include "cl/gstclmemory.h"

#include <gst/app/app.h>
#include <string.h>

/* a pipeline that neither ends nor fails in this time hangs */
#define HANG_TIMEOUT (60 * GST_SECOND)

/* One element under test: its entry, with settings whose output the
 * reference knows, and what it says of itself. */
typedef struct
{
  ClTestElement e;
  /* the element, named "f", and its settings as a launch line */
  gchar *launch;
  /* its inputs: appsrc "a" into the first pad, "b" into the second... */
  guint n_inputs;
  const gchar *pads[CL_TEST_MAX_INPUTS];
  /* those of the formats below it takes, up to GST_VIDEO_FORMAT_UNKNOWN */
  GstVideoFormat formats[8];
} Filter;

static const gchar *const input_names[CL_TEST_MAX_INPUTS] = { "a", "b", "c",
  "d"
};

/* a format of each kind: two planes, four bytes a pixel, three planes,
 * four bytes in another order, one byte, packed 4:2:2 */
static const GstVideoFormat some_formats[] = { GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_xBGR,
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_UYVY
};

static Filter *filters;
static guint n_filters;

/* what the cases ended in, printed at the end of each test */
typedef struct
{
  guint tried, errors, frames;
} Counts;

static Counts counts;
static GstContext *shared;

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
  const gchar *const *names;
  GError *err = NULL;
  GstClContext *ctx;

  cl_test_register_elements ();
  names = cl_test_element_names ();
  n_filters = g_strv_length ((gchar **) names);
  filters = g_new0 (Filter, n_filters);
  for (guint i = 0; i < n_filters; i++) {
    Filter *f = &filters[i];
    guint n = 0;

    f->e = cl_test_element (names[i]);
    f->launch = g_strdup_printf ("%s name=f %s", names[i], f->e.settings);
    f->n_inputs = cl_test_element_inputs (names[i], f->pads);
    for (guint k = 0; k < G_N_ELEMENTS (some_formats); k++)
      if (cl_test_element_takes (names[i], some_formats[k]))
        f->formats[n++] = some_formats[k];
    f->formats[n] = GST_VIDEO_FORMAT_UNKNOWN;
  }
  ctx = gst_cl_context_new (-1, &err);
  fail_unless (ctx != NULL, "%s", err ? err->message : "");
  shared = gst_context_new_cl_context (ctx);
  gst_object_unref (ctx);
  memset (&counts, 0, sizeof (counts));
}

static void
teardown (void)
{
  for (guint i = 0; i < n_filters; i++)
    g_free (filters[i].launch);
  g_clear_pointer (&filters, g_free);
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

/* appsrc "a" (and "b"... for the other inputs of an aggregator) into the
 * filter, appsink "sink" out of it, on the test's context */
static GstElement *
pipeline_new (const Filter * f, const gchar * after)
{
  GString *desc = g_string_new (NULL);
  GError *err = NULL;
  GstElement *pipeline;

  if (f->n_inputs == 1)
    g_string_append_printf (desc, "appsrc name=a format=time ! %s", f->launch);
  else {
    for (guint i = 0; i < f->n_inputs; i++)
      g_string_append_printf (desc, "appsrc name=%s format=time ! f.%s ",
          input_names[i], f->pads[i]);
    g_string_append (desc, f->launch);
  }
  g_string_append_printf (desc, " %s ! appsink name=sink sync=false "
      "wait-on-eos=false", after ? after : "");
  pipeline = gst_parse_launch (desc->str, &err);
  fail_unless (pipeline != NULL, "%s: %s", desc->str, err ? err->message : "");
  gst_element_set_context (pipeline, shared);
  g_string_free (desc, TRUE);
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

/* @buf on every input of @f; a DISCONT for an element whose frames
 * depend on those before, so that each is a frame's reference */
static void
push_all (GstElement * pipeline, const Filter * f, GstBuffer * buf,
    GstCaps * caps, guint index)
{
  if (f->e.stateful) {
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  }
  for (guint i = 0; i < f->n_inputs; i++)
    push (pipeline, input_names[i], gst_buffer_ref (buf), caps, index);
  gst_buffer_unref (buf);
}

static void
end_of_streams (GstElement * pipeline, const Filter * f)
{
  for (guint i = 0; i < f->n_inputs; i++) {
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline),
        input_names[i]);

    gst_app_src_end_of_stream (GST_APP_SRC (src));
    gst_object_unref (src);
  }
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

/* @in's top-left @width x @height frame of @format (whatever its meta says
 * of its layout), in system memory and the default layout */
static GstBuffer *
plain_copy (GstBuffer * in, GstVideoFormat format, gint width, gint height)
{
  GstVideoInfo info;
  GstVideoFrame src, dst;
  GstBuffer *plain;

  gst_video_info_set_format (&info, format, width, height);
  plain = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&src, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, &info, plain, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&dst); p++) {
    ClRefPlane d;

    cl_test_plane_of (&dst, p, &d);
    for (gint y = 0; y < d.height; y++)
      memcpy ((guint8 *) d.data + (gsize) y * d.stride,
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&src, p) + (gsize) y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&src, p), cl_test_row_bytes (&dst, p));
  }
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  return plain;
}

/* What the element itself gives for plain frames @ins of @format, of
 * @sizes, one an input: for an element without a C reference, the frame
 * every layout must give. */
static GstBuffer *
run_plain (const Filter * f, GstVideoFormat format, GstBuffer ** ins,
    const gint (*sizes)[2])
{
  GstElement *pipeline = pipeline_new (f, NULL);
  GstBuffer *out;
  gchar *error;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (guint i = 0; i < f->n_inputs; i++) {
    GstCaps *caps = caps_of (format, sizes[i][0], sizes[i][1], FALSE);

    push (pipeline, input_names[i], gst_buffer_ref (ins[i]), caps, 0);
    gst_caps_unref (caps);
  }
  end_of_streams (pipeline, f);
  error = wait_end (pipeline, f->launch);
  fail_unless (error == NULL, "%s on plain %s frames: %s", f->launch,
      gst_video_format_to_string (format), error);
  out = pull (pipeline, 0);
  fail_unless (out != NULL, "%s on plain %s frames: no frame out", f->launch,
      gst_video_format_to_string (format));
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return out;
}

/* The frame the element must give for @ins, frames of @format (the top-left
 * @sizes[i] of whatever their metas say), one an input: its C reference's
 * of the first, or where it has none its own of plain copies of them all. */
static GstBuffer *
expected_output (const Filter * f, GstVideoFormat format, GstBuffer ** ins,
    const gint (*sizes)[2])
{
  GstBuffer *plain[CL_TEST_MAX_INPUTS], *want;
  GstVideoInfo info;

  for (guint i = 0; i < f->n_inputs; i++)
    plain[i] = plain_copy (ins[i], format, sizes[i][0], sizes[i][1]);
  if (f->e.ref.func) {
    gst_video_info_set_format (&info, format, sizes[0][0], sizes[0][1]);
    want = cl_test_apply_ref (plain[0], &info, f->e.ref.func,
        (gpointer) f->e.ref.data);
  } else {
    want = run_plain (f, format, plain, sizes);
  }
  for (guint i = 0; i < f->n_inputs; i++)
    gst_buffer_unref (plain[i]);
  return want;
}

/* the same, @in of @width x @height on every input */
static GstBuffer *
expected_output_all (const Filter * f, GstVideoFormat format, GstBuffer * in,
    gint width, gint height)
{
  GstBuffer *ins[CL_TEST_MAX_INPUTS];
  gint sizes[CL_TEST_MAX_INPUTS][2];

  for (guint i = 0; i < f->n_inputs; i++) {
    ins[i] = in;
    sizes[i][0] = width;
    sizes[i][1] = height;
  }
  return expected_output (f, format, ins, (const gint (*)[2]) sizes);
}

/* One case: the hostile buffer on @input ("a", "b"...), a good frame on
 * any other. */
static void
run_case (const Filter * f, Case c, guint input, gboolean device,
    gint width, gint height)
{
  GstElement *pipeline = pipeline_new (f, NULL);
  GstVideoFormat format = f->e.format;
  GstCaps *caps = caps_of (format, width, height, device);
  GstCaps *sys_caps = caps_of (format, width, height, FALSE);
  GstBuffer *hostile = case_buffer (c, format, width, height, device,
      c * 7 + width);
  GstBuffer *good = case_buffer (CASE_LONGER, format, width, height,
      FALSE, 99);
  GstBuffer *ins[CL_TEST_MAX_INPUTS];
  gint sizes[CL_TEST_MAX_INPUTS][2];
  gchar *what = g_strdup_printf ("%s, %s on %s, %s, %dx%d", f->e.name,
      case_names[c], input_names[input], device ? "memory:OpenCL" :
      "system memory", width, height);
  gchar *error;
  GstBuffer *out;

  counts.tried++;
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (guint i = 0; i < f->n_inputs; i++) {
    ins[i] = i == input ? hostile : good;
    sizes[i][0] = width;
    sizes[i][1] = height;
    push (pipeline, input_names[i], gst_buffer_ref (ins[i]),
        i == input ? caps : sys_caps, 0);
  }
  end_of_streams (pipeline, f);
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
    want = expected_output (f, format, ins, (const gint (*)[2]) sizes);
    gst_video_info_set_format (&info, format, width, height);
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

  for (guint e = 0; e < n_filters; e++)
    for (guint input = 0; input < filters[e].n_inputs; input++)
      for (guint device = 0; device < 2; device++)
        for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
          for (Case c = 0; c < N_CASES; c++)
            run_case (&filters[e], c, input, device, sizes[s][0], sizes[s][1]);
  print_counts ("broken buffers");
}

GST_END_TEST;

/* ---- caps changing every frame ---- */

/* Frames of @formats (up to GST_VIDEO_FORMAT_UNKNOWN) and odd sizes, the
 * caps changing with every one (on every input: the others of other sizes
 * in the same format, the output following the first's), then @after;
 * every output is the reference's frame of its inputs. */
static void
check_caps_every_frame (const Filter * f, const GstVideoFormat * formats,
    const gchar * after, gboolean device)
{
  static const gint sizes[][2] = { {1, 1}, {7, 5}, {33, 17}, {2, 3},
  {64, 1}, {1, 64}, {17, 17}, {3, 2}, {40, 9}, {1, 2}, {9, 1}, {31, 31}
  };
  guint n_formats = 0, n = G_N_ELEMENTS (sizes);
  GstElement *pipeline = pipeline_new (f, after);
  GstBuffer *in[G_N_ELEMENTS (sizes)][CL_TEST_MAX_INPUTS];
  gint in_sizes[G_N_ELEMENTS (sizes)][CL_TEST_MAX_INPUTS][2];
  gchar *error;

  while (formats[n_formats] != GST_VIDEO_FORMAT_UNKNOWN)
    n_formats++;
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (guint i = 0; i < n; i++) {
    GstVideoFormat format = formats[i % n_formats];

    for (guint k = 0; k < f->n_inputs; k++) {
      /* the first input in the order of the sizes, the others in reverse,
       * in system memory */
      const gint *size = k ? sizes[n - 1 - i] : sizes[i];
      GstCaps *caps = caps_of (format, size[0], size[1], device && !k);

      in_sizes[i][k][0] = size[0];
      in_sizes[i][k][1] = size[1];
      in[i][k] = case_buffer (CASE_LONGER, format, size[0], size[1],
          device && !k, k ? 50 * k + i : i);
      push (pipeline, input_names[k], gst_buffer_ref (in[i][k]), caps, i);
      gst_caps_unref (caps);
    }
  }
  end_of_streams (pipeline, f);
  error = wait_end (pipeline, f->e.name);
  fail_unless (error == NULL, "%s%s, caps changing every frame: %s",
      f->launch, after ? after : "", error);
  for (guint i = 0; i < n; i++) {
    GstBuffer *out = pull (pipeline, 0);
    GstVideoFormat format = formats[i % n_formats];
    GstBuffer *want;
    GstVideoInfo info;

    fail_unless (out != NULL, "%s: frame %u of %u missing", f->launch, i, n);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), pts_of (i));
    gst_video_info_set_format (&info, format, sizes[i][0], sizes[i][1]);
    want = expected_output (f, format, in[i], (const gint (*)[2]) in_sizes[i]);
    fail_unless (same_pixels (out, want, &info), "%s%s: frame %u (%s %dx%d) "
        "is not the reference's", f->launch, after ? after : "", i,
        GST_VIDEO_INFO_NAME (&info), sizes[i][0], sizes[i][1]);
    counts.frames++;
    gst_buffer_unref (want);
    gst_buffer_unref (out);
    for (guint k = 0; k < f->n_inputs; k++)
      gst_buffer_unref (in[i][k]);
  }
  counts.tried++;
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_START_TEST (test_caps_every_frame)
{
  for (guint e = 0; e < n_filters; e++) {
    const Filter *f = &filters[e];
    GstVideoFormat one[2] = { f->e.format, GST_VIDEO_FORMAT_UNKNOWN };

    if (f->n_inputs == 1) {
      check_caps_every_frame (f, f->formats, NULL, FALSE);
      check_caps_every_frame (f, f->formats, NULL, TRUE);
      /* kept on the device into an identity element */
      check_caps_every_frame (f, f->formats, "! clboxblur diameter=1", FALSE);
      continue;
    }
    /* an aggregator, one format a run: its inputs take the first's, and a
     * change on them all reaches them at different times (a clean
     * not-negotiated error, with a warning saying why); its own format
     * into the identity element too */
    check_caps_every_frame (f, one, NULL, FALSE);
    check_caps_every_frame (f, one, NULL, TRUE);
    check_caps_every_frame (f, one, "! clboxblur diameter=1", FALSE);
    for (guint k = 0; f->formats[k] != GST_VIDEO_FORMAT_UNKNOWN; k++) {
      if (f->formats[k] == f->e.format)
        continue;
      one[0] = f->formats[k];
      check_caps_every_frame (f, one, NULL, FALSE);
      check_caps_every_frame (f, one, NULL, TRUE);
    }
  }
  print_counts ("caps every frame");
}

GST_END_TEST;

/* ---- properties flipped from another thread while playing ---- */

typedef struct
{
  GstElement *element;
  const gchar *const *props;    /* name, value, value..., NULL, name... */
  volatile gint stop;
  guint flips;
} Flipper;

/* Sets each property to one of its values: a random one, or the first
 * (with no @rand). PAD::name is a pad's. */
static void
set_properties (Flipper * fl, GRand * rand)
{
  const gchar *const *p = fl->props;

  while (*p) {
    const gchar *name = *p++;
    const gchar *sep = strstr (name, "::");
    GObject *target = G_OBJECT (fl->element);
    GstPad *pad = NULL;
    guint n = 0;

    while (p[n])
      n++;
    if (sep) {
      gchar *pad_name = g_strndup (name, sep - name);

      pad = gst_element_get_static_pad (fl->element, pad_name);
      fail_unless (pad != NULL, "no pad %s", pad_name);
      g_free (pad_name);
      target = G_OBJECT (pad);
      name = sep + 2;
    }
    gst_util_set_object_arg (target, name, p[rand ? g_rand_int_range (rand,
                0, n) : 0]);
    gst_clear_object (&pad);
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

/* @min, @def and @max (transfer full) where they differ */
static void
add_range (GPtrArray * props, gchar * min, gchar * def, gchar * max)
{
  gboolean new_max = strcmp (max, min) != 0 && strcmp (max, def) != 0;

  g_ptr_array_add (props, min);
  if (strcmp (def, min) != 0)
    g_ptr_array_add (props, def);
  else
    g_free (def);
  if (new_max)
    g_ptr_array_add (props, max);
  else
    g_free (max);
}

static gchar *
double_string (gdouble v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_dtostr (buf, sizeof (buf), v));
}

/* Adds the properties of @target's own that may change while playing, as
 * @prefix name, with values of their range: each of an enum's, both of a
 * boolean's, a number's minimum, default and maximum. */
static void
add_sweep (GPtrArray * props, GObject * target, const gchar * prefix)
{
  guint n_pspecs;
  GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS
      (target), &n_pspecs);

  for (guint i = 0; i < n_pspecs; i++) {
    GParamSpec *p = pspecs[i];
    guint first = props->len;

    if (!cl_test_is_own_property (p) || !(p->flags & G_PARAM_WRITABLE) ||
        !(p->flags & GST_PARAM_MUTABLE_PLAYING))
      continue;
    g_ptr_array_add (props, g_strconcat (prefix, p->name, NULL));
    if (G_IS_PARAM_SPEC_ENUM (p)) {
      GEnumClass *klass = G_PARAM_SPEC_ENUM (p)->enum_class;

      for (guint k = 0; k < klass->n_values; k++)
        g_ptr_array_add (props, g_strdup (klass->values[k].value_nick));
    } else if (G_IS_PARAM_SPEC_BOOLEAN (p)) {
      g_ptr_array_add (props, g_strdup ("true"));
      g_ptr_array_add (props, g_strdup ("false"));
    } else if (G_IS_PARAM_SPEC_INT (p)) {
      GParamSpecInt *q = G_PARAM_SPEC_INT (p);

      add_range (props, g_strdup_printf ("%d", q->minimum),
          g_strdup_printf ("%d", q->default_value),
          g_strdup_printf ("%d", q->maximum));
    } else if (G_IS_PARAM_SPEC_UINT (p)) {
      GParamSpecUInt *q = G_PARAM_SPEC_UINT (p);

      add_range (props, g_strdup_printf ("%u", q->minimum),
          g_strdup_printf ("%u", q->default_value),
          g_strdup_printf ("%u", q->maximum));
    } else if (G_IS_PARAM_SPEC_INT64 (p)) {
      GParamSpecInt64 *q = G_PARAM_SPEC_INT64 (p);

      add_range (props, g_strdup_printf ("%" G_GINT64_FORMAT, q->minimum),
          g_strdup_printf ("%" G_GINT64_FORMAT, q->default_value),
          g_strdup_printf ("%" G_GINT64_FORMAT, q->maximum));
    } else if (G_IS_PARAM_SPEC_UINT64 (p)) {
      GParamSpecUInt64 *q = G_PARAM_SPEC_UINT64 (p);

      add_range (props, g_strdup_printf ("%" G_GUINT64_FORMAT, q->minimum),
          g_strdup_printf ("%" G_GUINT64_FORMAT, q->default_value),
          g_strdup_printf ("%" G_GUINT64_FORMAT, q->maximum));
    } else if (G_IS_PARAM_SPEC_DOUBLE (p)) {
      GParamSpecDouble *q = G_PARAM_SPEC_DOUBLE (p);

      add_range (props, double_string (q->minimum),
          double_string (q->default_value), double_string (q->maximum));
    } else if (G_IS_PARAM_SPEC_FLOAT (p)) {
      GParamSpecFloat *q = G_PARAM_SPEC_FLOAT (p);

      add_range (props, double_string (q->minimum),
          double_string (q->default_value), double_string (q->maximum));
    } else {
      /* no range to take values from (a string) */
      g_ptr_array_set_size (props, first);
      continue;
    }
    g_ptr_array_add (props, NULL);
  }
  g_free (pspecs);
}

/* Every property of @element's own and of its inputs' that may change while
 * playing, with values of its range, as Flipper takes them. */
static GPtrArray *
sweep_properties (GstElement * element)
{
  GPtrArray *props = g_ptr_array_new_with_free_func (g_free);

  add_sweep (props, G_OBJECT (element), "");
  GST_OBJECT_LOCK (element);
  for (GList * l = element->sinkpads; l; l = l->next) {
    gchar *prefix = g_strdup_printf ("%s::", GST_PAD_NAME (l->data));

    add_sweep (props, l->data, prefix);
    g_free (prefix);
  }
  GST_OBJECT_UNLOCK (element);
  g_ptr_array_add (props, NULL);
  return props;
}

/* @n_frames frames of @in through @f while @props flip (none: every
 * property of its own, between its extremes); each output must be one of
 * @wants (none: any frame of the right size), and carry what the element's
 * entry checks besides. */
static void
check_flipping (const Filter * f, const gchar * const *props, GstBuffer * in,
    const GstVideoInfo * info, GstBuffer ** wants, guint n_wants,
    guint n_frames)
{
  GstElement *pipeline = pipeline_new (f, NULL);
  Flipper fl = { gst_bin_get_by_name (GST_BIN (pipeline), "f"), props, 0, 0 };
  GPtrArray *sweep = NULL;
  GstCaps *caps = gst_video_info_to_caps (info);
  GThread *thread;
  guint i;

  if (!props) {
    sweep = sweep_properties (fl.element);
    fl.props = (const gchar * const *) sweep->pdata;
  }
  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  /* no frame with the defaults, which need not be among the values */
  set_properties (&fl, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  thread = g_thread_new ("flipper", flip_properties, &fl);
  for (i = 0; i < n_frames; i++) {
    GstBuffer *out;
    gchar *error = NULL;
    guint w;

    push_all (pipeline, f, gst_buffer_ref (in), i ? NULL : caps, i);
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
      fail ("%s, properties flipping: no frame %u: %s", f->e.name, i,
          error ? error : "hangs");
    }
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), pts_of (i));
    for (w = 0; w < n_wants; w++)
      if (same_pixels (out, wants[w], info))
        break;
    fail_unless (n_wants == 0 || w < n_wants, "%s, properties flipping: "
        "frame %u is none of the references' frames", f->e.name, i);
    if (n_wants == 0) {
      GstVideoFrame frame;

      fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, out,
              GST_MAP_READ), "%s, properties flipping: frame %u is not "
          "%dx%d", f->e.name, i, info->width, info->height);
      gst_video_frame_unmap (&frame);
    }
    fail_unless (!f->e.check_output || f->e.check_output (in, out, info),
        "%s, properties flipping: frame %u carries the wrong output",
        f->e.name, i);
    counts.frames++;
    gst_buffer_unref (out);
  }
  g_atomic_int_set (&fl.stop, 1);
  g_thread_join (thread);
  GST_INFO ("%s: %u settings while %u frames went through", f->e.name,
      fl.flips, n_frames);
  counts.tried++;
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (fl.element);
  gst_object_unref (pipeline);
  gst_caps_unref (caps);
  if (sweep)
    g_ptr_array_unref (sweep);
}

#define N_FLIP_FRAMES 40

GST_START_TEST (test_properties_flipping)
{
  GstVideoInfo info;
  GstBuffer *in;

  for (guint e = 0; e < n_filters; e++) {
    const Filter *f = &filters[e];

    /* the entry's, every frame one of the references' */
    for (const ClTestFlip * flip = f->e.flips; flip && flip->props; flip++) {
      GstBuffer *wants[G_N_ELEMENTS (flip->wants)];
      guint n_wants = 0;

      in = case_buffer (CASE_LONGER, flip->format, 40, 30, FALSE, 1);
      gst_video_info_set_format (&info, flip->format, 40, 30);
      for (; n_wants < G_N_ELEMENTS (flip->wants) &&
          flip->wants[n_wants].func; n_wants++)
        wants[n_wants] = cl_test_apply_ref (in, &info,
            flip->wants[n_wants].func, (gpointer) flip->wants[n_wants].data);
      check_flipping (f, flip->props, in, &info, wants, n_wants, N_FLIP_FRAMES);
      for (guint w = 0; w < n_wants; w++)
        gst_buffer_unref (wants[w]);
      gst_buffer_unref (in);
    }
    /* and every property of its own, and of its inputs', over its range */
    in = case_buffer (CASE_LONGER, f->e.format, 40, 30, FALSE, 3);
    gst_video_info_set_format (&info, f->e.format, 40, 30);
    check_flipping (f, NULL, in, &info, NULL, 0, N_FLIP_FRAMES);
    gst_buffer_unref (in);
  }
  print_counts ("properties flipping");
}

GST_END_TEST;

/* ---- state cycles ---- */

#define N_CYCLES 100

GST_START_TEST (test_state_cycles)
{
  for (guint e = 0; e < n_filters; e++) {
    const Filter *f = &filters[e];
    GstVideoFormat format = f->e.format;
    GstElement *pipeline = pipeline_new (f, NULL);
    GstBuffer *in = case_buffer (CASE_LONGER, format, 33, 17, FALSE, e);
    GstBuffer *want = expected_output_all (f, format, in, 33, 17);
    GstCaps *caps = caps_of (format, 33, 17, FALSE);
    GstVideoInfo info;

    gst_video_info_set_format (&info, format, 33, 17);
    for (guint i = 0; i < N_CYCLES; i++) {
      GstBuffer *out;

      fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
          GST_STATE_CHANGE_FAILURE, "%s: cycle %u failed", f->e.name, i);
      /* each cycle a new stream, from 0 */
      push_all (pipeline, f, gst_buffer_ref (in), caps, 0);
      out = pull (pipeline, HANG_TIMEOUT);
      fail_unless (out != NULL, "%s: no frame in cycle %u", f->e.name, i);
      fail_unless (same_pixels (out, want, &info), "%s: cycle %u: not the "
          "reference's frame", f->e.name, i);
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
  const Filter *f = &filters[st->index % n_filters];
  GstVideoFormat format = f->e.format;
  gint width = 17 + st->index * 5, height = 9 + st->index * 3;
  GstElement *pipeline = pipeline_new (f, st->index % 3 == 0 ?
      "! clboxblur diameter=1" : NULL);
  GstCaps *caps = caps_of (format, width, height, FALSE);
  GstBuffer *in[N_STREAM_FRAMES], *want[N_STREAM_FRAMES];
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, format, width, height);
  for (i = 0; i < N_STREAM_FRAMES; i++) {
    in[i] = case_buffer (CASE_LONGER, format, width, height, FALSE,
        st->index * 100 + i);
    want[i] = expected_output_all (f, format, in[i], width, height);
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (i = 0; i < N_STREAM_FRAMES; i++)
    push_all (pipeline, f, gst_buffer_ref (in[i]), i ? NULL : caps, i);
  for (i = 0; i < N_STREAM_FRAMES && !st->failure; i++) {
    GstBuffer *out = pull (pipeline, HANG_TIMEOUT);

    if (!out)
      st->failure = g_strdup_printf ("%s #%u: no frame %u", f->e.name,
          st->index, i);
    else if (GST_BUFFER_PTS (out) != pts_of (i))
      st->failure = g_strdup_printf ("%s #%u: frame at %" GST_TIME_FORMAT
          " where %u was due", f->e.name, st->index,
          GST_TIME_ARGS (GST_BUFFER_PTS (out)), i);
    else if (!same_pixels (out, want[i], &info))
      st->failure = g_strdup_printf ("%s #%u: frame %u is not the "
          "reference's", f->e.name, st->index, i);
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
