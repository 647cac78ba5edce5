/* gstclfilters tests: frames that stay on the device (memory:OpenCL)
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The elements are linked in, not loaded, so that the tests can make
 * GstClMemory frames of their own on the pipeline's context.
 */
#include "cltest.h"
#include "cllinked.h"
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"
#include "cl/gstclmemory.h"
#include "cl/gstclpool.h"

#include <gst/app/app.h>
#include <string.h>

static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_YUY2
};

static gboolean
is_device_buffer (GstBuffer * buf)
{
  for (guint i = 0; i < gst_buffer_n_memory (buf); i++)
    if (!gst_memory_is_type (gst_buffer_peek_memory (buf, i),
            GST_CL_MEMORY_TYPE))
      return FALSE;
  return gst_buffer_n_memory (buf) > 0;
}

static gboolean
pad_in_device_memory (GstElement * pipeline, const gchar * element,
    const gchar * pad_name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), element);
  GstPad *pad;
  GstCaps *caps;
  gboolean device;

  fail_unless (e != NULL, "no element %s", element);
  pad = gst_element_get_static_pad (e, pad_name);
  fail_unless (pad != NULL);
  caps = gst_pad_get_current_caps (pad);
  fail_unless (caps != NULL, "%s:%s has no caps", element, pad_name);
  device = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      GST_CAPS_FEATURE_MEMORY_CL);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (e);
  return device;
}

typedef struct
{
  const gchar *element;
  const gchar *pad;
  gboolean device;
} ClTestLink;

/* @buf (transfer full), the only frame of appsrc @name */
static void
push_one (GstElement * pipeline, const gchar * name, GstBuffer * buf,
    GstCaps * caps)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), name);

  fail_unless (src != NULL, "no appsrc %s", name);
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  gst_app_src_push_buffer (GST_APP_SRC (src), buf);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_object_unref (src);
}

/* Runs @desc (appsrc "a" and optional "b", appsink "sink") on one frame each
 * and returns the first output; @links are checked while it plays. */
static GstBuffer *
run_pipeline (const gchar * desc, GstContext * context, GstBuffer * a,
    GstCaps * a_caps, GstBuffer * b, GstCaps * b_caps,
    const ClTestLink * links, guint n_links)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *sink;
  GstSample *sample;
  GstBuffer *out;

  fail_unless (pipeline != NULL, "%s: %s", desc, err ? err->message : "");
  if (context)
    gst_element_set_context (pipeline, context);
  push_one (pipeline, "a", a, a_caps);
  if (b)
    push_one (pipeline, "b", b, b_caps);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 60 * GST_SECOND);
  if (!sample) {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg)
      gst_message_parse_error (msg, &err, NULL);
    fail ("no output from %s: %s", desc, err ? err->message : "no error");
  }
  for (guint i = 0; i < n_links; i++)
    fail_unless (pad_in_device_memory (pipeline, links[i].element,
            links[i].pad) == links[i].device, "%s: %s:%s should%s be in "
        "memory:OpenCL", desc, links[i].element, links[i].pad,
        links[i].device ? "" : " not");
  out = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return out;
}

static GstCaps *
caps_of (const GstVideoInfo * info, gboolean device)
{
  GstCaps *caps = gst_video_info_to_caps (info);

  if (device)
    gst_caps_set_features (caps, 0,
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CL, NULL));
  return caps;
}

/* A chain of cl elements keeps frames on the device between them and gives
 * the reference's output: blur, then Sobel, then epsilon, analysed by
 * clintegral on the way out. */
