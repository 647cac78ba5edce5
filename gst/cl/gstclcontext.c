/* gstclfilters: the shared OpenCL context, and its GstContext sharing
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gstclcontext.h"
#include "gstcldevice.h"
#include "gstclerror.h"

#include <CL/cl_ext.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_context_debug);
#define GST_CAT_DEFAULT gst_cl_context_debug

G_DEFINE_TYPE_WITH_CODE (GstClContext, gst_cl_context, GST_TYPE_OBJECT,
    GST_DEBUG_CATEGORY_INIT (gst_cl_context_debug, "clcontext", 0,
        "OpenCL context"));

/* An application's cl_context is wrapped by one GstClContext, whichever
 * element sees it first, so that its programs and queue are shared too.
 * Weak references: a wrapper in its last unref is never handed out. */
static GMutex wrapped_lock;
static GHashTable *wrapped_contexts;    /* cl_context -> GWeakRef * */

static GstClGate *gate_get (cl_device_id device);
static void gate_unref (GstClGate * gate);

static void
free_weak_ref (gpointer ref)
{
  g_weak_ref_clear (ref);
  g_free (ref);
}

/* Called with wrapped_lock. Returns a new reference, or NULL. */
static GstClContext *
lookup_wrapped (cl_context context)
{
  GWeakRef *ref;

  if (!wrapped_contexts)
    wrapped_contexts = g_hash_table_new_full (NULL, NULL, NULL, free_weak_ref);
  ref = g_hash_table_lookup (wrapped_contexts, context);
  return ref ? g_weak_ref_get (ref) : NULL;
}

static void
gst_cl_context_finalize (GObject * object)
{
  GstClContext *self = GST_CL_CONTEXT (object);

  if (self->wrapped) {
    GstClContext *live;

    /* the entry is ours unless a new wrapper took its place meanwhile */
    g_mutex_lock (&wrapped_lock);
    live = lookup_wrapped (self->context);
    if (!live)
      g_hash_table_remove (wrapped_contexts, self->context);
    g_mutex_unlock (&wrapped_lock);
    /* outside the lock: this may be the last reference */
    if (live)
      gst_object_unref (live);
  }
  /* a build under way ends first: it uses the context */
  if (self->builder)
    g_thread_pool_free (self->builder, TRUE, TRUE);
  g_hash_table_unref (self->programs);
  g_hash_table_unref (self->building);
  g_hash_table_unref (self->failed);
  g_cond_clear (&self->built);
  g_hash_table_unref (self->thread_queues);
  g_ptr_array_unref (self->queues);
  if (self->profile)
    gst_cl_context_profile_stop (self);
  if (self->queue) {
    clFinish (self->queue);
    clReleaseCommandQueue (self->queue);
  }
  /* balances the retain taken at creation or wrapping */
  if (self->context)
    clReleaseContext (self->context);
  if (self->gate)
    gate_unref (self->gate);
  g_free (self->device_name);
  g_free (self->cache_key);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (gst_cl_context_parent_class)->finalize (object);
}

static void
gst_cl_context_class_init (GstClContextClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_context_finalize;
}

static void
release_program (gpointer program)
{
  clReleaseProgram (program);
}

static void
release_queue (gpointer queue)
{
  clFinish (queue);
  clReleaseCommandQueue (queue);
}

static void
gst_cl_context_init (GstClContext * self)
{
  static guint64 serials = 0;

  /* 0 is no context's, as a thread's cache starts */
  self->serial = __atomic_add_fetch (&serials, 1, __ATOMIC_RELAXED);
  self->thread_queues = g_hash_table_new (NULL, NULL);
  self->queues = g_ptr_array_new_with_free_func (release_queue);
  self->max_queues = g_ascii_strtoull (g_getenv ("GST_CL_MAX_QUEUES") ?
      g_getenv ("GST_CL_MAX_QUEUES") : "0", NULL, 10);
  g_mutex_init (&self->lock);
  self->device_index = -1;
  self->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      release_program);
  self->building = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  self->failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_cond_init (&self->built);
}

/* the first failure of a device query is kept in @status */
#define DEVICE_INFO(dev, what, var, status) \
    if ((status) == CL_SUCCESS) \
      (status) = clGetDeviceInfo ((dev), (what), sizeof (var), &(var), NULL)

/* What the kernels and the frame layouts depend on: a device that cannot
 * say is not used, rather than guessed at. */
static gboolean
read_device_caps (cl_device_id device, GstClDeviceCaps * caps, GError ** error)
{
  cl_bool unified = CL_FALSE;
  cl_int status = CL_SUCCESS;
  gchar *ext = gst_cl_device_read_string (device, CL_DEVICE_EXTENSIONS, error);

  if (!ext)
    return FALSE;
  DEVICE_INFO (device, CL_DEVICE_TYPE, caps->type, status);
  DEVICE_INFO (device, CL_DEVICE_HOST_UNIFIED_MEMORY, unified, status);
  DEVICE_INFO (device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
      caps->max_work_group_size, status);
  DEVICE_INFO (device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, caps->max_mem_alloc_size,
      status);
  DEVICE_INFO (device, CL_DEVICE_LOCAL_MEM_SIZE, caps->local_mem_size, status);
  DEVICE_INFO (device, CL_DEVICE_MAX_COMPUTE_UNITS, caps->compute_units,
      status);
  DEVICE_INFO (device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
      caps->mem_base_addr_align, status);
  caps->unified_memory = unified;
  /* NVIDIA's own compiler, which takes inline PTX assembly */
  caps->nv_ptx = strstr (ext, "cl_nv_compiler_options") != NULL;
  /* its asynchronous copies to local memory (PTX cp.async), from compute
   * capability 8.0 */
  if (caps->nv_ptx && strstr (ext, "cl_nv_device_attribute_query")) {
    cl_uint major = 0;

    DEVICE_INFO (device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, major, status);
    caps->async_copy = major >= 8;
  }
  g_free (ext);
  return gst_cl_result (status, error, "clGetDeviceInfo");
}

