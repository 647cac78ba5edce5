/* gstclfilters tests: frames in CUDA memory, from NVIDIA's decoders and back
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every element on clips decoded by nvh264dec: the frames in CUDA memory
 * through the element give exactly what the same frames give downloaded
 * first (`nvh264dec ! cudadownload ! <element>`), whichever memory they
 * leave in; clcomposite with two decoded inputs; flushing seeks and state
 * changes with CUDA frames in flight; the decoder's CUDA context made to
 * wait asleep; a failed import is an error, not a crash; every format the
 * filters share with cudaupload, at odd sizes. Where there is no NVIDIA
 * GPU, driver, GStreamer CUDA library or decoder, the suite says which and
 * is skipped.
 *
 * The clips: CL_TEST_CLIP_DIR (small.h264, 642x362, and clip720.h264,
 * tools/make-clip.sh makes them), else made here with x264enc.
 */
#include <dlfcn.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>

#include "cltest.h"
#include "clcases.h"

static gchar *clip_dir;
static const gchar *clips[] = { "small.h264", "clip720.h264" };

static gchar *
clip_path (guint i)
{
  return g_build_filename (clip_dir, clips[i], NULL);
}

/* the frames a pipeline gives its appsink "out", to EOS */
static GPtrArray *
run_frames (const gchar * desc)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *sink;
  GstBus *bus;
  GstMessage *msg;
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  GstSample *sample;

  fail_unless (pipeline != NULL, "%s: %s", desc, err ? err->message : "");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              30 * GST_SECOND)))
    g_ptr_array_add (frames, sample);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: %s", desc, err->message);
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)), "%s: no EOS", desc);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return frames;
}

/* every frame of @got the same bytes as @want's, row by row */
static void
check_same_frames (GPtrArray * got, GPtrArray * want, const gchar * what)
{
  guint i, p;
  gint y;

  fail_unless_equals_int (got->len, want->len);
  fail_unless (got->len > 0, "%s: no frame", what);
  for (i = 0; i < got->len; i++) {
    GstVideoInfo ginfo, winfo;
    GstVideoFrame g, w;

    fail_unless (gst_video_info_from_caps (&ginfo,
            gst_sample_get_caps (g_ptr_array_index (got, i))));
    fail_unless (gst_video_info_from_caps (&winfo,
            gst_sample_get_caps (g_ptr_array_index (want, i))));
    fail_unless (gst_video_frame_map (&g, &ginfo,
            gst_sample_get_buffer (g_ptr_array_index (got, i)), GST_MAP_READ));
    fail_unless (gst_video_frame_map (&w, &winfo,
            gst_sample_get_buffer (g_ptr_array_index (want, i)), GST_MAP_READ));
    fail_unless (GST_VIDEO_FRAME_FORMAT (&g) == GST_VIDEO_FRAME_FORMAT (&w)
        && GST_VIDEO_FRAME_WIDTH (&g) == GST_VIDEO_FRAME_WIDTH (&w) &&
        GST_VIDEO_FRAME_HEIGHT (&g) == GST_VIDEO_FRAME_HEIGHT (&w),
        "%s: frame %u of another format or size", what, i);
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&g); p++) {
      gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&g, p);
      gsize row = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&g, p) *
          GST_VIDEO_FRAME_COMP_PSTRIDE (&g, p);

      for (y = 0; y < rows; y++) {
        const guint8 *a = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&g, p)
            + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&g, p);
        const guint8 *b = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&w, p)
            + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&w, p);

        if (memcmp (a, b, row) != 0)
          fail ("%s: frame %u differs in plane %u, row %d", what, i, p, y);
      }
    }
    gst_video_frame_unmap (&g);
    gst_video_frame_unmap (&w);
  }
}

/* the frames of @desc, which must be @want's */
static void
check_pipeline (const gchar * desc, GPtrArray * want)
{
  GPtrArray *got = run_frames (desc);

  check_same_frames (got, want, desc);
  g_ptr_array_unref (got);
}

#define CUDA "video/x-raw(memory:CUDAMemory)"

