/* gstclfilters tests: the core under gst/cl/, called directly
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "cltest.h"
#include "cllinked.h"
#include "cl/gstcldevice.h"
#include "cl/gstclcontext.h"
#include "cl/gstclevent.h"
#include "cl/gstclgate.h"
#include "cl/gstclprogram.h"
#include "cl/gstclaggregator.h"
#include "cl/gstclqueue.h"
#include "cl/gstclutils.h"
#include "cl/gstclmemory.h"
#include "cl/gstclcuda.h"
#include "gstclboxblur.h"
#include "gstclboxblur-plans.h"
#include "gstclkernels.h"

GST_START_TEST (test_device_list)
{
  const GPtrArray *list = gst_cl_device_list ();

  fail_unless (list->len >= 1, "the tests need one OpenCL device");
  for (guint i = 0; i < list->len; i++) {
    const GstClDeviceInfo *info = g_ptr_array_index (list, i);

    fail_unless_equals_int (info->index, i);
    fail_unless (info->name && *info->name);
  }
  fail_unless (gst_cl_device_list () == list, "enumerated once");
}

GST_END_TEST;

/* the environment before any test ran */
static gchar *initial_connections;

/* NVIDIA's driver's hardware queues a context: 2 where the environment
 * said nothing before the first listing, else what it said */
GST_START_TEST (test_cuda_connections)
{
  gst_cl_device_list ();
  fail_unless_equals_string (g_getenv ("CUDA_DEVICE_MAX_CONNECTIONS"),
      initial_connections ? initial_connections : "2");
}

GST_END_TEST;

static GstClDeviceInfo *
fake_device (GPtrArray * list, cl_device_type type, const gchar * platform,
    const gchar * platform_vendor, const gchar * device,
    const gchar * device_vendor)
{
  GstClDeviceInfo *info = g_new0 (GstClDeviceInfo, 1);

  info->index = list->len;
  info->type = type;
  info->platform_name = (gchar *) platform;
  info->platform_vendor = (gchar *) platform_vendor;
  info->device_name = (gchar *) device;
  info->device_vendor = (gchar *) device_vendor;
  info->name = g_strdup_printf ("%s %s", platform, device);
  g_ptr_array_add (list, info);
  return info;
}

static void
fake_device_free (gpointer data)
{
  g_free (((GstClDeviceInfo *) data)->name);
  g_free (data);
}

/* GST_CL_DEVICE by type, by implementation, by device: on a machine with
 * PoCL on an Intel processor, Intel's own CPU runtime and an NVIDIA GPU,
 * as their drivers name themselves */
/* the features of the structures of @caps, in order, as "cl sys cuda" */
static gchar *
features_of (GstCaps * caps)
{
  GString *res = g_string_new (NULL);
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    g_string_append_printf (res, "%s%s", i ? " " : "",
        gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_CL) ? "cl" :
        gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_CUDA) ? "cuda" :
        "sys");
  }
  gst_caps_unref (caps);
  return g_string_free (res, FALSE);
}

/* The output memory a cl element picks for its peer's caps, CUDA memory
 * among them (whether or not this machine can give it). */
static gchar *
preferred_for (const gchar * peer_caps)
{
  GstElement *filter = gst_element_factory_make ("capsfilter", NULL);
  GstPad *src = gst_pad_new ("src", GST_PAD_SRC);
  GstPad *sink = gst_element_get_static_pad (filter, "sink");
  GstCaps *caps = gst_caps_from_string ("video/x-raw(memory:OpenCL),"
      "format=NV12; video/x-raw,format=NV12; "
      "video/x-raw(memory:CUDAMemory),format=NV12");
  GstCaps *peer = gst_caps_from_string (peer_caps);
  gchar *res;

  g_object_set (filter, "caps", peer, NULL);
  gst_caps_unref (peer);
  fail_unless (gst_pad_link (src, sink) == GST_PAD_LINK_OK);
  res = features_of (gst_cl_caps_prefer_for_peer (src, caps));
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (filter);
  return res;
}

