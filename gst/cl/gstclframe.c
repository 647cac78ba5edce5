/* gstclfilters: video frames as OpenCL buffers, one per plane
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Where the device shares host memory (CPU devices, integrated GPUs) a mapped
 * frame is wrapped in place with CL_MEM_USE_HOST_PTR: no copy at all. Elsewhere
 * each plane is copied once to the device and the output once back, through
 * device buffers kept from frame to frame. Frames in #GstClMemory of the
 * same context are used as they are, not mapped at all.
 *
 * Everything runs on the queue of the streaming thread at hand. The host
 * waits only for that queue's commands, and only where host memory is
 * involved: for a mapped output to come back, and for a mapped input to be
 * read. A frame on the device goes on with the event that completes it (see
 * gstclmemory.c), and the next element's commands wait for that event where
 * they run on another queue.
 */
#include <string.h>

#include "gstclframe.h"
#include "gstcllayout.h"
#include "gstclerror.h"
#include "gstclevent.h"
#include "gstclgate.h"
#include "gstclqueue.h"
#include "gstclmemory.h"

GST_DEBUG_CATEGORY (gst_cl_frame_debug);
#define GST_CAT_DEFAULT gst_cl_frame_debug

static void
ensure_debug_category (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_frame_debug, "clframe", 0,
        "OpenCL video frames");
    g_once_init_leave (&done, 1);
  }
}

/**
 * gst_cl_format_get_packed_422:
 * @offsets: (out) (optional): where a macropixel holds its first luma
 *   sample (the second lies 2 bytes further), U and V
 *
 * Returns: whether @format is packed 4:2:2, two pixels in a 4-byte
 *   macropixel (YUY2, UYVY, YVYU), which kernels take as the planes of
 *   Y42B (gst_cl_video_info_kernel_view())
 */
gboolean
gst_cl_format_get_packed_422 (GstVideoFormat format, gint offsets[3])
{
  /* listed, not read from GstVideoFormatInfo: GStreamer 1.22 gives VYUY the
   * component offsets of UYVY (its pack functions know better), so a rule
   * over the format info would take one for the other */
  static const struct
  {
    GstVideoFormat format;
    gint offsets[3];
  } packed[] = {
    {GST_VIDEO_FORMAT_YUY2, {0, 1, 3}},
    {GST_VIDEO_FORMAT_UYVY, {1, 0, 2}},
    {GST_VIDEO_FORMAT_YVYU, {0, 3, 1}},
  };

  for (guint i = 0; i < G_N_ELEMENTS (packed); i++)
    if (packed[i].format == format) {
      if (offsets)
        memcpy (offsets, packed[i].offsets, sizeof (packed[i].offsets));
      return TRUE;
    }
  return FALSE;
}

/**
 * gst_cl_video_info_kernel_view:
 * @view: (out caller-allocates): the format and size of frames of @info as
 *   the elements' kernels see them
 *
 * Kernels take planes of one kind of sample each, or of whole interleaved
 * pixels (RGBA, NV12's UV): a packed 4:2:2 frame reaches them as the three
 * planes of Y42B of the same size, luma and the half-width chroma
 * (gst_cl_core_process() unpacks and packs it). Any other @info is its own
 * view.
 *
 * Returns: %TRUE where the view differs from @info
 */
gboolean
gst_cl_video_info_kernel_view (const GstVideoInfo * info, GstVideoInfo * view)
{
  if (!gst_cl_format_get_packed_422 (GST_VIDEO_INFO_FORMAT (info), NULL)) {
    *view = *info;
    return FALSE;
  }
  gst_video_info_set_interlaced_format (view, GST_VIDEO_FORMAT_Y42B,
      GST_VIDEO_INFO_INTERLACE_MODE (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info));
  GST_VIDEO_INFO_PAR_N (view) = GST_VIDEO_INFO_PAR_N (info);
  GST_VIDEO_INFO_PAR_D (view) = GST_VIDEO_INFO_PAR_D (info);
  GST_VIDEO_INFO_FPS_N (view) = GST_VIDEO_INFO_FPS_N (info);
  GST_VIDEO_INFO_FPS_D (view) = GST_VIDEO_INFO_FPS_D (info);
  view->colorimetry = info->colorimetry;
  view->chroma_site = info->chroma_site;
  return TRUE;
}

