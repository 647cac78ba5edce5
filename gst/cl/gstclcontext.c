/* gstclfilters: one OpenCL device and the state kept on it
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A context is made on a device of the list (gstcldevice.c), or wraps an
 * application's cl_context. It reads the device's capabilities once and
 * holds a part of state for each job of the core: programs, queues, waits,
 * profiling (gstclcontext.h says which file owns each).
 */
#include "gstclcontext.h"
#include "gstcldevice.h"
#include "gstclerror.h"

#include <CL/cl_ext.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_context_debug);
#define GST_CAT_DEFAULT gst_cl_context_debug

/* the kinds of state attached to contexts, at most */
#define GST_CL_CONTEXT_MAX_ATTACHED 8

struct _GstClContext
{
  GstObject parent;

  cl_context context;
  cl_device_id device;
  gint device_index;            /* -1: an application's device not listed */
  gchar *device_name;           /* "platform device" */
  GstClDeviceCaps caps;
  gboolean wrapped;             /* an application's cl_context */
  gchar *cache_key;

  /* the state of the core's jobs above the context
   * (gst_cl_context_get_attached()), by their attachment's index, and
   * each one's attachment, to free it */
  GRecMutex attach_lock;         /* a make may ask for another kind's state */
  gpointer attached[GST_CL_CONTEXT_MAX_ATTACHED];
  GstClContextAttachment *attachment[GST_CL_CONTEXT_MAX_ATTACHED];
};

G_DEFINE_TYPE_WITH_CODE (GstClContext, gst_cl_context, GST_TYPE_OBJECT,
    GST_DEBUG_CATEGORY_INIT (gst_cl_context_debug, "clcontext", 0,
        "OpenCL context"));

/* An application's cl_context is wrapped by one GstClContext, whichever
 * element sees it first, so that its programs and queue are shared too.
 * Weak references: a wrapper in its last unref is never handed out. */
