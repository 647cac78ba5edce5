/* gstclfilters: an element's device work on the thread at hand
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The commands of a frame go on the queue of the thread that handles it:
 * cl elements in one streaming thread share a queue, whose order is all
 * they need between them, and elements in different threads (branches,
 * elements after a `queue`) never wait for each other. The order between
 * queues comes from the events that #GstClMemory keeps (gstclmemory.c).
 * A #GstClQueue is an element's handle on that: its context and the queue
 * of its last frame, which it follows from thread to thread.
 */
#include "gstclqueue.h"
#include "gstclcontext.h"
#include "gstclerror.h"
#include "gstclevent.h"

/* the queues of a context's threads (gst_cl_context_get_attached()) */
typedef struct
{
  GMutex lock;
  cl_context context;
  cl_device_id device;
  guint64 serial;               /* never reused, unlike the address */
  GHashTable *thread_queues;    /* GThread * -> one of queues */
  GPtrArray *queues;            /* cl_command_queue */
  guint max_queues;             /* 0: a queue a thread */
} GstClQueueTable;

static void
release_handle (gpointer queue)
{
  clFinish (queue);
  clReleaseCommandQueue (queue);
}

static gpointer
queue_table_new (GstClContext * ctx, GError ** error)
{
  static guint64 serials = 0;
  GstClQueueTable *table = g_new0 (GstClQueueTable, 1);
  const gchar *max = g_getenv ("GST_CL_MAX_QUEUES");

  g_mutex_init (&table->lock);
  table->context = gst_cl_context_get_handle (ctx);
  table->device = gst_cl_context_get_device (ctx);
  /* 0 is no table's, as a thread's cache starts */
  table->serial = __atomic_add_fetch (&serials, 1, __ATOMIC_RELAXED);
  table->thread_queues = g_hash_table_new (NULL, NULL);
  table->queues = g_ptr_array_new_with_free_func (release_handle);
  table->max_queues = max ? g_ascii_strtoull (max, NULL, 10) : 0;
  return table;
}

static void
queue_table_free (gpointer data)
{
  GstClQueueTable *table = data;

  g_hash_table_unref (table->thread_queues);
  g_ptr_array_unref (table->queues);
  g_mutex_clear (&table->lock);
  g_free (table);
}

/* Profiling, which gst_cl_event_profile_start() needs, is on with
 * GST_CL_PROFILING=1: it costs a quarter of the frames a second of many
 * streams on NVIDIA's driver, so only the benchmark asks for it. */
static cl_command_queue
create_handle (cl_context context, cl_device_id device, GError ** error)
{
  cl_command_queue_properties props =
      g_strcmp0 (g_getenv ("GST_CL_PROFILING"), "1") == 0 ?
      CL_QUEUE_PROFILING_ENABLE : 0;
  cl_int status = CL_SUCCESS;
  cl_command_queue queue;

  queue = clCreateCommandQueue (context, device, props, &status);
  if (!gst_cl_result (status, error, "clCreateCommandQueue"))
    return NULL;
  return queue;
}

/* The context's own queue: no reference on the context, which owns it. */
static gpointer
queue_new_own (GstClContext * ctx, GError ** error)
{
  cl_command_queue handle = create_handle (gst_cl_context_get_handle (ctx),
      gst_cl_context_get_device (ctx), error);
  GstClQueue *queue;

  if (!handle)
    return NULL;
  queue = g_new0 (GstClQueue, 1);
  queue->ctx = ctx;
  queue->context = gst_cl_context_get_handle (ctx);
  queue->caps = gst_cl_context_get_caps (ctx);
  queue->events = gst_cl_events_get (ctx);
  queue->handle = handle;
  queue->own = TRUE;
  return queue;
}

static void
queue_free_own (gpointer data)
{
  GstClQueue *queue = data;

  release_handle (queue->handle);
  g_free (queue);
}

static GstClContextAttachment queue_tables = {
  queue_table_new, queue_table_free, 1, 0
};
static GstClContextAttachment own_queues =
    { queue_new_own, queue_free_own, 1, 0 };

