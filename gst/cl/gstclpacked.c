/* gstclfilters: packed 4:2:2 frames, as their planes
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An element's kernels never see packed 4:2:2: the core unpacks such a
 * frame into three planes (Y42B) before them and packs their output back
 * after them, on the device, with the kernels of kernels/plane.cl.
 */
#include "gstclpacked.h"
#include "gstclkernel.h"
#include "gstclkernels.h"

/**
 * gst_cl_packed_prepare:
 * @info: frames an element settles on, in or out
 *
 * Where @info is packed 4:2:2, makes the kernels that unpack and pack it
 * (once; both, for either way).
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_packed_prepare (GstClPacked * packed, GstClContext * ctx,
    const GstVideoInfo * info, GError ** error)
{
  GstVideoInfo view;

  if (packed->pack || !gst_cl_video_info_kernel_view (info, &view))
    return TRUE;
  if (!packed->unpack && !(packed->unpack = gst_cl_kernel_new (ctx,
              gst_cl_kernel_plane, "", "plane_unpack_422", error)))
    return FALSE;
  packed->pack = gst_cl_kernel_new (ctx, gst_cl_kernel_plane, "",
      "plane_pack_422", error);
  return packed->pack != NULL;
}

/**
 * gst_cl_packed_clear:
 *
 * Releases the kernels, before their context goes.
 */
void
gst_cl_packed_clear (GstClPacked * packed)
{
  if (packed->unpack)
    clReleaseKernel (packed->unpack);
  if (packed->pack)
    clReleaseKernel (packed->pack);
  packed->unpack = packed->pack = NULL;
}

/**
 * gst_cl_packed_convert:
 * @info: a packed 4:2:2 frame's
 * @plane: its packed plane on the device
 * @staging: where the planes are kept; %NULL to pack planes made already
 * @planar: (inout): the planes of @info's kernel view: made in @staging's
 *   buffers (gst_cl_staging_planar()) and unpacked into, or packed from
 *   where @staging is %NULL
 *
 * Enqueues the unpacking of @plane into @planar, or the packing of
 * @planar into @plane.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_cl_packed_convert (GstClPacked * packed, GstClQueue * queue,
    const GstVideoInfo * info, const GstClPlane * plane,
    GstClStaging * staging, GstClFrame * planar, GError ** error)
{
  const GstClPlane *y = &planar->planes[0], *u = &planar->planes[1];
  const GstClPlane *v = &planar->planes[2];
  cl_kernel k = staging ? packed->unpack : packed->pack;
  gint width = GST_VIDEO_INFO_WIDTH (info), off[3];
  /* kernels/plane.cl: 4 macropixels a work-item */
  gsize global[2] = { ((width + 1) / 2 + 3) / 4,
    GST_VIDEO_INFO_HEIGHT (info)
  };
  gboolean ok;

  if (!k) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "a packed 4:2:2 frame of caps the element was not given");
    return FALSE;
  }
  if (staging && !gst_cl_staging_planar (staging, queue->context, info,
          planar, error))
    return FALSE;
  gst_cl_format_get_packed_422 (GST_VIDEO_INFO_FORMAT (info), off);
  /* the packed plane first where it is read, last where it is written */
  ok = staging ? gst_cl_kernel_set_args (k, error, 8, GST_CL_ARG (plane->mem),
      GST_CL_ARG (plane->stride), GST_CL_ARG (y->mem), GST_CL_ARG (y->stride),
      GST_CL_ARG (u->mem), GST_CL_ARG (u->stride), GST_CL_ARG (v->mem),
      GST_CL_ARG (v->stride)) : gst_cl_kernel_set_args (k, error, 8,
      GST_CL_ARG (y->mem), GST_CL_ARG (y->stride), GST_CL_ARG (u->mem),
      GST_CL_ARG (u->stride), GST_CL_ARG (v->mem), GST_CL_ARG (v->stride),
      GST_CL_ARG (plane->mem), GST_CL_ARG (plane->stride));
  return ok && gst_cl_kernel_set_args_from (k, 8, error, 4,
      GST_CL_ARG (width), GST_CL_ARG (off[0]), GST_CL_ARG (off[1]),
      GST_CL_ARG (off[2])) &&
      gst_cl_kernel_enqueue (queue, k, 2, global, NULL, error);
}
