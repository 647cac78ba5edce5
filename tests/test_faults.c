/* gstclfilters tests: an OpenCL call failing anywhere, in every element
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Runs with tests/clfault.c preloaded. For each pipeline, a clean run
 * numbers the OpenCL calls; then call N fails, for chosen N: the pipeline
 * must end in an ERROR message naming the call and the OpenCL error, or,
 * where the call is one the code may do without, at EOS with the clean
 * run's frames; nothing may hang, and once at NULL and gone, no OpenCL
 * object and no GStreamer object of the run may be left. A clean run in
 * the same process then gives the same frames again.
 *
 * By default call N fails for the first call from each call site and the
 * last call of each entry point; CL_FAULT_ALL=1 fails every N,
 * CL_FAULT_CALLS=N,M,... those only, and CL_FAULT_PIPELINE=NAME runs only
 * the pipeline NAME.
 */
#include <dlfcn.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cltest.h"
#include "clcases.h"
#include "clfault.h"

/* longer than any run of a few small frames takes, compiling included */
#define RUN_TIMEOUT (60 * GST_SECOND)

typedef struct
{
  gchar *name;
  gchar *desc;
  /* the copy path of discrete GPUs (GST_CL_NO_ZERO_COPY=1) */
  gboolean copy;
} FaultPipeline;

#define SRC(fmt, w, h) "videotestsrc num-buffers=3 ! video/x-raw,format=" \
  fmt ",width=" #w ",height=" #h " ! "
#define SINK " ! video/x-raw ! appsink name=sink sync=false"
#define CHAIN SRC ("NV12", 64, 48) "clboxblur ! video/x-raw(memory:OpenCL) ! " \
  "clsobel ! video/x-raw(memory:OpenCL) ! clepsilon threshold=60" SINK

/* each element of the list, zero-copy and on the copy path, then the chain
 * both ways; made in the first test that needs them (the elements'
 * settings, from clcases.c, are looked up where a test can fail) */
static GPtrArray *pipelines;

static guint
n_pipelines (void)
{
  return 2 * g_strv_length ((gchar **) cl_test_element_names ()) + 2;
}

/* A pipeline of the element @name, with its settings and format from its
 * entry: frames of 64x48 into its first input, and, into any other, of
 * 24x20 (an overlay, which the settings may move about). */
static gchar *
element_desc (const gchar * name)
{
  ClTestElement e = cl_test_element (name);
  const gchar *format = gst_video_format_to_string (e.fault_format);
  const gchar *pads[CL_TEST_MAX_INPUTS];
  guint n = cl_test_element_inputs (name, pads);
  GString *desc = g_string_new (NULL);

  g_string_append_printf (desc, SRC ("%s", 64, 48), format);
  if (n == 1) {
    g_string_append_printf (desc, "%s %s" SINK, name, e.fault_settings);
    return g_string_free (desc, FALSE);
  }
  g_string_append_printf (desc, "c.%s ", pads[0]);
  for (guint i = 1; i < n; i++)
    g_string_append_printf (desc, "videotestsrc num-buffers=3 pattern=ball ! "
        "video/x-raw,format=%s,width=24,height=20 ! c.%s ", format, pads[i]);
  g_string_append_printf (desc, "%s name=c %s" SINK, name, e.fault_settings);
  return g_string_free (desc, FALSE);
}

static void
add_pipeline (const gchar * name, gchar * desc, gboolean copy)
{
  FaultPipeline *p = g_new0 (FaultPipeline, 1);

  p->name = copy ? g_strdup_printf ("%s-copy", name) : g_strdup (name);
  p->desc = desc;
  p->copy = copy;
  g_ptr_array_add (pipelines, p);
}

static void
pipelines_make (void)
{
  if (pipelines)
    return;
  pipelines = g_ptr_array_new ();
  for (const gchar * const *name = cl_test_element_names (); *name; name++)
    for (guint copy = 0; copy < 2; copy++)
      add_pipeline (*name, element_desc (*name), copy);
  add_pipeline ("chain", g_strdup (CHAIN), FALSE);
  add_pipeline ("chain", g_strdup (CHAIN), TRUE);
}