/**
 * gst_cl_frame_set_geometry:
 *
 * Fills the size, pixel stride and row stride of every plane of @frame from
 * @info (strides included, so a mapped frame's GstVideoMeta is honoured).
 * A packed 4:2:2 plane counts its pixels in whole macropixels: a row of an
 * odd width holds one more.
 */
void
gst_cl_frame_set_geometry (GstClFrame * frame, const GstVideoInfo * info)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gboolean packed_422 =
      gst_cl_format_get_packed_422 (GST_VIDEO_INFO_FORMAT (info), NULL);
  guint p;

  frame->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  for (p = 0; p < frame->n_planes; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    GstClPlane *plane = &frame->planes[p];

    gst_video_format_info_component (finfo, p, comp);
    plane->mem = NULL;
    plane->width = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
    plane->height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    plane->pstride = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
    plane->stride = GST_VIDEO_INFO_PLANE_STRIDE (info, p);
    if (packed_422)
      plane->width = GST_ROUND_UP_2 (plane->width);
  }
}

/**
 * gst_cl_plane_size:
 *
 * Returns: the bytes from the plane's first pixel to just after its last
 */
gsize
gst_cl_plane_size (const GstClPlane * plane)
{
  return (gsize) plane->stride * (plane->height - 1) +
      (gsize) plane->width * plane->pstride;
}

/* The frame layer's OpenCL calls return their status, with the call's name
 * in *what where it failed: each public function checks it once, at its
 * end. */
static cl_int
device_buffer_make (cl_context context, cl_mem * mem, gsize * mem_size,
    gsize size)
{
  cl_int status = CL_SUCCESS;

  if (*mem && *mem_size >= size)
    return CL_SUCCESS;
  if (*mem)
    clReleaseMemObject (*mem);
  *mem = clCreateBuffer (context, CL_MEM_READ_WRITE, MAX (size, 1), NULL,
      &status);
  *mem_size = status == CL_SUCCESS ? size : 0;
  if (status != CL_SUCCESS)
    *mem = NULL;
  return status;
}

/**
 * gst_cl_device_buffer_ensure:
 * @mem: (inout): a device buffer kept from frame to frame, or %NULL
 * @mem_size: (inout): its size
 * @what: names the buffer in an error
 *
 * Returns: (transfer none) (nullable): *@mem, made again (readable and
 *   writable, from the host too) where it holds fewer than @size bytes
 */
cl_mem
gst_cl_device_buffer_ensure (cl_context context, cl_mem * mem,
    gsize * mem_size, gsize size, const gchar * what, GError ** error)
{
  cl_int status = device_buffer_make (context, mem, mem_size, size);

  return gst_cl_result (status, error, what) ? *mem : NULL;
}

/**
 * gst_cl_staging_planar:
 * @info: a packed 4:2:2 frame's
 * @planar: (out): the planes of @info's kernel view
 *   (gst_cl_video_info_kernel_view()), in @staging's buffers, grown where
 *   they are too small
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_staging_planar (GstClStaging * staging, cl_context context,
    const GstVideoInfo * info, GstClFrame * planar, GError ** error)
{
  GstVideoInfo view;
  guint p;

  gst_cl_video_info_kernel_view (info, &view);
  gst_cl_frame_set_geometry (planar, &view);
  g_return_val_if_fail (planar->n_planes == G_N_ELEMENTS (staging->planar),
      FALSE);
  for (p = 0; p < planar->n_planes; p++)
    if (!(planar->planes[p].mem = gst_cl_device_buffer_ensure (context,
                &staging->planar[p], &staging->planar_size[p],
                gst_cl_plane_size (&planar->planes[p]),
                "clCreateBuffer (planes)", error)))
      return FALSE;
  return TRUE;
}

static cl_int
ensure_staging (cl_context context, GstClStaging * staging, guint p, gsize size)
{
  return device_buffer_make (context, &staging->mem[p], &staging->size[p],
      size);
}

/* @upload: (nullable): set to the copy's event */
static cl_int
import_plane (GstClQueue * queue, GstVideoFrame * vframe, guint p,
    gboolean output, GstClStaging * staging, GstClPlane * plane,
    gboolean * borrowed, cl_event * upload, const gchar ** what)
{
  gpointer data = GST_VIDEO_FRAME_PLANE_DATA (vframe, p);
  gsize size = gst_cl_plane_size (plane);
  cl_int status = CL_SUCCESS;

  if (queue->caps->unified_memory) {
    *what = "clCreateBuffer (CL_MEM_USE_HOST_PTR)";
    plane->mem =
        clCreateBuffer (queue->context,
        CL_MEM_USE_HOST_PTR | (output ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY),
        size, data, &status);
    return status;
  }

  /* whole rows, so that rectangle reads never end inside a row */
  *what = "clCreateBuffer";
  status = ensure_staging (queue->context, staging, p, (gsize) plane->stride *
      plane->height);
  if (status != CL_SUCCESS)
    return status;
  plane->mem = staging->mem[p];
  *borrowed = TRUE;
  if (output)
    return CL_SUCCESS;
  /* non-blocking: the frame stays mapped until the copy is done */
  *what = "clEnqueueWriteBuffer";
  return clEnqueueWriteBuffer (queue->handle, plane->mem, CL_FALSE, 0, size,
      data, 0, NULL, upload);
}

