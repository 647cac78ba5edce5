/* gstclfilters tests: clsobel against the C reference
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cltest.h"

#include <string.h>
#include <gst/controller/controller.h>

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU,
};

/* in the order of ClRefSobelMode */
static const gchar *modes[] = { "l1", "l2", "x", "y" };

static const gchar *variants[] = { "reference", "optimized" };

static void
check_frame (GstHarness * h, GstBuffer * in, const GstVideoInfo * info,
    ClRefSobelMode mode, const gchar * what)
{
  GstBuffer *out = cl_test_push_pull (h, gst_buffer_ref (in));
  gchar *why = NULL;

  fail_unless (cl_test_check_output (in, out, info, cl_test_ref_sobel,
          GUINT_TO_POINTER (mode), &why), "%s %dx%d mode %s: %s", what,
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), modes[mode],
      why);
  gst_buffer_unref (out);
}

/* One random frame through clsobel, checked bit for bit. */
static void
check_sobel (GstVideoFormat format, gint width, gint height, guint pad,
    ClRefSobelMode mode, const gchar * variant)
{
  GstHarness *h = cl_test_harness_new ("clsobel", format, width, height);
  GstVideoInfo info;
  GstBuffer *in = cl_test_frame_new (format, width, height, pad,
      width * 31 + height + mode, &info);
  gchar *what = g_strdup_printf ("%s pad %u %s",
      gst_video_format_to_string (format), pad, variant);

  gst_util_set_object_arg (G_OBJECT (h->element), "variant", variant);
  gst_util_set_object_arg (G_OBJECT (h->element), "mode", modes[mode]);
  check_frame (h, in, &info, mode, what);
  g_free (what);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_START_TEST (test_formats_modes_and_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {7, 5}, {2, 3}, {17, 6}, {130, 9} };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        for (guint pad = 0; pad <= 13; pad += 13)
          for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
            check_sobel (formats[f], sizes[s][0], sizes[s][1], pad, m,
                variants[v]);
}

GST_END_TEST;

GST_START_TEST (test_large_odd_frame)
{
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    check_sobel (formats[f], 1917, 1079, f == 1 ? 64 : 0, CL_REF_SOBEL_L1,
        "optimized");
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    check_sobel (GST_VIDEO_FORMAT_NV12, 1917, 1079, 0, m,
        m == CL_REF_SOBEL_L2 ? "reference" : "optimized");
  check_sobel (GST_VIDEO_FORMAT_GRAY8, 1917, 1079, 5, CL_REF_SOBEL_L2,
      "optimized");
}

GST_END_TEST;

/* Sets the 3 x 3 block at (x, y) so that the gradient at its centre is
 * (gx, gy) = (a, b), a and b of the same parity (always so: gx + gy is even)
 * and at most 257. The centre's window is the block itself. */
static void
set_gradient_block (guint8 * data, gint stride, gint x, gint y, gint a, gint b)
{
  /* gx = 2 u + w, gy = 2 v + w from the right middle (u), bottom middle (v)
   * and bottom right (w) pixels, all else 0 */
  gint w = a & 1;

  for (gint j = 0; j < 3; j++)
    memset (data + (gsize) (y + j) * stride + x, 0, 3);
  data[(gsize) (y + 1) * stride + x + 2] = (a - w) / 2;
  data[(gsize) (y + 2) * stride + x + 1] = (b - w) / 2;
  data[(gsize) (y + 2) * stride + x + 2] = w;
}

/* Every gradient with gx, gy in 0..256 at the centre of a block of its own:
 * every rounding case of l2 up to its saturation (g > 254 * 255) comes out
 * exactly. */
GST_START_TEST (test_every_gradient)
{
  const gint n = 257, size = 3 * n;
  GstVideoInfo info;
  GstBuffer *in = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, size, size, 0, 1,
      &info);
  GstMapInfo map;

  gst_buffer_map (in, &map, GST_MAP_WRITE);
  for (gint b = 0; b < n; b++)
    for (gint a = 0; a < n; a++)
      set_gradient_block (map.data, info.stride[0], 3 * a, 3 * b, a,
          b ^ ((a ^ b) & 1));
  gst_buffer_unmap (in, &map);

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
      GstHarness *h = cl_test_harness_new ("clsobel", GST_VIDEO_FORMAT_GRAY8,
          size, size);

      gst_util_set_object_arg (G_OBJECT (h->element), "variant", variants[v]);
      gst_util_set_object_arg (G_OBJECT (h->element), "mode", modes[m]);
      check_frame (h, in, &info, m, variants[v]);
      gst_harness_teardown (h);
    }
  gst_buffer_unref (in);
}

