/* gstclfilters tests: frames, harnesses and comparisons shared by the tests
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <string.h>

#include "cltest.h"

#include <gst/app/gstappsink.h>

/**
 * cl_test_frame_new:
 * @stride_pad: bytes added to every row stride, and between planes; 0
 *   for the default layout
 * @info: (out): the layout of the buffer
 *
 * A frame of random bytes (padding included) with a GstVideoMeta giving its
 * strides and plane offsets.
 */
GstBuffer *
cl_test_frame_new (GstVideoFormat format, gint width, gint height,
    guint stride_pad, guint32 seed, GstVideoInfo * info)
{
  GRand *rand = g_rand_new_with_seed (seed);
  GstBuffer *buf;
  GstMapInfo map;
  gsize offset = stride_pad;
  guint p;

  gst_video_info_set_format (info, format, width, height);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, p, height);

    info->stride[p] += stride_pad;
    info->offset[p] = offset;
    offset += (gsize) info->stride[p] * rows + stride_pad;
  }
  info->size = offset;

  buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  gst_buffer_unmap (buf, &map);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, format,
      width, height, GST_VIDEO_INFO_N_PLANES (info), info->offset,
      info->stride);
  g_rand_free (rand);
  return buf;
}

const gchar *
cl_test_photo_path (void)
{
  const gchar *path = g_getenv ("CL_TEST_PHOTO");

  fail_unless (path && g_file_test (path, G_FILE_TEST_EXISTS),
      "no test photo at CL_TEST_PHOTO=%s: run tools/setup.sh first",
      path ? path : "(unset)");
  return path;
}

/**
 * cl_test_photo_through:
 * @filter: (nullable): a gst-launch description of what the photo goes
 *   through, or %NULL for nothing
 *
 * The real test photo, decoded, converted and scaled with GStreamer's own
 * elements, then through @filter, in a real pipeline.
 */
GstBuffer *
cl_test_photo_through (GstVideoFormat format, gint width, gint height,
    const gchar * filter)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin ! "
      "videoconvert ! videoscale ! video/x-raw,format=%s,width=%d,height=%d,"
      "pixel-aspect-ratio=1/1 ! %s ! appsink name=sink", cl_test_photo_path (),
      gst_video_format_to_string (format), width, height,
      filter ? filter : "identity");
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *sink;
  GstSample *sample;
  GstBuffer *buf;

  fail_unless (pipeline != NULL, "could not build %s: %s", desc,
      err ? err->message : "");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 30 * GST_SECOND);
  fail_unless (sample != NULL, "no frame out of %s", desc);
  buf = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  return buf;
}

GstBuffer *
cl_test_photo_new (GstVideoFormat format, gint width, gint height)
{
  return cl_test_photo_through (format, width, height, NULL);
}

/* One OpenCL context for every harness of a test program, handed in as an
 * application would, so that programs are built once per process. */
static GstContext *shared_context;

static GstElement *
with_shared_context (GstElement * element)
{
  if (shared_context) {
    gst_element_set_context (element, shared_context);
  } else {
    fail_unless (gst_element_set_state (element, GST_STATE_READY) ==
        GST_STATE_CHANGE_SUCCESS, "%s did not reach READY",
        GST_ELEMENT_NAME (element));
    shared_context = gst_element_get_context (element, "gst.cl.context");
    fail_unless (shared_context != NULL);
  }
  return element;
}

/**
 * cl_test_teardown:
 *
 * A checked fixture's teardown: drops what the harnesses shared, so that the
 * leaks tracer sees nothing left.
 */
void
cl_test_teardown (void)
{
  g_clear_pointer (&shared_context, gst_context_unref);
}

/**
 * cl_test_harness_new_with_element:
 * @element: (transfer floating): a new filter, made by a factory or not
 *
 * A harness around @element with caps of @format, @width x @height set.
 */