/* Where the planes of @vframe follow each other in memory, each at an
 * offset where a sub-buffer may start, and (for an output, whose copy back
 * must leave everything else alone) rows hold pixels only: the bytes from
 * the first plane's start to the last one's end, else 0. */
static gsize
whole_frame_size (const GstClDeviceCaps * caps, const GstVideoFrame * vframe,
    const GstClFrame * frame, gboolean output)
{
  gsize align = MAX (caps->mem_base_addr_align / 8, 1);
  const guint8 *base = GST_VIDEO_FRAME_PLANE_DATA (vframe, 0);
  gsize end = 0;
  guint p;

  if (frame->n_planes < 2)
    return 0;
  for (p = 0; p < frame->n_planes; p++) {
    const GstClPlane *plane = &frame->planes[p];
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (vframe, p);

    if (data != base + end || end % align != 0 || (output &&
            plane->stride != plane->width * plane->pstride))
      return 0;
    end += p + 1 < frame->n_planes ? (gsize) plane->stride * plane->height :
        gst_cl_plane_size (plane);
  }
  return end;
}

/* Makes the planes of @frame sub-buffers of one staging buffer of @size
 * bytes, laid out as @vframe: kept while the layout stays. */
static cl_int
ensure_whole_staging (cl_context context, GstClStaging * staging,
    const GstVideoFrame * vframe, GstClFrame * frame, gsize size,
    const gchar ** what)
{
  const guint8 *base = GST_VIDEO_FRAME_PLANE_DATA (vframe, 0);
  cl_int status = CL_SUCCESS;
  guint p;

  if (!staging->whole || staging->whole_size < size) {
    gst_cl_staging_clear (staging);
    *what = "clCreateBuffer";
    staging->whole = clCreateBuffer (context, CL_MEM_READ_WRITE, size, NULL,
        &status);
    if (status != CL_SUCCESS) {
      staging->whole = NULL;
      return status;
    }
    staging->whole_size = size;
  }
  for (p = 0; p < frame->n_planes; p++) {
    gsize offset = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (vframe, p) -
        base;
    /* each its own plane's bytes (sub-buffers that overlap crash NVIDIA's
     * driver once a command uses them), the first too: OpenCL leaves
     * undefined a kernel's writes to a buffer and to a sub-buffer of it */
    gsize end = p + 1 < frame->n_planes ? (gsize) ((const guint8 *)
        GST_VIDEO_FRAME_PLANE_DATA (vframe, p + 1) - base) : size;
    cl_buffer_region region = { offset, end - offset };

    if (!staging->sub[p] || staging->sub_offset[p] != offset ||
        staging->sub_size[p] != region.size) {
      if (staging->sub[p])
        clReleaseMemObject (staging->sub[p]);
      staging->sub[p] = clCreateSubBuffer (staging->whole, 0,
          CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
      staging->sub_offset[p] = offset;
      staging->sub_size[p] = region.size;
      if (status != CL_SUCCESS) {
        *what = "clCreateSubBuffer";
        staging->sub[p] = NULL;
        return status;
      }
    }
    frame->planes[p].mem = staging->sub[p];
  }
  return CL_SUCCESS;
}

static void
buffer_frame_release (GstClBufferFrame * bframe)
{
  guint p;

  for (p = 0; p < bframe->frame.n_planes; p++) {
    if (bframe->frame.planes[p].mem && !bframe->borrowed[p])
      clReleaseMemObject (bframe->frame.planes[p].mem);
    bframe->frame.planes[p].mem = NULL;
    bframe->borrowed[p] = FALSE;
  }
  bframe->whole = NULL;
  bframe->whole_size = 0;
}

/* Makes the planes of the mapped frame of @bframe, readable (input) or
 * writable (output), its kernels' buffers: wrapped in place or through
 * @staging. */
static gboolean
frame_import (GstClQueue * queue, GstClBufferFrame * bframe,
    GstClStaging * staging, GError ** error)
{
  GstClFrame *frame = &bframe->frame;
  const gchar *what = NULL;
  cl_int status = CL_SUCCESS;
  guint p;

  gst_cl_frame_set_geometry (frame, &bframe->vframe.info);
  for (p = 0; p < frame->n_planes; p++) {
    if (frame->planes[p].stride <= 0) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "plane %u has a stride of %d bytes; only positive strides are "
          "supported", p, frame->planes[p].stride);
      goto failed;
    }
  }
  /* planes one after another: one copy each way for them all, where a
   * driver spends as much on each command as on the bytes it moves */
  if (!queue->caps->unified_memory && (bframe->whole_size =
          whole_frame_size (queue->caps, &bframe->vframe, frame,
              bframe->output))) {
    for (p = 0; p < frame->n_planes; p++)
      bframe->borrowed[p] = TRUE;
    status = ensure_whole_staging (queue->context, staging, &bframe->vframe,
        frame, bframe->whole_size, &what);
    bframe->whole = status == CL_SUCCESS ? staging->whole : NULL;
    if (bframe->whole && !bframe->output) {
      what = "clEnqueueWriteBuffer";
      status = clEnqueueWriteBuffer (queue->handle, bframe->whole, CL_FALSE,
          0, bframe->whole_size, GST_VIDEO_FRAME_PLANE_DATA (&bframe->vframe,
              0), 0, NULL, bframe->followed ? NULL : &bframe->upload);
    }
  }
  /* in order: the last copy ends after the others */
  for (p = 0; !bframe->whole_size && status == CL_SUCCESS &&
      p < frame->n_planes; p++)
    status = import_plane (queue, &bframe->vframe, p, bframe->output,
        staging, &frame->planes[p], &bframe->borrowed[p],
        p + 1 == frame->n_planes && !bframe->followed ?
        &bframe->upload : NULL, &what);
  if (gst_cl_result (status, error, what))
    return TRUE;

