/* gstclfilters: GstMemory in OpenCL device buffers
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Video in memory:OpenCL caps lives in these: a cl element writes its output
 * into them and the next one reads them as they are, so that frames cross
 * between host and device once on the way into a chain of cl elements and
 * once on the way out. Anything else that maps one gets its bytes through
 * clEnqueueMapBuffer.
 *
 * Elements run on queues of their own, and the host does not wait for the
 * device between them: each memory keeps the event of the last command that
 * writes it and of those that read it since. A reader's commands wait for
 * the writer's event, a writer's (the next frame from a pool) for the
 * readers' too, and a map for the writer's.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclmemory.h"
#include "gstclcuda.h"
#include "gstclerror.h"
#include "gstclevent.h"
#include "gstclgate.h"
#include "gstclqueue.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_memory_debug);
#define GST_CAT_DEFAULT gst_cl_memory_debug

struct _GstClMemory
{
  GstMemory mem;

  GstClContext *ctx;
  cl_mem buffer;

  GMutex lock;
  guint map_count;
  gpointer map_data;
  /* in the memory that owns the buffer (shares use their parent's) */
  GMutex event_lock;
  cl_event written;
  GArray *read;
};

typedef struct
{
  GstAllocator parent;
} GstClAllocator;

typedef struct
{
  GstAllocatorClass parent_class;
} GstClAllocatorClass;

static GType gst_cl_allocator_get_type (void);
G_DEFINE_TYPE (GstClAllocator, gst_cl_allocator, GST_TYPE_ALLOCATOR);

static GstAllocator *cl_allocator;

static GstAllocator *
get_allocator (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_memory_debug, "clmemory", 0,
        "OpenCL memory");
    cl_allocator = g_object_new (gst_cl_allocator_get_type (), NULL);
    gst_object_ref_sink (cl_allocator);
    /* one for the process, as the upstream allocators */
    GST_OBJECT_FLAG_SET (cl_allocator, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&done, 1);
  }
  return cl_allocator;
}

static GstClMemory *
wrap (GstClContext * ctx, cl_mem buffer, GstMemoryFlags flags,
    GstMemory * parent, gsize maxsize, gsize offset, gsize size)
{
  GstClMemory *self = g_new0 (GstClMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (self), flags, get_allocator (), parent,
      maxsize, 0, offset, size);
  self->ctx = gst_object_ref (ctx);
  self->buffer = buffer;
  g_mutex_init (&self->lock);
  g_mutex_init (&self->event_lock);
  return self;
}

/**
 * gst_cl_memory_new:
 * @size: bytes
 *
 * Returns: (transfer full) (nullable): a memory of @size bytes in a new
 *   buffer on @ctx's device; its contents are undefined
 */
GstMemory *
gst_cl_memory_new (GstClContext * ctx, gsize size, GError ** error)
{
  GstClGate *gate;
  cl_int status = CL_SUCCESS;
  cl_mem buffer;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (ctx), NULL);
  gate = gst_cl_gate_get (ctx);
  gst_cl_gate_enter (gate);
  buffer =
      clCreateBuffer (gst_cl_context_get_handle (ctx), CL_MEM_READ_WRITE,
      MAX (size, 1), NULL, &status);
  gst_cl_gate_leave (gate);
  if (!gst_cl_result (status, error, "clCreateBuffer"))
    return NULL;
  return GST_MEMORY_CAST (wrap (ctx, buffer, 0, NULL, size, 0, size));
}

/**
 * gst_is_cl_memory:
 *
 * Returns: whether @mem is a #GstClMemory
 */
gboolean
gst_is_cl_memory (GstMemory * mem)
{
  return mem && mem->allocator && G_TYPE_CHECK_INSTANCE_TYPE (mem->allocator,
      gst_cl_allocator_get_type ());
}

/**
 * gst_cl_memory_get_buffer:
 *
 * The whole buffer: @mem's bytes start at its offset (mem->offset) in it.
 *
 * Returns: (transfer none): the OpenCL buffer of @mem, a #GstClMemory
 */