static const FaultPipeline *
pipeline_named (const gchar * name)
{
  pipelines_make ();
  for (guint i = 0; i < pipelines->len; i++) {
    const FaultPipeline *p = g_ptr_array_index (pipelines, i);

    if (g_str_equal (p->name, name))
      return p;
  }
  fail ("no pipeline %s", name);
  return NULL;
}

/* the control of the preloaded library */
static struct
{
  void (*reset) (unsigned long n);
  unsigned long (*calls) (void);
  int (*failed) (char *call, size_t size);
  const char *(*call) (unsigned long n, const void **site);
  long (*live) (ClFaultKind kind);
  void (*fail_names) (const char *names);
  void (*hold_writes) (size_t min_bytes, unsigned ms);
} fault;

static void
fault_bind (void)
{
  fault.reset = dlsym (RTLD_DEFAULT, "clfault_reset");
  fault.calls = dlsym (RTLD_DEFAULT, "clfault_calls");
  fault.failed = dlsym (RTLD_DEFAULT, "clfault_failed");
  fault.call = dlsym (RTLD_DEFAULT, "clfault_call");
  fault.live = dlsym (RTLD_DEFAULT, "clfault_live");
  fault.fail_names = dlsym (RTLD_DEFAULT, "clfault_fail_names");
  fault.hold_writes = dlsym (RTLD_DEFAULT, "clfault_hold_writes");
  fail_unless (fault.reset && fault.calls && fault.failed && fault.call &&
      fault.live && fault.fail_names && fault.hold_writes,
      "run with the fault library in LD_PRELOAD");
}

/* the names of the errors the library gives */
static const gchar *
status_name (gint status)
{
  switch (status) {
    case -4:
      return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case -5:
      return "CL_OUT_OF_RESOURCES";
    case -6:
      return "CL_OUT_OF_HOST_MEMORY";
    case -7:
      return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case -11:
      return "CL_BUILD_PROGRAM_FAILURE";
    case -12:
      return "CL_MAP_FAILURE";
    case -14:
      return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    case -42:
      return "CL_INVALID_BINARY";
    default:
      return "?";
  }
}

/* runs whose objects were released only after they were gone */
static guint late_releases;

/* OpenCL objects alive, all kinds */
static long
live_cl_objects (gchar ** which)
{
  static const gchar *names[] = { "context", "queue", "mem", "program",
    "kernel", "event"
  };
  GString *s = g_string_new (NULL);
  long total = 0;

  for (guint k = 0; k < CLFAULT_N_KINDS; k++) {
    long n = fault.live (k);

    total += n;
    if (n)
      g_string_append_printf (s, " %s %ld", names[k], n);
  }
  *which = g_string_free (s, FALSE);
  return total;
}

/* Whether every OpenCL object is released, once the streaming threads,
 * which drop their last references after the state change to NULL
 * returns, are done. */
static gboolean
cl_objects_released (gchar ** which)
{
  for (guint i = 0; i < 100; i++) {
    if (live_cl_objects (which) == 0)
      return TRUE;
    if (i == 0)
      late_releases++;
    g_free (*which);
    g_usleep (20 * 1000);
  }
  return live_cl_objects (which) == 0;
}

/* Output: a digest of every frame's pixels, and of clintegral's tables */

static void
digest_rows (GChecksum * sum, const guint8 * data, gint stride, gsize row,
    gint rows)
{
  for (gint y = 0; y < rows; y++)
    g_checksum_update (sum, data + (gsize) y * stride, row);
}

static void
digest_table (GChecksum * sum, const GstStructure * s, const gchar * field,
    const gchar * stride_field, gsize cell)
{
  GstBuffer *table = NULL;
  gint width = 0, height = 0, stride = 0;
  GstMapInfo map;

  if (!gst_structure_get (s, field, GST_TYPE_BUFFER, &table, stride_field,
          G_TYPE_INT, &stride, "width", G_TYPE_INT, &width, "height",
          G_TYPE_INT, &height, NULL))
    return;
  fail_unless (gst_buffer_map (table, &map, GST_MAP_READ));
  digest_rows (sum, map.data, stride, width * cell, height);
  gst_buffer_unmap (table, &map);
  gst_buffer_unref (table);
}