failed:
  buffer_frame_release (bframe);
  return FALSE;
}

/* Waits for the kernels that write @frame and makes the result visible in
 * the mapped output @vframe. */
static gboolean
frame_export (GstClQueue * queue, GstClBufferFrame * bframe, GError ** error)
{
  gboolean unified = queue->caps->unified_memory;
  cl_command_queue cq = queue->handle;
  GstVideoFrame *vframe = &bframe->vframe;
  GstClFrame *frame = &bframe->frame;
  const gchar *what = "clEnqueueReadBuffer";
  cl_int status = CL_SUCCESS;
  cl_event done = NULL;
  gboolean ok = TRUE;
  guint p;

  if (bframe->whole)
    status = clEnqueueReadBuffer (cq, bframe->whole, CL_FALSE, 0,
        bframe->whole_size, GST_VIDEO_FRAME_PLANE_DATA (vframe, 0), 0, NULL,
        &done);
  for (p = 0; p < frame->n_planes && !bframe->whole && status == CL_SUCCESS;
      p++) {
    GstClPlane *plane = &frame->planes[p];
    gsize size = gst_cl_plane_size (plane);
    gpointer ptr;
    /* the queue is in order: the last copy back ends after everything.
     * Not a blocking copy: NVIDIA's driver holds a lock through one, which
     * stalls every other thread's commands (8 branches: 8,900 frames/s
     * down to 5,500) */
    cl_event *event = p + 1 == frame->n_planes ? &done : NULL;

    if (!unified && plane->stride == plane->width * plane->pstride) {
      /* rows without padding: one plain copy, which drivers do fastest */
      status = clEnqueueReadBuffer (cq, plane->mem, CL_FALSE, 0, size,
          GST_VIDEO_FRAME_PLANE_DATA (vframe, p), 0, NULL, event);
    } else if (!unified) {
      /* the pixels only: a row's padding may hold another plane */
      const gsize origin[3] = { 0, 0, 0 };
      const gsize region[3] = { (gsize) plane->width * plane->pstride,
        plane->height, 1
      };

      what = "clEnqueueReadBufferRect";
      status = clEnqueueReadBufferRect (cq, plane->mem, CL_FALSE, origin,
          origin, region, plane->stride, 0, plane->stride, 0,
          GST_VIDEO_FRAME_PLANE_DATA (vframe, p), 0, NULL, event);
    } else {
      /* a map is what makes a CL_MEM_USE_HOST_PTR buffer's host copy
       * current; on unified memory it returns the host pointer itself */
      what = "clEnqueueMapBuffer";
      ptr = clEnqueueMapBuffer (cq, plane->mem, CL_TRUE, CL_MAP_READ, 0, size,
          0, NULL, NULL, &status);
      if (status == CL_SUCCESS) {
        what = "clEnqueueUnmapMemObject";
        status = clEnqueueUnmapMemObject (cq, plane->mem, ptr, 0, NULL, NULL);
      }
    }
  }
  /* no copy back: everything so far; a copy that failed: nothing to wait
   * for, its error is the one told */
  if (status == CL_SUCCESS)
    ok = gst_cl_queue_wait (queue, done, error);
  if (done)
    clReleaseEvent (done);
  return ok && gst_cl_result (status, error, what);
}

