/* gstclfilters: frames in CUDA memory: the staging, CUDA's memory in OpenCL
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Memory that CUDA can export is imported into OpenCL
 * (cl_khr_external_memory_opaque_fd). Each of a frame path's stagings
 * holds a few slots, each one such buffer, imported once, its planes
 * sub-buffers laid out as the CUDA memory wherever sub-buffers may start
 * there, so that a frame crosses in one copy; a fence, a word of such
 * memory, which OpenCL writes and CUDA's stream waits for; and the stream
 * the copies run on. Where the element's pool makes memory CUDA exports
 * itself (GStreamer 1.24 on), an output's pooled memory is imported once
 * and kept with it, a slot of its own. gstclcudaframe.c moves the frames.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <unistd.h>

#include "gstclcudastaging.h"
#include "gstclcuda.h"
#include "gstclcuda-private.h"
#include "gstclerror.h"
#include "gstclevent.h"
#include "gstclqueue.h"

#define GST_CAT_DEFAULT gst_cl_cuda_debug



static void
shared_free (Shared * s)
{
  if (s->handle)
    GST_LOG ("freeing %" G_GSIZE_FORMAT " bytes", s->size);
  if (s->mem)
    clReleaseMemObject (s->mem);
  if (s->ptr) {
    gst_cl_cu.MemUnmap (s->ptr, s->size);
    gst_cl_cu.MemAddressFree (s->ptr, s->size);
  }
  if (s->handle)
    gst_cl_cu.MemRelease (s->handle);
  memset (s, 0, sizeof (*s));
}

/* @size bytes of the CUDA allocation @fd exports, imported into OpenCL;
 * the import owns @fd once it succeeds, else it is closed */
static cl_mem
shared_import (GstClCudaStaging * st, gint fd, gsize size, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (st->ctx);
  cl_mem_properties props[] = {
    CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, (cl_mem_properties) fd,
    CL_DEVICE_HANDLE_LIST_KHR, (cl_mem_properties) device,
    CL_DEVICE_HANDLE_LIST_END_KHR, 0
  };
  cl_int status = CL_SUCCESS;
  cl_mem mem;

  mem = clCreateBufferWithProperties (gst_cl_context_get_handle (st->ctx),
      props, CL_MEM_READ_WRITE, size, NULL, &status);
  if (!mem && status == CL_SUCCESS)
    status = CL_INVALID_OPERATION;
  if (!gst_cl_result (status, error, "clCreateBufferWithProperties "
          "(importing CUDA memory)")) {
    close (fd);
    return NULL;
  }
  GST_DEBUG ("imported %" G_GSIZE_FORMAT " bytes of CUDA device %d", size,
      st->ordinal);
  return mem;
}

static gboolean
shared_alloc (GstClCudaStaging * st, gsize size, Shared * s, GError ** error)
{
  CUmemAllocationProp prop = { 0, };
  CUmemAccessDesc access = { {0,}, 0 };
  gsize granularity = 0;
  gint fd = -1;

  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = st->ordinal;
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;

  memset (s, 0, sizeof (*s));
  if (!gst_cl_cu_result (gst_cl_cu.MemGetAllocationGranularity (&granularity,
              &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), error,
          "cuMemGetAllocationGranularity"))
    return FALSE;
  s->size = (size + granularity - 1) / granularity * granularity;
  if (!gst_cl_cu_result (gst_cl_cu.MemCreate (&s->handle, s->size, &prop, 0),
          error, "cuMemCreate"))
    goto failed;
  if (!gst_cl_cu_result (gst_cl_cu.MemAddressReserve (&s->ptr, s->size, 0, 0,
              0), error, "cuMemAddressReserve"))
    goto failed;
  if (!gst_cl_cu_result (gst_cl_cu.MemMap (s->ptr, s->size, 0, s->handle, 0),
          error, "cuMemMap")) {
    gst_cl_cu.MemAddressFree (s->ptr, s->size);
    s->ptr = 0;
    goto failed;
  }
  if (!gst_cl_cu_result (gst_cl_cu.MemSetAccess (s->ptr, s->size, &access, 1),
          error, "cuMemSetAccess")
      || !gst_cl_cu_result (gst_cl_cu.MemExportToShareableHandle (&fd,
              s->handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), error,
          "cuMemExportToShareableHandle")
      || !(s->mem = shared_import (st, fd, s->size, error)))
    goto failed;
  return TRUE;

failed:
  shared_free (s);
  return FALSE;
}

