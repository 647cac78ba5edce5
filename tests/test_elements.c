/* gstclfilters tests: what gst-inspect shows of every element
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cltest.h"
#include "clcases.h"

#define OUTPUT_FLAGS (GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

static gboolean
is_uncontrolled (const ClTestElement * e, const gchar * prop)
{
  for (guint i = 0; i < G_N_ELEMENTS (e->uncontrolled); i++)
    if (g_strcmp0 (e->uncontrolled[i], prop) == 0)
      return TRUE;
  return FALSE;
}

GST_START_TEST (test_metadata_and_properties)
{
  const gchar *const *names = cl_test_element_names ();
  GList *features = gst_registry_get_feature_list_by_plugin
      (gst_registry_get (), "clfilters");
  guint n_elements = 0;

  /* the plugin registers the elements of the list, and no other */
  for (GList * l = features; l; l = l->next) {
    if (!GST_IS_ELEMENT_FACTORY (l->data))
      continue;
    fail_unless (g_strv_contains (names,
            gst_plugin_feature_get_name (l->data)), "%s is not listed",
        gst_plugin_feature_get_name (l->data));
    n_elements++;
  }
  fail_unless_equals_int (n_elements, g_strv_length ((gchar **) names));
  gst_plugin_feature_list_free (features);

  for (const gchar * const *name = names; *name; name++) {
    ClTestElement entry = cl_test_element (*name);
    GstElement *el = gst_element_factory_make (*name, NULL);
    GstElementFactory *f = gst_element_get_factory (el);
    gboolean filter = cl_test_element_is_filter (*name);
    GParamSpec **pspecs, *pspec;
    guint n_pspecs, sinks = 0, srcs = 0;
    gboolean qos;
    gint index;
    GEnumClass *klass;

    fail_unless (el != NULL, "no %s", *name);
    fail_unless (g_str_has_prefix (gst_element_factory_get_metadata (f,
                GST_ELEMENT_METADATA_LONGNAME), "OpenCL"));
    fail_unless (gst_element_factory_get_metadata (f,
            GST_ELEMENT_METADATA_DESCRIPTION) != NULL);
    /* one output; one input for a filter, more for an aggregator */
    for (const GList * l = gst_element_factory_get_static_pad_templates (f);
        l; l = l->next) {
      GstStaticPadTemplate *t = l->data;

      if (t->direction == GST_PAD_SRC)
        srcs++;
      else
        sinks++;
    }
    fail_unless_equals_int (srcs, 1);
    fail_unless (filter ? sinks == 1 : sinks >= 1, "%s: %u sink pad "
        "templates", *name, sinks);

    /* each property of its own (but those every element has, checked
     * below, and read-only ones) changes the output, so must follow a
     * GstController: but those its entry says change no pixel */
    pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (el),
        &n_pspecs);
    for (guint p = 0; p < n_pspecs; p++) {
      pspec = pspecs[p];
      if (!cl_test_is_own_property (pspec) ||
          !(pspec->flags & G_PARAM_WRITABLE) ||
          g_str_equal (pspec->name, "device-index") ||
          g_str_equal (pspec->name, "variant") ||
          is_uncontrolled (&entry, pspec->name))
        continue;
      fail_unless ((pspec->flags & OUTPUT_FLAGS) == OUTPUT_FLAGS,
          "%s::%s must be controllable and mutable while playing",
          *name, pspec->name);
    }
    g_free (pspecs);
    for (guint i = 0; i < G_N_ELEMENTS (entry.uncontrolled); i++)
      fail_unless (!entry.uncontrolled[i] ||
          g_object_class_find_property (G_OBJECT_GET_CLASS (el),
              entry.uncontrolled[i]), "%s has no %s", *name,
          entry.uncontrolled[i]);

    /* a GstBaseTransform's QoS; an aggregator has none to turn on */
    pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (el), "qos");
    fail_unless (!filter || pspec != NULL);
    if (pspec) {
      g_object_get (el, "qos", &qos, NULL);
      fail_unless (qos, "QoS is on");
    }
    g_object_get (el, "device-index", &index, NULL);
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

/* GRAY8 where the element takes it, else its first format */
static GstVideoFormat
small_format (const gchar * name)
{
  GstVideoFormat format;

  if (cl_test_element_takes (name, GST_VIDEO_FORMAT_GRAY8))
    return GST_VIDEO_FORMAT_GRAY8;
  cl_test_element_formats (name, &format, 1);
  return format;
}

/* A stream without a time segment (a bytes one here) has no stream time for
 * the controlled properties: the frames are filtered all the same, with no
 * warning. The filters of one input only: an aggregator takes time
 * segments alone (GstVideoAggregator asserts it). */
GST_START_TEST (test_segment_not_in_time)
{
  const gchar *const *names = cl_test_element_names ();

  for (guint e = 0; names[e]; e++) {
    GstVideoFormat format = small_format (names[e]);
    GstHarness *h;
    GstSegment segment;
    GstVideoInfo info;
    GstBuffer *in;

    if (!cl_test_element_is_filter (names[e]))
      continue;
    h = cl_test_harness_new (names[e], format, 16, 8);
    gst_segment_init (&segment, GST_FORMAT_BYTES);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
    in = cl_test_frame_new (format, 16, 8, 0, e, &info);
    GST_BUFFER_PTS (in) = 0;
    gst_buffer_unref (cl_test_push_pull (h, in));
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Frames late by a QoS event are dropped, as in any GstBaseTransform, with
 * a QoS message for the first and none for the others within a second (a
 * slow machine may take more seconds, and post one a second); each counts
 * the frames processed and dropped so far. Frames in time pass again. The
 * filters of one input only: an aggregator drops late frames its own way,
 * with a message each. */
GST_START_TEST (test_qos_drops)
{
  const gchar *const *names = cl_test_element_names ();

  for (guint e = 0; names[e]; e++) {
    GstVideoFormat vformat = small_format (names[e]);
    GstHarness *h;
    GstBus *bus;
    GstMessage *msg;
    GstVideoInfo info;
    GstBuffer *in;
    GstFormat format;
    guint64 processed, dropped;
    guint messages = 0;
    gint64 start;

    if (!cl_test_element_is_filter (names[e]))
      continue;
    h = cl_test_harness_new (names[e], vformat, 16, 8);
    bus = gst_bus_new ();
    gst_element_set_bus (h->element, bus);
    /* the first frame through, then the sink says it is 10 s late */
    in = cl_test_frame_new (vformat, 16, 8, 0, e, &info);
    GST_BUFFER_PTS (in) = 0;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    gst_buffer_unref (cl_test_push_pull (h, in));
    fail_unless (gst_harness_push_upstream_event (h,
            gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 1.0,
                10 * GST_SECOND, 0)));
    start = g_get_monotonic_time ();
    for (guint i = 1; i <= 20; i++) {
      in = cl_test_frame_new (vformat, 16, 8, 0, e, &info);
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

    in = cl_test_frame_new (vformat, 16, 8, 0, e, &info);
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
  Suite *s = suite_create ("clcases");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  tcase_add_test (tc, test_metadata_and_properties);
  tcase_add_test (tc, test_segment_not_in_time);
  tcase_add_test (tc, test_qos_drops);
  return s;
}

GST_CHECK_MAIN (elements);
