/* gstclfilters: a buffer's frame as its metas lay it out
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Where a buffer's planes lie (its GstVideoMeta, an input's
 * GstVideoCropMeta), and whether they lie inside it, checked before any
 * kernel or copy touches it; whether negotiated frames fit the device at
 * all. Used by every frame path (gstclframe.c, gstclcudaframe.c) and the
 * core.
 */
#include "gstcllayout.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_layout_debug);
#define GST_CAT_DEFAULT gst_cl_layout_debug

/* each function that logs calls it first: the file may be the first of
 * the frame path to run (a negotiation refusing frames too large) */
static void
ensure_debug_category (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_layout_debug, "cllayout", 0,
        "OpenCL frames' layouts");
    g_once_init_leave (&done, 1);
  }
}

/**
 * gst_cl_buffer_input_crop:
 *
 * The crop of an input @buffer of @info's size (videocrop's, or a decoder's
 * that pads its frames): a rectangle of @info's size inside the frame its
 * GstVideoMeta describes.
 *
 * Returns: (transfer none) (nullable): the crop, or %NULL where there is
 *   none or it does not fit (ignored, with a warning)
 */
const GstVideoCropMeta *
gst_cl_buffer_input_crop (const GstVideoInfo * info, GstBuffer * buffer)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  GstVideoCropMeta *crop = gst_buffer_get_video_crop_meta (buffer);

  if (!meta || !crop || (crop->x == 0 && crop->y == 0))
    return NULL;
  /* in 64 bits: a corner near G_MAXUINT must not wrap into the frame */
  if ((guint64) crop->x + GST_VIDEO_INFO_WIDTH (info) > meta->width ||
      (guint64) crop->y + GST_VIDEO_INFO_HEIGHT (info) > meta->height) {
    ensure_debug_category ();
    GST_WARNING ("crop %ux%u at %u,%u does not fit in a %ux%u frame: ignored",
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), crop->x,
        crop->y, meta->width, meta->height);
    return NULL;
  }
  return crop;
}

/**
 * gst_cl_crop_offset:
 *
 * Returns: the bytes from the start of plane @p to the crop's first pixel
 *   there; in subsampled planes, the chroma sample that covers it
 */
gsize
gst_cl_crop_offset (const GstVideoFormatInfo * finfo, guint p, gint stride,
    const GstVideoCropMeta * crop)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (finfo, p, comp);
  return (gsize) (crop->y >> GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp[0])) *
      stride + (gsize) (crop->x >> GST_VIDEO_FORMAT_INFO_W_SUB (finfo,
          comp[0])) * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, comp[0]);
}

/**
 * gst_cl_buffer_frame_layout:
 * @info: the negotiated video info of @buffer
 * @output: whether @buffer is an output, whose crop is not taken
 * @layout: (inout): where @buffer has no GstVideoMeta, its planes' offsets
 *   and strides already; else set from the meta
 *
 * The planes of @buffer as its GstVideoMeta lays them out, an input's
 * GstVideoCropMeta applied (see gst_cl_buffer_input_crop()).
 */
void
gst_cl_buffer_frame_layout (const GstVideoInfo * info, GstBuffer * buffer,
    gboolean output, GstVideoInfo * layout)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  const GstVideoCropMeta *crop =
      output ? NULL : gst_cl_buffer_input_crop (info, buffer);
  guint p;

  if (!meta)
    return;
  for (p = 0; p < meta->n_planes && p < GST_VIDEO_MAX_PLANES; p++) {
    layout->offset[p] = meta->offset[p];
    layout->stride[p] = meta->stride[p];
    if (crop)
      layout->offset[p] +=
          gst_cl_crop_offset (info->finfo, p, meta->stride[p], crop);
  }
}

/* The GstVideoMeta of @buffer, if any, as a frame of @info's format, at
 * least @info's size. */
static gboolean
meta_matches (const GstVideoInfo * info, const GstVideoMeta * meta,
    GError ** error)
{
  if (meta->format == GST_VIDEO_INFO_FORMAT (info) &&
      meta->n_planes == GST_VIDEO_INFO_N_PLANES (info) &&
      meta->width >= (guint) GST_VIDEO_INFO_WIDTH (info) &&
      meta->height >= (guint) GST_VIDEO_INFO_HEIGHT (info))
    return TRUE;
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "the buffer's GstVideoMeta says %s %ux%u in %u planes, which does not "
      "hold the %s %dx%d frame of the caps",
      gst_video_format_to_string (meta->format), meta->width, meta->height,
      meta->n_planes, GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info));
  return FALSE;
}

