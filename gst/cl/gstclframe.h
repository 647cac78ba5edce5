/* gstclfilters: video frames as OpenCL buffers, one per plane
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

#include "gstclcontext.h"
#include "gstcllayout.h"
#include "gstclqueue.h"

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

/* A buffer's frame on the device, for the core's frame pass (gstclcore.c),
 * which maps every frame an element sees: elements get their frames as
 * #GstClFrame and never map a buffer themselves. */

/**
 * GstClStaging:
 *
 * Device buffers reused from frame to frame where the device cannot use host
 * memory in place, and the planes of a packed 4:2:2 frame as the kernels
 * take them (gst_cl_core_process()).
 */
/* the tables of other APIs' memories, at most (GstClFrameMemory) */
#define GST_CL_MAX_FRAME_MEMORIES 4

typedef struct
{
  cl_mem mem[GST_VIDEO_MAX_PLANES];
  gsize size[GST_VIDEO_MAX_PLANES];

    /* a frame whose planes follow each other in host memory: one buffer for
   * them all, its planes after the first as sub-buffers */
  cl_mem whole;
  gsize whole_size;
  cl_mem sub[GST_VIDEO_MAX_PLANES];
  gsize sub_offset[GST_VIDEO_MAX_PLANES];
  gsize sub_size[GST_VIDEO_MAX_PLANES];

  /* frames in another API's memory: each table's staging
   * (GstClFrameMemory, gstclcudaframe.c's for CUDA), by its index */
  gpointer foreign[GST_CL_MAX_FRAME_MEMORIES];

  /* a packed 4:2:2 frame's planes, Y, U and V, on any device */
  cl_mem planar[3];
  gsize planar_size[3];
} GstClStaging;

/**
 * GST_CL_MAP_FOLLOWED:
 *
 * A map flag for an input of gst_cl_buffer_frame_map(): before this frame is
 * unmapped, its caller waits for a later command on the same queue (a
 * mapped output's copy back, gst_cl_buffer_frame_finish(), and that frame
 * unmapped first). The queue is in order, so the input's copies to the
 * device are done by then: they take no event of their own, which spares
 * a driver one event a frame to make, look at and release.
 */
#define GST_CL_MAP_FOLLOWED (GST_VIDEO_FRAME_MAP_FLAG_LAST << 0)

/**
 * GstClBufferFrame:
 * @frame: the planes the kernels use
 *
 * A #GstBuffer's video frame as kernels see it: the buffer's own device
 * memory where it is #GstClMemory of the element's context, else the mapped
 * frame, used in place or copied through staging buffers.
 */
typedef struct
{
  GstClFrame frame;

    GstVideoFrame vframe;
  gboolean mapped;
  gboolean output;
  /* a device frame's memories, a plane's each, for their events */
  GstMemory *device[GST_VIDEO_MAX_PLANES];
  /* planes whose buffer is not the frame's to release: a memory's own, or
   * a staging buffer */
  gboolean borrowed[GST_VIDEO_MAX_PLANES];
  /* a mapped frame: the last copy of an input to the device, and whether
   * commands on the queue may still use the host memory */
  cl_event upload;
  gboolean pending;
  /* mapped with GST_CL_MAP_FOLLOWED: nothing to wait for when unmapped */
  gboolean followed;
  /* a mapped frame copied whole, in one copy each way: its bytes */
  cl_mem whole;
  gsize whole_size;
  /* a frame in another API's memory: the table that mapped it, and what
   * that table keeps of it (its staging, its slot, an output's buffer and
   * info), with whether it is acquired for OpenCL, and given back */
  const struct _GstClFrameMemory *memory;
  gpointer foreign;
  gpointer foreign_staging;
  GstBuffer *foreign_buffer;
  const GstVideoInfo *foreign_info;
  gboolean foreign_acquired;
  gboolean foreign_finished;
} GstClBufferFrame;

gboolean gst_cl_buffer_frame_map (GstClQueue * queue,
                                  GstClBufferFrame * frame,
                                  const GstVideoInfo * info,
                                  GstBuffer * buffer, GstMapFlags flags,
                                  GstClStaging * staging, GError ** error);

gboolean gst_cl_buffer_frame_map_tables (GstClQueue * queue,
                                         GstClBufferFrame * frame,
                                         GstBuffer * const * buffers,
                                         guint n, GstMapFlags flags,
                                         GError ** error);

gboolean gst_cl_buffer_frames_acquire (GstClQueue * queue,
                                       GstClBufferFrame * const * frames,
                                       guint n, GError ** error);

gboolean gst_cl_buffer_frame_finish (GstClQueue * queue,
                                     GstClBufferFrame * frame,
                                     GstClBufferFrame * const * inputs,
                                     guint n_inputs, GError ** error);

void     gst_cl_buffer_frame_unmap (GstClQueue * queue,
                                    GstClBufferFrame * frame);

gboolean gst_cl_staging_planar (GstClStaging * staging, cl_context context,
                                const GstVideoInfo * info,
                                GstClFrame * planar, GError ** error);

void     gst_cl_staging_clear (GstClStaging * staging);

cl_mem   gst_cl_device_buffer_ensure (cl_context context, cl_mem * mem,
                                      gsize * mem_size, gsize size,
                                      const gchar * what, GError ** error);



/**
 * GstClFrameMemory:
 * @takes: whether a buffer's memory is this API's
 * @map: as gst_cl_buffer_frame_map(), for such a buffer; @staging the
 *   table's own part of the frame path's staging, made by it, freed by
 *   @staging_free
 * @acquire: as gst_cl_buffer_frames_acquire(), for the frames it mapped
 *   (frame->memory) among @frames
 * @finish: as gst_cl_buffer_frame_finish(), for an output it mapped
 * @unmap: as gst_cl_buffer_frame_unmap(), for a frame it mapped
 * @staging_free: frees what @map put in a staging
 *
 * Frames in another API's memory (CUDA's: gstclcudaframe.c; DMABuf's
 * next), which the frame path hands over without knowing that API: the
 * module that knows it fills in a table and registers it, once, with
 * gst_cl_frame_memory_register().
 */
typedef struct _GstClFrameMemory
{
  gboolean (*takes) (GstBuffer * buffer);
  gboolean (*map) (GstClQueue * queue, GstClBufferFrame * frame,
                   const GstVideoInfo * info, GstBuffer * buffer,
                   gpointer * staging, GError ** error);
  gboolean (*acquire) (GstClQueue * queue, GstClBufferFrame * const * frames,
                       guint n, GError ** error);
  gboolean (*finish) (GstClQueue * queue, GstClBufferFrame * frame,
                      GstClBufferFrame * const * inputs, guint n_inputs,
                      GError ** error);
  void (*unmap) (GstClQueue * queue, GstClBufferFrame * frame);
  void (*staging_free) (gpointer staging);
} GstClFrameMemory;

void     gst_cl_frame_memory_register (const GstClFrameMemory * memory);

G_END_DECLS
