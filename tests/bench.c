/* gstclfilters: benchmark of every filter's kernels, against the copy floor
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Times what an element enqueues for one frame already on the device (no
 * host transfers), for each variant, and compares it with the floor: the
 * frame's bytes in and out over the device's copy bandwidth, measured in the
 * same run. Prints Markdown tables.
 *
 *   clfilters-bench [--quick] [--only NAME] [--startup-only] [--sweep]
 */
#include <stdlib.h>
#include <string.h>

#include <gst/check/gstharness.h>

#include "cl/gstclbasefilter.h"
#include "cl/gstcldevice.h"
#include "cl/gstclerror.h"
#include "cl/gstclevent.h"
#include "cl/gstclpool.h"
#include "cl/gstclutils.h"
#include "bench-cases.h"
#include "gstclcomposite.h"

static gboolean quick;
static gchar *only;
static gboolean startup_only;
static gboolean sweep;
static gdouble min_seconds = 0.4;
static gint batch = 64;

static GOptionEntry entries[] = {
  {"quick", 'q', 0, G_OPTION_ARG_NONE, &quick, "Fewer and smaller cases", NULL},
  {"only", 'o', 0, G_OPTION_ARG_STRING, &only,
      "Only cases whose element name contains this", "NAME"},
  {"startup-only", 0, 0, G_OPTION_ARG_NONE, &startup_only,
      "Only time the first frame, cold and warm", NULL},
  {"sweep", 0, 0, G_OPTION_ARG_NONE, &sweep,
      "Also time every work-item shape of the optimized kernels", NULL},
  {"seconds", 's', 0, G_OPTION_ARG_DOUBLE, &min_seconds,
      "Time each case for at least this long", "S"},
  {"batch", 'b', 0, G_OPTION_ARG_INT, &batch,
        "Calls enqueued together in each round of the device timing (64): "
        "fewer, as a pipeline's frames come, keep the device's queue short",
      "N"},
  {NULL}
};

static gdouble
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static void
check (cl_int status, const gchar * what)
{
  if (status != CL_SUCCESS) {
    g_printerr ("%s failed: %s\n", what, gst_cl_error_name (status));
    exit (1);
  }
}

/* Device-to-device copy bandwidth, counting bytes read and written. */
static gdouble
copy_bandwidth (GstClContext * ctx)
{
  cl_command_queue queue = gst_cl_queue_get_shared_handle (ctx);
  gsize size =
      MIN (256 << 20, gst_cl_context_get_caps (ctx)->max_mem_alloc_size / 2);
  cl_int status;
  cl_mem a =
      clCreateBuffer (gst_cl_context_get_handle (ctx), CL_MEM_READ_WRITE, size,
      NULL,
      &status);
  cl_mem b =
      clCreateBuffer (gst_cl_context_get_handle (ctx), CL_MEM_READ_WRITE, size,
      NULL,
      &status);
  guint8 zero = 0;
  gdouble start, best = G_MAXDOUBLE;

  check (status, "clCreateBuffer");
  check (clEnqueueFillBuffer (queue, a, &zero, 1, 0, size, 0, NULL, NULL),
      "clEnqueueFillBuffer");
  check (clEnqueueCopyBuffer (queue, a, b, 0, 0, size, 0, NULL, NULL),
      "clEnqueueCopyBuffer");
  clFinish (queue);
  for (guint i = 0; i < 5; i++) {
    start = now ();
    check (clEnqueueCopyBuffer (queue, a, b, 0, 0, size, 0, NULL, NULL),
        "clEnqueueCopyBuffer");
    clFinish (queue);
    best = MIN (best, now () - start);
  }
  clReleaseMemObject (a);
  clReleaseMemObject (b);
  return 2.0 * size / best;
}

/* Microseconds between back-to-back launches of an empty kernel, timed as
 * the cases are: the least any one-kernel frame can take. */
static gdouble
launch_overhead_us (GstClContext * ctx)
{
  cl_command_queue queue = gst_cl_queue_get_shared_handle (ctx);
  cl_kernel k = gst_cl_kernel_new (ctx,
      "__kernel void empty (void) { }", "", "empty", NULL);
  gsize one = 1;
  gdouble start;
  guint n = 2000;

  if (!k)
    return -1;
  clEnqueueNDRangeKernel (queue, k, 1, NULL, &one, NULL, 0, NULL, NULL);
  clFinish (queue);
  start = now ();
  for (guint i = 0; i < n; i++) {
    clEnqueueNDRangeKernel (queue, k, 1, NULL, &one, NULL, 0, NULL, NULL);
    if (i % 8 == 7)
      clFinish (queue);
  }
  clFinish (queue);
  clReleaseKernel (k);
  return 1e6 * (now () - start) / n;
}

