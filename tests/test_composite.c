/* gstclfilters tests: clcomposite against a C reference
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cltest.h"

#include <math.h>
#include <string.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/base/gstaggregator.h>

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_ARGB,
  GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU,
};

static const gchar *variants[] = { "reference", "optimized" };

/* alpha, xpos, ypos, width and height are sink_1's */
typedef struct
{
  gdouble alpha;
  gint gamma;
  gboolean over;
  gint xpos, ypos;
  gint width, height;
} Settings;

static void
push_one (GstElement * pipeline, const gchar * name, GstBuffer * buf,
    const GstVideoInfo * info)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstVideoInfo caps_info = *info;
  GstCaps *caps;

  GST_VIDEO_INFO_FPS_N (&caps_info) = 30;
  GST_VIDEO_INFO_FPS_D (&caps_info) = 1;
  caps = gst_video_info_to_caps (&caps_info);
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
      GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_object_unref (src);
}

/* One background and one overlay frame through @mixer (an element and its
 * settings, named c) in a pipeline, its output the background's size and
 * format; returns the output frame. */
static GstBuffer *
run_mixer (const gchar * mixer, GstBuffer * bg, const GstVideoInfo * bg_info,
    GstBuffer * ov, const GstVideoInfo * ov_info)
{
  gchar *desc = g_strdup_printf ("appsrc name=a format=time ! c.sink_0 "
      "appsrc name=b format=time ! c.sink_1 %s name=c ! video/x-raw,"
      "format=%s,width=%d,height=%d ! appsink name=out", mixer,
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (bg_info)),
      GST_VIDEO_INFO_WIDTH (bg_info), GST_VIDEO_INFO_HEIGHT (bg_info));
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *sink;
  GstSample *sample;
  GstBuffer *out;

  fail_unless (pipeline != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  push_one (pipeline, "a", gst_buffer_ref (bg), bg_info);
  push_one (pipeline, "b", gst_buffer_ref (ov), ov_info);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 30 * GST_SECOND);
  fail_unless (sample != NULL, "no frame out of %s", desc);
  out = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  return out;
}

/* clcomposite with @s on @variant */
static GstBuffer *
composite (GstBuffer * bg, const GstVideoInfo * bg_info, GstBuffer * ov,
    const GstVideoInfo * ov_info, const Settings * s, const gchar * variant)
{
  gchar alpha[G_ASCII_DTOSTR_BUF_SIZE];
  gchar *mixer = g_strdup_printf ("clcomposite gamma=%d operator=%s "
      "variant=%s sink_1::alpha=%s sink_1::xpos=%d sink_1::ypos=%d "
      "sink_1::width=%d sink_1::height=%d", s->gamma,
      s->over ? "over" : "blend", variant,
      g_ascii_dtostr (alpha, sizeof (alpha), s->alpha), s->xpos, s->ypos,
      s->width, s->height);
  GstBuffer *out = run_mixer (mixer, bg, bg_info, ov, ov_info);

  g_free (mixer);
  return out;
}

static gint
floor_div (gint a, gint d)
{
  return a >= 0 ? a / d : -((-a + d - 1) / d);
}

/* The C reference (tests/clref.c): docs/clcomposite.md's formulas in
 * doubles, the overlay scaled to @s's width x height by cl_ref_nearest ().
 * The kernels compute in floats: a difference of 1 is allowed, but where
 * the formula is exact in floats too (blend at alpha 0 or 1), which the
 * scaling is checked on. */
static void
check (GstBuffer * bg, const GstVideoInfo * bg_info, GstBuffer * ov,
    const GstVideoInfo * ov_info, GstBuffer * out, const Settings * s,
    const gchar * what)
{
  GstVideoFrame a, b, o;
  GstVideoInfo out_info;
  const GstVideoFormatInfo *finfo = bg_info->finfo;
  gboolean yuv = GST_VIDEO_FORMAT_INFO_IS_YUV (finfo);
  gint width = s->width > 0 ? s->width : GST_VIDEO_INFO_WIDTH (ov_info);
  gint height = s->height > 0 ? s->height : GST_VIDEO_INFO_HEIGHT (ov_info);
  gint tolerance = !s->over && (s->alpha == 0.0 || s->alpha == 1.0) ? 0 : 1;

  gst_video_info_set_format (&out_info, GST_VIDEO_INFO_FORMAT (bg_info),
      GST_VIDEO_INFO_WIDTH (bg_info), GST_VIDEO_INFO_HEIGHT (bg_info));
  fail_unless (gst_video_frame_map (&a, bg_info, bg, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, ov_info, ov, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&o, &out_info, out, GST_MAP_READ),
      "%s: the output is not a %dx%d frame", what, out_info.width,
      out_info.height);

  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    gint p = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
    gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&a, c);
    gint off = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
    gint w = GST_VIDEO_FRAME_COMP_WIDTH (&a, c);
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&a, c);
    /* the overlay frame's size in this plane, and the scaled overlay's */
    gint sw = GST_VIDEO_FRAME_COMP_WIDTH (&b, c);
    gint sh = GST_VIDEO_FRAME_COMP_HEIGHT (&b, c);
    gint bw = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, c, width);
    gint bh = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, c, height);
    gint ox = floor_div (s->xpos, 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c));
    gint oy = floor_div (s->ypos, 1 << GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c));
    gboolean is_alpha = c == GST_VIDEO_COMP_A;
    gint g = is_alpha || (yuv && c != 0) ? 0 : s->gamma;
    gboolean has_alpha = GST_VIDEO_FORMAT_INFO_HAS_ALPHA (finfo);
    gint a_off = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_A);
    gint a_plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, GST_VIDEO_COMP_A);

    for (gint y = 0; y < h; y++)
      for (gint x = 0; x < w; x++) {
        const guint8 *pa = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&a, p) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&a, p) + x * ps;
        const guint8 *po = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&o, p) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&o, p) + x * ps;
        /* x - ox in 64 bits: xpos may be far out */
        gint64 bx = (gint64) x - ox, by = (gint64) y - oy;
        gint A = pa[off], got = po[off], expected;

        if (bx < 0 || bx >= bw || by < 0 || by >= bh) {
          expected = CLAMP (A + g, 0, 255);
        } else {
          gint sx = cl_ref_nearest (bx, sw, bw);
          gint sy = cl_ref_nearest (by, sh, bh);
          const guint8 *pb = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&b, p) +
              sy * GST_VIDEO_FRAME_PLANE_STRIDE (&b, p) + sx * ps;
          gint aB = has_alpha ? ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&b,
                  a_plane) + sy * GST_VIDEO_FRAME_PLANE_STRIDE (&b,
                  a_plane) + sx * ps)[a_off] : 255;

          expected = cl_ref_composite (A, pb[off], aB, s->alpha, g, s->over,
              is_alpha);
        }
        if (ABS (got - expected) > tolerance)
          fail ("%s: component %u at (%d, %d) is %d, expected %d (A %d)",
              what, c, x, y, got, expected, A);
      }
  }
  gst_video_frame_unmap (&o);
  gst_video_frame_unmap (&b);
  gst_video_frame_unmap (&a);
}

