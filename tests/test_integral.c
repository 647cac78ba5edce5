/* gstclfilters tests: clintegral against a C reference
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cltest.h"

#include <string.h>

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU,
};

static const gchar *variants[] = { "reference", "optimized" };

/* The meta's table @field as an array of @elem_size-byte values, checked
 * against the luma of @frame: sums of Y, or of Y^2, wrapping as the
 * elements' type does. */
static void
check_table (const GstStructure * s, const gchar * field,
    const gchar * stride_field, gsize elem_size, const GstVideoFrame * frame,
    const gchar * what)
{
  gint width = GST_VIDEO_FRAME_COMP_WIDTH (frame, 0);
  gint height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, 0);
  /* the luma where it lies: in the packed formats every other byte */
  const guint8 *luma = GST_VIDEO_FRAME_COMP_DATA (frame, 0);
  gint luma_stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, 0);
  gint luma_pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, 0);
  guint64 *col = g_new0 (guint64, width);
  GstBuffer *table = NULL;
  gint stride = 0;
  GstMapInfo map;

  fail_unless (gst_structure_get (s, field, GST_TYPE_BUFFER, &table,
          stride_field, G_TYPE_INT, &stride, NULL), "%s: no %s and %s in %"
      GST_PTR_FORMAT, what, field, stride_field, s);
  fail_unless (stride >= (gint) (width * elem_size), "%s: %s %d too small",
      what, stride_field, stride);
  gst_buffer_map (table, &map, GST_MAP_READ);
  fail_unless (map.size >= (gsize) stride * height, "%s: %s of %"
      G_GSIZE_FORMAT " bytes", what, field, map.size);

  /* I (x, y) = I (x, y - 1) + the row's sum up to x */
  for (gint y = 0; y < height; y++) {
    guint64 row = 0;

    for (gint x = 0; x < width; x++) {
      guint64 p = luma[y * luma_stride + x * luma_pstride], got, expected;

      row += elem_size == 4 ? p : p * p;
      col[x] += row;
      if (elem_size == 4) {
        got = ((const guint32 *) (map.data + (gsize) y * stride))[x];
        expected = (guint32) col[x];
      } else {
        got = ((const guint64 *) (map.data + (gsize) y * stride))[x];
        expected = col[x];
      }
      if (got != expected) {
        gst_buffer_unmap (table, &map);
        fail ("%s: %s (%d, %d) = %" G_GUINT64_FORMAT ", expected %"
            G_GUINT64_FORMAT, what, field, x, y, got, expected);
      }
    }
  }
  gst_buffer_unmap (table, &map);
  gst_buffer_unref (table);
  g_free (col);
}

/* @out, the buffer that came out for @in: the same video, and a meta with
 * the integral image of its luma (and of its square if @squared). */
static void
check_output (GstBuffer * in, GstBuffer * out, const GstVideoInfo * info,
    gboolean squared, const gchar * what)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (out, "GstClIntegralMeta");
  GstVideoFrame in_frame, out_frame;
  const GstStructure *s;
  gint width = 0, height = 0;

  fail_unless (meta != NULL, "%s: no GstClIntegralMeta", what);
  s = gst_custom_meta_get_structure (meta);
  fail_unless (gst_structure_get (s, "width", G_TYPE_INT, &width, "height",
          G_TYPE_INT, &height, NULL), "%s: %" GST_PTR_FORMAT, what, s);
  fail_unless_equals_int (width, GST_VIDEO_INFO_WIDTH (info));
  fail_unless_equals_int (height, GST_VIDEO_INFO_HEIGHT (info));
  fail_unless (gst_structure_has_field (s, "sqsum") == squared,
      "%s: sqsum %s", what, squared ? "missing" : "without squared=true");

  fail_unless (gst_video_frame_map (&in_frame, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out_frame, info, out, GST_MAP_READ));
  /* the video passes through untouched */
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&in_frame); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint rows, bytes;

    gst_video_format_info_component (info->finfo, p, comp);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (&in_frame, comp[0]);
    bytes = GST_VIDEO_FRAME_COMP_WIDTH (&in_frame, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&in_frame, comp[0]);
    for (gint y = 0; y < rows; y++)
      fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&in_frame,
                  p) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&in_frame, p),
              (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out_frame, p) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&out_frame, p), bytes) == 0,
          "%s: plane %u row %d changed", what, p, y);
  }
  check_table (s, "sum", "stride", 4, &in_frame, what);
  if (squared)
    check_table (s, "sqsum", "sqsum-stride", 8, &in_frame, what);
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
}

