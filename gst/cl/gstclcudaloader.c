/* gstclfilters: the CUDA driver and GStreamer's CUDA library, loaded at run
 * time
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libcuda.so.1 and libgstcuda-1.0.so.0 are opened the first time a cl
 * element asks whether CUDA memory can be taken (its pad templates do);
 * no GPU is opened then. Where either is missing, or lacks an entry point,
 * no element offers CUDA memory, and GST_DEBUG=clcuda:4 says why.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gmodule.h>

#include "gstclcudaloader.h"

GST_DEBUG_CATEGORY (gst_cl_cuda_debug);
#define GST_CAT_DEFAULT gst_cl_cuda_debug

GstClCudaDriver gst_cl_cu;
GstClCudaLibrary gst_cl_gstcuda;

static const gchar *unavailable = "not looked for yet";

#ifdef HAVE_CL_CUDA
static gboolean
load_symbols (GModule * module, const gchar * const *names, gpointer * slots,
    guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    if (!g_module_symbol (module, names[i], &slots[i]) || !slots[i]) {
      GST_INFO ("%s has no %s", g_module_name (module), names[i]);
      return FALSE;
    }
  }
  return TRUE;
}
#endif

static gboolean
load (void)
{
#ifdef HAVE_CL_CUDA
  static const gchar *cu_names[] = {
    "cuInit", "cuDeviceGet", "cuDeviceGetCount", "cuDeviceGetUuid",
    "cuDeviceGetName", "cuCtxPushCurrent_v2", "cuCtxPopCurrent_v2",
    "cuStreamCreate", "cuStreamDestroy_v2", "cuStreamSynchronize",
    "cuStreamQuery",
    "cuMemcpy2DAsync_v2", "cuMemcpyDtoDAsync_v2", "cuMemCreate", "cuMemRelease",
    "cuMemAddressReserve", "cuMemAddressFree", "cuMemMap", "cuMemUnmap",
    "cuMemSetAccess", "cuMemExportToShareableHandle",
    "cuMemGetAllocationGranularity", "cuMemsetD32_v2", "cuGetErrorName",
    "cuEventCreate", "cuEventDestroy_v2", "cuEventRecord", "cuStreamWaitEvent",
  };
  static const gchar *gst_names[] = {
    "gst_cuda_context_get_handle", "gst_cuda_buffer_pool_new",
    "gst_cuda_ensure_element_context", "gst_cuda_handle_set_context",
    "gst_cuda_handle_context_query",
  };
  static const gchar *export_names[] = {
    "gst_buffer_pool_config_set_cuda_alloc_method",
    "gst_cuda_memory_get_alloc_method", "gst_cuda_memory_export",
    "gst_cuda_create_user_token", "gst_cuda_memory_get_token_data",
    "gst_cuda_memory_set_token_data",
  };
  GModule *driver, *lib;

  /* every entry point but the last three, which may be missing */
  G_STATIC_ASSERT (sizeof (cu_names) / sizeof (cu_names[0]) + 3 ==
      sizeof (gst_cl_cu) / sizeof (gpointer));
  /* every entry point but GStreamer 1.24's: two for streams, the rest for
   * exported memory */
  G_STATIC_ASSERT (sizeof (gst_names) / sizeof (gst_names[0]) + 2 +
      sizeof (export_names) / sizeof (export_names[0]) ==
      sizeof (gst_cl_gstcuda) / sizeof (gpointer));
#endif

#ifndef HAVE_CL_CUDA
  unavailable = "built without it (-Dcuda=disabled)";
  return FALSE;