static void
check_composite (GstVideoFormat format, gint bw, gint bh, gint ow, gint oh,
    const Settings * s, const gchar * variant)
{
  GstVideoInfo bg_info, ov_info;
  GstBuffer *bg = cl_test_frame_new (format, bw, bh, 5, bw * 3 + oh, &bg_info);
  GstBuffer *ov = cl_test_frame_new (format, ow, oh, 0, ow + bh, &ov_info);
  GstBuffer *out = composite (bg, &bg_info, ov, &ov_info, s, variant);
  gchar *what = g_strdup_printf ("%s %dx%d scaled to %dx%d over %dx%d at "
      "(%d, %d) alpha %g gamma %d %s %s", gst_video_format_to_string (format),
      ow, oh, s->width, s->height, bw, bh, s->xpos, s->ypos, s->alpha,
      s->gamma, s->over ? "over" : "blend", variant);

  check (bg, &bg_info, ov, &ov_info, out, s, what);
  g_free (what);
  gst_buffer_unref (out);
  gst_buffer_unref (ov);
  gst_buffer_unref (bg);
}

GST_START_TEST (test_formats_and_operators)
{
  static const Settings settings[] = {
    {0.3, 20, FALSE, 13, 7, 0, 0},
    {0.3, 20, TRUE, 13, 7, 0, 0},
    {0.5, 0, FALSE, 0, 0, 0, 0},
    {0.0, -30, TRUE, 3, 2, 0, 0},
    {1.0, 255, FALSE, 1, 1, 0, 0},
  };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
      for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
        check_composite (formats[f], 37, 23, 16, 10, &settings[i], variants[v]);
}

GST_END_TEST;

/* overlays partly outside, larger than the background, at odd and negative
 * positions, and wholly outside */
GST_START_TEST (test_clipping)
{
  static const Settings settings[] = {
    {0.25, 10, FALSE, -5, -3, 0, 0},
    {0.25, 10, TRUE, 30, 19, 0, 0},
    {0.6, -10, FALSE, -9, 4, 0, 0},
    {0.5, 5, FALSE, 40, 0, 0, 0},
  };

  /* the alpha's three places, and every chroma subsampling, where the
   * overlay's chroma lands by its own (NV21 and YV12 are NV12 and I420 with
   * the chroma planes' order changed) */
  static const GstVideoFormat clip_formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444,
    GST_VIDEO_FORMAT_YVYU
  };

  for (guint f = 0; f < G_N_ELEMENTS (clip_formats); f++)
    for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
      for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
        check_composite (clip_formats[f], 37, 23, 50, 41, &settings[i],
            variants[v]);
        check_composite (clip_formats[f], 37, 23, 7, 5, &settings[i],
            variants[v]);
      }
}

GST_END_TEST;

/* sink_1::width and height: the overlay scaled up and down, by odd factors,
 * in one dimension alone, larger than the background, partly outside, to
 * sizes past any output; exact where the blend is (alpha 1), the cases of
 * every format on both variants */
GST_START_TEST (test_scaling)
{
  static const Settings settings[] = {
    {1.0, 0, FALSE, 3, 2, 32, 20},
    {1.0, 0, FALSE, 5, 1, 8, 5},
    {1.0, 0, FALSE, -4, -3, 41, 29},
    {1.0, 0, FALSE, 9, 4, 11, 0},
    {1.0, 0, FALSE, 1, 3, -1, 7},
    {1.0, 0, FALSE, 2, 2, 1, 1},
    {1.0, 10, FALSE, 30, 15, G_MAXINT, G_MAXINT},
    {0.4, 12, FALSE, -3, 2, 23, 13},
    {0.6, 0, TRUE, 5, 5, 29, 7},
  };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
      for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
        check_composite (formats[f], 37, 23, 16, 10, &settings[i], variants[v]);
}

GST_END_TEST;

/* A frame of random bytes, opaque where it has an alpha channel */
static GstBuffer *
opaque_frame_new (GstVideoFormat format, gint width, gint height,
    guint32 seed, GstVideoInfo * info)
{
  GstBuffer *buf = cl_test_frame_new (format, width, height, 0, seed, info);
  GstVideoFrame frame;

  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  for (gint y = 0; y < height; y++)
    for (gint x = 0; x < width; x++)
      GST_VIDEO_FRAME_COMP_DATA (&frame, GST_VIDEO_COMP_A)[y *
          GST_VIDEO_FRAME_COMP_STRIDE (&frame, GST_VIDEO_COMP_A) +
          x * GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, GST_VIDEO_COMP_A)] = 255;
  gst_video_frame_unmap (&frame);
  return buf;
}

