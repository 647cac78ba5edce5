/* gstclfilters: the benchmark's cases
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

typedef struct
{
  const gchar *factory;
  const gchar *props;
  GstVideoFormat format;
  gint width;
  gint height;
  gboolean skip_reference;      /* too slow to time where it is naive */
  /* the frames each output moves at the least, read and written: 0 for 2
   * (a frame in, a frame out), 3 where the element reads its last output */
  guint frames_moved;
  /* each frame other random bytes than the last, not the same frame again:
   * for a filter over time, every sample moves (cldenoise's wide window) */
  gboolean moving;
} BenchCase;

/* One work-item shape of an optimized kernel, forced for the sweep as
 * GST_CL_PLAN would (gst_cl_plan_set_override()). */
typedef struct
{
  BenchCase c;
  const gchar *label;
  void (*apply) (GstElement * element, guint a, guint b);
  guint a, b;
} BenchTuning;

const BenchCase *bench_cases (void);

const BenchTuning *bench_tunings (void);

void bench_register_elements (void);