GST_START_TEST (test_chain_stays_on_device)
{
  const ClTestLink links[] = {
    {"blur", "src", TRUE}, {"sobel", "src", TRUE}, {"eps", "src", TRUE},
    /* appsink takes any memory: system memory */
    {"integral", "src", FALSE},
  };
  ClTestEpsilon eps = { 20, 5 };

  cl_test_register_elements ();
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstVideoInfo info;
    GstBuffer *photo, *blurred, *edges, *want, *got;
    GstCaps *caps;
    gchar *desc;

    gst_video_info_set_format (&info, formats[f], 641, 479);
    photo = cl_test_photo_new (formats[f], 641, 479);
    blurred = cl_test_apply_ref (photo, &info, cl_test_ref_boxblur,
        GUINT_TO_POINTER (3));
    edges = cl_test_apply_ref (blurred, &info, cl_test_ref_sobel,
        GUINT_TO_POINTER (CL_REF_SOBEL_L1));
    want = cl_test_apply_ref (edges, &info, cl_test_ref_epsilon, &eps);

    desc = g_strdup_printf ("appsrc name=a ! clboxblur name=blur diameter=3 "
        "! clsobel name=sobel ! clepsilon name=eps threshold=%u diameter=%u "
        "! clintegral name=integral ! appsink name=sink", eps.threshold,
        eps.diameter);
    caps = caps_of (&info, FALSE);
    got = run_pipeline (desc, NULL, gst_buffer_ref (photo), caps, NULL, NULL,
        links, G_N_ELEMENTS (links));
    fail_unless (gst_buffer_get_custom_meta (got, "GstClIntegralMeta") !=
        NULL, "clintegral's meta is missing");
    cl_test_check_same (got, want, &info,
        gst_video_format_to_string (formats[f]));

    gst_buffer_unref (got);
    gst_caps_unref (caps);
    g_free (desc);
    gst_buffer_unref (want);
    gst_buffer_unref (edges);
    gst_buffer_unref (blurred);
    gst_buffer_unref (photo);
  }
}

GST_END_TEST;

/* All five elements, clcomposite between two chains, give the same frames
 * in device memory as with system memory forced between them. */
GST_START_TEST (test_composite_chain_same_as_system_memory)
{
  static const gchar *sys = "video/x-raw(memory:SystemMemory)";
  const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_I420
  };
  const ClTestLink links[] = {
    {"blur", "src", TRUE}, {"c", "sink_0", TRUE}, {"c", "sink_1", TRUE},
    {"c", "src", TRUE}, {"integral", "src", TRUE},
  };

  cl_test_register_elements ();
  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++) {
    GstVideoInfo bg_info, ov_info;
    GstBuffer *bg, *ov, *device, *host;
    GstCaps *bg_caps, *ov_caps;
    gchar *desc[2];

    gst_video_info_set_format (&bg_info, fmts[f], 641, 479);
    gst_video_info_set_format (&ov_info, fmts[f], 300, 201);
    bg = cl_test_photo_new (fmts[f], 641, 479);
    ov = cl_test_photo_new (fmts[f], 300, 201);
    bg_caps = caps_of (&bg_info, FALSE);
    ov_caps = caps_of (&ov_info, FALSE);
    for (guint i = 0; i < 2; i++) {
      const gchar *between = i == 0 ? "" : sys;
      const gchar *link = i == 0 ? "" : " ! ";

      desc[i] = g_strdup_printf ("appsrc name=a ! clboxblur name=blur "
          "diameter=5%s%s ! c.sink_0 appsrc name=b ! %s%s%s ! c.sink_1 "
          "clcomposite name=c alpha=0.35 gamma=9 sink_1::xpos=37 "
          "sink_1::ypos=-11%s%s ! clintegral name=integral%s%s ! %s ! "
          "appsink name=sink", link, between,
          "clsobel mode=l2", link, between, link, between, link, between,
          "clepsilon threshold=30 diameter=7");
    }
    device = run_pipeline (desc[0], NULL, gst_buffer_ref (bg), bg_caps,
        gst_buffer_ref (ov), ov_caps, links, G_N_ELEMENTS (links));
    host = run_pipeline (desc[1], NULL, gst_buffer_ref (bg), bg_caps,
        gst_buffer_ref (ov), ov_caps, NULL, 0);
    cl_test_check_same (device, host, &bg_info,
        gst_video_format_to_string (fmts[f]));

    gst_buffer_unref (host);
    gst_buffer_unref (device);
    g_free (desc[0]);
    g_free (desc[1]);
    gst_caps_unref (ov_caps);
    gst_caps_unref (bg_caps);
    gst_buffer_unref (ov);
    gst_buffer_unref (bg);
  }
}