/* the decoded clip, NV12 in CUDA memory */
static gchar *
decoded (const gchar * path)
{
  return g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! nvh264dec ! "
      CUDA " ! queue", path);
}

/* For each clip: @element in CUDA memory, in and out, equal to the element
 * on the frames downloaded first; likewise CUDA in and system memory out,
 * and system memory in and CUDA out. */
static void
check_element (const gchar * name)
{
  ClTestElement e = cl_test_element (name);
  const gchar *settings = e.settings ? e.settings : "";
  guint c;

  if (!cl_test_element_takes (name, GST_VIDEO_FORMAT_NV12)) {
    g_printerr ("%s: takes no NV12, the decoders' format: left out\n", name);
    return;
  }
  for (c = 0; c < G_N_ELEMENTS (clips); c++) {
    gchar *path = clip_path (c);
    gchar *src = decoded (path);
    gchar *want_desc = g_strdup_printf ("%s ! cudadownload ! video/x-raw ! "
        "%s %s ! video/x-raw ! appsink name=out sync=false", src, name,
        settings);
    gchar *cuda_desc = g_strdup_printf ("%s ! %s %s ! " CUDA " ! cudadownload "
        "! video/x-raw ! appsink name=out sync=false", src, name, settings);
    gchar *to_host = g_strdup_printf ("%s ! %s %s ! video/x-raw ! appsink "
        "name=out sync=false", src, name, settings);
    gchar *to_cuda = g_strdup_printf ("%s ! cudadownload ! video/x-raw ! "
        "%s %s ! " CUDA " ! cudadownload ! video/x-raw ! appsink name=out "
        "sync=false", src, name, settings);
    GPtrArray *want = run_frames (want_desc), *got;
    guint i;

    GST_INFO ("%s on %s: %u frames", name, clips[c], want->len);
    check_pipeline (cuda_desc, want);
    got = run_frames (to_host);
    check_same_frames (got, want, to_host);
    /* what the output carries besides its pixels (clintegral's sums) */
    for (i = 0; e.check_output && i < got->len; i++) {
      GstVideoInfo info;
      GstSample *g = g_ptr_array_index (got, i);

      fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (g)));
      fail_unless (e.check_output (gst_sample_get_buffer (g_ptr_array_index
                  (want, i)), gst_sample_get_buffer (g), &info),
          "%s: frame %u carries wrong results", to_host, i);
    }
    g_ptr_array_unref (got);
    /* an analyser passes system memory on as system memory */
    if (!e.passes_buffers)
      check_pipeline (to_cuda, want);
    g_ptr_array_unref (want);
    g_free (want_desc);
    g_free (cuda_desc);
    g_free (to_host);
    g_free (to_cuda);
    g_free (src);
    g_free (path);
  }
}

GST_START_TEST (test_filters_exact)
{
  const gchar *const *names = cl_test_element_names ();
  guint i;

  for (i = 0; names[i]; i++)
    if (cl_test_element_is_filter (names[i]))
      check_element (names[i]);
}

GST_END_TEST;

/* whether cudaupload takes @format */
static gboolean
uploads (GstVideoFormat format)
{
  GstElementFactory *f = gst_element_factory_find ("cudaupload");
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      gst_video_format_to_string (format), NULL);
  gboolean takes = f && gst_element_factory_can_sink_any_caps (f, caps);

  gst_caps_unref (caps);
  if (f)
    gst_object_unref (f);
  return takes;
}

/* whether @pipeline plays to EOS within @seconds, with no error; it is
 * stopped and unreffed */
static gboolean
plays_to_eos (GstElement * pipeline, guint seconds)
{
  GstMessage *msg;
  gboolean ok;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      seconds * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return ok;
}

/* whether GStreamer's own CUDA elements carry the frames of @src through
 * CUDA memory and back (1.26's cudaupload fails NV21 at 7x5 on its own:
 * "Failed to copy plane 1"); each @src played once, its answer kept in
 * @known for every filter after */