GstHarness *
cl_test_harness_new_with_element (GstElement * element, GstVideoFormat format,
    gint width, gint height)
{
  GstHarness *h;
  gchar *caps;

  gst_object_ref_sink (element);
  h = gst_harness_new_with_element (with_shared_context (element), "sink",
      "src");
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);

  gst_object_unref (element);
  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
  return h;
}

GstHarness *
cl_test_harness_new (const gchar * factory, GstVideoFormat format,
    gint width, gint height)
{
  GstElement *element = gst_element_factory_make (factory, NULL);

  fail_unless (element != NULL, "no element %s", factory);
  return cl_test_harness_new_with_element (element, format, width, height);
}

/**
 * cl_test_harness_new_set:
 * @variant: the element's variant, by name
 * @first_property: then properties and values, as g_object_set() takes
 *   them, %NULL-terminated
 *
 * A harness around a new @factory element whose properties are set before
 * its caps: an element that builds kernels for a property's value (a
 * diameter) builds them as it negotiates, and the first frame goes through
 * them. Set after, they would build in the background while the frames
 * took another kernel, as after a change while playing.
 */
GstHarness *
cl_test_harness_new_set (const gchar * factory, GstVideoFormat format,
    gint width, gint height, const gchar * variant,
    const gchar * first_property, ...)
{
  GstElement *element = gst_element_factory_make (factory, NULL);
  va_list args;

  fail_unless (element != NULL, "no element %s", factory);
  gst_util_set_object_arg (G_OBJECT (element), "variant", variant);
  va_start (args, first_property);
  g_object_set_valist (G_OBJECT (element), first_property, args);
  va_end (args);
  return cl_test_harness_new_with_element (element, format, width, height);
}

/* Pushes @in (transfer full) and returns what came out, failing the test at
 * once, with the element's error, when there is none. */
GstBuffer *
cl_test_push_pull (GstHarness * h, GstBuffer * in)
{
  GstFlowReturn ret = gst_harness_push (h, in);
  GstBuffer *out;

  fail_unless (ret == GST_FLOW_OK, "the element returned %s; see its error "
      "in the log", gst_flow_get_name (ret));
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "the element produced no buffer");
  return out;
}

void
cl_test_plane_of (const GstVideoFrame * frame, guint plane, ClRefPlane * out)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (frame->info.finfo, plane, comp);
  out->data = GST_VIDEO_FRAME_PLANE_DATA (frame, plane);
  out->stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);
  out->width = GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[0]);
  out->height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
  out->pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[0]);
}

/**
 * cl_test_is_packed_422:
 *
 * Returns: whether @format is packed 4:2:2 (YUY2, UYVY, YVYU), which the
 *   elements filter as the planes of Y42B (docs/design.md)
 */
gboolean
cl_test_is_packed_422 (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_YUY2 || format == GST_VIDEO_FORMAT_UYVY ||
      format == GST_VIDEO_FORMAT_YVYU;
}

/* The byte of a packed 4:2:2 row of @info that is no pixel's: the second
 * luma sample of the last macropixel of an odd width, or -1. */
static gint
hidden_luma_byte (const GstVideoInfo * info)
{
  gint w = GST_VIDEO_INFO_WIDTH (info);

  if (!cl_test_is_packed_422 (GST_VIDEO_INFO_FORMAT (info)) || w % 2 == 0)
    return -1;
  return (w / 2) * 4 + GST_VIDEO_FORMAT_INFO_POFFSET (info->finfo, 0) + 2;
}

/* @ref applied to the packed 4:2:2 @in as the elements apply their kernels:
 * to the planes of Y42B, unpacked from it, the result packed into @out,
 * whole macropixels a row. A row of an odd width ends in a macropixel
 * whose second luma sample is beyond the picture: the elements write the
 * last luma of the row there again, and so does this. */
