/* gstclfilters: OpenCL device discovery and choice
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

/**
 * GST_CL_DEVICE_ENV:
 *
 * The environment variable that names the device of elements left to
 * choose (docs/devices-and-contexts.md).
 */
#define GST_CL_DEVICE_ENV "GST_CL_DEVICE"

/**
 * GstClDeviceInfo:
 * @index: position in enumeration order (platform by platform), as `device-index`
 *   and `GST_CL_DEVICE` count them
 * @platform: its OpenCL platform
 * @device: the OpenCL device
 * @type: CPU, GPU or accelerator, what the automatic choice ranks
 * @platform_name: CL_PLATFORM_NAME
 * @platform_vendor: CL_PLATFORM_VENDOR ("" where the driver cannot say)
 * @device_name: CL_DEVICE_NAME
 * @device_vendor: CL_DEVICE_VENDOR ("" likewise)
 * @name: "platform device", for logs and messages
 *
 * One OpenCL device as the ICD loader reported it. Immutable, owned by the list.
 */
typedef struct
{
  gint index;
  cl_platform_id platform;
  cl_device_id device;
  cl_device_type type;
  gchar *platform_name;
  gchar *platform_vendor;
  gchar *device_name;
  gchar *device_vendor;
  gchar *name;
} GstClDeviceInfo;

const GPtrArray *       gst_cl_device_list (void);

gchar *                 gst_cl_device_env (void);

const GstClDeviceInfo * gst_cl_device_choose (gint index, GError ** error);

const GstClDeviceInfo * gst_cl_device_choose_auto (const GPtrArray * list);

const GstClDeviceInfo * gst_cl_device_choose_by_name (const GPtrArray * list,
                                                      const gchar * wanted);

gchar *                 gst_cl_device_read_string (cl_device_id device,
                                                   cl_device_info what,
                                                   GError ** error);
gchar *                 gst_cl_device_get_string (cl_device_id device,
                                                  cl_device_info what);

const gchar *           gst_cl_device_type_name (cl_device_type type);

G_END_DECLS