/* A frame of one colour, @rgba, opaque */
static GstBuffer *
flat_frame_new (GstVideoFormat format, gint width, gint height,
    const guint8 rgba[4], GstVideoInfo * info)
{
  GstBuffer *buf = cl_test_frame_new (format, width, height, 0, 0, info);
  GstVideoFrame frame;

  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  for (guint c = 0; c < 4; c++)
    for (gint y = 0; y < height; y++)
      for (gint x = 0; x < width; x++)
        GST_VIDEO_FRAME_COMP_DATA (&frame, c)[y *
            GST_VIDEO_FRAME_COMP_STRIDE (&frame, c) +
            x * GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c)] = rgba[c];
  gst_video_frame_unmap (&frame);
  return buf;
}

/* @got and @want, frames of @info, differ by at most 1 in every byte */
static void
check_within_1 (GstBuffer * got, GstBuffer * want, const GstVideoInfo * info,
    const gchar * what)
{
  GstVideoInfo out_info;
  GstVideoFrame g, w;

  gst_video_info_set_format (&out_info, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  fail_unless (gst_video_frame_map (&g, &out_info, got, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&w, &out_info, want, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&g); p++)
    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&g, p); y++)
      for (gint i = 0; i < GST_VIDEO_FRAME_COMP_WIDTH (&g, p) *
          GST_VIDEO_FRAME_COMP_PSTRIDE (&g, p); i++) {
        gint a = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&g, p))[y *
            GST_VIDEO_FRAME_PLANE_STRIDE (&g, p) + i];
        gint b = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&w, p))[y *
            GST_VIDEO_FRAME_PLANE_STRIDE (&w, p) + i];

        if (ABS (a - b) > 1)
          fail ("%s: byte %d of row %d is %d, compositor's %d", what, i, y,
              a, b);
      }
  gst_video_frame_unmap (&w);
  gst_video_frame_unmap (&g);
}

/* The same frames through "compositor @props" and "clcomposite @props
 * @extra": the same picture within 1 */
static void
check_like_compositor (GstBuffer * bg, const GstVideoInfo * bg_info,
    GstBuffer * ov, const GstVideoInfo * ov_info, const gchar * props,
    const gchar * extra)
{
  gchar *theirs = g_strdup_printf ("compositor %s", props);
  gchar *ours = g_strdup_printf ("clcomposite %s %s", extra, props);
  GstBuffer *want = run_mixer (theirs, bg, bg_info, ov, ov_info);
  GstBuffer *got = run_mixer (ours, bg, bg_info, ov, ov_info);
  gchar *what = g_strdup_printf ("%s, %s", gst_video_format_to_string
      (GST_VIDEO_INFO_FORMAT (bg_info)), ours);

  check_within_1 (got, want, bg_info, what);
  g_free (what);
  gst_buffer_unref (got);
  gst_buffer_unref (want);
  g_free (ours);
  g_free (theirs);
}

/* A compositor line and the same clcomposite line give the same picture
 * where the two do the same thing, in system memory: an opaque overlay
 * over an opaque background (compositor's over is then A (1 - a) + B a,
 * clcomposite's blend), anywhere and clipped; a translucent overlay with
 * operator=over (compositor's default operator); and an overlay of one
 * colour scaled, which compositor's filtering leaves one colour at these
 * sizes (it overshoots at some others: 8x6 to 36x22 gives 203 for 200) */
GST_START_TEST (test_like_compositor)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR
  };
  static const gchar *alphas[] = { "0", "0.2", "0.3", "0.5", "0.7", "1" };
  static const gint places[][2] = { {13, 7}, {-5, -3}, {30, 19} };
  static const gint sizes[][4] = { {20, 12, 5, 3}, {5, 3, -2, 4},
  {7, 13, 30, 15}, {30, 20, 0, 0}
  };
  static const guint8 colour[4] = { 200, 40, 90, 255 };

  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++) {
    GstVideoInfo bg_info, ov_info, flat_info;
    GstBuffer *bg = opaque_frame_new (fmts[f], 37, 23, 1, &bg_info);
    GstBuffer *ov = opaque_frame_new (fmts[f], 16, 10, 2, &ov_info);
    GstBuffer *see_through = cl_test_frame_new (fmts[f], 16, 10, 0, 3,
        &ov_info);
    GstBuffer *flat = flat_frame_new (fmts[f], 8, 6, colour, &flat_info);

    for (guint a = 0; a < G_N_ELEMENTS (alphas); a++)
      for (guint i = 0; i < G_N_ELEMENTS (places); i++) {
        gchar *props = g_strdup_printf ("sink_1::alpha=%s sink_1::xpos=%d "
            "sink_1::ypos=%d", alphas[a], places[i][0], places[i][1]);

        check_like_compositor (bg, &bg_info, ov, &ov_info, props, "");
        if (i == 0)
          check_like_compositor (bg, &bg_info, see_through, &ov_info, props,
              "operator=over");
        g_free (props);
      }
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
      gchar *props = g_strdup_printf ("sink_1::alpha=0.6 sink_1::width=%d "
          "sink_1::height=%d sink_1::xpos=%d sink_1::ypos=%d", sizes[i][0],
          sizes[i][1], sizes[i][2], sizes[i][3]);

      check_like_compositor (bg, &bg_info, flat, &flat_info, props, "");
      g_free (props);
    }
    gst_buffer_unref (flat);
    gst_buffer_unref (see_through);
    gst_buffer_unref (ov);
    gst_buffer_unref (bg);
  }
}

GST_END_TEST;

/* two real photos in a real pipeline, one scaled down over the other */
GST_START_TEST (test_real_photos)
{
  GstVideoInfo bg_info, ov_info;
  GstBuffer *bg = cl_test_photo_new (GST_VIDEO_FORMAT_NV12, 256, 192);
  GstBuffer *ov = cl_test_photo_new (GST_VIDEO_FORMAT_NV12, 100, 60);
  static const Settings s = { 0.4, 12, FALSE, 77, 41, 0, 0 };

  gst_video_info_set_format (&bg_info, GST_VIDEO_FORMAT_NV12, 256, 192);
  gst_video_info_set_format (&ov_info, GST_VIDEO_FORMAT_NV12, 100, 60);
  for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
    GstBuffer *out = composite (bg, &bg_info, ov, &ov_info, &s, variants[v]);

    check (bg, &bg_info, ov, &ov_info, out, &s, variants[v]);
    gst_buffer_unref (out);
  }
  gst_buffer_unref (ov);
  gst_buffer_unref (bg);
}

