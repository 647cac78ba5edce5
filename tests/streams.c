/* gstclfilters: many streams through cl elements at once, as a server runs them
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each stream is a branch `videotestsrc ! <caps> ! <element> ! video/x-raw !
 * fakesink`, frames from system memory in and back to system memory out.
 * Branches run in one pipeline per process, in one or more processes, live
 * (sources at the framerate, sinks in sync) or as fast as they go. After a
 * second of warm-up the program counts, over the measured seconds, the
 * frames that reach each sink and, live, those that reach it after their
 * time to be shown. It prints one Markdown table row: frames/s in all, per
 * stream, the streams that kept their full rate, CPU time per frame, the
 * part of it the streaming threads spent from the source's (or decoder's)
 * caps to the sink (the element's own, where no queue comes between) and,
 * where nvidia-smi is there, how busy each GPU was.
 *
 *   clfilters-streams --branches 32                      # not live
 *   clfilters-streams --branches 128 --live --seconds 10
 *   clfilters-streams --processes 2 --branches 16 --devices 0,1
 *
 * With --decode, each stream is an H.264 (or H.265) clip decoded on the GPU
 * instead, played in a loop (the clip read once, its bytes pushed again
 * and again by an appsrc): `appsrc ! h264parse ! nvh264dec ! <memory> !
 * <element> ! <memory> ! fakesink`, the frames in
 * CUDA memory (--memory cuda, the default) or downloaded by the decoder
 * (--memory system); --element none leaves the cl element out, the
 * decoders' own rate.
 *
 *   clfilters-streams --decode clip.h264 --branches 16
 *   clfilters-streams --decode clip.h264 --branches 16 --element none
 *   clfilters-streams --decode clip.h264 --pipelines 2 --branches 16 \
 *       --devices 0,1 --device-per-pipeline
 *
 * --threads prints, after the row, the CPU a frame of each kind of thread.
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static gint branches = 8, pipelines = 1, processes = 1, width = 1920,
    height = 1080, fps = 30, deadline_ms = -1;
static gdouble seconds = 5, warmup = 1;
static gboolean live, header, no_header, device_per_process,
    device_per_pipeline, no_qos, stagger, by_thread;
static gint process_index;
static gchar *element_desc, *format, *devices, *pattern, *decode, *memory,
    *decoder;

static GOptionEntry entries[] = {
  {"branches", 'b', 0, G_OPTION_ARG_INT, &branches,
      "Streams in each process (8)", "N"},
  {"pipelines", 0, 0, G_OPTION_ARG_INT, &pipelines,
      "Pipelines in each process, each with its branches and its own OpenCL "
        "context (1)", "N"},
  {"processes", 'p', 0, G_OPTION_ARG_INT, &processes,
      "Processes, each with its branches (1)", "N"},
  {"live", 'l', 0, G_OPTION_ARG_NONE, &live,
      "Sources at the framerate, sinks in sync with the clock and sending "
        "QoS events upstream, as video sinks do", NULL},
  {"no-qos", 0, 0, G_OPTION_ARG_NONE, &no_qos,
      "Live sinks without QoS: no late frame dropped upstream", NULL},
  {"stagger", 0, 0, G_OPTION_ARG_NONE, &stagger,
        "Live sources started one after another over a frame's period, so that "
        "their frames come at different instants, as independent cameras' "
        "do; by default every source makes its frames at the same instants",
      NULL},
  {"processing-deadline", 0, 0, G_OPTION_ARG_INT, &deadline_ms,
      "The sinks' processing-deadline in ms: the time a live frame has from "
        "its source to its sink, added to the pipeline's latency (default: "
        "the sink's, 20 ms)", "MS"},
  {"seconds", 's', 0, G_OPTION_ARG_DOUBLE, &seconds,
      "Seconds measured, after the warm-up (5)", "S"},
  {"warmup", 0, 0, G_OPTION_ARG_DOUBLE, &warmup,
        "Seconds before measuring, once every stream has shown a frame (1)",
      "S"},
  {"element", 'e', 0, G_OPTION_ARG_STRING, &element_desc,
      "The cl part of each branch (\"clepsilon threshold=20\")", "DESC"},
  {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Video format (NV12)",
      "FMT"},
  {"width", 'W', 0, G_OPTION_ARG_INT, &width, "Frame width (1920)", "W"},
  {"height", 'H', 0, G_OPTION_ARG_INT, &height, "Frame height (1080)", "H"},
  {"fps", 0, 0, G_OPTION_ARG_INT, &fps, "Frames a second (30)", "N"},
  {"pattern", 0, 0, G_OPTION_ARG_STRING, &pattern,
      "videotestsrc pattern (solid-color: the source costs little)", "P"},
  {"decode", 0, 0, G_OPTION_ARG_FILENAME, &decode,
      "Streams of this H.264 or H.265 clip (.h265, .hevc: H.265) decoded on "
        "the GPU by nvh264dec or nvh265dec, in a loop, instead of "
        "videotestsrc", "CLIP"},
  {"memory", 0, 0, G_OPTION_ARG_STRING, &memory,
      "With --decode, the frames in and out of the element: cuda (the "
        "default: memory:CUDAMemory) or system", "cuda|system"},
  {"decoder", 0, 0, G_OPTION_ARG_STRING, &decoder,
      "With --decode, the decoder element instead of NVIDIA's "
        "(openh264dec, avdec_h264: decoded on the CPU)", "NAME"},
  {"devices", 'd', 0, G_OPTION_ARG_STRING, &devices,
      "device-index of the cl elements, branch by branch in turn, e.g. 0,1 "
        "(default: the elements choose); with --decode, the CUDA devices "
        "of the decoders, which the cl elements follow", "LIST"},
  {"device-per-process", 0, 0, G_OPTION_ARG_NONE, &device_per_process,
      "--devices in turn process by process, not branch by branch", NULL},
  {"device-per-pipeline", 0, 0, G_OPTION_ARG_NONE, &device_per_pipeline,
        "--devices in turn pipeline by pipeline (--pipelines), not branch by "
        "branch: GStreamer 1.22 shares one CUDA context in a pipeline, so "
        "decoders of several GPUs in one pipeline each make their own",
      NULL},
  {"threads", 0, 0, G_OPTION_ARG_NONE, &by_thread,
      "After the row, the CPU ms a frame of each kind of thread (threads "
        "named alike, digits aside, summed), the most first: where the CPU "
        "goes, the drivers' threads included (one process only)", NULL},
  {"no-header", 0, 0, G_OPTION_ARG_NONE, &no_header, "Leave out the "
        "table's header, to add a row to the table of an earlier run", NULL},
  /* the default; kept for the scripts that ask for it */
  {"header", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &header,
      "Print the table's header", NULL},
  {NULL}
};

