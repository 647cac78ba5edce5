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
 * number into a fence; the host naps until that write is done, and the
 * copy out (or, for an exported output, the stream alone) waits for the
 * number on the GPU, met at once; the host waits for the stream before
 * the frame goes on, complete, in memory that names no stream (without
 * stream memory operations, it waits for the kernels first). A staging
 * buffer is used again only once the kernels that read it are done: each
 * input has a few, used in turn.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstclcudastaging.h"
#include "gstclcuda.h"
#include "gstclerror.h"
#include "gstclevent.h"
#include "gstclgate.h"
#include "gstclqueue.h"

#define GST_CAT_DEFAULT gst_cl_cuda_debug

/* the table the frame path hands CUDA frames to (end of file) */
static const GstClFrameMemory cuda_memory;

/* whether @frame is one of this file's: mapped by it, not given back */
#define OURS(frame) ((frame)->memory == &cuda_memory && (frame)->foreign)
#define STAGING(frame) ((GstClCudaStaging *) (frame)->foreign_staging)


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

/* A look at what the host waits for: above 0 while it is under way, 0
 * once it is done, below 0 where it failed. */
typedef gint (*Look) (gpointer data);

/* Naps between looks at @look until it is done or failed, and returns the
 * last look: with many streams, waking from an event costs the host more
 * than looking again (16 decoded streams on an H200: 0.49 - 0.56 ms of CPU
 * a frame waiting for the copy in on a blocking-sync event, 0.47 - 0.49
 * napping). The first nap is three quarters of @took, the usual wait (in
 * us), so that most waits look once or twice (out of four looks, 20 - 160
 * us naps, on an H100: 30 us of CPU a frame waiting for the copy out, 19
 * with it). @took follows the waits: a wait done at the first look
 * shortens it by an eighth (the nap itself, overshooting, must not
 * count), a longer one moves it an eighth of the way to its own length.
 *
 * While it naps, making no call into OpenCL's driver but a look at a
 * command's status, the thread gives its place at the device's gate to
 * the next (gst_cl_gate_step_out()): 16 decoded streams through cldenoise
 * on an H200 went from 3,800 to 4,400 - 4,500 frames a second on
 * GStreamer 1.22, the gate's places, not the GPU, having set their pace,
 * and on 1.26 from 4,934 - 4,943 to 5,201 (0.95x the decoders alone to
 * 1.00x; with motion=true 4,323 - 4,394 to 5,188 - 5,192). Before the
 * copy out's wait was met as it is enqueued (command_wait()), that wait
 * held one of the device's few hardware queues, which the decoders'
 * streams share, and with the places given up 1.26 fell to 1,530 frames
 * a second: then the places bound the waits on the GPU. */
static gint
nap_until (Look look, gpointer data, gint64 * took)
{
  gint64 start = g_get_monotonic_time ();
  gulong nap = 20;
  gboolean first = TRUE, out = FALSE;
  gint res;

  if (*took > 40) {
    gst_cl_gate_step_out ();
    out = TRUE;
    g_usleep (*took * 3 / 4);
  }
  while ((res = look (data)) > 0) {
    if (!out) {
      gst_cl_gate_step_out ();
      out = TRUE;
    }
    g_usleep (nap);
    nap = MIN (nap * 2, 160);
    first = FALSE;
  }
  if (res == 0 && first)
    *took -= *took / 8;
  else if (res == 0)
    *took += (MIN (g_get_monotonic_time () - start, 2000) - *took) / 8;
  /* the frame's place back, once the wait is over */
  if (out)
    gst_cl_gate_step_in ();
  return res;
}

typedef struct
{
  GstClCudaStaging *st;
  cl_event signalled;
  guint looks;
  CUresult res;
  cl_int state;
} CopiesLook;

/* the staging's stream, and from the fourth look on, where the copies
 * wait for the fence, whether the command it is written after failed */
static gint
look_at_copies (gpointer data)
{
  CopiesLook *l = data;

  l->res = gst_cl_cu.StreamQuery (l->st->stream);
  if (l->res != CUDA_ERROR_NOT_READY)
    return l->res == CUDA_SUCCESS ? 0 : -1;
  if (l->signalled && ++l->looks >= 4 &&
      (l->state = gst_cl_event_status (l->signalled)) < 0)
    return -1;
  return 1;
}