static GstFlowReturn
on_sample (GstAppSink * sink, gpointer user_data)
{
  GChecksum *sum = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf = gst_sample_get_buffer (sample);
  GstCustomMeta *meta;
  GstVideoFrame frame;
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)));
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++)
    digest_rows (sum, GST_VIDEO_FRAME_PLANE_DATA (&frame, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p),
        GST_VIDEO_FRAME_COMP_WIDTH (&frame, p) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, p),
        GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p));
  gst_video_frame_unmap (&frame);
  meta = gst_buffer_get_custom_meta (buf, "GstClIntegralMeta");
  if (meta) {
    digest_table (sum, gst_custom_meta_get_structure (meta), "sum", "stride",
        4);
    digest_table (sum, gst_custom_meta_get_structure (meta), "sqsum",
        "sqsum-stride", 8);
  }
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

typedef enum
{
  RUN_EOS,
  RUN_ERROR,
  RUN_HANG,
} RunEnd;

typedef struct
{
  RunEnd end;
  gchar *digest;                /* of the frames, at EOS */
  gchar *error;                 /* the message and its details, at ERROR */
} Run;

static void
run_clear (Run * run)
{
  g_free (run->digest);
  g_free (run->error);
}

static void
run_pipeline (const FaultPipeline * p, Run * run)
{
  GstAppSinkCallbacks callbacks = { 0, };
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  GstElement *pipeline, *sink;
  GstMessage *msg;
  GstBus *bus;
  GError *err = NULL;
  gchar *debug = NULL;

  callbacks.new_sample = on_sample;
  if (p->copy)
    g_setenv ("GST_CL_NO_ZERO_COPY", "1", TRUE);
  pipeline = gst_parse_launch (p->desc, &err);
  fail_unless (pipeline != NULL, "%s", err ? err->message : p->desc);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  /* each frame digested as it arrives: nothing is kept past the run */
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &callbacks, sum, NULL);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, RUN_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  memset (run, 0, sizeof (*run));
  if (!msg) {
    run->end = RUN_HANG;
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, &debug);
    run->end = RUN_ERROR;
    run->error = g_strdup_printf ("%s (%s)", err->message, debug);
    g_clear_error (&err);
    g_free (debug);
  } else {
    run->end = RUN_EOS;
    run->digest = g_strdup (g_checksum_get_string (sum));
  }
  if (msg)
    gst_message_unref (msg);
  /* a hang stays one: NULL waits for the streaming threads */
  if (run->end != RUN_HANG)
    fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_checksum_free (sum);
  g_unsetenv ("GST_CL_NO_ZERO_COPY");
}

typedef struct
{
  guint tried, errors, exact, not_hit, unclear, hangs, leaks;
  GString *problems;
} Counts;

static gboolean
is_chosen (GArray * chosen, gulong n)
{
  for (guint i = 0; i < chosen->len; i++)
    if (g_array_index (chosen, gulong, i) == n)
      return TRUE;
  return FALSE;
}

/* The N of the calls a default run fails: the first call from each call
 * site, and the last call of each entry point. */
static GArray *
chosen_calls (unsigned long n_calls)
{
  GHashTable *sites = g_hash_table_new (NULL, NULL);
  GHashTable *last = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *chosen = g_array_new (FALSE, FALSE, sizeof (gulong));
  gboolean all = g_strcmp0 (g_getenv ("CL_FAULT_ALL"), "1") == 0;
  const gchar *only = g_getenv ("CL_FAULT_CALLS");
  GHashTableIter iter;
  gpointer n;

  if (only) {
    gchar **list = g_strsplit (only, ",", -1);

    for (guint i = 0; list[i]; i++) {
      gulong c = g_ascii_strtoull (list[i], NULL, 10);

      g_array_append_val (chosen, c);
    }
    g_strfreev (list);
    all = TRUE;
    n_calls = 0;
  }

  for (gulong i = 1; i <= n_calls; i++) {
    const void *site = NULL;
    const char *name = fault.call (i, &site);

    fail_unless (name != NULL);
    if (all || !g_hash_table_contains (sites, site))
      g_array_append_val (chosen, i);
    g_hash_table_add (sites, (gpointer) site);
    g_hash_table_insert (last, (gpointer) name, GSIZE_TO_POINTER (i));
  }
  g_hash_table_iter_init (&iter, last);
  while (!all && g_hash_table_iter_next (&iter, NULL, &n)) {
    gulong i = GPOINTER_TO_SIZE (n);

    if (!is_chosen (chosen, i))
      g_array_append_val (chosen, i);
  }
  g_hash_table_unref (last);
  g_hash_table_unref (sites);
  return chosen;
}