GST_START_TEST (test_memory_preference)
{
  static const struct
  {
    const gchar *peer, *want;
  } cases[] = {
    /* anything: system memory, which whatever maps buffers expects */
    {"ANY", "sys"},
    {"video/x-raw", "sys"},
    /* another cl element: the device, then the others */
    {"video/x-raw(memory:OpenCL); video/x-raw; video/x-raw(memory:CUDAMemory)",
        "cl sys cuda"},
    /* cudadownload, an encoder: CUDA memory first, never memory:OpenCL */
    {"video/x-raw(memory:CUDAMemory); video/x-raw", "cuda sys"},
    {"video/x-raw(memory:CUDAMemory)", "cuda sys"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *got = preferred_for (cases[i].peer);

    fail_unless_equals_string (got, cases[i].want);
    g_free (got);
  }
}

GST_END_TEST;

GST_START_TEST (test_memory_pass_as)
{
  static const struct
  {
    const gchar *in, *out;
    gboolean passes;
  } cases[] = {
    {"video/x-raw", "video/x-raw", TRUE},
    {"video/x-raw(memory:OpenCL)", "video/x-raw(memory:OpenCL)", TRUE},
    {"video/x-raw(memory:CUDAMemory)", "video/x-raw(memory:CUDAMemory)", TRUE},
    /* device memory maps for whatever takes system memory */
    {"video/x-raw(memory:OpenCL)", "video/x-raw", TRUE},
    {"video/x-raw(memory:CUDAMemory)", "video/x-raw", TRUE},
    /* but never becomes another memory as it is */
    {"video/x-raw", "video/x-raw(memory:OpenCL)", FALSE},
    {"video/x-raw", "video/x-raw(memory:CUDAMemory)", FALSE},
    {"video/x-raw(memory:CUDAMemory)", "video/x-raw(memory:OpenCL)", FALSE},
    {"video/x-raw(memory:OpenCL)", "video/x-raw(memory:CUDAMemory)", FALSE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstCaps *in = gst_caps_from_string (cases[i].in);
    GstCaps *out = gst_caps_from_string (cases[i].out);

    fail_unless (gst_cl_caps_pass_as (in, out) == cases[i].passes,
        "%s -> %s", cases[i].in, cases[i].out);
    gst_caps_unref (in);
    gst_caps_unref (out);
  }
}

GST_END_TEST;

/* Without NVIDIA's driver or GStreamer's CUDA library (or told not to), no
 * caps name CUDA memory, and the reason is there to log. */
GST_START_TEST (test_cuda_unavailable_says_why)
{
  GstCaps *one = gst_caps_from_string ("video/x-raw,format=NV12");
  GstCaps *all = gst_cl_caps_add_memory_feature (one);
  gchar *got = features_of (all);

  if (gst_cl_cuda_available ()) {
    fail_unless_equals_string (got, "cl sys cuda");
    fail_unless (gst_cl_cuda_unavailable_reason () == NULL);
  } else {
    fail_unless_equals_string (got, "cl sys");
    fail_unless (gst_cl_cuda_unavailable_reason () != NULL);
    GST_INFO ("no CUDA memory: %s", gst_cl_cuda_unavailable_reason ());
  }
  g_free (got);
  gst_caps_unref (one);
}

GST_END_TEST;

GST_START_TEST (test_device_names)
{
  GPtrArray *list = g_ptr_array_new_with_free_func (fake_device_free);
  GstClDeviceInfo *pocl = fake_device (list, CL_DEVICE_TYPE_CPU,
      "Portable Computing Language", "The pocl project",
      "pthread-Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", "GenuineIntel");
  GstClDeviceInfo *intel = fake_device (list, CL_DEVICE_TYPE_CPU,
      "Intel(R) OpenCL", "Intel(R) Corporation",
      "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", "Intel(R) Corporation");
  GstClDeviceInfo *nvidia = fake_device (list, CL_DEVICE_TYPE_GPU,
      "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H100 80GB HBM3",
      "NVIDIA Corporation");

  fail_unless (gst_cl_device_choose_by_name (list, "pocl") == pocl);
  fail_unless (gst_cl_device_choose_by_name (list, "PoCL") == pocl);
  fail_unless (gst_cl_device_choose_by_name (list,
          "portable computing language") == pocl);
  /* the platform's name before a device's: not PoCL on an Intel CPU */
  fail_unless (gst_cl_device_choose_by_name (list, "intel") == intel);
  fail_unless (gst_cl_device_choose_by_name (list, "nvidia") == nvidia);
  fail_unless (gst_cl_device_choose_by_name (list, "h100") == nvidia);
  fail_unless (gst_cl_device_choose_by_name (list, "gpu") == nvidia);
  /* the first of a type, in the order of the list */
  fail_unless (gst_cl_device_choose_by_name (list, "CPU") == pocl);
  fail_unless (gst_cl_device_choose_by_name (list, "accelerator") == NULL);
  fail_unless (gst_cl_device_choose_by_name (list, "i7-8700") == pocl);
  fail_unless (gst_cl_device_choose_by_name (list, "amd") == NULL);
  g_ptr_array_unref (list);
}

GST_END_TEST;

/* Every GST_CL_DEVICE=value the docs give: a device where the machine has
 * what it names, else the error that lists the devices */
GST_START_TEST (test_device_names_in_docs)
{
  const gchar *files[] = { "README.md", "docs/devices-and-contexts.md",
    "docs/design.md", "docs/testing.md"
  };
  const GPtrArray *list = gst_cl_device_list ();
  GRegex *example = g_regex_new ("GST_CL_DEVICE=([A-Za-z0-9_.-]+)", 0, 0,
      NULL);
  gboolean pocl = FALSE;
  guint n = 0;

  for (guint i = 0; i < list->len; i++)
    pocl |= strstr (((const GstClDeviceInfo *) g_ptr_array_index (list,
                i))->platform_name, "Portable Computing Language") != NULL;
  for (guint f = 0; f < G_N_ELEMENTS (files); f++) {
    gchar *path = g_build_filename (g_getenv ("CL_TEST_SOURCE_DIR"), files[f],
        NULL);
    gchar *text = NULL;
    GMatchInfo *match;

    fail_unless (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
    g_regex_match (example, text, 0, &match);
    for (; g_match_info_matches (match); g_match_info_next (match, NULL)) {
      gchar *value = g_match_info_fetch (match, 1);
      const GstClDeviceInfo *info;
      GError *err = NULL;

      g_setenv ("GST_CL_DEVICE", value, TRUE);
      info = gst_cl_device_choose (-1, &err);
      if (info) {
        GST_INFO ("%s: GST_CL_DEVICE=%s is %s", files[f], value, info->name);
      } else {
        fail_unless (err && strstr (err->message, value) &&
            strstr (err->message, "devices found"), "%s", err->message);
        /* what the docs name on every machine with PoCL (a GPU machine
         * may have none, and no CPU device) */
        fail_if (pocl && (g_ascii_strcasecmp (value, "pocl") == 0 ||
                g_ascii_strcasecmp (value, "cpu") == 0 ||
                g_ascii_strcasecmp (value, "0") == 0), "%s: %s", files[f],
            err->message);
        g_clear_error (&err);
      }
      g_free (value);
      n++;
    }
    g_match_info_free (match);
    g_free (text);
    g_free (path);
  }
  g_unsetenv ("GST_CL_DEVICE");
  g_regex_unref (example);
  fail_unless (n >= 4, "the docs give %u examples", n);
  fail_unless (list->len >= 1);
}

GST_END_TEST;

GST_START_TEST (test_device_choice)
{
  const GPtrArray *list = gst_cl_device_list ();
  const GstClDeviceInfo *first = g_ptr_array_index (list, 0);
  GError *err = NULL;
  gchar *upper;

  g_unsetenv ("GST_CL_DEVICE");
  fail_unless (gst_cl_device_choose (0, &err) == first);
  fail_unless (gst_cl_device_choose (-1, &err) != NULL);

  fail_unless (gst_cl_device_choose (99, &err) == NULL);
  fail_unless (err && strstr (err->message, "device-index 99") &&
      strstr (err->message, first->name), "%s", err->message);
  fail_unless (err->domain == GST_RESOURCE_ERROR);
  g_clear_error (&err);

  g_setenv ("GST_CL_DEVICE", "0", TRUE);
  fail_unless (gst_cl_device_choose (-1, &err) == first);
  upper = g_ascii_strup (first->device_name, -1);
  g_setenv ("GST_CL_DEVICE", upper, TRUE);
  fail_unless (gst_cl_device_choose (-1, &err) == first,
      "names match whatever their case");
  g_free (upper);
  /* the property wins over the environment */
  g_setenv ("GST_CL_DEVICE", "no-such-device", TRUE);
  fail_unless (gst_cl_device_choose (0, &err) == first);
  fail_unless (gst_cl_device_choose (-1, &err) == NULL);
  fail_unless (strstr (err->message, "GST_CL_DEVICE=\"no-such-device\"") &&
      strstr (err->message, first->name), "%s", err->message);
  g_clear_error (&err);
  g_setenv ("GST_CL_DEVICE", "42", TRUE);
  fail_unless (gst_cl_device_choose (-1, &err) == NULL);
  g_clear_error (&err);
  /* spaces around the value are no part of it; blank is unset */
  g_setenv ("GST_CL_DEVICE", " 0 ", TRUE);
  fail_unless (gst_cl_device_choose (-1, &err) == first);
  g_setenv ("GST_CL_DEVICE", " ", TRUE);
  fail_unless (gst_cl_device_choose (-1, &err) ==
      gst_cl_device_choose_auto (list));
  g_unsetenv ("GST_CL_DEVICE");
}

GST_END_TEST;

GST_START_TEST (test_device_ranking)
{
  /* the loader's order: CPU, accelerator, GPU, GPU */
  static const cl_device_type types[] = { CL_DEVICE_TYPE_CPU,
    CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_GPU,
    CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT
  };
  GstClDeviceInfo infos[G_N_ELEMENTS (types)] = { {0,}, };
  GPtrArray *list = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (types); i++) {
    infos[i].index = i;
    infos[i].type = types[i];
    g_ptr_array_add (list, &infos[i]);
  }
  fail_unless (gst_cl_device_choose_auto (list) == &infos[2],
      "the first GPU comes first");
  g_ptr_array_remove_range (list, 2, 2);
  fail_unless (gst_cl_device_choose_auto (list) == &infos[1],
      "then an accelerator");
  g_ptr_array_remove_index (list, 1);
  fail_unless (gst_cl_device_choose_auto (list) == &infos[0], "then a CPU");
  g_ptr_array_set_size (list, 0);
  fail_unless (gst_cl_device_choose_auto (list) == NULL);
  g_ptr_array_unref (list);
}

GST_END_TEST;

static GstClProgramOrigin
build_in_new_context (const gchar * options)
{
  GstClContext *ctx = gst_cl_context_new (-1, NULL);
  GstClProgramOrigin origin = -1;
  GError *err = NULL;

  fail_unless (ctx != NULL);
  fail_unless (gst_cl_program_get (ctx, gst_cl_kernel_boxblur,
          options, &origin, &err) != NULL, "%s", err ? err->message : "");
  gst_object_unref (ctx);
  return origin;
}

static gchar *
only_cache_file (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  gchar *path = NULL;
  guint n = 0;

  fail_unless (d != NULL, "no cache folder %s", dir);
  while ((name = g_dir_read_name (d))) {
    n++;
    g_free (path);
    path = g_build_filename (dir, name, NULL);
  }
  g_dir_close (d);
  fail_unless_equals_int (n, 1);
  return path;
}

GST_START_TEST (test_program_cache)
{
  gchar *home = g_dir_make_tmp ("clcache-XXXXXX", NULL);
  gchar *dir = g_build_filename (home, "gstclfilters", NULL);
  gchar *old = g_strdup (g_getenv ("XDG_CACHE_HOME"));
  GstClContext *ctx;
  GstClProgramOrigin origin;
  gchar *file, *other, *other_contents;
  gsize other_len;

  g_setenv ("XDG_CACHE_HOME", home, TRUE);
  /* PoCL's own cache off, which the plugin would otherwise leave the
   * programs to (test_driver_cache) */
  g_setenv ("POCL_KERNEL_CACHE", "0", TRUE);
  /* an entry of another program, kept aside for below */
  fail_unless_equals_int (build_in_new_context ("-DCH=2"),
      GST_CL_PROGRAM_COMPILED);
  other = only_cache_file (dir);
  fail_unless (g_file_get_contents (other, &other_contents, &other_len, NULL));
  fail_unless (g_unlink (other) == 0);

  /* cold: compiled and stored; warm: loaded, nothing compiled */
  fail_unless_equals_int (build_in_new_context ("-DCH=4"),
      GST_CL_PROGRAM_COMPILED);
  fail_unless_equals_int (build_in_new_context ("-DCH=4"),
      GST_CL_PROGRAM_DISK_CACHE);

  /* within one context, built once */
  ctx = gst_cl_context_new (-1, NULL);
  gst_cl_program_get (ctx, gst_cl_kernel_boxblur, "-DCH=4", NULL, NULL);
  gst_cl_program_get (ctx, gst_cl_kernel_boxblur, "-DCH=4", &origin, NULL);
  fail_unless_equals_int (origin, GST_CL_PROGRAM_MEMORY);
  gst_object_unref (ctx);

  /* a damaged entry is rebuilt, not fatal */
  file = only_cache_file (dir);
  fail_unless (g_file_set_contents (file, "GSTCLBN2garbage", -1, NULL));
  fail_unless_equals_int (build_in_new_context ("-DCH=4"),
      GST_CL_PROGRAM_COMPILED);
  fail_unless_equals_int (build_in_new_context ("-DCH=4"),
      GST_CL_PROGRAM_DISK_CACHE);
  /* so is a well-formed entry of another program in its place */
  fail_unless (g_file_set_contents (file, other_contents, other_len, NULL));
  fail_unless_equals_int (build_in_new_context ("-DCH=4"),
      GST_CL_PROGRAM_COMPILED);
  fail_unless_equals_int (build_in_new_context ("-DCH=4"),
      GST_CL_PROGRAM_DISK_CACHE);
  /* other options are another entry */
  fail_unless_equals_int (build_in_new_context ("-DCH=2"),
      GST_CL_PROGRAM_COMPILED);

  if (old)
    g_setenv ("XDG_CACHE_HOME", old, TRUE);
  g_unsetenv ("POCL_KERNEL_CACHE");
  g_free (old);
  g_free (file);
  g_free (other);
  g_free (other_contents);
  g_free (dir);
  g_free (home);
}

GST_END_TEST;

/* the options of the programs built in the background, from the debug
 * log */
static GMutex builds_lock;
static GPtrArray *builds;

static void
record_builds (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);
  gchar **parts;

  if (g_strcmp0 (gst_debug_category_get_name (category), "clprogram") != 0 ||
      !text || !g_str_has_suffix (text, "built in the background"))
    return;
  parts = g_strsplit (text, "\"", 3);
  g_mutex_lock (&builds_lock);
  if (g_strv_length (parts) == 3)
    g_ptr_array_add (builds, g_strdup (parts[1]));
  g_mutex_unlock (&builds_lock);
  g_strfreev (parts);
}

/* @filter after a capsfilter of NV12 64x48 and an appsrc that never
 * pushes, taken to PAUSED (which it never reaches) with a new context:
 * whether the programs built in the background by then are built, and
 * @source's among them (any of its options; @options where not NULL) */
static void
check_built_ahead (const gchar * filter, const gchar * source,
    const gchar * options)
{
  GError *err = NULL;
  GstClContext *ctx = gst_cl_context_new (-1, &err);
  gchar *desc = g_strdup_printf ("appsrc ! video/x-raw,format=NV12,width=64,"
      "height=48,framerate=30/1 ! %s name=f ! fakesink", filter);
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstContext *context;
  GstElement *f;
  GstPad *sink;
  GstCaps *caps;
  gboolean own = FALSE;
  gchar **built;

  fail_unless (ctx != NULL && pipeline != NULL, "%s", err ? err->message : "");
  g_mutex_lock (&builds_lock);
  g_ptr_array_set_size (builds, 0);
  g_mutex_unlock (&builds_lock);
  context = gst_context_new_cl_context (ctx);
  gst_element_set_context (pipeline, context);
  gst_context_unref (context);
  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  gst_cl_program_wait_builds (ctx);
  f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  sink = gst_element_get_static_pad (f, "sink");
  if (!sink)
    sink = gst_element_get_static_pad (f, "sink_0");
  caps = gst_pad_get_current_caps (sink);
  fail_unless (caps == NULL, "%s: caps reached it", filter);

  /* the core's kernels (no options) and the element's own for those
   * caps, built; asked outside the lock, as asking may log */
  g_mutex_lock (&builds_lock);
  built = g_strdupv ((gchar **) builds->pdata);
  g_mutex_unlock (&builds_lock);
  for (guint i = 0; built[i]; i++) {
    if (!*built[i]) {
      fail_unless (gst_cl_program_ready (ctx, gst_cl_kernel_plane, ""));
    } else {
      fail_unless (gst_cl_program_ready (ctx, source, built[i]),
          "%s: \"%s\" built ahead is not built", filter, built[i]);
      own = TRUE;
    }
  }
  /* an element whose program takes no options */
  if (options && !*options)
    own = g_strv_length (built) > 0 && gst_cl_program_ready (ctx, source, "");
  fail_unless (own, "%s: none of its programs was built ahead", filter);
  g_strfreev (built);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (f);
  gst_object_unref (pipeline);
  gst_object_unref (ctx);
  g_free (desc);
}

/* Where upstream already says which caps will come (a capsfilter's
 * here), a filter builds its programs at READY to PAUSED, in the
 * background, before any caps or frame reach it; clcomposite its one
 * program, which takes no caps. */
GST_START_TEST (test_prebuild_ahead_of_caps)
{
  cl_test_register_elements ();
  /* NULL-terminated, for g_strdupv () */
  builds = g_ptr_array_new_null_terminated (4, g_free, TRUE);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (record_builds, NULL, NULL);
  gst_debug_set_threshold_for_name ("clprogram", GST_LEVEL_DEBUG);

  check_built_ahead ("clepsilon diameter=7", gst_cl_kernel_epsilon, NULL);
  check_built_ahead ("clboxblur diameter=5", gst_cl_kernel_boxblur, NULL);
  check_built_ahead ("clsobel", gst_cl_kernel_sobel, NULL);
  check_built_ahead ("clintegral", gst_cl_kernel_integral, "");
  check_built_ahead ("cldenoise", gst_cl_kernel_denoise, NULL);
  /* a mixer's programs that take no caps, whatever comes */
  check_built_ahead ("clcomposite", gst_cl_kernel_composite, "");

  gst_debug_set_threshold_for_name ("clprogram", GST_LEVEL_ERROR);
  gst_debug_remove_log_function (record_builds);
  gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
  g_ptr_array_unref (builds);
}

GST_END_TEST;

/* Where the driver keeps its own builds (PoCL), the programs are left to
 * it: nothing in the plugin's cache, and PoCL's has them. */
GST_START_TEST (test_driver_cache)
{
  gchar *home = g_dir_make_tmp ("clcache-XXXXXX", NULL);
  gchar *ours = g_build_filename (home, "gstclfilters", NULL);
  gchar *pocl = g_build_filename (home, "pocl", NULL);
  gchar *old = g_strdup (g_getenv ("XDG_CACHE_HOME"));
  gchar *old_dir = g_strdup (g_getenv ("POCL_CACHE_DIR"));
  GstClContext *ctx;

  g_setenv ("XDG_CACHE_HOME", home, TRUE);
  g_setenv ("POCL_CACHE_DIR", pocl, TRUE);
  ctx = gst_cl_context_new (-1, NULL);
  fail_unless (ctx != NULL);
  if (!gst_cl_context_get_caps (ctx)->driver_cache) {
    g_print ("test_driver_cache: the device keeps no builds of its own: "
        "nothing to check\n");
  } else {
    fail_unless (gst_cl_program_get (ctx, gst_cl_kernel_boxblur, "-DCH=1",
            NULL, NULL) != NULL);
    /* a new context builds it again, from PoCL's cache */
    fail_unless_equals_int (build_in_new_context ("-DCH=1"),
        GST_CL_PROGRAM_COMPILED);
    fail_if (g_file_test (ours, G_FILE_TEST_EXISTS), "%s was written", ours);
    /* PoCL reads where its cache is once a process: a test in a process
     * of its own (CK_FORK, the default) sees it move */
    if (g_strcmp0 (g_getenv ("CK_FORK"), "no") != 0)
      fail_unless (g_file_test (pocl, G_FILE_TEST_IS_DIR), "PoCL kept "
          "nothing in %s", pocl);
  }
  gst_object_unref (ctx);
  if (old)
    g_setenv ("XDG_CACHE_HOME", old, TRUE);
  if (old_dir)
    g_setenv ("POCL_CACHE_DIR", old_dir, TRUE);
  else
    g_unsetenv ("POCL_CACHE_DIR");
  g_free (old_dir);
  g_free (old);
  g_free (pocl);
  g_free (ours);
  g_free (home);
}

GST_END_TEST;

GST_START_TEST (test_build_error)
{
  GstClContext *ctx = gst_cl_context_new (-1, NULL);
  GError *err = NULL;

  fail_unless (gst_cl_program_get (ctx, "__kernel void k () { oops; }",
          "", NULL, &err) == NULL);
  fail_unless (err && strstr (err->message, "CL_BUILD_PROGRAM_FAILURE"),
      "%s", err ? err->message : "no error");
  g_clear_error (&err);
  gst_object_unref (ctx);
}

GST_END_TEST;

/* a kernel that takes a while to build, by its options */
static const gchar slow_source[] =
    "__kernel void k (__global int *p) { p[0] = N; }";

GST_START_TEST (test_background_build)
{
  GstClContext *ctx = gst_cl_context_new (-1, NULL);
  gint64 deadline = g_get_monotonic_time () + 300 * G_TIME_SPAN_SECOND;
  GError *err = NULL;
  cl_program program;
  gchar options[32];

  /* not built for this context yet (perhaps on disk): the first ask starts
   * the build and says no */
  g_snprintf (options, sizeof (options), "-DN=%d", 1);
  fail_if (gst_cl_program_ready (ctx, slow_source, options));
  /* who needs it now waits for that build rather than starting another:
   * it gets what the background built */
  program = gst_cl_program_get (ctx, slow_source, options, NULL, &err);
  fail_unless (program != NULL, "%s", err ? err->message : "");
  fail_unless (gst_cl_program_ready (ctx, slow_source, options));
  fail_unless (gst_cl_program_get (ctx, slow_source, options, NULL,
          NULL) == program);

  /* polled, as an element does frame after frame */
  g_snprintf (options, sizeof (options), "-DN=%d", 2);
  while (!gst_cl_program_ready (ctx, slow_source, options) &&
      g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);
  fail_unless (gst_cl_program_ready (ctx, slow_source, options));

  /* a failed build is not tried again, and stays not ready */
  fail_if (gst_cl_program_ready (ctx, "__kernel void k () { oops; }", ""));
  gst_cl_program_wait_builds (ctx);
  fail_unless (gst_cl_program_failed (ctx, "__kernel void k () { oops; }", ""));
  fail_if (gst_cl_program_ready (ctx, "__kernel void k () { oops; }", ""));
  /* no build started again: nothing to wait for */
  gst_cl_program_wait_builds (ctx);
  fail_unless (gst_cl_program_failed (ctx, "__kernel void k () { oops; }", ""));

  /* freed with builds under way and queued: it waits for the one running */
  for (guint i = 3; i < 6; i++) {
    g_snprintf (options, sizeof (options), "-DN=%u", i);
    fail_if (gst_cl_program_ready (ctx, slow_source, options));
  }
  gst_object_unref (ctx);
}

GST_END_TEST;

/* A frame pass before the element was started (READY, not on its way
 * to PAUSED, where its queue is made) is an error told to the caller, not
 * an assertion; the benchmark once passed clcomposite's frames so. */
static gboolean
run_nothing (gpointer data, const GstClFrame * const *inputs,
    const GstClFrame * output, GError ** error)
{
  *(gboolean *) data = TRUE;
  return TRUE;
}

GST_START_TEST (test_frame_pass_before_start)
{
  GstElement *element;
  GstClCore *core;
  GstVideoInfo info;
  GstBuffer *out;
  GError *err = NULL;
  gboolean ran = FALSE;

  cl_test_register_elements ();
  element = gst_element_factory_make ("clcomposite", NULL);
  fail_unless (element != NULL);
  fail_unless_equals_int (gst_element_set_state (element, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  core = gst_cl_aggregator_get_core (GST_CL_AGGREGATOR (element));
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 16, 8);
  out = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_if (gst_cl_core_process (core, out, &info, 0, NULL, NULL, 0,
          run_nothing, &ran, &err));
  fail_unless (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_STATE_CHANGE), "%s", err ? err->message : "no error");
  fail_if (ran);
  g_clear_error (&err);
  /* started, the same pass runs */
  fail_unless (gst_cl_core_start (core));
  fail_unless (gst_cl_core_process (core, out, &info, 0, NULL, NULL, 0,
          run_nothing, &ran, &err), "%s", err ? err->message : "");
  fail_unless (ran);
  gst_buffer_unref (out);
  gst_element_set_state (element, GST_STATE_NULL);
  gst_object_unref (element);
}

GST_END_TEST;

GST_START_TEST (test_wrapped_context)
{
  const GstClDeviceInfo *info = gst_cl_device_choose (-1, NULL);
  cl_context app = clCreateContext (NULL, 1, &info->device, NULL, NULL, NULL);
  GstClContext *a = gst_cl_context_new_wrapped (app, info->device, NULL);
  GstClContext *b = gst_cl_context_new_wrapped (app, info->device, NULL);
  cl_uint refs = 0;

  fail_unless (a != NULL && a == b, "one wrapper per application context");
  fail_unless (gst_cl_context_get_handle (a) == app);
  gst_object_unref (a);
  gst_object_unref (b);
  /* the application's reference is still there */
  fail_unless_equals_int (clGetContextInfo (app, CL_CONTEXT_REFERENCE_COUNT,
          sizeof (refs), &refs, NULL), CL_SUCCESS);
  fail_unless_equals_int (refs, 1);
  clReleaseContext (app);
}

GST_END_TEST;

/* Elements on two devices in one pipeline: the bin keeps one context of a
 * type, so the one an element makes for its device carries the other
 * devices' too, and each element finds its device's there. One device
 * stands for two here: the first context is labelled device 1. */
GST_START_TEST (test_contexts_of_two_devices)
{
  GstClContext *other = gst_cl_context_new (-1, NULL), *mine = NULL, *found;
  GstElement *first = gst_element_factory_make ("fakesink", NULL);
  GstElement *second = gst_element_factory_make ("fakesink", NULL);
  GstContext *shared, *merged;
  gint index;

  fail_unless (other != NULL && first != NULL && second != NULL);
  index = gst_cl_context_get_device_index (other);
  gst_cl_context_set_device_index (other, index + 1);
  shared = gst_context_new_cl_context (other);
  gst_element_set_context (first, shared);

  /* the shared context is of another device: a new one, shared with it */
  fail_unless (gst_cl_ensure_element_context (first, index, &mine));
  fail_unless (mine != NULL && mine != other);
  fail_unless_equals_int (gst_cl_context_get_device_index (mine), index);
  merged = gst_element_get_context (first, GST_CL_CONTEXT_TYPE);
  fail_unless (merged != NULL && merged != shared);

  /* from it, each device's element takes its own */
  for (gint d = 0; d < 2; d++) {
    found = NULL;
    fail_unless (gst_cl_handle_set_context (second, merged, index + d, &found));
    fail_unless (found == (d ? other : mine), "device %d got the wrong "
        "context", index + d);
    gst_object_unref (found);
  }
  found = NULL;
  fail_if (gst_cl_handle_set_context (second, merged, index + 2, &found),
      "a context for a device that has none");

  gst_context_unref (merged);
  gst_context_unref (shared);
  gst_object_unref (mine);
  gst_object_unref (other);
  gst_object_unref (first);
  gst_object_unref (second);
}

GST_END_TEST;

/* Waits that sleep in an event callback (GST_CL_WAIT=sleep) or between
 * looks at the status (GST_CL_WAIT=poll) return once the command is done,
 * and at once for one done already. */
GST_START_TEST (test_sleeping_wait)
{
  static const struct
  {
    const gchar *env;
    GstClWait wait;
  } modes[] = { {"sleep", GST_CL_WAIT_CALLBACK}, {"poll", GST_CL_WAIT_POLL},
  {"block", GST_CL_WAIT_BLOCK}, {NULL, GST_CL_WAIT_AUTO}
  };

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++) {
    GstClContext *ctx;
    GstClQueue *own;
    cl_command_queue queue;
    cl_mem mem;
    cl_event done;
    cl_int state = CL_QUEUED;
    guint8 zero = 0;

    if (modes[m].env)
      g_setenv ("GST_CL_WAIT", modes[m].env, TRUE);
    ctx = gst_cl_context_new (-1, NULL);
    g_unsetenv ("GST_CL_WAIT");
    fail_unless (ctx != NULL
        && gst_cl_context_get_caps (ctx)->wait == modes[m].wait);
    own = gst_cl_queue_new (ctx, NULL);
    fail_unless (gst_cl_queue_follow_thread (own, NULL));
    queue = own->handle;
    mem = clCreateBuffer (gst_cl_context_get_handle (ctx), CL_MEM_READ_WRITE,
        64 << 20, NULL, NULL);
    fail_unless (queue != NULL && mem != NULL);
    fail_unless_equals_int (clEnqueueFillBuffer (queue, mem, &zero, 1, 0,
            64 << 20, 0, NULL, NULL), CL_SUCCESS);
    done = gst_cl_queue_mark (own, NULL);
    fail_unless (done != NULL);
    fail_unless_equals_int (clFlush (queue), CL_SUCCESS);
    fail_unless (gst_cl_event_wait (ctx, done, NULL));
    fail_unless_equals_int (clGetEventInfo (done,
            CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (state), &state, NULL),
        CL_SUCCESS);
    fail_unless_equals_int (state, CL_COMPLETE);
    fail_unless (gst_cl_event_wait (ctx, done, NULL));
    fail_unless (gst_cl_queue_wait (own, NULL, NULL));
    clReleaseEvent (done);
    clReleaseMemObject (mem);
    gst_cl_queue_free (own);
    gst_object_unref (ctx);
  }
}

