/* gstclfilters: the CUDA driver and GStreamer's CUDA library, loaded at run
 * time
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * For gstclcuda.c: the few declarations of the CUDA driver API and of
 * gst/cuda the plugin uses, written here (nothing comes from NVIDIA's
 * toolkit), and their entry points once gst_cl_cuda_available() has loaded
 * them.
 */
#pragma once

#include <gst/video/video.h>

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_cl_cuda_debug);

/**
 * GST_CAPS_FEATURE_MEMORY_CUDA:
 *
 * The caps feature of video in GStreamer's CUDA memory (GstCudaMemory), the
 * same string as GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY of gst/cuda.
 */
#define GST_CAPS_FEATURE_MEMORY_CUDA "memory:CUDAMemory"

/**
 * GST_CL_CUDA_CONTEXT_TYPE:
 *
 * The GstContext type of GStreamer's CUDA context, GST_CUDA_CONTEXT_TYPE of
 * gst/cuda.
 */
#define GST_CL_CUDA_CONTEXT_TYPE "gst.cuda.context"

/**
 * GST_CL_CUDA_DISABLE_ENV:
 *
 * Set to 1, the plugin leaves CUDA memory alone: no element offers it, as
 * where GStreamer's CUDA library or NVIDIA's driver is missing.
 */
#define GST_CL_CUDA_DISABLE_ENV "GST_CL_CUDA_DISABLE"

gboolean      gst_cl_cuda_available (void);

const gchar * gst_cl_cuda_unavailable_reason (void);

gboolean      gst_cl_cuda_buffer_is_cuda (GstBuffer * buffer);

gboolean      gst_cl_caps_has_cuda_feature (GstCaps * caps);

/* ---- the CUDA driver API, as much of cuda.h as is used ---------------- */

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUmemGenericAllocationHandle;
typedef struct
{
  char bytes[16];
} CUuuid;

#define CUDA_SUCCESS 0
#define CU_STREAM_NON_BLOCKING 0x1
#define CUDA_ERROR_NOT_READY 600
#define CU_STREAM_WAIT_VALUE_GEQ 0x0
#define CU_MEMORYTYPE_DEVICE 2
#define CU_MEM_ALLOCATION_TYPE_PINNED 1
#define CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR 1
#define CU_MEM_LOCATION_TYPE_DEVICE 1
#define CU_MEM_ACCESS_FLAGS_PROT_READWRITE 3
#define CU_MEM_ALLOC_GRANULARITY_MINIMUM 0
#define CU_EVENT_DISABLE_TIMING 0x2

typedef struct
{
  gsize srcXInBytes, srcY;
  gint srcMemoryType;
  gconstpointer srcHost;
  CUdeviceptr srcDevice;
  gpointer srcArray;
  gsize srcPitch;
  gsize dstXInBytes, dstY;
  gint dstMemoryType;
  gpointer dstHost;
  CUdeviceptr dstDevice;
  gpointer dstArray;
  gsize dstPitch;
  gsize WidthInBytes, Height;
} CUDA_MEMCPY2D;

typedef struct
{
  gint type;
  gint id;
} CUmemLocation;

typedef struct
{
  gint type;
  gint requestedHandleTypes;
  CUmemLocation location;
  gpointer win32HandleMetaData;
  struct
  {
    guint8 compressionType;
    guint8 gpuDirectRDMACapable;
    guint16 usage;
    guint8 reserved[4];
  } allocFlags;
} CUmemAllocationProp;

typedef struct
{
  CUmemLocation location;
  gint flags;
} CUmemAccessDesc;

