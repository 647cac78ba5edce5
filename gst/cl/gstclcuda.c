/* gstclfilters: frames in CUDA memory, as NVIDIA's decoders give them: the
 * GPU and its contexts
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A frame in GstCudaMemory (video/x-raw(memory:CUDAMemory): nvh264dec,
 * nvh265dec, cudaupload, cudaconvert) reaches the kernels without a trip
 * through host memory, on the OpenCL device that is the decoder's GPU (the
 * same UUID), in GStreamer's CUDA context shared as its elements share it.
 * Here: which device that is, the context, and the output's CUDA pool. How
 * a frame crosses between CUDA and OpenCL is gstclcudaframe.c's.
 *
 * Nothing here comes from NVIDIA's toolkit: the few declarations of the CUDA
 * driver API used are the project's, and the driver (libcuda.so.1) and
 * GStreamer's CUDA library (libgstcuda-1.0.so.0) are loaded at run time
 * (gstclcudaloader.c). Where either is missing, no element offers CUDA
 * memory.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

/* the external memory entry points are OpenCL 3.0's; they are called only on
 * devices that list the extension */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300

#include <string.h>
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "gstclcuda.h"
#include "gstclcuda-private.h"
#include "gstclcudaloader.h"
#include "gstcldevice.h"
#include "gstclerror.h"
#include "gstclutils.h"

#define GST_CAT_DEFAULT gst_cl_cuda_debug

/* ---- devices ---------------------------------------------------------- */

gint
gst_cl_cuda_context_device_id (GstObject * cuda_ctx)
{
  guint id = 0;

  g_object_get (cuda_ctx, "cuda-device-id", &id, NULL);
  return (gint) id;
}

/* ---- how threads wait ------------------------------------------------- */

#define CU_CTX_SCHED_MASK 0x7

/* GStreamer makes its CUDA contexts with the driver's default scheduling,
 * which spins a thread waiting for the GPU while the process has fewer
 * contexts than cores: NVIDIA's decoders then spin in every frame's
 * cuStreamSynchronize, the longer the busier the GPU is, filters'
 * kernels included (16 decoded 1080p streams through clepsilon on an H200:
 * 0.62 - 0.72 ms of CPU a frame spinning, 0.49 - 0.56 asleep, frames/s the
 * same). So where the context was left to the driver, it is set to block
 * (threads sleep until the GPU wakes them); GST_CL_CUDA_SCHED names
 * another: auto (leave the context as it is), spin, yield or blocking
 * (which is applied even to a context whose maker chose). Needs CUDA
 * 12.1's cuCtxSetFlags; called with the context current. */
void
gst_cl_cuda_context_set_sched (void)
{
  static const struct
  {
    const gchar *name;
    guint flag;
  } scheds[] = {
    {"spin", 0x1}, {"yield", 0x2}, {"blocking", 0x4},
  };
  const gchar *env = g_getenv ("GST_CL_CUDA_SCHED"), *name = NULL;
  guint flags = 0, want = 0, i;
  CUresult res;

  if (g_strcmp0 (env, "auto") == 0 || !gst_cl_cu.CtxSetFlags ||
      gst_cl_cu.CtxGetFlags (&flags) != CUDA_SUCCESS)
    return;
  for (i = 0; env && i < G_N_ELEMENTS (scheds); i++)
    if (g_strcmp0 (env, scheds[i].name) == 0)
      want = scheds[i].flag, name = scheds[i].name;
  if (env && !want) {
    static gboolean warned;

    if (g_atomic_int_compare_and_exchange (&warned, FALSE, TRUE))
      GST_WARNING ("GST_CL_CUDA_SCHED=%s is none of auto, spin, yield, "
          "blocking: taken as unset", env);
  }
  /* unset: a context its maker set up keeps its way */
  if (!want && (flags & CU_CTX_SCHED_MASK) != 0)
    return;
  if (!want)
    want = 0x4, name = "blocking";
  if ((flags & CU_CTX_SCHED_MASK) == want)
    return;
  res = gst_cl_cu.CtxSetFlags ((flags & ~CU_CTX_SCHED_MASK) | want);
  if (res == CUDA_SUCCESS)
    GST_INFO ("CUDA context's threads now wait: %s (its flags were 0x%x)",
        name, flags);
  else
    GST_INFO ("cuCtxSetFlags failed (%d): the CUDA context waits as it did",
        res);
}