static void
check_integral (GstVideoFormat format, gint width, gint height, guint pad,
    const gchar * variant, gboolean squared)
{
  GstHarness *h = cl_test_harness_new ("clintegral", format, width, height);
  GstVideoInfo info;
  GstBuffer *in = cl_test_frame_new (format, width, height, pad,
      width * 7 + height, &info);
  GstBuffer *out;
  gchar *what = g_strdup_printf ("%s %dx%d pad %u %s squared %d",
      gst_video_format_to_string (format), width, height, pad, variant,
      squared);

  gst_util_set_object_arg (G_OBJECT (h->element), "variant", variant);
  g_object_set (h->element, "squared", squared, NULL);
  out = cl_test_push_pull (h, gst_buffer_ref (in));
  check_output (in, out, &info, squared, what);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (what);
  gst_harness_teardown (h);
}

GST_START_TEST (test_formats_and_sizes)
{
  /* around the 4x4 blocks: smaller, one, partial ones, several */
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {4, 4}, {7, 5}, {5, 9},
  {17, 6}, {130, 9}
  };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (guint pad = 0; pad <= 13; pad += 13)
        for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
          check_integral (formats[f], sizes[s][0], sizes[s][1], pad,
              variants[v], (s + pad + v) % 2);
}

GST_END_TEST;

GST_START_TEST (test_large_odd_frame)
{
  for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
    check_integral (GST_VIDEO_FORMAT_NV12, 1917, 1079, 0, variants[v], TRUE);
    check_integral (GST_VIDEO_FORMAT_I420, 1917, 1079, 3, variants[v], FALSE);
  }
}

GST_END_TEST;

/* 4096x4200 white pixels sum to 4.4e9: the table wraps modulo 2^32, and the
 * box sums computed from it are still exact. */
GST_START_TEST (test_sums_wrap)
{
  const gint width = 4096, height = 4200;

  for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
    GstHarness *h = cl_test_harness_new ("clintegral",
        GST_VIDEO_FORMAT_GRAY8, width, height);
    GstVideoInfo info;
    GstBuffer *in = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, width, height,
        0, 1, &info);
    GstBuffer *out, *sum = NULL;
    GstMapInfo map;
    const guint32 *t;
    gint stride = 0;
    guint32 box;

    gst_buffer_memset (in, 0, 255, gst_buffer_get_size (in));
    gst_util_set_object_arg (G_OBJECT (h->element), "variant", variants[v]);
    out = cl_test_push_pull (h, gst_buffer_ref (in));
    fail_unless (gst_structure_get (gst_custom_meta_get_structure
            (gst_buffer_get_custom_meta (out, "GstClIntegralMeta")), "sum",
            GST_TYPE_BUFFER, &sum, "stride", G_TYPE_INT, &stride, NULL));
    gst_buffer_map (sum, &map, GST_MAP_READ);
    t = (const guint32 *) map.data;
#define I(x, y) t[(gsize) (y) * (stride / 4) + (x)]
    fail_unless_equals_uint64 (I (width - 1, height - 1),
        (guint32) ((guint64) width * height * 255));
    /* the box 100..4000 x 50..4150, through a wrapped corner */
    box = I (4000, 4150) - I (99, 4150) - I (4000, 49) + I (99, 49);
    fail_unless_equals_uint64 (box, (guint32) (3901ULL * 4101 * 255));