static gboolean
gst_cl_context_setup (GstClContext * self, GError ** error)
{
  gchar *driver = NULL, *version = NULL, *name = NULL;
  const gchar *wait;

  if (!(driver = gst_cl_device_read_string (self->device, CL_DRIVER_VERSION,
              error)) || !(version = gst_cl_device_read_string (self->device,
              CL_DEVICE_VERSION, error)) ||
      !(name = gst_cl_device_read_string (self->device, CL_DEVICE_NAME,
              error)) || !read_device_caps (self->device, &self->caps, error))
    goto failed;
  /* GST_CL_NO_ZERO_COPY=1 takes the copy path of discrete GPUs anywhere, so
   * that it can be tested without one */
  if (g_strcmp0 (g_getenv ("GST_CL_NO_ZERO_COPY"), "1") == 0)
    self->caps.unified_memory = FALSE;
  /* GST_CL_ASYNC_COPY=0 takes the kernels without asynchronous copies, to
   * compare */
  if (g_strcmp0 (g_getenv ("GST_CL_ASYNC_COPY"), "0") == 0)
    self->caps.async_copy = FALSE;
  /* How the host waits (see gst_cl_event_wait()). GST_CL_WAIT=sleep waits
   * in a callback: on an H100 it kept more live streams at their rate, but
   * two GPUs in one process fell to a quarter (2,790 frames/s against
   * 11,220). GST_CL_WAIT=block and poll force those ways. */
  wait = g_getenv ("GST_CL_WAIT");
  /* GST_CL_SPINNING_WAITS=N: at most N threads in clWaitForEvents */
  self->spinning_waits = g_getenv ("GST_CL_SPINNING_WAITS") ?
      (gint) g_ascii_strtoll (g_getenv ("GST_CL_SPINNING_WAITS"), NULL, 10) :
      (gint) g_get_num_processors ();
  self->caps.wait = g_strcmp0 (wait, "sleep") == 0 ? GST_CL_WAIT_CALLBACK :
      g_strcmp0 (wait, "poll") == 0 ? GST_CL_WAIT_POLL :
      g_strcmp0 (wait, "block") == 0 ? GST_CL_WAIT_BLOCK : GST_CL_WAIT_AUTO;
  /* what makes a compiled binary valid: the device, its driver, their API */
  self->cache_key = g_strdup_printf ("%s|%s|%s|" G_STRINGIFY
      (CL_TARGET_OPENCL_VERSION), name, driver, version);
  if (!self->device_name)
    self->device_name = g_strdup (name);
  GST_INFO_OBJECT (self, "device %d \"%s\" (%s, %s): unified memory %d, "
      "%u compute units, max work-group %" G_GSIZE_FORMAT ", largest buffer %"
      G_GUINT64_FORMAT ", sub-buffers aligned to %u bits, inline PTX %d, "
      "asynchronous copies %d, waits %d", self->device_index,
      self->device_name, gst_cl_device_type_name (self->caps.type), version,
      self->caps.unified_memory, self->caps.compute_units,
      self->caps.max_work_group_size, (guint64) self->caps.max_mem_alloc_size,
      self->caps.mem_base_addr_align, self->caps.nv_ptx, self->caps.async_copy,
      self->caps.wait);
  g_free (driver);
  g_free (version);
  g_free (name);

  self->gate = gate_get (self->device);
  self->queue = gst_cl_context_create_queue (self, error);
  return self->queue != NULL;

failed:
  g_free (driver);
  g_free (version);
  g_free (name);
  return FALSE;
}

/**
 * gst_cl_context_create_queue:
 *
 * Elements run their frames each on a queue of their own, so that
 * independent streams never wait for each other; the order between elements
 * comes from the events that #GstClMemory keeps (see gstclmemory.c).
 * Profiling, which gst_cl_context_profile_start() needs, is on with
 * GST_CL_PROFILING=1.
 *
 * Returns: (transfer full) (nullable): a new in-order command queue on @ctx's
 *   device
 */
cl_command_queue
gst_cl_context_create_queue (GstClContext * ctx, GError ** error)
{
  cl_int status = CL_SUCCESS;
  cl_command_queue queue;

  /* profiling costs a quarter of the frames a second of many streams on
   * NVIDIA's driver: only for the benchmark */
  queue = clCreateCommandQueue (ctx->context, ctx->device,
      g_strcmp0 (g_getenv ("GST_CL_PROFILING"), "1") == 0 ?
      CL_QUEUE_PROFILING_ENABLE : 0, &status);
  if (!gst_cl_result (status, error, "clCreateCommandQueue"))
    return NULL;
  return queue;
}

/**
 * gst_cl_context_new:
 * @device_index: as the `device-index` property: -1 for `GST_CL_DEVICE` or the
 *   best-ranked device
 *
 * Returns: (transfer full) (nullable): a new context on the chosen device
 */
GstClContext *
gst_cl_context_new (gint device_index, GError ** error)
{
  const GstClDeviceInfo *info;
  GstClContext *self;
  cl_context_properties props[3];
  cl_int status = CL_SUCCESS;

  info = gst_cl_device_choose (device_index, error);
  if (!info)
    return NULL;

  self = g_object_new (GST_TYPE_CL_CONTEXT, NULL);
  gst_object_ref_sink (self);
  self->device = info->device;
  self->device_index = info->index;
  self->device_name = g_strdup (info->name);
  props[0] = CL_CONTEXT_PLATFORM;
  props[1] = (cl_context_properties) info->platform;
  props[2] = 0;
  self->context = clCreateContext (props, 1, &info->device, NULL, NULL,
      &status);
  if (!gst_cl_result (status, error, "clCreateContext")
      || !gst_cl_context_setup (self, error)) {
    gst_object_unref (self);
    return NULL;
  }
  return self;
}