static gboolean
cuda_device_uuid (gint ordinal, CUuuid * uuid, GError ** error)
{
  CUdevice dev;

  return gst_cl_cu_result (gst_cl_cu.Init (0), error, "cuInit") &&
      gst_cl_cu_result (gst_cl_cu.DeviceGet (&dev, ordinal), error,
      "cuDeviceGet")
      && gst_cl_cu_result (gst_cl_cu.DeviceGetUuid (uuid, dev), error,
      "cuDeviceGetUuid");
}

static gchar *
cuda_device_name (gint ordinal)
{
  gchar name[256] = "";
  CUdevice dev;

  if (gst_cl_cu.DeviceGet (&dev, ordinal) != CUDA_SUCCESS ||
      gst_cl_cu.DeviceGetName (name, sizeof (name) - 1, dev) != CUDA_SUCCESS)
    return g_strdup ("?");
  return g_strdup (name);
}

static gboolean
cl_device_has (cl_device_id device, const gchar * extension)
{
  gchar *ext = gst_cl_device_get_string (device, CL_DEVICE_EXTENSIONS);
  gchar **names = g_strsplit (ext ? ext : "", " ", -1);
  gboolean found = g_strv_contains ((const gchar * const *) names, extension);

  g_strfreev (names);
  g_free (ext);
  return found;
}

/* whether the OpenCL device of @ctx is the GPU CUDA calls @ordinal */
gboolean
gst_cl_cuda_same_device (GstClContext * ctx, gint ordinal, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (ctx);
  guint8 cl_uuid[CL_UUID_SIZE_KHR];
  CUuuid uuid;
  gchar *name;

  if (!cuda_device_uuid (ordinal, &uuid, error))
    return FALSE;
  if (gst_cl_context_get_caps (ctx)->cuda_import &&
      clGetDeviceInfo (device, CL_DEVICE_UUID_KHR, sizeof (cl_uuid), cl_uuid,
          NULL) == CL_SUCCESS && memcmp (cl_uuid, uuid.bytes, 16) == 0)
    return TRUE;
  name = cuda_device_name (ordinal);
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      "the frames are in the memory of CUDA device %d (%s), but the element "
      "runs on the OpenCL device \"%s\", another GPU: set device-index (or "
      "GST_CL_DEVICE) to that GPU's OpenCL device", ordinal, name,
      gst_cl_context_get_device_name (ctx));
  g_free (name);
  return FALSE;
}

/* the CUDA ordinal of the OpenCL device of @ctx, or -1 */
static gint
cuda_ordinal_of (GstClContext * ctx)
{
  cl_device_id device = gst_cl_context_get_device (ctx);
  guint8 cl_uuid[CL_UUID_SIZE_KHR];
  gint i, n = 0;

  if (!gst_cl_context_get_caps (ctx)->cuda_import ||
      clGetDeviceInfo (device, CL_DEVICE_UUID_KHR, sizeof (cl_uuid), cl_uuid,
          NULL) != CL_SUCCESS || gst_cl_cu.Init (0) != CUDA_SUCCESS ||
      gst_cl_cu.DeviceGetCount (&n) != CUDA_SUCCESS)
    return -1;
  for (i = 0; i < n; i++) {
    CUuuid uuid;

    if (cuda_device_uuid (i, &uuid, NULL) && memcmp (cl_uuid, uuid.bytes,
            16) == 0)
      return i;
  }
  return -1;
}

/**
 * gst_cl_cuda_context_takes:
 *
 * Returns: whether frames in CUDA memory can reach the device of @ctx: the
 *   driver and library load, and the device imports CUDA's memory and
 *   says which GPU it is
 */
gboolean
gst_cl_cuda_context_takes (GstClContext * ctx)
{
  return ctx && gst_cl_cuda_available () &&
      gst_cl_context_get_caps (ctx)->cuda_import;
}