cl_mem
gst_cl_memory_get_buffer (GstMemory * mem)
{
  g_return_val_if_fail (gst_is_cl_memory (mem), NULL);
  return ((GstClMemory *) mem)->buffer;
}

/**
 * gst_cl_memory_get_context:
 *
 * Returns: (transfer none): the context of @mem, a #GstClMemory
 */
GstClContext *
gst_cl_memory_get_context (GstMemory * mem)
{
  g_return_val_if_fail (gst_is_cl_memory (mem), NULL);
  return ((GstClMemory *) mem)->ctx;
}

static GstClMemory *
root_memory (GstMemory * mem)
{
  return (GstClMemory *) (mem->parent ? mem->parent : mem);
}

static void
append_retained (GArray * events, cl_event event)
{
  clRetainEvent (event);
  g_array_append_val (events, event);
}

/**
 * gst_cl_memory_get_dependencies:
 * @write: for commands that write @mem, not only read it
 * @events: (inout): an array from gst_cl_event_array_new()
 *
 * Appends to @events what commands that use @mem must wait for: the last
 * write, and to write it, the reads since.
 */
void
gst_cl_memory_get_dependencies (GstMemory * mem, gboolean write,
    GArray * events)
{
  GstClMemory *root;
  guint i;

  g_return_if_fail (gst_is_cl_memory (mem));
  root = root_memory (mem);
  g_mutex_lock (&root->event_lock);
  if (root->written)
    append_retained (events, root->written);
  for (i = 0; write && root->read && i < root->read->len; i++)
    append_retained (events, g_array_index (root->read, cl_event, i));
  g_mutex_unlock (&root->event_lock);
}

/**
 * gst_cl_memory_add_access:
 * @write: @done is the end of commands that write @mem (and that waited for
 *   its dependencies), not only read it
 * @done: an event, retained by @mem
 *
 * Records commands that use @mem, for gst_cl_memory_get_dependencies().
 */
void
gst_cl_memory_add_access (GstMemory * mem, gboolean write, cl_event done)
{
  GstClMemory *root;
  guint i;

  g_return_if_fail (gst_is_cl_memory (mem));
  root = root_memory (mem);
  clRetainEvent (done);
  g_mutex_lock (&root->event_lock);
  if (write) {
    if (root->written)
      clReleaseEvent (root->written);
    root->written = done;
    if (root->read)
      g_array_set_size (root->read, 0);
  } else {
    if (!root->read)
      root->read = gst_cl_event_array_new ();
    /* a frame read by many (a tee) keeps only the reads still running */
    for (i = root->read->len; i > 0; i--)
      /* done, or failed */
      if (gst_cl_event_status (g_array_index (root->read, cl_event,
                  i - 1)) <= CL_COMPLETE)
        g_array_remove_index_fast (root->read, i - 1);
    g_array_append_val (root->read, done);
  }
  g_mutex_unlock (&root->event_lock);
}