static gboolean
round_trips (GHashTable * known, const gchar * src)
{
  gpointer was;
  gchar *desc;
  GstElement *pipeline;
  gboolean ok;

  if (g_hash_table_lookup_extended (known, src, NULL, &was))
    return GPOINTER_TO_INT (was);
  desc = g_strdup_printf ("%s ! cudaupload ! " CUDA " ! cudadownload ! "
      "video/x-raw ! fakesink", src);
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL, "%s", desc);
  ok = plays_to_eos (pipeline, 30);
  if (!ok)
    g_printerr ("%s: fails without a cl element: left out\n", desc);
  g_free (desc);
  g_hash_table_insert (known, g_strdup (src), GINT_TO_POINTER (ok));
  return ok;
}

/* Every format a filter takes that cudaupload uploads, at odd sizes, in
 * CUDA memory in and out: equal to the element on the same frames in
 * system memory (where cudaupload and cudadownload carry them alone).
 * Some layouts (I420 at 7x5: its V plane 3,328 bytes in) put a plane
 * where no sub-buffer may start, so that each plane crosses in a copy of
 * its own. Packed 4:2:2 takes even widths: GStreamer 1.22's
 * CUDA copies (cudaupload's, cudadownload's) carry a row's width x 2
 * bytes, so of an odd width the last macropixel's V sample never reaches
 * the element. */
GST_START_TEST (test_uploaded_formats_and_sizes)
{
  static const gint sizes[][2] = { {7, 5}, {643, 363} };
  const gchar *const *names = cl_test_element_names ();
  GstVideoFormat formats[64];
  GHashTable *known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  guint i, j, k, n, cases = 0;

  for (i = 0; names[i]; i++) {
    ClTestElement e = cl_test_element (names[i]);

    if (!cl_test_element_is_filter (names[i]))
      continue;
    n = cl_test_element_formats (names[i], formats, G_N_ELEMENTS (formats));
    for (j = 0; j < n; j++) {
      if (!uploads (formats[j]))
        continue;
      for (k = 0; k < G_N_ELEMENTS (sizes); k++) {
        gboolean packed_422 = formats[j] == GST_VIDEO_FORMAT_YUY2 ||
            formats[j] == GST_VIDEO_FORMAT_UYVY ||
            formats[j] == GST_VIDEO_FORMAT_YVYU;
        gchar *src = g_strdup_printf ("videotestsrc num-buffers=3 "
            "pattern=zone-plate kx2=20 ky2=20 kt=1 ! video/x-raw,format=%s,"
            "width=%d,height=%d,framerate=30/1",
            gst_video_format_to_string (formats[j]), packed_422 ?
            GST_ROUND_UP_2 (sizes[k][0]) : sizes[k][0], sizes[k][1]);
        gchar *want_desc = g_strdup_printf ("%s ! %s %s ! video/x-raw ! "
            "appsink name=out sync=false", src, names[i],
            e.settings ? e.settings : "");
        gchar *cuda_desc = g_strdup_printf ("%s ! cudaupload ! " CUDA " ! "
            "%s %s ! " CUDA " ! cudadownload ! video/x-raw ! appsink "
            "name=out sync=false", src, names[i],
            e.settings ? e.settings : "");
        GPtrArray *want;

        if (round_trips (known, src)) {
          want = run_frames (want_desc);
          check_pipeline (cuda_desc, want);
          g_ptr_array_unref (want);
          cases++;
        }
        g_free (want_desc);
        g_free (cuda_desc);
        g_free (src);
      }
    }
  }
  g_hash_table_unref (known);
  g_printerr ("test_uploaded_formats_and_sizes: %u cases\n", cases);
  fail_unless (cases > 0, "cudaupload takes none of the filters' formats");
}

GST_END_TEST;

