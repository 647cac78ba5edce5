/* gstclfilters example: a pipeline on the application's own OpenCL context,
 * its frames read on the device by the application's own kernel
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * For applications that have OpenCL code of their own: they make the
 * cl_context, hand it to the pipeline through a GstContext of type
 * "gst.cl.context" (the elements then run on it, never copy or release it),
 * and take the elements' output as it is on the device, as
 * video/x-raw(memory:OpenCL). A frame's buffer then holds one GstClMemory a
 * plane; mapped with GST_MAP_CL, the map gives its cl_mem, ready to be read
 * by the application's kernels without a copy through the host.
 *
 *   shared-context               # three frames, each inverted by our kernel
 *
 * Each result is checked against the frame read back by an ordinary map.
 * Nothing here needs the plugin's headers.
 *
 * Build (with the plugin installed, or GST_PLUGIN_PATH=build/gst):
 *   cc shared-context.c -o shared-context $(pkg-config --cflags --libs \
 *       gstreamer-1.0 gstreamer-app-1.0 gstreamer-video-1.0 OpenCL)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

/* GstClMemory's map flag for its cl_mem, as GST_MAP_GL is GL memory's */
#define GST_MAP_CL (GST_MAP_FLAG_LAST << 1)

static const char *invert_source =
    "__kernel void invert (__global const uchar * in, int stride,\n"
    "    __global uchar * out, int width)\n"
    "{\n"
    "  int x = get_global_id (0), y = get_global_id (1);\n"
    "  out[y * width + x] = 255 - in[y * stride + x];\n" "}\n";

typedef struct
{
  cl_context context;
  cl_device_id device;
  cl_command_queue queue;
  cl_kernel kernel;
} Ours;

/* The application's OpenCL: the first device of the first platform. */
static gboolean
our_opencl (Ours * o)
{
  cl_platform_id platform;
  cl_program program;
  cl_int err;

  if (clGetPlatformIDs (1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, 1, &o->device,
          NULL) != CL_SUCCESS)
    return FALSE;
  o->context = clCreateContext (NULL, 1, &o->device, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    return FALSE;
  o->queue = clCreateCommandQueue (o->context, o->device, 0, &err);
  program = clCreateProgramWithSource (o->context, 1, &invert_source, NULL,
      &err);
  if (err != CL_SUCCESS ||
      clBuildProgram (program, 1, &o->device, "", NULL, NULL) != CL_SUCCESS)
    return FALSE;
  o->kernel = clCreateKernel (program, "invert", &err);
  clReleaseProgram (program);
  return err == CL_SUCCESS;
}

/* Runs our kernel on the frame where the pipeline left it, then checks the
 * result against the frame's bytes; returns whether they agree. */
static gboolean
invert_on_device (Ours * o, GstSample * sample)
{
  GstBuffer *buf = gst_sample_get_buffer (sample);
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  GstVideoInfo info;
  GstMapInfo dev, host;
  cl_mem in, out;
  gint width, height, stride;
  gsize global[2];
  guint8 *result;
  gboolean same = TRUE;

  gst_video_info_from_caps (&info, gst_sample_get_caps (sample));
  width = GST_VIDEO_INFO_WIDTH (&info);
  height = GST_VIDEO_INFO_HEIGHT (&info);
  /* the elements' frames carry their layout */
  stride = meta ? meta->stride[0] : GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  g_assert (gst_memory_is_type (mem, "ClMemory"));

  /* the map returns once the kernels that write the frame are done */
  if (!gst_memory_map (mem, &dev, GST_MAP_READ | GST_MAP_CL))
    return FALSE;
  in = *(cl_mem *) dev.data;
  out = clCreateBuffer (o->context, CL_MEM_WRITE_ONLY, (gsize) width * height,
      NULL, NULL);
  clSetKernelArg (o->kernel, 0, sizeof (in), &in);
  clSetKernelArg (o->kernel, 1, sizeof (stride), &stride);
  clSetKernelArg (o->kernel, 2, sizeof (out), &out);
  clSetKernelArg (o->kernel, 3, sizeof (width), &width);
  global[0] = width;
  global[1] = height;
  clEnqueueNDRangeKernel (o->queue, o->kernel, 2, NULL, global, NULL, 0,
      NULL, NULL);
  result = g_malloc ((gsize) width * height);
  clEnqueueReadBuffer (o->queue, out, CL_TRUE, 0, (gsize) width * height,
      result, 0, NULL, NULL);
  /* our commands on the buffer are done: it goes back to the pipeline */
  gst_memory_unmap (mem, &dev);
  clReleaseMemObject (out);

  /* the same frame read back by an ordinary map */
  gst_memory_map (mem, &host, GST_MAP_READ);
  for (gint y = 0; y < height && same; y++)
    for (gint x = 0; x < width && same; x++)
      same = result[y * width + x] == 255 - host.data[y * stride + x];
  gst_memory_unmap (mem, &host);
  g_free (result);
  return same;
}

int
main (int argc, char **argv)
{
  Ours o = { 0, };
  GstElement *pipeline, *sink;
  GstContext *context;
  GstSample *sample;
  GError *err = NULL;
  guint frames = 0, wrong = 0;

  gst_init (&argc, &argv);
  if (!our_opencl (&o)) {
    g_printerr ("no OpenCL device\n");
    return 1;
  }
  pipeline = gst_parse_launch ("videotestsrc num-buffers=3 pattern=ball ! "
      "video/x-raw,format=GRAY8,width=320,height=240 ! clboxblur diameter=5 ! "
      "appsink name=sink sync=false "
      "caps=video/x-raw(memory:OpenCL),format=GRAY8", &err);
  if (!pipeline) {
    g_printerr ("%s\n", err->message);
    return 1;
  }

  /* our context for every cl element of the pipeline, before READY */
  context = gst_context_new ("gst.cl.context", TRUE);
  gst_structure_set (gst_context_writable_structure (context),
      "cl-context", G_TYPE_POINTER, o.context,
      "cl-device", G_TYPE_POINTER, o.device, NULL);
  gst_element_set_context (pipeline, context);
  gst_context_unref (context);

  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    gboolean same = invert_on_device (&o, sample);

    g_print ("frame %u: our kernel's output %s\n", frames,
        same ? "equals 255 - the frame" : "DIFFERS");
    wrong += !same;
    frames++;
    gst_sample_unref (sample);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);

  /* the pipeline is gone; the context is still ours */
  clReleaseKernel (o.kernel);
  clReleaseCommandQueue (o.queue);
  clReleaseContext (o.context);
  g_print ("%u frames read on the device by our kernel, %s\n", frames,
      wrong ? "some WRONG" : "all right");
  return frames == 0 || wrong ? 1 : 0;
}