static void
device_frame_new (GstClContext * ctx, const GstVideoInfo * info,
    GstClFrame * frame, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);

  gst_cl_frame_set_geometry (frame, info);
  for (guint p = 0; p < frame->n_planes; p++) {
    gsize size = gst_cl_plane_size (&frame->planes[p]);
    guint8 *data = g_malloc (size);
    cl_int status;

    for (gsize i = 0; i < size; i++)
      data[i] = g_rand_int (rand) & 0xff;
    frame->planes[p].mem =
        clCreateBuffer (gst_cl_context_get_handle (ctx),
        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, data, &status);
    check (status, "clCreateBuffer");
    g_free (data);
  }
  g_rand_free (rand);
}

/* What one call of an enqueue function costs: the mean wall time of as
 * many calls as fit in min_seconds, with a finish every 8 calls as a
 * pipeline would leave the queue busy, and the mean time its kernels ran on
 * the device, launches left out (the best of up to 8 rounds of up to
 * --batch calls, 64 unless set). */
typedef struct
{
  gdouble wall_ms, device_ms;
} Timing;

static Timing
time_enqueues (GstClContext * ctx, GstClQueue * own,
    void (*enqueue) (gpointer), gpointer data)
{
  cl_command_queue queue = own->handle;
  Timing t;
  gdouble start, elapsed, ms;
  guint n = 0, i, round;

  enqueue (data);
  clFinish (queue);
  start = now ();
  do {
    enqueue (data);
    if (++n % 8 == 0 || n < 8)
      clFinish (queue);
    elapsed = now () - start;
  } while (elapsed < min_seconds && n < 2000);
  clFinish (queue);
  elapsed = now () - start;
  t.wall_ms = 1000.0 * elapsed / n;

  /* the best of a few rounds: a shared device is sometimes busy elsewhere */
  n = CLAMP (n, 1, (guint) MAX (batch, 1));
  t.device_ms = G_MAXDOUBLE;
  start = now ();
  for (round = 0; round < 8; round++) {
    gst_cl_event_profile_start (ctx);
    for (i = 0; i < n; i++)
      enqueue (data);
    ms = gst_cl_event_profile_stop (ctx) / n;
    t.device_ms = MIN (t.device_ms, ms);
    if (now () - start > min_seconds)
      break;
  }
  return t;
}

static GstHarness *
harness_new (const BenchCase * c, const gchar * variant,
    const BenchTuning * tuning)
{
  GstElement *element = gst_element_factory_make (c->factory, NULL);
  gchar **props = g_strsplit (c->props, " ", -1);
  GstHarness *h;
  gchar *caps;

  if (!element) {
    g_printerr ("no element %s\n", c->factory);
    exit (1);
  }
  for (gchar ** p = props; *p; p++) {
    gchar **kv = g_strsplit (*p, "=", 2);

    if (kv[0] && kv[1])
      gst_util_set_object_arg (G_OBJECT (element), kv[0], kv[1]);
    g_strfreev (kv);
  }
  g_strfreev (props);
  gst_util_set_object_arg (G_OBJECT (element), "variant", variant);
  if (tuning)
    tuning->apply (element, tuning->a, tuning->b);
  h = gst_harness_new_with_element (element, "sink", "src");
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (c->format), c->width,
      c->height);
  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
  gst_object_unref (element);
  return h;
}

/* Returns the milliseconds one frame takes, the mean of as many frames as fit
 * in min_seconds (a slow case runs once). */
typedef struct
{
  GstClBaseFilter *filter;
  /* a moving case's frames in turn, else the first again */
  GstClFrame in[2], out;
  guint n_in, next;
} ProcessJob;

static void
enqueue_process (gpointer data)
{
  ProcessJob *job = data;

  gst_cl_base_filter_process (job->filter, &job->in[job->next], &job->out,
      NULL);
  job->next = (job->next + 1) % job->n_in;
}