static void
slot_clear (Slot * slot)
{
  guint p;

  if (slot->done) {
    GST_LOG ("waiting for a slot's commands");
    clWaitForEvents (1, &slot->done);
    clReleaseEvent (slot->done);
  }
  slot->done = NULL;
  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    if (slot->sub[p])
      clReleaseMemObject (slot->sub[p]);
  }
  shared_free (&slot->whole);
  memset (slot, 0, sizeof (*slot));
}

/* releases every buffer of @st, once the commands using them are done */
static void
staging_reset (GstClCudaStaging * st)
{
  guint i;

  if (st->abandoned) {
    GST_WARNING ("leaving CUDA staging buffers the driver did not take back");
    for (i = 0; i < N_SLOTS; i++) {
      if (st->slot[i].done)
        clReleaseEvent (st->slot[i].done);
      memset (&st->slot[i], 0, sizeof (st->slot[i]));
    }
    memset (&st->fence, 0, sizeof (st->fence));
    st->stream = NULL;
    st->abandoned = FALSE;
  }
  for (i = 0; i < N_SLOTS; i++)
    slot_clear (&st->slot[i]);
  shared_free (&st->fence);
  st->fenced = FALSE;
  st->fence_value = 0;
  if ((st->stream || st->after) && st->cuda_ctx) {
    CUcontext prev;

    gst_cl_cu.CtxPushCurrent (gst_cl_gstcuda.context_get_handle (st->cuda_ctx));
    if (st->stream)
      gst_cl_cu.StreamDestroy (st->stream);
    if (st->after)
      gst_cl_cu.EventDestroy (st->after);
    gst_cl_cu.CtxPopCurrent (&prev);
  }
  st->stream = NULL;
  st->after = NULL;
  gst_clear_object (&st->cuda_ctx);
  st->ctx = NULL;
  st->checked = FALSE;
  st->acquire = NULL;
  st->release = NULL;
}

/* Releases @data, a staging, waiting for the commands that still use its
 * buffers. */
void
gst_cl_cuda_staging_free (gpointer data)
{
  GstClCudaStaging *st = data;

  staging_reset (st);
  g_free (st);
}

/* Readies @st for frames of the CUDA context @cuda_ctx and the OpenCL
 * context @ctx: same GPU, OpenCL can import, a stream in @cuda_ctx. */
