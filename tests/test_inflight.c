/* gstclfilters tests: frames in flight on many queues
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every element runs its frames on a queue of its own, and the host does
 * not wait between cl elements: what orders the commands of a frame across
 * elements are the events its device memory carries. These tests run many
 * frames through many branches and threads at once and check every frame,
 * bit for bit and in order; and stop, seek and restart pipelines with
 * frames still on the device.
 */
#include "cltest.h"

#include <gst/app/app.h>

#define W 203
#define H 117
#define N_FRAMES 10

static const ClTestEpsilon eps = { 20, 5 };

/* blur 3, then Sobel l1, then epsilon: what every chain below computes */
static GstBuffer *
chain_ref (GstBuffer * in, const GstVideoInfo * info, gboolean sobel,
    gboolean epsilon)
{
  GstBuffer *a = cl_test_apply_ref (in, info, cl_test_ref_boxblur,
      GUINT_TO_POINTER (3)), *b;

  if (sobel) {
    b = cl_test_apply_ref (a, info, cl_test_ref_sobel,
        GUINT_TO_POINTER (CL_REF_SOBEL_L1));
    gst_buffer_unref (a);
    a = b;
  }
  if (epsilon) {
    b = cl_test_apply_ref (a, info, cl_test_ref_epsilon, (gpointer) & eps);
    gst_buffer_unref (a);
    a = b;
  }
  return a;
}

static GstElement *
pipeline_new (const gchar * desc)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);

  fail_unless (pipeline != NULL, "%s: %s", desc, err ? err->message : "");
  return pipeline;
}

static GstElement *
child (GstElement * pipeline, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);

  fail_unless (e != NULL, "no element %s", name);
  return e;
}

/* Pulls @n frames from appsink @name and checks them, in order, against
 * @want; then the end of the stream. */
static void
pull_and_check (GstElement * pipeline, const gchar * name, GstBuffer ** want,
    guint n, const GstVideoInfo * info)
{
  GstElement *sink = child (pipeline, name);

  for (guint f = 0; f < n; f++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        60 * GST_SECOND);
    GstBuffer *got;
    gchar *what;

    fail_unless (sample != NULL, "%s: frame %u missing", name, f);
    got = gst_sample_get_buffer (sample);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (got), f * GST_SECOND / 30);
    what = g_strdup_printf ("%s frame %u", name, f);
    cl_test_check_same (got, want[f], info, what);
    g_free (what);
    gst_sample_unref (sample);
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)) ||
      gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 10 * GST_SECOND) ==
      NULL, "%s: more frames than went in", name);
  gst_object_unref (sink);
}