static Timing
time_case (const BenchCase * c, const gchar * variant,
    const BenchTuning * tuning)
{
  GstHarness *h = harness_new (c, variant, tuning);
  ProcessJob job = { 0, };
  GstClContext *ctx;
  GstVideoInfo info;
  GError *err = NULL;
  Timing t;

  job.filter = GST_CL_BASE_FILTER (h->element);
  ctx = gst_cl_base_filter_get_context (job.filter);
  gst_video_info_set_format (&info, c->format, c->width, c->height);
  job.n_in = c->moving ? 2 : 1;
  for (guint i = 0; i < job.n_in; i++)
    device_frame_new (ctx, &info, &job.in[i], 1 + 2 * i);
  device_frame_new (ctx, &info, &job.out, 2);
  if (!gst_cl_base_filter_process (job.filter, &job.in[0], &job.out, &err)) {
    g_printerr ("%s %s: %s\n", c->factory, c->props, err->message);
    exit (1);
  }
  t = time_enqueues (ctx, gst_cl_base_filter_get_queue (job.filter),
      enqueue_process, &job);

  for (guint i = 0; i < job.n_in; i++)
    gst_cl_frame_release (&job.in[i]);
  gst_cl_frame_release (&job.out);
  gst_harness_teardown (h);
  return t;
}

static gsize
frame_bytes (const BenchCase * c)
{
  GstVideoInfo info;

  gst_video_info_set_format (&info, c->format, c->width, c->height);
  return GST_VIDEO_INFO_SIZE (&info);
}

static gboolean
wanted (const BenchCase * c)
{
  return !(only && !strstr (c->factory, only)) && !(quick && c->width > 1920);
}

typedef struct
{
  GstClContext *ctx;
  cl_kernel kernel;
  gsize words;
} CopyJob;

static void
enqueue_copy (gpointer data)
{
  CopyJob *job = data;

  gst_cl_kernel_enqueue (gst_cl_queue_get_shared (job->ctx, NULL), job->kernel,
      1, &job->words, NULL, NULL);
}

/* A device copy of @bytes, by a kernel of 16-byte loads and stores, timed as
 * the cases are: what a frame costs when nothing is computed. */
static Timing
time_frame_copy (GstClContext * ctx, gsize bytes)
{
  CopyJob job = { ctx, NULL, (bytes + 15) / 16 };
  cl_mem a, b;
  cl_int status;
  Timing t;

  job.kernel = gst_cl_kernel_new (ctx,
      "__kernel void copy (__global const uint4 * a, __global uint4 * b)\n"
      "{ b[get_global_id (0)] = a[get_global_id (0)]; }\n", "", "copy", NULL);
  if (!job.kernel) {
    g_printerr ("no copy kernel\n");
    exit (1);
  }
  a = clCreateBuffer (gst_cl_context_get_handle (ctx), CL_MEM_READ_WRITE,
      16 * job.words, NULL, &status);
  check (status, "clCreateBuffer");
  b = clCreateBuffer (gst_cl_context_get_handle (ctx), CL_MEM_READ_WRITE,
      16 * job.words, NULL, &status);
  check (status, "clCreateBuffer");
  check (clSetKernelArg (job.kernel, 0, sizeof (a), &a), "clSetKernelArg");
  check (clSetKernelArg (job.kernel, 1, sizeof (b), &b), "clSetKernelArg");
  t = time_enqueues (ctx, gst_cl_queue_get_shared (ctx, NULL), enqueue_copy,
      &job);
  clReleaseKernel (job.kernel);
  clReleaseMemObject (a);
  clReleaseMemObject (b);
  return t;
}

static void
print_table_header (void)
{
  g_print ("\n| element | properties | format | size | reference ms "
      "| optimized ms | reference / optimized | reference kernel ms "
      "| optimized kernel ms | reference / optimized kernel | floor ms "
      "| copy kernel ms | optimized kernel / floor "
      "| optimized kernel / copy |\n"
      "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
      "\n");
}