gboolean
gst_cl_cuda_staging_prepare (GstClCudaStaging * st, GstClContext * ctx,
    GstObject * cuda_ctx, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (ctx);
  cl_platform_id platform = NULL;
  CUcontext prev;
  gboolean ok;

  if (st->checked && st->ctx == ctx && st->cuda_ctx == cuda_ctx)
    return TRUE;
  staging_reset (st);
  st->ordinal = gst_cl_cuda_context_device_id (cuda_ctx);
  if (!gst_cl_cuda_same_device (ctx, st->ordinal, error))
    return FALSE;
  clGetDeviceInfo (device, CL_DEVICE_PLATFORM, sizeof (platform), &platform,
      NULL);
  if (gst_cl_cuda_context_takes (ctx)) {
    st->acquire = (clEnqueueAcquireExternalMemObjectsKHR_fn)
        clGetExtensionFunctionAddressForPlatform (platform,
        "clEnqueueAcquireExternalMemObjectsKHR");
    st->release = (clEnqueueReleaseExternalMemObjectsKHR_fn)
        clGetExtensionFunctionAddressForPlatform (platform,
        "clEnqueueReleaseExternalMemObjectsKHR");
  }
  if (!st->acquire || !st->release) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "the OpenCL device \"%s\" cannot import CUDA memory (it lacks "
        "cl_khr_external_memory_opaque_fd): put cudadownload before the "
        "element", gst_cl_context_get_device_name (ctx));
    return FALSE;
  }
  ok = gst_cl_cu_result (gst_cl_cu.
      CtxPushCurrent (gst_cl_gstcuda.context_get_handle (cuda_ctx)), error,
      "cuCtxPushCurrent");
  if (ok) {
    gst_cl_cuda_context_set_sched ();
    ok = gst_cl_cu_result (gst_cl_cu.StreamCreate (&st->stream,
            CU_STREAM_NON_BLOCKING), error, "cuStreamCreate") &&
        gst_cl_cu_result (gst_cl_cu.EventCreate (&st->after,
            CU_EVENT_DISABLE_TIMING), error, "cuEventCreate");
    gst_cl_cu.CtxPopCurrent (&prev);
  }
  st->cuda_ctx = gst_object_ref (cuda_ctx);
  if (!ok) {
    staging_reset (st);
    return FALSE;
  }
  st->ctx = ctx;
  st->checked = TRUE;
  /* GST_CL_CUDA_FENCE=0: the host waits for the kernels before the copy out */
  st->fenced = gst_cl_cu.StreamWaitValue32 &&
      g_strcmp0 (g_getenv ("GST_CL_CUDA_FENCE"), "0") != 0;
  GST_INFO ("frames cross between CUDA device %d and \"%s\" on the device",
      st->ordinal, gst_cl_context_get_device_name (ctx));
  return TRUE;
}

/* @value written into the fence from the host, done before this returns:
 * the memset runs on the legacy stream, in no order with the staging's,
 * which may wait for it; the context's current */
CUresult
gst_cl_cuda_fence_write (GstClCudaStaging * st, guint32 value)
{
  CUresult res = gst_cl_cu.MemsetD32 (st->fence.ptr, value, 1);

  return res == CUDA_SUCCESS ? gst_cl_cu.StreamSynchronize (NULL) : res;
}

/* The fence, zeroed, for the first output frame; where the stream cannot
 * wait on it (the driver says so at a first wait, which is already
 * satisfied), the staging goes without. */
gboolean
gst_cl_cuda_fence_ensure (GstClCudaStaging * st, GError ** error)
{
  CUcontext prev;
  CUresult res;
  gboolean ok;

  if (st->fence.mem)
    return TRUE;
  if (!shared_alloc (st, sizeof (guint32), &st->fence, error))
    return FALSE;
  ok = gst_cl_cu_result (gst_cl_cu.
      CtxPushCurrent (gst_cl_gstcuda.context_get_handle (st->cuda_ctx)), error,
      "cuCtxPushCurrent");
  if (ok) {
    ok = gst_cl_cu_result (gst_cl_cuda_fence_write (st, 0), error,
        "cuMemsetD32");
    if (ok) {
      res = gst_cl_cu.StreamWaitValue32 (st->stream, st->fence.ptr, 0,
          CU_STREAM_WAIT_VALUE_GEQ);
      if (res == CUDA_SUCCESS)
        res = gst_cl_cu.StreamSynchronize (st->stream);
      if (res != CUDA_SUCCESS) {
        GST_INFO ("CUDA device %d cannot wait for OpenCL's kernels (%d): the "
            "host waits", st->ordinal, res);
        st->fenced = FALSE;
      }
    }
    gst_cl_cu.CtxPopCurrent (&prev);
  }
  if (!ok || !st->fenced)
    shared_free (&st->fence);
  st->fence_value = 0;
  return ok;
}

/* Where @slot's planes go, for @frame's, whose strides are those of the
 * CUDA memory, which @layout lays out: where its planes follow one another
 * at offsets that sub-buffers may start at (NV12 from cuMemAllocPitch
 * does), as there, so that one copy moves them all (a 1080p frame's two
 * copies each way cost the host about 10 us more than one); else each at
 * the next such offset.
 *
 * Returns: the bytes @slot needs */
