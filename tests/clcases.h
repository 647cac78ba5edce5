/* gstclfilters tests: the plugin's elements, for the suites that take them all
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The elements come from the one list, GST_CL_ELEMENTS (meson.build's
 * cl_elements). What a suite can learn from an element itself (its
 * formats, its inputs, its properties and their ranges) it asks the
 * element; the rest, which no element can say (a C reference of its output,
 * settings a reference knows), is in one table, tests/clcases.c, where an
 * element without an entry gets defaults that the generic checks can run
 * with.
 */
#pragma once

#include "cltest.h"

G_BEGIN_DECLS
#define CL_TEST_MAX_INPUTS 4
/* A C reference of an element's output, from its first input's frame. */
    typedef struct
{
  ClRefPlaneFunc func;
  gconstpointer data;
} ClTestRef;

/* Properties flipped while playing, on frames of @format. */
typedef struct
{
  GstVideoFormat format;
  /* name, value, value..., NULL, name..., NULL; PAD::name for a pad's */
  const gchar *const *props;
  /* the frames their values may give, by their references, up to the
   * first without a func; none: any frame of the right size */
  ClTestRef wants[6];
} ClTestFlip;

typedef struct
{
  const gchar *name;

  /* hostile: @settings (as a launch line gives them), under which @ref
   * gives the output; the format of the cases of one format. Without a
   * reference, the element itself on plain frames stands in for one. */
  const gchar *settings;
  GstVideoFormat format;
  ClTestRef ref;
  /* hostile: properties flipped while playing, with the frames they may
   * give, up to one without props (every property of the element's own
   * is flipped besides, over its range) */
  const ClTestFlip *flips;
  /* hostile: what the output carries besides its pixels, checked */
  gboolean (*check_output) (GstBuffer * in, GstBuffer * out,
                            const GstVideoInfo * info);

  /* faults: the settings and format of its pipeline */
  const gchar *fault_settings;
  GstVideoFormat fault_format;

  /* cuda: an analyser passes its input buffers on as they came, so system
   * memory in cannot leave as CUDA memory */
  gboolean passes_buffers;

  /* elements: properties of its own that change no pixel, so need not be
   * controllable */
  const gchar *uncontrolled[4];

  /* hostile: its frames depend on the frames before (cldenoise): the
   * suites that hold each frame to a frame's reference mark every buffer
   * DISCONT, which starts it afresh */
  gboolean stateful;
} ClTestElement;

const gchar *const * cl_test_element_names   (void);

ClTestElement       cl_test_element          (const gchar * name);

guint               cl_test_element_formats  (const gchar * name,
                                              GstVideoFormat * formats,
                                              guint max);

gboolean            cl_test_element_takes    (const gchar * name,
                                              GstVideoFormat format);

guint               cl_test_element_inputs   (const gchar * name,
                                              const gchar ** pads);

gboolean            cl_test_element_is_filter (const gchar * name);

gboolean            cl_test_is_own_property  (const GParamSpec * pspec);

G_END_DECLS
