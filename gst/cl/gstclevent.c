/* gstclfilters: events, and how the host waits for them
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A driver may spin a core in clWaitForEvents (NVIDIA's does): the quickest
 * way to wait while there are cores to spin, and the worst when hundreds of
 * streams wait at once. The device's #GstClWait says how its waits go;
 * docs/design.md gives what each way was measured to do.
 */
#include "gstclevent.h"
#include "gstclcontext.h"
#include "gstclerror.h"

struct _GstClEvents
{
  GstClWait how;                /* the device's way to wait */
  gint waiting;                 /* threads in a wait now */
  gint spinning_waits;          /* the most that wait in clWaitForEvents */
  GMutex lock;
  GArray *timed;                /* cl_event of each command, while profiling */
};

static gpointer
events_new (GstClContext * ctx, GError ** error)
{
  GstClEvents *events = g_new0 (GstClEvents, 1);
  const gchar *env = g_getenv ("GST_CL_SPINNING_WAITS");

  events->how = gst_cl_context_get_caps (ctx)->wait;
  /* GST_CL_SPINNING_WAITS=N: at most N threads in clWaitForEvents */
  events->spinning_waits = env ? (gint) g_ascii_strtoll (env, NULL, 10) :
      (gint) g_get_num_processors ();
  g_mutex_init (&events->lock);
  return events;
}

static gdouble
take_timed (GstClEvents * events)
{
  GArray *timed;
  gdouble ms = 0;
  guint i;

  g_mutex_lock (&events->lock);
  timed = events->timed;
  events->timed = NULL;
  g_mutex_unlock (&events->lock);
  if (!timed)
    return 0;
  for (i = 0; i < timed->len; i++) {
    cl_event event = g_array_index (timed, cl_event, i);
    cl_ulong start = 0, end = 0;

    if (clWaitForEvents (1, &event) == CL_SUCCESS &&
        clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_START,
            sizeof (start), &start, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_END,
            sizeof (end), &end, NULL) == CL_SUCCESS && end > start)
      ms += (end - start) / 1e6;
    clReleaseEvent (event);
  }
  g_array_free (timed, TRUE);
  return ms;
}

static void
events_free (gpointer data)
{
  GstClEvents *events = data;

  take_timed (events);
  g_mutex_clear (&events->lock);
  g_free (events);
}

static GstClContextAttachment events_of_contexts =
    { events_new, events_free, 2, 0 };

/**
 * gst_cl_events_get:
 *
 * Returns: (transfer none): how @ctx's commands are waited for and timed,
 *   made on the first call (which cannot fail) and kept as long as @ctx
 */
GstClEvents *
gst_cl_events_get (GstClContext * ctx)
{
  return gst_cl_context_get_attached (ctx, &events_of_contexts, NULL);
}

/**
 * gst_cl_event_get_waiting:
 *
 * Returns: how many threads wait for commands of @ctx's device now
 */
gint
gst_cl_event_get_waiting (GstClContext * ctx)
{
  return g_atomic_int_get (&gst_cl_events_get (ctx)->waiting);
}

/**
 * gst_cl_events_timing:
 * @event: where a command may put its event
 *
 * Returns: (nullable): @event while commands are timed
 *   (gst_cl_event_profile_start()), else %NULL; read without the lock, as
 *   a hint
 */
cl_event *
gst_cl_events_timing (GstClEvents * events, cl_event * event)
{
  return g_atomic_pointer_get (&events->timed) != NULL ? event : NULL;
}

/**
 * gst_cl_events_record:
 * @event: (transfer full) (nullable): a command's event, from
 *   gst_cl_events_timing()
 *
 * Keeps @event while commands are timed, else releases it.
 */
void
gst_cl_events_record (GstClEvents * events, cl_event event)
{
  if (!event)
    return;
  g_mutex_lock (&events->lock);
  /* profiling may have stopped meanwhile */
  if (events->timed) {
    g_array_append_val (events->timed, event);
    event = NULL;
  }
  g_mutex_unlock (&events->lock);
  if (event)
    clReleaseEvent (event);
}

/**
 * gst_cl_event_profile_start:
 *
 * From now on, records the device time of every command that
 * gst_cl_kernel_enqueue() and its copies and fills run on @ctx, until
 * gst_cl_event_profile_stop(); for benchmarks, which time kernels without
 * the cost of launching them. Only queues made with GST_CL_PROFILING=1 in
 * the environment time their commands.
 */
void
gst_cl_event_profile_start (GstClContext * ctx)
{
  GstClEvents *events;

  g_return_if_fail (GST_IS_CL_CONTEXT (ctx));

  events = gst_cl_events_get (ctx);
  g_mutex_lock (&events->lock);
  if (!events->timed)
    events->timed = g_array_new (FALSE, FALSE, sizeof (cl_event));
  g_mutex_unlock (&events->lock);
}

/**
 * gst_cl_event_profile_stop:
 *
 * Waits for the commands recorded since gst_cl_event_profile_start().
 *
 * Returns: the milliseconds they ran on the device, start to end, added up
 */
gdouble
gst_cl_event_profile_stop (GstClContext * ctx)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (ctx), 0);

  return take_timed (gst_cl_events_get (ctx));
}

static void
release_event (gpointer event)
{
  clReleaseEvent (*(cl_event *) event);
}

/**
 * gst_cl_event_array_new:
 *
 * Returns: (transfer full): an empty array of cl_event that releases them
 *   when cleared
 */
GArray *
gst_cl_event_array_new (void)
{
  GArray *events = g_array_new (FALSE, FALSE, sizeof (cl_event));

  g_array_set_clear_func (events, release_event);
  return events;
}

typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done;
  cl_int status;
} Waiter;