GST_END_TEST;

static gpointer
wait_on_own_queue (gpointer data)
{
  GstClContext *ctx = data;
  GstClQueue *own = gst_cl_queue_new (ctx, NULL);
  cl_command_queue queue = gst_cl_queue_follow_thread (own, NULL) ?
      own->handle : NULL;
  cl_mem mem = clCreateBuffer (gst_cl_context_get_handle (ctx),
      CL_MEM_READ_WRITE, 16 << 20, NULL, NULL);
  guint8 value = 7, back = 0;
  cl_event done = NULL;
  gboolean ok;

  ok = queue && mem && clEnqueueFillBuffer (queue, mem, &value, 1, 0,
      16 << 20, 0, NULL, NULL) == CL_SUCCESS &&
      clEnqueueReadBuffer (queue, mem, CL_FALSE, (16 << 20) - 1, 1, &back, 0,
      NULL, &done) == CL_SUCCESS && gst_cl_queue_wait (own, done, NULL) &&
      back == value;
  if (done)
    clReleaseEvent (done);
  if (mem)
    clReleaseMemObject (mem);
  gst_cl_queue_free (own);
  return GINT_TO_POINTER (ok);
}

/* Threads waiting at once, in the default way: the first in
 * clWaitForEvents, the others napping; every wait ends once its command is
 * done, with the queue flushed where the wait does not flush it. */