/* The index of an application's device in our list, so that an element
 * whose device-index names it takes the application's context. */
static gint
wrapped_device_index (cl_device_id device)
{
  const GPtrArray *list = gst_cl_device_list ();
  guint i;

  for (i = 0; i < list->len; i++) {
    const GstClDeviceInfo *info = g_ptr_array_index (list, i);

    if (info->device == device)
      return info->index;
  }
  return -1;
}

/**
 * gst_cl_context_new_wrapped:
 * @context: an application's OpenCL context
 * @device: the device of @context to run on
 *
 * Wraps, never copies, @context; it is retained while in use and its owner's
 * reference is never released. Wrapping the same @context twice gives the
 * same #GstClContext.
 *
 * Returns: (transfer full) (nullable): the wrapping context
 */
GstClContext *
gst_cl_context_new_wrapped (cl_context context, cl_device_id device,
    GError ** error)
{
  GstClContext *self, *live;
  GWeakRef *ref;
  cl_int status;

  g_mutex_lock (&wrapped_lock);
  live = lookup_wrapped (context);
  if (live && live->device == device) {
    g_mutex_unlock (&wrapped_lock);
    return live;
  }

  status = clRetainContext (context);
  if (!gst_cl_result (status, error, "clRetainContext")) {
    g_mutex_unlock (&wrapped_lock);
    return NULL;
  }
  self = g_object_new (GST_TYPE_CL_CONTEXT, NULL);
  gst_object_ref_sink (self);
  self->wrapped = TRUE;
  self->context = context;
  self->device = device;
  self->device_index = wrapped_device_index (device);
  /* a wrapper of another device of the same context stays the shared one */
  if (!live) {
    ref = g_new0 (GWeakRef, 1);
    g_weak_ref_init (ref, self);
    g_hash_table_replace (wrapped_contexts, context, ref);
  }
  g_mutex_unlock (&wrapped_lock);
  if (live)
    gst_object_unref (live);

  if (!gst_cl_context_setup (self, error)) {
    gst_object_unref (self);
    return NULL;
  }
  return self;
}

/* the key of a program in the context's tables: the embedded sources are
 * told apart by address */
static gchar *
program_key (const gchar * source, const gchar * options)
{
  return g_strdup_printf ("%p|%s", source, options);
}

/* Builds outside the lock, so that a build of seconds holds up no other
 * use of the context; a (source, options) being built is in ctx->building,
 * and whoever wants it waits for ctx->built rather than building it again.
 * Called and returns with the lock held. */
static cl_program
build_locked (GstClContext * ctx, const gchar * source, const gchar * options,
    const gchar * key, GstClProgramOrigin * origin, GError ** error)
{
  cl_program program;
  gint64 start = g_get_monotonic_time ();

  g_hash_table_add (ctx->building, g_strdup (key));
  g_mutex_unlock (&ctx->lock);
  program = gst_cl_program_build (ctx->context, ctx->device, ctx->cache_key,
      source, options, origin, error);
  GST_DEBUG_OBJECT (ctx, "program \"%s\" ready in %.1f ms", options,
      (g_get_monotonic_time () - start) / 1000.0);
  g_mutex_lock (&ctx->lock);
  g_hash_table_remove (ctx->building, key);
  if (program)
    g_hash_table_insert (ctx->programs, g_strdup (key), program);
  g_cond_broadcast (&ctx->built);
  return program;
}

/**
 * gst_cl_context_get_program:
 * @source: OpenCL C source, one of the embedded kernels/ files
 * @options: build options, carrying the compile-time constants
 * @origin: (out) (optional): where the program came from
 *
 * Builds once per (source, options) and context, and once per machine
 * thanks to the disk cache. A program that another thread is building is
 * waited for.
 *
 * Returns: (transfer none) (nullable): the program, owned by @ctx
 */
cl_program
gst_cl_context_get_program (GstClContext * ctx, const gchar * source,
    const gchar * options, GstClProgramOrigin * origin, GError ** error)
{
  gchar *key;
  cl_program program;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (ctx), NULL);

  key = program_key (source, options);
  g_mutex_lock (&ctx->lock);
  while (!(program = g_hash_table_lookup (ctx->programs, key)) &&
      g_hash_table_contains (ctx->building, key))
    g_cond_wait (&ctx->built, &ctx->lock);
  if (program) {
    if (origin)
      *origin = GST_CL_PROGRAM_MEMORY;
  } else {
    program = build_locked (ctx, source, options, key, origin, error);
  }
  g_mutex_unlock (&ctx->lock);
  g_free (key);
  return program;
}

typedef struct
{
  const gchar *source;
  gchar *options;
  gchar *key;
} BuildJob;

static void
build_job_free (BuildJob * job)
{
  g_free (job->options);
  g_free (job->key);
  g_free (job);
}

static void
build_in_background (gpointer data, gpointer user_data)
{
  BuildJob *job = data;
  GstClContext *ctx = user_data;
  GError *error = NULL;

  g_mutex_lock (&ctx->lock);
  if (!build_locked (ctx, job->source, job->options, job->key, NULL, &error)) {
    GST_WARNING_OBJECT (ctx, "program \"%s\" failed: %s", job->options,
        error->message);
    g_hash_table_add (ctx->failed, g_strdup (job->key));
    g_clear_error (&error);
  }
  g_mutex_unlock (&ctx->lock);
  build_job_free (job);
}

