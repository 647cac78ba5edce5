/* gstclfilters tests: no OpenCL device (the ICD loader finds no vendor)
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "cltest.h"
#include "clcases.h"

GST_START_TEST (test_no_device_is_an_element_error)
{
  for (const gchar * const *name = cl_test_element_names (); *name; name++) {
    GstElement *pipeline = gst_pipeline_new (NULL);
    GstElement *element = gst_element_factory_make (*name, NULL);
    GstBus *bus = gst_element_get_bus (pipeline);

    fail_unless (element != NULL, "the plugin registers %s anyway", *name);
    gst_bin_add (GST_BIN (pipeline), element);
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_READY), GST_STATE_CHANGE_FAILURE);
    cl_test_expect_error (bus, GST_RESOURCE_ERROR_NOT_FOUND,
        "no OpenCL device found", "looked for", NULL);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipeline);
  }
}

GST_END_TEST;

static Suite *
nodevice_suite (void)
{
  Suite *s = suite_create ("nodevice");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_no_device_is_an_element_error);
  return s;
}

GST_CHECK_MAIN (nodevice);
