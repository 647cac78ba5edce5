/* gstclfilters tests: frames, harnesses and comparisons shared by the tests
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "clref.h"

G_BEGIN_DECLS

/* Computes the expected output plane @plane of a filter from the input frame. */
typedef void (*ClRefPlaneFunc) (const GstVideoFrame * in, guint plane,
                                guint8 * out, gint out_stride,
                                gpointer user_data);

/* Frame-level references of the filters, as ClRefPlaneFunc. */
typedef struct
{
  guint threshold;
  guint diameter;
} ClTestEpsilon;

/* user_data: the diameter, GUINT_TO_POINTER */
void cl_test_ref_boxblur (const GstVideoFrame * in, guint plane, guint8 * out,
                          gint out_stride, gpointer user_data);
/* user_data: the ClRefSobelMode, GUINT_TO_POINTER */
void cl_test_ref_sobel (const GstVideoFrame * in, guint plane, guint8 * out,
                        gint out_stride, gpointer user_data);
/* user_data: a ClTestEpsilon */
void cl_test_ref_epsilon (const GstVideoFrame * in, guint plane, guint8 * out,
                          gint out_stride, gpointer user_data);

void cl_test_check_caps_rejected (const gchar * factory, const gchar * caps,
                                  const gchar * hint);

GstBuffer * cl_test_frame_new (GstVideoFormat format, gint width, gint height,
                               guint stride_pad, guint32 seed,
                               GstVideoInfo * info);

GstBuffer * cl_test_photo_new (GstVideoFormat format, gint width, gint height);

GstBuffer * cl_test_photo_through (GstVideoFormat format, gint width,
                                   gint height, const gchar * filter);

GstHarness * cl_test_harness_new (const gchar * factory, GstVideoFormat format,
                                  gint width, gint height);

GstHarness * cl_test_harness_new_with_element (GstElement * element,
                                               GstVideoFormat format,
                                               gint width, gint height);

GstHarness * cl_test_harness_new_set (const gchar * factory,
                                      GstVideoFormat format, gint width,
                                      gint height, const gchar * variant,
                                      const gchar * first_property,
                                      ...) G_GNUC_NULL_TERMINATED;

gboolean    cl_test_check_output (GstBuffer * in, GstBuffer * out,
                                  const GstVideoInfo * info,
                                  ClRefPlaneFunc ref, gpointer user_data,
                                  gchar ** why);

GstBuffer * cl_test_push_pull (GstHarness * h, GstBuffer * in);

GstBuffer * cl_test_apply_ref (GstBuffer * in, const GstVideoInfo * info,
                               ClRefPlaneFunc ref, gpointer user_data);

void        cl_test_check_same (GstBuffer * got, GstBuffer * want,
                                const GstVideoInfo * info,
                                const gchar * what);

gboolean    cl_test_is_packed_422 (GstVideoFormat format);

gint        cl_test_row_bytes (const GstVideoFrame * frame, guint plane);

void        cl_test_plane_of (const GstVideoFrame * frame, guint plane,
                              ClRefPlane * out);

const gchar * cl_test_photo_path (void);

void        cl_test_teardown (void);

void        cl_test_expect_error (GstBus * bus, gint code, ...)
                                  G_GNUC_NULL_TERMINATED;

G_END_DECLS