/**
 * gst_cl_context_program_ready:
 * @source: OpenCL C source, one of the embedded kernels/ files
 * @options: build options
 *
 * Whether gst_cl_context_get_program() would return the program at once.
 * If not, and no thread is building it, it is built on a thread of the
 * context's, so that an element can go on with another kernel meanwhile
 * (at most one such build at a time; a context waits for it when it is
 * freed). A build that failed there is not tried again: the element keeps
 * to its other kernel.
 *
 * Returns: %TRUE when the program is built
 */
gboolean
gst_cl_context_program_ready (GstClContext * ctx, const gchar * source,
    const gchar * options)
{
  gchar *key;
  gboolean ready;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (ctx), FALSE);

  key = program_key (source, options);
  g_mutex_lock (&ctx->lock);
  ready = g_hash_table_contains (ctx->programs, key);
  if (!ready && !g_hash_table_contains (ctx->building, key) &&
      !g_hash_table_contains (ctx->failed, key)) {
    BuildJob *job = g_new0 (BuildJob, 1);

    if (!ctx->builder)
      ctx->builder = g_thread_pool_new_full (build_in_background, ctx,
          (GDestroyNotify) build_job_free, 1, FALSE, NULL);
    job->source = source;
    job->options = g_strdup (options);
    job->key = g_strdup (key);
    /* marked now, so that it is queued once */
    g_hash_table_add (ctx->building, g_strdup (key));
    GST_DEBUG_OBJECT (ctx, "program \"%s\" built in the background", options);
    g_thread_pool_push (ctx->builder, job, NULL);
  }
  g_mutex_unlock (&ctx->lock);
  g_free (key);
  return ready;
}

/**
 * gst_cl_context_create_kernel:
 *
 * Returns: (transfer full) (nullable): a new kernel object of the program
 *   @source built with @options
 */
cl_kernel
gst_cl_context_create_kernel (GstClContext * ctx, const gchar * source,
    const gchar * options, const gchar * name, GError ** error)
{
  cl_program program;
  cl_kernel kernel;
  cl_int status = CL_SUCCESS;

  program = gst_cl_context_get_program (ctx, source, options, NULL, error);
  if (!program)
    return NULL;
  kernel = clCreateKernel (program, name, &status);
  if (!gst_cl_result (status, error, "clCreateKernel"))
    return NULL;
  return kernel;
}

static gboolean set_kernel_args (cl_kernel kernel, guint first,
    GError ** error, guint n_args, va_list args);

/**
 * gst_cl_set_kernel_args:
 * @n_args: how many (size, pointer) pairs follow; GST_CL_ARG() makes one
 *
 * Sets arguments 0 to @n_args - 1 of @kernel.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_set_kernel_args (cl_kernel kernel, GError ** error, guint n_args, ...)
{
  va_list args;
  gboolean ok;

  va_start (args, n_args);
  ok = gst_cl_set_kernel_args_valist (kernel, error, n_args, args);
  va_end (args);
  return ok;
}

/**
 * gst_cl_set_kernel_args_valist:
 *
 * gst_cl_set_kernel_args() for a va_list of (size, pointer) pairs.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_set_kernel_args_valist (cl_kernel kernel, GError ** error,
    guint n_args, va_list args)
{
  return set_kernel_args (kernel, 0, error, n_args, args);
}

/**
 * gst_cl_set_kernel_args_from:
 * @first: the index of the first argument set
 *
 * gst_cl_set_kernel_args() for arguments @first to @first + @n_args - 1.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_set_kernel_args_from (cl_kernel kernel, guint first, GError ** error,
    guint n_args, ...)
{
  va_list args;
  gboolean ok;

  va_start (args, n_args);
  ok = set_kernel_args (kernel, first, error, n_args, args);
  va_end (args);
  return ok;
}

static gboolean
set_kernel_args (cl_kernel kernel, guint first, GError ** error,
    guint n_args, va_list args)
{
  guint i;
  cl_int status = CL_SUCCESS;

  for (i = first; i < first + n_args && status == CL_SUCCESS; i++) {
    gsize size = va_arg (args, gsize);
    const void *value = va_arg (args, const void *);

    status = clSetKernelArg (kernel, i, size, value);
  }
  if (status != CL_SUCCESS) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "OpenCL call failed: %s (%d) in clSetKernelArg (argument %u)",
        gst_cl_error_name (status), status, i - 1);
    return FALSE;
  }
  return TRUE;
}

/* @event: (transfer full) (nullable): a command's, kept while profiling */
static void
record_profile (GstClContext * ctx, cl_event event)
{
  if (!event)
    return;
  g_mutex_lock (&ctx->lock);
  /* profiling may have stopped meanwhile */
  if (ctx->profile) {
    g_array_append_val (ctx->profile, event);
    event = NULL;
  }
  g_mutex_unlock (&ctx->lock);
  if (event)
    clReleaseEvent (event);
}