static gpointer
gst_cl_memory_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  GstClMemory *self = (GstClMemory *) mem;
  cl_int status = CL_SUCCESS;
  gpointer data;

  /* the device's gate before the memory's lock, never the other way */
  gst_cl_gate_enter (gst_cl_gate_get (self->ctx));
  g_mutex_lock (&self->lock);
  if (self->map_count == 0) {
    /* GstMemory refuses a write map while a read one lasts: the first map's
     * flags hold for the nested ones */
    cl_map_flags cl_flags = (flags & GST_MAP_READ ? CL_MAP_READ : 0) |
        (flags & GST_MAP_WRITE ? CL_MAP_WRITE : 0);
    GArray *deps = gst_cl_event_array_new ();

    gst_cl_memory_get_dependencies (mem, (flags & GST_MAP_WRITE) != 0, deps);
    /* an empty memory still has a byte of buffer */
    GError *err = NULL;
    GstClQueue *shared = gst_cl_queue_get_shared (self->ctx, &err);

    self->map_data = shared ?
        clEnqueueMapBuffer (shared->handle, self->buffer,
        CL_TRUE, cl_flags, 0, MAX (mem->maxsize, 1), deps->len,
        (cl_event *) deps->data, NULL, &status) : NULL;
    g_array_unref (deps);
    if (!shared) {
      GST_ERROR ("no queue to map a memory on: %s", err->message);
      g_clear_error (&err);
    } else if (status != CL_SUCCESS) {
      GST_ERROR ("clEnqueueMapBuffer of %" G_GSIZE_FORMAT " bytes failed: %s",
          mem->maxsize, gst_cl_error_name (status));
      self->map_data = NULL;
    }
  }
  if (self->map_data)
    self->map_count++;
  data = self->map_data;
  g_mutex_unlock (&self->lock);
  gst_cl_gate_leave (gst_cl_gate_get (self->ctx));
  return data;
}

/* GST_MAP_CL: the buffer itself, once what it must wait for is done */
static gpointer
map_device (GstClMemory * self, GstMapFlags flags)
{
  GArray *deps;
  cl_int status = CL_SUCCESS;

  if (GST_MEMORY_CAST (self)->offset != 0) {
    GST_WARNING ("a region of a buffer cannot be mapped as a cl_mem");
    return NULL;
  }
  deps = gst_cl_event_array_new ();
  gst_cl_memory_get_dependencies (GST_MEMORY_CAST (self),
      (flags & GST_MAP_WRITE) != 0, deps);
  if (deps->len)
    status = clWaitForEvents (deps->len, (cl_event *) deps->data);
  g_array_unref (deps);
  if (status != CL_SUCCESS) {
    GST_ERROR ("waiting for the buffer failed: %s", gst_cl_error_name (status));
    return NULL;
  }
  return &self->buffer;
}

static gpointer
gst_cl_memory_map_full (GstMemory * mem, GstMapInfo * info, gsize maxsize)
{
  if (info->flags & GST_MAP_CL)
    return map_device ((GstClMemory *) mem, info->flags);
  return gst_cl_memory_map (mem, maxsize, info->flags);
}

static void
gst_cl_memory_unmap (GstMemory * mem)
{
  GstClMemory *self = (GstClMemory *) mem;
  cl_event done = NULL;
  cl_int status;

  gst_cl_gate_enter (gst_cl_gate_get (self->ctx));
  g_mutex_lock (&self->lock);
  if (self->map_count > 0 && --self->map_count == 0) {
    /* written bytes reach the device before anyone uses the buffer again */
    status =
        clEnqueueUnmapMemObject (gst_cl_queue_get_shared_handle (self->ctx),
        self->buffer, self->map_data, 0, NULL, &done);
    if (status == CL_SUCCESS)
      status = clWaitForEvents (1, &done);
    if (status != CL_SUCCESS)
      GST_ERROR ("clEnqueueUnmapMemObject failed: %s",
          gst_cl_error_name (status));
    if (done)
      clReleaseEvent (done);
    self->map_data = NULL;
  }
  g_mutex_unlock (&self->lock);
  gst_cl_gate_leave (gst_cl_gate_get (self->ctx));
}

static void
gst_cl_memory_unmap_full (GstMemory * mem, GstMapInfo * info)
{
  /* a device map leaves nothing to undo: the caller's commands are done */
  if (!(info->flags & GST_MAP_CL))
    gst_cl_memory_unmap (mem);
}