/* Plane @p of @meta: rows at least a row of pixels apart, all inside
 * @size bytes. */
static gboolean
meta_plane_fits (const GstVideoMeta * meta, guint p, gsize size,
    GError ** error)
{
  const GstVideoFormatInfo *finfo = gst_video_format_get_info (meta->format);
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  guint64 row, rows;

  gst_video_format_info_component (finfo, p, comp);
  row = (guint64) GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, comp[0],
      meta->width) * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, comp[0]);
  rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, comp[0], meta->height);
  /* at most 2^31 x 2^32 + 2^32: no overflow in 64 bits */
  if (meta->stride[p] >= 0 && (guint64) meta->stride[p] >= row &&
      meta->offset[p] <= size && (guint64) meta->stride[p] * (rows - 1) +
      row <= size - meta->offset[p])
    return TRUE;
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "plane %u of the buffer's GstVideoMeta does not fit: %" G_GUINT64_FORMAT
      " rows of %" G_GUINT64_FORMAT " bytes, %d bytes apart, from byte %"
      G_GSIZE_FORMAT " of a %" G_GSIZE_FORMAT "-byte buffer", p, rows, row,
      meta->stride[p], meta->offset[p], size);
  return FALSE;
}

/**
 * gst_cl_buffer_holds_frame:
 *
 * A buffer whose planes are not all inside it would have the kernels (and
 * the driver's copies) read or write past its end: refused, with what does
 * not fit, before anything touches it.
 *
 * Returns: whether @buffer holds a frame of @info, else %FALSE with @error
 *   set
 */
gboolean
gst_cl_buffer_holds_frame (const GstVideoInfo * info, GstBuffer * buffer,
    GError ** error)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  gsize size = gst_buffer_get_size (buffer);
  guint p;

  if (!meta && size >= GST_VIDEO_INFO_SIZE (info))
    return TRUE;
  if (!meta) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "a buffer of %" G_GSIZE_FORMAT " bytes is too short for a %s %dx%d "
        "frame of %" G_GSIZE_FORMAT " bytes", size, GST_VIDEO_INFO_NAME (info),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
        GST_VIDEO_INFO_SIZE (info));
    return FALSE;
  }
  if (!meta_matches (info, meta, error))
    return FALSE;
  for (p = 0; p < meta->n_planes; p++)
    if (!meta_plane_fits (meta, p, size, error))
      return FALSE;
  return TRUE;
}

/**
 * gst_cl_frame_fits_device:
 * @element: posts the error
 * @info: negotiated frames
 *
 * The kernels address planes with 32-bit offsets, and a plane must fit in
 * one device allocation with room to spare (clboxblur's scratch takes twice
 * its bytes). Where @info's planes do not, posts an element error giving
 * both sizes.
 *
 * Returns: %TRUE where frames of @info fit
 */
gboolean
gst_cl_frame_fits_device (GstElement * element, GstClContext * ctx,
    const GstVideoInfo * info)
{
  guint64 limit = MIN ((guint64) G_MAXINT,
      gst_cl_context_get_caps (ctx)->max_mem_alloc_size / 2);
  guint p;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS], rows;
    guint64 bytes;

    /* a plane's rows, as its first component's (YV12's plane 1 is V) */
    gst_video_format_info_component (info->finfo, p, comp);
    rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, comp[0],
        GST_VIDEO_INFO_HEIGHT (info));
    bytes = (guint64) GST_VIDEO_INFO_PLANE_STRIDE (info, p) * rows;

    if (bytes > limit) {
      ensure_debug_category ();
      GST_ELEMENT_ERROR (element, RESOURCE, NO_SPACE_LEFT,
          ("%dx%d frames are too large for OpenCL device \"%s\"",
              GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
              gst_cl_context_get_device_name (ctx)),
          ("plane %u takes %" G_GUINT64_FORMAT
              " bytes; a plane may take at most %" G_GUINT64_FORMAT " bytes "
              "on this device (2 GiB, and half its largest allocation)", p,
              bytes, limit));
      return FALSE;
    }
  }
  return TRUE;
}