/**
 * gst_cl_context_enqueue_kernel:
 * @queue: a queue of @ctx
 * @global: work size per dimension; rounded up to a multiple of @local
 * @local: (nullable): work-group size, or %NULL for the driver's choice
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_context_enqueue_kernel (GstClContext * ctx, cl_command_queue queue,
    cl_kernel kernel, guint dims, const gsize * global, const gsize * local,
    GError ** error)
{
  gsize rounded[3];
  guint i;
  cl_event event = NULL;
  gboolean ok;

  g_return_val_if_fail (dims >= 1 && dims <= 3, FALSE);
  for (i = 0; i < dims; i++)
    rounded[i] = local ? (global[i] + local[i] - 1) /local[i] * local[i] :
        global[i];
  ok = gst_cl_result (clEnqueueNDRangeKernel (queue, kernel, dims, NULL,
          rounded, local, 0, NULL, ctx->profile ? &event : NULL), error,
      "clEnqueueNDRangeKernel");
  record_profile (ctx, event);
  return ok;
}

/**
 * gst_cl_context_enqueue_copy:
 *
 * Enqueues a copy of @size bytes from the start of @src to the start of
 * @dst, timed as kernels are while profiling.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_context_enqueue_copy (GstClContext * ctx, cl_command_queue queue,
    cl_mem src, cl_mem dst, gsize size, GError ** error)
{
  cl_event event = NULL;
  gboolean ok;

  ok = gst_cl_result (clEnqueueCopyBuffer (queue, src, dst, 0, 0, size, 0,
          NULL, ctx->profile ? &event : NULL), error, "clEnqueueCopyBuffer");
  record_profile (ctx, event);
  return ok;
}

/**
 * gst_cl_context_enqueue_fill:
 *
 * Enqueues setting the first @size bytes of @mem to @value, timed as
 * kernels are while profiling.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_context_enqueue_fill (GstClContext * ctx, cl_command_queue queue,
    cl_mem mem, guint8 value, gsize size, GError ** error)
{
  cl_event event = NULL;
  gboolean ok;

  ok = gst_cl_result (clEnqueueFillBuffer (queue, mem, &value, 1, 0, size, 0,
          NULL, ctx->profile ? &event : NULL), error, "clEnqueueFillBuffer");
  record_profile (ctx, event);
  return ok;
}

/* Events and waits */

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
static gboolean
wait_sleeping (cl_event event, GError ** error)
{
  Waiter w = { 0, };
  cl_int status;

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
  return gst_cl_result (status, error, "clSetEventCallback (waiting for a "
      "command)");
}

/* Naps between looks at the status, no core spinning and no driver thread
 * running a callback: 20 us, then twice as long each time up to 160 us, a
 * few looks a wait. Not one nap of most of the wait: a stream's thread has
 * one frame in flight, so what a nap overshoots, the stream loses (that
 * cost 8 streams a quarter of their frames on an H100). */
static gboolean
wait_polling (cl_event event, GError ** error)
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
  if (status != CL_SUCCESS)
    return gst_cl_result (clWaitForEvents (1, &event), error,
        "clWaitForEvents");
  return gst_cl_result (state < 0 ? state : CL_SUCCESS, error,
      "clGetEventInfo (waiting for a command)");
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
event_wait (GstClContext * ctx, cl_command_queue queue, cl_event event,
    GError ** error)
{
  GstClWait how = ctx->caps.wait;
  gboolean ok;

  /* often done already: a later command was waited for */
  if (gst_cl_event_status (event) == CL_COMPLETE)
    return TRUE;
  /* A driver may spin a core in clWaitForEvents (NVIDIA's does): the
   * quickest way while there are cores to spin, but more spinning waits
   * than cores take them from the threads that would give the device its
   * next commands. So threads beyond as many as the cores nap
   * (GST_CL_SPINNING_WAITS=N to try other numbers; on an H100, 8 and 4 did
   * no better, see docs/benchmarks.md). */
  if (g_atomic_int_add (&ctx->waiting, 1) >= ctx->spinning_waits &&
      how == GST_CL_WAIT_AUTO)
    how = GST_CL_WAIT_POLL;
  /* clWaitForEvents flushes the event's queue itself (the spec says so):
   * a flush before it would be one more turn at the driver's lock a frame.
   * The other ways only look at the event, so the queue is flushed first. */
  if (queue && how != GST_CL_WAIT_BLOCK && how != GST_CL_WAIT_AUTO &&
      !gst_cl_result (clFlush (queue), error, "clFlush"))
    ok = FALSE;
  else if (how == GST_CL_WAIT_CALLBACK)
    ok = wait_sleeping (event, error);
  else if (how == GST_CL_WAIT_POLL)
    ok = wait_polling (event, error);
  else
    ok = gst_cl_result (clWaitForEvents (1, &event), error, "clWaitForEvents");
  g_atomic_int_add (&ctx->waiting, -1);
  return ok;
}

/**
 * gst_cl_event_wait:
 * @ctx: the context of @event, whose device says how to wait
 *
 * Blocks until @event is complete. The command must have been flushed, or
 * be waited for with gst_cl_queue_wait().
 *
 * Returns: %TRUE when the command ended without an error
 */
gboolean
gst_cl_event_wait (GstClContext * ctx, cl_event event, GError ** error)
{
  return event_wait (ctx, NULL, event, error);
}

/**
 * gst_cl_queue_wait:
 * @ctx: the context of @queue
 * @event: a command's on @queue
 *
 * Blocks until @event is complete, @queue's commands sent to the device
 * first (by clWaitForEvents, which flushes its event's queue, or a flush).
 *
 * Returns: %TRUE when the command ended without an error
 */
gboolean
gst_cl_queue_wait (GstClContext * ctx, cl_command_queue queue,
    cl_event event, GError ** error)
{
  return event_wait (ctx, queue, event, error);
}

/**
 * gst_cl_queue_mark:
 *
 * Returns: (transfer full) (nullable): an event that completes with every
 *   command enqueued on @queue so far
 */
cl_event
gst_cl_queue_mark (cl_command_queue queue, GError ** error)
{
  cl_event event = NULL;

  if (!gst_cl_result (clEnqueueMarkerWithWaitList (queue, 0, NULL, &event),
          error, "clEnqueueMarkerWithWaitList"))
    return NULL;
  return event;
}

/**
 * gst_cl_queue_finish:
 * @ctx: the context of @queue
 *
 * clFinish() through gst_cl_event_wait(): waits for everything enqueued on
 * @queue so far, by clFinish() itself where its marker cannot be enqueued
 * (host memory that a copy still reads is released after this returns).
 *
 * Returns: %TRUE when it all ended without an error
 */