static gsize
slot_plan (GstClCudaStaging * st, Slot * slot, const GstClFrame * frame,
    const GstVideoInfo * layout)
{
  gsize align = MAX (gst_cl_context_get_caps (st->ctx)->mem_base_addr_align /
      8, 1);
  gboolean as_there = TRUE;
  gsize end = 0;
  guint p;

  for (p = 0; p < frame->n_planes && as_there; p++) {
    gsize at = layout->offset[p] - layout->offset[0];

    as_there = layout->offset[p] >= layout->offset[0] + end && at % align == 0;
    end = at + gst_cl_plane_size (&frame->planes[p]);
  }
  for (p = 0, end = 0; p < frame->n_planes; p++) {
    slot->offset[p] = as_there ? layout->offset[p] - layout->offset[0] :
        (end + align - 1) / align * align;
    end = slot->offset[p] + gst_cl_plane_size (&frame->planes[p]);
  }
  slot->span = as_there ? end : 0;
  return end;
}

/* @frame's planes as sub-buffers of @slot's buffer, at slot->offset */
static gboolean
slot_planes (Slot * slot, const GstClFrame * frame, GError ** error)
{
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    /* each its own plane's bytes (sub-buffers that overlap crash NVIDIA's
     * driver once a command uses them), the first too: OpenCL leaves
     * undefined a kernel's writes to a buffer and to a sub-buffer of it */
    cl_buffer_region region = { slot->offset[p],
      gst_cl_plane_size (&frame->planes[p])
    };
    cl_int status = CL_SUCCESS;

    if (slot->sub[p] && slot->sub_size[p] == region.size &&
        slot->sub_offset[p] == region.origin)
      continue;
    if (slot->sub[p])
      clReleaseMemObject (slot->sub[p]);
    slot->sub[p] = clCreateSubBuffer (slot->whole.mem, 0,
        CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    slot->sub_offset[p] = region.origin;
    slot->sub_size[p] = region.size;
    if (!gst_cl_result (status, error, "clCreateSubBuffer (a plane of "
            "CUDA memory)")) {
      slot->sub[p] = NULL;
      return FALSE;
    }
  }
  return TRUE;
}

/* A slot for @frame, laid out as slot_plan() says for @layout: one the
 * device is done with, else the oldest, once it is. */
Slot *
gst_cl_cuda_slot_acquire (GstClCudaStaging * st, const GstClFrame * frame,
    const GstVideoInfo * layout, GError ** error)
{
  Slot *slot = NULL;
  gsize size;
  guint i, p;

  if (st->abandoned) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "the OpenCL driver did not give CUDA staging buffers back");
    return NULL;
  }
  for (i = 0; i < N_SLOTS && !slot; i++) {
    Slot *s = &st->slot[(st->next + i) % N_SLOTS];

    if (!s->busy && (!s->done || gst_cl_event_status (s->done) == CL_COMPLETE))
      slot = s;
  }
  for (i = 0; i < N_SLOTS && !slot; i++) {
    Slot *s = &st->slot[(st->next + i) % N_SLOTS];

    if (!s->busy)
      slot = s;
  }
  if (!slot) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "every CUDA staging buffer is in use");
    return NULL;
  }
  st->next = (slot - st->slot + 1) % N_SLOTS;
  if (slot->done) {
    if (!gst_cl_event_wait (st->ctx, slot->done, error))
      return NULL;
    clReleaseEvent (slot->done);
    slot->done = NULL;
  }
  size = slot_plan (st, slot, frame, layout);
  if (slot->whole.size < size) {
    for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
      if (slot->sub[p])
        clReleaseMemObject (slot->sub[p]);
      slot->sub[p] = NULL;
    }
    shared_free (&slot->whole);
    if (!shared_alloc (st, size, &slot->whole, error))
      return NULL;
  }
  if (!slot_planes (slot, frame, error))
    return NULL;
  slot->busy = TRUE;
  GST_LOG ("a slot of %" G_GSIZE_FORMAT " bytes, %s", size, slot->span ?
      "one copy" : "a copy a plane");
  return slot;
}