/* One run with call @n failing, judged against the clean @digest. */
static void
run_with_fault (const FaultPipeline * p, gulong n, const gchar * digest,
    Counts * c)
{
  gchar call[64], *which;
  gint status;
  Run run;

  fault.reset (n);
  run_pipeline (p, &run);
  status = fault.failed (call, sizeof (call));
  fault.reset (0);
  c->tried++;
  if (run.end == RUN_HANG) {
    c->hangs++;
    g_string_append_printf (c->problems, "%s: call %lu (%s) failing: hang\n",
        p->name, n, call);
  } else if (status == 0) {
    /* threads made fewer calls this time */
    c->not_hit++;
  } else if (run.end == RUN_ERROR && strstr (run.error, call) &&
      strstr (run.error, status_name (status))) {
    c->errors++;
  } else if (run.end == RUN_EOS && g_strcmp0 (run.digest, digest) == 0) {
    c->exact++;
  } else {
    c->unclear++;
    g_string_append_printf (c->problems, "%s: call %lu (%s) failing: %s\n",
        p->name, n, call, run.end == RUN_EOS ? "other frames" : run.error);
  }
  if (!cl_objects_released (&which)) {
    c->leaks++;
    g_string_append_printf (c->problems, "%s: call %lu (%s) failing: "
        "left%s\n", p->name, n, call, which);
  }
  g_free (which);
  run_clear (&run);
}

static void
check_pipeline (const FaultPipeline * p)
{
  Counts c = { 0, };
  gchar *which;
  gulong n_calls;
  GArray *chosen;
  Run clean, retry;

  /* CL_FAULT_PIPELINE=NAME: only that one */
  if (g_getenv ("CL_FAULT_PIPELINE") &&
      g_strcmp0 (g_getenv ("CL_FAULT_PIPELINE"), p->name) != 0)
    return;
  fault_bind ();
  c.problems = g_string_new (NULL);
  /* the first run lists the devices, once for the process */
  run_pipeline (p, &clean);
  run_clear (&clean);
  fault.reset (0);
  run_pipeline (p, &clean);
  fail_unless_equals_int (clean.end, RUN_EOS);
  n_calls = fault.calls ();
  fail_unless (cl_objects_released (&which), "%s: left%s", p->name, which);
  g_free (which);

  chosen = chosen_calls (n_calls);
  for (guint i = 0; i < chosen->len; i++)
    run_with_fault (p, g_array_index (chosen, gulong, i), clean.digest, &c);

  run_pipeline (p, &retry);
  fail_unless_equals_int (retry.end, RUN_EOS);
  fail_unless_equals_string (retry.digest, clean.digest);
  g_print ("%s: %lu calls, %u failed: %u errors, %u exact frames, %u calls "
      "not reached, %u unclear, %u hangs, %u leaks (%u released late)\n",
      p->name, n_calls, c.tried, c.errors, c.exact, c.not_hit, c.unclear,
      c.hangs, c.leaks, late_releases);
  fail_unless (c.problems->len == 0, "%s", c.problems->str);

  g_string_free (c.problems, TRUE);
  g_array_unref (chosen);
  run_clear (&retry);
  run_clear (&clean);
}

GST_START_TEST (test_fault_anywhere)
{
  pipelines_make ();
  check_pipeline (g_ptr_array_index (pipelines, __i__));
}

GST_END_TEST;

/* The calls of the first program built, in @names (the entry points of a
 * run): from its clCreateProgramWithSource to the clGetProgramInfo that
 * reads its binary for the cache, the second of two. */