GST_END_TEST;

/* memory:OpenCL asked for anywhere in a chain, clintegral included */
GST_START_TEST (test_forced_device_memory)
{
  static const gchar *descs[] = {
    "appsrc name=a ! clboxblur ! video/x-raw(memory:OpenCL) ! clintegral ! "
        "appsink name=sink",
    "appsrc name=a ! clboxblur ! clintegral ! video/x-raw(memory:OpenCL) ! "
        "appsink name=sink",
    "appsrc name=a ! video/x-raw(memory:SystemMemory) ! clboxblur ! "
        "video/x-raw(memory:SystemMemory) ! clintegral ! appsink name=sink",
    /* frames in system memory never go on as memory:OpenCL */
    "appsrc name=a ! clintegral name=i ! clboxblur ! appsink name=sink",
  };
  const ClTestLink host_link = { "i", "src", FALSE };
  GstVideoInfo info;
  GstBuffer *photo, *want;
  GstCaps *caps;

  cl_test_register_elements ();
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 97, 61);
  photo = cl_test_photo_new (GST_VIDEO_FORMAT_NV12, 97, 61);
  want =
      cl_test_apply_ref (photo, &info, cl_test_ref_boxblur,
      GUINT_TO_POINTER (5));
  caps = caps_of (&info, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (descs); i++) {
    gboolean last = i + 1 == G_N_ELEMENTS (descs);
    GstBuffer *got = run_pipeline (descs[i], NULL, gst_buffer_ref (photo),
        caps, NULL, NULL, last ? &host_link : NULL, last ? 1 : 0);

    /* clboxblur drops the meta of a frame it makes anew */
    fail_unless (last || gst_buffer_get_custom_meta (got,
            "GstClIntegralMeta") != NULL, "%s: no integral", descs[i]);
    cl_test_check_same (got, want, &info, descs[i]);
    gst_buffer_unref (got);
  }
  gst_caps_unref (caps);
  gst_buffer_unref (want);
  gst_buffer_unref (photo);
}

GST_END_TEST;

/* A filter at its identity setting between system memory and
 * memory:OpenCL copies frames to the device, as it cannot pass them on:
 * what goes out as memory:OpenCL is in GstClMemory. */
GST_START_TEST (test_identity_uploads)
{
  static const gchar *identities[] = { "clepsilon threshold=0",
    "clepsilon diameter=1", "clboxblur diameter=1"
  };
  GstVideoInfo info;
  GstBuffer *photo;
  GstCaps *caps;

  cl_test_register_elements ();
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 131, 67);
  photo = cl_test_photo_new (GST_VIDEO_FORMAT_NV12, 131, 67);
  caps = caps_of (&info, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (identities); i++) {
    gchar *desc = g_strdup_printf ("appsrc name=a ! %s ! "
        "video/x-raw(memory:OpenCL) ! appsink name=sink", identities[i]);
    GstBuffer *got = run_pipeline (desc, NULL, gst_buffer_ref (photo), caps,
        NULL, NULL, NULL, 0);

    fail_unless (is_device_buffer (got), "%s: system memory went out as "
        "memory:OpenCL", desc);
    cl_test_check_same (got, photo, &info, desc);
    gst_buffer_unref (got);
    g_free (desc);
  }
  gst_caps_unref (caps);
  gst_buffer_unref (photo);
}

GST_END_TEST;