gboolean
gst_cl_queue_finish (GstClContext * ctx, cl_command_queue queue,
    GError ** error)
{
  cl_event done = gst_cl_queue_mark (queue, error);
  gboolean ok;

  if (!done) {
    clFinish (queue);
    return FALSE;
  }
  ok = gst_cl_queue_wait (ctx, queue, done, error);
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
gst_cl_queue_wait_for (cl_command_queue queue, GArray * events, GError ** error)
{
  cl_event pending[16];
  guint i, n = 0;

  for (i = 0; i < events->len; i++) {
    cl_event event = g_array_index (events, cl_event, i);

    if (event_is_behind (event, queue))
      continue;
    pending[n++] = event;
    if (n == G_N_ELEMENTS (pending) && !gst_cl_result
        (clEnqueueBarrierWithWaitList (queue, n, pending, NULL), error,
            "clEnqueueBarrierWithWaitList"))
      return FALSE;
    n %= G_N_ELEMENTS (pending);
  }
  return n == 0 || gst_cl_result (clEnqueueBarrierWithWaitList (queue, n,
          pending, NULL), error, "clEnqueueBarrierWithWaitList");
}

/**
 * gst_cl_context_profile_start:
 *
 * From now on, records the device time of every kernel that
 * gst_cl_context_enqueue_kernel() runs on @ctx, until
 * gst_cl_context_profile_stop(); for benchmarks, which time kernels without
 * the cost of launching them. Only queues made with GST_CL_PROFILING=1 in
 * the environment time their commands.
 */
void
gst_cl_context_profile_start (GstClContext * ctx)
{
  g_return_if_fail (GST_IS_CL_CONTEXT (ctx));

  g_mutex_lock (&ctx->lock);
  if (!ctx->profile)
    ctx->profile = g_array_new (FALSE, FALSE, sizeof (cl_event));
  g_mutex_unlock (&ctx->lock);
}

/**
 * gst_cl_context_profile_stop:
 *
 * Waits for the kernels recorded since gst_cl_context_profile_start().
 *
 * Returns: the milliseconds they ran on the device, start to end, added up
 */
gdouble
gst_cl_context_profile_stop (GstClContext * ctx)
{
  GArray *events;
  gdouble ms = 0;
  guint i;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (ctx), 0);

  g_mutex_lock (&ctx->lock);
  events = ctx->profile;
  ctx->profile = NULL;
  g_mutex_unlock (&ctx->lock);
  if (!events)
    return 0;
  for (i = 0; i < events->len; i++) {
    cl_event event = g_array_index (events, cl_event, i);
    cl_ulong start = 0, end = 0;

    if (clWaitForEvents (1, &event) == CL_SUCCESS &&
        clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_START,
            sizeof (start), &start, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_END,
            sizeof (end), &end, NULL) == CL_SUCCESS && end > start)
      ms += (end - start) / 1e6;
    clReleaseEvent (event);
  }
  g_array_free (events, TRUE);
  return ms;
}

/* GstContext sharing */

/**
 * gst_context_new_cl_context:
 *
 * Returns: (transfer full): a persistent GstContext of type
 *   %GST_CL_CONTEXT_TYPE carrying @ctx and its OpenCL context and device
 */
GstContext *
gst_context_new_cl_context (GstClContext * ctx)
{
  GstContext *context = gst_context_new (GST_CL_CONTEXT_TYPE, TRUE);
  GstStructure *s = gst_context_writable_structure (context);

  GValue list = G_VALUE_INIT, item = G_VALUE_INIT;

  gst_structure_set (s, "context", GST_TYPE_CL_CONTEXT, ctx,
      "cl-context", G_TYPE_POINTER, ctx->context,
      "cl-device", G_TYPE_POINTER, ctx->device,
      "device-index", G_TYPE_INT, ctx->device_index,
      "device-name", G_TYPE_STRING, ctx->device_name, NULL);
  gst_value_array_init (&list, 1);
  g_value_init (&item, GST_TYPE_CL_CONTEXT);
  g_value_set_object (&item, ctx);
  gst_value_array_append_and_take_value (&list, &item);
  gst_structure_take_value (s, "contexts", &list);
  return context;
}

/* Entry @i of the "contexts" array of @s: %FALSE past its end; @ctx is
 * %NULL for an entry that is no #GstClContext. */
static gboolean
listed_context (const GstStructure * s, guint i, GstClContext ** ctx)
{
  const GValue *list = gst_structure_get_value (s, "contexts");
  const GValue *v;

  if (!list || !GST_VALUE_HOLDS_ARRAY (list) ||
      i >= gst_value_array_get_size (list))
    return FALSE;
  v = gst_value_array_get_value (list, i);
  *ctx = G_VALUE_HOLDS (v, GST_TYPE_CL_CONTEXT) ? g_value_get_object (v) : NULL;
  return TRUE;
}

/* A context for @ctx that also carries the other devices' contexts of
 * @previous, the one the pipeline shared so far: a bin keeps one context
 * of a type, and elements on each device must find theirs in it. */
static GstContext *
context_with_others (GstClContext * ctx, GstContext * previous)
{
  GstContext *context = gst_context_new_cl_context (ctx);
  GstStructure *s = gst_context_writable_structure (context);
  GValue *list = (GValue *) gst_structure_get_value (s, "contexts");
  GstClContext *other;
  guint i;

  if (!previous || g_strcmp0 (gst_context_get_context_type (previous),
          GST_CL_CONTEXT_TYPE) != 0)
    return context;
  for (i = 0; listed_context (gst_context_get_structure (previous), i,
          &other); i++) {
    GValue item = G_VALUE_INIT;

    if (!other || other->device_index == ctx->device_index)
      continue;
    g_value_init (&item, GST_TYPE_CL_CONTEXT);
    g_value_set_object (&item, other);
    gst_value_array_append_and_take_value (list, &item);
  }
  return context;
}