GST_START_TEST (test_concurrent_waits)
{
  GstClContext *ctx = gst_cl_context_new (-1, NULL);
  GThread *threads[6];

  fail_unless (ctx != NULL
      && gst_cl_context_get_caps (ctx)->wait == GST_CL_WAIT_AUTO);
  for (guint round = 0; round < 4; round++) {
    for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
      threads[i] = g_thread_new ("waiter", wait_on_own_queue, ctx);
    for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
      fail_unless (g_thread_join (threads[i]));
  }
  fail_unless_equals_int (gst_cl_event_get_waiting (ctx), 0);
  gst_object_unref (ctx);
}

GST_END_TEST;

typedef struct
{
  GstClContext *ctx;
  gint inside;
  gint most;
} GateRun;

static gpointer
pass_gate (gpointer data)
{
  GateRun *run = data;

  for (guint i = 0; i < 20; i++) {
    gint now;

    gst_cl_gate_enter (gst_cl_gate_get (run->ctx));
    now = g_atomic_int_add (&run->inside, 1) + 1;
    for (gint most = g_atomic_int_get (&run->most); now > most &&
        !g_atomic_int_compare_and_exchange (&run->most, most, now);
        most = g_atomic_int_get (&run->most));
    g_usleep (1000);
    g_atomic_int_add (&run->inside, -1);
    gst_cl_gate_leave (gst_cl_gate_get (run->ctx));
  }
  return NULL;
}