/* Waits for the copies on the staging's stream, napping (nap_until()): a
 * copy takes a few microseconds of the GPU. Where the copies wait on the
 * GPU for @value in the fence, written after the OpenCL command
 * @signalled, and that command fails, the host writes the fence itself,
 * so that the stream goes on, and fails. */
static gboolean
copies_wait (GstClCudaStaging * st, cl_event signalled, guint32 value,
    gint64 * took, GError ** error)
{
  CopiesLook l = { st, signalled, 0, CUDA_SUCCESS, CL_SUCCESS };

  nap_until (look_at_copies, &l, took);
  if (l.state < 0) {
    gst_cl_cuda_fence_write (st, value);
    gst_cl_cu.StreamSynchronize (st->stream);
    return gst_cl_result (l.state, error, "the kernels before a copy out");
  }
  return gst_cl_cu_result (l.res, error, "cuStreamQuery");
}

typedef struct
{
  cl_event command;
  gint64 deadline;
  gboolean late;
} CommandLook;

/* an OpenCL command's status, 0 once it is complete (CL_COMPLETE); past
 * the deadline (a status that cannot be read looks queued), 0 and @late */
static gint
look_at_command (gpointer data)
{
  CommandLook *l = data;
  cl_int state = gst_cl_event_status (l->command);

  if (state > 0 && g_get_monotonic_time () > l->deadline) {
    l->late = TRUE;
    return 0;
  }
  return state;
}

/* Waits for the OpenCL command @signalled (the fence's write, after the
 * kernels and the planes' release), napping (nap_until()), before the copy
 * out that waits for the fence is enqueued, so that the wait is met as it
 * is enqueued: a CUDA stream waiting on the GPU holds one of the device's
 * few hardware queues, which the decoders' streams share
 * (CUDA_DEVICE_MAX_CONNECTIONS, 8 unless set), and the work behind it
 * there waits with it. 16 decoded streams through cldenoise on an H200:
 * 4,976 - 4,982 frames a second on GStreamer 1.22 and 4,982 on 1.26,
 * against 3,889 - 3,912 and 4,857 with the wait on the GPU alone, the CPU
 * a frame the same. */
static gboolean
command_wait (GstClCudaStaging * st, GstClQueue * queue, cl_event signalled,
    GError ** error)
{
  CommandLook l = { signalled, g_get_monotonic_time () + G_TIME_SPAN_SECOND,
    FALSE
  };
  gint state = nap_until (look_at_command, &l, &st->took_kernels);

  /* late: the queue's own wait, the frame's place at the gate taken back */
  if (l.late)
    return gst_cl_queue_wait (queue, signalled, error);
  return state < 0 ? gst_cl_result (state, error,
      "the kernels before a copy out") : TRUE;
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
    gst_cl_cuda_fence_write (st, value);
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
  const Slot *slot = frame->foreign;
  guint n = 0;

  mems[n++] = slot->whole.mem;
  if (fence && frame->output && STAGING (frame)->fence.mem)
    mems[n++] = STAGING (frame)->fence.mem;
  return n;
}

/* For gst_cl_buffer_frames_acquire(): the staging of every frame of
 * @frames in CUDA memory (an output's fence too), acquired for @queue in
 * one call (a call costs the host about 8 us on NVIDIA's driver).
 *
 * Returns: %TRUE on success
 */
