/* gstclfilters: video frames as OpenCL buffers, one per plane
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

/**
 * GstClPlane:
 * @mem: a buffer whose first byte is the plane's first pixel
 * @width: in pixels of this plane (chroma planes: chroma pixels)
 * @height: in rows of this plane
 * @pstride: bytes per pixel, i.e. the interleaved channels (RGBA 4, NV12 UV 2)
 * @stride: bytes per row, any value >= width * pstride
 */
typedef struct
{
  cl_mem mem;
  gint width;
  gint height;
  gint pstride;
  gint stride;
} GstClPlane;

/**
 * GstClFrame:
 * @n_planes: as the video format's
 * @planes: each plane as its own buffer, as kernels take them
 */
typedef struct
{
  guint n_planes;
  GstClPlane planes[GST_VIDEO_MAX_PLANES];
} GstClFrame;

gboolean gst_cl_format_get_packed_422 (GstVideoFormat format,
                                       gint offsets[3]);

gboolean gst_cl_video_info_kernel_view (const GstVideoInfo * info,
                                        GstVideoInfo * view);

void     gst_cl_frame_set_geometry (GstClFrame * frame,
                                    const GstVideoInfo * info);

gsize    gst_cl_plane_size (const GstClPlane * plane);

void     gst_cl_frame_release (GstClFrame * frame);



G_END_DECLS
