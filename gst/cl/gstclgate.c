/* gstclfilters: how many threads have frames in a device's driver at once
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A frame's commands each take a lock inside the driver (NVIDIA's, at
 * least): with hundreds of streaming threads enqueueing and waiting at once
 * the turns at that lock, not the device, set the pace, and more waiting
 * threads spin than there are cores. So at most a few threads at once have a
 * frame in a device's driver; the others sleep, in the order they came, until
 * one leaves. The gate is the device's, shared by every context on it.
 */
#include "gstclgate.h"
#include "gstclcontext.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_gate_debug);
#define GST_CAT_DEFAULT gst_cl_gate_debug

static void
ensure_debug_category (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_gate_debug, "clgate", 0,
        "OpenCL device gates");
    g_once_init_leave (&done, 1);
  }
}

struct _GstClGate
{
  GMutex lock;
  GQueue waiters;               /* GCond *, first come first in */
  gint free;                    /* below 0: threads let in past the limit */
  gint limit;                   /* 0: no limit */
  gboolean shared;              /* the default limit, shared by the devices */
  gint refs;
  cl_device_id device;
};

/* Never a deadlock, whatever holds a thread inside: one that waited this
 * long goes in past the limit. */
#define GATE_TIMEOUT (G_TIME_SPAN_SECOND)

static GMutex gates_lock;
static GHashTable *gates;       /* cl_device_id -> GstClGate */

/* GST_CL_DEVICE_THREADS: a device's limit, 0 for none; -1 where unset */
static gint
env_max_threads (void)
{
  const gchar *env = g_getenv ("GST_CL_DEVICE_THREADS");
  gchar *end = NULL;
  gint64 n = env ? g_ascii_strtoll (env, &end, 10) : -1;

  /* 0 is no limit; anything but a number from 0 to 1024 the default */
  if (env && end != env && *end == '\0' && n >= 0 && n <= 1024)
    return (gint) n;
  if (env)
    GST_WARNING ("GST_CL_DEVICE_THREADS=%s is not a number from 0 to 1024: "
        "ignored", env);
  return -1;
}

/* Changes the limit of @gate, letting in as many waiting threads as the
 * places it adds. */
static void
gate_set_limit (GstClGate * gate, gint limit)
{
  GList *next;

  g_mutex_lock (&gate->lock);
  gate->free += limit - gate->limit;
  g_atomic_int_set (&gate->limit, limit);
  while (gate->free > 0 && (next = g_queue_pop_head_link (&gate->waiters))) {
    GCond *cond = next->data;

    next->data = NULL;
    gate->free--;
    g_cond_signal (cond);
  }
  g_mutex_unlock (&gate->lock);
}

/* The default, half the cores (the rest for the threads that fill and
 * drain frames), is the process's, shared by the devices it uses at once:
 * two GPUs on 32 cores let through 3-8% more frames with 8 threads each
 * than with 16 (docs/benchmarks-journal.md). Called with gates_lock. */
static void
gates_share_default_limit (void)
{
  GHashTableIter iter;
  GstClGate *gate;
  guint shared = 0;

  g_hash_table_iter_init (&iter, gates);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) & gate))
    shared += gate->shared;
  g_hash_table_iter_init (&iter, gates);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) & gate))
    if (gate->shared)
      gate_set_limit (gate, MAX (2, (gint) g_get_num_processors () / 2 /
              (gint) shared));
}

/* the gate of @ctx's device, shared by the device's contexts
 * (gst_cl_context_get_attached()) */
static gpointer
gate_get (GstClContext * ctx, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (ctx);
  GstClGate *gate;
  gint limit;

  ensure_debug_category ();
  g_mutex_lock (&gates_lock);
  if (!gates)
    gates = g_hash_table_new (NULL, NULL);
  gate = g_hash_table_lookup (gates, device);
  if (!gate) {
    gate = g_new0 (GstClGate, 1);
    g_mutex_init (&gate->lock);
    g_queue_init (&gate->waiters);
    gate->device = device;
    limit = env_max_threads ();
    gate->shared = limit < 0;
    gate->limit = gate->shared ? 2 : limit;
    gate->free = gate->limit;
    g_hash_table_insert (gates, device, gate);
    if (gate->shared)
      gates_share_default_limit ();
  }
  gate->refs++;
  g_mutex_unlock (&gates_lock);
  return gate;
}

static void
gate_unref (gpointer data)
{
  GstClGate *gate = data;

  g_mutex_lock (&gates_lock);
  if (--gate->refs == 0) {
    /* every context of the device gone: nobody may be in, or waiting */
    if (gate->free != gate->limit || !g_queue_is_empty (&gate->waiters))
      GST_ERROR ("a device's gate released with %d of %d places taken",
          gate->limit - gate->free, gate->limit);
    g_hash_table_remove (gates, gate->device);
    if (gate->shared)
      gates_share_default_limit ();
    g_mutex_clear (&gate->lock);
    g_free (gate);
  }
  g_mutex_unlock (&gates_lock);
}

/* freed last of what a context holds: its builds and queues pass it */
static GstClContextAttachment gates_of_contexts =
    { gate_get, gate_unref, 2, 0 };

/**
 * gst_cl_gate_get:
 *
 * Returns: (transfer none) (nullable): the gate of @ctx's device, kept as
 *   long as @ctx, for gst_cl_gate_enter() and gst_cl_gate_leave()
 */
GstClGate *
gst_cl_gate_get (GstClContext * ctx)
{
  return gst_cl_context_get_attached (ctx, &gates_of_contexts, NULL);
}