/* Two decoded inputs, the overlay half transparent and moved. */
GST_START_TEST (test_composite_two_decoded_inputs)
{
  gchar *a = clip_path (1), *b = clip_path (0);
  gchar *sa = decoded (a);
  gchar *sb = decoded (b);
  const gchar *mix = "clcomposite name=c sink_1::alpha=0.5 sink_1::xpos=100 "
      "sink_1::ypos=50";
  gchar *cuda = g_strdup_printf ("%s ! " CUDA " ! cudadownload ! video/x-raw ! "
      "appsink name=out sync=false  %s ! c.sink_0  %s ! c.sink_1", mix, sa,
      sb);
  gchar *host = g_strdup_printf ("%s ! video/x-raw ! appsink name=out "
      "sync=false  %s ! cudadownload ! video/x-raw ! c.sink_0  %s ! "
      "cudadownload ! video/x-raw ! c.sink_1", mix, sa, sb);
  GPtrArray *want = run_frames (host);

  check_pipeline (cuda, want);
  g_ptr_array_unref (want);
  g_free (cuda);
  g_free (host);
  g_free (sa);
  g_free (sb);
  g_free (a);
  g_free (b);
}

GST_END_TEST;

/* The message GStreamer's parser-driven NVDEC decoder (GstNvDec, the
 * nvh264dec of 1.22) logs when a flushing seek comes before the first frame
 * after the seek before it: its flush drains NVIDIA's parser, whose display
 * callback finishes the frames it held while the base class's output
 * segment is already undefined, and gst_video_decoder_finish_frame() clips
 * against it. The frames go nowhere (the pad is flushing) and nothing else
 * follows. The same seeks through identity in place of the cl elements log
 * it as often; 1.24's stateless nvh264dec never does. */
#define NVDEC_FLUSH_CRITICAL \
  "gst_segment_clip: assertion 'segment->format == format' failed"

/* counts the message, and has the check framework discard it */
static gboolean
count_message (const gchar * domain, GLogLevelFlags level,
    const gchar * message, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
  return TRUE;
}

/* Whether @pipeline's element @name is a GstNvDec; then its flush's message
 * is counted in @count rather than failing the test. */
static gboolean
tolerate_nvdec_flush (GstElement * pipeline, const gchar * name, gint * count)
{
  GstElement *dec = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GType nvdec = g_type_from_name ("GstNvDec");
  gboolean is = dec && nvdec && g_type_is_a (G_OBJECT_TYPE (dec), nvdec);
  gchar *escaped;

  if (is) {
    escaped = g_regex_escape_string (NVDEC_FLUSH_CRITICAL, -1);
    gst_check_add_log_filter ("GStreamer", G_LOG_LEVEL_CRITICAL,
        g_regex_new (escaped, 0, 0, NULL), count_message, count, NULL);
    g_free (escaped);
  }
  gst_clear_object (&dec);
  return is;
}

/* Flushing seeks, pauses and a stop with CUDA frames in flight through a
 * chain of every filter: the stream goes on to EOS, then tears down. */
GST_START_TEST (test_seeks_and_state_changes)
{
  gchar *path = clip_path (1);
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! "
      "nvh264dec name=dec ! " CUDA " ! clboxblur diameter=5 ! clsobel ! "
      "clepsilon threshold=20 ! " CUDA " ! fakesink name=out sync=true",
      path);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gint nvdec_flushes = 0;
  gboolean nvdec = tolerate_nvdec_flush (pipeline, "dec", &nvdec_flushes);
  guint i;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  for (i = 0; i < 6; i++) {
    g_usleep (150 * 1000);
    fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | (i % 2 ? GST_SEEK_FLAG_KEY_UNIT : 0),
            (i % 3) * GST_SECOND / 2));
    if (i == 3) {
      gst_element_set_state (pipeline, GST_STATE_PAUSED);
      gst_element_get_state (pipeline, NULL, NULL, 10 * GST_SECOND);
      gst_element_set_state (pipeline, GST_STATE_PLAYING);
    }
  }
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "no EOS after the seeks");
  gst_message_unref (msg);
  /* and once more, stopped in the middle */
  gst_element_seek_simple (pipeline, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, 0);
  g_usleep (200 * 1000);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  if (nvdec)
    g_printerr ("test_seeks_and_state_changes: GstNvDec's flush clipped "
        "against no segment %d times\n", g_atomic_int_get (&nvdec_flushes));
  gst_check_clear_log_filter ();
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