/* A row of the table; a reference of wall_ms < 0 was not timed. */
static void
print_row (const gchar * factory, const gchar * props, GstVideoFormat format,
    gint width, gint height, Timing ref, Timing opt, gdouble floor_ms,
    Timing copy)
{
  g_print ("| %s | %s | %s | %dx%d | ", factory, props,
      gst_video_format_to_string (format), width, height);
  if (ref.wall_ms >= 0)
    g_print ("%.3f | %.3f | %.2f | %.4f | %.4f | %.2f | ", ref.wall_ms,
        opt.wall_ms, ref.wall_ms / opt.wall_ms, ref.device_ms,
        opt.device_ms, ref.device_ms / opt.device_ms);
  else
    g_print ("- | %.3f | - | - | %.4f | - | ", opt.wall_ms, opt.device_ms);
  g_print ("%.4f | %.4f | %.2f | %.2f |\n", floor_ms, copy.device_ms,
      opt.device_ms / floor_ms, opt.device_ms / copy.device_ms);
}

static void
run_cases (GstClContext * ctx, gdouble bandwidth)
{
  const BenchCase *cases = bench_cases ();
  const gchar *last = NULL;

  for (const BenchCase * c = cases; c->factory; c++) {
    Timing copy, ref = { -1, -1 }, opt;
    gdouble floor_ms;
    gchar *props;

    if (!wanted (c))
      continue;
    if (g_strcmp0 (last, c->factory) != 0) {
      print_table_header ();
      last = c->factory;
    }
    floor_ms = 1000.0 * (c->frames_moved ? c->frames_moved : 2) *
        frame_bytes (c) / bandwidth;
    copy = time_frame_copy (ctx, frame_bytes (c));
    if (!c->skip_reference)
      ref = time_case (c, "reference", NULL);
    opt = time_case (c, "optimized", NULL);
    props = g_strconcat (c->props, c->moving ? ", every frame new" : "", NULL);
    print_row (c->factory, props, c->format, c->width, c->height, ref, opt,
        floor_ms, copy);
    g_free (props);
  }
}

/* clcomposite, an aggregator: its composition timed directly, an overlay of
 * half the size in the middle of the background. */
typedef struct
{
  GstClAggregator *composite;
  GstVideoInfo info;
  GstClFrame bg, ov, out;
} CompositeJob;

static gboolean
process_composite (CompositeJob * job, GError ** error)
{
  const GstClFrame *inputs[2] = { &job->bg, &job->ov };

  return gst_cl_aggregator_process (job->composite, &job->info, inputs,
      &job->out, error);
}

static void
enqueue_composite (gpointer data)
{
  process_composite (data, NULL);
}

static Timing
time_composite (GstVideoFormat format, gint width, gint height,
    const gchar * props, const gchar * variant)
{
  GstElement *element = gst_element_factory_make ("clcomposite", NULL);
  GstPad *pad = gst_element_get_static_pad (element, "sink_1");
  CompositeJob job = { 0, };
  GstVideoInfo ov_info;
  GstClContext *ctx;
  GError *err = NULL;
  gchar **kv = g_strsplit (props, "=", 2);
  Timing t;

  job.composite = GST_CL_AGGREGATOR (element);
  gst_util_set_object_arg (G_OBJECT (element), kv[0], kv[1]);
  g_strfreev (kv);
  gst_util_set_object_arg (G_OBJECT (element), "variant", variant);
  g_object_set (pad, "xpos", width / 4, "ypos", height / 4, NULL);
  gst_object_unref (pad);
  if (gst_element_set_state (element, GST_STATE_READY) !=
      GST_STATE_CHANGE_SUCCESS) {
    g_printerr ("clcomposite did not reach READY\n");
    exit (1);
  }
  /* its frames passed here, not through its pads: started as on the way
   * to PAUSED, which makes its queue */
  if (!gst_cl_core_start (gst_cl_aggregator_get_core (job.composite))) {
    g_printerr ("clcomposite could not start\n");
    exit (1);
  }
  ctx = gst_cl_core_get_context (gst_cl_aggregator_get_core (job.composite));
  gst_video_info_set_format (&job.info, format, width, height);
  gst_video_info_set_format (&ov_info, format, width / 2, height / 2);
  device_frame_new (ctx, &job.info, &job.bg, 1);
  device_frame_new (ctx, &ov_info, &job.ov, 2);
  device_frame_new (ctx, &job.info, &job.out, 3);
  if (!process_composite (&job, &err)) {
    g_printerr ("clcomposite: %s\n", err->message);
    exit (1);
  }
  t = time_enqueues (ctx,
      gst_cl_core_get_queue (gst_cl_aggregator_get_core (job.composite)),
      enqueue_composite, &job);
  gst_cl_frame_release (&job.bg);
  gst_cl_frame_release (&job.ov);
  gst_cl_frame_release (&job.out);
  gst_element_set_state (element, GST_STATE_NULL);
  gst_object_unref (element);
  return t;
}