GST_END_TEST;

#define OUTPUT_FLAGS (GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

/* what gst-inspect shows: the properties that change the output are
 * controllable and may change while PLAYING, on the element and the
 * overlay's pad; the background's pad shows none of the overlay's, and the
 * zorders say which is on top */
GST_START_TEST (test_properties)
{
  static const gchar *element_props[] = { "alpha", "gamma", "operator" };
  static const gchar *pad_props[] = { "alpha", "xpos", "ypos", "width",
    "height"
  };
  GstElement *c = gst_element_factory_make ("clcomposite", NULL);
  GstPad *bg = gst_element_get_static_pad (c, "sink_0");
  GstPad *pad = gst_element_get_static_pad (c, "sink_1");
  gdouble alpha, pad_alpha;
  gint gamma, index, width, height;
  guint zorder[2];

  for (guint i = 0; i < G_N_ELEMENTS (element_props); i++) {
    GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (c),
        element_props[i]);

    fail_unless (pspec && (pspec->flags & OUTPUT_FLAGS) == OUTPUT_FLAGS,
        "clcomposite::%s", element_props[i]);
  }
  fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS (c),
          "alpha")->flags & G_PARAM_DEPRECATED, "alpha is not deprecated");
  for (guint i = 0; i < G_N_ELEMENTS (pad_props); i++) {
    GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
        (pad), pad_props[i]);

    fail_unless (pspec && (pspec->flags & OUTPUT_FLAGS) == OUTPUT_FLAGS,
        "sink_1::%s", pad_props[i]);
    fail_if (g_object_class_find_property (G_OBJECT_GET_CLASS (bg),
            pad_props[i]), "sink_0 shows %s", pad_props[i]);
  }
  g_object_get (c, "alpha", &alpha, "gamma", &gamma, "device-index", &index,
      NULL);
  g_object_get (pad, "alpha", &pad_alpha, "width", &width, "height", &height,
      "zorder", &zorder[1], NULL);
  g_object_get (bg, "zorder", &zorder[0], NULL);
  /* compositor's: the overlay as it is */
  fail_unless (pad_alpha == 1.0 && width == 0 && height == 0);
  fail_unless (alpha == 0.0 && gamma == 0 && index == -1);
  fail_unless (zorder[0] == 0 && zorder[1] == 1);
  gst_object_unref (pad);
  gst_object_unref (bg);
  gst_object_unref (c);
}

GST_END_TEST;

/* the element's alpha, deprecated, is the background's weight: setting it
 * or sink_1::alpha sets the other, each reading back what was written, and
 * old launch lines compose as they did */
GST_START_TEST (test_element_alpha)
{
  GstElement *c = gst_element_factory_make ("clcomposite", NULL);
  GstPad *pad = gst_element_get_static_pad (c, "sink_1");
  GstVideoInfo bg_info, ov_info;
  GstBuffer *bg = cl_test_frame_new (GST_VIDEO_FORMAT_RGBA, 37, 23, 0, 7,
      &bg_info);
  GstBuffer *ov = cl_test_frame_new (GST_VIDEO_FORMAT_RGBA, 16, 10, 0, 8,
      &ov_info);
  static const gdouble weights[] = { 0.0, 0.3, 0.75, 1.0 };
  gdouble alpha, pad_alpha;

  g_object_set (c, "alpha", 0.3, NULL);
  g_object_get (c, "alpha", &alpha, NULL);
  g_object_get (pad, "alpha", &pad_alpha, NULL);
  fail_unless (alpha == 0.3 && pad_alpha == 1.0 - 0.3);
  g_object_set (pad, "alpha", 0.25, NULL);
  g_object_get (c, "alpha", &alpha, NULL);
  g_object_get (pad, "alpha", &pad_alpha, NULL);
  fail_unless (alpha == 1.0 - 0.25 && pad_alpha == 0.25);
  gst_object_unref (pad);
  gst_object_unref (c);

  for (guint i = 0; i < G_N_ELEMENTS (weights); i++)
    for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
      gchar *mixer = g_strdup_printf ("clcomposite alpha=%g variant=%s "
          "sink_1::xpos=13 sink_1::ypos=7", weights[i], variants[v]);
      GstBuffer *out = run_mixer (mixer, bg, &bg_info, ov, &ov_info);
      Settings s = { 1.0 - weights[i], 0, FALSE, 13, 7, 0, 0 };

      check (bg, &bg_info, ov, &ov_info, out, &s, mixer);
      gst_buffer_unref (out);
      g_free (mixer);
    }
  gst_buffer_unref (ov);
  gst_buffer_unref (bg);
}

GST_END_TEST;

/* a background stream that ends before sending a frame: the overlay is
 * composed over black */
