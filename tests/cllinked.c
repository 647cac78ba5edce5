/* gstclfilters tests: helpers of the tests that link the elements in
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cllinked.h"
#include "gstclboxblur.h"
#include "gstclcomposite.h"
#include "gstclepsilon.h"
#include "gstclintegral.h"
#include "gstclsobel.h"

#include <gst/check/gstcheck.h>

void
cl_test_register_elements (void)
{
  static gboolean done;

  if (done)
    return;
  fail_unless (GST_ELEMENT_REGISTER (clboxblur, NULL) &&
      GST_ELEMENT_REGISTER (clcomposite, NULL) &&
      GST_ELEMENT_REGISTER (clsobel, NULL) &&
      GST_ELEMENT_REGISTER (clepsilon, NULL) &&
      GST_ELEMENT_REGISTER (clintegral, NULL));
  done = TRUE;
}