static gint
gate_most_inside (GstClContext * ctx)
{
  GateRun run = { ctx, 0, 0 };
  GThread *threads[8];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("frame", pass_gate, &run);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  return run.most;
}

static gpointer
enter_and_leave (gpointer data)
{
  gst_cl_gate_enter (gst_cl_gate_get (data));
  gst_cl_gate_leave (gst_cl_gate_get (data));
  return GINT_TO_POINTER (TRUE);
}

/* holds a place until told to leave */
typedef struct
{
  GstClContext *ctx;
  GMutex lock;
  GCond cond;
  gint in;
  gboolean go;
} Holders;

static gpointer
hold_place (gpointer data)
{
  Holders *h = data;

  gst_cl_gate_enter (gst_cl_gate_get (h->ctx));
  g_mutex_lock (&h->lock);
  h->in++;
  g_cond_broadcast (&h->cond);
  while (!h->go)
    g_cond_wait (&h->cond, &h->lock);
  g_mutex_unlock (&h->lock);
  gst_cl_gate_leave (gst_cl_gate_get (h->ctx));
  return NULL;
}

/* Holds @n places of @h->ctx's gate until told to go; returns the threads */
static GThread **
hold_places (Holders * h, guint n)
{
  GThread **threads = g_new0 (GThread *, n);

  for (guint i = 0; i < n; i++)
    threads[i] = g_thread_new ("holder", hold_place, h);
  g_mutex_lock (&h->lock);
  while (h->in < (gint) n)
    g_cond_wait (&h->cond, &h->lock);
  g_mutex_unlock (&h->lock);
  return threads;
}

