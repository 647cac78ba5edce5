/* gstclfilters: the formats a pad's peer gives, and caps cut to them
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * For a mixer whose inputs must take one format (gstclaggregator.c): what
 * each upstream can give, in both memories, and the caps left once the
 * formats are agreed.
 */
#include "gstclcaps.h"
#include "gstclmemory.h"

/**
 * gst_cl_pad_peer_formats:
 * @self: the element asking, whose pad @pad is
 *
 * The formats upstream of @pad can give, as caps in both memories. A query
 * that comes back to @self in the same thread (through a tee feeding two of
 * its pads) gets no answer.
 *
 * Returns: (transfer full) (nullable): the formats, %NULL for any
 */
GstCaps *
gst_cl_pad_peer_formats (GstObject * self, GstPad * pad)
{
  /* the elements asking in this thread */
  static GPrivate asking = G_PRIVATE_INIT (NULL);
  GSList *outer = g_private_get (&asking);
  GstCaps *peer, *formats, *res;
  guint i;

  if (g_slist_find (outer, self))
    return NULL;
  g_private_set (&asking, g_slist_prepend (outer, self));
  peer = gst_pad_peer_query_caps (pad, NULL);
  g_slist_free_1 (g_private_get (&asking));
  g_private_set (&asking, outer);
  if (gst_caps_is_any (peer) || gst_caps_is_empty (peer)) {
    gst_caps_unref (peer);
    return NULL;
  }
  formats = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (peer); i++) {
    const GValue *v = gst_structure_get_value (gst_caps_get_structure (peer,
            i), "format");
    GstStructure *s;

    if (!v) {
      gst_caps_unref (formats);
      gst_caps_unref (peer);
      return NULL;
    }
    s = gst_structure_new_empty ("video/x-raw");
    gst_structure_set_value (s, "format", v);
    formats = gst_caps_merge_structure (formats, s);
  }
  gst_caps_unref (peer);
  res = gst_cl_caps_add_memory_feature (formats);
  gst_caps_unref (formats);
  return res;
}

/**
 * gst_cl_caps_keep_formats:
 * @caps: (transfer full): caps
 * @formats: (transfer full) (nullable): caps of formats; %NULL for any
 *
 * Returns: (transfer full): @caps less what @formats leave out, unless
 *   that is everything
 */
GstCaps *
gst_cl_caps_keep_formats (GstCaps * caps, GstCaps * formats)
{
  GstCaps *both;

  if (!formats)
    return caps;
  both = gst_caps_intersect_full (caps, formats, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (formats);
  if (gst_caps_is_empty (both)) {
    gst_caps_unref (both);
    return caps;
  }
  gst_caps_unref (caps);
  return both;
}

/**
 * gst_cl_caps_keep_format:
 * @caps: (transfer full): caps
 *
 * Returns: (transfer full): @caps in @format alone, unless they have none
 *   of it
 */
GstCaps *
gst_cl_caps_keep_format (GstCaps * caps, const gchar * format)
{
  GstCaps *one = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      format, NULL);

  caps = gst_cl_caps_keep_formats (caps, gst_cl_caps_add_memory_feature (one));
  gst_caps_unref (one);
  return caps;
}