/* New caps mid-stream: the device pools between the elements follow. */
GST_START_TEST (test_renegotiation)
{
  const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420
  };
  const gint sizes[][2] = { {641, 479}, {320, 200}, {33, 17} };
  GError *err = NULL;
  GstElement *pipeline, *src, *sink;

  cl_test_register_elements ();
  pipeline = gst_parse_launch ("appsrc name=a format=time ! clboxblur "
      "name=blur diameter=3 ! clsobel ! appsink name=sink sync=false", &err);
  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  src = gst_bin_get_by_name (GST_BIN (pipeline), "a");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (guint i = 0; i < G_N_ELEMENTS (fmts); i++) {
    GstVideoInfo info;
    GstBuffer *photo = cl_test_photo_new (fmts[i], sizes[i][0], sizes[i][1]);
    GstBuffer *blurred, *want;
    GstCaps *caps;
    GstSample *sample;

    gst_video_info_set_format (&info, fmts[i], sizes[i][0], sizes[i][1]);
    blurred = cl_test_apply_ref (photo, &info, cl_test_ref_boxblur,
        GUINT_TO_POINTER (3));
    want = cl_test_apply_ref (blurred, &info, cl_test_ref_sobel,
        GUINT_TO_POINTER (CL_REF_SOBEL_L1));
    caps = caps_of (&info, FALSE);
    g_object_set (src, "caps", caps, NULL);
    GST_BUFFER_PTS (photo) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (photo) = GST_SECOND / 30;
    fail_unless (gst_app_src_push_buffer (GST_APP_SRC (src),
            gst_buffer_ref (photo)) == GST_FLOW_OK);
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        60 * GST_SECOND);
    fail_unless (sample != NULL, "no frame after caps %u", i);
    fail_unless (pad_in_device_memory (pipeline, "blur", "src"),
        "caps %u: the frames left the device between the elements", i);
    cl_test_check_same (gst_sample_get_buffer (sample), want, &info,
        gst_video_format_to_string (fmts[i]));
    gst_sample_unref (sample);
    gst_caps_unref (caps);
    gst_buffer_unref (want);
    gst_buffer_unref (blurred);
    gst_buffer_unref (photo);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Frames in memory:OpenCL map for anyone, copy and share. */
GST_START_TEST (test_device_output_maps)
{
  const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA
  };

  cl_test_register_elements ();
  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++) {
    GstVideoInfo info;
    GstBuffer *photo = cl_test_photo_new (fmts[f], 333, 97);
    GstBuffer *want, *got, *copy, *part;
    GstMapInfo a, b;
    GstCaps *caps;
    const gchar *what = gst_video_format_to_string (fmts[f]);

    gst_video_info_set_format (&info, fmts[f], 333, 97);
    want =
        cl_test_apply_ref (photo, &info, cl_test_ref_boxblur,
        GUINT_TO_POINTER (5));
    caps = caps_of (&info, FALSE);
    got = run_pipeline ("appsrc name=a ! clboxblur ! "
        "video/x-raw(memory:OpenCL) ! appsink name=sink", NULL,
        gst_buffer_ref (photo), caps, NULL, NULL, NULL, 0);
    fail_unless (is_device_buffer (got), "%s: not in GstClMemory", what);
    fail_unless_equals_int (gst_buffer_n_memory (got),
        GST_VIDEO_INFO_N_PLANES (&info));
    cl_test_check_same (got, want, &info, what);

    /* a deep copy stays on the device */
    copy = gst_buffer_copy_deep (got);
    fail_unless (is_device_buffer (copy));
    cl_test_check_same (copy, want, &info, what);

    /* a part of the frame, as a whole mapping sees it */
    part = gst_buffer_copy_region (got, GST_BUFFER_COPY_MEMORY, 3,
        GST_VIDEO_INFO_SIZE (&info) - 5);
    fail_unless (gst_buffer_map (got, &a, GST_MAP_READ));
    fail_unless (gst_buffer_map (part, &b, GST_MAP_READ));
    fail_unless_equals_int (b.size, GST_VIDEO_INFO_SIZE (&info) - 5);
    fail_unless (memcmp (a.data + 3, b.data, b.size) == 0,
        "%s: a copied region differs", what);
    gst_buffer_unmap (part, &b);
    gst_buffer_unmap (got, &a);
    /* writing into the region, if it maps at all, leaves the frame alone */
    if (gst_buffer_map (part, &b, GST_MAP_WRITE)) {
      memset (b.data, 0xaa, b.size);
      gst_buffer_unmap (part, &b);
    }
    cl_test_check_same (got, want, &info, what);

    gst_buffer_unref (part);
    gst_buffer_unref (copy);
    gst_buffer_unref (got);
    gst_caps_unref (caps);
    gst_buffer_unref (want);
    gst_buffer_unref (photo);
  }
}