/* the context of "contexts" in @s for @device_index, or NULL */
static GstClContext *
other_device_context (const GstStructure * s, gint device_index)
{
  GstClContext *ctx;
  guint i;

  for (i = 0; listed_context (s, i, &ctx); i++)
    if (ctx && ctx->device_index == device_index)
      return gst_object_ref (ctx);
  return NULL;
}

static GstClContext *
context_from_structure (GstElement * element, const GstStructure * s,
    gint device_index)
{
  GstClContext *other = NULL;
  gpointer cl_ctx = NULL, cl_dev = NULL;
  GError *err = NULL;

  if (gst_structure_get (s, "context", GST_TYPE_CL_CONTEXT, &other, NULL)) {
    if (device_index < 0 || other->device_index == device_index)
      return other;
    gst_object_unref (other);
    other = other_device_context (s, device_index);
    if (!other)
      GST_DEBUG_OBJECT (element, "no shared context of device %d",
          device_index);
    return other;
  }

  if (gst_structure_get (s, "cl-context", G_TYPE_POINTER, &cl_ctx,
          "cl-device", G_TYPE_POINTER, &cl_dev, NULL) && cl_ctx && cl_dev) {
    other = gst_cl_context_new_wrapped (cl_ctx, cl_dev, &err);
    if (!other) {
      GST_WARNING_OBJECT (element, "application context unusable: %s",
          err->message);
      g_clear_error (&err);
    }
  }
  return other;
}

/**
 * gst_cl_handle_set_context:
 * @device_index: the element's `device-index`; a shared context of another
 *   device is ignored
 * @ctx: (inout): the element's context, set if still unset
 *
 * Returns: %TRUE if @ctx was set from @context
 */
gboolean
gst_cl_handle_set_context (GstElement * element, GstContext * context,
    gint device_index, GstClContext ** ctx)
{
  GstClContext *other;

  if (!context || *ctx)
    return FALSE;
  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_CL_CONTEXT_TYPE) != 0)
    return FALSE;

  other = context_from_structure (element,
      gst_context_get_structure (context), device_index);
  if (!other)
    return FALSE;
  GST_DEBUG_OBJECT (element, "using shared context %" GST_PTR_FORMAT, other);
  *ctx = other;
  return TRUE;
}

/**
 * gst_cl_handle_context_query:
 *
 * Answers a context query of type #GST_CL_CONTEXT_TYPE with @ctx.
 *
 * Returns: %TRUE if the query was answered
 */
gboolean
gst_cl_handle_context_query (GstElement * element, GstQuery * query,
    GstClContext * ctx)
{
  const gchar *type;
  GstContext *context;

  if (!ctx || GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  if (!gst_query_parse_context_type (query, &type) ||
      g_strcmp0 (type, GST_CL_CONTEXT_TYPE) != 0)
    return FALSE;

  context = gst_context_new_cl_context (ctx);
  gst_query_set_context (query, context);
  gst_context_unref (context);
  GST_DEBUG_OBJECT (element, "answered context query with %" GST_PTR_FORMAT,
      ctx);
  return TRUE;
}

static gboolean
pad_peer_query (const GValue * item, GValue * value, gpointer user_data)
{
  GstPad *pad = g_value_get_object (item);

  if (gst_pad_peer_query (pad, GST_QUERY_CAST (user_data))) {
    g_value_set_boolean (value, TRUE);
    return FALSE;
  }
  return TRUE;
}

static gboolean
run_peer_query (GstElement * element, GstQuery * query, GstPadDirection dir)
{
  GstIterator *it = dir == GST_PAD_SRC ? gst_element_iterate_src_pads (element)
      : gst_element_iterate_sink_pads (element);
  GValue res = G_VALUE_INIT;
  gboolean found;

  g_value_init (&res, G_TYPE_BOOLEAN);
  gst_iterator_fold (it, pad_peer_query, &res, query);
  found = g_value_get_boolean (&res);
  gst_iterator_free (it);
  return found;
}

static void
query_peers (GstElement * element, gint device_index, GstClContext ** ctx)
{
  static const GstPadDirection order[] = { GST_PAD_SRC, GST_PAD_SINK };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (order) && !*ctx; i++) {
    GstQuery *query = gst_query_new_context (GST_CL_CONTEXT_TYPE);
    GstContext *context = NULL;

    if (run_peer_query (element, query, order[i])) {
      gst_query_parse_context (query, &context);
      if (context)
        gst_element_set_context (element, context);
    }
    gst_query_unref (query);
  }
}

static gboolean
find_or_create_context (GstElement * element, gint device_index,
    GstClContext ** ctx)
{
  GError *err = NULL;
  GstContext *context, *previous;

  query_peers (element, device_index, ctx);
  if (!*ctx)
    gst_element_post_message (element,
        gst_message_new_need_context (GST_OBJECT (element),
            GST_CL_CONTEXT_TYPE));
  if (*ctx)
    return TRUE;

  *ctx = gst_cl_context_new (device_index, &err);
  if (!*ctx) {
    GST_CL_POST_ERROR (element, err);
    g_error_free (err);
    return FALSE;
  }
  GST_INFO_OBJECT (element, "created context %" GST_PTR_FORMAT " on \"%s\"",
      *ctx, (*ctx)->device_name);
  previous = gst_element_get_context (element, GST_CL_CONTEXT_TYPE);
  context = context_with_others (*ctx, previous);
  if (previous)
    gst_context_unref (previous);
  gst_element_set_context (element, context);
  gst_element_post_message (element,
      gst_message_new_have_context (GST_OBJECT (element), context));
  return TRUE;
}

/**
 * gst_cl_ensure_element_context:
 * @ctx: (inout): the element's context
 *
 * The upstream flow: keep an existing context, else ask the peers downstream
 * and upstream, else ask the application and bins with NEED_CONTEXT, else
 * create one and announce it with HAVE_CONTEXT. Posts an element error when
 * no context can be had.
 *
 * Returns: %TRUE when @ctx is set
 */