static void
release_places (Holders * h, GThread ** threads, guint n)
{
  g_mutex_lock (&h->lock);
  h->go = TRUE;
  g_cond_broadcast (&h->cond);
  g_mutex_unlock (&h->lock);
  for (guint i = 0; i < n; i++)
    g_thread_join (threads[i]);
  g_free (threads);
}

/* At most GST_CL_DEVICE_THREADS threads at once in a device's driver,
 * contexts of the same device counted together; a thread in goes in again
 * at once; a thread kept out for a second goes in anyway, and the count is
 * right after it; a thread that steps out while it naps lets another in. */
GST_START_TEST (test_device_threads)
{
  GstClContext *ctx, *other;
  GThread *late;

  /* read as the device's gate is made, when a context first passes it */
  g_setenv ("GST_CL_DEVICE_THREADS", "3", TRUE);
  ctx = gst_cl_context_new (-1, NULL);
  other = gst_cl_context_new (gst_cl_context_get_device_index (ctx), NULL);
  fail_unless (ctx != NULL && other != NULL);
  fail_unless_equals_int (gst_cl_gate_get_limit (ctx), 3);
  g_unsetenv ("GST_CL_DEVICE_THREADS");
  fail_unless_equals_int (gst_cl_gate_get_limit (other), 3);
  fail_unless_equals_int (gate_most_inside (ctx), 3);

  /* all three places taken through the other context, by three threads
   * that stay in until the late one, kept out a second, went in anyway */
  {
    Holders h = { 0, };
    GThread **holders;

    h.ctx = other;
    g_mutex_init (&h.lock);
    g_cond_init (&h.cond);
    holders = hold_places (&h, 3);
    late = g_thread_new ("late", enter_and_leave, ctx);
    fail_unless (g_thread_join (late));
    g_mutex_lock (&h.lock);
    fail_unless_equals_int (h.in, 3);
    g_mutex_unlock (&h.lock);
    release_places (&h, holders, 3);
    g_mutex_clear (&h.lock);
    g_cond_clear (&h.cond);
  }
  /* the place the late thread went in without is not given back twice */
  fail_unless_equals_int (gate_most_inside (ctx), 3);

  /* a thread in goes in again without taking another place */
  gst_cl_gate_enter (gst_cl_gate_get (ctx));
  gst_cl_gate_enter (gst_cl_gate_get (other));
  fail_unless_equals_int (gate_most_inside (ctx), 2);
  gst_cl_gate_leave (gst_cl_gate_get (other));
  fail_unless_equals_int (gate_most_inside (ctx), 2);
  gst_cl_gate_leave (gst_cl_gate_get (ctx));
  fail_unless_equals_int (gate_most_inside (ctx), 3);

  /* a thread in, twice, that steps out while it naps leaves its place to
   * the others, takes one again as it steps in, and keeps its depth */
  gst_cl_gate_enter (gst_cl_gate_get (ctx));
  gst_cl_gate_enter (gst_cl_gate_get (ctx));
  fail_unless_equals_int (gate_most_inside (ctx), 2);
  gst_cl_gate_step_out ();
  fail_unless_equals_int (gate_most_inside (ctx), 3);
  gst_cl_gate_step_in ();
  fail_unless_equals_int (gate_most_inside (ctx), 2);
  gst_cl_gate_leave (gst_cl_gate_get (ctx));
  fail_unless_equals_int (gate_most_inside (ctx), 2);
  gst_cl_gate_leave (gst_cl_gate_get (ctx));
  fail_unless_equals_int (gate_most_inside (ctx), 3);
  /* and one that is in no gate steps nowhere */
  gst_cl_gate_step_out ();
  gst_cl_gate_step_in ();
  fail_unless_equals_int (gate_most_inside (ctx), 3);
  gst_object_unref (other);
  gst_object_unref (ctx);

  /* not a number from 0 to 1024: the default */
  g_setenv ("GST_CL_DEVICE_THREADS", "-1", TRUE);
  ctx = gst_cl_context_new (-1, NULL);
  fail_unless (ctx != NULL);
  fail_unless_equals_int (gst_cl_gate_get_limit (ctx),
      MAX (2, g_get_num_processors () / 2));
  g_unsetenv ("GST_CL_DEVICE_THREADS");
  gst_object_unref (ctx);

  /* no limit */
  g_setenv ("GST_CL_DEVICE_THREADS", "0", TRUE);
  ctx = gst_cl_context_new (-1, NULL);
  fail_unless (ctx != NULL);
  fail_unless_equals_int (gst_cl_gate_get_limit (ctx), 0);
  g_unsetenv ("GST_CL_DEVICE_THREADS");
  fail_unless (gate_most_inside (ctx) > 3);
  gst_object_unref (ctx);
}

