/* gstclfilters tests: helpers of the tests that link the elements in
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/* Registers every element of the plugin with the process, once: the tests
 * that link the elements in instead of loading the plugin. */
void        cl_test_register_elements (void);

G_END_DECLS