gboolean
gst_cl_ensure_element_context (GstElement * element, gint device_index,
    GstClContext ** ctx)
{
  static GRecMutex lock;
  gboolean ok = TRUE;

  /* elements going to READY in parallel must not each create a context */
  g_rec_mutex_lock (&lock);
  if (!*ctx)
    ok = find_or_create_context (element, device_index, ctx);
  g_rec_mutex_unlock (&lock);
  return ok;
}

/* Threads at work on a device.
 *
 * A frame's commands each take a lock inside the driver (NVIDIA's, at
 * least): with hundreds of streaming threads enqueueing and waiting at once
 * the turns at that lock, not the device, set the pace, and more waiting
 * threads spin than there are cores. So at most a few threads at once have a
 * frame in a device's driver; the others sleep, in the order they came, until
 * one leaves. The gate is the device's, shared by every context on it. */

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
 * than with 16 (docs/benchmarks.md). Called with gates_lock. */
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

static GstClGate *
gate_get (cl_device_id device)
{
  GstClGate *gate;
  gint limit;

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
gate_unref (GstClGate * gate)
{
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

static void
gate_acquire (GstClGate * gate, GstClContext * ctx)
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
      GST_WARNING_OBJECT (ctx, "waited a second for one of %d threads to "
          "leave the device: going in past the limit", gate->limit);
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
 * took a place, which it gives back as it leaves */
static __thread struct
{
  GstClGate *gate;
  guint depth;
  gboolean placed;
} thread_gates[4];

/**
 * gst_cl_context_enter:
 *
 * Before a thread calls into @ctx's device driver: returns at once while
 * fewer than gst_cl_context_get_max_threads() threads are in, else when the
 * threads that came first are in and one more may be (or, should the wait
 * last a second, past the limit). A thread already in goes in again at
 * once, and so does one in another device's gate, without taking a place.
 * Every call is followed by gst_cl_context_leave() from the same thread,
 * once its commands are flushed and it is done waiting for them.
 */
void
gst_cl_context_enter (GstClContext * ctx)
{
  GstClGate *gate = ctx->gate;
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
    gate_acquire (gate, ctx);
  thread_gates[slot].gate = gate;
  thread_gates[slot].depth = 1;
  thread_gates[slot].placed = !inside;
}

/**
 * gst_cl_context_leave:
 *
 * After gst_cl_context_enter(): lets the next thread in, once the calling
 * thread has left as many times as it went in.
 */
void
gst_cl_context_leave (GstClContext * ctx)
{
  GstClGate *gate = ctx->gate;
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
 * gst_cl_context_get_max_threads:
 *
 * Returns: how many threads may have frames in @ctx's device at once (see
 *   gst_cl_context_enter()): half the host's cores, at least 2, or
 *   GST_CL_DEVICE_THREADS; 0 for no limit
 */
guint
gst_cl_context_get_max_threads (GstClContext * ctx)
{
  return ctx->gate ? (guint) g_atomic_int_get (&ctx->gate->limit) : 0;
}

/* the queue this thread took last, and of which context */
static __thread struct
{
  guint64 serial;
  cl_command_queue queue;
} thread_queue;

/**
 * gst_cl_context_get_thread_queue:
 *
 * The commands of a frame go on the queue of the thread that handles it:
 * cl elements in one streaming thread share a queue, whose order is all
 * they need between them, and elements in different threads (branches,
 * elements after a `queue`) never wait for each other. @ctx owns the
 * queues and releases them with itself.
 *
 * Returns: (transfer none) (nullable): the calling thread's in-order queue
 *   on @ctx
 */
cl_command_queue
gst_cl_context_get_thread_queue (GstClContext * ctx, GError ** error)
{
  cl_command_queue queue;

  if (G_LIKELY (thread_queue.serial == ctx->serial))
    return thread_queue.queue;
  g_mutex_lock (&ctx->lock);
  queue = g_hash_table_lookup (ctx->thread_queues, g_thread_self ());
  if (!queue && ctx->max_queues && ctx->queues->len >= ctx->max_queues)
    queue = g_ptr_array_index (ctx->queues,
        g_hash_table_size (ctx->thread_queues) % ctx->max_queues);
  else if (!queue && (queue = gst_cl_context_create_queue (ctx, error)))
    g_ptr_array_add (ctx->queues, queue);
  if (queue)
    g_hash_table_insert (ctx->thread_queues, g_thread_self (), queue);
  g_mutex_unlock (&ctx->lock);
  if (queue) {
    thread_queue.serial = ctx->serial;
    thread_queue.queue = queue;
  }
  return queue;
}

/**
 * gst_cl_context_follow_thread:
 * @queue: (inout): the queue an element used last, or %NULL
 *
 * Sets @queue to the calling thread's, where an element enqueues its next
 * frame. Where that is another queue than the last (the element's
 * streaming thread changed), what comes next on it waits for the last
 * queue's commands, which may still use the element's own buffers.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_context_follow_thread (GstClContext * ctx, cl_command_queue * queue,
    GError ** error)
{
  cl_command_queue next = gst_cl_context_get_thread_queue (ctx, error);
  cl_event last;
  gboolean ok;

  if (!next)
    return FALSE;
  if (*queue && *queue != next) {
    last = gst_cl_queue_mark (*queue, error);
    if (!last)
      return FALSE;
    ok = gst_cl_result (clFlush (*queue), error, "clFlush") &&
        gst_cl_result (clEnqueueBarrierWithWaitList (next, 1, &last, NULL),
        error, "clEnqueueBarrierWithWaitList");
    clReleaseEvent (last);
    if (!ok)
      return FALSE;
  }
  *queue = next;
  return TRUE;
}
