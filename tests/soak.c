/* gstclfilters: a long run of frames through a chain of cl elements
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Pushes N frames through `appsrc ! <chain> ! video/x-raw ! appsink`, the
 * chain's elements passing frames on in memory:OpenCL, and checks that
 * every frame comes out, once, in order (each carries its index as its
 * offset and a timestamp made from it), that the process's resident memory
 * stays flat after a warm-up, and, where nvidia-smi reports it, that the
 * device memory the process holds does too. Prints the samples and a
 * verdict; exits 0 only when all of it holds.
 *
 *   clfilters-soak                                    # 100000 1080p frames
 *   clfilters-soak --frames 1500 --width 640 --height 360
 *   clfilters-soak --chain "clboxblur diameter=9 ! clepsilon"
 */
#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static gint frames = 100000, width = 1920, height = 1080, samples = 20,
    inputs = 4;
static gdouble max_growth_mb = 4, warmup_share = 0.1;
static gchar *chain, *format;

static GOptionEntry entries[] = {
  {"frames", 'n', 0, G_OPTION_ARG_INT, &frames, "Frames pushed (100000)",
      "N"},
  {"width", 'W', 0, G_OPTION_ARG_INT, &width, "Frame width (1920)", "W"},
  {"height", 'H', 0, G_OPTION_ARG_INT, &height, "Frame height (1080)", "H"},
  {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Video format (NV12)",
      "FMT"},
  {"chain", 'c', 0, G_OPTION_ARG_STRING, &chain,
      "The cl elements (\"clboxblur ! clsobel ! clepsilon\")", "DESC"},
  {"samples", 's', 0, G_OPTION_ARG_INT, &samples,
      "Memory samples over the run (20)", "N"},
  {"warmup", 0, 0, G_OPTION_ARG_DOUBLE, &warmup_share,
      "Share of the frames before the baseline sample (0.1)", "F"},
  {"max-growth", 0, 0, G_OPTION_ARG_DOUBLE, &max_growth_mb,
      "Resident memory growth allowed after the warm-up, in MB (4)", "MB"},
  {"inputs", 0, 0, G_OPTION_ARG_INT, &inputs,
      "Different input frames, pushed in turn (4)", "N"},
  {NULL}
};

typedef struct
{
  gint64 rss, device;           /* bytes; device -1 where not reported */
  guint frame;
} Sample;

typedef struct
{
  GMutex lock;
  guint64 received;
  guint64 out_of_order;
  gchar *first_problem;
  GArray *samples;
  guint sample_every;
} Soak;

static gint64
resident_bytes (void)
{
  FILE *f = fopen ("/proc/self/statm", "r");
  long size = 0, resident = 0;

  if (!f)
    return -1;
  if (fscanf (f, "%ld %ld", &size, &resident) != 2)
    resident = -1;
  fclose (f);
  return resident < 0 ? -1 : (gint64) resident * sysconf (_SC_PAGESIZE);
}

/* The device memory this process holds, where nvidia-smi says; -1 where
 * nothing reports it (PoCL's CPU device has no such count). */
static gint64
device_bytes (void)
{
  gchar *out = NULL, **lines;
  gint64 bytes = -1;
  gchar *pid = g_strdup_printf ("%d", (gint) getpid ());

  if (!g_spawn_command_line_sync ("nvidia-smi --query-compute-apps="
          "pid,used_memory --format=csv,noheader,nounits", &out, NULL, NULL,
          NULL)) {
    g_free (pid);
    return -1;
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    gchar **f = g_strsplit (lines[i], ",", 2);

    if (f[0] && f[1] && g_str_equal (g_strstrip (f[0]), pid))
      bytes = g_ascii_strtoll (f[1], NULL, 10) * 1024 * 1024;
    g_strfreev (f);
  }
  g_strfreev (lines);
  g_free (out);
  g_free (pid);
  return bytes;
}

static void
take_sample (Soak * soak, guint frame)
{
  Sample s = { resident_bytes (), device_bytes (), frame };
  gchar device[32] = "not reported";

  g_array_append_val (soak->samples, s);
  if (s.device >= 0)
    g_snprintf (device, sizeof (device), "%.1f MB", s.device / 1048576.0);
  g_print ("frame %8u: RSS %8.1f MB, device %s\n", frame, s.rss / 1048576.0,
      device);
}

static void
note_problem (Soak * soak, gchar * text)
{
  if (!soak->first_problem)
    soak->first_problem = text;
  else
    g_free (text);
}