/**
 * gst_cl_queue_get_shared:
 *
 * The queue of @ctx for the commands that belong to no frame: maps, pool
 * set-up, copies of a memory; made on the first call.
 *
 * Returns: (transfer none) (nullable): an in-order command queue, with
 *   profiling where asked, or %NULL with @error set
 */
GstClQueue *
gst_cl_queue_get_shared (GstClContext * ctx, GError ** error)
{
  return gst_cl_context_get_attached (ctx, &own_queues, error);
}

/**
 * gst_cl_queue_get_shared_handle:
 *
 * The command queue of gst_cl_queue_get_shared(), for a single command of
 * no frame.
 *
 * Returns: (transfer none) (nullable): it, or %NULL where it could not be
 *   made (the OpenCL call then fails with CL_INVALID_COMMAND_QUEUE)
 */
cl_command_queue
gst_cl_queue_get_shared_handle (GstClContext * ctx)
{
  GstClQueue *shared = gst_cl_queue_get_shared (ctx, NULL);

  return shared ? shared->handle : NULL;
}

/**
 * gst_cl_queue_new:
 *
 * An element's device work on @ctx: it has no command queue until
 * gst_cl_queue_follow_thread() gives it the calling thread's.
 *
 * Returns: (transfer full) (nullable): a new queue, freed with
 *   gst_cl_queue_free(), or %NULL with @error set
 */
GstClQueue *
gst_cl_queue_new (GstClContext * ctx, GError ** error)
{
  GstClQueueTable *table;
  GstClQueue *queue;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (ctx), NULL);

  if (!(table = gst_cl_context_get_attached (ctx, &queue_tables, error)))
    return NULL;
  queue = g_new0 (GstClQueue, 1);
  queue->ctx = gst_object_ref (ctx);
  queue->context = gst_cl_context_get_handle (ctx);
  queue->caps = gst_cl_context_get_caps (ctx);
  queue->events = gst_cl_events_get (ctx);
  queue->table = table;
  return queue;
}

/**
 * gst_cl_queue_free:
 *
 * Frees @queue; its command queue is the context's. What the element
 * enqueued on it and may still use its own buffers is waited for first
 * (gst_cl_queue_wait()).
 */
void
gst_cl_queue_free (GstClQueue * queue)
{
  if (!queue)
    return;
  g_return_if_fail (!queue->own);
  gst_object_unref (queue->ctx);
  g_free (queue);
}

/* the queue this thread took last, and of which table */
static __thread struct
{
  guint64 serial;
  cl_command_queue queue;
} thread_queue;

/* The calling thread's in-order queue on @ctx, which owns the queues of
 * its threads and releases them with itself. */
static cl_command_queue
thread_handle (GstClQueueTable * table, GError ** error)
{
  cl_command_queue queue;

  if (G_LIKELY (thread_queue.serial == table->serial))
    return thread_queue.queue;
  g_mutex_lock (&table->lock);
  queue = g_hash_table_lookup (table->thread_queues, g_thread_self ());
  if (!queue && table->max_queues && table->queues->len >= table->max_queues)
    queue = g_ptr_array_index (table->queues,
        g_hash_table_size (table->thread_queues) % table->max_queues);
  else if (!queue && (queue = create_handle (table->context, table->device,
              error)))
    g_ptr_array_add (table->queues, queue);
  if (queue)
    g_hash_table_insert (table->thread_queues, g_thread_self (), queue);
  g_mutex_unlock (&table->lock);
  if (queue) {
    thread_queue.serial = table->serial;
    thread_queue.queue = queue;
  }
  return queue;
}