static void
run_composite (GstClContext * ctx, gdouble bandwidth)
{
  static const struct
  {
    GstVideoFormat format;
    gint width, height;
    const gchar *props;
  } cases[] = {
    {GST_VIDEO_FORMAT_RGBA, 1920, 1080, "operator=blend"},
    {GST_VIDEO_FORMAT_RGBA, 3840, 2160, "operator=blend"},
    {GST_VIDEO_FORMAT_RGBA, 3840, 2160, "operator=over"},
    {GST_VIDEO_FORMAT_NV12, 3840, 2160, "operator=blend"},
  };

  if (only && !strstr ("clcomposite", only))
    return;
  print_table_header ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstVideoInfo info;
    gsize bytes;
    Timing ref, opt, copy;
    gchar *props;

    if (quick && cases[i].width > 1920)
      continue;
    gst_video_info_set_format (&info, cases[i].format, cases[i].width,
        cases[i].height);
    bytes = GST_VIDEO_INFO_SIZE (&info);
    copy = time_frame_copy (ctx, bytes);
    ref = time_composite (cases[i].format, cases[i].width, cases[i].height,
        cases[i].props, "reference");
    opt = time_composite (cases[i].format, cases[i].width, cases[i].height,
        cases[i].props, "optimized");
    props = g_strdup_printf ("%s, overlay of half the size", cases[i].props);
    /* background and output, and the overlay, a quarter of a frame */
    print_row ("clcomposite", props, cases[i].format, cases[i].width,
        cases[i].height, ref, opt, 1000.0 * (2 * bytes + bytes / 4) /
        bandwidth, copy);
    g_free (props);
  }
}

/* Host-to-device and back for a 4K RGBA frame, from ordinary memory and from
 * the pinned buffers the elements offer upstream on discrete devices. */
static gdouble
transfer_ms (GstClContext * ctx, cl_mem dev, gpointer host, gsize size,
    gboolean write)
{
  cl_command_queue queue = gst_cl_queue_get_shared_handle (ctx);
  gdouble start, best = G_MAXDOUBLE;

  for (guint i = 0; i < 10; i++) {
    start = now ();
    if (write)
      check (clEnqueueWriteBuffer (queue, dev, CL_TRUE, 0, size, host, 0,
              NULL, NULL), "clEnqueueWriteBuffer");
    else
      check (clEnqueueReadBuffer (queue, dev, CL_TRUE, 0, size, host, 0,
              NULL, NULL), "clEnqueueReadBuffer");
    best = MIN (best, now () - start);
  }
  return 1000.0 * best;
}

static void
run_transfers (GstClContext * ctx)
{
  gsize size = 3840 * 2160 * 4;
  GstBufferPool *pool = gst_cl_pinned_pool_new_active (ctx, size);
  GstBuffer *pinned = NULL;
  guint8 *ordinary = g_malloc0 (size);
  cl_int status;
  cl_mem dev =
      clCreateBuffer (gst_cl_context_get_handle (ctx), CL_MEM_READ_WRITE, size,
      NULL,
      &status);
  GstMapInfo map;

  check (status, "clCreateBuffer");
  if (gst_buffer_pool_acquire_buffer (pool, &pinned, NULL) != GST_FLOW_OK) {
    g_printerr ("no pinned buffer\n");
    exit (1);
  }
  gst_buffer_map (pinned, &map, GST_MAP_READWRITE);
  g_print ("\n| 3840x2160 RGBA frame | to the device ms | GB/s | back ms | "
      "GB/s |\n|---|---:|---:|---:|---:|\n");
  for (guint i = 0; i < 2; i++) {
    gpointer host = i ? map.data : ordinary;
    gdouble up = transfer_ms (ctx, dev, host, size, TRUE);
    gdouble down = transfer_ms (ctx, dev, host, size, FALSE);

    g_print ("| %s | %.3f | %.1f | %.3f | %.1f |\n", i ?
        "pinned (the elements' pools)" : "ordinary memory", up,
        size / up / 1e6, down, size / down / 1e6);
  }
  gst_buffer_unmap (pinned, &map);
  gst_buffer_unref (pinned);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  clReleaseMemObject (dev);
  g_free (ordinary);
}

