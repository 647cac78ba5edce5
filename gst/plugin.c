/* gstclfilters: the clfilters plugin, classic image filters on OpenCL devices
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclelements.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

#define REGISTER(name) ret |= GST_ELEMENT_REGISTER (name, plugin);
  GST_CL_ELEMENTS (REGISTER)
#undef REGISTER
  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, clfilters,
    "Classic image filters on OpenCL devices", plugin_init, VERSION,
    GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