static void
ref_packed_422 (const GstVideoFrame * in, ClRefPlaneFunc ref,
    gpointer user_data, guint8 * out, gint out_stride)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gint yo = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_Y);
  gint uo = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_U);
  gint vo = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_V);
  gint w = GST_VIDEO_FRAME_WIDTH (in), h = GST_VIDEO_FRAME_HEIGHT (in);
  gint macros = (w + 1) / 2;
  GstVideoInfo info;
  GstVideoFrame planar, result;
  GstBuffer *pb, *rb;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_Y42B, w, h);
  pb = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  rb = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&planar, &info, pb, GST_MAP_WRITE));
  fail_unless (gst_video_frame_map (&result, &info, rb, GST_MAP_WRITE));
  for (gint y = 0; y < h; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (in, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (in, 0);
    guint8 *py = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&planar, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&planar, 0);
    guint8 *pu = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&planar, 1) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&planar, 1);
    guint8 *pv = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&planar, 2) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&planar, 2);

    for (gint x = 0; x < w; x++)
      py[x] = row[x / 2 * 4 + yo + x % 2 * 2];
    for (gint m = 0; m < macros; m++) {
      pu[m] = row[m * 4 + uo];
      pv[m] = row[m * 4 + vo];
    }
  }
  for (guint p = 0; p < 3; p++)
    ref (&planar, p, GST_VIDEO_FRAME_PLANE_DATA (&result, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&result, p), user_data);
  for (gint y = 0; y < h; y++) {
    guint8 *row = out + (gsize) y * out_stride;
    const guint8 *ry = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&result,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&result, 0);
    const guint8 *ru = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&result,
        1) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&result, 1);
    const guint8 *rv = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&result,
        2) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&result, 2);

    for (gint m = 0; m < macros; m++) {
      row[m * 4 + yo] = ry[2 * m];
      row[m * 4 + yo + 2] = ry[MIN (2 * m + 1, w - 1)];
      row[m * 4 + uo] = ru[m];
      row[m * 4 + vo] = rv[m];
    }
  }
  gst_video_frame_unmap (&result);
  gst_video_frame_unmap (&planar);
  gst_buffer_unref (rb);
  gst_buffer_unref (pb);
}

/* @ref's plane @p of @in's frame, into @out: that of the planes of Y42B
 * packed again where @in is packed 4:2:2, whole macropixels a row */
static void
apply_plane_ref (const GstVideoFrame * in, guint p, ClRefPlaneFunc ref,
    gpointer user_data, guint8 * out, gint out_stride)
{
  if (cl_test_is_packed_422 (GST_VIDEO_FRAME_FORMAT (in)))
    ref_packed_422 (in, ref, user_data, out, out_stride);
  else
    ref (in, p, out, out_stride, user_data);
}

/**
 * cl_test_row_bytes:
 *
 * Returns: the bytes of a row of @plane of @frame that hold pixels: whole
 *   macropixels in packed 4:2:2, whose last one holds the last chroma of
 *   an odd width (which gst_video_frame_copy() leaves out)
 */
gint
cl_test_row_bytes (const GstVideoFrame * frame, guint plane)
{
  ClRefPlane p;

  cl_test_plane_of (frame, plane, &p);
  if (cl_test_is_packed_422 (GST_VIDEO_FRAME_FORMAT (frame)))
    return GST_ROUND_UP_2 (p.width) * p.pstride;
  return p.width * p.pstride;
}

static gboolean
compare_plane (const GstVideoFrame * in, const GstVideoFrame * out, guint p,
    ClRefPlaneFunc ref, gpointer user_data, gchar ** why)
{
  ClRefPlane o;
  guint8 *expected;
  gint row_bytes, hidden = hidden_luma_byte (&in->info);
  gboolean same = TRUE;

  cl_test_plane_of (out, p, &o);
  row_bytes = o.width * o.pstride;
  /* packed 4:2:2: the chroma of the last macropixel too */
  if (cl_test_is_packed_422 (GST_VIDEO_FRAME_FORMAT (in)))
    row_bytes = GST_ROUND_UP_2 (o.width) * o.pstride;
  expected = g_malloc0 ((gsize) row_bytes * o.height);
  apply_plane_ref (in, p, ref, user_data, expected, row_bytes);
  for (gint y = 0; y < o.height && same; y++) {
    const guint8 *got = o.data + (gsize) y * o.stride;
    const guint8 *want = expected + (gsize) y * row_bytes;

    for (gint i = 0; i < row_bytes; i++) {
      if (i != hidden && got[i] != want[i]) {
        *why = g_strdup_printf ("plane %u pixel (%d,%d) channel %d: got %u, "
            "expected %u", p, i / o.pstride, y, i % o.pstride, got[i], want[i]);
        same = FALSE;
        break;
      }
    }
  }
  g_free (expected);
  return same;
}