/* Every work-item shape the sweep table lists, optimized variant. */
static void
run_tunings (gdouble bandwidth)
{
  g_print ("\n| element | properties | format | size | work-item shape | "
      "optimized ms | optimized kernel ms | optimized kernel / floor |\n"
      "|---|---|---|---|---|---:|---:|---:|\n");
  for (const BenchTuning * t = bench_tunings (); t->c.factory; t++) {
    gdouble floor_ms = 1000.0 * 2 * frame_bytes (&t->c) / bandwidth;
    Timing opt;

    if (!wanted (&t->c))
      continue;
    opt = time_case (&t->c, "optimized", t);
    g_print ("| %s | %s | %s | %dx%d | %s | %.3f | %.4f | %.2f |\n",
        t->c.factory, t->c.props, gst_video_format_to_string (t->c.format),
        t->c.width, t->c.height, t->label, opt.wall_ms, opt.device_ms,
        opt.device_ms / floor_ms);
  }
}

/* Seconds from building @desc to its EOS; with @keep, the pipeline takes
 * the OpenCL context *@keep holds, as an application hands it on, or puts
 * its own there. */
static gdouble
pipeline_seconds (const gchar * desc, GstContext ** keep)
{
  gdouble start = now ();
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus;
  GstMessage *msg;

  if (!pipeline) {
    g_printerr ("could not build %s\n", desc);
    exit (1);
  }
  if (keep && *keep)
    gst_element_set_context (pipeline, *keep);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS) {
    g_printerr ("%s did not run\n", desc);
    exit (1);
  }
  start = now () - start;
  gst_message_unref (msg);
  if (keep && !*keep)
    *keep = gst_element_get_context (pipeline, GST_CL_CONTEXT_TYPE);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return start;
}

/* Wall time from an empty pipeline to its first frame out, which includes
 * creating the context and getting the kernels: from source with an empty
 * cache, from the disk cache the second time. */
static gdouble
first_frame_ms (const gchar * factory, const gchar * props, GstContext ** keep)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=NV12,width=1920,height=1080 ! %s %s ! fakesink",
      factory, props);
  gdouble ms = 1000.0 * pipeline_seconds (desc, keep);

  g_free (desc);
  return ms;
}

/* When the sink took its CHAIN_WARM_FRAMES-th buffer and its last */
typedef struct
{
  guint frames;
  gint64 first_us, last_us;
} SinkTimes;

#define CHAIN_WARM_FRAMES 20
#define CHAIN_FRAMES 200

static GstPadProbeReturn
on_sink_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  SinkTimes *t = data;
  gint64 us = g_get_monotonic_time ();

  if (++t->frames == CHAIN_WARM_FRAMES)
    t->first_us = us;
  t->last_us = us;
  return GST_PAD_PROBE_OK;
}

/* Milliseconds a frame of @desc (which ends in a sink named "sink") in its
 * steady state: between the sink's CHAIN_WARM_FRAMES-th buffer and its
 * last, so that neither starting nor stopping counts */
static gdouble
chain_frame_ms (const gchar * desc)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  SinkTimes t = { 0 };
  GstElement *sink;
  GstPad *pad;
  GstMessage *msg;

  if (!pipeline) {
    g_printerr ("could not build %s\n", desc);
    exit (1);
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_sink_buffer, &t, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      300 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS ||
      t.frames <= CHAIN_WARM_FRAMES) {
    g_printerr ("%s did not run\n", desc);
    exit (1);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return (t.last_us - t.first_us) / 1000.0 / (t.frames - CHAIN_WARM_FRAMES);
}

/* Wall time a frame of a chain of elements, in a real pipeline: frames kept
 * on the device between the elements (memory:OpenCL), or forced into
 * system memory between them. The source writes into the first element's
 * pool; the time of a frame is the sink's steady rate (chain_frame_ms()),
 * the best of 3 runs after a first that builds the kernels. */