GST_START_TEST (test_no_background)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_RGBA
  };

  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++)
    for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
      GstElement *pipeline = gst_parse_launch ("appsrc name=a format=time ! "
          "c.sink_0 appsrc name=b format=time ! c.sink_1 clcomposite name=c "
          "sink_1::alpha=0.5 sink_1::xpos=4 sink_1::ypos=2 ! appsink name=out",
          NULL);
      GstElement *a = gst_bin_get_by_name (GST_BIN (pipeline), "a");
      GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
      GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
      GstVideoInfo info, ov_info;
      GstBuffer *ov = cl_test_frame_new (fmts[f], 8, 6, 0, 9, &ov_info);
      GstBuffer *black, *out;
      GstSample *sample;
      GstCaps *caps;
      GstMapInfo map;
      Settings s = { 0.5, 0, FALSE, 4, 2, 0, 0 };

      gst_util_set_object_arg (G_OBJECT (c), "variant", variants[v]);
      gst_video_info_set_format (&info, fmts[f], 16, 12);
      GST_VIDEO_INFO_FPS_N (&info) = 30;
      caps = gst_video_info_to_caps (&info);
      g_object_set (a, "caps", caps, NULL);
      gst_caps_unref (caps);
      gst_element_set_state (pipeline, GST_STATE_PLAYING);
      gst_app_src_end_of_stream (GST_APP_SRC (a));
      push_one (pipeline, "b", gst_buffer_ref (ov), &ov_info);
      sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          30 * GST_SECOND);
      fail_unless (sample != NULL, "no frame without a background");
      out = gst_buffer_ref (gst_sample_get_buffer (sample));
      gst_sample_unref (sample);

      /* the expected output: the overlay over a black frame */
      black = gst_buffer_new_allocate (NULL, info.size, NULL);
      gst_buffer_map (black, &map, GST_MAP_WRITE);
      for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
        for (gint y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&info, p); y++)
          for (gint i = 0; i < info.stride[p]; i++)
            map.data[info.offset[p] + y * info.stride[p] + i] =
                GST_VIDEO_INFO_IS_YUV (&info) ? (p == 0 ? 16 : 128) :
                (i % 4 == 3 ? 255 : 0);
      gst_buffer_unmap (black, &map);
      check (black, &info, ov, &ov_info, out, &s, "no background");

      gst_buffer_unref (black);
      gst_buffer_unref (ov);
      gst_buffer_unref (out);
      gst_element_set_state (pipeline, GST_STATE_NULL);
      gst_object_unref (sink);
      gst_object_unref (c);
      gst_object_unref (a);
      gst_object_unref (pipeline);
    }
}

GST_END_TEST;

/* downstream asks for an output larger or smaller than the background, with
 * every input's size fixed upstream: past the background's edges the output
 * is black, and what is past the output's is cut off */
GST_START_TEST (test_downstream_size)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12
  };
  static const gint sizes[][2] = { {48, 30}, {20, 13} };

  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++)
    for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
      for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
        gint w = sizes[z][0], h = sizes[z][1];
        /* linked downstream first, as gst-launch-1.0 would */
        gchar *desc = g_strdup_printf ("clcomposite name=c variant=%s "
            "sink_1::xpos=%d sink_1::ypos=%d ! video/x-raw,width=%d,"
            "height=%d ! appsink name=out appsrc name=a format=time ! "
            "video/x-raw,width=37,height=23 ! c.sink_0 appsrc name=b "
            "format=time ! video/x-raw,width=16,height=10 ! c.sink_1",
            variants[v], w - 18, h - 10, w, h);
        GstElement *pipeline = gst_parse_launch (desc, NULL);
        GstElement *sink;
        GstVideoInfo bg_info, ov_info, big_info;
        GstBuffer *bg = cl_test_frame_new (fmts[f], 37, 23, 0, 3, &bg_info);
        GstBuffer *ov = cl_test_frame_new (fmts[f], 16, 10, 0, 4, &ov_info);
        GstBuffer *big, *out;
        GstVideoFrame from, to;
        GstSample *sample;
        /* sink_1::alpha's default: the overlay as it is */
        Settings s = { 1.0, 0, FALSE, w - 18, h - 10, 0, 0 };

        fail_unless (pipeline != NULL, "could not link %s", desc);
        sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
        gst_element_set_state (pipeline, GST_STATE_PLAYING);
        push_one (pipeline, "a", gst_buffer_ref (bg), &bg_info);
        push_one (pipeline, "b", gst_buffer_ref (ov), &ov_info);
        sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
            30 * GST_SECOND);
        fail_unless (sample != NULL, "no frame out of %s", desc);
        out = gst_buffer_ref (gst_sample_get_buffer (sample));
        gst_sample_unref (sample);

        /* the expected background: the frame in the corner of a black one */
        gst_video_info_set_format (&big_info, fmts[f], w, h);
        big = gst_buffer_new_allocate (NULL, big_info.size, NULL);
        fail_unless (gst_video_frame_map (&to, &big_info, big, GST_MAP_WRITE));
        fail_unless (gst_video_frame_map (&from, &bg_info, bg, GST_MAP_READ));
        for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&to); p++) {
          guint8 *d = GST_VIDEO_FRAME_PLANE_DATA (&to, p);
          gint ds = GST_VIDEO_FRAME_PLANE_STRIDE (&to, p);
          gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&to, p);
          gint bytes = MIN (GST_VIDEO_FRAME_COMP_WIDTH (&from, p),
              GST_VIDEO_FRAME_COMP_WIDTH (&to, p)) *
              GST_VIDEO_FRAME_COMP_PSTRIDE (&from, p);

          for (gint y = 0; y < rows; y++)
            for (gint i = 0; i < ds; i++)
              d[y * ds + i] = GST_VIDEO_INFO_IS_YUV (&big_info) ?
                  (p == 0 ? 16 : 128) : (i % 4 == 3 ? 255 : 0);
          for (gint y = 0; y < MIN (rows, GST_VIDEO_FRAME_COMP_HEIGHT (&from,
                      p)); y++)
            memcpy (d + y * ds, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&from,
                    p) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&from, p), bytes);
        }
        gst_video_frame_unmap (&from);
        gst_video_frame_unmap (&to);
        check (big, &big_info, ov, &ov_info, out, &s, desc);

        gst_buffer_unref (big);
        gst_buffer_unref (out);
        gst_buffer_unref (ov);
        gst_buffer_unref (bg);
        gst_element_set_state (pipeline, GST_STATE_NULL);
        gst_object_unref (sink);
        gst_object_unref (pipeline);
        g_free (desc);
      }
}

GST_END_TEST;

/* Plays @desc to its end: an EOS or an error message. */
static GstMessageType
play_to_end (const gchar * desc)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GstMessageType type;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL, "%s did not end", desc);
  type = GST_MESSAGE_TYPE (msg);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return type;
}