#undef I
    gst_buffer_unmap (sum, &map);
    gst_buffer_unref (sum);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* The real photo through @filter: box sums from the meta equal the sums of
 * the pixels. */
static void
check_photo_box_sums (const gchar * filter)
{
  GstBuffer *out = cl_test_photo_through (GST_VIDEO_FORMAT_NV12, 512, 384,
      filter);
  GstCustomMeta *meta = gst_buffer_get_custom_meta (out, "GstClIntegralMeta");
  static const gint boxes[][4] = { {0, 0, 0, 0}, {0, 0, 511, 383},
  {10, 20, 30, 40}, {100, 0, 511, 5}, {500, 300, 511, 383}, {0, 77, 3, 301}
  };
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *sum = NULL, *sqsum = NULL;
  GstMapInfo smap, qmap;
  gint stride = 0, sq_stride = 0;

  fail_unless (meta != NULL, "no GstClIntegralMeta out of the pipeline");
  fail_unless (gst_structure_get (gst_custom_meta_get_structure (meta),
          "sum", GST_TYPE_BUFFER, &sum, "stride", G_TYPE_INT, &stride,
          "sqsum", GST_TYPE_BUFFER, &sqsum, "sqsum-stride", G_TYPE_INT,
          &sq_stride, NULL));
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 512, 384);
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  gst_buffer_map (sum, &smap, GST_MAP_READ);
  gst_buffer_map (sqsum, &qmap, GST_MAP_READ);

  for (guint b = 0; b < G_N_ELEMENTS (boxes); b++) {
    gint x0 = boxes[b][0], y0 = boxes[b][1], x1 = boxes[b][2], y1 = boxes[b][3];
    const guint8 *luma = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
    gint ls = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    guint64 direct = 0, direct_sq = 0, got = 0, got_sq = 0;

    for (gint y = y0; y <= y1; y++)
      for (gint x = x0; x <= x1; x++) {
        direct += luma[y * ls + x];
        direct_sq += luma[y * ls + x] * luma[y * ls + x];
      }
#define S(x, y) ((x) < 0 || (y) < 0 ? 0 : \
    ((const guint32 *) (smap.data + (gsize) (y) * stride))[x])
#define Q(x, y) ((x) < 0 || (y) < 0 ? 0 : \
    ((const guint64 *) (qmap.data + (gsize) (y) * sq_stride))[x])
    got = (guint32) (S (x1, y1) - S (x0 - 1, y1) - S (x1, y0 - 1) +
        S (x0 - 1, y0 - 1));
    got_sq = Q (x1, y1) - Q (x0 - 1, y1) - Q (x1, y0 - 1) + Q (x0 - 1, y0 - 1);
#undef S
#undef Q
    fail_unless_equals_uint64 (got, direct);
    fail_unless_equals_uint64 (got_sq, direct_sq);
  }
  gst_buffer_unmap (sqsum, &qmap);
  gst_buffer_unmap (sum, &smap);
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (sqsum);
  gst_buffer_unref (sum);
  gst_buffer_unref (out);
}

/* The real photo in a real pipeline, its tables read once the pipeline is
 * gone; and after a queue and another element, in another thread. */
GST_START_TEST (test_real_photo_box_sums)
{
  check_photo_box_sums ("clintegral squared=true");
  check_photo_box_sums ("clintegral squared=true ! queue ! identity");
  check_photo_box_sums
      ("clintegral squared=true ! queue ! videoconvert ! queue");
}

GST_END_TEST;

/* The tables' buffers come from pools: those of a frame still held, not yet
 * read, are not those the frames after it write; those given back serve
 * again, with the new frame's sums. */
