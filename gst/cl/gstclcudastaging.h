/* gstclfilters: frames in CUDA memory: the staging, between
 * gstclcudastaging.c and gstclcudaframe.c
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

/* the external memory entry points are OpenCL 3.0's */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "gstclcudaloader.h"
#include "gstclframe.h"

G_BEGIN_DECLS

typedef struct _GstClCudaStaging GstClCudaStaging;

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
  /* the usual wait for a copy in, for the kernels before a copy out, and
   * for a copy out, in us: the first nap */
  gint64 took_in, took_kernels, took_out;
  /* a release failed: the driver may still hold the buffers, and NVIDIA's
   * blocks for good freeing them, so they are left to the process */
  gboolean abandoned;
  /* the OpenCL context they are imported into, and what it can do */
  GstClContext *ctx;
  gboolean checked;
  clEnqueueAcquireExternalMemObjectsKHR_fn acquire;
  clEnqueueReleaseExternalMemObjectsKHR_fn release;
};

gboolean gst_cl_cuda_staging_prepare (GstClCudaStaging * st,
                                      GstClContext * ctx,
                                      GstObject * cuda_ctx, GError ** error);
void     gst_cl_cuda_staging_free (gpointer st);

CUresult gst_cl_cuda_fence_write (GstClCudaStaging * st, guint32 value);
gboolean gst_cl_cuda_fence_ensure (GstClCudaStaging * st, GError ** error);

Slot *   gst_cl_cuda_slot_acquire (GstClCudaStaging * st,
                                   const GstClFrame * frame,
                                   const GstVideoInfo * layout,
                                   GError ** error);
Slot *   gst_cl_cuda_slot_exported (GstClCudaStaging * st, GstMemory * mem,
                                    const GstClFrame * frame,
                                    const GstVideoInfo * layout,
                                    GError ** error);
void     gst_cl_cuda_slot_released (Slot * slot, cl_event released);
void     gst_cl_cuda_slot_done_here (GstClQueue * queue, Slot * slot,
                                     cl_event last);

G_END_DECLS
