/* gstclfilters: an element's kernel plans, chosen for the device
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

typedef struct _GstClPlan GstClPlan;
typedef struct _GstClPlanQuery GstClPlanQuery;

/**
 * GstClPlanOverride:
 *
 * A plan forced on an element, and its tunables, as GST_CL_PLAN or
 * gst_cl_plan_set_override() give them. Opaque and immutable.
 */
typedef struct _GstClPlanOverride GstClPlanOverride;

/**
 * GstClPlanner:
 *
 * An element instance's plans: its table, the override it takes, the plan
 * its last frame went through. Opaque; it lives as long as the element.
 */
typedef struct _GstClPlanner GstClPlanner;

/**
 * GstClPlanFlags:
 * @GST_CL_PLAN_BUILT_FOR_SETTINGS: its programs are built for settings that
 *   may change while playing (a diameter): built when the caps are
 *   negotiated for the settings the stream starts with, in the background
 *   for those set later, a %GST_CL_PLAN_FALLBACK plan serving meanwhile
 * @GST_CL_PLAN_FALLBACK: serves, where it takes the settings, while the
 *   programs of the chosen plan build; built when first needed
 */
typedef enum
{
  GST_CL_PLAN_NONE = 0,
  GST_CL_PLAN_BUILT_FOR_SETTINGS = 1 << 0,
  GST_CL_PLAN_FALLBACK = 1 << 1,
} GstClPlanFlags;

/**
 * GstClPlanCondition:
 *
 * Reads @query's device capabilities, settings and, for a forced plan, its
 * tunables.
 */
typedef gboolean (*GstClPlanCondition) (const GstClPlanQuery * query);

/**
 * GstClPlanOptions:
 *
 * Writes the build options of @query's plan for @query's part of the
 * settings into @options, @size bytes.
 */
typedef void (*GstClPlanOptions) (const GstClPlanQuery * query,
                                  gchar * options, gsize size);

/**
 * GstClPlan:
 * @name: what GST_CL_PLAN and gst_cl_plan_set_override() call it
 * @id: the element's own number for it, for its dispatch
 * @takes: whether it can run: the device's limits, the settings its
 *   kernels take (%NULL: always). A forced plan runs wherever it takes the
 *   settings.
 * @prefers: whether it is the element's choice where it takes the
 *   settings (%NULL: never; only forced, or as the fallback)
 * @source: its program's source, one of the embedded kernels/ files
 * @kernel: the kernel it starts with
 * @options: its build options (%NULL: none)
 * @flags: #GstClPlanFlags
 * @tunables: the tunables an override may set, comma-separated ("run,group";
 *   %NULL: none), read with gst_cl_plan_get_int() and gst_cl_plan_get_size()
 *
 * One way of computing an element's output. Every plan of an element gives
 * the same output, bit for bit; they differ in speed on each device. An
 * element declares its plans as a static table, in the order they are
 * tried, ending with one whose @name is %NULL.
 */
struct _GstClPlan
{
  const gchar *name;
  guint id;
  GstClPlanCondition takes;
  GstClPlanCondition prefers;
  const gchar *source;
  const gchar *kernel;
  GstClPlanOptions options;
  GstClPlanFlags flags;
  const gchar *tunables;
};

/**
 * GstClPlanQuery:
 * @context: the device's context
 * @caps: its capabilities
 * @settings: the element's: what its plans' conditions and options read
 * @n_parts: the programs a plan makes of the settings (a plane each, say)
 * @part: the one asked about
 * @plan: the plan asked about; once chosen, the plan to run
 * @planner: the element's planner
 * @override: (nullable): the override in force as the query was made, so
 *   that one frame's choice and tunables agree while it changes
 *
 * What a plan is chosen for. gst_cl_plan_query_init() fills it.
 */
struct _GstClPlanQuery
{
  GstClContext *context;
  const GstClDeviceCaps *caps;
  gconstpointer settings;
  guint n_parts;
  guint part;
  const GstClPlan *plan;
  GstClPlanner *planner;
  const GstClPlanOverride *override;
};

GstClPlanner *    gst_cl_plan_attach (GstElement * element,
                                      const gchar * name,
                                      const GstClPlan * plans);

void              gst_cl_plan_query_init (GstClPlanQuery * query,
                                          GstClPlanner * planner,
                                          GstClContext * context,
                                          gconstpointer settings,
                                          guint n_parts);

const GstClPlan * gst_cl_plan_prepare (GstClPlanQuery * query,
                                       GError ** error);

void              gst_cl_plan_set_prebuild (GstElement * element,
                                            gboolean prebuild);

const GstClPlan * gst_cl_plan_select (GstClPlanQuery * query);

void              gst_cl_plan_get_options (const GstClPlanQuery * query,
                                           guint part, gchar * options,
                                           gsize size);

gint              gst_cl_plan_get_int (const GstClPlanQuery * query,
                                       const gchar * tunable,
                                       gint default_value);

gboolean          gst_cl_plan_get_size (const GstClPlanQuery * query,
                                        const gchar * tunable,
                                        gint * width, gint * height);

gboolean          gst_cl_plan_always (const GstClPlanQuery * query);

/* for tests and benchmarks */
gboolean          gst_cl_plan_set_override (GstElement * element,
                                            const gchar * plan);

const gchar *     gst_cl_plan_get_current (GstElement * element);

G_END_DECLS
