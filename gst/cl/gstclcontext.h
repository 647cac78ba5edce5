/* gstclfilters: one OpenCL device and the state kept on it
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

/**
 * GstClWait:
 * @GST_CL_WAIT_AUTO: in clWaitForEvents while fewer threads than the cores
 *   wait for the device, else as %GST_CL_WAIT_POLL (the default)
 * @GST_CL_WAIT_BLOCK: in clWaitForEvents (GST_CL_WAIT=block)
 * @GST_CL_WAIT_CALLBACK: asleep until an event callback wakes it
 *   (GST_CL_WAIT=sleep)
 * @GST_CL_WAIT_POLL: asleep for short naps between looks at the event's
 *   status (GST_CL_WAIT=poll)
 *
 * How the host waits for a command of the device (see gstclevent.c).
 */
typedef enum
{
  GST_CL_WAIT_AUTO,
  GST_CL_WAIT_BLOCK,
  GST_CL_WAIT_CALLBACK,
  GST_CL_WAIT_POLL,
} GstClWait;

/**
 * GstClDeviceCaps:
 * @type: CPU, GPU or accelerator: picks the kernels and tiles measured best
 * @unified_memory: the device reads host memory in place (CPUs, integrated
 *   GPUs): frames are wrapped, not copied; %FALSE with GST_CL_NO_ZERO_COPY=1
 * @max_work_group_size: the largest work-group of any kernel
 * @max_mem_alloc_size: the largest buffer, in bytes
 * @local_mem_size: bytes of local memory per work-group
 * @compute_units: for the benchmark's table
 * @mem_base_addr_align: in bits: where a sub-buffer may start
 * @nv_ptx: NVIDIA's compiler, which takes inline PTX assembly
 * @async_copy: with @nv_ptx, asynchronous copies to local memory (PTX
 *   cp.async, compute capability 8.0 and later)
 * @cuda_import: the device imports memory CUDA exports
 *   (cl_khr_external_memory_opaque_fd) and says which GPU it is
 *   (cl_khr_device_uuid): frames in CUDA memory reach it (gstclcuda.c)
 * @driver_cache: the driver keeps the programs it builds for later
 *   processes itself (PoCL's kernel cache, unless POCL_KERNEL_CACHE=0):
 *   the plugin's disk cache is left out, whose binaries would make PoCL
 *   compile every kernel of a program (1.8 s against 0.6 for clboxblur's,
 *   docs/design.md)
 * @wait: how the host waits for the device (see gst_cl_event_wait())
 *
 * What the elements need to know of a device, read once.
 */
typedef struct
{
  cl_device_type type;
  gboolean unified_memory;
  gsize max_work_group_size;
  cl_ulong max_mem_alloc_size;
  cl_ulong local_mem_size;
  cl_uint compute_units;
  cl_uint mem_base_addr_align;
  gboolean nv_ptx;
  gboolean async_copy;
  gboolean cuda_import;
  gboolean driver_cache;
  GstClWait wait;
} GstClDeviceCaps;

/**
 * GstClQueue:
 *
 * An element's device work on the thread at hand: a context and the
 * in-order queue its commands go on (see gstclqueue.h).
 */
typedef struct _GstClQueue GstClQueue;

/**
 * GstClContext:
 *
 * One OpenCL device and the state kept on it: its capabilities, its
 * programs, the queues of the threads that use it. Shared by every cl
 * element of a pipeline (see gstclutils.h); opaque.
 */
#define GST_TYPE_CL_CONTEXT (gst_cl_context_get_type ())
G_DECLARE_FINAL_TYPE (GstClContext, gst_cl_context, GST, CL_CONTEXT, GstObject)

GstClContext *          gst_cl_context_new (gint device_index,
                                            GError ** error);

GstClContext *          gst_cl_context_new_wrapped (cl_context context,
                                                    cl_device_id device,
                                                    GError ** error);

cl_context              gst_cl_context_get_handle (GstClContext * ctx);

cl_device_id            gst_cl_context_get_device (GstClContext * ctx);

gint                    gst_cl_context_get_device_index (GstClContext * ctx);

const gchar *           gst_cl_context_get_device_name (GstClContext * ctx);

const GstClDeviceCaps * gst_cl_context_get_caps (GstClContext * ctx);

/* What the core's files keep in a context, each its own part: a context
 * holds one part of state for each job of the core above it, opaque to
 * every file but the one that does that job, which makes it when it first
 * asks for it; the context frees it with itself. Not for elements. */

/**
 * GstClContextAttachment:
 * @make: makes the data for a context, or sets @error
 * @free: frees it, once the context goes, before its cl_context
 * @order: the data of a lower order are freed first (a program table,
 *   whose builds use the rest, before the gate they pass)
 *
 * State a module above the context keeps per context (the queues, the
 * programs, the gate, the events' waits and timing): the module owns its type
 * and says how it is made and freed, and the context holds it for as
 * long as it lives without knowing what it is. One static attachment a
 * kind of state.
 */
typedef struct
{
  gpointer (*make) (GstClContext * ctx, GError ** error);
  GDestroyNotify free;
  gint order;
  /*< private >*/
  gsize index;
} GstClContextAttachment;

gpointer            gst_cl_context_get_attached (GstClContext * ctx,
                                                 GstClContextAttachment * att,
                                                 GError ** error);
void                gst_cl_context_set_device_index (GstClContext * ctx,
                                                     gint index);
/* what makes a compiled binary valid: the device, its driver, their API */
const gchar *       gst_cl_context_get_cache_key (GstClContext * ctx);

G_END_DECLS
