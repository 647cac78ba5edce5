/* gstclfilters: frames in CUDA memory: how they cross to OpenCL and back
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Memory that CUDA can export is imported into OpenCL
 * (cl_khr_external_memory_opaque_fd): the elements own a few such buffers,
 * each imported once, as staging for every frame that crosses, its planes
 * sub-buffers of one buffer. An input frame is copied on the device into
 * one of them (GStreamer 1.22's GstCudaMemory comes from cuMemAllocPitch,
 * which cannot be exported); the kernels write an output frame into one,
 * copied on the device into a GstCudaMemory of the element's CUDA pool.
 * Laid out as the CUDA memory, a frame's planes cross in one copy. Where
 * the element's pool makes memory CUDA exports (GStreamer 1.24 on), the
 * kernels write the output there instead, each pooled memory imported once.
 *
 * Who waits: a copy into staging runs on the element's CUDA stream, which
 * the host waits for (napping between looks) before the kernels are
 * enqueued; where the frame's memory names the stream its producer writes
 * it on (GStreamer 1.24 on), the copy waits on the GPU for what that
 * stream holds first. A frame pass's staging is acquired for OpenCL in one
 * call, and given back in one after the kernels. Then the queue writes a
 * number into a fence, which the copy out (or, for an exported output, the
 * stream alone) waits for on the GPU; the host waits for the stream before
 * the frame goes on, complete, in memory that names no stream (without
 * stream memory operations, it waits for the kernels first). A staging
 * buffer is used again only once the kernels that read it are done: each
 * input has a few, used in turn.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

/* the external memory entry points are OpenCL 3.0's; they are called only on
 * devices that list the extension */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300

#include <string.h>
#include <unistd.h>
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "gstclcuda.h"
#include "gstclcuda-private.h"
#include "gstclcudaloader.h"
#include "gstclframe-private.h"
#include "gstclerror.h"
#include "gstclevent.h"
#include "gstclqueue.h"

#define GST_CAT_DEFAULT gst_cl_cuda_debug

/* ---- staging ------------------------------------------------------------ */

/* one exportable CUDA allocation, imported into OpenCL */
typedef struct
{
  CUmemGenericAllocationHandle handle;
  CUdeviceptr ptr;
  gsize size;
  cl_mem mem;
} Shared;

/* A frame's planes in one shared buffer, each a sub-buffer of it, so that
 * an acquire or a release takes one buffer. */
typedef struct
{
  Shared whole;
  cl_mem sub[GST_VIDEO_MAX_PLANES];
  gsize offset[GST_VIDEO_MAX_PLANES];
  gsize sub_offset[GST_VIDEO_MAX_PLANES], sub_size[GST_VIDEO_MAX_PLANES];
  /* where the planes lie as in the CUDA memory, the bytes from the first
   * plane's to the last one's end, which one copy moves; else 0, a copy a
   * plane */
  gsize span;
  gboolean busy;
  /* the last commands that read or write the planes */
  cl_event done;
  /* the number an output's fence write reads, until the write is done */
  guint32 fence_host;
  /* a pooled GstCudaMemory of the output, imported itself (whole.mem
   * alone is the slot's), and the OpenCL context it is imported into */
  gboolean exported;
  cl_context cl;
} Slot;

#define N_SLOTS 3

struct _GstClCudaStaging
{
  Slot slot[N_SLOTS];
  guint next;
  /* the CUDA device and context the staging's buffers and stream are in */
  gint ordinal;
  GstObject *cuda_ctx;
  /* the copies' stream: nothing else runs on it, so the host looks at the
   * stream itself (copies_wait()) */
  CUstream stream;
  /* recorded on a producer's stream for the copies to wait for */
  CUevent after;
  /* Where the driver lets a CUDA stream wait for a value in memory: an
   * output's kernels and the release of its planes are followed on the
   * OpenCL queue by a write of the next fence_value into the fence, a
   * buffer of its own, and the copy out waits for it on the GPU. The host
   * then waits once for the kernels and the copy out, napping, where it
   * would wait for each. */
  gboolean fenced;
  Shared fence;
  guint32 fence_value;
  /* the usual wait for a copy in and for a copy out, in us: the first nap */
  gint64 took_in, took_out;
  /* a release failed: the driver may still hold the buffers, and NVIDIA's
   * blocks for good freeing them, so they are left to the process */
  gboolean abandoned;
  /* the OpenCL context they are imported into, and what it can do */
  GstClContext *ctx;
  gboolean checked;
  clEnqueueAcquireExternalMemObjectsKHR_fn acquire;
  clEnqueueReleaseExternalMemObjectsKHR_fn release;
};

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