/**
 * gst_cl_frame_release:
 *
 * Releases the buffers of the planes of @frame.
 */
void
gst_cl_frame_release (GstClFrame * frame)
{
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    if (frame->planes[p].mem)
      clReleaseMemObject (frame->planes[p].mem);
    frame->planes[p].mem = NULL;
  }
}

/* The plane's buffer when @buffer's memory there is a GstClMemory of @ctx
 * (an other context's has another queue, which would not wait for ours):
 * the memory's own buffer, or a sub-buffer where the plane starts inside it
 * at an offset the device allows; an input plane starting elsewhere (a crop)
 * is copied on the device into the staging buffer @p. */
static cl_mem
device_plane (GstClQueue * queue, GstBuffer * buffer,
    gsize offset, const GstClPlane * plane, gboolean output,
    GstClStaging * staging, guint p, GstMemory ** memory, gboolean * borrowed)
{
  gsize align = MAX (queue->caps->mem_base_addr_align / 8, 1);
  guint idx, len;
  gsize skip, origin;
  GstMemory *mem;
  cl_buffer_region region;
  cl_mem sub;
  cl_int status = CL_SUCCESS;

  if (!gst_buffer_find_memory (buffer, offset, 1, &idx, &len, &skip))
    return NULL;
  mem = gst_buffer_peek_memory (buffer, idx);
  if (!gst_is_cl_memory (mem) || gst_cl_memory_get_context (mem) != queue->ctx
      || skip + gst_cl_plane_size (plane) > mem->size || (output
          && GST_MEMORY_IS_READONLY (mem)))
    return NULL;
  *memory = mem;
  origin = mem->offset + skip;
  if (origin == 0) {
    *borrowed = TRUE;
    return gst_cl_memory_get_buffer (mem);
  }
  if (origin % align != 0) {
    gsize size = gst_cl_plane_size (plane);
    GArray *deps = gst_cl_event_array_new ();
    cl_int copied = CL_INVALID_OPERATION;

    gst_cl_memory_get_dependencies (mem, FALSE, deps);
    if (!output && staging && ensure_staging (queue->context, staging, p,
            size) == CL_SUCCESS)
      copied =
          clEnqueueCopyBuffer (queue->handle,
          gst_cl_memory_get_buffer (mem), staging->mem[p], origin, 0, size,
          deps->len, (cl_event *) deps->data, NULL);
    g_array_unref (deps);
    if (copied != CL_SUCCESS)
      return NULL;
    GST_LOG ("plane %u at offset %" G_GSIZE_FORMAT ": copied on the device", p,
        origin);
    *borrowed = TRUE;
    return staging->mem[p];
  }
  region.origin = origin;
  region.size = mem->maxsize - origin;
  sub = clCreateSubBuffer (gst_cl_memory_get_buffer (mem), 0,
      CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  return status == CL_SUCCESS ? sub : NULL;
}

/* Makes @frame the planes of @buffer on the device, if it is there, with
 * the commands enqueued next waiting for what its memories wait for. */
static gboolean
device_frame (GstClQueue * queue, const GstVideoInfo * info, GstBuffer * buffer,
    gboolean output, GstClStaging * staging, GstClBufferFrame * bframe)
{
  GstClFrame *frame = &bframe->frame;
  GArray *deps;
  gboolean ok;
  GstVideoInfo layout = *info;
  guint p;

  gst_cl_buffer_frame_layout (info, buffer, output, &layout);
  gst_cl_frame_set_geometry (frame, &layout);
  for (p = 0; p < frame->n_planes; p++) {
    if (frame->planes[p].stride <= 0)
      goto not_device;
    frame->planes[p].mem = device_plane (queue, buffer,
        layout.offset[p], &frame->planes[p], output, staging, p,
        &bframe->device[p], &bframe->borrowed[p]);
    if (!frame->planes[p].mem)
      goto not_device;
  }
  deps = gst_cl_event_array_new ();
  for (p = 0; p < frame->n_planes; p++)
    gst_cl_memory_get_dependencies (bframe->device[p], output, deps);
  ok = gst_cl_queue_wait_for (queue, deps, NULL);
  g_array_unref (deps);
  if (!ok)
    goto not_device;
  return TRUE;

not_device:
  buffer_frame_release (bframe);
  memset (bframe->device, 0, sizeof (bframe->device));
  return FALSE;
}

/* the registered tables of other APIs' memories, in order: never removed */
static const GstClFrameMemory *memories[GST_CL_MAX_FRAME_MEMORIES];
static gint n_memories;

/**
 * gst_cl_frame_memory_register:
 *
 * Frames in @memory's API go through its table from now on. Called once
 * for each table, before its first frame.
 */
void
gst_cl_frame_memory_register (const GstClFrameMemory * memory)
{
  static GMutex lock;
  gint i;

  g_mutex_lock (&lock);
  for (i = 0; i < n_memories && memories[i] != memory; i++);
  if (i == n_memories) {
    g_assert (n_memories < GST_CL_MAX_FRAME_MEMORIES);
    memories[n_memories] = memory;
    g_atomic_int_set (&n_memories, n_memories + 1);
  }
  g_mutex_unlock (&lock);
}

/* the index of the table whose API @buffer's memory is, or -1 */
static gint
memory_of (GstBuffer * buffer)
{
  gint i;

  for (i = 0; i < g_atomic_int_get (&n_memories); i++) {
    if (memories[i]->takes (buffer))
      return i;
  }
  return -1;
}

/**
 * gst_cl_buffer_frame_map:
 * @info: the negotiated video info of @buffer
 * @flags: %GST_MAP_READ for an input, %GST_MAP_WRITE for an output, and
 *   any #GstVideoFrameFlags a mapped frame takes
 * @staging: device buffers to reuse where host memory cannot be used in place
 * @frame: (out): released with gst_cl_buffer_frame_unmap()
 *
 * Makes the planes of @buffer kernel arguments: its own device buffers when
 * it is in #GstClMemory of @ctx, else those of the mapped frame. An input's
 * #GstVideoCropMeta is honoured: the planes are those of the crop.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_buffer_frame_map (GstClQueue * queue, GstClBufferFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    GstClStaging * staging, GError ** error)
{
  const GstVideoCropMeta *crop;
  guint p;
  gint i;

  ensure_debug_category ();
  memset (frame, 0, sizeof (*frame));
  frame->output = (flags & GST_MAP_WRITE) != 0;
  frame->followed = !frame->output && (flags & GST_CL_MAP_FOLLOWED) != 0;
  flags &= ~GST_CL_MAP_FOLLOWED;
  if (!gst_cl_buffer_holds_frame (info, buffer, error))
    return FALSE;
  if ((i = memory_of (buffer)) >= 0) {
    frame->memory = memories[i];
    if (!memories[i]->map (queue, frame, info, buffer, &staging->foreign[i],
            error)) {
      frame->memory = NULL;
      return FALSE;
    }
    GST_LOG ("%s %" GST_PTR_FORMAT " in another API's memory", frame->output ?
        "output" : "input", buffer);
    return TRUE;
  }
  if (device_frame (queue, info, buffer, frame->output, staging, frame)) {
    GST_LOG ("%s %" GST_PTR_FORMAT " on the device", frame->output ?
        "output" : "input", buffer);
    return TRUE;
  }
  GST_LOG ("%s %" GST_PTR_FORMAT " mapped", frame->output ? "output" :
      "input", buffer);
  if (!gst_video_frame_map (&frame->vframe, info, buffer, flags)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
        "could not map a video frame: the buffer does not match the "
        "negotiated caps");
    return FALSE;
  }
  frame->mapped = TRUE;
  /* a frame mapped through a GstVideoMeta has the meta's size, which may be
   * larger (a crop, a decoder's padded frame): the kernels take the
   * negotiated one, from the crop's corner */
  frame->vframe.info.width = GST_VIDEO_INFO_WIDTH (info);
  frame->vframe.info.height = GST_VIDEO_INFO_HEIGHT (info);
  if (!frame->output && (crop = gst_cl_buffer_input_crop (info, buffer))) {
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame->vframe); p++)
      frame->vframe.data[p] = (guint8 *) frame->vframe.data[p] +
          gst_cl_crop_offset (info->finfo, p, GST_VIDEO_FRAME_PLANE_STRIDE
          (&frame->vframe, p), crop);
  }
  frame->pending = TRUE;
  if (!frame_import (queue, frame, staging, error)) {
    /* a plane's copy may be under way when a later one fails: no copy
     * back follows it now, so the unmap waits for it */
    frame->followed = FALSE;
    gst_cl_buffer_frame_unmap (queue, frame);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_cl_buffer_frame_map_tables:
 * @buffers: @n buffers, each of one #GstClMemory of @queue's context
 *   that starts at its buffer's start (a table an element computes, not a
 *   video frame)
 *
 * Maps @buffers as the planes of one frame on the device, in order, each
 * plane the whole memory, with no geometry: the commands enqueued next
 * wait for what the memories wait for. gst_cl_buffer_frame_unmap() makes
 * the commands enqueued until then their last use, once for them all.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_buffer_frame_map_tables (GstClQueue * queue, GstClBufferFrame * frame,
    GstBuffer * const *buffers, guint n, GstMapFlags flags, GError ** error)
{
  GArray *deps;
  gboolean ok;
  guint p;

  g_return_val_if_fail (n <= GST_VIDEO_MAX_PLANES, FALSE);

  memset (frame, 0, sizeof (*frame));
  frame->output = (flags & GST_MAP_WRITE) != 0;
  frame->frame.n_planes = n;
  deps = gst_cl_event_array_new ();
  for (p = 0; p < n; p++) {
    GstMemory *mem = gst_buffer_n_memory (buffers[p]) == 1 ?
        gst_buffer_peek_memory (buffers[p], 0) : NULL;

    if (!mem || !gst_is_cl_memory (mem) || mem->offset != 0 ||
        gst_cl_memory_get_context (mem) != queue->ctx) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
          "a table is not one OpenCL buffer of the element's context");
      g_array_unref (deps);
      memset (frame->device, 0, sizeof (frame->device));
      return FALSE;
    }
    frame->device[p] = mem;
    frame->borrowed[p] = TRUE;
    frame->frame.planes[p].mem = gst_cl_memory_get_buffer (mem);
    gst_cl_memory_get_dependencies (mem, frame->output, deps);
  }
  ok = gst_cl_queue_wait_for (queue, deps, error);
  g_array_unref (deps);
  if (!ok) {
    buffer_frame_release (frame);
    memset (frame->device, 0, sizeof (frame->device));
  }
  return ok;
}