/* ---- contexts ------------------------------------------------------- */

/**
 * gst_cl_cuda_handle_set_context:
 * @cuda_ctx: (inout): the element's GstCudaContext, set if still unset
 *
 * Returns: %TRUE if @cuda_ctx was set from @context
 */
gboolean
gst_cl_cuda_handle_set_context (GstElement * element, GstContext * context,
    GstObject ** cuda_ctx)
{
  if (!context || !gst_cl_cuda_available () || g_strcmp0
      (gst_context_get_context_type (context), GST_CL_CUDA_CONTEXT_TYPE) != 0)
    return FALSE;
  return gst_cl_gstcuda.handle_set_context (element, context, -1, cuda_ctx);
}

/**
 * gst_cl_cuda_handle_context_query:
 *
 * Answers a context query for GStreamer's CUDA context with @cuda_ctx.
 *
 * Returns: %TRUE if the query was answered
 */
gboolean
gst_cl_cuda_handle_context_query (GstElement * element, GstQuery * query,
    GstObject * cuda_ctx)
{
  return cuda_ctx && gst_cl_cuda_available () &&
      gst_cl_gstcuda.handle_context_query (element, query, cuda_ctx);
}

/**
 * gst_cl_cuda_pool_new:
 * @ctx: the element's OpenCL context, on an NVIDIA GPU
 * @cuda_ctx: (inout): the element's GstCudaContext: kept where it is on
 *   the same GPU, else one of that GPU, shared in the pipeline as
 *   GStreamer's CUDA elements share theirs
 *
 * Returns: (transfer full) (nullable): a pool of GstCudaMemory for the
 *   element's output frames, not configured yet
 */
GstBufferPool *
gst_cl_cuda_pool_new (GstElement * element, GstClContext * ctx,
    GstObject ** cuda_ctx, GError ** error)
{
  gint ordinal;

  if (!gst_cl_cuda_available ()) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "CUDA memory asked for, but %s", gst_cl_cuda_unavailable_reason ());
    return NULL;
  }
  if (*cuda_ctx
      && !gst_cl_cuda_same_device (ctx,
          gst_cl_cuda_context_device_id (*cuda_ctx), NULL))
    gst_clear_object (cuda_ctx);
  if (!*cuda_ctx) {
    ordinal = cuda_ordinal_of (ctx);
    if (ordinal < 0) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
          "CUDA memory asked for, but the OpenCL device \"%s\" is no CUDA "
          "device", gst_cl_context_get_device_name (ctx));
      return NULL;
    }
    if (!gst_cl_gstcuda.ensure_element_context (element, ordinal, cuda_ctx) ||
        !*cuda_ctx) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "no CUDA context for CUDA device %d", ordinal);
      return NULL;
    }
  }
  return gst_cl_gstcuda.buffer_pool_new (*cuda_ctx);
}

/**
 * gst_cl_cuda_pool_config_exported:
 * @config: the configuration of a pool of gst_cl_cuda_pool_new()
 *
 * Where GStreamer's CUDA pools make memory CUDA exports (GStreamer 1.24
 * on), asks @config for it (GST_CUDA_MEMORY_ALLOC_MMAP): the element's
 * kernels then write its output frames there, each pooled memory imported
 * into OpenCL once, with no copy. GST_CL_CUDA_EXPORT=0 leaves the pool's
 * default, whose frames the element copies out of its staging.
 *
 * Returns: whether @config asks for exported memory
 */
gboolean
gst_cl_cuda_pool_config_exported (GstStructure * config)
{
  if (!gst_cl_cuda_available () || !gst_cl_gstcuda.memory_export ||
      g_strcmp0 (g_getenv ("GST_CL_CUDA_EXPORT"), "0") == 0)
    return FALSE;
  gst_cl_gstcuda.pool_config_set_alloc_method (config,
      GST_CL_CUDA_MEMORY_ALLOC_MMAP);
  return TRUE;
}

/**
 * gst_cl_cuda_query_upstream:
 *
 * Asks upstream of @element (a decoder's source pad answers) for
 * GStreamer's CUDA context; creates none.
 *
 * Returns: (transfer full) (nullable): the GstCudaContext upstream's
 *   frames are in
 */