/* Plays @desc to EOS and returns the scheduling flags (CU_CTX_SCHED_*) of
 * the CUDA context its element "dec" was given, read through NVIDIA's
 * driver and GStreamer's CUDA library, which the plugin has loaded; -1
 * where the driver cannot say (no cuCtxGetFlags, before CUDA 12.1). */
static gint
decoder_context_sched (const gchar * desc)
{
  void *drv = dlopen ("libcuda.so.1", RTLD_NOW);
  void *lib = dlopen ("libgstcuda-1.0.so.0", RTLD_NOW);
  int (*push) (void *) = drv ? dlsym (drv, "cuCtxPushCurrent_v2") : NULL;
  int (*pop) (void **) = drv ? dlsym (drv, "cuCtxPopCurrent_v2") : NULL;
  int (*get_flags) (unsigned *) = drv ? dlsym (drv, "cuCtxGetFlags") : NULL;
  void *set_flags = drv ? dlsym (drv, "cuCtxSetFlags") : NULL;
  void *(*get_handle) (gpointer) = lib ?
      dlsym (lib, "gst_cuda_context_get_handle") : NULL;
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *dec = gst_bin_get_by_name (GST_BIN (pipeline), "dec");
  GstMessage *msg;
  GstContext *context;
  GObject *cuda;
  unsigned flags = 0;
  void *prev;
  gint sched = -1;

  fail_unless (push && pop && get_handle, "no CUDA driver or library");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s: no EOS",
      desc);
  gst_message_unref (msg);
  context = gst_element_get_context (dec, "gst.cuda.context");
  fail_unless (context != NULL, "the decoder has no CUDA context");
  cuda = g_value_get_object (gst_structure_get_value
      (gst_context_get_structure (context), "gst.cuda.context"));
  fail_unless (cuda != NULL);
  if (get_flags && set_flags) {
    fail_unless_equals_int (push (get_handle (cuda)), 0);
    fail_unless_equals_int (get_flags (&flags), 0);
    pop (&prev);
    sched = flags & 0x7;
  }
  gst_context_unref (context);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (dec);
  gst_object_unref (pipeline);
  dlclose (drv);
  dlclose (lib);
  return sched;
}

/* The decoder's CUDA context, left by GStreamer to the driver's heuristics
 * (which spin while a process has fewer contexts than cores), waits by
 * blocking once a cl element joins it; GST_CL_CUDA_SCHED names another
 * way, or auto none. */
GST_START_TEST (test_context_waits)
{
  gchar *path = clip_path (0);
  gchar *alone = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! "
      "nvh264dec name=dec ! " CUDA " ! fakesink", path);
  gchar *joined = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! "
      "nvh264dec name=dec ! " CUDA " ! clepsilon ! " CUDA " ! fakesink",
      path);
  gint made = decoder_context_sched (alone), sched;

  if (made < 0) {
    g_printerr ("test_context_waits: the driver has no cuCtxSetFlags "
        "(CUDA 12.1): not tested\n");
    goto done;
  }
  sched = decoder_context_sched (joined);
  fail_unless_equals_int (sched, made == 0 ? 0x4 : made);
  g_setenv ("GST_CL_CUDA_SCHED", "auto", TRUE);
  fail_unless_equals_int (decoder_context_sched (joined), made);
  g_setenv ("GST_CL_CUDA_SCHED", "spin", TRUE);
  fail_unless_equals_int (decoder_context_sched (joined), 0x1);
  g_setenv ("GST_CL_CUDA_SCHED", "sometimes", TRUE);
  fail_unless_equals_int (decoder_context_sched (joined),
      made == 0 ? 0x4 : made);
  g_unsetenv ("GST_CL_CUDA_SCHED");
done:
  g_free (alone);
  g_free (joined);
  g_free (path);
}

GST_END_TEST;

/* @desc to its end: the error it posts, else NULL at EOS; it must end
 * within 30 s and go to NULL */