static gboolean
first_build (GPtrArray * names, gulong * first, gulong * last)
{
  gulong log = 0;

  *first = *last = 0;
  for (guint i = 0; i < names->len && !*last; i++) {
    const gchar *name = g_ptr_array_index (names, i);

    if (!*first && g_strcmp0 (name, "clCreateProgramWithSource") == 0)
      *first = i + 1;
    if (!*first)
      continue;
    /* the binary asked for, for the disk cache */
    if (i > 0 && g_strcmp0 (name, "clGetProgramInfo") == 0 &&
        g_strcmp0 (g_ptr_array_index (names, i - 1), "clGetProgramInfo") == 0)
      *last = i + 1;
    /* or, where the driver keeps its builds itself (PoCL), the build log
     * read last */
    else if (g_strcmp0 (name, "clGetProgramBuildInfo") == 0)
      log = i + 1;
    else if (log && g_strcmp0 (name, "clCreateKernel") == 0)
      *last = log;
  }
  return *last != 0;
}

static GPtrArray *
call_names (gulong n_calls)
{
  GPtrArray *names = g_ptr_array_new ();

  for (gulong n = 1; n <= n_calls; n++) {
    const void *site;

    g_ptr_array_add (names, (gpointer) fault.call (n, &site));
  }
  return names;
}

static gchar *
empty_cache (void)
{
  gchar *dir = g_dir_make_tmp ("clfaults-XXXXXX", NULL);

  fail_unless (dir != NULL);
  g_setenv ("XDG_CACHE_HOME", dir, TRUE);
  return dir;
}

static void
remove_cache (gchar * dir)
{
  gchar *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  fail_unless (system (cmd) == 0);
  g_free (cmd);
  g_free (dir);
}

/* Every program compiled: call N failing from the first program's build
 * to its storing in the cache, or to its build log where the driver keeps
 * its builds itself (CL_FAULT_ALL=1: from the first call), in an empty
 * cache each time, which takes a compile a run. */
GST_START_TEST (test_fault_empty_cache)
{
  const FaultPipeline *p = pipeline_named ("clsobel");
  const gchar *warm = g_getenv ("XDG_CACHE_HOME");
  gboolean all = g_strcmp0 (g_getenv ("CL_FAULT_ALL"), "1") == 0;
  gulong first, last, n_calls;
  GPtrArray *names;
  gchar *saved = g_strdup (warm), *dir, *which;
  Counts c = { 0, };
  Run clean, retry;

  if (g_getenv ("CL_FAULT_PIPELINE") &&
      g_strcmp0 (g_getenv ("CL_FAULT_PIPELINE"), "empty-cache") != 0)
    return;
  fault_bind ();
  c.problems = g_string_new (NULL);
  /* the devices, listed once for the process, from the warm cache */
  run_pipeline (p, &clean);
  run_clear (&clean);
  dir = empty_cache ();
  fault.reset (0);
  run_pipeline (p, &clean);
  fail_unless_equals_int (clean.end, RUN_EOS);
  remove_cache (dir);
  n_calls = fault.calls ();
  fail_unless (cl_objects_released (&which), "left%s", which);
  g_free (which);

  names = call_names (n_calls);
  fail_unless (first_build (names, &first, &last), "no program built");
  g_ptr_array_unref (names);
  for (gulong n = all ? 1 : first; n <= last; n++) {
    dir = empty_cache ();
    run_with_fault (p, n, clean.digest, &c);
    remove_cache (dir);
  }

  dir = empty_cache ();
  run_pipeline (p, &retry);
  remove_cache (dir);
  fail_unless_equals_int (retry.end, RUN_EOS);
  fail_unless_equals_string (retry.digest, clean.digest);
  g_print ("empty cache, %s: %lu calls, %u failed: %u errors, %u exact "
      "frames, %u calls not reached, %u unclear, %u hangs, %u leaks\n",
      p->name, n_calls, c.tried, c.errors, c.exact, c.not_hit, c.unclear,
      c.hangs, c.leaks);
  fail_unless (c.problems->len == 0, "%s", c.problems->str);

  g_setenv ("XDG_CACHE_HOME", saved, TRUE);
  g_free (saved);
  g_string_free (c.problems, TRUE);
  run_clear (&retry);
  run_clear (&clean);
}

GST_END_TEST;

/* The first pipeline of a process lists the devices, once for the process
 * where it succeeds: call N failing there (a loop test runs each N in a
 * process of its own) must end in an error naming it, and the next
 * pipeline must find the devices. */
