/* gstclfilters tests: what gst-inspect shows of every element
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cltest.h"

/* element, its properties that change the output */
static const struct
{
  const gchar *factory;
  const gchar *controlled[3];
} elements[] = {
  {"clboxblur", {"diameter", NULL}},
  {"clsobel", {"mode", NULL}},
  {"clepsilon", {"threshold", "diameter", NULL}},
  /* its video passes through; squared adds a table, it changes no pixel */
  {"clintegral", {NULL}},
};

#define OUTPUT_FLAGS (GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

GST_START_TEST (test_metadata_and_properties)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstElement *el = gst_element_factory_make (elements[e].factory, NULL);
    GstElementFactory *f = gst_element_get_factory (el);
    GParamSpec *pspec;
    gboolean qos;
    gint index;
    GEnumClass *klass;

    fail_unless (el != NULL, "no %s", elements[e].factory);
    fail_unless (g_str_has_prefix (gst_element_factory_get_metadata (f,
                GST_ELEMENT_METADATA_LONGNAME), "OpenCL"));
    fail_unless (gst_element_factory_get_metadata (f,
            GST_ELEMENT_METADATA_DESCRIPTION) != NULL);
    fail_unless_equals_int (gst_element_factory_get_num_pad_templates (f), 2);

    for (guint p = 0; elements[e].controlled[p]; p++) {
      pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (el),
          elements[e].controlled[p]);
      fail_unless (pspec != NULL);
      fail_unless ((pspec->flags & OUTPUT_FLAGS) == OUTPUT_FLAGS,
          "%s::%s must be controllable and mutable while playing",
          elements[e].factory, pspec->name);
    }

    g_object_get (el, "qos", &qos, "device-index", &index, NULL);
    fail_unless (qos, "QoS is on");
    fail_unless_equals_int (index, -1);
    pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (el), "variant");
    fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
    g_object_get (el, "variant", &index, NULL);
    klass = g_type_class_ref (pspec->value_type);
    fail_unless_equals_string (g_enum_get_value (klass, index)->value_nick,
        "optimized");
    g_type_class_unref (klass);
    gst_object_unref (el);
  }
}

GST_END_TEST;

/* A stream without a time segment (a bytes one here) has no stream time for
 * the controlled properties: the frames are filtered all the same, with no
 * warning. */
GST_START_TEST (test_segment_not_in_time)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstHarness *h = cl_test_harness_new (elements[e].factory,
        GST_VIDEO_FORMAT_GRAY8, 16, 8);
    GstSegment segment;
    GstVideoInfo info;
    GstBuffer *in;

    gst_segment_init (&segment, GST_FORMAT_BYTES);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
    in = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, 16, 8, 0, e, &info);
    GST_BUFFER_PTS (in) = 0;
    gst_buffer_unref (cl_test_push_pull (h, in));
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Frames late by a QoS event are dropped, as in any GstBaseTransform, with
 * a QoS message for the first and none for the others within a second (a
 * slow machine may take more seconds, and post one a second); each counts
 * the frames processed and dropped so far. Frames in time pass again. */
GST_START_TEST (test_qos_drops)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstHarness *h = cl_test_harness_new (elements[e].factory,
        GST_VIDEO_FORMAT_GRAY8, 16, 8);
    GstBus *bus = gst_bus_new ();
    GstMessage *msg;
    GstVideoInfo info;
    GstBuffer *in;
    GstFormat format;
    guint64 processed, dropped;
    guint messages = 0;
    gint64 start;

    gst_element_set_bus (h->element, bus);
    /* the first frame through, then the sink says it is 10 s late */
    in = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, 16, 8, 0, e, &info);
    GST_BUFFER_PTS (in) = 0;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    gst_buffer_unref (cl_test_push_pull (h, in));
    fail_unless (gst_harness_push_upstream_event (h,
            gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 1.0,
                10 * GST_SECOND, 0)));
    start = g_get_monotonic_time ();
    for (guint i = 1; i <= 20; i++) {
      in = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, 16, 8, 0, e, &info);
      GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
      GST_BUFFER_DURATION (in) = GST_SECOND / 30;
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    }
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS))) {
      guint64 before = messages ? dropped : 0;

      gst_message_parse_qos_stats (msg, &format, &processed, &dropped);
      fail_unless_equals_int (format, GST_FORMAT_BUFFERS);
      fail_unless_equals_uint64 (processed, 1);
      /* the first counts its own frame, the next ones more */
      fail_unless (messages ? dropped > before : dropped == 1);
      gst_message_unref (msg);
      messages++;
    }
    fail_unless (messages >= 1 && messages <= 1 +
        (g_get_monotonic_time () - start) / G_USEC_PER_SEC,
        "%u QoS messages for 20 dropped frames", messages);

    in = cl_test_frame_new (GST_VIDEO_FORMAT_GRAY8, 16, 8, 0, e, &info);
    GST_BUFFER_PTS (in) = 11 * GST_SECOND;
    gst_buffer_unref (cl_test_push_pull (h, in));
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static Suite *
elements_suite (void)
{
  Suite *s = suite_create ("clelements");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  tcase_add_test (tc, test_metadata_and_properties);
  tcase_add_test (tc, test_segment_not_in_time);
  tcase_add_test (tc, test_qos_drops);
  return s;
}

GST_CHECK_MAIN (elements);
