/* gstclfilters: the benchmark's cases
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-cases.h"
#include "clcases.h"
#include "gstclelements.h"
#include "gstclepsilon.h"
#include "gstclsobel.h"
#include "cl/gstclplan.h"

#define RGBA GST_VIDEO_FORMAT_RGBA
#define GRAY8 GST_VIDEO_FORMAT_GRAY8
#define NV12 GST_VIDEO_FORMAT_NV12

/* clboxblur: the sizes and diameters, and the peers' d = 9; the naive reference is not
 * timed where its d x d loop takes seconds a frame */
#define BOX(d, w, h, skip_ref) \
  {"clboxblur", "diameter=" #d, RGBA, w, h, skip_ref, 0, FALSE}
/* and NV12, what cameras give: its luma and chroma planes of 1 and 2
 * bytes a pixel */
#define BOX_NV12(d) \
  {"clboxblur", "diameter=" #d, NV12, 3840, 2160, TRUE, 0, FALSE}
/* clsobel and clepsilon: the seeds' 3264x2448 and 4K */
#define SOBEL(mode, w, h) \
  {"clsobel", "mode=" #mode, GRAY8, w, h, FALSE, 0, FALSE}
#define EPSILON(t, d, w, h) \
  {"clepsilon", "threshold=" #t " diameter=" #d, NV12, w, h, FALSE, 0, FALSE}
/* clintegral: the tables stay on the device, as in a pipeline where nobody
 * maps them */
#define INTEGRAL(sq, w, h) \
  {"clintegral", "squared=" #sq, GRAY8, w, h, FALSE, 0, FALSE}
/* cldenoise: one set of kernels; its floor reads the frame and the last
 * output, and writes the output; the same frame again, every sample still,
 * and a new frame each time, every sample moving; and with the motion
 * followed, its search */
#define DENOISE(props, w, h, moving) \
  {"cldenoise", props, NV12, w, h, TRUE, 3, moving}
#define DENOISE_ALL(props) \
  DENOISE (props, 1920, 1080, FALSE), DENOISE (props, 3840, 2160, FALSE), \
  DENOISE (props, 1920, 1080, TRUE), DENOISE (props, 3840, 2160, TRUE)

static const BenchCase cases[] = {
  BOX (3, 1920, 1080, FALSE), BOX (5, 1920, 1080, FALSE),
  BOX (9, 1920, 1080, TRUE), BOX (11, 1920, 1080, FALSE), BOX (31, 1920, 1080,
      TRUE),
  BOX (101, 1920, 1080, TRUE),
  BOX (3, 3840, 2160, FALSE), BOX (5, 3840, 2160, FALSE),
  BOX (7, 3840, 2160, TRUE), BOX (9, 3840, 2160, TRUE),
  BOX (11, 3840, 2160, FALSE), BOX (13, 3840, 2160, TRUE),
  BOX (17, 3840, 2160, TRUE), BOX (31, 3840, 2160, TRUE),
  BOX (51, 3840, 2160, TRUE), BOX (101, 3840, 2160, TRUE),
  BOX_NV12 (9), BOX_NV12 (17), BOX_NV12 (25), BOX_NV12 (31),
  SOBEL (l1, 1920, 1080), SOBEL (l1, 3264, 2448), SOBEL (l2, 3264, 2448),
  SOBEL (l1, 3840, 2160), SOBEL (l2, 3840, 2160),
  EPSILON (20, 9, 1920, 1080), EPSILON (20, 9, 3264, 2448),
  EPSILON (20, 3, 3840, 2160), EPSILON (20, 5, 3840, 2160),
  EPSILON (20, 7, 3840, 2160), EPSILON (20, 9, 3840, 2160),
  EPSILON (20, 11, 3840, 2160), EPSILON (20, 13, 3840, 2160),
  EPSILON (20, 15, 3840, 2160),
  INTEGRAL (false, 1920, 1080), INTEGRAL (false, 3840, 2160),
  INTEGRAL (true, 3840, 2160),
  DENOISE_ALL ("noise-level=10"), DENOISE_ALL ("noise-level=10 motion=true"),
  {NULL, NULL, GST_VIDEO_FORMAT_UNKNOWN, 0, 0, FALSE, 0, FALSE}
};

static gboolean
has_cases (const gchar * factory)
{
  for (const BenchCase * c = cases; c->factory; c++)
    if (g_str_equal (c->factory, factory))
      return TRUE;
  return FALSE;
}

/* The cases above, and one for each filter of the list that has none there,
 * at 1080p in its first format with its defaults: a new element is timed
 * at once. clcomposite, an aggregator, is timed by bench.c's own table. */
const BenchCase *
bench_cases (void)
{
  static GArray *all;

  if (all)
    return (const BenchCase *) all->data;
  /* zero-terminated: the last case's factory is NULL */
  all = g_array_new (TRUE, TRUE, sizeof (BenchCase));
  g_array_append_vals (all, cases, G_N_ELEMENTS (cases) - 1);
  for (const gchar * const *name = cl_test_element_names (); *name; name++) {
    BenchCase c = { *name, "", GST_VIDEO_FORMAT_UNKNOWN, 1920, 1080, FALSE,
      0, FALSE
    };

    if (has_cases (*name) || !cl_test_element_is_filter (*name))
      continue;
    cl_test_element_formats (*name, &c.format, 1);
    g_array_append_val (all, c);
  }
  return (const BenchCase *) all->data;
}

/* the sweep's shapes, forced as GST_CL_PLAN would (gst/cl/gstclplan.c) */
static void
apply_plan (GstElement * element, const gchar * format, ...)
{
  va_list args;
  gchar *plan;

  va_start (args, format);
  plan = g_strdup_vprintf (format, args);
  va_end (args);
  if (!gst_cl_plan_set_override (element, plan))
    g_printerr ("%s takes no plan %s\n", GST_OBJECT_NAME (element), plan);
  g_free (plan);
}

static void
apply_sobel_tile (GstElement * element, guint m, guint n)
{
  apply_plan (element, "optimized/tile=%ux%u", m, n);
}

static void
apply_sobel_words (GstElement * element, guint m, guint n)
{
  apply_plan (element, "words/tile=%ux%u", m, n);
}

/* the optimized plans of clepsilon, by the names the sweep prints */
enum
{ vector, packed, tiled };
static const gchar *const epsilon_plans[] = {
  [vector] = "vector",
  [packed] = "packed",
  [tiled] = "tiled",
};

static void
apply_epsilon_kernel (GstElement * element, guint kernel, guint n)
{
  apply_plan (element, "%s/px=%u", epsilon_plans[kernel], n);
}

#define TILE(w, h, m, n) \
  {SOBEL (l1, w, h), #m "x" #n, apply_sobel_tile, m, n}
#define WORDS(w, h, n) \
  {SOBEL (l1, w, h), "words 4x" #n, apply_sobel_words, 4, n}
#define TILES(w, h) \
  TILE (w, h, 4, 1), TILE (w, h, 8, 1), TILE (w, h, 16, 1), \
  TILE (w, h, 2, 4), TILE (w, h, 4, 2), TILE (w, h, 8, 2), \
  TILE (w, h, 4, 8), TILE (w, h, 8, 8), \
  TILE (w, h, 4, 4), TILE (w, h, 8, 4), TILE (w, h, 16, 2), \
  TILE (w, h, 16, 4), TILE (w, h, 16, 8), TILE (w, h, 16, 16), \
  WORDS (w, h, 1), WORDS (w, h, 2), WORDS (w, h, 4), WORDS (w, h, 8), \
  WORDS (w, h, 16)
#define PIXELS(d, w, h, k, n) \
  {EPSILON (20, d, w, h), #k " " #n " px", apply_epsilon_kernel, k, n}
#define KERNEL_PIXELS(d, w, h, k) \
  PIXELS (d, w, h, k, 4), PIXELS (d, w, h, k, 8), PIXELS (d, w, h, k, 16)
#define ALL_PIXELS(d, w, h) KERNEL_PIXELS (d, w, h, vector), \
  KERNEL_PIXELS (d, w, h, packed), KERNEL_PIXELS (d, w, h, tiled)

static const BenchTuning tunings[] = {
  TILES (3264, 2448), TILES (3840, 2160),
  ALL_PIXELS (9, 3264, 2448), ALL_PIXELS (5, 3840, 2160),
  ALL_PIXELS (9, 3840, 2160), ALL_PIXELS (15, 3840, 2160),
  {{NULL, NULL, GST_VIDEO_FORMAT_UNKNOWN, 0, 0, FALSE, 0, FALSE}, NULL, NULL, 0,
      0}
};

const BenchTuning *
bench_tunings (void)
{
  return tunings;
}

/* The benchmark links the elements in, and registers them statically. */
void
bench_register_elements (void)
{
#define REGISTER(name) GST_ELEMENT_REGISTER (name, NULL);
  GST_CL_ELEMENTS (REGISTER)
#undef REGISTER
}