GST_END_TEST;

typedef enum
{
  LAYOUT_POOL,                  /* the device pool: a memory a plane */
  LAYOUT_ONE_ALIGNED,           /* one memory, planes where sub-buffers go */
  LAYOUT_ONE_UNALIGNED,         /* one memory, planes anywhere */
} Layout;

/* @in's pixels in device memory of @ctx, laid out as @layout says, with
 * padded rows in the single-memory layouts */
static GstBuffer *
device_copy (GstClContext * ctx, GstBuffer * in, const GstVideoInfo * info,
    Layout layout)
{
  GstVideoInfo dev = *info;
  GstVideoFrame src, dst;
  GstBuffer *buf;

  if (layout == LAYOUT_POOL) {
    GstBufferPool *pool = gst_cl_buffer_pool_new (ctx, GST_CL_POOL_DEVICE);
    GstStructure *config = gst_buffer_pool_get_config (pool);
    GstCaps *caps = caps_of (info, TRUE);

    gst_buffer_pool_config_set_params (config, caps,
        GST_VIDEO_INFO_SIZE (info), 0, 0);
    fail_unless (gst_buffer_pool_set_config (pool, config));
    fail_unless (gst_buffer_pool_set_active (pool, TRUE));
    fail_unless (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) ==
        GST_FLOW_OK);
    /* the buffer keeps its memory when the pool goes */
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    gst_caps_unref (caps);
  } else {
    gsize align =
        MAX (gst_cl_context_get_caps (ctx)->mem_base_addr_align / 8, 1);
    gsize offset = 0;
    GError *err = NULL;
    GstMemory *mem;

    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&dev); p++) {
      gint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (dev.finfo, p,
          GST_VIDEO_INFO_HEIGHT (&dev));

      offset = (offset + align - 1) / align * align;
      if (layout == LAYOUT_ONE_UNALIGNED)
        offset += 3;
      dev.offset[p] = offset;
      dev.stride[p] += 40;
      offset += (gsize) dev.stride[p] * rows;
    }
    dev.size = offset;
    mem = gst_cl_memory_new (ctx, dev.size, &err);
    fail_unless (mem != NULL, "%s", err ? err->message : "");
    buf = gst_buffer_new ();
    gst_buffer_append_memory (buf, mem);
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&dev), GST_VIDEO_INFO_WIDTH (&dev),
        GST_VIDEO_INFO_HEIGHT (&dev), GST_VIDEO_INFO_N_PLANES (&dev),
        dev.offset, dev.stride);
  }
  fail_unless (gst_video_frame_map (&src, (GstVideoInfo *) info, in,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, (GstVideoInfo *) info, buf,
          GST_MAP_WRITE));
  /* every byte of a row's pixels (gst_video_frame_copy() leaves out the
   * last chroma of packed 4:2:2 at odd widths) */
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&dst); p++)
    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&dst, p); y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&dst, p) + (gsize) y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&dst, p),
          (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&src, p) + (gsize) y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&src, p), cl_test_row_bytes (&dst, p));
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  return buf;
}

/* Frames an application makes in device memory, in any layout, on the
 * pipeline's context or on another one. */
