/* gstclfilters: the shared OpenCL context, and its GstContext sharing
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <CL/cl.h>

#include "gstclprogram.h"

G_BEGIN_DECLS

/**
 * GST_CL_CONTEXT_TYPE:
 *
 * The GstContext type that carries a #GstClContext through a pipeline. Its
 * structure has the fields "context" (#GstClContext), "cl-context" and
 * "cl-device" (gpointer: cl_context, cl_device_id), "device-index" (gint, -1
 * for an application's device the ICD loader does not list), "device-name"
 * (gchararray) and "contexts" (a #GstValueArray of #GstClContext: this one
 * and those of the pipeline's other devices).
 */
#define GST_CL_CONTEXT_TYPE "gst.cl.context"

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
 * How the host waits for a command of the device.
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
  GstClWait wait;
} GstClDeviceCaps;

typedef struct _GstClGate GstClGate;

#define GST_TYPE_CL_CONTEXT (gst_cl_context_get_type ())
G_DECLARE_FINAL_TYPE (GstClContext, gst_cl_context, GST, CL_CONTEXT, GstObject)

/**
 * GstClContext:
 * @context: the OpenCL context
 * @device: its one device
 * @queue: an in-order command queue, with profiling, for the few commands
 *   that belong to no frame (maps, pool set-up, copies of a memory); frames
 *   run on the queue of the thread that handles them
 * @device_index: index in gst_cl_device_list(), -1 for an application's
 *   device that is not in it
 * @device_name: "platform device"
 * @caps: the device's capabilities
 *
 * One OpenCL device and the state kept on it. Shared by every cl element of a
 * pipeline. Fields are read-only.
 */
struct _GstClContext
{
  GstObject parent;

  cl_context context;
  cl_device_id device;
  cl_command_queue queue;
  gint device_index;
  gchar *device_name;
  GstClDeviceCaps caps;

  /*< private >*/
  gboolean wrapped;
  gchar *cache_key;
  GMutex lock;
  GHashTable *programs;
  GHashTable *building;         /* keys of the programs being built */
  GHashTable *failed;           /* keys of background builds that failed */
  GCond built;                  /* signalled as each build ends */
  GThreadPool *builder;         /* gst_cl_context_program_ready()'s */
  GArray *profile;              /* cl_event of each kernel, while profiling */
  guint64 serial;               /* never reused, unlike the address */
  GHashTable *thread_queues;    /* GThread * -> one of queues */
  GPtrArray *queues;            /* cl_command_queue */
  guint max_queues;             /* 0: a queue a thread */
  gint waiting;                 /* threads in gst_cl_event_wait() */
  gint spinning_waits;          /* the most that wait in clWaitForEvents */
  GstClGate *gate;              /* the device's, shared by its contexts */
};

GstClContext * gst_cl_context_new (gint device_index, GError ** error);

GstClContext * gst_cl_context_new_wrapped (cl_context context,
                                           cl_device_id device,
                                           GError ** error);

cl_program     gst_cl_context_get_program (GstClContext * ctx,
                                           const gchar * source,
                                           const gchar * options,
                                           GstClProgramOrigin * origin,
                                           GError ** error);

gboolean       gst_cl_context_program_ready (GstClContext * ctx,
                                             const gchar * source,
                                             const gchar * options);

cl_kernel      gst_cl_context_create_kernel (GstClContext * ctx,
                                             const gchar * source,
                                             const gchar * options,
                                             const gchar * name,
                                             GError ** error);

cl_command_queue gst_cl_context_create_queue (GstClContext * ctx,
                                             GError ** error);

gboolean       gst_cl_context_enqueue_kernel (GstClContext * ctx,
                                              cl_command_queue queue,
                                              cl_kernel kernel, guint dims,
                                              const gsize * global,
                                              const gsize * local,
                                              GError ** error);

gboolean       gst_cl_context_enqueue_copy (GstClContext * ctx,
                                            cl_command_queue queue,
                                            cl_mem src, cl_mem dst,
                                            gsize size, GError ** error);

gboolean       gst_cl_context_enqueue_fill (GstClContext * ctx,
                                            cl_command_queue queue,
                                            cl_mem mem, guint8 value,
                                            gsize size, GError ** error);

cl_int         gst_cl_event_status (cl_event event);

gboolean       gst_cl_event_wait (GstClContext * ctx, cl_event event,
                                  GError ** error);

gboolean       gst_cl_queue_wait (GstClContext * ctx, cl_command_queue queue,
                                  cl_event event, GError ** error);

gboolean       gst_cl_queue_finish (GstClContext * ctx,
                                    cl_command_queue queue, GError ** error);

cl_event       gst_cl_queue_mark (cl_command_queue queue, GError ** error);

gboolean       gst_cl_queue_wait_for (cl_command_queue queue, GArray * events,
                                      GError ** error);

void           gst_cl_context_profile_start (GstClContext * ctx);

gdouble        gst_cl_context_profile_stop (GstClContext * ctx);

/* One (size, pointer) pair of gst_cl_set_kernel_args(). */
#define GST_CL_ARG(x) (gsize) sizeof (x), (const void *) &(x)

gboolean       gst_cl_set_kernel_args (cl_kernel kernel, GError ** error,
                                       guint n_args, ...);

gboolean       gst_cl_set_kernel_args_valist (cl_kernel kernel,
                                              GError ** error, guint n_args,
                                              va_list args);

gboolean       gst_cl_set_kernel_args_from (cl_kernel kernel, guint first,
                                            GError ** error, guint n_args,
                                            ...);

/* GstContext sharing, after the upstream CUDA helpers */
gboolean       gst_cl_ensure_element_context (GstElement * element,
                                              gint device_index,
                                              GstClContext ** ctx);

gboolean       gst_cl_handle_set_context (GstElement * element,
                                          GstContext * context,
                                          gint device_index,
                                          GstClContext ** ctx);

gboolean       gst_cl_handle_context_query (GstElement * element,
                                            GstQuery * query,
                                            GstClContext * ctx);

GstContext *   gst_context_new_cl_context (GstClContext * ctx);

cl_command_queue gst_cl_context_get_thread_queue (GstClContext * ctx,
                                                 GError ** error);

gboolean       gst_cl_context_follow_thread (GstClContext * ctx,
                                             cl_command_queue * queue,
                                             GError ** error);

void           gst_cl_context_enter (GstClContext * ctx);

void           gst_cl_context_leave (GstClContext * ctx);

guint          gst_cl_context_get_max_threads (GstClContext * ctx);

G_END_DECLS