GstObject *
gst_cl_cuda_query_upstream (GstElement * element)
{
  GstQuery *query;
  GstObject *cuda_ctx = NULL;
  GstContext *context = NULL;

  if (!gst_cl_cuda_available ())
    return NULL;
  query = gst_query_new_context (GST_CL_CUDA_CONTEXT_TYPE);
  if (gst_cl_run_peer_query (element, query, GST_PAD_SINK)) {
    gst_query_parse_context (query, &context);
    if (context)
      gst_cl_gstcuda.handle_set_context (element, context, -1, &cuda_ctx);
  }
  gst_query_unref (query);
  return cuda_ctx;
}

/**
 * gst_cl_cuda_device_index:
 *
 * Returns: the index in gst_cl_device_list() of the OpenCL device that is
 *   the GPU of @cuda_ctx (by cl_khr_device_uuid), or -1
 */
gint
gst_cl_cuda_device_index (GstObject * cuda_ctx)
{
  const GPtrArray *list = gst_cl_device_list ();
  CUuuid uuid;
  guint i;

  if (!gst_cl_cuda_available ()
      || !cuda_device_uuid (gst_cl_cuda_context_device_id (cuda_ctx), &uuid,
          NULL))
    return -1;
  for (i = 0; i < list->len; i++) {
    const GstClDeviceInfo *info = g_ptr_array_index (list, i);
    guint8 cl_uuid[CL_UUID_SIZE_KHR];

    if (cl_device_has (info->device, "cl_khr_device_uuid") &&
        clGetDeviceInfo (info->device, CL_DEVICE_UUID_KHR, sizeof (cl_uuid),
            cl_uuid, NULL) == CL_SUCCESS && memcmp (cl_uuid, uuid.bytes,
            16) == 0)
      return info->index;
  }
  return -1;
}

/* @pool configured for output frames of @caps, of exported memory where
 * @exported asks and GStreamer makes it; %FALSE where the pool refuses (or
 * cannot export) */
static gboolean
pool_configure (GstBufferPool * pool, GstCaps * caps, guint size, guint min,
    guint max, gboolean exported)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (exported && !gst_cl_cuda_pool_config_exported (config)) {
    gst_structure_free (config);
    return FALSE;
  }
  return gst_buffer_pool_set_config (pool, config);
}

/**
 * gst_cl_cuda_decide_allocation:
 * @cuda_ctx: (inout): the element's GstCudaContext, as gst_cl_cuda_pool_new()
 * @query: the ALLOCATION query the element sent downstream, for @caps in
 *   CUDA memory
 *
 * Answers @query with a pool of GstCudaMemory on the element's GPU for its
 * output frames, of memory CUDA exports where GStreamer makes it
 * (gst_cl_cuda_pool_config_exported()); posts an error where there is none.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_cuda_decide_allocation (GstElement * element, GstClContext * ctx,
    GstObject ** cuda_ctx, GstQuery * query, GstCaps * caps,
    const GstVideoInfo * info)
{
  GstBufferPool *pool;
  GstStructure *config;
  GError *err = NULL;
  guint size = GST_VIDEO_INFO_SIZE (info), min = 0, max = 0;

  pool = gst_cl_cuda_pool_new (element, ctx, cuda_ctx, &err);
  if (!pool) {
    GST_CL_POST_ERROR (element, err);
    g_error_free (err);
    return FALSE;
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, &max);
  /* memory the kernels write, where the pool makes memory CUDA exports;
   * else the pool's own, which the frames are copied into */
  if (!pool_configure (pool, caps, size, min, max, TRUE)) {
    GST_INFO_OBJECT (element, "the CUDA pool makes no exported memory");
    if (!pool_configure (pool, caps, size, min, max, FALSE)) {
      GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS, (NULL),
          ("the CUDA buffer pool refused its configuration for %"
              GST_PTR_FORMAT, caps));
      gst_object_unref (pool);
      return FALSE;
    }
  }
  /* the pool pads the rows as the GPU likes: its own size */
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