GST_START_TEST (test_device_input_layouts)
{
  GError *err = NULL;
  GstClContext *ctx = gst_cl_context_new (-1, &err);
  GstClContext *other = gst_cl_context_new (-1, &err);
  GstContext *context;

  fail_unless (ctx != NULL && other != NULL, "%s", err ? err->message : "");
  context = gst_context_new_cl_context (ctx);
  cl_test_register_elements ();
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstVideoInfo info;
    GstBuffer *photo = cl_test_photo_new (formats[f], 259, 131);
    GstBuffer *want_blur, *want_sobel;
    GstCaps *caps;

    gst_video_info_set_format (&info, formats[f], 259, 131);
    want_blur = cl_test_apply_ref (photo, &info, cl_test_ref_boxblur,
        GUINT_TO_POINTER (3));
    want_sobel = cl_test_apply_ref (photo, &info, cl_test_ref_sobel,
        GUINT_TO_POINTER (CL_REF_SOBEL_X));
    caps = caps_of (&info, TRUE);
    for (guint l = LAYOUT_POOL; l <= LAYOUT_ONE_UNALIGNED; l++) {
      for (guint c = 0; c < 2; c++) {
        GstClContext *mine = c == 0 ? ctx : other;
        GstBuffer *in = device_copy (mine, photo, &info, l);
        GstBuffer *got;
        gchar *what = g_strdup_printf ("%s, layout %u, %s context",
            gst_video_format_to_string (formats[f]), l,
            c == 0 ? "the pipeline's" : "another");

        got = run_pipeline ("appsrc name=a ! clboxblur diameter=3 ! "
            "appsink name=sink", context, gst_buffer_ref (in), caps, NULL,
            NULL, NULL, 0);
        cl_test_check_same (got, want_blur, &info, what);
        gst_buffer_unref (got);
        got = run_pipeline ("appsrc name=a ! clsobel mode=x ! "
            "video/x-raw(memory:OpenCL) ! appsink name=sink", context,
            gst_buffer_ref (in), caps, NULL, NULL, NULL, 0);
        cl_test_check_same (got, want_sobel, &info, what);
        gst_buffer_unref (got);
        gst_buffer_unref (in);
        g_free (what);
      }
    }
    gst_caps_unref (caps);
    gst_buffer_unref (want_sobel);
    gst_buffer_unref (want_blur);
    gst_buffer_unref (photo);
  }
  gst_context_unref (context);
  gst_object_unref (other);
  gst_object_unref (ctx);
}

GST_END_TEST;

/* The @w x @h rectangle of @in at (@x, @y), in the default layout; chroma
 * from the sample covering its first pixel. */
static GstBuffer *
crop_of (GstBuffer * in, const GstVideoInfo * info, gint x, gint y, gint w,
    gint h, GstVideoInfo * out_info)
{
  GstVideoFrame fin, fout;
  GstBuffer *out;

  gst_video_info_set_format (out_info, GST_VIDEO_INFO_FORMAT (info), w, h);
  out = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (out_info), NULL);
  fail_unless (gst_video_frame_map (&fin, (GstVideoInfo *) info, in,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, out_info, out, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fout); p++) {
    ClRefPlane a, b;
    gint comp[GST_VIDEO_MAX_COMPONENTS], xs;

    gst_video_format_info_component (info->finfo, p, comp);
    xs = x >> GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, comp[0]);
    cl_test_plane_of (&fin, p, &a);
    cl_test_plane_of (&fout, p, &b);
    for (gint r = 0; r < b.height; r++)
      memcpy ((guint8 *) b.data + (gsize) r * b.stride, a.data +
          (gsize) (r + (y >> GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo,
                      comp[0]))) * a.stride + xs * a.pstride,
          (gsize) b.width * b.pstride);
  }
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
  return out;
}

/* videocrop between cl elements, and in front of one: the crop goes on as a
 * GstVideoCropMeta, on the device or in system memory, and the filter after
 * it sees the cropped frame */
