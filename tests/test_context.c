/* gstclfilters tests: one OpenCL context per pipeline, through GstContext
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <CL/cl.h>

#include "cltest.h"
#include "clcases.h"

#define CHAIN "videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,width=64," \
  "height=48 ! clboxblur name=a ! videoconvert ! video/x-raw,format=NV12 ! "  \
  "clboxblur name=b diameter=9 ! fakesink"

static void
run_to_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "the pipeline did not reach EOS");
  gst_message_unref (msg);
  gst_object_unref (bus);
}

static gpointer
cl_context_of (GstElement * pipeline, const gchar * name)
{
  GstElement *el = name ? gst_bin_get_by_name (GST_BIN (pipeline), name) :
      gst_object_ref (pipeline);
  GstContext *context = gst_element_get_context (el, "gst.cl.context");
  gpointer cl_ctx = NULL;

  fail_unless (context != NULL, "%s has no gst.cl.context", name);
  fail_unless (gst_structure_get (gst_context_get_structure (context),
          "cl-context", G_TYPE_POINTER, &cl_ctx, NULL));
  gst_context_unref (context);
  gst_object_unref (el);
  return cl_ctx;
}

GST_START_TEST (test_elements_share_one_context)
{
  GstElement *pipeline = gst_parse_launch (CHAIN, NULL);
  gpointer a, b;

  run_to_eos (pipeline);
  a = cl_context_of (pipeline, "a");
  b = cl_context_of (pipeline, "b");
  fail_unless (a != NULL && a == b, "two cl elements, two contexts");
  /* and the application can read it back from the pipeline */
  fail_unless (cl_context_of (pipeline, NULL) == a);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* every element, the aggregator and the analyser too, joins the context of
 * a filter upstream: through the pipeline, system memory between them, and
 * linked to it */
static void
check_shares (const gchar * name, gboolean linked)
{
  const gchar *pads[CL_TEST_MAX_INPUTS];
  guint n = cl_test_element_inputs (name, pads);
  GstVideoFormat first;
  const gchar *format;
  GString *desc = g_string_new (NULL);
  GstElement *pipeline;
  gpointer a;

  cl_test_element_formats (name, &first, 1);
  format = gst_video_format_to_string (first);
  g_string_append_printf (desc, "videotestsrc num-buffers=3 ! "
      "video/x-raw,format=%s,width=64,height=48 ! clboxblur name=a ! %s"
      "video/x-raw,format=%s ! x.%s ", linked ? format : "RGBA",
      linked ? "" : "videoconvert ! ", format, pads[0]);
  for (guint i = 1; i < n; i++)
    g_string_append_printf (desc, "videotestsrc num-buffers=3 ! "
        "video/x-raw,format=%s,width=32,height=24 ! x.%s ", format, pads[i]);
  g_string_append_printf (desc, "%s name=x ! fakesink", name);
  pipeline = gst_parse_launch (desc->str, NULL);
  fail_unless (pipeline != NULL, "%s", desc->str);
  run_to_eos (pipeline);
  a = cl_context_of (pipeline, "a");
  fail_unless (a != NULL);
  fail_unless (cl_context_of (pipeline, "x") == a, "%s has its own%s", name,
      linked ? ", linked to clboxblur" : "");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_string_free (desc, TRUE);
}

GST_START_TEST (test_every_element_shares_it)
{
  for (const gchar * const *name = cl_test_element_names (); *name; name++) {
    GstVideoFormat first;

    check_shares (*name, FALSE);
    cl_test_element_formats (*name, &first, 1);
    if (cl_test_element_takes ("clboxblur", first))
      check_shares (*name, TRUE);
  }
}

GST_END_TEST;

/* an application that rebuilds its pipeline keeps the first one's context,
 * and the next takes it rather than making its own */
GST_START_TEST (test_context_handed_on)
{
  GstElement *first = gst_parse_launch (CHAIN, NULL);
  GstElement *next = gst_parse_launch (CHAIN, NULL);
  GstContext *kept;
  gpointer cl_ctx;

  run_to_eos (first);
  kept = gst_element_get_context (first, "gst.cl.context");
  fail_unless (kept != NULL);
  cl_ctx = cl_context_of (first, NULL);
  gst_element_set_state (first, GST_STATE_NULL);
  gst_object_unref (first);

  /* the first pipeline is gone; what the GstContext holds lives on */
  gst_element_set_context (next, kept);
  gst_context_unref (kept);
  run_to_eos (next);
  fail_unless (cl_context_of (next, "a") == cl_ctx, "a new context");
  fail_unless (cl_context_of (next, "b") == cl_ctx, "a new context");
  gst_element_set_state (next, GST_STATE_NULL);
  gst_object_unref (next);
}

GST_END_TEST;

GST_START_TEST (test_application_context)
{
  GstElement *pipeline = gst_parse_launch (CHAIN, NULL);
  cl_platform_id platform;
  cl_device_id device;
  cl_context app;
  GstContext *context;
  cl_uint refs = 0;

  fail_unless_equals_int (clGetPlatformIDs (1, &platform, NULL), CL_SUCCESS);
  fail_unless_equals_int (clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, 1,
          &device, NULL), CL_SUCCESS);
  app = clCreateContext (NULL, 1, &device, NULL, NULL, NULL);
  context = gst_context_new ("gst.cl.context", TRUE);
  gst_structure_set (gst_context_writable_structure (context),
      "cl-context", G_TYPE_POINTER, app, "cl-device", G_TYPE_POINTER, device,
      NULL);
  gst_element_set_context (pipeline, context);
  gst_context_unref (context);

  run_to_eos (pipeline);
  fail_unless (cl_context_of (pipeline, "a") == app);
  fail_unless (cl_context_of (pipeline, "b") == app);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  /* wrapped, never released on the application's behalf */
  fail_unless_equals_int (clGetContextInfo (app, CL_CONTEXT_REFERENCE_COUNT,
          sizeof (refs), &refs, NULL), CL_SUCCESS);
  fail_unless_equals_int (refs, 1);
  clReleaseContext (app);
}

GST_END_TEST;

GST_START_TEST (test_bad_device_index)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc ! clboxblur "
      "device-index=1000 ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  cl_test_expect_error (bus, GST_RESOURCE_ERROR_NOT_FOUND,
      "device-index 1000", "0: \"", NULL);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
context_suite (void)
{
  Suite *s = suite_create ("clcontext");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_elements_share_one_context);
  tcase_add_test (tc, test_every_element_shares_it);
  tcase_add_test (tc, test_context_handed_on);
  tcase_add_test (tc, test_application_context);
  tcase_add_test (tc, test_bad_device_index);
  return s;
}

GST_CHECK_MAIN (context);