static gchar *
run_to_end (const gchar * desc)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GError *err = NULL;
  gchar *message = NULL;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: neither an error nor EOS in 30 s", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    message = g_strdup (err->message);
    g_error_free (err);
  }
  gst_message_unref (msg);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return message;
}

/* With the OpenCL fault injector preloaded (tests/clfault.c), each call
 * that brings a frame between CUDA and OpenCL fails in turn: the import of
 * CUDA memory, the acquires and releases, the write of the fence a copy
 * out waits for on the GPU. Each ends in an error that names it, never a
 * crash or a hang. Then the fence's write fails on the device. */
GST_START_TEST (test_import_failure)
{
  /* the fence's write only where the driver lets a copy wait for it:
   * elsewhere no fence is written, and the frames go on to EOS */
  static const struct
  {
    const gchar *call, *named;
    gboolean fence;
  } calls[] = {
    {"clCreateBufferWithProperties", "CUDA", FALSE},
    {"clEnqueueAcquireExternalMemObjectsKHR",
        "clEnqueueAcquireExternalMemObjectsKHR", FALSE},
    {"clEnqueueReleaseExternalMemObjectsKHR",
        "clEnqueueReleaseExternalMemObjectsKHR", FALSE},
    {"clCreateSubBuffer", "clCreateSubBuffer", FALSE},
    {"clEnqueueWriteBuffer", "fence", TRUE},
  };
  void (*fail_names) (const char *) = dlsym (RTLD_DEFAULT,
      "clfault_fail_names");
  void (*fail_signals) (void) = dlsym (RTLD_DEFAULT, "clfault_fail_signals");
  unsigned (*doomed) (void) = dlsym (RTLD_DEFAULT, "clfault_doomed");
  void (*reset) (unsigned long) = dlsym (RTLD_DEFAULT, "clfault_reset");
  void *drv = dlopen ("libcuda.so.1", RTLD_NOW);
  /* as the plugin decides whether a copy out waits for a fence */
  gboolean fenced = drv && dlsym (drv, "cuStreamWaitValue32_v2") &&
      g_strcmp0 (g_getenv ("GST_CL_CUDA_FENCE"), "0") != 0;
  unsigned n_doomed;
  gchar *path = clip_path (0);
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! "
      "nvh264dec ! " CUDA " ! clepsilon threshold=20 ! " CUDA " ! fakesink",
      path);
  gchar *message;
  guint i;

  if (drv)
    dlclose (drv);
  if (!fail_names || !fail_signals || !doomed || !reset) {
    GST_WARNING ("skipped: the OpenCL fault injector is not preloaded");
    g_printerr ("test_import_failure: skipped, no fault injector preloaded\n");
    g_free (desc);
    g_free (path);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (calls); i++) {
    reset (0);
    fail_names (calls[i].call);
    message = run_to_end (desc);
    reset (0);
    g_printerr ("test_import_failure: %s: %s\n", calls[i].call,
        message ? message : "EOS (no fence used)");
    if (!message && calls[i].fence && !fenced)
      continue;
    fail_unless (message != NULL, "a failing %s gave no error", calls[i].call);
    fail_unless (strstr (message, calls[i].named) != NULL,
        "the error does not say what failed: %s", message);
    g_free (message);
  }

  /* the fence's write fails on the device, after it was enqueued: the copy
   * out waiting for it must not wait for good (where the driver lets a copy
   * out wait for one; else the frames go on, the host waiting) */
  reset (0);
  fail_signals ();
  message = run_to_end (desc);
  n_doomed = doomed ();
  reset (0);
  g_printerr ("test_import_failure: a fence's write failing on the device "
      "(%u doomed): %s\n", n_doomed, message ? message : "EOS");
  fail_unless (!fenced || n_doomed > 0, "no fence write was doomed");
  if (n_doomed > 0)
    fail_unless (message && strstr (message, "kernels") != NULL,
        "a failed fence write did not end in an error that says so: %s",
        message ? message : "EOS");
  else
    fail_unless (message == NULL, "%s", message);
  g_free (message);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