GST_START_TEST (test_cropped_input)
{
  const ClTestLink on_device[] = { {"blur", "src", TRUE} };
  /* left, top, right, bottom: from a corner inside, and the top-left one */
  static const gint crops[][4] = { {7, 5, 10, 3}, {0, 0, 10, 3} };
  ClTestEpsilon eps = { 40, 5 };

  cl_test_register_elements ();
  for (guint k = 0; k < G_N_ELEMENTS (crops); k++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstVideoInfo info, crop_info;
      GstBuffer *in = cl_test_photo_new (formats[f], 131, 77);
      GstBuffer *blurred, *cropped, *want;
      GstCaps *caps;

      gst_video_info_set_format (&info, formats[f], 131, 77);
      caps = caps_of (&info, FALSE);
      blurred =
          cl_test_apply_ref (in, &info, cl_test_ref_boxblur,
          GUINT_TO_POINTER (3));
      for (guint i = 0; i < 3; i++) {
        const gchar *head = i == 2 ? "" : "clboxblur name=blur diameter=3 ! ";
        const gchar *mem = i == 1 ? "video/x-raw(memory:SystemMemory) ! " : "";
        const gint *c = crops[k];
        gchar *desc = g_strdup_printf ("appsrc name=a ! %s%svideocrop left=%d "
            "top=%d right=%d bottom=%d ! clepsilon threshold=40 diameter=5 ! "
            "appsink name=sink", head, mem, c[0], c[1], c[2], c[3]);
        GstBuffer *out;

        cropped = crop_of (i == 2 ? in : blurred, &info, c[0], c[1],
            131 - c[0] - c[2], 77 - c[1] - c[3], &crop_info);
        want =
            cl_test_apply_ref (cropped, &crop_info, cl_test_ref_epsilon, &eps);
        out =
            run_pipeline (desc, NULL, gst_buffer_ref (in), caps, NULL, NULL,
            on_device, i == 0 ? 1 : 0);
        cl_test_check_same (out, want, &crop_info, desc);
        gst_buffer_unref (out);
        gst_buffer_unref (want);
        gst_buffer_unref (cropped);
        g_free (desc);
      }
      gst_buffer_unref (blurred);
      gst_caps_unref (caps);
      gst_buffer_unref (in);
    }
}

GST_END_TEST;

/* A filter at its identity setting, set while playing, after a videocrop
 * whose meta it said it takes: what it passes on is the crop, since
 * downstream (an appsink) takes no crop meta */
GST_START_TEST (test_cropped_identity)
{
  GstElement *pipeline, *a, *e, *sink;
  GstVideoInfo info, crop_info;
  GstBuffer *in = cl_test_photo_new (GST_VIDEO_FORMAT_NV12, 64, 48);
  GstBuffer *want;
  GstCaps *caps;

  cl_test_register_elements ();
  pipeline = gst_parse_launch ("appsrc name=a format=time ! videocrop left=4 "
      "top=2 right=3 bottom=5 ! clepsilon name=e ! appsink name=sink "
      "sync=false", NULL);
  a = gst_bin_get_by_name (GST_BIN (pipeline), "a");
  e = gst_bin_get_by_name (GST_BIN (pipeline), "e");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64, 48);
  caps = caps_of (&info, FALSE);
  g_object_set (a, "caps", caps, NULL);
  gst_caps_unref (caps);
  want = crop_of (in, &info, 4, 2, 57, 41, &crop_info);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (guint i = 0; i < 2; i++) {
    GstBuffer *buf = gst_buffer_copy_deep (in);
    GstSample *sample;

    /* the first frame filtered, the second passed on */
    if (i == 1)
      g_object_set (e, "threshold", 0, NULL);
    GST_BUFFER_PTS (buf) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
    gst_app_src_push_buffer (GST_APP_SRC (a), buf);
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        30 * GST_SECOND);
    fail_unless (sample != NULL, "no frame %u", i);
    if (i == 1)
      cl_test_check_same (gst_sample_get_buffer (sample), want, &crop_info,
          "identity after a crop");
    gst_sample_unref (sample);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_buffer_unref (want);
  gst_buffer_unref (in);
  gst_object_unref (sink);
  gst_object_unref (e);
  gst_object_unref (a);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
memory_suite (void)
{
  Suite *s = suite_create ("memory");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, NULL, cl_test_teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_chain_stays_on_device);
  tcase_add_test (tc, test_composite_chain_same_as_system_memory);
  tcase_add_test (tc, test_forced_device_memory);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_identity_uploads);
  tcase_add_test (tc, test_device_output_maps);
  tcase_add_test (tc, test_device_input_layouts);
  tcase_add_test (tc, test_cropped_input);
  tcase_add_test (tc, test_cropped_identity);
  return s;
}

GST_CHECK_MAIN (memory);
