/* gstclfilters: the benchmark's cases
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-cases.h"
#include "gstclboxblur.h"

#define RGBA GST_VIDEO_FORMAT_RGBA

/* clboxblur: the sizes and diameters; the naive reference is not
 * timed where its d x d loop takes seconds a frame */
#define BOX(d, w, h, skip_ref) \
  {"clboxblur", "diameter=" #d, RGBA, w, h, skip_ref}

static const BenchCase cases[] = {
  BOX (3, 1920, 1080, FALSE), BOX (5, 1920, 1080, FALSE),
  BOX (11, 1920, 1080, FALSE), BOX (31, 1920, 1080, TRUE),
  BOX (101, 1920, 1080, TRUE),
  BOX (3, 3840, 2160, FALSE), BOX (5, 3840, 2160, FALSE),
  BOX (11, 3840, 2160, FALSE), BOX (31, 3840, 2160, TRUE),
  BOX (101, 3840, 2160, TRUE),
  {NULL, NULL, GST_VIDEO_FORMAT_UNKNOWN, 0, 0, FALSE}
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