static void
push_frames (GstElement * pipeline, const gchar * name, GstBuffer ** frames,
    guint n, const GstVideoInfo * info)
{
  GstElement *src = child (pipeline, name);
  GstCaps *caps = gst_video_info_to_caps (info);

  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  for (guint f = 0; f < n; f++) {
    GstBuffer *buf = gst_buffer_copy (frames[f]);

    GST_BUFFER_PTS (buf) = f * GST_SECOND / 30;
    GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_caps_unref (caps);
  gst_object_unref (src);
}

typedef enum
{
  BRANCH_CHAIN,                 /* blur ! sobel ! epsilon, one thread */
  BRANCH_THREADS,               /* the same with a queue between each */
  BRANCH_TEE,                   /* blur ! tee, then sobel and epsilon */
} BranchKind;

/* @branches branches of @kind in one pipeline, each with frames of its own,
 * memory:OpenCL between the cl elements. */
static void
run_branches (BranchKind kind, guint branches, GstVideoFormat format)
{
  GString *desc = g_string_new (NULL);
  GstBuffer *in[16][N_FRAMES], *want[16][N_FRAMES], *want2[16][N_FRAMES];
  GstElement *pipeline;
  GstVideoInfo info;
  gchar name[32];
  guint b, f;

  g_assert (branches <= 16);
  for (b = 0; b < branches; b++) {
    if (kind == BRANCH_TEE)
      g_string_append_printf (desc, "appsrc name=a%u ! clboxblur diameter=3 "
          "! tee name=t%u  t%u. ! queue ! clsobel ! appsink name=s%u "
          "sync=false  t%u. ! queue ! clepsilon threshold=%u diameter=%u ! "
          "appsink name=e%u sync=false  ", b, b, b, b, b, eps.threshold,
          eps.diameter, b);
    else
      g_string_append_printf (desc, "appsrc name=a%u ! clboxblur diameter=3 "
          "! %s clsobel ! %s clepsilon threshold=%u diameter=%u ! appsink "
          "name=s%u sync=false  ", b, kind == BRANCH_THREADS ? "queue !" : "",
          kind == BRANCH_THREADS ? "queue max-size-buffers=2 !" : "",
          eps.threshold, eps.diameter, b);
  }
  pipeline = pipeline_new (desc->str);
  for (b = 0; b < branches; b++) {
    for (f = 0; f < N_FRAMES; f++) {
      /* random bytes, with a meta giving their layout */
      in[b][f] = cl_test_frame_new (format, W, H, 0, 1000 * b + f, &info);
      /* the references' layout */
      gst_video_info_set_format (&info, format, W, H);
      want[b][f] = chain_ref (in[b][f], &info, TRUE, kind != BRANCH_TEE);
      want2[b][f] = kind == BRANCH_TEE ?
          chain_ref (in[b][f], &info, FALSE, TRUE) : NULL;
    }
    g_snprintf (name, sizeof (name), "a%u", b);
    push_frames (pipeline, name, in[b], N_FRAMES, &info);
  }
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (b = 0; b < branches; b++) {
    g_snprintf (name, sizeof (name), "s%u", b);
    pull_and_check (pipeline, name, want[b], N_FRAMES, &info);
    if (kind == BRANCH_TEE) {
      g_snprintf (name, sizeof (name), "e%u", b);
      pull_and_check (pipeline, name, want2[b], N_FRAMES, &info);
    }
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  for (b = 0; b < branches; b++) {
    for (f = 0; f < N_FRAMES; f++) {
      gst_buffer_unref (in[b][f]);
      gst_buffer_unref (want[b][f]);
      if (want2[b][f])
        gst_buffer_unref (want2[b][f]);
    }
  }
  g_string_free (desc, TRUE);
}

/* Branches that each run their own frames, in one thread each or in a
 * thread an element: every frame exact and in its place. */
GST_START_TEST (test_branches_in_order)
{
  run_branches (BRANCH_CHAIN, 6, GST_VIDEO_FORMAT_NV12);
  run_branches (BRANCH_THREADS, 6, GST_VIDEO_FORMAT_I420);
  run_branches (BRANCH_THREADS, 3, GST_VIDEO_FORMAT_GRAY8);
}

GST_END_TEST;

/* One frame on the device read by two elements at once, while the element
 * that wrote it reuses its pool's buffers for the next frames. */
GST_START_TEST (test_tee_readers)
{
  run_branches (BRANCH_TEE, 4, GST_VIDEO_FORMAT_NV12);
}

GST_END_TEST;

/* videotestsrc frames by their time, kept as they enter the chain, to
 * check what comes out against */
typedef struct
{
  GMutex lock;
  GHashTable *frames;           /* PTS -> GstBuffer */
} Inputs;

static GstPadProbeReturn
keep_input (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Inputs *inputs = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  g_mutex_lock (&inputs->lock);
  g_hash_table_replace (inputs->frames, GUINT_TO_POINTER (GST_BUFFER_PTS (buf)
          / GST_MSECOND), gst_buffer_copy_deep (buf));
  g_mutex_unlock (&inputs->lock);
  return GST_PAD_PROBE_OK;
}

/* Pulls @n frames and checks each against the chain's reference of the
 * input that had its time; the times must grow and start at @from or
 * later. */
static void
check_frames (GstElement * sink, Inputs * inputs, const GstVideoInfo * info,
    guint n, GstClockTime from)
{
  GstClockTime last = GST_CLOCK_TIME_NONE;

  for (guint i = 0; i < n; i++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        60 * GST_SECOND);
    GstBuffer *got, *in, *want;
    GstClockTime pts;

    fail_unless (sample != NULL, "frame %u after %" GST_TIME_FORMAT
        " missing", i, GST_TIME_ARGS (from));
    got = gst_sample_get_buffer (sample);
    pts = GST_BUFFER_PTS (got);
    fail_unless (pts >= from, "frame at %" GST_TIME_FORMAT " from before "
        "the seek to %" GST_TIME_FORMAT, GST_TIME_ARGS (pts),
        GST_TIME_ARGS (from));
    fail_unless (!GST_CLOCK_TIME_IS_VALID (last) || pts > last,
        "frames out of order");
    last = pts;
    g_mutex_lock (&inputs->lock);
    in = g_hash_table_lookup (inputs->frames, GUINT_TO_POINTER (pts /
            GST_MSECOND));
    in = in ? gst_buffer_ref (in) : NULL;
    g_mutex_unlock (&inputs->lock);
    fail_unless (in != NULL, "no input at %" GST_TIME_FORMAT,
        GST_TIME_ARGS (pts));
    want = chain_ref (in, info, TRUE, TRUE);
    cl_test_check_same (got, want, info, "after a seek");
    gst_buffer_unref (want);
    gst_buffer_unref (in);
    gst_sample_unref (sample);
  }
}

/* Flushing seeks, forward and back, and state changes to READY and back,
 * while frames are in flight between three threads; what comes out after
 * each is exact and in order. */
GST_START_TEST (test_seeks_and_stops_in_flight)
{
  static const gint64 seeks_ms[] = { 2000, 500, 3000, 0, 1000 };
  GstElement *pipeline, *sink, *blur;
  Inputs inputs;
  GstVideoInfo info;
  GstPad *pad;
  guint i;

  g_mutex_init (&inputs.lock);
  inputs.frames = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) gst_buffer_unref);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, W, H);
  pipeline = pipeline_new ("videotestsrc pattern=ball ! "
      "video/x-raw,format=NV12,width=203,height=117,framerate=30/1 ! "
      "clboxblur name=blur diameter=3 ! queue max-size-buffers=3 ! clsobel ! "
      "queue max-size-buffers=3 ! clepsilon threshold=20 diameter=5 ! "
      "appsink name=sink sync=false max-buffers=3");
  sink = child (pipeline, "sink");
  blur = child (pipeline, "blur");
  pad = gst_element_get_static_pad (blur, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_input, &inputs, NULL);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  check_frames (sink, &inputs, &info, 5, 0);
  for (i = 0; i < G_N_ELEMENTS (seeks_ms); i++) {
    /* the queues and appsink are full: frames are on the device */
    fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE,
            seeks_ms[i] * GST_MSECOND));
    check_frames (sink, &inputs, &info, 4, seeks_ms[i] * GST_MSECOND);
  }
  for (i = 0; i < 3; i++) {
    fail_unless (gst_element_set_state (pipeline, GST_STATE_READY) ==
        GST_STATE_CHANGE_SUCCESS);
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    check_frames (sink, &inputs, &info, 3, 0);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (blur);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_hash_table_unref (inputs.frames);
  g_mutex_clear (&inputs.lock);
}

