/* gstclfilters tests: what each element's tests need that it cannot say
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "clcases.h"
#include "gstclelements.h"

#include <string.h>

#define NV12 GST_VIDEO_FORMAT_NV12
#define RGBA GST_VIDEO_FORMAT_RGBA

/* ---- the references the table names ---- */

/* the frame itself: an identity setting, or a pass-through element */
static void
ref_copy (const GstVideoFrame * in, guint plane, guint8 * out,
    gint out_stride, gpointer user_data)
{
  ClRefPlane p;

  cl_test_plane_of (in, plane, &p);
  for (gint y = 0; y < p.height; y++)
    memcpy (out + (gsize) y * out_stride, p.data + (gsize) y * p.stride,
        (gsize) p.width * p.pstride);
}

/* clcomposite with sink_1::alpha=0, its background brightened or darkened
 * all over.
 * out = clamp (A + g), g on R, G, B and Y only (docs/clcomposite.md) */
static void
ref_gamma (const GstVideoFrame * in, guint plane, guint8 * out,
    gint out_stride, gpointer user_data)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gint gamma = GPOINTER_TO_INT (user_data);
  ClRefPlane p;

  cl_test_plane_of (in, plane, &p);
  ref_copy (in, plane, out, out_stride, NULL);
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    gint g = c == GST_VIDEO_COMP_A || (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) &&
        c != 0) ? 0 : gamma;

    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != plane)
      continue;
    for (gint y = 0; y < p.height; y++)
      for (gint x = 0; x < p.width; x++) {
        guint8 *o = out + (gsize) y * out_stride + x * p.pstride +
            GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);

        *o = CLAMP (*o + g, 0, 255);
      }
  }
}

/* Whether the luma sums of clintegral's meta on @out are those of @in's
 * luma. */
static gboolean
integral_sums_right (GstBuffer * in, GstBuffer * out, const GstVideoInfo * info)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (out, "GstClIntegralMeta");
  GstBuffer *sum = NULL;
  GstVideoFrame frame;
  GstMapInfo map;
  gint stride = 0;
  gboolean right = TRUE;

  if (!meta || !gst_structure_get (gst_custom_meta_get_structure (meta), "sum",
          GST_TYPE_BUFFER, &sum, "stride", G_TYPE_INT, &stride, NULL))
    return FALSE;
  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, in,
          GST_MAP_READ));
  fail_unless (gst_buffer_map (sum, &map, GST_MAP_READ));
  for (gint y = 0; y < info->height && right; y++) {
    guint32 row = 0;

    for (gint x = 0; x < info->width && right; x++) {
      /* the luma where it lies: in the packed formats every other byte */
      const guint8 *luma = GST_VIDEO_FRAME_COMP_DATA (&frame, 0);
      guint32 above = y ? ((guint32 *) (map.data + (gsize) (y - 1) *
              stride))[x] : 0;

      row += luma[(gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (&frame, 0) +
          (gsize) x * GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, 0)];
      right = ((guint32 *) (map.data + (gsize) y * stride))[x] == above + row;
    }
  }
  gst_buffer_unmap (sum, &map);
  gst_buffer_unref (sum);
  gst_video_frame_unmap (&frame);
  return right;
}

/* ---- the table: only what the elements cannot say of themselves ---- */

#define REF(func, data) {func, (gconstpointer) (data)}
#define COPY REF (ref_copy, NULL)
#define BOXBLUR(d) REF (cl_test_ref_boxblur, GUINT_TO_POINTER (d))
#define SOBEL(mode) REF (cl_test_ref_sobel, GUINT_TO_POINTER (mode))
/* a file's compound literal lives as long as the program */
#define EPSILON(t, d) REF (cl_test_ref_epsilon, &((const ClTestEpsilon) {t, d}))
#define GAMMA(g) REF (ref_gamma, GINT_TO_POINTER (g))

static const gchar *const boxblur_props[] = { "diameter", "1", "2", "3",
  "254", "255", NULL, "variant", "reference", "optimized", NULL, NULL
};

/* 1 passes the frame through */
static const ClTestFlip boxblur_flips[] = {
  {NV12, boxblur_props, {COPY, BOXBLUR (3), BOXBLUR (255)}},
  {0}
};

static const gchar *const sobel_props[] = { "mode", "l1", "l2", "x", "y",
  NULL, "variant", "reference", "optimized", NULL, NULL
};

static const ClTestFlip sobel_flips[] = {
  {NV12, sobel_props, {SOBEL (CL_REF_SOBEL_L1), SOBEL (CL_REF_SOBEL_L2),
          SOBEL (CL_REF_SOBEL_X), SOBEL (CL_REF_SOBEL_Y)}},
  {0}
};

static const gchar *const epsilon_props[] = { "threshold", "0", "1", "255",
  NULL, "diameter", "1", "2", "15", NULL, "variant", "reference",
  "optimized", NULL, NULL
};