/* On the streaming thread: each frame must be the next one. */
static GstFlowReturn
new_sample (GstAppSink * sink, gpointer user_data)
{
  Soak *soak = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf = gst_sample_get_buffer (sample);
  guint64 index = GST_BUFFER_OFFSET (buf);

  g_mutex_lock (&soak->lock);
  if (index != soak->received || GST_BUFFER_PTS (buf) !=
      gst_util_uint64_scale (index, GST_SECOND, 30)) {
    soak->out_of_order++;
    note_problem (soak, g_strdup_printf ("frame %" G_GUINT64_FORMAT " (at %"
            GST_TIME_FORMAT ") came where %" G_GUINT64_FORMAT " was due",
            index, GST_TIME_ARGS (GST_BUFFER_PTS (buf)), soak->received));
  }
  soak->received++;
  if (soak->received % soak->sample_every == 0)
    take_sample (soak, soak->received);
  g_mutex_unlock (&soak->lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static GstBuffer *
input_frame (const GstVideoInfo * info, guint seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i + 4 <= map.size; i += 4) {
    guint32 v = g_rand_int (rand);

    memcpy (map.data + i, &v, 4);
  }
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
  return buf;
}

/* Pushes the frames, each a new buffer sharing the memory of one of the
 * inputs, stamped with its index; appsrc blocks when a few are queued. */
static void
push_frames (GstElement * src, const GstVideoInfo * info)
{
  GstBuffer **in = g_new (GstBuffer *, inputs);
  gint i;

  for (i = 0; i < inputs; i++)
    in[i] = input_frame (info, i);
  for (i = 0; i < frames; i++) {
    GstBuffer *buf = gst_buffer_copy (in[i % inputs]);

    GST_BUFFER_OFFSET (buf) = i;
    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, 30);
    GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (1, GST_SECOND, 30);
    if (gst_app_src_push_buffer (GST_APP_SRC (src), buf) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  for (i = 0; i < inputs; i++)
    gst_buffer_unref (in[i]);
  g_free (in);
}

/* Growth after the warm-up: the largest sample against the first one
 * taken after it. */
static gboolean
memory_flat (Soak * soak, gint64 * base, gint64 * peak, gint64 * end,
    gint64 * dev_growth)
{
  guint first = 0, i;

  while (first + 1 < soak->samples->len && g_array_index (soak->samples,
          Sample, first).frame < warmup_share * frames)
    first++;
  *base = g_array_index (soak->samples, Sample, first).rss;
  *peak = *base;
  *dev_growth = 0;
  for (i = first; i < soak->samples->len; i++) {
    Sample *s = &g_array_index (soak->samples, Sample, i);
    Sample *b = &g_array_index (soak->samples, Sample, first);

    *peak = MAX (*peak, s->rss);
    if (s->device >= 0 && b->device >= 0)
      *dev_growth = MAX (*dev_growth, s->device - b->device);
  }
  *end = g_array_index (soak->samples, Sample, soak->samples->len - 1).rss;
  return *peak - *base <= max_growth_mb * 1048576 &&
      *dev_growth <= max_growth_mb * 1048576;
}

static gchar *
run_pipeline (Soak * soak, const GstVideoInfo * info)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-bytes=%" G_GSIZE_FORMAT " ! %s ! video/x-raw ! appsink name=sink "
      "sync=false emit-signals=false", info->size * 3, chain);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *src, *sink;
  GstAppSinkCallbacks callbacks = { .new_sample = new_sample };
  GstCaps *caps = gst_video_info_to_caps (info);
  GstBus *bus;
  GstMessage *msg;
  gchar *error = NULL;

  if (!pipeline)
    return g_strdup_printf ("%s: %s", desc, err->message);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (src, "caps", caps, NULL);
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &callbacks, soak, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  take_sample (soak, 0);
  push_frames (src, info);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    error = g_strdup (err->message);
    g_clear_error (&err);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  gst_caps_unref (caps);
  g_free (desc);
  return error;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("- a long run through cl "
      "elements, every frame accounted for, memory flat");
  GError *err = NULL;
  Soak soak = { 0, };
  GstVideoInfo info;
  gint64 base, peak, end, dev_growth;
  gint64 start_us;
  gchar *error;
  gboolean ok;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (frames < 1 || samples < 2 || inputs < 1 || width < 1 || height < 1) {
    g_printerr ("--frames, --inputs, the size and --samples (2 or more) "
        "must be positive\n");
    return 2;
  }
  if (!chain)
    chain = g_strdup ("clboxblur ! clsobel ! clepsilon");
  if (!format)
    format = g_strdup ("NV12");
  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  GST_VIDEO_INFO_FPS_D (&info) = 1;

  g_mutex_init (&soak.lock);
  soak.samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  soak.sample_every = MAX (frames / samples, 1);
  g_print ("%d %s %dx%d frames through %s\n", frames, format, width, height,
      chain);
  start_us = g_get_monotonic_time ();
  error = run_pipeline (&soak, &info);
  ok = memory_flat (&soak, &base, &peak, &end, &dev_growth);
  g_print ("%" G_GUINT64_FORMAT " of %d frames out, %" G_GUINT64_FORMAT
      " out of order, in %.1f s (%.1f ms a frame)\n", soak.received, frames,
      soak.out_of_order, (g_get_monotonic_time () - start_us) / 1e6,
      (g_get_monotonic_time () - start_us) / 1e3 / MAX (soak.received, 1));
  g_print ("RSS after the warm-up %.1f MB, peak %.1f MB, at the end %.1f MB: "
      "%+.2f MB (%.1f MB allowed); device memory grew %.1f MB (0 where "
      "not reported)\n", base / 1048576.0, peak / 1048576.0,
      end / 1048576.0, (peak - base) / 1048576.0, max_growth_mb,
      dev_growth / 1048576.0);
  if (error)
    g_print ("error: %s\n", error);
  if (soak.first_problem)
    g_print ("first problem: %s\n", soak.first_problem);
  ok = ok && !error && !soak.first_problem && soak.received == (guint) frames;
  g_print ("verdict: %s\n", ok ? "PASS" : "FAIL");
  g_array_unref (soak.samples);
  g_free (soak.first_problem);
  g_free (error);
  g_mutex_clear (&soak.lock);
  g_free (chain);
  g_free (format);
  gst_deinit ();
  return ok ? 0 : 1;
}