GST_END_TEST;

/* The default limit, half the cores, is shared by the devices a process
 * uses at once (two sub-devices stand for two GPUs here); a device left
 * alone takes it whole again, letting in the threads that waited for the
 * places it gained. A limit from GST_CL_DEVICE_THREADS takes no share. */
GST_START_TEST (test_device_threads_shared)
{
  const cl_device_partition_property equally[] = {
    CL_DEVICE_PARTITION_EQUALLY, 1, 0
  };
  gint alone = MAX (2, (gint) g_get_num_processors () / 2);
  gint shared = MAX (2, (gint) g_get_num_processors () / 2 / 2);
  GstClContext *ctx = gst_cl_context_new (-1, NULL), *second;
  cl_device_id sub[2];
  cl_context app;
  cl_uint n = 0;

  fail_unless (ctx != NULL);
  fail_unless_equals_int (gst_cl_gate_get_limit (ctx), alone);
  if (clCreateSubDevices (gst_cl_context_get_device (ctx), equally, 2, sub,
          &n) != CL_SUCCESS) {
    GST_WARNING ("%s has no sub-devices: the limit of two devices is not "
        "checked", gst_cl_context_get_device_name (ctx));
    gst_object_unref (ctx);
    return;
  }
  app = clCreateContext (NULL, 1, &sub[0], NULL, NULL, NULL);
  fail_unless (app != NULL);
  second = gst_cl_context_new_wrapped (app, sub[0], NULL);
  fail_unless (second != NULL);
  /* the second device's gate, made as its context first passes it, takes
   * its share */
  fail_unless_equals_int (gst_cl_gate_get_limit (second), shared);
  fail_unless_equals_int (gst_cl_gate_get_limit (ctx), shared);
  fail_unless_equals_int (gate_most_inside (ctx), MIN (shared, 8));

  /* the shared places all taken, one more thread waits; once the second
   * device is gone, it goes in on a place gained, not after the second
   * a thread kept out waits before it goes in past the limit */
  {
    Holders h = { 0, };
    GThread **holders, *late;
    gint64 start;

    h.ctx = ctx;
    g_mutex_init (&h.lock);
    g_cond_init (&h.cond);
    holders = hold_places (&h, shared);
    late = g_thread_new ("late", enter_and_leave, ctx);
    g_usleep (50 * 1000);
    start = g_get_monotonic_time ();
    gst_object_unref (second);
    fail_unless (g_thread_join (late));
    if (alone > shared)
      fail_unless (g_get_monotonic_time () - start < G_USEC_PER_SEC / 2,
          "the waiting thread was not let in when the places grew");
    fail_unless_equals_int (gst_cl_gate_get_limit (ctx), alone);
    release_places (&h, holders, shared);
    g_mutex_clear (&h.lock);
    g_cond_clear (&h.cond);
  }
  fail_unless_equals_int (gate_most_inside (ctx), MIN (alone, 8));

  /* a device's own limit takes no share of the default */
  g_setenv ("GST_CL_DEVICE_THREADS", "3", TRUE);
  second = gst_cl_context_new_wrapped (app, sub[0], NULL);
  fail_unless (second != NULL);
  fail_unless_equals_int (gst_cl_gate_get_limit (second), 3);
  g_unsetenv ("GST_CL_DEVICE_THREADS");
  fail_unless_equals_int (gst_cl_gate_get_limit (ctx), alone);
  gst_object_unref (second);

  clReleaseContext (app);
  for (guint i = 0; i < n; i++)
    clReleaseDevice (sub[i]);
  gst_object_unref (ctx);
}