static GMutex wrapped_lock;
static GHashTable *wrapped_contexts;    /* cl_context -> GWeakRef * */

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
forget_wrapped (GstClContext * self)
{
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

/* what the core's jobs attached, the lowest order first, while the
 * cl_context is still there (a build under way ends first: it uses it) */
static void
free_attached (GstClContext * self)
{
  guint i, first;

  for (;;) {
    first = G_N_ELEMENTS (self->attached);
    for (i = 0; i < G_N_ELEMENTS (self->attached); i++) {
      if (self->attached[i] && (first == G_N_ELEMENTS (self->attached) ||
              self->attachment[i]->order < self->attachment[first]->order))
        first = i;
    }
    if (first == G_N_ELEMENTS (self->attached))
      return;
    self->attachment[first]->free (self->attached[first]);
    self->attached[first] = NULL;
  }
}

static void
gst_cl_context_finalize (GObject * object)
{
  GstClContext *self = GST_CL_CONTEXT (object);

  GST_DEBUG_OBJECT (self, "freeing the context");
  if (self->wrapped)
    forget_wrapped (self);
  free_attached (self);
  /* balances the retain taken at creation or wrapping */
  if (self->context)
    clReleaseContext (self->context);
  g_rec_mutex_clear (&self->attach_lock);
  g_free (self->device_name);
  g_free (self->cache_key);

  G_OBJECT_CLASS (gst_cl_context_parent_class)->finalize (object);
}

static void
gst_cl_context_class_init (GstClContextClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_context_finalize;
}

static void
gst_cl_context_init (GstClContext * self)
{
  self->device_index = -1;
  g_rec_mutex_init (&self->attach_lock);
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
  gchar *version;

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
  caps->cuda_import = strstr (ext, "cl_khr_external_memory_opaque_fd") &&
      strstr (ext, "cl_khr_device_uuid");
  g_free (ext);
  /* PoCL says so in its version ("OpenCL 3.0 PoCL HSTR: ..."), and keeps
   * what it builds unless told not to */
  version = gst_cl_device_get_string (device, CL_DEVICE_VERSION);
  caps->driver_cache = strstr (version, " PoCL") != NULL &&
      g_strcmp0 (g_getenv ("POCL_KERNEL_CACHE"), "0") != 0;
  g_free (version);
  return gst_cl_result (status, error, "clGetDeviceInfo");
}

/* What the environment changes of the device's capabilities, for tests
 * and measurements. */
static void
apply_environment (GstClDeviceCaps * caps)
{
  const gchar *wait = g_getenv ("GST_CL_WAIT");

  /* GST_CL_NO_ZERO_COPY=1 takes the copy path of discrete GPUs anywhere, so
   * that it can be tested without one */
  if (g_strcmp0 (g_getenv ("GST_CL_NO_ZERO_COPY"), "1") == 0)
    caps->unified_memory = FALSE;
  /* GST_CL_ASYNC_COPY=0 takes the kernels without asynchronous copies, to
   * compare */
  if (g_strcmp0 (g_getenv ("GST_CL_ASYNC_COPY"), "0") == 0)
    caps->async_copy = FALSE;
  /* how the host waits (docs/design.md says what each way is for):
   * GST_CL_WAIT=sleep, block and poll force one */
  caps->wait = g_strcmp0 (wait, "sleep") == 0 ? GST_CL_WAIT_CALLBACK :
      g_strcmp0 (wait, "poll") == 0 ? GST_CL_WAIT_POLL :
      g_strcmp0 (wait, "block") == 0 ? GST_CL_WAIT_BLOCK : GST_CL_WAIT_AUTO;
}

static gboolean
gst_cl_context_setup (GstClContext * self, GError ** error)
{
  gchar *driver = NULL, *version = NULL, *name = NULL;

  if (!(driver = gst_cl_device_read_string (self->device, CL_DRIVER_VERSION,
              error)) || !(version = gst_cl_device_read_string (self->device,
              CL_DEVICE_VERSION, error)) ||
      !(name = gst_cl_device_read_string (self->device, CL_DEVICE_NAME,
              error)) || !read_device_caps (self->device, &self->caps, error))
    goto failed;
  apply_environment (&self->caps);
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
  return TRUE;

failed:
  g_free (driver);
  g_free (version);
  g_free (name);
  return FALSE;
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

/**
 * gst_cl_context_get_handle:
 *
 * Returns: (transfer none): the OpenCL context
 */
cl_context
gst_cl_context_get_handle (GstClContext * ctx)
{
  return ctx->context;
}

/**
 * gst_cl_context_get_device:
 *
 * Returns: (transfer none): the context's one device
 */
cl_device_id
gst_cl_context_get_device (GstClContext * ctx)
{
  return ctx->device;
}

/**
 * gst_cl_context_get_device_index:
 *
 * Returns: the device's index in gst_cl_device_list(), -1 for an
 *   application's device that is not in it
 */
gint
gst_cl_context_get_device_index (GstClContext * ctx)
{
  return ctx->device_index;
}

/**
 * gst_cl_context_get_device_name:
 *
 * Returns: (transfer none): "platform device"
 */
const gchar *
gst_cl_context_get_device_name (GstClContext * ctx)
{
  return ctx->device_name;
}

/**
 * gst_cl_context_get_caps:
 *
 * Returns: (transfer none): the device's capabilities
 */
const GstClDeviceCaps *
gst_cl_context_get_caps (GstClContext * ctx)
{
  return &ctx->caps;
}

/**
 * gst_cl_context_get_attached:
 * @att: the attachment of a kind of state, static in the module that keeps it
 *
 * The state of @att's kind on @ctx, made on the first call (@att's make,
 * once however many threads ask at once; a make may ask for the state of
 * another kind).
 *
 * Returns: (transfer none) (nullable): the state, or %NULL with @error set
 *   where it cannot be made
 */
gpointer
gst_cl_context_get_attached (GstClContext * ctx, GstClContextAttachment * att,
    GError ** error)
{
  static gsize kinds = 0;
  gpointer data;
  gsize i;

  /* indices from 1: 0 is unassigned (an atomic read once assigned) */
  if (g_once_init_enter (&att->index))
    g_once_init_leave (&att->index, g_atomic_pointer_add (&kinds, 1) + 1);
  i = (gsize) g_atomic_pointer_get (&att->index) - 1;
  g_assert (i < GST_CL_CONTEXT_MAX_ATTACHED);
  if (G_LIKELY ((data = g_atomic_pointer_get (&ctx->attached[i]))))
    return data;
  g_rec_mutex_lock (&ctx->attach_lock);
  if (!(data = ctx->attached[i]) && (data = att->make (ctx, error))) {
    ctx->attachment[i] = att;
    g_atomic_pointer_set (&ctx->attached[i], data);
  }
  g_rec_mutex_unlock (&ctx->attach_lock);
  return data;
}

const gchar *
gst_cl_context_get_cache_key (GstClContext * ctx)
{
  return ctx->cache_key;
}

void
gst_cl_context_set_device_index (GstClContext * ctx, gint index)
{
  ctx->device_index = index;
}