static gboolean
frames_acquire (GstClQueue * queue,
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
    if (!OURS (frames[i]) || frames[i]->foreign_acquired)
      continue;
    k += frame_externals (frames[i], TRUE, mems + k);
    st = frames[i]->foreign_staging;
  }
  if (!k)
    return TRUE;
  if (!gst_cl_result (st->acquire (queue->handle, k, mems,
              0, NULL, NULL), error, "clEnqueueAcquireExternalMemObjectsKHR"))
    return FALSE;
  for (i = 0; i < n; i++)
    frames[i]->foreign_acquired = OURS (frames[i]);
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
    if (!OURS (frames[i]) || !frames[i]->foreign_acquired ||
        frames[i]->foreign_finished)
      continue;
    k += frame_externals (frames[i], fence, mems + k);
    st = frames[i]->foreign_staging;
  }
  if (!k)
    return TRUE;
  ok = gst_cl_result (st->release (queue->handle, k, mems,
          0, NULL, released), error, "clEnqueueReleaseExternalMemObjectsKHR");
  for (i = 0; i < n; i++) {
    if (!OURS (frames[i]) || !frames[i]->foreign_acquired ||
        frames[i]->foreign_finished)
      continue;
    frames[i]->foreign_finished = TRUE;
    if (!ok)
      STAGING (frames[i])->abandoned = TRUE;
  }
  return ok;
}

/* The fence given back to CUDA after the commands so far on @queue: never
 * left acquired, as NVIDIA's driver blocks for good freeing it; where
 * that fails, the staging is left to the process. */