/* a copy stays on the device */
static GstMemory *
gst_cl_memory_copy (GstMemory * mem, gssize offset, gssize size)
{
  GstClMemory *self = (GstClMemory *) mem;
  GstMemory *copy;
  GError *err = NULL;
  GArray *deps = gst_cl_event_array_new ();
  cl_event done = NULL;

  if (size == -1)
    size = mem->size > (gsize) offset ? mem->size - offset : 0;
  copy = gst_cl_memory_new (self->ctx, size, &err);
  gst_cl_memory_get_dependencies (mem, FALSE, deps);
  if (copy && size > 0 && !gst_cl_result (clEnqueueCopyBuffer
          (gst_cl_queue_get_shared_handle (self->ctx),
              self->buffer, ((GstClMemory *) copy)->buffer,
              mem->offset + offset, 0, size, deps->len, (cl_event *) deps->data,
              &done), &err, "clEnqueueCopyBuffer")) {
    gst_memory_unref (copy);
    copy = NULL;
  }
  g_array_unref (deps);
  if (done) {
    gst_cl_memory_add_access (mem, FALSE, done);
    gst_cl_memory_add_access (copy, TRUE, done);
    clReleaseEvent (done);
    clFlush (gst_cl_queue_get_shared_handle (self->ctx));
  }
  if (!copy) {
    GST_ERROR ("no copy of an OpenCL memory: %s", err->message);
    g_clear_error (&err);
  }
  return copy;
}

/* a part of the same buffer, read-only as system memory's shares */
static GstMemory *
gst_cl_memory_share (GstMemory * mem, gssize offset, gssize size)
{
  GstClMemory *self = (GstClMemory *) mem;
  GstMemory *parent = mem->parent ? mem->parent : mem;

  if (size == -1)
    size = mem->size - offset;
  clRetainMemObject (self->buffer);
  return GST_MEMORY_CAST (wrap (self->ctx, self->buffer,
          GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
          parent, mem->maxsize, mem->offset + offset, size));
}

static gboolean
gst_cl_memory_is_span (GstMemory * mem1, GstMemory * mem2, gsize * offset)
{
  return FALSE;
}

static GstMemory *
gst_cl_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  g_warning ("an OpenCL memory needs a context: use gst_cl_memory_new()");
  return NULL;
}

static void
gst_cl_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstClMemory *self = (GstClMemory *) mem;

  clReleaseMemObject (self->buffer);
  if (self->written)
    clReleaseEvent (self->written);
  if (self->read)
    g_array_unref (self->read);
  gst_object_unref (self->ctx);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->event_lock);
  g_free (self);
}

static void
gst_cl_allocator_class_init (GstClAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_cl_allocator_alloc;
  allocator_class->free = gst_cl_allocator_free;
}

static void
gst_cl_allocator_init (GstClAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_CL_MEMORY_TYPE;
  allocator->mem_map_full = gst_cl_memory_map_full;
  allocator->mem_unmap_full = gst_cl_memory_unmap_full;
  allocator->mem_copy = gst_cl_memory_copy;
  allocator->mem_share = gst_cl_memory_share;
  allocator->mem_is_span = gst_cl_memory_is_span;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

/* whether structure @i of @caps names memory:OpenCL (ANY features, which
 * take whatever comes, do not) */
static gboolean
structure_on_device (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f && !gst_caps_features_is_any (f) &&
      gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_CL);
}

/**
 * gst_cl_caps_has_memory_feature:
 *
 * Returns: whether the first structure of @caps is in memory:OpenCL
 */
gboolean
gst_cl_caps_has_memory_feature (GstCaps * caps)
{
  return caps && !gst_caps_is_any (caps) && !gst_caps_is_empty (caps) &&
      structure_on_device (caps, 0);
}

static GstCaps *
with_features (GstCaps * caps, const gchar * feature)
{
  GstCaps *res = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (res); i++)
    gst_caps_set_features (res, i, gst_caps_features_new (feature, NULL));
  return res;
}

/**
 * gst_cl_caps_add_memory_feature:
 *
 * Returns: (transfer full): @caps in memory:OpenCL, then the same in system
 *   memory, then in memory:CUDAMemory where CUDA memory can be taken
 *   (gst_cl_cuda_available()): every cl element takes and gives them all
 */