static void
gate_acquire (GstClGate * gate)
{
  GCond cond;
  GList link = { &cond, NULL, NULL };
  gint64 deadline;

  g_mutex_lock (&gate->lock);
  if (gate->free > 0 && g_queue_is_empty (&gate->waiters)) {
    gate->free--;
    g_mutex_unlock (&gate->lock);
    return;
  }
  g_cond_init (&cond);
  g_queue_push_tail_link (&gate->waiters, &link);
  deadline = g_get_monotonic_time () + GATE_TIMEOUT;
  /* gate_release() takes the link off the queue as it lets us in */
  while (link.data) {
    if (!g_cond_wait_until (&cond, &gate->lock, deadline) && link.data) {
      g_queue_unlink (&gate->waiters, &link);
      gate->free--;
      GST_WARNING ("waited a second for one of %d threads to leave device "
          "%p: going in past the limit", gate->limit, gate->device);
      break;
    }
  }
  g_mutex_unlock (&gate->lock);
  g_cond_clear (&cond);
}

static void
gate_release (GstClGate * gate)
{
  GList *next;

  g_mutex_lock (&gate->lock);
  if (gate->free >= 0 && (next = g_queue_pop_head_link (&gate->waiters))) {
    GCond *cond = next->data;

    /* the thread's place is handed over: free stays as it is */
    next->data = NULL;
    g_cond_signal (cond);
  } else
    gate->free++;
  g_mutex_unlock (&gate->lock);
}

/* the gates the calling thread is in, each with its depth: it goes in again
 * without waiting (a pool's allocation inside a frame's work); @placed: it
 * took a place, which it gives back as it leaves; @out: it gave its place
 * while it naps (gst_cl_gate_step_out()) */
static __thread struct
{
  GstClGate *gate;
  guint depth;
  gboolean placed;
  gboolean out;
} thread_gates[4];

/**
 * gst_cl_gate_enter:
 *
 * @gate: (nullable): a device's gate (gst_cl_gate_get()); %NULL for none
 *
 * Before a thread calls into the device's driver: returns at once while
 * fewer than gst_cl_gate_get_limit() threads are in, else when the
 * threads that came first are in and one more may be (or, should the wait
 * last a second, past the limit). A thread already in goes in again at
 * once, and so does one in another device's gate, without taking a place.
 * Every call is followed by gst_cl_gate_leave() from the same thread,
 * once its commands are flushed and it is done waiting for them.
 */
void
gst_cl_gate_enter (GstClGate * gate)
{
  gboolean inside = FALSE;
  gint i, slot = -1;

  if (!gate || g_atomic_int_get (&gate->limit) == 0)
    return;
  for (i = 0; i < (gint) G_N_ELEMENTS (thread_gates); i++) {
    if (thread_gates[i].gate == gate) {
      thread_gates[i].depth++;
      return;
    }
    if (!thread_gates[i].gate && slot < 0)
      slot = i;
    inside |= thread_gates[i].gate != NULL;
  }
  /* in the gates of more devices at once than kept: not held back */
  if (slot < 0)
    return;
  /* a thread in another device's gate (a frame of one device read from
   * another's memory) goes in without a place: gates of two devices that
   * waited for each other would wait a second each time */
  if (!inside)
    gate_acquire (gate);
  thread_gates[slot].gate = gate;
  thread_gates[slot].depth = 1;
  thread_gates[slot].placed = !inside;
}

/**
 * gst_cl_gate_leave:
 *
 * After gst_cl_gate_enter(): lets the next thread in, once the calling
 * thread has left as many times as it went in.
 */
void
gst_cl_gate_leave (GstClGate * gate)
{
  guint i;

  if (!gate || g_atomic_int_get (&gate->limit) == 0)
    return;
  for (i = 0; i < G_N_ELEMENTS (thread_gates); i++) {
    if (thread_gates[i].gate != gate)
      continue;
    if (--thread_gates[i].depth == 0) {
      thread_gates[i].gate = NULL;
      if (thread_gates[i].placed)
        gate_release (gate);
    }
    return;
  }
}

/**
 * gst_cl_gate_step_out:
 *
 * Before the calling thread, inside a frame's work, waits for its device
 * napping between looks, with no call into an OpenCL driver to make (the
 * copies of frames in CUDA memory): gives its place to the next thread,
 * so that a device kept busy by others lets more frames in than there are
 * places (16 decoded streams through cldenoise: the places, not the GPU,
 * had set their pace). Followed by gst_cl_gate_step_in()
 * from the same thread; it stays in as many times as it went in.
 */
void
gst_cl_gate_step_out (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (thread_gates); i++)
    if (thread_gates[i].gate && thread_gates[i].placed) {
      thread_gates[i].placed = FALSE;
      thread_gates[i].out = TRUE;
      gate_release (thread_gates[i].gate);
    }
}

/**
 * gst_cl_gate_step_in:
 *
 * After gst_cl_gate_step_out(): takes a place again, in its turn among the
 * threads waiting for one (a thread holds a place in one gate at most, so
 * that this waits for one gate alone).
 */
void
gst_cl_gate_step_in (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (thread_gates); i++)
    if (thread_gates[i].out) {
      gate_acquire (thread_gates[i].gate);
      thread_gates[i].out = FALSE;
      thread_gates[i].placed = TRUE;
    }
}

/**
 * gst_cl_gate_get_limit:
 *
 * Returns: how many threads may have frames in @ctx's device at once (see
 *   gst_cl_gate_enter()): half the host's cores, at least 2, or
 *   GST_CL_DEVICE_THREADS; 0 for no limit
 */
guint
gst_cl_gate_get_limit (GstClContext * ctx)
{
  GstClGate *gate = gst_cl_gate_get (ctx);

  return gate ? (guint) g_atomic_int_get (&gate->limit) : 0;
}