#else
  if (g_strcmp0 (g_getenv (GST_CL_CUDA_DISABLE_ENV), "1") == 0) {
    unavailable = GST_CL_CUDA_DISABLE_ENV "=1";
    return FALSE;
  }
  driver = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY |
      G_MODULE_BIND_LOCAL);
  if (!driver) {
    unavailable = "no NVIDIA driver (libcuda.so.1)";
    return FALSE;
  }
  if (!load_symbols (driver, cu_names, (gpointer *) & gst_cl_cu,
          G_N_ELEMENTS (cu_names))) {
    unavailable = "NVIDIA's driver is older than CUDA 10.2";
    g_module_close (driver);
    return FALSE;
  }
  if (!g_module_symbol (driver, "cuStreamWaitValue32_v2",
          (gpointer *) & gst_cl_cu.StreamWaitValue32))
    gst_cl_cu.StreamWaitValue32 = NULL;
  if (!g_module_symbol (driver, "cuCtxGetFlags",
          (gpointer *) & gst_cl_cu.CtxGetFlags) ||
      !g_module_symbol (driver, "cuCtxSetFlags",
          (gpointer *) & gst_cl_cu.CtxSetFlags))
    gst_cl_cu.CtxGetFlags = NULL, gst_cl_cu.CtxSetFlags = NULL;
  lib = g_module_open ("libgstcuda-1.0.so.0", G_MODULE_BIND_LAZY |
      G_MODULE_BIND_LOCAL);
  if (!lib) {
    unavailable = "no GStreamer CUDA library (libgstcuda-1.0.so.0, Debian's "
        "libgstreamer-plugins-bad1.0-0)";
    g_module_close (driver);
    return FALSE;
  }
  if (!load_symbols (lib, gst_names, (gpointer *) & gst_cl_gstcuda,
          G_N_ELEMENTS (gst_names))) {
    unavailable = "GStreamer's CUDA library lacks an entry point";
    g_module_close (lib);
    g_module_close (driver);
    return FALSE;
  }
  /* GStreamer 1.24's CUDA memory carries the stream its producer writes
   * it on, and may reach a consumer before that stream is done with it
   * (1.26's decoders push their surfaces so): the copies of such a frame
   * wait for that stream. 1.22's memory is complete once it is pushed. */
  if (!g_module_symbol (lib, "gst_cuda_memory_get_stream",
          (gpointer *) & gst_cl_gstcuda.memory_get_stream) ||
      !g_module_symbol (lib, "gst_cuda_stream_get_handle",
          (gpointer *) & gst_cl_gstcuda.stream_get_handle))
    gst_cl_gstcuda.memory_get_stream = NULL, gst_cl_gstcuda.stream_get_handle =
        NULL;
  GST_INFO ("GStreamer's CUDA memory %s the stream that writes it",
      gst_cl_gstcuda.memory_get_stream ? "names" : "does not name");
  if (!load_symbols (lib, export_names,
          (gpointer *) & gst_cl_gstcuda.pool_config_set_alloc_method,
          G_N_ELEMENTS (export_names)))
    memset (&gst_cl_gstcuda.pool_config_set_alloc_method, 0,
        G_N_ELEMENTS (export_names) * sizeof (gpointer));
  GST_INFO ("GStreamer's CUDA pools %s memory CUDA exports",
      gst_cl_gstcuda.memory_export ? "make" : "do not make");
  /* both stay loaded for the process */
  g_module_make_resident (driver);
  g_module_make_resident (lib);
  unavailable = NULL;
  return TRUE;
#endif
}

/**
 * gst_cl_cuda_available:
 *
 * Whether NVIDIA's driver and GStreamer's CUDA library load: then every cl
 * element takes and gives memory:CUDAMemory too. Looked at once, cheaply
 * (no GPU is opened).
 *
 * Returns: %TRUE where frames in CUDA memory can be taken
 */
gboolean
gst_cl_cuda_available (void)
{
  static gsize done = 0;
  static gboolean available = FALSE;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_cuda_debug, "clcuda", 0,
        "OpenCL and CUDA memory");
    available = load ();
    if (available)
      GST_INFO ("CUDA memory: available");
    else
      GST_INFO ("CUDA memory: not offered, %s", unavailable);
    g_once_init_leave (&done, 1);
  }
  return available;
}

/**
 * gst_cl_cuda_unavailable_reason:
 *
 * Returns: (nullable): why gst_cl_cuda_available() says no, %NULL where
 *   it says yes
 */
const gchar *
gst_cl_cuda_unavailable_reason (void)
{
  gst_cl_cuda_available ();
  return unavailable;
}

/**
 * gst_cl_cuda_buffer_is_cuda:
 *
 * Returns: whether @buffer's first memory is GstCudaMemory
 */
gboolean
gst_cl_cuda_buffer_is_cuda (GstBuffer * buffer)
{
  return gst_cl_cuda_available () && gst_buffer_n_memory (buffer) > 0 &&
      gst_memory_is_type (gst_buffer_peek_memory (buffer, 0),
      GST_CL_CUDA_MEMORY_TYPE);
}

/**
 * gst_cl_caps_has_cuda_feature:
 *
 * Returns: whether the first structure of @caps is in memory:CUDAMemory
 */
gboolean
gst_cl_caps_has_cuda_feature (GstCaps * caps)
{
  GstCapsFeatures *f;

  if (!caps || gst_caps_is_any (caps) || gst_caps_is_empty (caps))
    return FALSE;
  f = gst_caps_get_features (caps, 0);
  return f && gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_CUDA);
}

/**
 * gst_cl_cu_result:
 * @call: the entry point that returned @res, for the message
 *
 * Returns: whether @res is success, else %FALSE with @error set
 */
gboolean
gst_cl_cu_result (CUresult res, GError ** error, const gchar * call)
{
  const gchar *name = NULL;

  if (res == CUDA_SUCCESS)
    return TRUE;
  if (gst_cl_cu.GetErrorName (res, &name) != CUDA_SUCCESS || !name)
    name = "unknown error";
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "%s failed: %s (%d)", call, name, res);
  return FALSE;
}
