/* gstclfilters: a context shared through a pipeline, as GstContext
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * After upstream's CUDA helpers (gstcudautils): an element asks its peers,
 * then the application and bins, for a context of its device, and creates
 * and announces one where none answers.
 */
#include "gstclutils.h"
#include "gstclerror.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_utils_debug);
#define GST_CAT_DEFAULT gst_cl_utils_debug

static void
ensure_debug_category (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_utils_debug, "clutils", 0,
        "OpenCL context sharing");
    g_once_init_leave (&done, 1);
  }
}

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
      "cl-context", G_TYPE_POINTER, gst_cl_context_get_handle (ctx),
      "cl-device", G_TYPE_POINTER, gst_cl_context_get_device (ctx),
      "device-index", G_TYPE_INT, gst_cl_context_get_device_index (ctx),
      "device-name", G_TYPE_STRING, gst_cl_context_get_device_name (ctx), NULL);
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

    if (!other
        || gst_cl_context_get_device_index (other) ==
        gst_cl_context_get_device_index (ctx))
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
    if (ctx && gst_cl_context_get_device_index (ctx) == device_index)
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
    if (device_index < 0
        || gst_cl_context_get_device_index (other) == device_index)
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

  ensure_debug_category ();
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

  ensure_debug_category ();
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

/**
 * gst_cl_run_peer_query:
 * @dir: the direction of the pads of @element whose peers are asked
 *
 * Sends @query to the peer of each of @element's pads of @dir in turn,
 * until one answers: GStreamer's context flow asks peers so.
 *
 * Returns: %TRUE where a peer answered
 */
gboolean
gst_cl_run_peer_query (GstElement * element, GstQuery * query,
    GstPadDirection dir)
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

    if (gst_cl_run_peer_query (element, query, order[i])) {
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
      *ctx, gst_cl_context_get_device_name (*ctx));
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

  ensure_debug_category ();
  /* elements going to READY in parallel must not each create a context */
  g_rec_mutex_lock (&lock);
  if (!*ctx)
    ok = find_or_create_context (element, device_index, ctx);
  g_rec_mutex_unlock (&lock);
  return ok;
}
