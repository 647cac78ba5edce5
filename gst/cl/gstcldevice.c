/* gstclfilters: OpenCL device discovery and choice
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gstcldevice.h"
#include "gstclerror.h"

#include <CL/cl_ext.h>
#include <string.h>

/**
 * gst_cl_device_env:
 *
 * Returns: (transfer full): the value of GST_CL_DEVICE, without the spaces
 *   around it, which are no part of it; "" where it is unset or blank
 */
gchar *
gst_cl_device_env (void)
{
  const gchar *env = g_getenv (GST_CL_DEVICE_ENV);

  return g_strstrip (g_strdup (env ? env : ""));
}

/**
 * gst_cl_device_read_string:
 * @what: a string-valued device query, such as CL_DEVICE_NAME
 *
 * Returns: (transfer full) (nullable): the answer, stripped, or %NULL where
 *   the driver could not give it
 */
gchar *
gst_cl_device_read_string (cl_device_id device, cl_device_info what,
    GError ** error)
{
  gsize size = 0;
  gchar *str;

  if (!gst_cl_result (clGetDeviceInfo (device, what, 0, NULL, &size), error,
          "clGetDeviceInfo"))
    return NULL;
  str = g_malloc0 (size + 1);
  if (size && !gst_cl_result (clGetDeviceInfo (device, what, size, str, NULL),
          error, "clGetDeviceInfo")) {
    g_free (str);
    return NULL;
  }
  return g_strstrip (str);
}

/**
 * gst_cl_device_get_string:
 * @what: a string-valued device query, such as CL_DEVICE_NAME
 *
 * Returns: (transfer full): the answer, stripped; "" where there is none
 */
gchar *
gst_cl_device_get_string (cl_device_id device, cl_device_info what)
{
  gchar *str = gst_cl_device_read_string (device, what, NULL);

  return str ? str : g_strdup ("");
}

static gchar *
platform_string (cl_platform_id platform, cl_platform_info what,
    GError ** error)
{
  gsize size = 0;
  gchar *str;

  if (!gst_cl_result (clGetPlatformInfo (platform, what, 0, NULL, &size),
          error, "clGetPlatformInfo"))
    return NULL;
  str = g_malloc0 (size + 1);
  if (size && !gst_cl_result (clGetPlatformInfo (platform, what, size, str,
              NULL), error, "clGetPlatformInfo")) {
    g_free (str);
    return NULL;
  }
  return g_strstrip (str);
}

static void
device_info_free (gpointer data)
{
  GstClDeviceInfo *info = data;

  g_free (info->platform_name);
  g_free (info->platform_vendor);
  g_free (info->device_name);
  g_free (info->device_vendor);
  g_free (info->name);
  g_free (info);
}

static gboolean
add_device (GPtrArray * list, cl_platform_id platform, cl_device_id device,
    GError ** error)
{
  GstClDeviceInfo *info = g_new0 (GstClDeviceInfo, 1);

  info->index = list->len;
  info->platform = platform;
  info->device = device;
  g_ptr_array_add (list, info);
  if (!gst_cl_result (clGetDeviceInfo (device, CL_DEVICE_TYPE,
              sizeof (info->type), &info->type, NULL), error,
          "clGetDeviceInfo") ||
      !(info->platform_name = platform_string (platform, CL_PLATFORM_NAME,
              error)) ||
      !(info->device_name = gst_cl_device_read_string (device,
              CL_DEVICE_NAME, error)))
    return FALSE;
  /* for GST_CL_DEVICE alone: a driver that cannot say is still usable */
  info->platform_vendor = platform_string (platform, CL_PLATFORM_VENDOR, NULL);
  if (!info->platform_vendor)
    info->platform_vendor = g_strdup ("");
  info->device_vendor = gst_cl_device_get_string (device, CL_DEVICE_VENDOR);
  info->name =
      g_strdup_printf ("%s %s", info->platform_name, info->device_name);
  return TRUE;
}

static gboolean
add_platform_devices (GPtrArray * list, cl_platform_id platform,
    GError ** error)
{
  cl_uint n_devices = 0, i;
  cl_device_id *devices;
  cl_int status;
  gboolean ok;

  status = clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n_devices);
  /* a platform without devices */
  if (status == CL_DEVICE_NOT_FOUND || (status == CL_SUCCESS && !n_devices))
    return TRUE;
  if (!gst_cl_result (status, error, "clGetDeviceIDs"))
    return FALSE;
  devices = g_new0 (cl_device_id, n_devices);
  ok = gst_cl_result (clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, n_devices,
          devices, NULL), error, "clGetDeviceIDs");
  for (i = 0; ok && i < n_devices; i++)
    ok = add_device (list, platform, devices[i], error);
  g_free (devices);
  return ok;
}

