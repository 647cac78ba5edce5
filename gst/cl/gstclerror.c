/* gstclfilters: OpenCL error names and GError helpers
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gstclerror.h"

#define CASE(x) case x: return #x

/**
 * gst_cl_error_name:
 * @status: an OpenCL status code
 *
 * Returns: the symbolic name of @status, such as "CL_OUT_OF_RESOURCES".
 */
const gchar *
gst_cl_error_name (cl_int status)
{
  switch (status) {
      CASE (CL_SUCCESS);
      CASE (CL_DEVICE_NOT_FOUND);
      CASE (CL_DEVICE_NOT_AVAILABLE);
      CASE (CL_COMPILER_NOT_AVAILABLE);
      CASE (CL_MEM_OBJECT_ALLOCATION_FAILURE);
      CASE (CL_OUT_OF_RESOURCES);
      CASE (CL_OUT_OF_HOST_MEMORY);
      CASE (CL_PROFILING_INFO_NOT_AVAILABLE);
      CASE (CL_MEM_COPY_OVERLAP);
      CASE (CL_IMAGE_FORMAT_MISMATCH);
      CASE (CL_IMAGE_FORMAT_NOT_SUPPORTED);
      CASE (CL_BUILD_PROGRAM_FAILURE);
      CASE (CL_MAP_FAILURE);
      CASE (CL_MISALIGNED_SUB_BUFFER_OFFSET);
      CASE (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      CASE (CL_COMPILE_PROGRAM_FAILURE);
      CASE (CL_LINKER_NOT_AVAILABLE);
      CASE (CL_LINK_PROGRAM_FAILURE);
      CASE (CL_DEVICE_PARTITION_FAILED);
      CASE (CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
      CASE (CL_INVALID_VALUE);
      CASE (CL_INVALID_DEVICE_TYPE);
      CASE (CL_INVALID_PLATFORM);
      CASE (CL_INVALID_DEVICE);
      CASE (CL_INVALID_CONTEXT);
      CASE (CL_INVALID_QUEUE_PROPERTIES);
      CASE (CL_INVALID_COMMAND_QUEUE);
      CASE (CL_INVALID_HOST_PTR);
      CASE (CL_INVALID_MEM_OBJECT);
      CASE (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
      CASE (CL_INVALID_IMAGE_SIZE);
      CASE (CL_INVALID_SAMPLER);
      CASE (CL_INVALID_BINARY);
      CASE (CL_INVALID_BUILD_OPTIONS);
      CASE (CL_INVALID_PROGRAM);
      CASE (CL_INVALID_PROGRAM_EXECUTABLE);
      CASE (CL_INVALID_KERNEL_NAME);
      CASE (CL_INVALID_KERNEL_DEFINITION);
      CASE (CL_INVALID_KERNEL);
      CASE (CL_INVALID_ARG_INDEX);
      CASE (CL_INVALID_ARG_VALUE);
      CASE (CL_INVALID_ARG_SIZE);
      CASE (CL_INVALID_KERNEL_ARGS);
      CASE (CL_INVALID_WORK_DIMENSION);
      CASE (CL_INVALID_WORK_GROUP_SIZE);
      CASE (CL_INVALID_WORK_ITEM_SIZE);
      CASE (CL_INVALID_GLOBAL_OFFSET);
      CASE (CL_INVALID_EVENT_WAIT_LIST);
      CASE (CL_INVALID_EVENT);
      CASE (CL_INVALID_OPERATION);
      CASE (CL_INVALID_GL_OBJECT);
      CASE (CL_INVALID_BUFFER_SIZE);
      CASE (CL_INVALID_MIP_LEVEL);
      CASE (CL_INVALID_GLOBAL_WORK_SIZE);
      CASE (CL_INVALID_PROPERTY);
      CASE (CL_INVALID_IMAGE_DESCRIPTOR);
      CASE (CL_INVALID_COMPILER_OPTIONS);
      CASE (CL_INVALID_LINKER_OPTIONS);
      CASE (CL_INVALID_DEVICE_PARTITION_COUNT);
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "CL_UNKNOWN_ERROR";
  }
}

#undef CASE

/**
 * gst_cl_result:
 * @status: what an OpenCL call returned
 * @error: (out) (optional): set when @status is not CL_SUCCESS
 * @call: the call, for the message
 *
 * Returns: %TRUE when @status is CL_SUCCESS.
 */
gboolean
gst_cl_result (cl_int status, GError ** error, const gchar * call)
{
  GstResourceError code;

  if (G_LIKELY (status == CL_SUCCESS))
    return TRUE;

  switch (status) {
    case CL_OUT_OF_RESOURCES:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
      code = GST_RESOURCE_ERROR_NO_SPACE_LEFT;
      break;
    default:
      code = GST_RESOURCE_ERROR_FAILED;
      break;
  }
  g_set_error (error, GST_RESOURCE_ERROR, code,
      "OpenCL call failed: %s (%d) in %s", gst_cl_error_name (status), status,
      call);
  return FALSE;
}

/**
 * gst_cl_post_error:
 * @err: (nullable): what failed; %NULL where a precondition failed without
 *   saying why, which still must not go unreported
 *
 * Posts an element error; use GST_CL_POST_ERROR().
 */
void
gst_cl_post_error (GstElement * element, const GError * err,
    const gchar * file, const gchar * function, gint line)
{
  if (err)
    gst_element_message_full (element, GST_MESSAGE_ERROR, err->domain,
        err->code, g_strdup (err->message), NULL, file, function, line);
  else
    gst_element_message_full (element, GST_MESSAGE_ERROR, GST_CORE_ERROR,
        GST_CORE_ERROR_FAILED, g_strdup ("internal OpenCL filter error"),
        g_strdup ("a call failed without an error; see the debug log"), file,
        function, line);
}