/**
 * gst_cl_cuda_staging_free:
 *
 * Releases @st, waiting for the commands that still use its buffers.
 */
void
gst_cl_cuda_staging_free (GstClCudaStaging * st)
{
  if (!st)
    return;
  staging_reset (st);
  g_free (st);
}

/* Readies @st for frames of the CUDA context @cuda_ctx and the OpenCL
 * context @ctx: same GPU, OpenCL can import, a stream in @cuda_ctx. */
static gboolean
staging_prepare (GstClCudaStaging * st, GstClContext * ctx,
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
static CUresult
fence_write (GstClCudaStaging * st, guint32 value)
{
  CUresult res = gst_cl_cu.MemsetD32 (st->fence.ptr, value, 1);

  return res == CUDA_SUCCESS ? gst_cl_cu.StreamSynchronize (NULL) : res;
}

/* The fence, zeroed, for the first output frame; where the stream cannot
 * wait on it (the driver says so at a first wait, which is already
 * satisfied), the staging goes without. */
static gboolean
fence_ensure (GstClCudaStaging * st, GError ** error)
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
    ok = gst_cl_cu_result (fence_write (st, 0), error, "cuMemsetD32");
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
static Slot *
slot_acquire (GstClCudaStaging * st, const GstClFrame * frame,
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
static void
slot_released (Slot * slot, cl_event released)
{
  if (slot->done)
    clReleaseEvent (slot->done);
  slot->done = released;
}

/* The commands on @queue so far become the last to use @slot: it is used
 * again once they are done, which @last, the last of them, says where
 * given (taken), else a marker. */
static void
slot_done_here (GstClQueue * queue, Slot * slot, cl_event last)
{
  slot_released (slot, last ? last : gst_cl_queue_mark (queue, NULL));
  if (!slot->done) {
    GST_WARNING ("no marker: waiting for the queue");
    gst_cl_queue_finish (queue, NULL);
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
static Slot *
slot_exported (GstClCudaStaging * st, GstMemory * mem,
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

/* ---- frames ------------------------------------------------------------- */

/* the planes of @mem as @info lays them: its own layout, or its buffer's
 * GstVideoMeta (and an input's crop) */
static void
cuda_layout (GstBuffer * buffer, GstMemory * mem, const GstVideoInfo * info,
    gboolean output, GstVideoInfo * layout)
{
  const GstVideoInfo *own = &((GstClCudaMemoryHead *) mem)->info;

  *layout = *info;
  memcpy (layout->offset, own->offset, sizeof (layout->offset));
  memcpy (layout->stride, own->stride, sizeof (layout->stride));
  gst_cl_buffer_frame_layout (info, buffer, output, layout);
}

/* Waits for the copies on the staging's stream, napping between looks:
 * a copy takes a few microseconds of the GPU, and with many streams
 * waking from an event costs the host more than looking again (16 decoded
 * streams on an H200: 0.49 - 0.56 ms of CPU a frame waiting for the copy
 * in on a blocking-sync event, 0.47 - 0.49 napping). The first nap is
 * three quarters of @took, the usual wait (in us), so that most waits look
 * once or twice (out of four looks, 20 - 160 us naps, on an H100: 30 us of
 * CPU a frame waiting for the copy out, 19 with it). @took follows the
 * waits: a wait done at the first look shortens it by an eighth (the nap
 * itself, overshooting, must not count), a longer one moves it an eighth
 * of the way to its own length. Where the copies wait on the GPU for
 * @value in the fence, written after the OpenCL command @signalled, and
 * that command fails, the host writes the fence itself, so that the
 * stream goes on, and fails. */
static gboolean
copies_wait (GstClCudaStaging * st, cl_event signalled, guint32 value,
    gint64 * took, GError ** error)
{
  gint64 start = g_get_monotonic_time ();
  gulong nap = 20;
  gboolean first = TRUE;
  CUresult res;
  cl_int state;

  if (*took > 40)
    g_usleep (*took * 3 / 4);
  while ((res = gst_cl_cu.StreamQuery (st->stream)) == CUDA_ERROR_NOT_READY) {
    if (signalled && nap == 160 &&
        (state = gst_cl_event_status (signalled)) < 0) {
      fence_write (st, value);
      gst_cl_cu.StreamSynchronize (st->stream);
      return gst_cl_result (state, error, "the kernels before a copy out");
    }
    g_usleep (nap);
    nap = MIN (nap * 2, 160);
    first = FALSE;
  }
  if (first)
    *took -= *took / 8;
  else
    *took += (MIN (g_get_monotonic_time () - start, 2000) - *took) / 8;
  return gst_cl_cu_result (res, error, "cuStreamQuery");
}

/* The stream @mem's producer writes it on, where it names one (GStreamer
 * 1.24 on): the memory holds its bytes once what that stream holds now is
 * done. NULL where it is complete as it is (1.22's, or written on the
 * legacy stream and waited for). */
static CUstream
memory_stream (GstMemory * mem)
{
  GstClCudaStream *stream;

  if (!gst_cl_gstcuda.memory_get_stream ||
      !(stream = gst_cl_gstcuda.memory_get_stream (mem)))
    return NULL;
  return gst_cl_gstcuda.stream_get_handle (stream);
}

/* Copies every plane between @mem (mapped at @dev) and @slot, on the
 * staging's stream, and waits for the copies; with @signalled, once the
 * fence holds @value; with @producer, once what that stream holds now is
 * done. The flag GstCudaMemory sets where a producer may not be done
 * (GST_CUDA_MEMORY_TRANSFER_NEED_SYNC) is not read: gst_cuda_memory_sync()
 * clears it before it waits, so that another consumer's sync in flight
 * hides it; a wait for a stream that is done costs the GPU nothing. */
static gboolean
copy_planes (GstClCudaStaging * st, Slot * slot, const GstClFrame * frame,
    CUdeviceptr dev, const GstVideoInfo * layout, gboolean to_slot,
    CUstream producer, cl_event signalled, guint32 value, GError ** error)
{
  CUcontext prev;
  gboolean ok;
  guint p;

  if (!gst_cl_cu_result (gst_cl_cu.
          CtxPushCurrent (gst_cl_gstcuda.context_get_handle (st->cuda_ctx)),
          error, "cuCtxPushCurrent"))
    return FALSE;
  ok = !producer || producer == st->stream ||
      (gst_cl_cu_result (gst_cl_cu.EventRecord (st->after, producer), error,
          "cuEventRecord (after a frame's producer)") &&
      gst_cl_cu_result (gst_cl_cu.StreamWaitEvent (st->stream, st->after, 0),
          error, "cuStreamWaitEvent (for a frame's producer)"));
  ok = ok && (!signalled
      || gst_cl_cu_result (gst_cl_cu.StreamWaitValue32 (st->stream,
              st->fence.ptr, value, CU_STREAM_WAIT_VALUE_GEQ), error,
          "cuStreamWaitValue32"));
  /* an exported output holds the frame already: only the wait */
  if (ok && slot->span && !slot->exported) {
    CUdeviceptr there = dev + layout->offset[0];

    ok = gst_cl_cu_result (gst_cl_cu.MemcpyDtoDAsync (to_slot ? slot->
            whole.ptr : there, to_slot ? there : slot->whole.ptr, slot->span,
            st->stream), error, "cuMemcpyDtoDAsync");
  }
  for (p = 0; ok && !slot->span && !slot->exported && p < frame->n_planes; p++) {
    const GstClPlane *plane = &frame->planes[p];
    CUDA_MEMCPY2D copy = { 0, };
    CUdeviceptr there = dev + layout->offset[p];
    CUdeviceptr here = slot->whole.ptr + slot->offset[p];

    copy.srcMemoryType = copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = to_slot ? there : here;
    copy.dstDevice = to_slot ? here : there;
    copy.srcPitch = copy.dstPitch = plane->stride;
    copy.WidthInBytes = (gsize) plane->width * plane->pstride;
    copy.Height = plane->height;
    ok = gst_cl_cu_result (gst_cl_cu.Memcpy2DAsync (&copy, st->stream), error,
        "cuMemcpy2DAsync");
  }
  if (ok)
    ok = copies_wait (st, signalled, value, to_slot ? &st->took_in :
        &st->took_out, error);
  else if (signalled) {
    /* whatever was enqueued goes on */
    fence_write (st, value);
    gst_cl_cu.StreamSynchronize (st->stream);
  } else
    gst_cl_cu.StreamSynchronize (st->stream);
  gst_cl_cu.CtxPopCurrent (&prev);
  return ok;
}

/* the frames of a frame pass, at most: an output and its inputs */
#define MAX_FRAMES 8

/* What @frame holds of CUDA's, for an acquire or a release: its slot's
 * buffer, and an output's fence where @fence. Returns how many. */
static guint
frame_externals (const GstClBufferFrame * frame, gboolean fence, cl_mem * mems)
{
  const Slot *slot = frame->cuda;
  guint n = 0;

  mems[n++] = slot->whole.mem;
  if (fence && frame->output && frame->cuda_staging->fence.mem)
    mems[n++] = frame->cuda_staging->fence.mem;
  return n;
}

/**
 * gst_cl_cuda_frames_acquire:
 *
 * For gst_cl_buffer_frames_acquire(): the staging of every frame of
 * @frames in CUDA memory (an output's fence too), acquired for @queue in
 * one call (a call costs the host about 8 us on NVIDIA's driver).
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_cuda_frames_acquire (GstClQueue * queue,
    GstClBufferFrame * const *frames, guint n, GError ** error)
{
  GstClCudaStaging *st = NULL;
  cl_mem mems[2 * MAX_FRAMES];
  guint i, k = 0;

  if (n > MAX_FRAMES) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "%u frames in CUDA memory in one pass, more than %u", n, MAX_FRAMES);
    return FALSE;
  }
  for (i = 0; i < n; i++) {
    if (!frames[i]->cuda || frames[i]->cuda_acquired)
      continue;
    k += frame_externals (frames[i], TRUE, mems + k);
    st = frames[i]->cuda_staging;
  }
  if (!k)
    return TRUE;
  if (!gst_cl_result (st->acquire (gst_cl_queue_get_handle (queue), k, mems,
              0, NULL, NULL), error, "clEnqueueAcquireExternalMemObjectsKHR"))
    return FALSE;
  for (i = 0; i < n; i++)
    frames[i]->cuda_acquired = frames[i]->cuda != NULL;
  return TRUE;
}

/* Gives the staging of @frames that is acquired back to CUDA, in one
 * call, the fence of an output only where @fence; the release's event in
 * @released, where given. A failed release leaves the staging to the
 * process (staging_reset()). */
static gboolean
frames_release (GstClQueue * queue, GstClBufferFrame * const *frames,
    guint n, gboolean fence, cl_event * released, GError ** error)
{
  GstClCudaStaging *st = NULL;
  cl_mem mems[2 * MAX_FRAMES];
  gboolean ok;
  guint i, k = 0;

  /* at most a pass's, as acquired */
  g_assert (n <= MAX_FRAMES);
  for (i = 0; i < n; i++) {
    if (!frames[i]->cuda || !frames[i]->cuda_acquired ||
        frames[i]->cuda_finished)
      continue;
    k += frame_externals (frames[i], fence, mems + k);
    st = frames[i]->cuda_staging;
  }
  if (!k)
    return TRUE;
  ok = gst_cl_result (st->release (gst_cl_queue_get_handle (queue), k, mems,
          0, NULL, released), error, "clEnqueueReleaseExternalMemObjectsKHR");
  for (i = 0; i < n; i++) {
    if (!frames[i]->cuda || !frames[i]->cuda_acquired ||
        frames[i]->cuda_finished)
      continue;
    frames[i]->cuda_finished = TRUE;
    if (!ok)
      frames[i]->cuda_staging->abandoned = TRUE;
  }
  return ok;
}

/* The fence given back to CUDA after the commands so far on @queue: never
 * left acquired, as NVIDIA's driver blocks for good freeing it; where
 * that fails, the staging is left to the process. */
static gboolean
fence_release (GstClCudaStaging * st, GstClQueue * queue, GError ** error)
{
  if (gst_cl_result (st->release (gst_cl_queue_get_handle (queue), 1,
              &st->fence.mem, 0, NULL, NULL), error,
          "clEnqueueReleaseExternalMemObjectsKHR"))
    return TRUE;
  st->abandoned = TRUE;
  return FALSE;
}

/* After the commands so far on @queue: @value written into the fence,
 * which is given back to CUDA, and the queue flushed. The write reads the
 * value from @slot, whose copy out waits for it (a write of 4 bytes costs
 * the host 12 us less than a fill on NVIDIA's driver).
 *
 * Returns: (transfer full): the write's event, or %NULL on error */
static cl_event
fence_signal (GstClCudaStaging * st, GstClQueue * queue, Slot * slot,
    guint32 value, GError ** error)
{
  cl_event written = NULL;
  gboolean ok;

  slot->fence_host = value;
  ok = gst_cl_result (clEnqueueWriteBuffer (gst_cl_queue_get_handle (queue),
          st->fence.mem, CL_FALSE, 0, sizeof (value), &slot->fence_host, 0,
          NULL, &written), error, "clEnqueueWriteBuffer (a CUDA fence)");
  /* released whatever the write did */
  ok = fence_release (st, queue, ok ? error : NULL) && ok;
  if (ok && gst_cl_queue_flush (queue, error))
    return written;
  if (written) {
    /* the write reads @slot, which a failed release frees unwaited */
    clWaitForEvents (1, &written);
    clReleaseEvent (written);
  }
  return NULL;
}

/* @buffer's one GstCudaMemory mapped on the device, or NULL */
static GstMemory *
map_cuda (GstBuffer * buffer, GstMapFlags flags, GstMapInfo * map,
    GError ** error)
{
  GstMemory *mem = gst_buffer_n_memory (buffer) == 1 ?
      gst_buffer_peek_memory (buffer, 0) : NULL;

  if (!mem || !gst_memory_map (mem, map, flags | GST_CL_MAP_CUDA)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
        "could not map a frame in CUDA memory on its device");
    return NULL;
  }
  return mem;
}

/**
 * gst_cl_cuda_frame_map:
 * @frame: (out): a frame whose planes are the staging's shared buffers
 *
 * For gst_cl_buffer_frame_map(): a frame of @buffer, in GstCudaMemory, on
 * the OpenCL device. An input is copied into the staging's buffers (on the
 * GPU) before this returns; an output is copied out of them by
 * gst_cl_cuda_frame_finish().
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_cuda_frame_map (GstClQueue * queue, GstClBufferFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstClStaging * staging,
    GError ** error)
{
  GstClContext *ctx = gst_cl_queue_get_context (queue);
  GstMemory *mem = gst_buffer_peek_memory (buffer, 0);
  GstObject *cuda_ctx = ((GstClCudaMemoryHead *) mem)->context;
  GstClCudaStaging *st;
  GstVideoInfo layout;
  GstMapInfo map;
  GError *err = NULL;
  Slot *slot;
  guint p;

  if (!staging->cuda)
    staging->cuda = g_new0 (GstClCudaStaging, 1);
  st = staging->cuda;
  if (!staging_prepare (st, ctx, cuda_ctx, error))
    return FALSE;
  /* the planes' strides as the CUDA memory's, for the copies */
  cuda_layout (buffer, mem, info, frame->output, &layout);
  gst_cl_frame_set_geometry (&frame->frame, &layout);
  if (frame->output && st->fenced && !fence_ensure (st, error))
    return FALSE;
  slot = frame->output ? slot_exported (st, mem, &frame->frame, &layout,
      &err) : NULL;
  if (err) {
    g_propagate_error (error, err);
    return FALSE;
  }
  if (!slot && !(slot = slot_acquire (st, &frame->frame, &layout, error)))
    return FALSE;
  for (p = 0; p < frame->frame.n_planes; p++) {
    frame->frame.planes[p].mem = slot->sub[p];
    frame->borrowed[p] = TRUE;
  }
  frame->cuda = slot;
  frame->cuda_staging = st;

  if (!frame->output) {
    if (!map_cuda (buffer, GST_MAP_READ, &map, error))
      goto failed;
    if (!copy_planes (st, slot, &frame->frame, (CUdeviceptr) map.data,
            &layout, TRUE, memory_stream (mem), NULL, 0, error)) {
      gst_memory_unmap (mem, &map);
      goto failed;
    }
    gst_memory_unmap (mem, &map);
  } else {
    frame->cuda_buffer = buffer;
    frame->cuda_info = info;
  }
  return TRUE;

failed:
  slot->busy = FALSE;
  frame->cuda = NULL;
  return FALSE;
}

/**
 * gst_cl_cuda_frame_finish:
 * @inputs: the @n_inputs mapped inputs of the same frame pass
 *
 * An output frame: once the kernels enqueued on @queue are done, their
 * result copied into the output buffer's CUDA memory. The staging of the
 * inputs in CUDA memory is given back to CUDA in the same call as the
 * output's.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_cuda_frame_finish (GstClQueue * queue, GstClBufferFrame * frame,
    GstClBufferFrame * const *inputs, guint n_inputs, GError ** error)
{
  GstClCudaStaging *st = frame->cuda_staging;
  Slot *slot = frame->cuda;
  GstClBufferFrame *frames[MAX_FRAMES];
  GstVideoInfo layout;
  GstMemory *mem;
  GstMapInfo map;
  cl_event done, released = NULL, signalled = NULL;
  gboolean fenced = st->fenced && st->fence.mem, ok;
  guint32 value = 0;
  guint i, n = 0;

  frames[n++] = frame;
  for (i = 0; i < n_inputs && n < G_N_ELEMENTS (frames); i++)
    frames[n++] = inputs[i];
  /* the fence after the planes' release: CUDA reads them once they are
   * given back */
  ok = frames_release (queue, frames, n, !fenced, &released, error);
  for (i = 1; i < n; i++) {
    if (!frames[i]->cuda || !frames[i]->cuda_finished)
      continue;
    if (released && clRetainEvent (released) == CL_SUCCESS)
      slot_released (frames[i]->cuda, released);
    else
      slot_done_here (queue, frames[i]->cuda, NULL);
  }
  if (released)
    clReleaseEvent (released);
  if (!ok) {
    if (fenced)
      fence_release (st, queue, NULL);
    slot_done_here (queue, slot, NULL);
    return FALSE;
  }
  if (fenced) {
    /* set before the write is enqueued, so that no later frame takes a
     * failed frame's value; never 0, the fence's first */
    value = st->fence_value = st->fence_value + 1 ? st->fence_value + 1 : 1;
    if (!(signalled = fence_signal (st, queue, slot, value, error))) {
      slot_done_here (queue, slot, NULL);
      return FALSE;
    }
  } else {
    if (!(done = gst_cl_queue_mark (queue, error))) {
      slot_done_here (queue, slot, NULL);
      return FALSE;
    }
    ok = gst_cl_queue_wait (queue, done, error);
    clReleaseEvent (done);
    if (!ok) {
      slot_done_here (queue, slot, NULL);
      return FALSE;
    }
  }
  if (!(mem = map_cuda (frame->cuda_buffer, GST_MAP_WRITE, &map, error)))
    ok = FALSE;
  else {
    cuda_layout (frame->cuda_buffer, mem, frame->cuda_info, TRUE, &layout);
    ok = copy_planes (st, slot, &frame->frame, (CUdeviceptr) map.data,
        &layout, FALSE, memory_stream (mem), signalled, value, error);
    gst_memory_unmap (mem, &map);
  }
  if (signalled) {
    /* on an error, the slot is free once the kernels are done */
    if (!ok)
      slot_done_here (queue, slot, NULL);
    clReleaseEvent (signalled);
  }
  return ok;
}

/**
 * gst_cl_cuda_frame_unmap:
 *
 * The commands on @queue so far are the last to use the staging buffers
 * of @frame: they are used again once those are done.
 */
void
gst_cl_cuda_frame_unmap (GstClQueue * queue, GstClBufferFrame * frame)
{
  Slot *slot = frame->cuda;

  if (!slot)
    return;
  /* Given back by gst_cl_cuda_frame_finish() already, an output waited
   * for or marked, an input free once the release is done; else given
   * back now, the release the last command that uses the slot. */
  if (frame->cuda_acquired && !frame->cuda_finished) {
    GstClBufferFrame *frames[1] = { frame };
    cl_event released = NULL;

    if (!frames_release (queue, frames, 1, TRUE, &released, NULL))
      GST_WARNING ("could not give CUDA staging buffers back");
    slot_done_here (queue, slot, released);
  }
  slot->busy = FALSE;
  frame->cuda = NULL;
  frame->cuda_staging = NULL;
  frame->cuda_buffer = NULL;
  frame->cuda_acquired = FALSE;
  frame->cuda_finished = FALSE;
}