/* pads of different formats: an error, not a silent drop */
GST_START_TEST (test_formats_differ)
{
  fail_unless (play_to_end ("clcomposite name=c ! fakesink "
          "videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,width=32,"
          "height=24 ! c.sink_0 videotestsrc num-buffers=2 ! "
          "video/x-raw,format=BGRA,width=16,height=12 ! c.sink_1") ==
      GST_MESSAGE_ERROR, "no error for an RGBA background and a BGRA overlay");
}

GST_END_TEST;

/* an input free to take any format takes the other's */
GST_START_TEST (test_format_follows_other_input)
{
  static const gchar *pads[][2] = { {"sink_0", "sink_1"}, {"sink_1",
      "sink_0"}
  };

  for (guint i = 0; i < G_N_ELEMENTS (pads); i++) {
    gchar *desc = g_strdup_printf ("clcomposite name=c ! fakesink "
        "videotestsrc num-buffers=2 ! video/x-raw,width=32,height=24 ! c.%s "
        "videotestsrc num-buffers=2 ! video/x-raw,format=BGRA,width=16,"
        "height=12 ! c.%s", pads[i][0], pads[i][1]);

    fail_unless (play_to_end (desc) == GST_MESSAGE_EOS, "%s did not play",
        desc);
    g_free (desc);
  }
}

GST_END_TEST;

/* two inputs both free to convert, from different formats, negotiating at
 * the same time: they settle on one format, whichever asks first */
GST_START_TEST (test_free_inputs_agree)
{
  for (guint i = 0; i < 5; i++)
    fail_unless (play_to_end ("clcomposite name=c ! fakesink videotestsrc "
            "num-buffers=3 ! video/x-raw,format=I420,width=32,height=24 ! "
            "videoconvert ! c.sink_0 videotestsrc num-buffers=3 ! "
            "video/x-raw,format=BGRA,width=16,height=12 ! videoconvert ! "
            "c.sink_1") == GST_MESSAGE_EOS, "run %u did not play", i);
}

GST_END_TEST;

/* downstream may ask for frames on the device, in formats without alpha
 * too */
GST_START_TEST (test_device_output_any_format)
{
  static const gchar *fmts[] = { "NV12", "I420", "xRGB", "RGBA" };

  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++) {
    gchar *desc = g_strdup_printf ("clcomposite name=c ! "
        "video/x-raw(memory:OpenCL),format=%s ! fakesink videotestsrc "
        "num-buffers=2 ! video/x-raw,format=%s,width=32,height=24 ! c.sink_0 "
        "videotestsrc num-buffers=2 ! video/x-raw,format=%s,width=16,"
        "height=12 ! c.sink_1", fmts[f], fmts[f], fmts[f]);

    fail_unless (play_to_end (desc) == GST_MESSAGE_EOS, "%s did not play",
        desc);
    g_free (desc);
  }
}

GST_END_TEST;

/* the output is labelled as the background: colorimetry, chroma siting and
 * pixel aspect ratio */
GST_START_TEST (test_output_labelled_as_background)
{
  GstElement *pipeline = gst_parse_launch ("clcomposite name=c ! "
      "appsink name=out videotestsrc num-buffers=1 ! video/x-raw,format=NV12,"
      "width=64,height=48,colorimetry=bt709,chroma-site=mpeg2,"
      "pixel-aspect-ratio=2/1 ! c.sink_0 videotestsrc num-buffers=1 ! "
      "video/x-raw,format=NV12,width=16,height=12 ! c.sink_1", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstSample *sample;
  GstVideoInfo info;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 30 * GST_SECOND);
  fail_unless (sample != NULL, "no output");
  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)));
  fail_unless (gst_video_colorimetry_matches (&info.colorimetry, "bt709"),
      "the output is not labelled bt709");
  fail_unless_equals_int (info.chroma_site, GST_VIDEO_CHROMA_SITE_MPEG2);
  fail_unless_equals_int (GST_VIDEO_INFO_PAR_N (&info), 2);
  fail_unless_equals_int (GST_VIDEO_INFO_PAR_D (&info), 1);
  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* downstream may ask a framerate other than sink_0's */
GST_START_TEST (test_downstream_framerate)
{
  fail_unless (play_to_end ("clcomposite name=c ! "
          "video/x-raw,framerate=30/1 ! fakesink videotestsrc num-buffers=5 ! "
          "video/x-raw,format=RGBA,width=32,height=24,framerate=25/1 ! "
          "c.sink_0 videotestsrc num-buffers=5 ! video/x-raw,format=RGBA,"
          "width=16,height=12,framerate=25/1 ! c.sink_1") == GST_MESSAGE_EOS,
      "25/1 inputs did not make 30/1 output");
}

GST_END_TEST;

/* The frames out of @pipeline (in PLAYING), up to its EOS */
static guint
frames_to_eos (GstElement * pipeline)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstSample *sample;
  guint n = 0;

  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              30 * GST_SECOND))) {
    gst_sample_unref (sample);
    n++;
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)), "no EOS");
  gst_object_unref (sink);
  return n;
}

/* an input left unlinked neither stalls the other nor keeps the output from
 * ending */
GST_START_TEST (test_unlinked_input)
{
  static const gchar *pads[] = { "sink_0", "sink_1" };

  for (guint i = 0; i < G_N_ELEMENTS (pads); i++) {
    gchar *desc = g_strdup_printf ("clcomposite name=c ! appsink name=out "
        "sync=false videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,"
        "width=32,height=24 ! c.%s", pads[i]);
    GstElement *pipeline = gst_parse_launch (desc, NULL);

    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    fail_unless_equals_int (frames_to_eos (pipeline), 3);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
    g_free (desc);
  }
}

GST_END_TEST;

/* a flushing seek with an input unlinked: frames again from the seek on,
 * up to EOS */
