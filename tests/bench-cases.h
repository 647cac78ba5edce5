/* gstclfilters: the benchmark's cases
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

typedef struct
{
  const gchar *factory;
  const gchar *props;
  GstVideoFormat format;
  gint width;
  gint height;
  gboolean skip_reference;      /* too slow to time where it is naive */
} BenchCase;

const BenchCase * bench_cases (void);

void              bench_register_elements (void);
