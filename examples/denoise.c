/* gstclfilters example: live denoising with clepsilon or cldenoise, from C
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A camera (or a video file) through clepsilon, which smooths the ringing
 * that cheap cameras and lossy codecs leave around edges, or with
 * --temporal through cldenoise, which takes a camera's own noise away over
 * time, to the screen:
 *
 *   denoise                      # the first camera, /dev/video0
 *   denoise clip.avi             # a video file instead
 *   denoise --temporal           # the camera's noise, its level printed
 *   denoise --sink fakesink --sweep clip.avi
 *
 * What an application does around such a pipeline: it changes the
 * filter's settings while PLAYING (--sweep: every second, clepsilon's
 * threshold or cldenoise's noise level), follows what the filter measures
 * (cldenoise's estimated-noise, notified where it changes), reports errors
 * from the bus, and stops cleanly on Ctrl-C: an EOS first, so that a file
 * being written is finished, then the NULL state.
 *
 * Build (with the plugin installed, or GST_PLUGIN_PATH=build/gst):
 *   cc denoise.c -o denoise $(pkg-config --cflags --libs gstreamer-1.0)
 */
#include <gst/gst.h>
#include <glib-unix.h>
#include <stdlib.h>

typedef struct
{
  GMainLoop *loop;
  GstElement *pipeline;
  GstElement *filter;
  gboolean temporal;
  guint frames;
  gboolean stopping;
  gint status;
} App;

/* Counts the frames that come out of the filter. */
static GstPadProbeReturn
count_frame (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  App *app = data;

  g_atomic_int_inc (&app->frames);
  return GST_PAD_PROBE_OK;
}

/* Ctrl-C: end the stream; the bus says when it has gone through. */
static gboolean
on_sigint (gpointer data)
{
  App *app = data;

  if (app->stopping) {
    g_print ("stopping now\n");
    g_main_loop_quit (app->loop);
    return G_SOURCE_REMOVE;
  }
  g_print ("Ctrl-C: ending the stream (again to stop at once)\n");
  app->stopping = TRUE;
  gst_element_send_event (app->pipeline, gst_event_new_eos ());
  return G_SOURCE_CONTINUE;
}

/* While PLAYING, the application may change the filter's properties from
 * any thread; the next frame takes them. cldenoise's noise level 0 goes
 * back to its own estimate. */
static gboolean
sweep_settings (gpointer data)
{
  App *app = data;
  static const guint thresholds[] = { 8, 20, 40, 20 };
  static const gdouble levels[] = { 10, 20, 0 };
  static guint i;

  if (app->temporal) {
    gdouble level = levels[i++ % G_N_ELEMENTS (levels)];

    g_object_set (app->filter, "noise-level", level, NULL);
    g_print ("noise level %g\n", level);
  } else {
    guint t = thresholds[i++ % G_N_ELEMENTS (thresholds)];

    g_object_set (app->filter, "threshold", t, NULL);
    g_print ("threshold %u\n", t);
  }
  return G_SOURCE_CONTINUE;
}

/* cldenoise measures the noise of the stream it takes, and notifies its
 * estimated-noise where a new value arrives: from the streaming thread,
 * so nothing here may block (g_print is safe from any thread). */
static void
on_estimate (GObject * filter, GParamSpec * pspec, gpointer data)
{
  gdouble level;

  g_object_get (filter, "estimated-noise", &level, NULL);
  g_print ("noise estimated %.2f\n", level);
}

static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer data)
{
  App *app = data;
  GError *err = NULL;
  gchar *debug = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &debug);
      g_printerr ("error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
          err->message, debug ? debug : "");
      g_clear_error (&err);
      g_free (debug);
      app->status = 1;
      g_main_loop_quit (app->loop);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, NULL);
      g_printerr ("warning from %s: %s\n", GST_OBJECT_NAME (msg->src),
          err->message);
      g_clear_error (&err);
      break;
    case GST_MESSAGE_EOS:
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  gchar *sink = NULL, *source, *desc;
  gboolean sweep = FALSE, temporal = FALSE;
  guint threshold = 20;
  GOptionEntry entries[] = {
    {"sink", 0, 0, G_OPTION_ARG_STRING, &sink,
        "Where the frames go (autovideosink)", "ELEMENT"},
    {"threshold", 't', 0, G_OPTION_ARG_INT, &threshold,
        "clepsilon's threshold to start with (20)", "N"},
    {"temporal", 0, 0, G_OPTION_ARG_NONE, &temporal,
        "cldenoise, a camera's noise over time, in place of clepsilon", NULL},
    {"sweep", 0, 0, G_OPTION_ARG_NONE, &sweep,
          "Change the threshold (or noise level) every second while playing",
        NULL},
    {NULL}
  };
  GOptionContext *options = g_option_context_new ("[VIDEO-FILE]");
  GError *err = NULL;
  App app = { 0, };
  GstPad *pad;
  GstBus *bus;

  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_add_group (options, gst_init_get_option_group ());
  if (!g_option_context_parse (options, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (options);

  /* a file, decoded whatever its format; else the camera */
  if (argc > 1) {
    gchar *uri = gst_filename_to_uri (argv[1], NULL);

    source = g_strdup_printf ("uridecodebin uri=\"%s\"", uri);
    g_free (uri);
  } else if (g_file_test ("/dev/video0", G_FILE_TEST_EXISTS)) {
    source = g_strdup ("v4l2src");
  } else {
    g_printerr ("no camera (/dev/video0): give a video file\n");
    return 2;
  }
  /* both take a camera's formats; videoconvert converts only what they do
   * not take */
  if (temporal)
    desc = g_strdup_printf ("%s ! videoconvert ! cldenoise name=filter ! "
        "videoconvert ! %s", source, sink ? sink : "autovideosink");
  else
    desc = g_strdup_printf ("%s ! videoconvert ! clepsilon name=filter "
        "threshold=%u ! videoconvert ! %s", source, threshold,
        sink ? sink : "autovideosink");
  app.pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  g_free (source);
  if (!app.pipeline) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  app.filter = gst_bin_get_by_name (GST_BIN (app.pipeline), "filter");
  app.temporal = temporal;
  if (temporal)
    g_signal_connect (app.filter, "notify::estimated-noise",
        G_CALLBACK (on_estimate), NULL);
  pad = gst_element_get_static_pad (app.filter, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame, &app, NULL);
  gst_object_unref (pad);

  app.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (app.pipeline);
  gst_bus_add_watch (bus, on_message, &app);
  g_unix_signal_add (SIGINT, on_sigint, &app);
  if (sweep)
    g_timeout_add_seconds (1, sweep_settings, &app);

  if (gst_element_set_state (app.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* the reason is on the bus: no device, no camera, ... */
    app.status = 1;
    while (g_main_context_iteration (NULL, FALSE));
  } else {
    g_main_loop_run (app.loop);
  }

  gst_element_set_state (app.pipeline, GST_STATE_NULL);
  g_print ("%u frames denoised%s\n", app.frames,
      app.stopping ? ", stopped cleanly" : "");
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  gst_object_unref (app.filter);
  gst_object_unref (app.pipeline);
  g_main_loop_unref (app.loop);
  g_free (sink);
  return app.status;
}
