/* gstclfilters: OpenCL error names, GError helpers and messages
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gstclerror.h"

#include <string.h>

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

static void
append_formats (GString * str, const GValue * v)
{
  guint i;

  if (G_VALUE_HOLDS_STRING (v)) {
    gchar *word = g_strdup_printf (" %s ", g_value_get_string (v));

    /* each once, as templates repeat them for each memory; @str keeps a
     * space at both ends */
    if (!str->len)
      g_string_append (str, " ");
    if (!strstr (str->str, word))
      g_string_append (str, word + 1);
    g_free (word);
  } else if (GST_VALUE_HOLDS_LIST (v)) {
    for (i = 0; i < gst_value_list_get_size (v); i++)
      append_formats (str, gst_value_list_get_value (v, i));
  }
}

/* the caps of the CAPS event this thread is sending to a watched pad */
static GPrivate caps_in_event = G_PRIVATE_INIT (NULL);

static GstPadProbeReturn
note_caps_event (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  GstCaps *caps;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    gst_event_parse_caps (event, &caps);
    g_private_set (&caps_in_event, caps);
  }
  return GST_PAD_PROBE_OK;
}

/**
 * gst_cl_watch_caps_events:
 *
 * Notes the caps of every CAPS event sent to @sinkpad, before the pad checks
 * them, so that gst_cl_warn_caps_refused() tells a refused stream from a
 * refused probe (decodebin and playbin ask elements about caps they will
 * not send).
 */
void
gst_cl_watch_caps_events (GstPad * sinkpad)
{
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
      note_caps_event, NULL, NULL);
}

/**
 * gst_cl_caps_in_event:
 *
 * Returns: whether @caps are those of a CAPS event this thread is sending to
 *   a pad watched by gst_cl_watch_caps_events(), not of a query
 */
gboolean
gst_cl_caps_in_event (GstCaps * caps)
{
  return caps && caps == g_private_get (&caps_in_event);
}

/**
 * gst_cl_warn_caps_refused:
 * @pad: a sink pad of @element
 * @caps: what @pad has just refused in an ACCEPT_CAPS query
 *
 * Where @caps are those of a CAPS event on its way into @pad (see
 * gst_cl_watch_caps_events()) and outside @pad's template (another format,
 * memory or interlacing, or not raw video), posts a warning naming the
 * formats @pad takes: upstream's not-negotiated error that follows says only
 * that negotiation failed. Once per refused kind of caps.
 */
void
gst_cl_warn_caps_refused (GstElement * element, GstPad * pad, GstCaps * caps)
{
  GQuark quark = g_quark_from_static_string ("gst-cl-caps-refused");
  GstCaps *templ;
  GString *formats;
  GstStructure *s;
  GstCapsFeatures *features;
  GString *hints;
  const gchar *format, *interlace;
  gboolean interlaced;
  gchar *got, *word, *feature_str = NULL;

  /* a query, not a stream: decodebin and playbin probe with caps they then
   * convert */
  if (!gst_cl_caps_in_event (caps))
    return;
  templ = gst_pad_get_pad_template_caps (pad);
  if (gst_caps_can_intersect (caps, templ)) {
    gst_caps_unref (templ);
    return;
  }

  formats = g_string_new (NULL);
  for (guint i = 0; i < gst_caps_get_size (templ); i++)
    append_formats (formats, gst_structure_get_value
        (gst_caps_get_structure (templ, i), "format"));

  /* what is wrong with them: not raw video, the memory, the interlacing,
   * the format */
  s = gst_caps_get_structure (caps, 0);
  features = gst_caps_get_features (caps, 0);
  format = gst_structure_get_string (s, "format");
  interlace = gst_structure_get_string (s, "interlace-mode");
  interlaced = interlace && strcmp (interlace, "progressive") != 0;
  hints = g_string_new (NULL);
  if (!gst_structure_has_name (s, "video/x-raw")) {
    g_string_append (hints, "a decoder (decodebin)");
  } else {
    if (features && !gst_caps_features_is_any (features) &&
        !gst_caps_features_contains (features,
            GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY) &&
        !gst_caps_features_contains (features, "memory:OpenCL")) {
      feature_str = gst_caps_features_to_string (features);
      g_string_append (hints, "a download to system memory");
    }
    if (interlaced)
      g_string_append_printf (hints, "%sa deinterlace",
          hints->len ? " and " : "");
    word = g_strdup_printf (" %s ", format ? format : "");
    if (!format || !strstr (formats->str, word))
      g_string_append_printf (hints, "%sa videoconvert",
          hints->len ? " and " : "");
    g_free (word);
  }
  if (!hints->len)
    g_string_append (hints, "a videoconvert");
  got = g_strdup_printf ("%s%s%s%s%s%s%s", gst_structure_get_name (s),
      feature_str ? "(" : "", feature_str ? feature_str : "",
      feature_str ? ")" : "", format ? " " : "", format ? format : "",
      interlaced ? ", interlaced" : "");
  g_free (feature_str);

  if (g_strcmp0 (g_object_get_qdata (G_OBJECT (pad), quark), got) != 0) {
    GST_ELEMENT_WARNING (element, CORE, NEGOTIATION, ("%s:%s takes "
            "progressive raw video in system memory or memory:OpenCL, in %s; "
            "not %s: put %s before it", GST_ELEMENT_NAME (element),
            GST_PAD_NAME (pad), g_strstrip (formats->str), got, hints->str),
        ("refused %" GST_PTR_FORMAT, caps));
    g_object_set_qdata_full (G_OBJECT (pad), quark, got, g_free);
  } else {
    g_free (got);
  }
  g_string_free (hints, TRUE);
  g_string_free (formats, TRUE);
  gst_caps_unref (templ);
}