static void
run_chains (void)
{
  static const gchar *chains[] = {
    "clboxblur diameter=5 ! clsobel ! clepsilon",
    "clepsilon ! clintegral ! clsobel",
  };
  static const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };

  g_print ("\n| chain, NV12 | size | frames between elements | ms/frame | "
      "fps |\n|---|---|---|---:|---:|\n");
  for (guint c = 0; c < G_N_ELEMENTS (chains); c++) {
    gchar **parts = g_strsplit (chains[c], " ! ", -1);
    gchar *host = g_strjoinv (" ! video/x-raw(memory:SystemMemory) ! ", parts);

    if (only && !strstr (chains[c], only)) {
      g_strfreev (parts);
      g_free (host);
      continue;
    }
    for (guint z = 0; z < (quick ? 1 : G_N_ELEMENTS (sizes)); z++) {
      for (guint m = 0; m < 2; m++) {
        gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%u "
            "pattern=solid-color ! video/x-raw,format=NV12,width=%d,"
            "height=%d,framerate=1000/1 ! %s ! fakesink name=sink sync=false",
            CHAIN_WARM_FRAMES + CHAIN_FRAMES, sizes[z][0], sizes[z][1],
            m ? host : chains[c]);
        gdouble ms = G_MAXDOUBLE;

        for (gint run = 0; run < 4; run++) {
          gdouble t = chain_frame_ms (desc);

          if (run > 0)
            ms = MIN (ms, t);
        }
        g_print ("| %s | %dx%d | %s | %.2f | %.0f |\n", chains[c],
            sizes[z][0], sizes[z][1], m ? "system memory" :
            "device (memory:OpenCL)", ms, 1000.0 / ms);
        g_free (desc);
      }
    }
    g_strfreev (parts);
    g_free (host);
  }
}

static void
run_startup (void)
{
  gchar *dir = g_dir_make_tmp ("clbench-cache-XXXXXX", NULL);
  gchar *old = g_strdup (g_getenv ("XDG_CACHE_HOME"));
  GstContext *kept = NULL;
  gdouble cold, warm, without, handed;

  g_setenv ("XDG_CACHE_HOME", dir, TRUE);
  gst_cl_device_list ();
  first_frame_ms ("identity", "", NULL);        /* loads the other plugins */
  without = first_frame_ms ("identity", "", NULL);
  cold = first_frame_ms ("clboxblur", "", NULL);
  /* the second pipeline keeps its context, which the third takes */
  warm = first_frame_ms ("clboxblur", "", &kept);
  handed = first_frame_ms ("clboxblur", "", &kept);
  g_print ("\n| first 1080p frame through clboxblur | ms |\n|---|---:|\n"
      "| cold (kernels compiled) | %.1f |\n| warm (kernels from the disk "
      "cache) | %.1f |\n| the same pipeline with identity instead | %.1f |\n"
      "| warm, over the pipeline with identity | %.1f |\n"
      "| warm, the context handed on from the pipeline before | %.1f |\n",
      cold, warm, without, warm - without, handed);
  if (kept)
    gst_context_unref (kept);
  if (old)
    g_setenv ("XDG_CACHE_HOME", old, TRUE);
  else
    g_unsetenv ("XDG_CACHE_HOME");
  g_free (old);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  GOptionContext *opts = g_option_context_new ("- time the clfilters kernels");
  GError *err = NULL;
  GstClContext *ctx;
  gdouble bandwidth;

  /* kernel times come from profiling events */
  g_setenv ("GST_CL_PROFILING", "1", FALSE);
  g_option_context_add_main_entries (opts, entries, NULL);
  g_option_context_add_group (opts, gst_init_get_option_group ());
  if (!g_option_context_parse (opts, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (opts);
  bench_register_elements ();

  run_startup ();
  if (startup_only)
    return 0;

  ctx = gst_cl_context_new (-1, &err);
  if (!ctx) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  bandwidth = copy_bandwidth (ctx);
  g_print ("\ndevice: %s (%s, %u compute units); copy bandwidth %.1f GB/s "
      "(read + write); an empty kernel every %.1f us\n",
      gst_cl_context_get_device_name (ctx),
      gst_cl_device_type_name (gst_cl_context_get_caps (ctx)->type),
      gst_cl_context_get_caps (ctx)->compute_units, bandwidth / 1e9,
      launch_overhead_us (ctx));
  if (!only)
    run_transfers (ctx);
  run_cases (ctx, bandwidth);
  run_composite (ctx, bandwidth);
  run_chains ();
  if (sweep)
    run_tunings (bandwidth);
  gst_object_unref (ctx);
  return 0;
}