/**
 * cl_test_apply_ref:
 *
 * Returns: (transfer full): the filter's reference @ref applied to @in, in
 *   the default layout
 */
GstBuffer *
cl_test_apply_ref (GstBuffer * in, const GstVideoInfo * info,
    ClRefPlaneFunc ref, gpointer user_data)
{
  GstVideoInfo out_info;
  GstVideoFrame fin, fout;
  GstBuffer *out;

  gst_video_info_set_format (&out_info, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  out = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&out_info), NULL);
  fail_unless (gst_video_frame_map (&fin, (GstVideoInfo *) info, in,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &out_info, out, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fout); p++) {
    ClRefPlane o;

    cl_test_plane_of (&fout, p, &o);
    apply_plane_ref (&fin, p, ref, user_data, (guint8 *) o.data, o.stride);
  }
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
  return out;
}

/**
 * cl_test_check_same:
 * @what: names the case in a failure
 *
 * Fails unless @got (any layout its meta gives, any memory) has the pixels
 * of @want, bit for bit.
 */
void
cl_test_check_same (GstBuffer * got, GstBuffer * want,
    const GstVideoInfo * info, const gchar * what)
{
  GstVideoFrame fg, fw;

  fail_unless (gst_video_frame_map (&fg, (GstVideoInfo *) info, got,
          GST_MAP_READ), "%s: the output does not map", what);
  fail_unless (gst_video_frame_map (&fw, (GstVideoInfo *) info, want,
          GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fw); p++) {
    ClRefPlane g, w;

    cl_test_plane_of (&fg, p, &g);
    cl_test_plane_of (&fw, p, &w);
    for (gint y = 0; y < w.height; y++) {
      const guint8 *a = g.data + (gsize) y * g.stride;
      const guint8 *b = w.data + (gsize) y * w.stride;

      for (gint i = 0; i < w.width * w.pstride; i++)
        fail_unless (a[i] == b[i], "%s: plane %u byte (%d,%d): got %u, "
            "expected %u", what, p, i, y, a[i], b[i]);
    }
  }
  gst_video_frame_unmap (&fw);
  gst_video_frame_unmap (&fg);
}

/**
 * cl_test_check_output:
 * @info: the layout of @in (from cl_test_frame_new(), or the caps)
 * @why: (out): set to the first difference when the output is wrong
 *
 * Returns: %TRUE if every plane of @out equals @ref's, bit for bit
 */
gboolean
cl_test_check_output (GstBuffer * in, GstBuffer * out,
    const GstVideoInfo * info, ClRefPlaneFunc ref, gpointer user_data,
    gchar ** why)
{
  GstVideoFrame fin, fout;
  gboolean same = TRUE;
  GstVideoInfo out_info;

  gst_video_info_set_format (&out_info, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  fail_unless (gst_video_frame_map (&fin, (GstVideoInfo *) info, in,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &out_info, out, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fin) && same; p++)
    same = compare_plane (&fin, &fout, p, ref, user_data, why);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
  return same;
}

/**
 * cl_test_expect_error:
 * @bus: where the element posts
 * @code: the GST_RESOURCE_ERROR code expected
 * @...: strings the message must contain, %NULL-terminated
 *
 * Fails the test unless @bus holds an error of the RESOURCE domain with
 * @code whose message contains each string.
 */
void
cl_test_expect_error (GstBus * bus, gint code, ...)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  const gchar *needle;
  va_list args;

  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR, code),
      "unexpected error: %s", err->message);
  va_start (args, code);
  while ((needle = va_arg (args, const gchar *)))
      fail_unless (strstr (err->message, needle) != NULL, "\"%s\" not in "
        "\"%s\"", needle, err->message);
  va_end (args);
  g_error_free (err);
  gst_message_unref (msg);
}