/**
 * gst_cl_buffer_frames_acquire:
 * @frames: @n mapped frames, the output and the inputs of a frame pass
 *
 * Before the first kernel that uses @frames: those in another API's memory are
 * acquired for @queue, in one call; the others need nothing.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_buffer_frames_acquire (GstClQueue * queue,
    GstClBufferFrame * const *frames, guint n, GError ** error)
{
  gint i;

  for (i = 0; i < g_atomic_int_get (&n_memories); i++) {
    if (!memories[i]->acquire (queue, frames, n, error))
      return FALSE;
  }
  return TRUE;
}

/**
 * gst_cl_buffer_frame_finish:
 * @inputs: the @n_inputs mapped inputs of the same frame pass
 *
 * After the kernels that write the output @frame are enqueued: a mapped
 * frame gets their results (and waits for them); a device one only has
 * them submitted, for the next cl element's kernels to follow on the queue.
 * A frame in another API's memory (CUDA's) gives its staging back, and the inputs'
 * with it.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_buffer_frame_finish (GstClQueue * queue, GstClBufferFrame * frame,
    GstClBufferFrame * const *inputs, guint n_inputs, GError ** error)
{
  if (frame->memory)
    return frame->memory->finish (queue, frame, inputs, n_inputs, error);
  if (frame->mapped) {
    if (!frame_export (queue, frame, error))
      return FALSE;
    frame->pending = FALSE;
    return TRUE;
  }
  return gst_cl_queue_flush (queue, error);
}

/* The commands enqueued so far on @queue become the last use of the
 * memories of a device frame: the next ones wait for them. */