GST_START_TEST (test_seek_with_unlinked_input)
{
  /* no num-buffers: a source counts those from its start, not the seek's,
   * and may have made them all, queued on the mixer's pad, before it */
  GstElement *pipeline = gst_parse_launch ("clcomposite name=c ! "
      "appsink name=out sync=false max-buffers=2 videotestsrc "
      "! video/x-raw,format=RGBA,width=32,height=24 ! c.sink_0", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (guint i = 0; i < 5; i++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        30 * GST_SECOND);

    fail_unless (sample != NULL, "no frame before the seek");
    gst_sample_unref (sample);
  }
  /* the first half second again: its 15 frames, then the end */
  fail_unless (gst_element_seek (pipeline, 1.0, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET,
          GST_SECOND / 2));
  fail_unless_equals_int (frames_to_eos (pipeline), 15);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* an input unlinked while playing is ended as one never linked: the other
 * plays to its end */
GST_START_TEST (test_input_unlinked_while_playing)
{
  GstElement *pipeline = gst_parse_launch ("clcomposite name=c ! "
      "appsink name=out sync=false max-buffers=2 videotestsrc num-buffers=30 "
      "! video/x-raw,format=RGBA,width=32,height=24 ! c.sink_0 videotestsrc "
      "name=ov ! video/x-raw,format=RGBA,width=16,height=12 ! c.sink_1",
      NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  GstPad *overlay = gst_element_get_static_pad (c, "sink_1");
  GstPad *peer;
  GstSample *sample;
  guint n;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 30 * GST_SECOND);
  fail_unless (sample != NULL);
  gst_sample_unref (sample);
  peer = gst_pad_get_peer (overlay);
  fail_unless (gst_pad_unlink (peer, overlay));
  n = 1 + frames_to_eos (pipeline);
  fail_unless_equals_int (n, 30);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (peer);
  gst_object_unref (overlay);
  gst_object_unref (c);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* A branch of @pipeline from @desc, linked to @pad of @c and started */
static void
add_branch (GstElement * pipeline, GstElement * c, const gchar * desc,
    const gchar * pad)
{
  GError *err = NULL;
  GstElement *branch = gst_parse_bin_from_description (desc, TRUE, &err);

  fail_unless (branch != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "no bin");
  gst_bin_add (GST_BIN (pipeline), branch);
  fail_unless (gst_element_link_pads (branch, "src", c, pad));
  gst_element_sync_state_with_parent (branch);
}

/* both inputs linked after the grace for unlinked pads: nothing was ended,
 * every frame comes out */
GST_START_TEST (test_inputs_linked_late)
{
  GstElement *pipeline = gst_parse_launch ("clcomposite name=c ! "
      "appsink name=out sync=false", NULL);
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  g_usleep (800 * 1000);
  add_branch (pipeline, c, "videotestsrc num-buffers=3 ! capsfilter "
      "caps=video/x-raw,format=RGBA,width=32,height=24", "sink_0");
  add_branch (pipeline, c, "videotestsrc num-buffers=3 ! capsfilter "
      "caps=video/x-raw,format=RGBA,width=16,height=12", "sink_1");
  fail_unless_equals_int (frames_to_eos (pipeline), 3);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (c);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* an input free to take any format linked while the other, as free, has
 * just negotiated on its own (its caps on their way into the element): the
 * two agree, on the first format in downstream's order, whichever thread
 * is first */
GST_START_TEST (test_input_linked_as_other_negotiates)
{
  for (guint i = 0; i < 10; i++) {
    GstElement *pipeline = gst_parse_launch ("clcomposite name=c ! "
        "appsink name=out sync=false", NULL);
    GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
    GstSample *sample;
    GstVideoInfo info;
    guint n = 1;

    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    add_branch (pipeline, c, "videotestsrc num-buffers=3 ! capsfilter "
        "caps=video/x-raw,width=32,height=24", "sink_0");
    /* a little later each time, across the first input's negotiation */
    g_usleep (i * 200);
    add_branch (pipeline, c, "videotestsrc num-buffers=3 "
        "pattern=ball ! capsfilter caps=video/x-raw,width=16,height=12",
        "sink_1");
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        30 * GST_SECOND);
    fail_unless (sample != NULL, "run %u: no output", i);
    fail_unless (gst_video_info_from_caps (&info,
            gst_sample_get_caps (sample)));
    fail_unless_equals_string (gst_video_format_to_string
        (GST_VIDEO_INFO_FORMAT (&info)), "RGBA");
    gst_sample_unref (sample);
    n += frames_to_eos (pipeline);
    fail_unless_equals_int (n, 3);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (sink);
    gst_object_unref (c);
    gst_object_unref (pipeline);
  }
}

GST_END_TEST;

/* an overlay linked once the element has ended its unlinked stream: the
 * frames after the link have it */
GST_START_TEST (test_overlay_linked_late)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=a format=time ! "
      "c.sink_0 clcomposite name=c sink_1::xpos=2 sink_1::ypos=1 ! "
      "appsink name=out", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstElement *a = gst_bin_get_by_name (GST_BIN (pipeline), "a");
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  GstElement *b = gst_element_factory_make ("appsrc", "b");
  GstVideoInfo bg_info, ov_info;
  GstBuffer *bg = cl_test_frame_new (GST_VIDEO_FORMAT_RGBA, 16, 12, 0, 5,
      &bg_info);
  GstBuffer *ov = cl_test_frame_new (GST_VIDEO_FORMAT_RGBA, 8, 6, 0, 6,
      &ov_info);
  GstBuffer *buf, *out;
  GstSample *sample;
  GstCaps *caps;
  GstPad *overlay;
  Settings s = { 1.0, 0, FALSE, 2, 1, 0, 0 };

  GST_VIDEO_INFO_FPS_N (&bg_info) = GST_VIDEO_INFO_FPS_N (&ov_info) = 30;
  caps = gst_video_info_to_caps (&bg_info);
  g_object_set (a, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  /* the first frame, without the overlay, after the grace for late links */
  buf = gst_buffer_copy (bg);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  gst_app_src_push_buffer (GST_APP_SRC (a), buf);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 30 * GST_SECOND);
  fail_unless (sample != NULL, "no frame without an overlay");
  gst_sample_unref (sample);

  /* linked now */
  caps = gst_video_info_to_caps (&ov_info);
  g_object_set (b, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  gst_caps_unref (caps);
  gst_bin_add (GST_BIN (pipeline), b);
  fail_unless (gst_element_link_pads (b, "src", c, "sink_1"));
  gst_element_sync_state_with_parent (b);
  buf = gst_buffer_copy (ov);
  GST_BUFFER_PTS (buf) = GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  gst_app_src_push_buffer (GST_APP_SRC (b), buf);
  gst_app_src_end_of_stream (GST_APP_SRC (b));
  /* the next background frame once the overlay is there, as a live source
   * would send it */
  overlay = gst_element_get_static_pad (c, "sink_1");
  for (guint i = 0; i < 1000 && !gst_aggregator_pad_has_buffer
      (GST_AGGREGATOR_PAD (overlay)); i++)
    g_usleep (10000);
  gst_object_unref (overlay);
  buf = gst_buffer_copy (bg);
  GST_BUFFER_PTS (buf) = GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  gst_app_src_push_buffer (GST_APP_SRC (a), buf);
  gst_app_src_end_of_stream (GST_APP_SRC (a));

  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 30 * GST_SECOND);
  fail_unless (sample != NULL, "no frame after the overlay was linked");
  out = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  check (bg, &bg_info, ov, &ov_info, out, &s, "overlay linked late");

  gst_buffer_unref (out);
  gst_buffer_unref (ov);
  gst_buffer_unref (bg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (c);
  gst_object_unref (a);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* frames over what the device takes: a clear error at negotiation, before
 * anything is allocated */
GST_START_TEST (test_frame_too_large)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=a format=time "
      "caps=video/x-raw,format=RGBA,width=23171,height=23171,framerate=30/1 ! "
      "c.sink_0 clcomposite name=c ! fakesink", NULL);
  GstElement *a = gst_bin_get_by_name (GST_BIN (pipeline), "a");
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gboolean found = FALSE;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (a), gst_buffer_new_allocate (NULL, 16,
          NULL));
  while (!found && (msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
              GST_MESSAGE_ERROR))) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    found = GST_MESSAGE_SRC (msg) == GST_OBJECT (c) &&
        g_error_matches (err, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_NO_SPACE_LEFT) &&
        strstr (err->message, "23171x23171 frames are too large") != NULL;
    g_error_free (err);
    gst_message_unref (msg);
  }
  fail_unless (found, "no error from clcomposite naming the frame size");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (c);
  gst_object_unref (a);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* interlaced frames on one input: refused with an error, whatever the other
 * input does */
