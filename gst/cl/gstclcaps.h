/* gstclfilters: the formats a pad's peer gives, and caps cut to them
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

GstCaps * gst_cl_pad_peer_formats (GstObject * self, GstPad * pad);

GstCaps * gst_cl_caps_keep_formats (GstCaps * caps, GstCaps * formats);

GstCaps * gst_cl_caps_keep_format (GstCaps * caps, const gchar * format);

G_END_DECLS
