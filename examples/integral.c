/* gstclfilters example: box sums in O(1) from clintegral's tables, in C
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * clintegral passes the video through and attaches to every buffer the
 * integral image of its luma, I(x,y) = the sum of Y over 0..x, 0..y, as a
 * GstCustomMeta named "GstClIntegralMeta". From it the sum (and so the mean)
 * of any rectangle takes four lookups, whatever its size: what box filters,
 * Viola-Jones features and local statistics are built on.
 *
 *   integral picture.png         # the mean brightness of some boxes
 *
 * Every box sum is checked against a loop over the pixels; the program
 * fails if one differs. Nothing here needs the plugin's headers: the meta is
 * read by name, its fields from its GstStructure.
 *
 * Build (with the plugin installed, or GST_PLUGIN_PATH=build/gst):
 *   cc integral.c -o integral $(pkg-config --cflags --libs gstreamer-1.0 \
 *       gstreamer-app-1.0 gstreamer-video-1.0)
 */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

/* I(x, y), 0 outside the picture (x or y = -1) */
static guint32
table_at (const guint8 * table, gint stride, gint x, gint y)
{
  if (x < 0 || y < 0)
    return 0;
  return ((const guint32 *) (table + (gsize) y * stride))[x];
}

/* The sum of the luma over x0..x1, y0..y1: four lookups. The table wraps
 * modulo 2^32 on huge pictures; so does this arithmetic, and the result is
 * exact for any box of fewer than 16.8 million pixels. */
static guint32
box_sum (const guint8 * table, gint stride, gint x0, gint y0, gint x1, gint y1)
{
  return table_at (table, stride, x1, y1) - table_at (table, stride, x0 - 1,
      y1) - table_at (table, stride, x1, y0 - 1) + table_at (table, stride,
      x0 - 1, y0 - 1);
}

/* The same sum the slow way, from the picture itself */
static guint32
box_sum_by_loop (const GstVideoFrame * frame, gint x0, gint y0, gint x1,
    gint y1)
{
  const guint8 *y_plane = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  guint32 sum = 0;

  for (gint y = y0; y <= y1; y++)
    for (gint x = x0; x <= x1; x++)
      sum += y_plane[(gsize) y * stride + x];
  return sum;
}

/* Reads one frame's table and checks a few boxes; returns how many
 * differed from the loop. */
static guint
check_sample (GstSample * sample)
{
  GstBuffer *buf = gst_sample_get_buffer (sample);
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buf, "GstClIntegralMeta");
  const GstStructure *s;
  GstBuffer *sum = NULL;
  GstVideoInfo info;
  GstVideoFrame frame;
  GstMapInfo map;
  gint stride, width, height, wrong = 0;

  if (!meta) {
    g_printerr ("no GstClIntegralMeta on the buffer\n");
    return 1;
  }
  s = gst_custom_meta_get_structure (meta);
  gst_structure_get (s, "sum", GST_TYPE_BUFFER, &sum, "stride", G_TYPE_INT,
      &stride, "width", G_TYPE_INT, &width, "height", G_TYPE_INT, &height,
      NULL);
  gst_video_info_from_caps (&info, gst_sample_get_caps (sample));
  gst_buffer_map (sum, &map, GST_MAP_READ);
  gst_video_frame_map (&frame, &info, buf, GST_MAP_READ);

  /* the whole picture, its quarters, a 9x9 box at the centre and the
   * single pixel at the bottom right */
  {
    const gint boxes[][4] = {
      {0, 0, width - 1, height - 1},
      {0, 0, width / 2 - 1, height / 2 - 1},
      {width / 2, height / 2, width - 1, height - 1},
      {MAX (width / 2 - 4, 0), MAX (height / 2 - 4, 0),
          MIN (width / 2 + 4, width - 1), MIN (height / 2 + 4, height - 1)},
      {width - 1, height - 1, width - 1, height - 1},
    };

    for (guint i = 0; i < G_N_ELEMENTS (boxes); i++) {
      const gint *b = boxes[i];
      guint32 fast, slow;
      gint n = (b[2] - b[0] + 1) * (b[3] - b[1] + 1);

      if (b[2] < b[0] || b[3] < b[1])
        continue;               /* a picture too small for this box */
      fast = box_sum (map.data, stride, b[0], b[1], b[2], b[3]);
      slow = box_sum_by_loop (&frame, b[0], b[1], b[2], b[3]);
      g_print ("box %4d,%-4d - %4d,%-4d: mean luma %6.2f%s\n", b[0], b[1],
          b[2], b[3], (gdouble) fast / n, fast == slow ? "" : "  WRONG");
      wrong += fast != slow;
    }
  }
  gst_video_frame_unmap (&frame);
  gst_buffer_unmap (sum, &map);
  gst_buffer_unref (sum);
  return wrong;
}

int
main (int argc, char **argv)
{
  GstElement *pipeline, *sink;
  GstSample *sample;
  GError *err = NULL;
  gchar *desc, *uri;
  guint wrong = 0, frames = 0;

  gst_init (&argc, &argv);
  if (argc < 2) {
    g_printerr ("usage: %s PICTURE-OR-VIDEO\n", argv[0]);
    return 2;
  }
  uri = gst_filename_to_uri (argv[1], NULL);
  /* clintegral takes GRAY8, NV12 or I420 and integrates the luma */
  desc = g_strdup_printf ("uridecodebin uri=\"%s\" ! videoconvert ! "
      "video/x-raw,format=GRAY8 ! clintegral ! appsink name=sink sync=false",
      uri);
  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  g_free (uri);
  if (!pipeline) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    wrong += check_sample (sample);
    gst_sample_unref (sample);
    frames++;
  }
  if (frames == 0) {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg) {
      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("error: %s\n", err->message);
      g_clear_error (&err);
      gst_message_unref (msg);
    }
    gst_object_unref (bus);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_print ("%u frames, %s\n", frames, wrong ? "some box sums WRONG" :
      "every box sum equal to the loop's");
  return frames == 0 || wrong ? 1 : 0;
}