/* the identity (threshold 0), and each threshold with each diameter */
static const ClTestFlip epsilon_flips[] = {
  {NV12, epsilon_props, {COPY, EPSILON (1, 3), EPSILON (1, 15),
          EPSILON (255, 3), EPSILON (255, 15)}},
  {0}
};

static const gchar *const integral_props[] = { "squared", "true", "false",
  NULL, "variant", "reference", "optimized", NULL, NULL
};

static const ClTestFlip integral_flips[] = {
  {NV12, integral_props, {COPY}},
  {0}
};

/* wherever the overlay goes, whatever its size */
static const gchar *const composite_props[] = { "gamma", "-255", "255", NULL,
  "operator", "blend", "over", NULL, "variant", "reference", "optimized",
  NULL, "sink_1::xpos", "-2147483648", "2147483647", "-7", "0", "20", NULL,
  "sink_1::ypos", "-2147483648", "2147483647", "-3", "0", "9", NULL,
  "sink_1::width", "0", "1", "7", "100", "2147483647", NULL,
  "sink_1::height", "-1", "3", "50", "2147483647", NULL, NULL
};

/* and alpha too, the overlay's and the element's deprecated one */
static const gchar *const composite_alpha_props[] = { "sink_1::alpha", "0",
  "1", "0.5", NULL, "alpha", "0", "0.3", "1", NULL, "gamma", "-255", "0",
  "255", NULL, "sink_1::xpos", "-2147483648", "2147483647", "-7", "20", NULL,
  "sink_1::ypos", "-2147483648", "2147483647", "9", NULL, "sink_1::width",
  "0", "13", "80", NULL, NULL
};

/* with sink_1::alpha=0, the background brightened or darkened all over;
 * and frames of the right size as alpha flips too */
static const ClTestFlip composite_flips[] = {
  {RGBA, composite_props, {GAMMA (-255), GAMMA (255)}},
  {RGBA, composite_alpha_props, {}},
  {NV12, composite_props, {GAMMA (-255), GAMMA (255)}},
  {NV12, composite_alpha_props, {}},
  {0}
};

static const ClTestElement table[] = {
  {
        .name = "clboxblur",
        .settings = "diameter=5",
        .format = NV12,
        .ref = BOXBLUR (5),
        .flips = boxblur_flips,
        .fault_settings = "diameter=3",
      },
  {
        .name = "clcomposite",
        /* with sink_1::alpha=0 its output is its background, whatever the
         * overlay */
        .settings = "sink_1::alpha=0",
        .ref = COPY,
        .flips = composite_flips,
        .fault_settings = "sink_1::xpos=9 sink_1::ypos=-3",
      },
  {
        .name = "cldenoise",
        /* over time: its own suite runs sequences (tests/test_denoise.c) */
        .stateful = TRUE,
        /* the motion's search and move among the calls that fail */
        .fault_settings = "motion=true",
      },
  {
        .name = "clepsilon",
        .ref = EPSILON (20, 9),
        .flips = epsilon_flips,
        .fault_settings = "threshold=60",
      },
  {
        .name = "clintegral",
        /* the video passes through; the sums are checked besides */
        .ref = COPY,
        .flips = integral_flips,
        .check_output = integral_sums_right,
        .fault_settings = "squared=true",
        .passes_buffers = TRUE,
        /* it adds a table, and changes no pixel */
        .uncontrolled = {"squared"},
      },
  {
        .name = "clsobel",
        .format = GST_VIDEO_FORMAT_I420,
        .ref = SOBEL (CL_REF_SOBEL_L1),
        .flips = sobel_flips,
        .fault_format = NV12,
      },
};

/* ---- the list, and what the elements say of themselves ---- */

#define NAME(name) #name,
static const gchar *const names[] = { GST_CL_ELEMENTS (NAME) NULL };

#undef NAME

/**
 * cl_test_element_names:
 *
 * The plugin's elements, by name, %NULL-terminated: GST_CL_ELEMENTS.
 */
const gchar *const *
cl_test_element_names (void)
{
  return names;
}

/* The helpers below fail only where something is wrong, not by
 * fail_unless (), which marks a point even where nothing is: they also run
 * outside any test, in the benchmark and as a suite is made. */
static GstElementFactory *
factory_of (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (!f)
    fail ("no element %s", name);
  return f;
}

/* its first sink pad template */
static GstStaticPadTemplate *
sink_template (GstElementFactory * f)
{
  for (const GList * l = gst_element_factory_get_static_pad_templates (f); l;
      l = l->next) {
    GstStaticPadTemplate *t = l->data;

    if (t->direction == GST_PAD_SINK)
      return t;
  }
  return NULL;
}

/**
 * cl_test_element_formats:
 *
 * Fills @formats with up to @max of the formats @name takes, in the order
 * of its sink pad template; returns how many.
 */