typedef struct
{
  gint frames, late;
  /* a frame's time to be shown: its running time plus this (base time and
   * latency), set once playing, after clock; until then none is late */
  gpointer deadline_offset;
  GstClock *clock;
  /* --stagger: the source, kept from playing until its turn */
  GstElement *src;
  /* the streaming thread's CPU time as the frame last left the source's
   * caps, that thread, and the CPU nanoseconds from there to the sink */
  gint64 in_ns;
  GThread *in_thread;
  gint64 element_ns;
} Stream;

typedef struct
{
  gint frames, late, full_streams, min_frames, max_frames, streams;
  /* startup: from the start to every stream's first frame; element: the
   * CPU seconds from the source's caps to the sink */
  gdouble cpu_seconds, elapsed, startup, element_seconds;
} Result;

static GstElement **pipeline;
static Stream *streams;
/* the measurement is over: the pipelines are being stopped */
static gint stopping;

static gint64
thread_cpu_ns (void)
{
  struct timespec t;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * G_GINT64_CONSTANT (1000000000) + t.tv_nsec;
}

/* a frame leaves the source's caps for the element */
static GstPadProbeReturn
frame_in (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Stream *s = data;

  s->in_thread = g_thread_self ();
  s->in_ns = thread_cpu_ns ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
count_frame (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Stream *s = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstEvent *event;
  gsize offset = GPOINTER_TO_SIZE (g_atomic_pointer_get (&s->deadline_offset));

  if (live && offset && GST_BUFFER_PTS_IS_VALID (buf) &&
      (event = gst_pad_get_sticky_event (pad, GST_EVENT_SEGMENT, 0))) {
    const GstSegment *seg;
    GstClockTime rt;

    gst_event_parse_segment (event, &seg);
    rt = gst_segment_to_running_time (seg, GST_FORMAT_TIME,
        GST_BUFFER_PTS (buf));
    if (GST_CLOCK_TIME_IS_VALID (rt) &&
        gst_clock_get_time (s->clock) > rt + offset)
      g_atomic_int_inc (&s->late);
    gst_event_unref (event);
  }
  /* the element's time, where it ran in the thread that took the frame in
   * (not after a queue) */
  if (s->in_thread == g_thread_self ())
    __atomic_add_fetch (&s->element_ns, thread_cpu_ns () - s->in_ns,
        __ATOMIC_RELAXED);
  g_atomic_int_inc (&s->frames);
  return GST_PAD_PROBE_OK;
}

/* the decoding source of branch @i on the GPU of device-index @dev (-1: the
 * first), NVIDIA's per-GPU decoder names as GStreamer 1.22 has them */
static gchar *
decode_source (gint i, gint dev)
{
  gboolean h265 = g_str_has_suffix (decode, ".h265") ||
      g_str_has_suffix (decode, ".hevc");
  const gchar *codec = h265 ? "h265" : "h264";
  gchar *dec = decoder ? g_strdup (decoder) : dev > 0 ?
      g_strdup_printf ("nv%sdevice%ddec", codec, dev) :
      g_strdup_printf ("nv%sdec", codec);
  gboolean cuda = g_strcmp0 (memory, "system") != 0;
  gchar *res = g_strdup_printf ("appsrc name=src%d format=bytes "
      "caps=video/x-%s,stream-format=byte-stream ! %sparse ! %s ! "
      "capsfilter name=in%d caps=\"video/x-raw%s\"", i, codec, codec, dec, i,
      cuda ? "(memory:CUDAMemory)" : "");

  g_free (dec);
  return res;
}

static gchar *
branch_description (gint i)
{
  gchar *dev = NULL, *deadline = NULL, *desc, *src, **list;
  const gchar *cl = element_desc ? element_desc : "clepsilon threshold=20";
  const gchar *out = decode && g_strcmp0 (memory, "system") != 0 ?
      "video/x-raw(memory:CUDAMemory)" : "video/x-raw";
  gint index = -1;

  if (devices) {
    list = g_strsplit (devices, ",", -1);
    index = atoi (list[(device_per_process ? process_index :
                device_per_pipeline ? i / branches : i) %
            g_strv_length (list)]);
    dev = g_strdup_printf (" device-index=%d", index);
    g_strfreev (list);
  }
  /* decoded streams: the list names the decoders' GPUs, and the cl
   * elements follow their frames there */
  if (g_strcmp0 (cl, "none") == 0 || decode) {
    if (g_strcmp0 (cl, "none") == 0)
      cl = "identity";
    g_clear_pointer (&dev, g_free);
  }
  if (deadline_ms >= 0)
    deadline = g_strdup_printf (" processing-deadline=%" G_GUINT64_FORMAT,
        (guint64) deadline_ms * GST_MSECOND);
  if (decode)
    src = decode_source (i, index);
  else
    src = g_strdup_printf ("videotestsrc name=src%d pattern=%s is-live=%d ! "
        "capsfilter name=in%d caps=\"video/x-raw,format=%s,width=%d,"
        "height=%d,framerate=%d/1\"", i, pattern ? pattern : "solid-color",
        live, i, format ? format : "NV12", width, height, fps);
  desc = g_strdup_printf ("%s ! %s%s ! %s ! fakesink name=sink%d sync=%d "
      "qos=%d async=%d%s", src, cl, dev ? dev : "", out, i, live,
      live && !no_qos, !stagger, deadline ? deadline : "");
  g_free (src);
  g_free (dev);
  g_free (deadline);
  return desc;
}

/* --decode: the clip's bytes, pushed again whenever a source asks */
static GstBuffer *clip;

static void
feed_clip (GstAppSrc * src, guint length, gpointer data)
{
  gst_app_src_push_buffer (src, gst_buffer_ref (clip));
}

static void
load_clip (void)
{
  gchar *bytes;
  gsize size;
  GError *err = NULL;

  if (!g_file_get_contents (decode, &bytes, &size, &err)) {
    g_printerr ("%s\n", err->message);
    exit (1);
  }
  clip = gst_buffer_new_wrapped (bytes, size);
}

static GstElement *
build_pipeline (gint first_branch, Stream * counters)
{
  GString *desc = g_string_new (NULL);
  GError *err = NULL;
  GstElement *p;
  gint i;

  for (i = 0; i < branches; i++) {
    gchar *b = branch_description (first_branch + i);

    g_string_append_printf (desc, "%s%s", i ? "  " : "", b);
    g_free (b);
  }
  p = gst_parse_launch (desc->str, &err);
  if (!p || err) {
    g_printerr ("pipeline: %s\n", err->message);
    exit (1);
  }
  g_string_free (desc, TRUE);
  for (i = 0; i < branches; i++) {
    gchar *name = g_strdup_printf ("sink%d", first_branch + i);
    gchar *src_name = g_strdup_printf ("src%d", first_branch + i);
    gchar *in_name = g_strdup_printf ("in%d", first_branch + i);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (p), name);
    GstElement *src = gst_bin_get_by_name (GST_BIN (p), src_name);
    GstElement *in = gst_bin_get_by_name (GST_BIN (p), in_name);
    GstPad *pad = gst_element_get_static_pad (sink, "sink");
    GstPad *in_pad = gst_element_get_static_pad (in, "src");

    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame,
        &counters[i], NULL);
    gst_pad_add_probe (in_pad, GST_PAD_PROBE_TYPE_BUFFER, frame_in,
        &counters[i], NULL);
    gst_object_unref (in_pad);
    gst_object_unref (in);
    g_free (in_name);
    if (decode)
      g_signal_connect (src, "need-data", G_CALLBACK (feed_clip), NULL);
    if (stagger) {
      counters[i].src = gst_object_ref (src);
      gst_element_set_locked_state (src, TRUE);
    }
    gst_object_unref (pad);
    gst_object_unref (src);
    gst_object_unref (sink);
    g_free (src_name);
    g_free (name);
  }
  return p;
}