static void
device_frame_done (GstClQueue * queue, GstClBufferFrame * frame)
{
  cl_event done;
  guint p;

  for (p = 0; p < frame->frame.n_planes && !frame->device[p]; p++);
  if (p == frame->frame.n_planes)
    return;
  if (!(done = gst_cl_queue_mark (queue, NULL))) {
    /* no event to wait for: the commands end before anyone goes on */
    GST_WARNING ("no marker: waiting for the queue");
    clFinish (queue->handle);
  } else {
    gst_cl_queue_flush (queue, NULL);
    for (p = 0; p < frame->frame.n_planes; p++)
      if (frame->device[p])
        gst_cl_memory_add_access (frame->device[p], frame->output, done);
    clReleaseEvent (done);
  }
  memset (frame->device, 0, sizeof (frame->device));
}

/**
 * gst_cl_buffer_frame_unmap:
 *
 * Releases the planes of @frame. The commands on @queue so far are the
 * last to use a device frame, which later ones wait for; a mapped frame's
 * host memory is given back only once they are done with it.
 */
void
gst_cl_buffer_frame_unmap (GstClQueue * queue, GstClBufferFrame * frame)
{
  gboolean upload;

  if (frame->memory) {
    frame->memory->unmap (queue, frame);
    frame->memory = NULL;
    buffer_frame_release (frame);
    return;
  }
  if (!frame->mapped)
    device_frame_done (queue, frame);
  buffer_frame_release (frame);
  if (!frame->mapped)
    return;
  /* the upload mostly done already (the output's copy back, after it on
   * the same queue, was waited for): then neither flushed nor waited for;
   * without one, everything on the queue */
  upload = frame->upload && !queue->caps->unified_memory && !frame->output;
  if (upload || (frame->pending && !frame->followed))
    gst_cl_queue_wait (queue, upload ? frame->upload : NULL, NULL);
  if (frame->upload)
    clReleaseEvent (frame->upload);
  frame->upload = NULL;
  frame->pending = FALSE;
  gst_video_frame_unmap (&frame->vframe);
  frame->mapped = FALSE;
}

/**
 * gst_cl_staging_clear:
 *
 * Releases the device buffers kept in @staging.
 */
void
gst_cl_staging_clear (GstClStaging * staging)
{
  guint p;

  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    if (staging->mem[p])
      clReleaseMemObject (staging->mem[p]);
    if (staging->sub[p])
      clReleaseMemObject (staging->sub[p]);
  }
  if (staging->whole)
    clReleaseMemObject (staging->whole);
  for (p = 0; p < GST_CL_MAX_FRAME_MEMORIES; p++)
    if (staging->foreign[p])
      memories[p]->staging_free (staging->foreign[p]);
  for (p = 0; p < G_N_ELEMENTS (staging->planar); p++)
    if (staging->planar[p])
      clReleaseMemObject (staging->planar[p]);
  memset (staging, 0, sizeof (*staging));
}