/* the driver's entry points, by their exported names */
typedef struct
{
  CUresult (*Init) (guint flags);
  CUresult (*DeviceGet) (CUdevice * device, gint ordinal);
  CUresult (*DeviceGetCount) (gint * count);
  CUresult (*DeviceGetUuid) (CUuuid * uuid, CUdevice device);
  CUresult (*DeviceGetName) (gchar * name, gint len, CUdevice device);
  CUresult (*CtxPushCurrent) (CUcontext ctx);
  CUresult (*CtxPopCurrent) (CUcontext * ctx);
  CUresult (*StreamCreate) (CUstream * stream, guint flags);
  CUresult (*StreamDestroy) (CUstream stream);
  CUresult (*StreamSynchronize) (CUstream stream);
  CUresult (*StreamQuery) (CUstream stream);
  CUresult (*Memcpy2DAsync) (const CUDA_MEMCPY2D * copy, CUstream stream);
  CUresult (*MemcpyDtoDAsync) (CUdeviceptr dst, CUdeviceptr src, gsize size,
      CUstream stream);
  CUresult (*MemCreate) (CUmemGenericAllocationHandle * handle, gsize size,
      const CUmemAllocationProp * prop, guint64 flags);
  CUresult (*MemRelease) (CUmemGenericAllocationHandle handle);
  CUresult (*MemAddressReserve) (CUdeviceptr * ptr, gsize size, gsize align,
      CUdeviceptr addr, guint64 flags);
  CUresult (*MemAddressFree) (CUdeviceptr ptr, gsize size);
  CUresult (*MemMap) (CUdeviceptr ptr, gsize size, gsize offset,
      CUmemGenericAllocationHandle handle, guint64 flags);
  CUresult (*MemUnmap) (CUdeviceptr ptr, gsize size);
  CUresult (*MemSetAccess) (CUdeviceptr ptr, gsize size,
      const CUmemAccessDesc * desc, gsize count);
  CUresult (*MemExportToShareableHandle) (gpointer handle,
      CUmemGenericAllocationHandle alloc, gint type, guint64 flags);
  CUresult (*MemGetAllocationGranularity) (gsize * granularity,
      const CUmemAllocationProp * prop, gint option);
  CUresult (*MemsetD32) (CUdeviceptr ptr, guint value, gsize count);
  CUresult (*GetErrorName) (CUresult error, const gchar ** name);
  CUresult (*EventCreate) (CUevent * event, guint flags);
  CUresult (*EventDestroy) (CUevent event);
  CUresult (*EventRecord) (CUevent event, CUstream stream);
  CUresult (*StreamWaitEvent) (CUstream stream, CUevent event, guint flags);
  /* where the driver has them (CUDA 11.7, 12.1 on), else NULL */
  CUresult (*StreamWaitValue32) (CUstream stream, CUdeviceptr addr,
      guint32 value, guint flags);
  CUresult (*CtxGetFlags) (guint * flags);
  CUresult (*CtxSetFlags) (guint flags);
} GstClCudaDriver;

/* ---- GStreamer's CUDA library, as much of gst/cuda as is used --------- */

/* the public head of GstCudaMemory, as gstcudamemory.h declares it (the
 * same from 1.22 to 1.26) */
typedef struct
{
  GstMemory mem;
  GstObject *context;
  GstVideoInfo info;
} GstClCudaMemoryHead;

#define GST_CL_CUDA_MEMORY_TYPE "gst.cuda.memory"
#define GST_CL_MAP_CUDA (GST_MAP_FLAG_LAST << 1)
/* GstCudaStream, GStreamer 1.24 on: a boxed CUDA stream */
typedef struct _GstClCudaStream GstClCudaStream;

/* its entry points */
typedef struct
{
  gpointer (*context_get_handle) (GstObject * ctx);
  GstBufferPool *(*buffer_pool_new) (GstObject * ctx);
  gboolean (*ensure_element_context) (GstElement * element, gint device_id,
      GstObject ** ctx);
  gboolean (*handle_set_context) (GstElement * element, GstContext * context,
      gint device_id, GstObject ** ctx);
  gboolean (*handle_context_query) (GstElement * element, GstQuery * query,
      GstObject * ctx);
  /* GStreamer 1.24 on, else NULL: the stream a GstCudaMemory's producer
   * writes it on, and its handle */
  GstClCudaStream *(*memory_get_stream) (GstMemory * mem);
  CUstream (*stream_get_handle) (GstClCudaStream * stream);
  /* GStreamer 1.24 on, else NULL, all or none: pools of memory CUDA
   * exports (cuMemCreate), the memory's export, and data of the plugin's
   * kept with a memory */
  void (*pool_config_set_alloc_method) (GstStructure * config, gint method);
  gint (*memory_get_alloc_method) (GstMemory * mem);
  gboolean (*memory_export) (GstMemory * mem, gpointer os_handle);
  gint64 (*create_user_token) (void);
  gpointer (*memory_get_token_data) (GstMemory * mem, gint64 token);
  void (*memory_set_token_data) (GstMemory * mem, gint64 token, gpointer data,
      GDestroyNotify notify);
} GstClCudaLibrary;

/* GstCudaMemoryAllocMethod's GST_CUDA_MEMORY_ALLOC_MMAP */
#define GST_CL_CUDA_MEMORY_ALLOC_MMAP 2

extern GstClCudaDriver gst_cl_cu;
extern GstClCudaLibrary gst_cl_gstcuda;

gboolean gst_cl_cu_result (CUresult res, GError ** error, const gchar * call);

G_END_DECLS