GstCaps *
gst_cl_caps_add_memory_feature (GstCaps * caps)
{
  GstCaps *res;

  if (gst_caps_is_any (caps) || gst_caps_is_empty (caps))
    return gst_caps_ref (caps);
  res = gst_caps_merge (with_features (caps, GST_CAPS_FEATURE_MEMORY_CL),
      with_features (caps, GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY));
  if (gst_cl_cuda_available ())
    res = gst_caps_merge (res, with_features (caps,
            GST_CAPS_FEATURE_MEMORY_CUDA));
  return res;
}

/**
 * gst_cl_caps_pass_as:
 *
 * Returns: whether a buffer of @incaps may go on as it is under @outcaps:
 *   in the same memory, or to system memory, which maps any
 */
gboolean
gst_cl_caps_pass_as (GstCaps * incaps, GstCaps * outcaps)
{
  GstCapsFeatures *in, *out;

  if (!incaps || !outcaps || gst_caps_is_empty (incaps) ||
      gst_caps_is_empty (outcaps) || gst_caps_is_any (incaps) ||
      gst_caps_is_any (outcaps))
    return TRUE;
  in = gst_caps_get_features (incaps, 0);
  out = gst_caps_get_features (outcaps, 0);
  return !out || gst_caps_features_is_equal (out,
      GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY) || (in &&
      gst_caps_features_is_equal (in, out));
}

/* whether a structure of @caps names @feature (ANY features do not) */
static gboolean
names_feature (GstCaps * caps, const gchar * feature)
{
  guint i;

  if (gst_caps_is_any (caps))
    return FALSE;
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && !gst_caps_features_is_any (f) &&
        gst_caps_features_contains (f, feature))
      return TRUE;
  }
  return FALSE;
}

/**
 * gst_cl_caps_prefer_for_peer:
 * @srcpad: the pad that will produce @caps
 * @caps: (transfer full): candidate output caps
 *
 * Frames stay on the device only for a peer that names memory:OpenCL in its
 * caps (a cl element, or a capsfilter asking for it); they go on in CUDA
 * memory to a peer that names memory:CUDAMemory and not memory:OpenCL
 * (cudadownload, an encoder, a capsfilter asking for it). A peer that takes
 * anything (fakesink, appsink without caps) gets system memory, as
 * everything that maps buffers expects.
 *
 * Returns: (transfer full): @caps, the structures of the peer's memory
 *   first, those of device memories the peer does not name left out while
 *   any others remain
 */
GstCaps *
gst_cl_caps_prefer_for_peer (GstPad * srcpad, GstCaps * caps)
{
  GstCaps *peer, *cl, *cuda, *other;
  gboolean keep_cl, keep_cuda;
  guint i;

  if (gst_caps_is_any (caps) || gst_caps_is_empty (caps))
    return caps;
  peer = gst_pad_peer_query_caps (srcpad, NULL);
  keep_cl = names_feature (peer, GST_CAPS_FEATURE_MEMORY_CL);
  keep_cuda = names_feature (peer, GST_CAPS_FEATURE_MEMORY_CUDA);
  gst_caps_unref (peer);

  cl = gst_caps_new_empty ();
  cuda = gst_caps_new_empty ();
  other = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    GstCaps *to = other;

    if (structure_on_device (caps, i))
      to = cl;
    else if (f && !gst_caps_features_is_any (f) &&
        gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_CUDA))
      to = cuda;
    gst_caps_append_structure_full (to,
        gst_structure_copy (gst_caps_get_structure (caps, i)),
        f ? gst_caps_features_copy (f) : NULL);
  }
  gst_caps_unref (caps);
  if (keep_cl)
    return gst_caps_merge (gst_caps_merge (cl, other), cuda);
  if (keep_cuda) {
    gst_caps_unref (cl);
    return gst_caps_merge (cuda, other);
  }
  if (gst_caps_is_empty (other)) {
    gst_caps_unref (other);
    return gst_caps_merge (cl, cuda);
  }
  gst_caps_unref (cl);
  gst_caps_unref (cuda);
  return other;
}