/* NVIDIA's driver opens CUDA_DEVICE_MAX_CONNECTIONS hardware queues for
 * each context it makes, 8 unless told, at about 15 ms each: with 2, the
 * first frame of a pipeline comes 60-70 ms sooner on an H100, and many
 * streams run as fast or faster (docs/devices-and-contexts.md). The driver
 * reads the variable at a process's first OpenCL call, which this listing
 * is where the application made none before; a value already set stays.
 * Other drivers do not read it. */
#define CUDA_CONNECTIONS_ENV "CUDA_DEVICE_MAX_CONNECTIONS"
#define CUDA_CONNECTIONS "2"

/* Returns NULL where a driver call failed: the next try enumerates again,
 * where an empty list (no platform, no device) is an answer. */
static GPtrArray *
enumerate_devices (GError ** error)
{
  GPtrArray *list = g_ptr_array_new_with_free_func (device_info_free);
  cl_uint n_platforms = 0, i;
  cl_platform_id *platforms;
  cl_int status;
  gboolean ok;

  g_setenv (CUDA_CONNECTIONS_ENV, CUDA_CONNECTIONS, FALSE);
  status = clGetPlatformIDs (0, NULL, &n_platforms);
  /* the ICD loader's answer where it has no vendors */
  if (status == CL_PLATFORM_NOT_FOUND_KHR ||
      (status == CL_SUCCESS && !n_platforms))
    return list;
  if (!gst_cl_result (status, error, "clGetPlatformIDs"))
    goto failed;
  platforms = g_new0 (cl_platform_id, n_platforms);
  ok = gst_cl_result (clGetPlatformIDs (n_platforms, platforms, NULL), error,
      "clGetPlatformIDs");
  for (i = 0; ok && i < n_platforms; i++)
    ok = add_platform_devices (list, platforms[i], error);
  g_free (platforms);
  if (!ok)
    goto failed;
  return list;

failed:
  g_ptr_array_unref (list);
  return NULL;
}

static GMutex list_lock;
/* the first complete enumeration, kept for the process */
static GPtrArray *device_list;

static const GPtrArray *
device_list_try (GError ** error)
{
  GPtrArray *list;

  g_mutex_lock (&list_lock);
  if (!device_list)
    device_list = enumerate_devices (error);
  list = device_list;
  g_mutex_unlock (&list_lock);
  return list;
}

/**
 * gst_cl_device_list:
 *
 * The devices of every OpenCL platform, enumerated once per process; again
 * at the next call where a driver call failed meanwhile.
 *
 * Returns: (transfer none) (element-type GstClDeviceInfo): the device list,
 *   empty where it could not be had
 */
const GPtrArray *
gst_cl_device_list (void)
{
  static GPtrArray *none;
  const GPtrArray *list = device_list_try (NULL);

  if (list)
    return list;
  if (g_once_init_enter (&none))
    g_once_init_leave (&none, g_ptr_array_new ());
  return none;
}

/**
 * gst_cl_device_type_name:
 *
 * Returns: "GPU", "CPU", "accelerator", ... for logs and messages
 */
const gchar *
gst_cl_device_type_name (cl_device_type type)
{
  if (type & CL_DEVICE_TYPE_GPU)
    return "GPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  if (type & CL_DEVICE_TYPE_CPU)
    return "CPU";
  return "other";
}

/* Lower is better: GPU, then accelerator, then CPU. */
static gint
device_rank (const GstClDeviceInfo * info)
{
  if (info->type & CL_DEVICE_TYPE_GPU)
    return 0;
  if (info->type & CL_DEVICE_TYPE_ACCELERATOR)
    return 1;
  if (info->type & CL_DEVICE_TYPE_CPU)
    return 2;
  return 3;
}

/* a one-line description of every device, for errors */
static gchar *
device_list_describe (void)
{
  const GPtrArray *list = gst_cl_device_list ();
  GString *s = g_string_new (NULL);
  guint i;

  if (list->len == 0) {
    g_string_append_printf (s, "no OpenCL platform or device (ICD loader "
        "vendors: %s)", g_getenv ("OCL_ICD_VENDORS") ?
        g_getenv ("OCL_ICD_VENDORS") : "/etc/OpenCL/vendors");
  }
  for (i = 0; i < list->len; i++) {
    const GstClDeviceInfo *info = g_ptr_array_index (list, i);

    g_string_append_printf (s, "%s%d: \"%s\" (%s, %s)", i ? ", " : "",
        info->index, info->name, gst_cl_device_type_name (info->type),
        info->platform_vendor);
  }
  return g_string_free (s, FALSE);
}

/**
 * gst_cl_device_choose_auto:
 * @list: (element-type GstClDeviceInfo): devices, as gst_cl_device_list()
 *
 * Returns: (transfer none) (nullable): the first GPU of @list, else the first
 *   accelerator, else the first CPU, else the first device
 */
