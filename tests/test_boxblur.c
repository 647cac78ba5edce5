/* gstclfilters tests: clboxblur against the C reference
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "cltest.h"

#include <gst/controller/controller.h>

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_ARGB,
  GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR, GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU,
};

static const gchar *variants[] = { "reference", "optimized" };

/* whether the suite forces @plan of clboxblur, GST_CL_PLAN=clboxblur:PLAN
 * (any plan where @plan is NULL) */
static gboolean
plan_forced (const gchar * plan)
{
  const gchar *env = g_getenv ("GST_CL_PLAN");
  const gchar *at = env ? strstr (env, "clboxblur:") : NULL;
  gsize len;

  if (!at)
    return FALSE;
  at += strlen ("clboxblur:");
  len = strcspn (at, "/,");
  return !plan || (strlen (plan) == len && strncmp (at, plan, len) == 0);
}

/* One random frame through clboxblur, checked bit for bit; @high, bits set
 * in every byte of it. The diameter is set before the caps (see
 * cl_test_harness_new_set()), so that the kernels built for it take the
 * frame. */
static void
check_blur_high (GstVideoFormat format, gint width, gint height, guint pad,
    guint diameter, const gchar * variant, guint8 high)
{
  GstHarness *h = cl_test_harness_new_set ("clboxblur", format, width,
      height, variant, "diameter", diameter, NULL);
  GstVideoInfo info;
  GstBuffer *in = cl_test_frame_new (format, width, height, pad,
      width * 31 + diameter, &info);
  GstBuffer *out;
  GstMapInfo map;
  gchar *why = NULL;

  gst_buffer_map (in, &map, GST_MAP_READWRITE);
  for (gsize i = 0; i < map.size; i++)
    map.data[i] |= high;
  gst_buffer_unmap (in, &map);

  out = cl_test_push_pull (h, gst_buffer_ref (in));
  fail_unless (cl_test_check_output (in, out, &info, cl_test_ref_boxblur,
          GUINT_TO_POINTER (diameter), &why), "%s %dx%d pad %u d=%u %s: %s",
      gst_video_format_to_string (format), width, height, pad, diameter,
      variant, why);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

static void
check_blur (GstVideoFormat format, gint width, gint height, guint pad,
    guint diameter, const gchar * variant)
{
  check_blur_high (format, width, height, pad, diameter, variant, 0);
}

GST_START_TEST (test_formats_and_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {7, 5}, {2, 3}, {64, 33}, {130, 9} };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (guint pad = 0; pad <= 13; pad += 13)
        for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
          check_blur (formats[f], sizes[s][0], sizes[s][1], pad, 5,
              variants[v]);
}

GST_END_TEST;

GST_START_TEST (test_small_diameters)
{
  /* rows padded at odd sizes: 64 pixels' rows of whole 16-byte words
   * unpadded, which the kernels load as vectors */
  static const gint sizes[][2] = { {1, 1}, {7, 5}, {64, 33}, {5, 2},
  {130, 9}, {67, 19}
  };
  /* a format of each plane layout: the kernels see planes of 4, 1 and 2
   * bytes a pixel, whatever the order of the channels */
  static const GstVideoFormat layouts[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420
  };
  static const guint diameters[] = { 3, 5, 7, 9, 11, 13, 17 };
  /* the small kernel takes d = 3 only: the others would go through the
   * device's own choice, which the suite that forces none checks */
  guint n = plan_forced ("small") ? 1 : G_N_ELEMENTS (diameters);

  /* the diameters that GPUs take with kernels of their own: d = 3 (the
   * small kernel; every format), d = 5 to 17 on NVIDIA's (the warps; their
   * work-items take a neighbour's column sums at d <= 9, two neighbours'
   * from d = 11 on 4 bytes a pixel; more in test_wide_rows) */
  for (guint d = 0; d < n; d++) {
    const GstVideoFormat *f = d ? layouts : formats;
    guint n_formats = d ? G_N_ELEMENTS (layouts) : G_N_ELEMENTS (formats);

    for (guint i = 0; i < n_formats; i++)
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        check_blur (f[i], sizes[s][0], sizes[s][1], s % 2 ? 13 : 0,
            diameters[d], "optimized");
  }
}

GST_END_TEST;

GST_START_TEST (test_bright_frames)
{
  static const guint diameters[] = { 17, 121 };
  static const GstVideoFormat layouts[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12
  };

  /* bytes of 240 to 255: the sums at their largest, past 16 bits from
   * d = 17 on (at most 289 * 255 there), where a kernel that held them in
   * 16 bits would wrap; rows loaded as vectors, and rows padded */
  for (guint d = 0; d < G_N_ELEMENTS (diameters); d++)
    for (guint f = 0; f < G_N_ELEMENTS (layouts); f++) {
      check_blur_high (layouts[f], 64, 33, 0, diameters[d], "optimized", 0xf0);
      check_blur_high (layouts[f], 67, 19, 13, diameters[d], "optimized", 0xf0);
    }
}

GST_END_TEST;