static void CL_CALLBACK
waiter_wake (cl_event event, cl_int status, void *data)
{
  Waiter *w = data;

  g_mutex_lock (&w->lock);
  w->status = status;
  w->done = TRUE;
  g_cond_signal (&w->cond);
  g_mutex_unlock (&w->lock);
}

/* Some drivers spin a core in clWaitForEvents; a callback lets the thread
 * sleep until the driver says the event is complete. */
static cl_int
wait_sleeping (cl_event event, const gchar ** what)
{
  Waiter w = { 0, };
  cl_int status;

  *what = "clSetEventCallback (waiting for a command)";
  g_mutex_init (&w.lock);
  g_cond_init (&w.cond);
  status = clSetEventCallback (event, CL_COMPLETE, waiter_wake, &w);
  if (status == CL_SUCCESS) {
    g_mutex_lock (&w.lock);
    while (!w.done)
      g_cond_wait (&w.cond, &w.lock);
    g_mutex_unlock (&w.lock);
    /* a negative status: the command ended in an error */
    status = w.status < 0 ? w.status : CL_SUCCESS;
  }
  g_mutex_clear (&w.lock);
  g_cond_clear (&w.cond);
  return status;
}

/* Naps between looks at the status, no core spinning and no driver thread
 * running a callback: 20 us, then twice as long each time up to 160 us, a
 * few looks a wait. Not one nap of most of the wait: a stream's thread has
 * one frame in flight, so what a nap overshoots, the stream loses (that
 * cost 8 streams a quarter of their frames on an H100). */
static cl_int
wait_polling (cl_event event, const gchar ** what)
{
  gulong nap = 20;
  cl_int state = CL_QUEUED;
  cl_int status;

  while ((status = clGetEventInfo (event, CL_EVENT_COMMAND_EXECUTION_STATUS,
              sizeof (state), &state, NULL)) == CL_SUCCESS &&
      state > CL_COMPLETE) {
    g_usleep (nap);
    nap = MIN (nap * 2, 160);
  }
  if (status != CL_SUCCESS) {
    *what = "clWaitForEvents";
    return clWaitForEvents (1, &event);
  }
  *what = "clGetEventInfo (waiting for a command)";
  return state < 0 ? state : CL_SUCCESS;
}

/**
 * gst_cl_event_status:
 *
 * Returns: the execution status of @event's command: %CL_COMPLETE, a
 *   negative error code where it failed, else %CL_QUEUED, %CL_SUBMITTED or
 *   %CL_RUNNING (%CL_QUEUED where the status cannot be read)
 */
cl_int
gst_cl_event_status (cl_event event)
{
  cl_int state = CL_QUEUED;

  if (clGetEventInfo (event, CL_EVENT_COMMAND_EXECUTION_STATUS,
          sizeof (state), &state, NULL) != CL_SUCCESS)
    return CL_QUEUED;
  return state;
}

/* Waits for @event; @queue (where not %NULL) is its queue, not flushed yet. */
static gboolean
event_wait (GstClEvents * events, cl_command_queue queue, cl_event event,
    GError ** error)
{
  GstClWait how = events->how;
  const gchar *what = "clWaitForEvents";
  cl_int status = CL_SUCCESS;

  /* often done already: a later command was waited for */
  if (gst_cl_event_status (event) == CL_COMPLETE)
    return TRUE;
  /* A driver may spin a core in clWaitForEvents (NVIDIA's does): the
   * quickest way while there are cores to spin, but more spinning waits
   * than cores take them from the threads that would give the device its
   * next commands. So threads beyond as many as the cores nap
   * (GST_CL_SPINNING_WAITS=N to try other numbers; on an H100, 8 and 4 did
   * no better, see docs/benchmarks-journal.md). */
  if (g_atomic_int_add (&events->waiting, 1) >= events->spinning_waits &&
      how == GST_CL_WAIT_AUTO)
    how = GST_CL_WAIT_POLL;
  /* clWaitForEvents flushes the event's queue itself (the spec says so):
   * a flush before it would be one more turn at the driver's lock a frame.
   * The other ways only look at the event, so the queue is flushed first. */
  if (queue && how != GST_CL_WAIT_BLOCK && how != GST_CL_WAIT_AUTO)
    status = clFlush (queue);
  if (status != CL_SUCCESS)
    what = "clFlush";
  else if (how == GST_CL_WAIT_CALLBACK)
    status = wait_sleeping (event, &what);
  else if (how == GST_CL_WAIT_POLL)
    status = wait_polling (event, &what);
  else
    status = clWaitForEvents (1, &event);
  g_atomic_int_add (&events->waiting, -1);
  /* one check for every way */
  return gst_cl_result (status, error, what);
}

/**
 * gst_cl_event_wait:
 * @ctx: the context of @event, whose device says how to wait
 *
 * Blocks until @event is complete. The command must have been flushed, or
 * be waited for with gst_cl_event_wait_queued().
 *
 * Returns: %TRUE when the command ended without an error
 */
gboolean
gst_cl_event_wait (GstClContext * ctx, cl_event event, GError ** error)
{
  return event_wait (gst_cl_events_get (ctx), NULL, event, error);
}

/**
 * gst_cl_event_wait_queued:
 * @events: those of @queue's context (gst_cl_events_get())
 * @event: a command's on @queue, which may not be flushed yet
 *
 * Blocks until @event is complete, @queue's commands sent to the device
 * first (by clWaitForEvents, which flushes its event's queue, or a flush).
 *
 * Returns: %TRUE when the command ended without an error
 */
gboolean
gst_cl_event_wait_queued (GstClEvents * events, cl_command_queue queue,
    cl_event event, GError ** error)
{
  return event_wait (events, queue, event, error);
}