/* why the suite cannot run here, or NULL */
static const gchar *
missing (void)
{
  static const gchar *needed[] = { "nvh264dec", "h264parse", "cudadownload" };
  GstElementFactory *f = gst_element_factory_find ("clepsilon");
  const GList *t;
  gboolean cuda = FALSE;
  guint i;

  if (!f)
    return "no clepsilon: the plugin did not load";
  for (t = gst_element_factory_get_static_pad_templates (f); t; t = t->next) {
    GstCaps *caps = gst_static_pad_template_get_caps (t->data);
    guint j;

    for (j = 0; j < gst_caps_get_size (caps); j++)
      if (gst_caps_features_contains (gst_caps_get_features (caps, j),
              "memory:CUDAMemory"))
        cuda = TRUE;
    gst_caps_unref (caps);
  }
  gst_object_unref (f);
  if (!cuda)
    return "the elements offer no CUDA memory: no NVIDIA driver or no "
        "GStreamer CUDA library (GST_DEBUG=clcuda:4 says which)";
  for (i = 0; i < G_N_ELEMENTS (needed); i++) {
    if (!(f = gst_element_factory_find (needed[i])))
      return "no NVIDIA decoder elements (nvh264dec, cudadownload: "
          "gst-plugins-bad's nvcodec) or no h264parse, or no NVIDIA GPU for "
          "them";
    gst_object_unref (f);
  }
  return NULL;
}

/* the clips, from CL_TEST_CLIP_DIR or made here */
static gboolean
find_clips (void)
{
  static const gchar *sizes[] = { "642x362", "1280x720" };
  const gchar *dir = g_getenv ("CL_TEST_CLIP_DIR");
  guint i;

  if (dir) {
    clip_dir = g_strdup (dir);
    return TRUE;
  }
  clip_dir = g_dir_make_tmp ("clcuda-XXXXXX", NULL);
  for (i = 0; i < G_N_ELEMENTS (clips); i++) {
    gchar *path = clip_path (i);
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=30 pattern=smpte "
        "horizontal-speed=3 ! video/x-raw,format=I420,width=%.*s,height=%s,"
        "framerate=30/1 ! x264enc speed-preset=faster bframes=2 ! "
        "video/x-h264,stream-format=byte-stream ! filesink location=\"%s\"",
        (int) (strchr (sizes[i], 'x') - sizes[i]), sizes[i],
        strchr (sizes[i], 'x') + 1, path);
    GstElement *p = gst_parse_launch (desc, NULL);

    g_free (desc);
    g_free (path);
    if (!p || !plays_to_eos (p, 60))
      return FALSE;
  }
  return TRUE;
}

/* a test that sets it and fails leaves none to the next (CK_FORK=no) */
static void
unset_sched (void)
{
  g_unsetenv ("GST_CL_CUDA_SCHED");
}

static Suite *
cuda_suite (void)
{
  Suite *s = suite_create ("clcuda");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, NULL, unset_sched);
  tcase_add_test (tc, test_filters_exact);
  tcase_add_test (tc, test_uploaded_formats_and_sizes);
  tcase_add_test (tc, test_composite_two_decoded_inputs);
  tcase_add_test (tc, test_seeks_and_state_changes);
  tcase_add_test (tc, test_context_waits);
  tcase_add_test (tc, test_import_failure);
  return s;
}

int
main (int argc, char **argv)
{
  const gchar *why;
  Suite *s;
  int failed;

  gst_check_init (&argc, &argv);
  if ((why = missing ())) {
    g_print ("SKIP: CUDA memory not tested: %s\n", why);
    return 77;
  }
  if (!find_clips ()) {
    g_print ("SKIP: CUDA memory not tested: no clips (CL_TEST_CLIP_DIR, or "
        "x264enc to make them: gstreamer1.0-plugins-ugly)\n");
    return 77;
  }
  s = cuda_suite ();
  failed = gst_check_run_suite (s, "clcuda", __FILE__);
  return failed ? 1 : 0;
}