static gboolean
fence_release (GstClCudaStaging * st, GstClQueue * queue, GError ** error)
{
  if (gst_cl_result (st->release (queue->handle, 1,
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
  ok = gst_cl_result (clEnqueueWriteBuffer (queue->handle,
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

/* For gst_cl_buffer_frame_map(): @frame, whose planes become the
 * staging's shared buffers, a frame of @buffer, in GstCudaMemory, on
 * the OpenCL device. An input is copied into the staging's buffers (on the
 * GPU) before this returns; an output is copied out of them by
 * frame_finish().
 *
 * Returns: %TRUE on success
 */
static gboolean
frame_map (GstClQueue * queue, GstClBufferFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, gpointer * staging,
    GError ** error)
{
  GstClContext *ctx = queue->ctx;
  GstMemory *mem = gst_buffer_peek_memory (buffer, 0);
  GstObject *cuda_ctx = ((GstClCudaMemoryHead *) mem)->context;
  GstClCudaStaging *st;
  GstVideoInfo layout;
  GstMapInfo map;
  GError *err = NULL;
  Slot *slot;
  guint p;

  if (!*staging)
    *staging = g_new0 (GstClCudaStaging, 1);
  st = *staging;
  if (!gst_cl_cuda_staging_prepare (st, ctx, cuda_ctx, error))
    return FALSE;
  /* the planes' strides as the CUDA memory's, for the copies */
  cuda_layout (buffer, mem, info, frame->output, &layout);
  gst_cl_frame_set_geometry (&frame->frame, &layout);
  if (frame->output && st->fenced && !gst_cl_cuda_fence_ensure (st, error))
    return FALSE;
  slot =
      frame->output ? gst_cl_cuda_slot_exported (st, mem, &frame->frame,
      &layout, &err) : NULL;
  if (err) {
    g_propagate_error (error, err);
    return FALSE;
  }
  if (!slot
      && !(slot = gst_cl_cuda_slot_acquire (st, &frame->frame, &layout, error)))
    return FALSE;
  for (p = 0; p < frame->frame.n_planes; p++) {
    frame->frame.planes[p].mem = slot->sub[p];
    frame->borrowed[p] = TRUE;
  }
  frame->foreign = slot;
  frame->foreign_staging = st;

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
    frame->foreign_buffer = buffer;
    frame->foreign_info = info;
  }
  return TRUE;

failed:
  slot->busy = FALSE;
  frame->foreign = NULL;
  return FALSE;
}

/* For gst_cl_buffer_frame_finish(), @inputs the @n_inputs mapped inputs
 * of the same frame pass: an output frame, once the kernels enqueued on
 * @queue are done, their result copied into the output buffer's CUDA
 * memory (or there already, exported). The staging of the inputs in CUDA
 * memory is given back to CUDA in the same call as the output's.
 *
 * Returns: %TRUE on success
 */
static gboolean
frame_finish (GstClQueue * queue, GstClBufferFrame * frame,
    GstClBufferFrame * const *inputs, guint n_inputs, GError ** error)
{
  GstClCudaStaging *st = frame->foreign_staging;
  Slot *slot = frame->foreign;
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
    if (!OURS (frames[i]) || !frames[i]->foreign_finished)
      continue;
    if (released && clRetainEvent (released) == CL_SUCCESS)
      gst_cl_cuda_slot_released (frames[i]->foreign, released);
    else
      gst_cl_cuda_slot_done_here (queue, frames[i]->foreign, NULL);
  }
  if (released)
    clReleaseEvent (released);
  if (!ok) {
    if (fenced)
      fence_release (st, queue, NULL);
    gst_cl_cuda_slot_done_here (queue, slot, NULL);
    return FALSE;
  }
  if (fenced) {
    /* set before the write is enqueued, so that no later frame takes a
     * failed frame's value; never 0, the fence's first */
    value = st->fence_value = st->fence_value + 1 ? st->fence_value + 1 : 1;
    if (!(signalled = fence_signal (st, queue, slot, value, error))) {
      gst_cl_cuda_slot_done_here (queue, slot, NULL);
      return FALSE;
    }
    if (!command_wait (st, queue, signalled, error)) {
      /* nothing waits for the fence: the value is never written */
      gst_cl_cuda_slot_done_here (queue, slot, NULL);
      clReleaseEvent (signalled);
      return FALSE;
    }
  } else {
    if (!(done = gst_cl_queue_mark (queue, error))) {
      gst_cl_cuda_slot_done_here (queue, slot, NULL);
      return FALSE;
    }
    ok = gst_cl_queue_wait (queue, done, error);
    clReleaseEvent (done);
    if (!ok) {
      gst_cl_cuda_slot_done_here (queue, slot, NULL);
      return FALSE;
    }
  }
  if (!(mem = map_cuda (frame->foreign_buffer, GST_MAP_WRITE, &map, error)))
    ok = FALSE;
  else {
    cuda_layout (frame->foreign_buffer, mem, frame->foreign_info, TRUE,
        &layout);
    ok = copy_planes (st, slot, &frame->frame, (CUdeviceptr) map.data, &layout,
        FALSE, memory_stream (mem), signalled, value, error);
    gst_memory_unmap (mem, &map);
  }
  if (signalled) {
    /* on an error, the slot is free once the kernels are done */
    if (!ok)
      gst_cl_cuda_slot_done_here (queue, slot, NULL);
    clReleaseEvent (signalled);
  }
  return ok;
}

/* For gst_cl_buffer_frame_unmap(): the commands on @queue so far are the last to use the staging buffers
 * of @frame: they are used again once those are done.
 */
static void
frame_unmap (GstClQueue * queue, GstClBufferFrame * frame)
{
  Slot *slot = frame->foreign;

  if (!slot)
    return;
  /* Given back by frame_finish() already, an output waited
   * for or marked, an input free once the release is done; else given
   * back now, the release the last command that uses the slot. */
  if (frame->foreign_acquired && !frame->foreign_finished) {
    GstClBufferFrame *frames[1] = { frame };
    cl_event released = NULL;

    if (!frames_release (queue, frames, 1, TRUE, &released, NULL))
      GST_WARNING ("could not give CUDA staging buffers back");
    gst_cl_cuda_slot_done_here (queue, slot, released);
  }
  slot->busy = FALSE;
  frame->foreign = NULL;
  frame->foreign_staging = NULL;
  frame->foreign_buffer = NULL;
  frame->foreign_acquired = FALSE;
  frame->foreign_finished = FALSE;
}

static const GstClFrameMemory cuda_memory = {
  gst_cl_cuda_buffer_is_cuda, frame_map, frames_acquire, frame_finish,
  frame_unmap, gst_cl_cuda_staging_free
};

/**
 * gst_cl_cuda_frames_register:
 *
 * Where CUDA memory can be taken (gst_cl_cuda_available()), the frame
 * path hands frames in it to this file from now on. Called by the core
 * before its first frame; cheap again.
 */
void
gst_cl_cuda_frames_register (void)
{
  if (gst_cl_cuda_available ())
    gst_cl_frame_memory_register (&cuda_memory);
}