const GstClDeviceInfo *
gst_cl_device_choose_auto (const GPtrArray * list)
{
  const GstClDeviceInfo *best = NULL;
  guint i;

  for (i = 0; i < list->len; i++) {
    const GstClDeviceInfo *info = g_ptr_array_index (list, i);

    if (!best || device_rank (info) < device_rank (best))
      best = info;
  }
  return best;
}

/* whether @text, casefolded, holds @needle (casefolded) */
static gboolean
holds (const gchar * text, const gchar * needle)
{
  gchar *hay = g_utf8_casefold (text, -1);
  gboolean found = strstr (hay, needle) != NULL;

  g_free (hay);
  return found;
}

/* How GST_CL_DEVICE names a device, from the surest to the loosest: its
 * type (cpu, gpu, accelerator); its platform's name or vendor (nvidia,
 * intel, pocl, amd, "portable computing language"); its name or vendor
 * ("a100", "genuineintel"). The first match of the surest kind that
 * matches any device wins, in the order of the list: "intel" then names
 * Intel's own OpenCL runtime, not PoCL running on an Intel processor. */
static gboolean
name_matches (const GstClDeviceInfo * info, const gchar * needle, guint kind)
{
  switch (kind) {
    case 0:
      return (g_str_equal (needle, "cpu") &&
          (info->type & CL_DEVICE_TYPE_CPU)) ||
          (g_str_equal (needle, "gpu") && (info->type & CL_DEVICE_TYPE_GPU))
          || (g_str_equal (needle, "accelerator") &&
          (info->type & CL_DEVICE_TYPE_ACCELERATOR));
    case 1:
      return holds (info->platform_name, needle) ||
          holds (info->platform_vendor, needle);
    default:
      return holds (info->name, needle) || holds (info->device_vendor, needle);
  }
}

/**
 * gst_cl_device_choose_by_name:
 * @list: (element-type GstClDeviceInfo): devices, as gst_cl_device_list()
 * @wanted: a device type, or part of a platform's or device's name or
 *   vendor, in any case
 *
 * Returns: (transfer none) (nullable): the device of @list that @wanted
 *   names, as `GST_CL_DEVICE` takes it
 */
const GstClDeviceInfo *
gst_cl_device_choose_by_name (const GPtrArray * list, const gchar * wanted)
{
  gchar *needle = g_utf8_casefold (wanted, -1);
  const GstClDeviceInfo *found = NULL;
  guint kind, i;

  for (kind = 0; kind < 3 && !found; kind++)
    for (i = 0; i < list->len && !found; i++)
      if (name_matches (g_ptr_array_index (list, i), needle, kind))
        found = g_ptr_array_index (list, i);
  g_free (needle);
  return found;
}

static const GstClDeviceInfo *
choose_from_env (const GPtrArray * list, const gchar * env)
{
  gchar *end = NULL;
  gint64 index = g_ascii_strtoll (env, &end, 10);

  if (end != env && *end == '\0')
    return (index >= 0 && index < list->len) ?
        g_ptr_array_index (list, index) : NULL;
  return gst_cl_device_choose_by_name (list, env);
}

/**
 * gst_cl_device_choose:
 * @index: a `device-index` property value; -1 leaves the choice to
 *   `GST_CL_DEVICE`, then to the ranking (GPU, accelerator, CPU)
 * @error: set, with GST_RESOURCE_ERROR_NOT_FOUND, when nothing matches,
 *   or with the OpenCL error where the devices could not be listed
 *
 * Returns: (transfer none) (nullable): the device to use
 */
const GstClDeviceInfo *
gst_cl_device_choose (gint index, GError ** error)
{
  const GPtrArray *list = device_list_try (error);
  const GstClDeviceInfo *info = NULL;
  gchar *env, *found;

  if (!list)
    return NULL;
  env = gst_cl_device_env ();
  if (list->len == 0)
    goto no_device;

  if (index >= 0)
    info = index < (gint) list->len ? g_ptr_array_index (list, index) : NULL;
  else if (*env)
    info = choose_from_env (list, env);
  else
    info = gst_cl_device_choose_auto (list);
  if (!info)
    goto no_match;
  g_free (env);
  return info;

  /* ERRORS */
no_device:
  {
    found = device_list_describe ();
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "no OpenCL device found: looked for any GPU, accelerator or CPU "
        "device on every platform; %s", found);
    g_free (found);
    g_free (env);
    return NULL;
  }
no_match:
  {
    found = device_list_describe ();
    if (index >= 0)
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
          "no OpenCL device with device-index %d; devices found: %s", index,
          found);
    else
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
          "no OpenCL device matches " GST_CL_DEVICE_ENV "=\"%s\"; devices "
          "found: %s", env, found);
    g_free (found);
    g_free (env);
    return NULL;
  }
}
