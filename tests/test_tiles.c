/* gstclfilters tests: every work-item shape of the optimized kernels
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The elements are linked in, not loaded, to force their plans as a
 * benchmark does (gst_cl_plan_set_override()); the device picks one
 * shape, these tests try them all. And what a kernel built in the
 * background changes.
 */
#include "cltest.h"
#include "gstclboxblur.h"
#include "gstclepsilon.h"
#include "gstclsobel.h"
#include "cl/gstclplan.h"

#include <string.h>

/* @h's output for random @format frames of @width x @height, bit for
 * bit: rows of any length (kernels' edge cases) and of whole words (their
 * aligned insides) */
static void
check_format (GstHarness * h, GstVideoFormat format, gint width, gint height,
    ClRefPlaneFunc ref, gpointer user_data, const gchar * what)
{
  static const guint pads[] = { 3, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (pads); i++) {
    GstVideoInfo info;
    GstBuffer *in = cl_test_frame_new (format, width, height,
        pads[i], width * 131 + height, &info);
    GstBuffer *out;
    gchar *why = NULL;

    gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
    out = cl_test_push_pull (h, gst_buffer_ref (in));
    fail_unless (cl_test_check_output (in, out, &info, ref, user_data, &why),
        "%s %s %dx%d, rows padded by %u: %s", what,
        gst_video_format_to_string (format), width, height, pads[i], why);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
}

/* frames narrower, as wide as and wider than the tiles and the work-groups
 * of kernels with work-groups, with tails */
static const gint sizes[][2] = { {1, 1}, {2, 3}, {7, 5}, {16, 4}, {37, 23},
{130, 9}, {263, 70}
};

GST_START_TEST (test_sobel_tiles)
{
  static const guint widths[] = { 2, 4, 8, 16 };
  static const guint heights[] = { 1, 2, 3, 4, 8, 16 };
  static const ClRefSobelMode modes[] = { CL_REF_SOBEL_L2, CL_REF_SOBEL_L1 };
  static const gchar *const plans[] = { "optimized", "words" };

  /* l2, the longest magnitude code, at every tile; l1 at every width */
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++) {
    GstClSobel *sobel = g_object_new (GST_TYPE_CL_SOBEL, "mode", modes[m],
        NULL);
    GstHarness *h = cl_test_harness_new_with_element (GST_ELEMENT (sobel),
        GST_VIDEO_FORMAT_GRAY8, 1, 1);

    for (guint k = 0; k < G_N_ELEMENTS (plans); k++)
      for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
        for (guint t = 0; t < (m ? 1 : G_N_ELEMENTS (heights)); t++) {
          gchar *what;

          /* sobel_words has words of 4 outputs */
          if (k == 1 && widths[w] != 4)
            continue;
          what = g_strdup_printf ("%s/tile=%ux%u", plans[k], widths[w],
              heights[t]);
          fail_unless (gst_cl_plan_set_override (GST_ELEMENT (sobel), what));
          for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
            check_format (h, GST_VIDEO_FORMAT_GRAY8, sizes[s][0], sizes[s][1],
                cl_test_ref_sobel, GUINT_TO_POINTER (modes[m]), what);
          fail_unless_equals_string (gst_cl_plan_get_current (GST_ELEMENT
                  (sobel)), plans[k]);
          g_free (what);
        }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* the epsilon kernels at every pixels per work-item, with the settings
 * from @first to @last; the chroma too with the first of all */
static void
check_epsilon_pixels_per_item (guint first, guint last)
{
  static const ClTestEpsilon settings[] = { {20, 3}, {255, 9}, {7, 15} };
  static const gchar *const plans[] = { "vector", "packed", "tiled" };

  for (guint s = first; s <= last; s++) {
    GstClEpsilon *epsilon = g_object_new (GST_TYPE_CL_EPSILON, "threshold",
        settings[s].threshold, "diameter", settings[s].diameter, NULL);
    GstHarness *h = cl_test_harness_new_with_element (GST_ELEMENT (epsilon),
        GST_VIDEO_FORMAT_GRAY8, 1, 1);

    for (guint k = 0; k < G_N_ELEMENTS (plans); k++)
      for (guint n = 1; n <= 16; n *= 2) {
        gchar *plan, *what;

        if (strcmp (plans[k], "tiled") == 0 && n % 4)
          continue;
        plan = g_strdup_printf ("%s/px=%u", plans[k], n);
        what = g_strdup_printf ("%s threshold %u d=%u", plan,
            settings[s].threshold, settings[s].diameter);
        fail_unless (gst_cl_plan_set_override (GST_ELEMENT (epsilon), plan));
        for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
          check_format (h, GST_VIDEO_FORMAT_GRAY8, sizes[i][0], sizes[i][1],
              cl_test_ref_epsilon, (gpointer) & settings[s], what);
        /* the chroma, copied by the same work-items: NV12's rows a byte
         * wider than the luma's at odd widths, I420's two planes */
        for (guint i = 0; s == 0 && i < G_N_ELEMENTS (sizes); i += 2) {
          check_format (h, GST_VIDEO_FORMAT_NV12, sizes[i][0], sizes[i][1],
              cl_test_ref_epsilon, (gpointer) & settings[s], what);
          check_format (h, GST_VIDEO_FORMAT_I420, sizes[i][0], sizes[i][1],
              cl_test_ref_epsilon, (gpointer) & settings[s], what);
        }
        fail_unless_equals_string (gst_cl_plan_get_current (GST_ELEMENT
                (epsilon)), plans[k]);
        g_free (plan);
        g_free (what);
      }
    gst_harness_teardown (h);
  }
}

GST_START_TEST (test_epsilon_pixels_per_item)
{
  check_epsilon_pixels_per_item (0, 0);
}

GST_END_TEST;

GST_START_TEST (test_epsilon_pixels_per_item_settings)
{
  check_epsilon_pixels_per_item (1, 2);
}

GST_END_TEST;

/* one random RGBA frame of @info through @h, checked for diameter @d */
static void
check_blur_frame (GstHarness * h, GstVideoInfo * info, guint seed, guint d,
    const gchar * when)
{
  GstBuffer *in = cl_test_frame_new (GST_VIDEO_FORMAT_RGBA, info->width,
      info->height, 3, seed, info);
  GstBuffer *out = cl_test_push_pull (h, gst_buffer_ref (in));
  gchar *why = NULL;

  fail_unless (cl_test_check_output (in, out, info, cl_test_ref_boxblur,
          GUINT_TO_POINTER (d), &why), "d=%u %s: %s", d, when, why);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* the plan @blur's last frame went through */
static const gchar *
current_plan (GstClBoxBlur * blur)
{
  return gst_cl_plan_get_current (GST_ELEMENT (blur));
}

GST_START_TEST (test_boxblur_blocks_built_while_playing)
{
  GstClBoxBlur *blur;
  GstHarness *h;
  GstVideoInfo info;
  gint64 deadline;
  guint seed = 0;

  /* an override names a plan of the element, and only tunables its plan
   * takes, as numbers from 1 */
  blur = g_object_new (GST_TYPE_CL_BOX_BLUR, "diameter", 3, NULL);
  fail_unless (gst_cl_plan_set_override (GST_ELEMENT (blur),
          "blocks/run=8/group=128"));
  fail_unless (gst_cl_plan_set_override (GST_ELEMENT (blur), NULL));
  fail_if (gst_cl_plan_set_override (GST_ELEMENT (blur), "blockz"));
  fail_if (gst_cl_plan_set_override (GST_ELEMENT (blur), "small/run=8"));
  fail_if (gst_cl_plan_set_override (GST_ELEMENT (blur), "blocks/run=0"));
  fail_if (gst_cl_plan_set_override (GST_ELEMENT (blur), "blocks/run"));
  fail_unless (current_plan (blur) == NULL);

  /* the blocks at any diameter, on CPUs too */
  fail_unless (gst_cl_plan_set_override (GST_ELEMENT (blur), "blocks"));
  h = cl_test_harness_new_with_element (GST_ELEMENT (blur),
      GST_VIDEO_FORMAT_RGBA, 67, 19);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 67, 19);
  check_blur_frame (h, &info, seed++, 3, "built at negotiation");
  fail_unless_equals_string (current_plan (blur), "blocks");

  /* no new caps: the frames go on, exact, with the strips while the blocks
   * of d = 5 build, and with those once built */
  g_object_set (blur, "diameter", 5, NULL);
  check_blur_frame (h, &info, seed++, 5, "just changed");
  fail_unless_equals_string (current_plan (blur), "strips");
  deadline = g_get_monotonic_time () + 300 * G_TIME_SPAN_SECOND;
  while (g_strcmp0 (current_plan (blur), "blocks") != 0 &&
      g_get_monotonic_time () < deadline) {
    g_usleep (20 * 1000);
    check_blur_frame (h, &info, seed++, 5, "while the blocks build");
  }
  fail_unless_equals_string (current_plan (blur), "blocks");
  check_blur_frame (h, &info, seed++, 5, "with the blocks");

  /* back to a diameter already built: at once */
  g_object_set (blur, "diameter", 3, NULL);
  check_blur_frame (h, &info, seed++, 3, "changed back");
  fail_unless_equals_string (current_plan (blur), "blocks");
  gst_harness_teardown (h);

  /* the kernel of d = 3 alike, from d = 5, which it does not take: the
   * device's own choice there */
  blur = g_object_new (GST_TYPE_CL_BOX_BLUR, "diameter", 5, NULL);
  fail_unless (gst_cl_plan_set_override (GST_ELEMENT (blur), "small"));
  h = cl_test_harness_new_with_element (GST_ELEMENT (blur),
      GST_VIDEO_FORMAT_RGBA, 67, 19);
  check_blur_frame (h, &info, seed++, 5, "the device's choice");
  fail_if (g_strcmp0 (current_plan (blur), "small") == 0);
  g_object_set (blur, "diameter", 3, NULL);
  deadline = g_get_monotonic_time () + 300 * G_TIME_SPAN_SECOND;
  do {
    check_blur_frame (h, &info, seed++, 3, "while the small kernel builds");
    g_usleep (20 * 1000);
  } while (g_strcmp0 (current_plan (blur), "small") != 0 &&
      g_get_monotonic_time () < deadline);
  fail_unless_equals_string (current_plan (blur), "small");
  check_blur_frame (h, &info, seed++, 3, "with the small kernel");
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
tiles_suite (void)
{
  Suite *s = suite_create ("tiles");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_sobel_tiles);
  tcase_add_test (tc, test_epsilon_pixels_per_item);
  tcase_add_test (tc, test_epsilon_pixels_per_item_settings);
  tcase_add_test (tc, test_boxblur_blocks_built_while_playing);
  return s;
}

GST_CHECK_MAIN (tiles);