GST_END_TEST;

static gpointer
context_of (GstElement * element)
{
  GstQuery *query = gst_query_new_context ("gst.cl.context");
  GstContext *context = NULL;
  gpointer cl_context = NULL;

  fail_unless (gst_element_query (element, query));
  gst_query_parse_context (query, &context);
  fail_unless (gst_structure_get (gst_context_get_structure (context),
          "cl-context", G_TYPE_POINTER, &cl_context, NULL));
  gst_query_unref (query);
  return cl_context;
}

/* Two pipelines, two contexts, at once in one process, the second taking
 * the first's frames on the device: every frame exact and in order. */
GST_START_TEST (test_two_contexts)
{
  GstElement *first, *second, *sink, *src, *blur, *sobel;
  GstBuffer *in[N_FRAMES], *want[N_FRAMES];
  GstVideoInfo info;
  GstCaps *caps;
  guint f;

  first = pipeline_new ("appsrc name=a ! clboxblur name=blur diameter=3 ! "
      "appsink name=mid sync=false caps=video/x-raw(memory:OpenCL)");
  second = pipeline_new ("appsrc name=b ! clsobel name=sobel ! "
      "clepsilon threshold=20 diameter=5 ! appsink name=s sync=false");
  for (f = 0; f < N_FRAMES; f++) {
    in[f] = cl_test_frame_new (GST_VIDEO_FORMAT_NV12, W, H, 0, 77 + f, &info);
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, W, H);
    want[f] = chain_ref (in[f], &info, TRUE, TRUE);
  }
  push_frames (first, "a", in, N_FRAMES, &info);

  src = child (second, "b");
  caps = gst_video_info_to_caps (&info);
  gst_caps_set_features (caps, 0,
      gst_caps_features_new ("memory:OpenCL", NULL));
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  gst_caps_unref (caps);
  fail_unless (gst_element_set_state (first, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_set_state (second, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  /* each frame goes from one to the other as soon as it comes */
  sink = child (first, "mid");
  for (f = 0; f < N_FRAMES; f++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        60 * GST_SECOND);
    GstBuffer *buf;

    fail_unless (sample != NULL);
    buf = gst_sample_get_buffer (sample);
    fail_unless (gst_memory_is_type (gst_buffer_peek_memory (buf, 0),
            "ClMemory"), "not a frame on the device");
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            gst_buffer_ref (buf)), GST_FLOW_OK);
    gst_sample_unref (sample);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  pull_and_check (second, "s", want, N_FRAMES, &info);

  blur = child (first, "blur");
  sobel = child (second, "sobel");
  fail_if (context_of (blur) == context_of (sobel),
      "the two pipelines share a context");

  gst_element_set_state (first, GST_STATE_NULL);
  gst_element_set_state (second, GST_STATE_NULL);
  gst_object_unref (blur);
  gst_object_unref (sobel);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (first);
  gst_object_unref (second);
  for (f = 0; f < N_FRAMES; f++) {
    gst_buffer_unref (in[f]);
    gst_buffer_unref (want[f]);
  }
}

GST_END_TEST;

static Suite *
inflight_suite (void)
{
  Suite *s = suite_create ("clinflight");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  tcase_add_test (tc, test_branches_in_order);
  tcase_add_test (tc, test_tee_readers);
  tcase_add_test (tc, test_seeks_and_stops_in_flight);
  tcase_add_test (tc, test_two_contexts);
  return s;
}

GST_CHECK_MAIN (inflight);
