/* gstclfilters tests: helpers of the tests that link the elements in
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cllinked.h"
#include "gstclelements.h"

#include <gst/check/gstcheck.h>

void
cl_test_register_elements (void)
{
  static gboolean done;

  if (done)
    return;
#define REGISTER(name) \
  fail_unless (GST_ELEMENT_REGISTER (name, NULL), "%s not registered", #name);
  GST_CL_ELEMENTS (REGISTER)
#undef REGISTER
  done = TRUE;
}