GST_START_TEST (test_interlaced_input)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=RGBA,width=32,height=24 ! c.sink_0 appsrc name=b "
      "format=time ! c.sink_1 clcomposite name=c ! fakesink", NULL);
  GstElement *b = gst_bin_get_by_name (GST_BIN (pipeline), "b");
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=RGBA,width=16,"
      "height=8,framerate=30/1,interlace-mode=interleaved");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 8 * 4, NULL);
  GstMessage *msg;

  g_object_set (b, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_buffer_memset (buf, 0, 0, 16 * 8 * 4);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  gst_app_src_push_buffer (GST_APP_SRC (b), buf);
  gst_app_src_end_of_stream (GST_APP_SRC (b));
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "interlaced input was not refused");
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (b);
  gst_object_unref (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_caps_rejected)
{
  GstElement *c = gst_element_factory_make ("clcomposite", NULL);
  GstPad *pad = gst_element_get_static_pad (c, "sink_0");
  GstPad *overlay = gst_element_get_static_pad (c, "sink_1");
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=GRAY8,"
      "width=8,height=8,framerate=30/1");
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;

  fail_unless (pad != NULL && overlay != NULL, "sink_0 and sink_1 are "
      "always pads");
  gst_object_unref (overlay);
  gst_element_set_bus (c, bus);
  /* a query is answered without a word: decodebin and playbin probe */
  fail_if (gst_pad_query_accept_caps (pad, caps), "GRAY8 was accepted");
  fail_if (gst_bus_have_pending (bus), "a warning for a query");
  /* a stream in GRAY8 is refused with a warning */
  fail_unless (gst_element_set_state (c, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_pad_send_event (pad, gst_event_new_stream_start ("gray")));
  fail_if (gst_pad_send_event (pad, gst_event_new_caps (caps)),
      "GRAY8 was accepted");
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "GRAY8 refused without a word");
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "RGBA BGRA ARGB ABGR RGBx BGRx xRGB "
          "xBGR NV12 NV21 I420 YV12 Y42B Y444"),
      "\"%s\" does not name the formats", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_state (c, GST_STATE_NULL);
  gst_element_set_bus (c, NULL);
  gst_object_unref (bus);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (c);
}

GST_END_TEST;

static Suite *
composite_suite (void)
{
  Suite *s = suite_create ("clcomposite");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_formats_and_operators);
  tcase_add_test (tc, test_clipping);
  tcase_add_test (tc, test_scaling);
  tcase_add_test (tc, test_like_compositor);
  tcase_add_test (tc, test_real_photos);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_element_alpha);
  tcase_add_test (tc, test_no_background);
  tcase_add_test (tc, test_downstream_size);
  tcase_add_test (tc, test_formats_differ);
  tcase_add_test (tc, test_format_follows_other_input);
  tcase_add_test (tc, test_free_inputs_agree);
  tcase_add_test (tc, test_device_output_any_format);
  tcase_add_test (tc, test_output_labelled_as_background);
  tcase_add_test (tc, test_downstream_framerate);
  tcase_add_test (tc, test_unlinked_input);
  tcase_add_test (tc, test_inputs_linked_late);
  tcase_add_test (tc, test_input_linked_as_other_negotiates);
  tcase_add_test (tc, test_seek_with_unlinked_input);
  tcase_add_test (tc, test_input_unlinked_while_playing);
  tcase_add_test (tc, test_overlay_linked_late);
  tcase_add_test (tc, test_frame_too_large);
  tcase_add_test (tc, test_interlaced_input);
  tcase_add_test (tc, test_caps_rejected);
  return s;
}

GST_CHECK_MAIN (composite);