static gdouble
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* --threads: each of this process's threads, by name with its digits
 * made '#', and the CPU nanoseconds it has used (the scheduler's count,
 * else the ticks of its stat); a thread is known by its id */
typedef struct
{
  gint tid;
  gchar *name;
  gint64 ns;
} ThreadCpu;

static GArray *threads_before, *threads_after;

static gint64
thread_ns (const gchar * dir)
{
  gchar *path = g_build_filename (dir, "schedstat", NULL), *text = NULL;
  gint64 ns = -1;

  if (g_file_get_contents (path, &text, NULL, NULL))
    ns = g_ascii_strtoll (text, NULL, 10);
  g_free (path);
  g_free (text);
  if (ns <= 0) {
    gchar *paren;
    guint64 utime = 0, stime = 0;

    path = g_build_filename (dir, "stat", NULL);
    /* the fields after the name, which may hold spaces: utime, stime are
     * the 12th and 13th */
    if (g_file_get_contents (path, &text, NULL, NULL) &&
        (paren = strrchr (text, ')')) &&
        sscanf (paren + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
            "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &utime, &stime) == 2)
      ns = (gint64) ((utime + stime) * (1e9 / sysconf (_SC_CLK_TCK)));
    g_free (path);
    g_free (text);
  }
  return ns;
}

static GArray *
threads_snapshot (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (ThreadCpu));
  GDir *d = g_dir_open ("/proc/self/task", 0, NULL);
  const gchar *e;

  while (d && (e = g_dir_read_name (d))) {
    gchar *dir = g_build_filename ("/proc/self/task", e, NULL);
    gchar *path = g_build_filename (dir, "comm", NULL), *comm = NULL, *c;
    ThreadCpu t = { atoi (e), NULL, thread_ns (dir) };

    if (t.ns >= 0 && g_file_get_contents (path, &comm, NULL, NULL)) {
      g_strstrip (comm);
      for (c = comm; *c; c++)
        if (g_ascii_isdigit (*c))
          *c = '#';
      t.name = comm;
      g_array_append_val (a, t);
    } else
      g_free (comm);
    g_free (path);
    g_free (dir);
  }
  if (d)
    g_dir_close (d);
  return a;
}

/* a kind of thread, the threads of one name */
typedef struct
{
  const gchar *name;
  gint threads;
  gint64 ns;
} ThreadKind;

static gint
by_ns_desc (gconstpointer a, gconstpointer b)
{
  gint64 x = ((const ThreadKind *) a)->ns, y = ((const ThreadKind *) b)->ns;

  return x < y ? 1 : x > y ? -1 : 0;
}

/* Prints, from the snapshots @before and @after, the CPU ms a frame of each
 * kind of thread (a thread not in @before counted from its start) */
static void
threads_print (GArray * before, GArray * after, gint frames)
{
  GArray *kinds = g_array_new (FALSE, TRUE, sizeof (ThreadKind));
  guint i, j;

  for (i = 0; i < after->len; i++) {
    const ThreadCpu *t = &g_array_index (after, ThreadCpu, i);
    ThreadKind *kind = NULL;
    gint64 ns = t->ns;

    for (j = 0; j < before->len; j++)
      if (g_array_index (before, ThreadCpu, j).tid == t->tid)
        ns -= g_array_index (before, ThreadCpu, j).ns;
    for (j = 0; j < kinds->len && !kind; j++)
      if (strcmp (g_array_index (kinds, ThreadKind, j).name, t->name) == 0)
        kind = &g_array_index (kinds, ThreadKind, j);
    if (!kind) {
      ThreadKind k = { t->name, 0, 0 };

      g_array_append_val (kinds, k);
      kind = &g_array_index (kinds, ThreadKind, kinds->len - 1);
    }
    kind->threads++;
    kind->ns += ns;
  }
  g_array_sort (kinds, by_ns_desc);
  g_print ("\n| threads | how many | CPU ms a frame |\n|---|---:|---:|\n");
  for (i = 0; i < kinds->len; i++) {
    const ThreadKind *k = &g_array_index (kinds, ThreadKind, i);

    if (k->ns > 0)
      g_print ("| %s | %d | %.3f |\n", k->name, k->threads,
          frames ? k->ns / 1e6 / frames : 0.0);
  }
  g_array_free (kinds, TRUE);
}

static void
threads_free (GArray * a)
{
  guint i;

  for (i = 0; a && i < a->len; i++)
    g_free (g_array_index (a, ThreadCpu, i).name);
  if (a)
    g_array_free (a, TRUE);
}

static gboolean
bus_error (GstBus * bus, GstMessage * msg, gpointer loop)
{
  GError *err = NULL;

  /* measured already: a decoder stopped as it negotiates says so */
  if (g_atomic_int_get (&stopping))
    return TRUE;
  gst_message_parse_error (msg, &err, NULL);
  g_printerr ("error from %s: %s\n", GST_OBJECT_NAME (msg->src), err->message);
  g_clear_error (&err);
  exit (1);
  return TRUE;
}

/* the frames and late frames of each stream so far; returns the CPU
 * seconds of all from the source's caps to the sink */
static gdouble
snapshot (gint * frames, gint * late)
{
  gint64 ns = 0;
  gint i;

  for (i = 0; i < pipelines * branches; i++) {
    frames[i] = g_atomic_int_get (&streams[i].frames);
    late[i] = g_atomic_int_get (&streams[i].late);
    ns += __atomic_load_n (&streams[i].element_ns, __ATOMIC_RELAXED);
  }
  return ns / 1e9;
}

static void
wait_seconds (gdouble s)
{
  g_usleep ((gulong) (s * G_USEC_PER_SEC));
}

/* Waits, at most @limit seconds, until each of the @n streams has shown a
 * frame: many live streams take seconds to start (each pipeline's buffers
 * pinned in the driver), and frames late then make a cascade that the
 * warm-up would otherwise measure. Returns the seconds waited. */
static gdouble
wait_every_stream (gint n, gdouble limit)
{
  gdouble t0 = g_get_monotonic_time () / 1e6, t = t0;
  gint i = 0;

  while (t - t0 < limit) {
    for (; i < n && g_atomic_int_get (&streams[i].frames) > 0; i++);
    if (i == n)
      break;
    g_usleep (20000);
    t = g_get_monotonic_time () / 1e6;
  }
  return t - t0;
}

/* Starts a pipeline; its frames' deadlines are known once it plays. */
static void
start_pipeline (GstElement * p, Stream * counters)
{
  GstBus *bus = gst_element_get_bus (p);
  GstClockTime latency = 0;
  GstQuery *q;
  gint i;

  gst_bus_enable_sync_message_emission (bus);
  g_signal_connect (bus, "sync-message::error", G_CALLBACK (bus_error), NULL);
  gst_object_unref (bus);
  if (gst_element_set_state (p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    g_printerr ("the pipeline did not start\n");
    exit (1);
  }
  gst_element_get_state (p, NULL, NULL, GST_CLOCK_TIME_NONE);
  /* --stagger: the pipeline plays (its sinks do not wait for a first
   * frame); a live source makes its first frame as it starts, the next
   * ones a period apart from it */
  for (i = 0; i < branches && counters[i].src; i++) {
    g_usleep (G_USEC_PER_SEC / fps / branches);
    gst_element_set_locked_state (counters[i].src, FALSE);
    gst_element_sync_state_with_parent (counters[i].src);
    gst_clear_object (&counters[i].src);
  }
  if (stagger)
    gst_bin_recalculate_latency (GST_BIN (p));
  q = gst_query_new_latency ();
  if (gst_element_query (p, q))
    gst_query_parse_latency (q, NULL, &latency, NULL);
  gst_query_unref (q);
  for (i = 0; i < branches; i++) {
    counters[i].clock = gst_pipeline_get_clock (GST_PIPELINE (p));
    g_atomic_pointer_set (&counters[i].deadline_offset,
        GSIZE_TO_POINTER (gst_element_get_base_time (p) + latency));
  }
}

/* Runs this process's pipelines and measures them. */
static Result
run_branches (gint first_branch)
{
  gint n_streams = pipelines * branches;
  gint *f0 = g_new0 (gint, n_streams), *l0 = g_new0 (gint, n_streams);
  gint *f1 = g_new0 (gint, n_streams), *l1 = g_new0 (gint, n_streams);
  gdouble t0, c0, e0;
  Result r = { 0, };
  gint i;

  streams = g_new0 (Stream, n_streams);
  pipeline = g_new0 (GstElement *, pipelines);
  for (i = 0; i < pipelines; i++)
    pipeline[i] = build_pipeline (first_branch + i * branches,
        &streams[i * branches]);
  for (i = 0; i < pipelines; i++)
    start_pipeline (pipeline[i], &streams[i * branches]);

  r.startup = wait_every_stream (n_streams, 120);
  wait_seconds (warmup);
  e0 = snapshot (f0, l0);
  t0 = g_get_monotonic_time () / 1e6;
  c0 = cpu_seconds ();
  if (by_thread)
    threads_before = threads_snapshot ();
  wait_seconds (seconds);
  if (by_thread)
    threads_after = threads_snapshot ();
  r.element_seconds = snapshot (f1, l1) - e0;
  r.elapsed = g_get_monotonic_time () / 1e6 - t0;
  r.cpu_seconds = cpu_seconds () - c0;

  r.streams = n_streams;
  r.min_frames = G_MAXINT;
  for (i = 0; i < n_streams; i++) {
    gint n = f1[i] - f0[i], late = l1[i] - l0[i];

    r.frames += n;
    r.late += late;
    r.min_frames = MIN (r.min_frames, n);
    r.max_frames = MAX (r.max_frames, n);
    /* a frame at either end of the window may fall out of it */
    if (live && late == 0 && n >= (gint) (fps * r.elapsed) - 1)
      r.full_streams++;
  }
  g_atomic_int_set (&stopping, 1);
  for (i = 0; i < pipelines; i++) {
    gst_element_set_state (pipeline[i], GST_STATE_NULL);
    gst_object_unref (pipeline[i]);
  }
  for (i = 0; i < n_streams; i++)
    gst_clear_object (&streams[i].clock);
  g_free (pipeline);
  g_free (streams);
  g_free (f0);
  g_free (l0);
  g_free (f1);
  g_free (l1);
  return r;
}

/* GPU utilization from nvidia-smi, sampled while the streams run. */
typedef struct
{
  GPid pid;
  gint out;
} Sampler;

static gboolean
sampler_start (Sampler * s)
{
  gchar *argv[] = { (gchar *) "nvidia-smi",
    (gchar *) "--query-gpu=index,utilization.gpu",
    (gchar *) "--format=csv,noheader,nounits", (gchar *) "-lms",
    (gchar *) "200", NULL
  };

  return g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
      G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &s->pid, NULL, &s->out, NULL,
      NULL);
}

/* "gpu0 71%, gpu1 68%": the mean over the samples taken after @skip s */
static gchar *
sampler_stop (Sampler * s, gdouble skip)
{
  gchar buf[65536];
  gssize n, len = 0;
  gdouble sum[16] = { 0, };
  gint count[16] = { 0, }, i, line = 0, per_round;
  GString *res = g_string_new (NULL);
  gchar **lines;

  kill (s->pid, SIGTERM);
  while (len < (gssize) sizeof (buf) - 1 &&
      (n = read (s->out, buf + len, sizeof (buf) - 1 - len)) > 0)
    len += n;
  buf[len] = 0;
  close (s->out);
  waitpid (s->pid, NULL, 0);
  g_spawn_close_pid (s->pid);

  lines = g_strsplit (buf, "\n", -1);
  /* a round of samples has a line per GPU; rounds come every 200 ms */
  for (per_round = 0; lines[per_round] && lines[per_round][0] &&
      g_ascii_strtoll (lines[per_round], NULL, 10) == per_round; per_round++);
  per_round = MAX (per_round, 1);
  for (line = 0; lines[line]; line++) {
    gint idx;
    gchar *comma = strchr (lines[line], ',');

    if (!comma || line / per_round < skip / 0.2)
      continue;
    idx = g_ascii_strtoll (lines[line], NULL, 10);
    if (idx < 0 || idx >= 16)
      continue;
    sum[idx] += g_ascii_strtod (comma + 1, NULL);
    count[idx]++;
  }
  g_strfreev (lines);
  for (i = 0; i < 16; i++)
    if (count[i])
      g_string_append_printf (res, "%sgpu%d %.0f%%", res->len ? ", " : "",
          i, sum[i] / count[i]);
  return g_string_free (res, res->len == 0);
}

static void
print_row (const Result * r, gint n_streams, const gchar * gpu)
{
  gdouble per_stream = r->frames / r->elapsed / n_streams;
  gchar *full = g_strdup_printf ("%d of %d", r->full_streams, n_streams);
  gchar *late = g_strdup_printf ("%d", r->late);
  gchar *per_process = pipelines > 1 ?
      g_strdup_printf (" (%d pipelines a process)", pipelines) : NULL;
  gchar *source = decode ? g_strdup_printf (" (decoded, %s memory)",
      g_strcmp0 (memory, "system") == 0 ? "system" : "CUDA") : NULL;

  if (!no_header)
    g_print
        ("| element | processes x branches | live | seconds | frames/s, all "
        "| frames/s a stream, min / mean / max | streams at full rate "
        "| late frames | CPU ms a frame | of it, source's caps to sink "
        "| GPU busy |\n"
        "|---|---|---|---:|---:|---|---:|---:|---:|---:|---|\n");
  g_print ("| %s%s%s%s%s | %d x %d%s | %s | %.1f | %.0f | %.1f / %.1f / %.1f "
      "| %s | %s | %.3f | %.3f | %s |\n",
      element_desc ? element_desc : "clepsilon threshold=20",
      source ? source : "", devices ? (decode ? " (decoders on GPU " :
          " (device-index ") : "", devices ? devices : "",
      devices ? (device_per_process ? " by process)" : device_per_pipeline ?
          " by pipeline)" : ")") : "", processes,
      branches, per_process ? per_process : "",
      stagger ? "yes, staggered" : live ? "yes" : "no", r->elapsed,
      r->frames / r->elapsed, r->min_frames / r->elapsed, per_stream,
      r->max_frames / r->elapsed, live ? full : "-", live ? late : "-",
      r->frames ? 1000.0 * r->cpu_seconds / r->frames : 0.0,
      r->frames ? 1000.0 * r->element_seconds / r->frames : 0.0,
      gpu ? gpu : "-");
  g_free (full);
  g_free (late);
  g_free (per_process);
  g_free (source);
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("- many streams through cl "
      "elements");
  GError *err = NULL;
  Sampler sampler;
  gboolean sampling;
  Result total = { 0, };
  gchar *gpu = NULL;
  gint fds[2], i;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (decode)
    load_clip ();
  if (by_thread && processes > 1) {
    g_printerr ("--threads measures one process only\n");
    return 2;
  }
  if (branches < 1 || pipelines < 1 || processes < 1 || seconds <= 0) {
    g_printerr ("--branches, --processes and --seconds must be positive\n");
    return 2;
  }
  /* only live sources are staggered */
  stagger = stagger && live;

  sampling = sampler_start (&sampler);
  if (processes == 1) {
    total = run_branches (0);
  } else {
    /* each child measures its branches and writes what it counted */
    if (pipe (fds) != 0)
      return 1;
    for (i = 0; i < processes; i++) {
      if (fork () == 0) {
        Result r;

        close (fds[0]);
        process_index = i;
        r = run_branches (i * pipelines * branches);
        if (write (fds[1], &r, sizeof (r)) != sizeof (r))
          _exit (1);
        _exit (0);
      }
    }
    close (fds[1]);
    total.min_frames = G_MAXINT;
    for (i = 0; i < processes; i++) {
      Result r;

      if (read (fds[0], &r, sizeof (r)) != sizeof (r)) {
        g_printerr ("a process did not finish\n");
        return 1;
      }
      total.frames += r.frames;
      total.late += r.late;
      total.full_streams += r.full_streams;
      total.min_frames = MIN (total.min_frames, r.min_frames);
      total.max_frames = MAX (total.max_frames, r.max_frames);
      total.cpu_seconds += r.cpu_seconds;
      total.element_seconds += r.element_seconds;
      total.elapsed = MAX (total.elapsed, r.elapsed);
      total.startup = MAX (total.startup, r.startup);
    }
    while (wait (NULL) > 0);
  }
  if (sampling)
    gpu = sampler_stop (&sampler, total.startup + warmup + 1);
  print_row (&total, processes * pipelines * branches, gpu);
  if (threads_after) {
    threads_print (threads_before, threads_after, total.frames);
    threads_free (threads_before);
    threads_free (threads_after);
  }
  g_printerr ("every stream showed a frame %.1f s after the start; the "
      "%.1f s measured began %.1f s after that\n", total.startup,
      total.elapsed, warmup);
  g_free (gpu);
  return 0;
}