/**
 * gst_cl_queue_follow_thread:
 *
 * Takes the calling thread's command queue, where the element enqueues its
 * next frame. Where that is another queue than the last (the element's
 * streaming thread changed), what comes next on it waits for the last
 * queue's commands, which may still use the element's own buffers.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_queue_follow_thread (GstClQueue * queue, GError ** error)
{
  cl_command_queue next;
  cl_event last;
  gboolean ok;

  g_return_val_if_fail (!queue->own, FALSE);
  if (!(next = thread_handle (queue->table, error)))
    return FALSE;
  if (queue->handle && queue->handle != next) {
    last = gst_cl_queue_mark (queue, error);
    if (!last)
      return FALSE;
    ok = gst_cl_result (clFlush (queue->handle), error, "clFlush") &&
        gst_cl_result (clEnqueueBarrierWithWaitList (next, 1, &last, NULL),
        error, "clEnqueueBarrierWithWaitList");
    clReleaseEvent (last);
    if (!ok)
      return FALSE;
  }
  queue->handle = next;
  return TRUE;
}

/**
 * gst_cl_queue_mark:
 *
 * Returns: (transfer full) (nullable): an event that completes with every
 *   command enqueued on @queue so far
 */
cl_event
gst_cl_queue_mark (GstClQueue * queue, GError ** error)
{
  cl_event event = NULL;

  if (!gst_cl_result (clEnqueueMarkerWithWaitList (queue->handle, 0, NULL,
              &event), error, "clEnqueueMarkerWithWaitList"))
    return NULL;
  return event;
}

/**
 * gst_cl_queue_flush:
 *
 * Sends what is enqueued on @queue to the device.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_queue_flush (GstClQueue * queue, GError ** error)
{
  return gst_cl_result (clFlush (queue->handle), error, "clFlush");
}

/**
 * gst_cl_queue_wait:
 * @event: (nullable): a command's on @queue, or %NULL for everything
 *   enqueued on it so far
 *
 * Blocks until @event is complete, @queue's commands sent to the device
 * first (see gst_cl_event_wait_queued()). Without an event, a marker's
 * (clFinish() itself where the marker cannot be enqueued: host memory that
 * a copy still reads is released after this returns).
 *
 * Returns: %TRUE when the commands ended without an error
 */
gboolean
gst_cl_queue_wait (GstClQueue * queue, cl_event event, GError ** error)
{
  cl_event done = event ? event : gst_cl_queue_mark (queue, error);
  gboolean ok;

  if (!done) {
    clFinish (queue->handle);
    return FALSE;
  }
  ok = gst_cl_event_wait_queued (queue->events, queue->handle, done, error);
  if (!event)
    clReleaseEvent (done);
  return ok;
}

/* whether @queue need not wait for @event: it is complete, or @queue's own
 * (in order, so already before anything enqueued next) */
static gboolean
event_is_behind (cl_event event, cl_command_queue queue)
{
  cl_command_queue owner = NULL;

  if (clGetEventInfo (event, CL_EVENT_COMMAND_QUEUE, sizeof (owner), &owner,
          NULL) == CL_SUCCESS && owner == queue)
    return TRUE;
  return gst_cl_event_status (event) == CL_COMPLETE;
}

/**
 * gst_cl_queue_wait_for:
 * @events: cl_event values, kept by the caller
 *
 * Makes what is enqueued on @queue from now on wait for @events (on any
 * queue of the same context), without the host waiting. Nothing is
 * enqueued when they are all done or @queue's own.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_queue_wait_for (GstClQueue * queue, GArray * events, GError ** error)
{
  cl_event pending[16];
  guint i, n = 0;

  for (i = 0; i < events->len; i++) {
    cl_event event = g_array_index (events, cl_event, i);

    if (event_is_behind (event, queue->handle))
      continue;
    pending[n++] = event;
    if (n == G_N_ELEMENTS (pending) && !gst_cl_result
        (clEnqueueBarrierWithWaitList (queue->handle, n, pending, NULL), error,
            "clEnqueueBarrierWithWaitList"))
      return FALSE;
    n %= G_N_ELEMENTS (pending);
  }
  return n == 0 || gst_cl_result (clEnqueueBarrierWithWaitList (queue->handle,
          n, pending, NULL), error, "clEnqueueBarrierWithWaitList");
}