/* SPEC: every plane blurred on its own grid */
void
cl_test_ref_boxblur (const GstVideoFrame * in, guint plane, guint8 * out,
    gint out_stride, gpointer user_data)
{
  ClRefPlane p;

  cl_test_plane_of (in, plane, &p);
  cl_ref_boxblur (&p, out, out_stride, GPOINTER_TO_UINT (user_data));
}

/* SPEC: the luma filtered, the chroma planes set to 128 */
void
cl_test_ref_sobel (const GstVideoFrame * in, guint plane, guint8 * out,
    gint out_stride, gpointer user_data)
{
  ClRefPlane p;

  cl_test_plane_of (in, plane, &p);
  if (plane == 0) {
    cl_ref_sobel (&p, out, out_stride, GPOINTER_TO_UINT (user_data));
    return;
  }
  for (gint y = 0; y < p.height; y++)
    memset (out + (gsize) y * out_stride, 128, (gsize) p.width * p.pstride);
}

/* SPEC: the luma filtered, the chroma copied unchanged */
void
cl_test_ref_epsilon (const GstVideoFrame * in, guint plane, guint8 * out,
    gint out_stride, gpointer user_data)
{
  const ClTestEpsilon *s = user_data;
  ClRefPlane p;

  cl_test_plane_of (in, plane, &p);
  if (plane == 0) {
    cl_ref_epsilon (&p, out, out_stride, s->threshold, s->diameter);
    return;
  }
  for (gint y = 0; y < p.height; y++)
    memcpy (out + (gsize) y * out_stride, p.data + (gsize) y * p.stride,
        (gsize) p.width * p.pstride);
}

/* Unsupported @caps fail negotiation: the first buffer is refused, and a
 * warning names the formats the element takes and says @hint. */
void
cl_test_check_caps_rejected (const gchar * factory, const gchar * caps,
    const gchar * hint)
{
  GstHarness *h = gst_harness_new (factory);
  GstBus *bus = gst_bus_new ();
  GstPad *sink = gst_element_get_static_pad (h->element, "sink");
  GstCaps *templ = gst_pad_get_pad_template_caps (sink);
  const GValue *formats;
  GstMessage *msg;
  GError *err = NULL;

  gst_element_set_bus (h->element, bus);
  /* a query is answered without a word: decodebin and playbin probe */
  {
    GstCaps *c = gst_caps_from_string (caps);

    fail_if (gst_pad_query_accept_caps (sink, c), "%s was accepted", caps);
    fail_if (gst_bus_have_pending (bus), "a warning for a query");
    gst_caps_unref (c);
  }
  gst_harness_set_src_caps_str (h, caps);
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, 256, NULL)), GST_FLOW_NOT_NEGOTIATED);

  /* a warning names the formats the element takes */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "%s refused %s without a word", factory, caps);
  gst_message_parse_warning (msg, &err, NULL);
  formats = gst_structure_get_value (gst_caps_get_structure (templ, 0),
      "format");
  for (guint i = 0; i < gst_value_list_get_size (formats); i++)
    fail_unless (strstr (err->message, g_value_get_string
            (gst_value_list_get_value (formats, i))), "\"%s\" does not name "
        "%s", err->message, g_value_get_string (gst_value_list_get_value
            (formats, i)));
  fail_unless (strstr (err->message, hint), "\"%s\" does not say \"%s\"",
      err->message, hint);
  g_error_free (err);
  gst_message_unref (msg);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_caps_unref (templ);
  gst_object_unref (sink);
  gst_harness_teardown (h);
}