guint
cl_test_element_formats (const gchar * name, GstVideoFormat * formats,
    guint max)
{
  GstElementFactory *f = factory_of (name);
  GstStaticPadTemplate *t = sink_template (f);
  GstCaps *caps;
  const GValue *v;
  guint n = 0;

  if (!t)
    fail ("%s has no sink pad", name);
  caps = gst_static_pad_template_get_caps (t);
  v = gst_structure_get_value (gst_caps_get_structure (caps, 0), "format");
  if (!v)
    fail ("%s: no format in %" GST_PTR_FORMAT, name, caps);
  if (G_VALUE_HOLDS_STRING (v)) {
    if (max)
      formats[n++] = gst_video_format_from_string (g_value_get_string (v));
  } else {
    for (guint i = 0; i < gst_value_list_get_size (v) && n < max; i++)
      formats[n++] = gst_video_format_from_string (g_value_get_string
          (gst_value_list_get_value (v, i)));
  }
  gst_caps_unref (caps);
  gst_object_unref (f);
  return n;
}

gboolean
cl_test_element_takes (const gchar * name, GstVideoFormat format)
{
  GstVideoFormat formats[64];
  guint n = cl_test_element_formats (name, formats, G_N_ELEMENTS (formats));

  for (guint i = 0; i < n; i++)
    if (formats[i] == format)
      return TRUE;
  return FALSE;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar **) a, *(const gchar **) b);
}

/**
 * cl_test_element_inputs:
 * @pads: (out): CL_TEST_MAX_INPUTS names
 *
 * The sink pads of @name to link, as a launch line names them: each pad it
 * always has, in the order of their names (sink_0 before sink_1), and two
 * of each template of pads on request (sink_%u, which gives a new pad each
 * time). Returns how many.
 */
guint
cl_test_element_inputs (const gchar * name, const gchar ** pads)
{
  GstElementFactory *f = factory_of (name);
  guint n = 0;

  for (const GList * l = gst_element_factory_get_static_pad_templates (f); l;
      l = l->next) {
    GstStaticPadTemplate *t = l->data;

    if (t->direction == GST_PAD_SINK && t->presence == GST_PAD_ALWAYS) {
      if (n == CL_TEST_MAX_INPUTS)
        fail ("%s: more inputs than CL_TEST_MAX_INPUTS", name);
      pads[n++] = t->name_template;
    }
  }
  qsort (pads, n, sizeof (pads[0]), compare_names);
  for (const GList * l = gst_element_factory_get_static_pad_templates (f); l;
      l = l->next) {
    GstStaticPadTemplate *t = l->data;

    if (t->direction == GST_PAD_SINK && t->presence == GST_PAD_REQUEST)
      for (guint i = 0; i < 2; i++) {
        if (n == CL_TEST_MAX_INPUTS)
          fail ("%s: more inputs than CL_TEST_MAX_INPUTS", name);
        pads[n++] = t->name_template;
      }
  }
  if (n == 0)
    fail ("%s has no input", name);
  gst_object_unref (f);
  return n;
}

/**
 * cl_test_element_is_filter:
 *
 * Whether @name is a filter of one input, a GstBaseTransform; else it is
 * an aggregator (clcomposite).
 */
gboolean
cl_test_element_is_filter (const gchar * name)
{
  GstElementFactory *f = factory_of (name);
  GType type;

  /* the type of a factory not loaded yet is known once it is */
  gst_object_unref (gst_plugin_feature_load (GST_PLUGIN_FEATURE (f)));
  type = gst_element_factory_get_element_type (f);
  gst_object_unref (f);
  return g_type_is_a (type, GST_TYPE_BASE_TRANSFORM);
}

/**
 * cl_test_is_own_property:
 *
 * Whether @pspec is installed by one of the plugin's own classes, an
 * element's or a pad's, rather than by GStreamer's.
 */
gboolean
cl_test_is_own_property (const GParamSpec * pspec)
{
  return g_str_has_prefix (g_type_name (pspec->owner_type), "GstCl");
}

/**
 * cl_test_element:
 *
 * @name's entry of the table, its defaults filled in: no settings, and the
 * first format its template gives. An element without an entry gets the
 * defaults alone, as every element does with CL_TEST_DEFAULTS=1 set (to see
 * what the generic checks do with a new one).
 */
ClTestElement
cl_test_element (const gchar * name)
{
  ClTestElement e = {.name = name };
  GstVideoFormat first;

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_equal (table[i].name, name) && !g_getenv ("CL_TEST_DEFAULTS"))
      e = table[i];
  if (cl_test_element_formats (name, &first, 1) != 1)
    fail ("%s takes no format", name);
  if (!e.settings)
    e.settings = "";
  if (e.format == GST_VIDEO_FORMAT_UNKNOWN)
    e.format = first;
  if (!e.fault_settings)
    e.fault_settings = "";
  if (e.fault_format == GST_VIDEO_FORMAT_UNKNOWN)
    e.fault_format = first;
  return e;
}