GST_START_TEST (test_large_diameters)
{
  static const guint diameters[] = { 33, 51, 75, 101, 121 };

  /* past the strips' and the blocks' default radii: the scan on NVIDIA's
   * GPUs (windows across two of its warps, which sum apart; at d = 121 its
   * largest, across 31 work-items), the two passes elsewhere, or what a
   * suite forces; rows padded, and rows of whole 16-byte words, which the
   * kernels load as vectors */
  for (guint d = 0; d < G_N_ELEMENTS (diameters); d++) {
    check_blur (GST_VIDEO_FORMAT_RGBA, 301, 40, 13, diameters[d], "optimized");
    check_blur (GST_VIDEO_FORMAT_RGBA, 320, 9, 0, diameters[d], "optimized");
    check_blur (GST_VIDEO_FORMAT_NV12, 1030, 24, 0, diameters[d], "optimized");
  }
  /* rows of whole words whose windows, in the middle runs of rows, lie
   * inside the image: the scan's sums of 8 rows loaded as vectors, with
   * no edge row repeated */
  check_blur (GST_VIDEO_FORMAT_RGBA, 320, 72, 0, 33, "optimized");
  /* rows wider than a CPU's band with running sums (8192 bytes), so that
   * windows cross from one band into the next, up to the largest window */
  check_blur (GST_VIDEO_FORMAT_RGBA, 2100, 23, 13, 101, "optimized");
  check_blur (GST_VIDEO_FORMAT_RGBA, 2053, 6, 0, 255, "optimized");
  check_blur (GST_VIDEO_FORMAT_GRAY8, 8300, 9, 3, 63, "optimized");
}

GST_END_TEST;