GST_START_TEST (test_fault_listing_devices)
{
  const FaultPipeline *p = pipeline_named ("clboxblur");
  gchar call[64], *which;
  gint status;
  Run run, retry;

  fault_bind ();
  fault.reset (__i__);
  run_pipeline (p, &run);
  status = fault.failed (call, sizeof (call));
  fault.reset (0);
  fail_unless (status != 0, "call %d is not reached", __i__);
  fail_unless (cl_objects_released (&which), "call %d (%s) failing: left%s",
      __i__, call, which);
  g_free (which);
  run_pipeline (p, &retry);
  fail_unless (retry.end == RUN_EOS, "call %d (%s) failed once, and the "
      "next run: %s", __i__, call, retry.error ? retry.error : "hang");
  if (run.end == RUN_ERROR)
    fail_unless (strstr (run.error, call) && strstr (run.error,
            status_name (status)), "call %d (%s) failing: %s", __i__, call,
        run.error);
  else
    fail_unless (run.end == RUN_EOS && g_strcmp0 (run.digest,
            retry.digest) == 0, "call %d (%s) failing: %s", __i__, call,
        run.end == RUN_HANG ? "hang" : "other frames");
  run_clear (&retry);
  run_clear (&run);
}

GST_END_TEST;

static void
unmap_pages (gpointer data)
{
  GstMapInfo *pages = data;

  munmap (pages->data, pages->size);
  g_free (pages);
}

/* @size bytes of @value in pages of their own, given back to the system
 * when the buffer is freed, so that a late read of them faults */
static GstBuffer *
buffer_of_own_pages (gsize size, guint8 value)
{
  GstMapInfo *pages = g_new0 (GstMapInfo, 1);

  pages->size = size;
  pages->data = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE |
      MAP_ANONYMOUS, -1, 0);
  fail_unless (pages->data != MAP_FAILED);
  memset (pages->data, value, size);
  return gst_buffer_new_wrapped_full (0, pages->data, size, 0, size, pages,
      unmap_pages);
}

/* A kernel that cannot be enqueued, then no marker either (a driver out of
 * resources fails again), on the copy path: the input's copy to the device
 * took no event of its own, since its output's copy back was to follow it
 * on the same queue, so the output's unmap must finish the queue by
 * clFinish() before the input is released. The copy held back 300 ms, the
 * input in pages of its own: freed before the copy read it, it faulted. */
GST_START_TEST (test_fault_finish_without_marker)
{
  GstElement *pipeline, *src;
  GstBuffer *in;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL, *which;

  fault_bind ();
  g_setenv ("GST_CL_NO_ZERO_COPY", "1", TRUE);
  pipeline = gst_parse_launch ("appsrc name=src format=time "
      "caps=video/x-raw,format=GRAY8,width=1920,height=1088,framerate=30/1 ! "
      "clsobel ! video/x-raw ! appsink sync=false", &err);
  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  fault.reset (0);
  fault.fail_names ("clEnqueueNDRangeKernel,clEnqueueMarkerWithWaitList");
  fault.hold_writes (1 << 20, 300);
  in = buffer_of_own_pages (1920 * 1088, 0x80);
  GST_BUFFER_PTS (in) = 0;
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), in),
      GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline), RUN_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "no error for a kernel that cannot be enqueued");
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (strstr (err->message, "clEnqueueNDRangeKernel") != NULL,
      "%s (%s)", err->message, debug);
  /* the held copy runs meanwhile */
  g_usleep (600 * 1000);
  fault.reset (0);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_unsetenv ("GST_CL_NO_ZERO_COPY");
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  fail_unless (cl_objects_released (&which), "left%s", which);
  g_free (which);
}

GST_END_TEST;

static Suite *
faults_suite (void)
{
  Suite *s = suite_create ("clfaults");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_fault_anywhere, 0, n_pipelines ());
  tcase_add_test (tc, test_fault_empty_cache);
  /* past the listing, the first calls of a context */
  tcase_add_loop_test (tc, test_fault_listing_devices, 1, 16);
  tcase_add_test (tc, test_fault_finish_without_marker);
  return s;
}

GST_CHECK_MAIN (faults);