/* @slot used again once @released is done (taken) */
void
gst_cl_cuda_slot_released (Slot * slot, cl_event released)
{
  if (slot->done)
    clReleaseEvent (slot->done);
  slot->done = released;
}

/* The commands on @queue so far become the last to use @slot: it is used
 * again once they are done, which @last, the last of them, says where
 * given (taken), else a marker. */
void
gst_cl_cuda_slot_done_here (GstClQueue * queue, Slot * slot, cl_event last)
{
  gst_cl_cuda_slot_released (slot, last ? last : gst_cl_queue_mark (queue,
          NULL));
  if (!slot->done) {
    GST_WARNING ("no marker: waiting for the queue");
    gst_cl_queue_wait (queue, NULL, NULL);
  }
  gst_cl_queue_flush (queue, NULL);
}

/* ---- memory CUDA exports itself (GStreamer 1.24 on) --------------------- */

/* the key of a pooled memory's slot among the data kept with it */
static gint64
export_token (void)
{
  static gsize done = 0;
  static gint64 token;

  if (g_once_init_enter (&done)) {
    token = gst_cl_gstcuda.create_user_token ();
    g_once_init_leave (&done, 1);
  }
  return token;
}

static void
slot_exported_free (gpointer data)
{
  slot_clear (data);
  g_free (data);
}

/* The output's frame straight in @mem, where the element's CUDA pool makes
 * memory CUDA exports (cuMemCreate: GST_CUDA_MEMORY_ALLOC_MMAP, GStreamer
 * 1.24 on) and its planes start where sub-buffers may: a slot of its own,
 * imported once and kept with the memory (freed before it), and no copy.
 * NULL where @mem is no such memory (the frame goes through the staging),
 * or with @error set where its import fails. */
Slot *
gst_cl_cuda_slot_exported (GstClCudaStaging * st, GstMemory * mem,
    const GstClFrame * frame, const GstVideoInfo * layout, GError ** error)
{
  cl_context cl = gst_cl_context_get_handle (st->ctx);
  gsize align = MAX (gst_cl_context_get_caps (st->ctx)->mem_base_addr_align /
      8, 1);
  Slot *slot;
  gint fd = -1;
  guint p;

  if (!gst_cl_gstcuda.memory_export ||
      gst_cl_gstcuda.memory_get_alloc_method (mem) !=
      GST_CL_CUDA_MEMORY_ALLOC_MMAP)
    return NULL;
  for (p = 0; p < frame->n_planes; p++) {
    if (layout->offset[p] % align != 0 || layout->offset[p] +
        gst_cl_plane_size (&frame->planes[p]) > mem->maxsize) {
      GST_LOG ("plane %u at %" G_GSIZE_FORMAT ": the frame goes through the "
          "staging", p, layout->offset[p]);
      return NULL;
    }
  }
  slot = gst_cl_gstcuda.memory_get_token_data (mem, export_token ());
  if (!slot || slot->cl != cl) {
    if (!gst_cl_gstcuda.memory_export (mem, &fd) || (fd = dup (fd)) < 0) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "could not export a pooled CUDA memory (gst_cuda_memory_export)");
      return NULL;
    }
    slot = g_new0 (Slot, 1);
    slot->exported = TRUE;
    slot->cl = cl;
    slot->whole.size = mem->maxsize;
    if (!(slot->whole.mem = shared_import (st, fd, mem->maxsize, error))) {
      g_free (slot);
      return NULL;
    }
    /* replaces, and frees, a slot of another context */
    gst_cl_gstcuda.memory_set_token_data (mem, export_token (), slot,
        slot_exported_free);
  }
  for (p = 0; p < frame->n_planes; p++)
    slot->offset[p] = layout->offset[p];
  if (!slot_planes (slot, frame, error))
    return NULL;
  slot->busy = TRUE;
  return slot;
}