GST_START_TEST (test_every_diameter)
{
  /* the reference kernel is the same whatever optimized method a suite
   * forces: checked in the suite that forces none */
  guint first = plan_forced (NULL) ? 1 : 0;

  fail_unless (g_str_equal (variants[1], "optimized"));
  /* odd diameters 3..255 and a few even ones, both variants, on grids smaller
   * and larger than the window; the reference, whose work-items load d x d
   * samples each, on smaller grids above d = 64, where the window is
   * larger than either grid anyway */
  for (guint d = 2; d <= 255; d++) {
    if (d % 2 == 0 && d != 2 && d != 4 && d != 64 && d != 254)
      continue;
    for (guint v = first; v < G_N_ELEMENTS (variants); v++) {
      gboolean small = v == 0 && d > 64;

      check_blur (GST_VIDEO_FORMAT_GRAY8, small ? 9 : 37, small ? 7 : 23, 3,
          d, variants[v]);
      if (d % 16 == 1 || d > 250)
        check_blur (GST_VIDEO_FORMAT_NV12, small ? 61 : 301, small ? 17 : 77,
            0, d, variants[v]);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_wide_rows)
{
  /* rows of 2 to 4 of the CPU's bands (512 bytes), at diameters whose
   * radius in bytes falls on and off its blocks of 16, up to its largest;
   * on NVIDIA's GPUs the warps, whose windows reach three work-items each
   * side at d = 23 on 4 bytes a pixel and four at d = 31 */
  static const struct
  {
    GstVideoFormat format;
    gint width;
  } rows[] = {
    {GST_VIDEO_FORMAT_RGBA, 300}, {GST_VIDEO_FORMAT_GRAY8, 1100},
    {GST_VIDEO_FORMAT_NV12, 1030},
  };
  static const guint diameters[] = { 3, 9, 17, 23, 31 };

  for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
    for (guint d = 0; d < G_N_ELEMENTS (diameters); d++)
      check_blur (rows[r].format, rows[r].width, 7, 13, diameters[d],
          "optimized");
}

GST_END_TEST;

GST_START_TEST (test_large_odd_frame)
{
  static const GstVideoFormat large[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420
  };

  for (guint f = 0; f < G_N_ELEMENTS (large); f++) {
    check_blur (large[f], 1917, 1079, 64, 3, "optimized");
    check_blur (large[f], 1917, 1079, 0, 11, "optimized");
  }
  check_blur (GST_VIDEO_FORMAT_RGBA, 1917, 1079, 0, 3, "reference");
}

GST_END_TEST;

GST_START_TEST (test_real_photo)
{
  static const GstVideoFormat photo_formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12
  };

  for (guint f = 0; f < G_N_ELEMENTS (photo_formats); f++) {
    GstVideoInfo info;
    GstBuffer *in = cl_test_photo_new (photo_formats[f], 512, 512);

    gst_video_info_set_format (&info, photo_formats[f], 512, 512);
    for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
      GstHarness *h = cl_test_harness_new_set ("clboxblur", photo_formats[f],
          512, 512, variants[v], "diameter", 21, NULL);
      GstBuffer *out;
      gchar *why = NULL;

      out = cl_test_push_pull (h, gst_buffer_ref (in));
      fail_unless (cl_test_check_output (in, out, &info, cl_test_ref_boxblur,
              GUINT_TO_POINTER (21), &why), "photo %s %s: %s",
          gst_video_format_to_string (photo_formats[f]), variants[v], why);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
    }
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

GST_START_TEST (test_real_pipeline)
{
  /* the photo at an odd size, through a real pipeline: decoder, converter,
   * scaler, clboxblur and a sink */
  GstVideoInfo info;
  GstBuffer *in = cl_test_photo_new (GST_VIDEO_FORMAT_NV12, 333, 251);
  GstBuffer *out = cl_test_photo_through (GST_VIDEO_FORMAT_NV12, 333, 251,
      "clboxblur diameter=7");
  gchar *why = NULL;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 333, 251);
  fail_unless (cl_test_check_output (in, out, &info, cl_test_ref_boxblur,
          GUINT_TO_POINTER (7), &why), "pipeline: %s", why);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

GST_END_TEST;

GST_START_TEST (test_diameter_one_passes_through)
{
  GstHarness *h = cl_test_harness_new ("clboxblur", GST_VIDEO_FORMAT_RGBA, 16,
      16);
  GstVideoInfo info;
  GstBuffer *in = cl_test_frame_new (GST_VIDEO_FORMAT_RGBA, 16, 16, 0, 1,
      &info);
  GstBuffer *out;

  g_object_set (h->element, "diameter", 1, NULL);
  out = cl_test_push_pull (h, gst_buffer_ref (in));
  fail_unless (out == in, "diameter 1 must pass the buffer through");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_diameter_change_while_playing)
{
  GstHarness *h = cl_test_harness_new ("clboxblur", GST_VIDEO_FORMAT_I420, 40,
      30);
  GstVideoInfo info;
  guint diameters[] = { 3, 1, 9, 31 };

  for (guint i = 0; i < G_N_ELEMENTS (diameters); i++) {
    GstBuffer *in = cl_test_frame_new (GST_VIDEO_FORMAT_I420, 40, 30, 0, i,
        &info);
    GstBuffer *out;
    gchar *why = NULL;

    g_object_set (h->element, "diameter", diameters[i], NULL);
    out = cl_test_push_pull (h, gst_buffer_ref (in));
    fail_unless (cl_test_check_output (in, out, &info, cl_test_ref_boxblur,
            GUINT_TO_POINTER (diameters[i]), &why), "d=%u: %s", diameters[i],
        why);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_controlled_diameter)
{
  GstHarness *h = cl_test_harness_new ("clboxblur", GST_VIDEO_FORMAT_GRAY8, 21,
      13);
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tvcs = (GstTimedValueControlSource *) cs;
  GstVideoInfo info;

  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_NONE, NULL);
  gst_timed_value_control_source_set (tvcs, 0, 3);
  gst_timed_value_control_source_set (tvcs, GST_SECOND, 7);
  gst_object_add_control_binding (GST_OBJECT (h->element),
      gst_direct_control_binding_new_absolute (GST_OBJECT (h->element),
          "diameter", cs));

  for (guint i = 0; i < 2; i++) {
    GstBuffer *in = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, 21, 13, 0, i,
        &info);
    GstBuffer *out;
    gchar *why = NULL;
    guint d = i ? 7 : 3;

    GST_BUFFER_PTS (in) = i * GST_SECOND;
    out = cl_test_push_pull (h, gst_buffer_ref (in));
    fail_unless (cl_test_check_output (in, out, &info, cl_test_ref_boxblur,
            GUINT_TO_POINTER (d), &why), "controlled d=%u: %s", d, why);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_object_unref (cs);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_caps_rejected)
{
  cl_test_check_caps_rejected ("clboxblur", "video/x-raw,format=v210,"
      "width=8,height=8,framerate=30/1", "put a videoconvert before it");
}

GST_END_TEST;

GST_START_TEST (test_frame_too_large)
{
  /* a 2.1 GB plane: over what 32-bit offsets reach, a clear error */
  GstHarness *h = cl_test_harness_new ("clboxblur", GST_VIDEO_FORMAT_GRAY8, 8,
      8);
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=46341,"
      "height=46341,framerate=30/1");
  cl_test_expect_error (bus, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
      "46341x46341 frames are too large", NULL);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
boxblur_suite (void)
{
  Suite *s = suite_create ("clboxblur");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_formats_and_sizes);
  tcase_add_test (tc, test_small_diameters);
  tcase_add_test (tc, test_bright_frames);
  tcase_add_test (tc, test_large_diameters);
  tcase_add_test (tc, test_every_diameter);
  tcase_add_test (tc, test_wide_rows);
  tcase_add_test (tc, test_large_odd_frame);
  tcase_add_test (tc, test_real_photo);
  tcase_add_test (tc, test_real_pipeline);
  tcase_add_test (tc, test_diameter_one_passes_through);
  tcase_add_test (tc, test_diameter_change_while_playing);
  tcase_add_test (tc, test_controlled_diameter);
  tcase_add_test (tc, test_caps_rejected);
  tcase_add_test (tc, test_frame_too_large);
  return s;
}

GST_CHECK_MAIN (boxblur);