GST_END_TEST;

GST_START_TEST (test_real_photo)
{
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstVideoInfo info;
    GstBuffer *in = cl_test_photo_new (formats[f], 512, 512);

    gst_video_info_set_format (&info, formats[f], 512, 512);
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
        GstHarness *h = cl_test_harness_new ("clsobel", formats[f], 512, 512);
        gchar *what = g_strdup_printf ("photo %s %s",
            gst_video_format_to_string (formats[f]), variants[v]);

        gst_util_set_object_arg (G_OBJECT (h->element), "variant", variants[v]);
        gst_util_set_object_arg (G_OBJECT (h->element), "mode", modes[m]);
        check_frame (h, in, &info, m, what);
        g_free (what);
        gst_harness_teardown (h);
      }
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

GST_START_TEST (test_mode_change_while_playing)
{
  GstHarness *h = cl_test_harness_new ("clsobel", GST_VIDEO_FORMAT_I420, 40,
      30);
  static const ClRefSobelMode order[] = { CL_REF_SOBEL_L2, CL_REF_SOBEL_X,
    CL_REF_SOBEL_L1, CL_REF_SOBEL_Y, CL_REF_SOBEL_L2
  };

  for (guint i = 0; i < G_N_ELEMENTS (order); i++) {
    GstVideoInfo info;
    GstBuffer *in = cl_test_frame_new (GST_VIDEO_FORMAT_I420, 40, 30, 0, i,
        &info);

    gst_util_set_object_arg (G_OBJECT (h->element), "variant", variants[i % 2]);
    gst_util_set_object_arg (G_OBJECT (h->element), "mode", modes[order[i]]);
    check_frame (h, in, &info, order[i], variants[i % 2]);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

#define ENUM_CONTROL(mode) (((mode) + 0.5) / (G_N_ELEMENTS (modes) - 1))

GST_START_TEST (test_controlled_mode)
{
  GstHarness *h = cl_test_harness_new ("clsobel", GST_VIDEO_FORMAT_GRAY8, 21,
      13);
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tvcs = (GstTimedValueControlSource *) cs;

  /* enums are controlled by 0..1 spread over their values, in order */
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_NONE, NULL);
  gst_timed_value_control_source_set (tvcs, 0, ENUM_CONTROL (CL_REF_SOBEL_X));
  gst_timed_value_control_source_set (tvcs, GST_SECOND,
      ENUM_CONTROL (CL_REF_SOBEL_L2));
  gst_object_add_control_binding (GST_OBJECT (h->element),
      gst_direct_control_binding_new (GST_OBJECT (h->element), "mode", cs));

  for (guint i = 0; i < 2; i++) {
    GstVideoInfo info;
    GstBuffer *in = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, 21, 13, 0, i,
        &info);

    GST_BUFFER_PTS (in) = i * GST_SECOND;
    check_frame (h, in, &info, i ? CL_REF_SOBEL_L2 : CL_REF_SOBEL_X,
        "controlled");
    gst_buffer_unref (in);
  }
  gst_object_unref (cs);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_caps_rejected)
{
  cl_test_check_caps_rejected ("clsobel", "video/x-raw,format=RGBA,"
      "width=8,height=8,framerate=30/1", "put a videoconvert before it");
  /* a format it takes, interlaced */
  cl_test_check_caps_rejected ("clsobel", "video/x-raw,format=I420,"
      "width=8,height=8,framerate=30/1,interlace-mode=interleaved",
      "I420, interlaced: put a deinterlace before it");
}

GST_END_TEST;

static Suite *
sobel_suite (void)
{
  Suite *s = suite_create ("clsobel");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_formats_modes_and_sizes);
  tcase_add_test (tc, test_large_odd_frame);
  tcase_add_test (tc, test_every_gradient);
  tcase_add_test (tc, test_real_photo);
  tcase_add_test (tc, test_mode_change_while_playing);
  tcase_add_test (tc, test_controlled_mode);
  tcase_add_test (tc, test_caps_rejected);
  return s;
}

GST_CHECK_MAIN (sobel);
