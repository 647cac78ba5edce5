/* gstclfilters: OpenCL error names, GError helpers and messages
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

const gchar * gst_cl_error_name (cl_int status);

gboolean      gst_cl_result (cl_int status, GError ** error, const gchar * call);

/* Posts @err (a GError *, may be NULL) as an element error message of @el. */
#define GST_CL_POST_ERROR(el, err)                                      \
    gst_cl_post_error (GST_ELEMENT_CAST (el), (err), __FILE__,          \
        GST_FUNCTION, __LINE__)

void          gst_cl_post_error (GstElement * element, const GError * err,
                                 const gchar * file, const gchar * function,
                                 gint line);

void          gst_cl_watch_caps_events (GstPad * sinkpad);

gboolean      gst_cl_caps_in_event (GstCaps * caps);

void          gst_cl_warn_caps_refused (GstElement * element, GstPad * pad,
                                        GstCaps * caps);

G_END_DECLS