GST_END_TEST;

GST_START_TEST (test_box_blur_divisor)
{
  /* floor (x / n) for every x up to the largest sum + n/2: checked where the
   * quotient changes, which is enough since both sides are monotonic */
  for (guint d = 3; d <= 255; d += 2) {
    guint n = d * d, magic, shift;

    gst_cl_box_blur_divisor (n, &magic, &shift);
    for (guint k = 0; k <= 256; k++) {
      guint64 xs[] = { (guint64) k * n, (guint64) k * n + n - 1 };

      for (guint i = 0; i < 2; i++) {
        guint64 x = xs[i];

        if (x >= (1u << 24))
          continue;
        fail_unless_equals_uint64 (((x * magic) >> 32) >> shift, x / n);
      }
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_box_blur_reciprocal)
{
  /* boxblur_band's floor ((x + 1/2) * (1/n)) in single precision, for every
   * x = S + n/2 it meets, with the reciprocal anywhere within the 2.5 ulp
   * that OpenCL allows a division (3 ulp each side here) */
  for (guint d = 3; d <= GST_CL_BOX_BLUR_BAND_FLOAT_MAX_DIAMETER; d += 2) {
    guint n = d * d;

    for (gint ulp = -3; ulp <= 3; ulp++) {
      gfloat inv = 1.0f / n;

      for (gint u = 0; u < ABS (ulp); u++)
        inv = nextafterf (inv, ulp < 0 ? 0.0f : 1.0f);
      for (guint x = 0; x <= 255 * n + n / 2; x++) {
        guint q = (guint) (((gfloat) x + 0.5f) * inv);

        if (q != x / n)
          fail ("d=%u x=%u ulp %d: %u, not %u", d, x, ulp, q, x / n);
      }
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_box_blur_corrected_quotient)
{
  /* beyond d = 31 boxblur_band truncates x * (1/n) in single precision and
   * corrects it by the remainder: exact for every x < 2^24, checked where
   * a quotient is nearest to going wrong, around each multiple of n and
   * each half, with the reciprocal anywhere within 3 ulp */
  static const guint ds[] = { 33, 63, 101, 201, 255 };

  for (guint i = 0; i < G_N_ELEMENTS (ds); i++) {
    guint n = ds[i] * ds[i];

    for (gint ulp = -3; ulp <= 3; ulp++) {
      gfloat inv = 1.0f / n;

      for (gint u = 0; u < ABS (ulp); u++)
        inv = nextafterf (inv, ulp < 0 ? 0.0f : 1.0f);
      for (guint q = 0; q <= 256; q++) {
        for (gint k = -4; k <= 4; k++) {
          guint bases[2] = { q * n, q * n + n / 2 };

          for (guint b = 0; b < 2; b++) {
            gint64 x = (gint64) bases[b] + k;
            gint est, r;

            if (x < 0 || x > 255 * (gint64) n + n / 2)
              continue;
            est = (gint) ((gfloat) x * inv);
            r = (gint) x - est * (gint) n;
            est += (r < 0 ? -1 : 0) + (r >= (gint) n ? 1 : 0);
            if (est != (gint) (x / n))
              fail ("d=%u x=%" G_GINT64_FORMAT " ulp %d: %d, not %d", ds[i],
                  x, ulp, est, (gint) (x / n));
          }
        }
      }
    }
  }
}

GST_END_TEST;

static Suite *
core_suite (void)
{
  Suite *s = suite_create ("clcore");
  TCase *tc = tcase_create ("general");

  initial_connections = g_strdup (g_getenv ("CUDA_DEVICE_MAX_CONNECTIONS"));
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_device_list);
  tcase_add_test (tc, test_memory_preference);
  tcase_add_test (tc, test_memory_pass_as);
  tcase_add_test (tc, test_cuda_unavailable_says_why);
  tcase_add_test (tc, test_cuda_connections);
  tcase_add_test (tc, test_device_choice);
  tcase_add_test (tc, test_device_names);
  tcase_add_test (tc, test_device_names_in_docs);
  tcase_add_test (tc, test_device_ranking);
  tcase_add_test (tc, test_program_cache);
  tcase_add_test (tc, test_driver_cache);
  tcase_add_test (tc, test_prebuild_ahead_of_caps);
  tcase_add_test (tc, test_build_error);
  tcase_add_test (tc, test_background_build);
  tcase_add_test (tc, test_frame_pass_before_start);
  tcase_add_test (tc, test_wrapped_context);
  tcase_add_test (tc, test_contexts_of_two_devices);
  tcase_add_test (tc, test_sleeping_wait);
  tcase_add_test (tc, test_concurrent_waits);
  tcase_add_test (tc, test_device_threads);
  tcase_add_test (tc, test_device_threads_shared);
  tcase_add_test (tc, test_box_blur_divisor);
  tcase_add_test (tc, test_box_blur_reciprocal);
  tcase_add_test (tc, test_box_blur_corrected_quotient);
  return s;
}

GST_CHECK_MAIN (core);