GST_START_TEST (test_tables_held_and_reused)
{
  const gint width = 67, height = 45;
  GstHarness *h = cl_test_harness_new ("clintegral", GST_VIDEO_FORMAT_GRAY8,
      width, height);
  GstBuffer *in[6], *out[6];
  GstVideoInfo info;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, width, height, 0,
        31 + i, &info);
  for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
    gst_util_set_object_arg (G_OBJECT (h->element), "variant", variants[v]);
    g_object_set (h->element, "squared", TRUE, NULL);
    /* 0 held throughout; 1 read and given back before 2 and 3 */
    out[0] = cl_test_push_pull (h, gst_buffer_ref (in[0]));
    out[1] = cl_test_push_pull (h, gst_buffer_ref (in[1]));
    check_output (in[1], out[1], &info, TRUE, "frame 1");
    gst_buffer_unref (out[1]);
    out[2] = cl_test_push_pull (h, gst_buffer_ref (in[2]));
    out[3] = cl_test_push_pull (h, gst_buffer_ref (in[3]));
    /* without squared, then with it again: its pool serves as before */
    g_object_set (h->element, "squared", FALSE, NULL);
    out[4] = cl_test_push_pull (h, gst_buffer_ref (in[4]));
    g_object_set (h->element, "squared", TRUE, NULL);
    out[5] = cl_test_push_pull (h, gst_buffer_ref (in[5]));
    for (i = 0; i < G_N_ELEMENTS (out); i++) {
      gchar *what;

      if (i == 1)
        continue;
      what = g_strdup_printf ("%s frame %u", variants[v], i);
      check_output (in[i], out[i], &info, i != 4, what);
      g_free (what);
      gst_buffer_unref (out[i]);
    }
  }
  for (i = 0; i < G_N_ELEMENTS (in); i++)
    gst_buffer_unref (in[i]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* a second clintegral replaces the first one's table */
GST_START_TEST (test_chained_replaces)
{
  GstBuffer *out = cl_test_photo_through (GST_VIDEO_FORMAT_GRAY8, 64, 48,
      "clintegral ! clintegral squared=true");
  GstCustomMeta *meta = gst_buffer_get_custom_meta (out, "GstClIntegralMeta");
  gpointer state = NULL;
  guint n = 0;
  GstMeta *m;

  fail_unless (meta != NULL);
  fail_unless (gst_structure_has_field (gst_custom_meta_get_structure (meta),
          "sqsum"), "the second element's table was not the one found");
  while ((m = gst_buffer_iterate_meta (out, &state)))
    n += gst_meta_info_is_custom (m->info);
  fail_unless_equals_int (n, 1);
  gst_buffer_unref (out);
}

GST_END_TEST;

/* squared takes effect at the next frame while PLAYING */
GST_START_TEST (test_squared_while_playing)
{
  GstHarness *h = cl_test_harness_new ("clintegral", GST_VIDEO_FORMAT_GRAY8,
      64, 48);
  GstVideoInfo info;
  GstBuffer *in = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, 64, 48, 0, 5,
      &info);

  for (guint i = 0; i < 4; i++) {
    gboolean squared = i % 2;
    GstBuffer *out;

    g_object_set (h->element, "squared", squared, NULL);
    out = cl_test_push_pull (h, gst_buffer_ref (in));
    check_output (in, out, &info, squared, "squared while playing");
    gst_buffer_unref (out);
  }
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_caps_rejected)
{
  cl_test_check_caps_rejected ("clintegral", "video/x-raw,format=RGBA,"
      "width=8,height=8,framerate=30/1", "put a videoconvert before it");
}

GST_END_TEST;

static Suite *
integral_suite (void)
{
  Suite *s = suite_create ("clintegral");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_formats_and_sizes);
  tcase_add_test (tc, test_large_odd_frame);
  tcase_add_test (tc, test_sums_wrap);
  tcase_add_test (tc, test_real_photo_box_sums);
  tcase_add_test (tc, test_tables_held_and_reused);
  tcase_add_test (tc, test_chained_replaces);
  tcase_add_test (tc, test_squared_while_playing);
  tcase_add_test (tc, test_caps_rejected);
  return s;
}

GST_CHECK_MAIN (integral);
