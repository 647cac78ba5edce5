/* gstclfilters: the benchmark's cases
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-cases.h"
#include "gstclboxblur.h"

#define RGBA GST_VIDEO_FORMAT_RGBA

static const BenchCase cases[] = {
  {"clboxblur", "diameter=3", RGBA, 1920, 1080},
  {"clboxblur", "diameter=5", RGBA, 1920, 1080},
  {"clboxblur", "diameter=11", RGBA, 1920, 1080},
  {"clboxblur", "diameter=31", RGBA, 1920, 1080, TRUE},
  {"clboxblur", "diameter=101", RGBA, 1920, 1080, TRUE},
  {"clboxblur", "diameter=3", RGBA, 3840, 2160},
  {"clboxblur", "diameter=5", RGBA, 3840, 2160},
  {"clboxblur", "diameter=11", RGBA, 3840, 2160},
  {"clboxblur", "diameter=31", RGBA, 3840, 2160, TRUE},
  {"clboxblur", "diameter=101", RGBA, 3840, 2160, TRUE},
  {NULL}
};

const BenchCase *
bench_cases (void)
{
  return cases;
}

/* The benchmark links the elements in, and registers them statically. */
void
bench_register_elements (void)
{
  GST_ELEMENT_REGISTER (clboxblur, NULL);
}
