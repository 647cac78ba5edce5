/* gstclfilters: an element's kernel plans, chosen for the device
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An element declares its plans, the ways it has of computing its output,
 * as a static table (gstclplan.h); here the first one the device and the
 * settings call for is chosen, its programs built, and, where a setting
 * changed while playing needs a program of its own, a fallback serves until
 * that program is built in the background. Tests and benchmarks force a
 * plan, and set its tunables, through one mechanism for every element:
 *
 *   GST_CL_PLAN=clboxblur:scan,clepsilon:tiled/px=8,clsobel:words/tile=4x16
 *
 * names, for each element (its factory name), the plan to take and after
 * it, each behind a '/', the tunables it declares, as NAME=N or
 * NAME=WxH. gst_cl_plan_set_override() sets the same for one instance. A
 * forced plan runs wherever it takes the settings, whatever the device
 * would prefer; where it does not, the element's own choice runs.
 */
#include "gstclplan.h"
#include "gstclprogram.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_plan_debug);
#define GST_CAT_DEFAULT gst_cl_plan_debug

static void
ensure_debug_category (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_plan_debug, "clplan", 0,
        "OpenCL kernel plans");
    g_once_init_leave (&done, 1);
  }
}

#define PLAN_OPTIONS_SIZE 256
#define GST_CL_PLAN_TUNING_SIZE 64

struct _GstClPlanner
{
  /* no reference: the planner is the element's, freed with it */
  GstElement *element;
  const gchar *name;
  const GstClPlan *plans;

  GMutex lock;
  /* the override: a plan and its tunables; NULL for none */
  const GstClPlanOverride *override;
  /* every override set, kept as long as the planner: a query may still
   * read one that was replaced */
  GPtrArray *overrides;
  /* that a forced plan that does not take the settings was reported, since
   * the caps or the override last changed */
  gboolean warned;
  /* the plan the last frame went through */
  const GstClPlan *current;
  /* gst_cl_plan_set_prebuild()'s: prepare only starts builds */
  gboolean prebuild;

  /* the streaming thread's alone: the programs last found built, so that
   * a frame like the one before asks no more */
  gchar *built_key;
};

/* what GST_CL_PLAN or gst_cl_plan_set_override() forces, immutable */
struct _GstClPlanOverride
{
  const GstClPlan *plan;
  gchar tuning[GST_CL_PLAN_TUNING_SIZE];
};

/* With the lock held, or before anyone else sees @planner: @forced and
 * @tuning from now on, or none where @forced is NULL */
static void
set_override (GstClPlanner * planner, const GstClPlan * forced,
    const gchar * tuning)
{
  GstClPlanOverride *override = NULL;

  if (forced) {
    override = g_new0 (GstClPlanOverride, 1);
    override->plan = forced;
    g_strlcpy (override->tuning, tuning, sizeof (override->tuning));
    g_ptr_array_add (planner->overrides, override);
  }
  planner->override = override;
}

static GQuark
planner_quark (void)
{
  static GQuark quark = 0;

  if (!quark)
    quark = g_quark_from_static_string ("gst-cl-planner");
  return quark;
}

static void
planner_free (gpointer data)
{
  GstClPlanner *planner = data;

  g_mutex_clear (&planner->lock);
  g_ptr_array_unref (planner->overrides);
  g_free (planner->built_key);
  g_free (planner);
}

static const GstClPlan *
find_plan (const GstClPlan * plans, const gchar * name, gsize len)
{
  for (const GstClPlan * p = plans; p->name; p++)
    if (strlen (p->name) == len && strncmp (p->name, name, len) == 0)
      return p;
  return NULL;
}

/* whether @name, @len bytes, is one of @plan's tunables */
static gboolean
declares_tunable (const GstClPlan * plan, const gchar * name, gsize len)
{
  const gchar *t = plan->tunables;

  while (t && *t) {
    const gchar *end = strchr (t, ',');
    gsize n = end ? (gsize) (end - t) : strlen (t);

    if (n == len && strncmp (t, name, len) == 0)
      return TRUE;
    t = end ? end + 1 : NULL;
  }
  return FALSE;
}

/* a tunable's value: N, or WxH; every number from 1 up */
static gboolean
parse_value (const gchar * value, gint * a, gint * b)
{
  gchar *end;
  gint64 n = g_ascii_strtoll (value, &end, 10);

  if (end == value || n < 1 || n > G_MAXINT)
    return FALSE;
  *a = (gint) n;
  *b = 0;
  if (*end == 'x') {
    const gchar *second = end + 1;

    n = g_ascii_strtoll (second, &end, 10);
    if (end == second || n < 1 || n > G_MAXINT)
      return FALSE;
    *b = (gint) n;
  }
  return *end == '\0' || *end == '/';
}

/* "plan[/tunable=value]...", @len bytes, into @plan and @tuning (its
 * tunables as written); FALSE, with the reason in @why, where it names
 * no plan of @planner's or a tunable its plan does not declare */
static gboolean
parse_spec (GstClPlanner * planner, const gchar * spec, gsize len,
    const GstClPlan ** plan, gchar tuning[GST_CL_PLAN_TUNING_SIZE],
    gchar ** why)
{
  const gchar *slash = memchr (spec, '/', len);
  gsize name_len = slash ? (gsize) (slash - spec) : len;
  gchar *copy;

  *plan = find_plan (planner->plans, spec, name_len);
  if (!*plan) {
    GString *names = g_string_new (NULL);

    for (const GstClPlan * p = planner->plans; p->name; p++)
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", p->name);
    *why = g_strdup_printf ("%s has no plan \"%.*s\" (it has %s)",
        planner->name, (gint) name_len, spec, names->str);
    g_string_free (names, TRUE);
    return FALSE;
  }
  tuning[0] = '\0';
  if (!slash)
    return TRUE;
  if (len - name_len - 1 >= GST_CL_PLAN_TUNING_SIZE) {
    *why = g_strdup_printf ("the tunables of %s:%.*s are too long",
        planner->name, (gint) len, spec);
    return FALSE;
  }
  copy = g_strndup (slash + 1, len - name_len - 1);
  for (const gchar * t = copy; t && *t;) {
    const gchar *eq = strchr (t, '=');
    const gchar *end = strchr (t, '/');
    gint a, b;

    if (!eq || (end && end < eq) || !declares_tunable (*plan, t, eq - t) ||
        !parse_value (eq + 1, &a, &b)) {
      *why = g_strdup_printf ("\"%.*s\" is not a tunable of %s:%s as "
          "NAME=N or NAME=WxH (its tunables: %s)",
          end ? (gint) (end - t) : (gint) strlen (t), t, planner->name,
          (*plan)->name, (*plan)->tunables ? (*plan)->tunables : "none");
      g_free (copy);
      return FALSE;
    }
    t = end ? end + 1 : NULL;
  }
  g_strlcpy (tuning, copy, GST_CL_PLAN_TUNING_SIZE);
  g_free (copy);
  return TRUE;
}

/* @planner's entry of GST_CL_PLAN, if any */
static void
read_environment (GstClPlanner * planner)
{
  const gchar *env = g_getenv ("GST_CL_PLAN");
  gsize name_len = strlen (planner->name);

  for (const gchar * e = env; e && *e;) {
    const gchar *end = strchr (e, ',');
    gsize len = end ? (gsize) (end - e) : strlen (e);

    if (len > name_len && e[name_len] == ':' &&
        strncmp (e, planner->name, name_len) == 0) {
      gchar tuning[GST_CL_PLAN_TUNING_SIZE] = "";
      const GstClPlan *forced = NULL;
      gchar *why = NULL;

      if (parse_spec (planner, e + name_len + 1, len - name_len - 1,
              &forced, tuning, &why)) {
        set_override (planner, forced, tuning);
      } else {
        GST_WARNING ("GST_CL_PLAN: %s; %s makes its own choice", why,
            planner->name);
        g_free (why);
      }
      return;
    }
    e = end ? end + 1 : NULL;
  }
}

/**
 * gst_cl_plan_attach:
 * @element: the element instance, from its init function
 * @name: its factory name, which GST_CL_PLAN names it by
 * @plans: its plans, in the order they are tried, the last one's name %NULL
 *
 * Gives @element its planner, which takes @element's entry of GST_CL_PLAN
 * as the environment has it now, and lives as long as @element.
 *
 * Returns: (transfer none): the planner
 */
GstClPlanner *
gst_cl_plan_attach (GstElement * element, const gchar * name,
    const GstClPlan * plans)
{
  GstClPlanner *planner;

  g_return_val_if_fail (GST_IS_ELEMENT (element), NULL);
  g_return_val_if_fail (name && plans && plans->name, NULL);

  ensure_debug_category ();
  planner = g_new0 (GstClPlanner, 1);
  planner->element = element;
  planner->name = name;
  planner->plans = plans;
  g_mutex_init (&planner->lock);
  planner->overrides = g_ptr_array_new_with_free_func (g_free);
  read_environment (planner);
  g_object_set_qdata_full (G_OBJECT (element), planner_quark (), planner,
      planner_free);
  return planner;
}

/**
 * gst_cl_plan_set_prebuild:
 * @element: an element, with a planner or not
 *
 * While @prebuild is %TRUE, gst_cl_plan_prepare() on @element's planner
 * chooses the plan for caps foreseen before they come, starts building its
 * programs in the background and returns: the element's set_info() then
 * runs ahead of the caps (gst_cl_base_filter's READY to PAUSED), and the
 * first frame waits only for what is left of those builds.
 */
void
gst_cl_plan_set_prebuild (GstElement * element, gboolean prebuild)
{
  GstClPlanner *planner = g_object_get_qdata (G_OBJECT (element),
      planner_quark ());

  if (!planner)
    return;
  g_mutex_lock (&planner->lock);
  planner->prebuild = prebuild;
  g_mutex_unlock (&planner->lock);
}

/**
 * gst_cl_plan_query_init:
 * @settings: the element's settings for the frame (or the caps), kept by
 *   the caller as long as @query is used
 * @n_parts: the programs a plan makes of @settings, at least 1
 *
 * Readies @query for gst_cl_plan_prepare() or gst_cl_plan_select().
 */
void
gst_cl_plan_query_init (GstClPlanQuery * query, GstClPlanner * planner,
    GstClContext * context, gconstpointer settings, guint n_parts)
{
  g_return_if_fail (query && planner && GST_IS_CL_CONTEXT (context));

  memset (query, 0, sizeof (*query));
  query->context = context;
  query->caps = gst_cl_context_get_caps (context);
  query->settings = settings;
  query->n_parts = MAX (n_parts, 1);
  query->planner = planner;
  g_mutex_lock (&planner->lock);
  query->override = planner->override;
  g_mutex_unlock (&planner->lock);
}

/* the plan @query's override forces, or NULL */
static const GstClPlan *
forced_plan (const GstClPlanQuery * query)
{
  return query->override ? query->override->plan : NULL;
}

/* whether @plan takes every part of @query's settings */
static gboolean
takes (GstClPlanQuery * query, const GstClPlan * plan)
{
  gboolean ok = TRUE;

  query->plan = plan;
  for (guint part = 0; ok && part < query->n_parts; part++) {
    query->part = part;
    ok = !plan->takes || plan->takes (query);
  }
  query->part = 0;
  return ok;
}

/* the forced plan where it takes the settings, else the first plan that
 * prefers them and takes them, else the last plan */
static const GstClPlan *
choose (GstClPlanQuery * query)
{
  GstClPlanner *planner = query->planner;
  const GstClPlan *plan, *last = NULL;

  if (forced_plan (query) && takes (query, forced_plan (query)))
    return forced_plan (query);
  for (plan = planner->plans; plan->name; plan++) {
    last = plan;
    query->plan = plan;
    if (plan->prefers && plan->prefers (query) && takes (query, plan))
      break;
  }
  if (!plan->name)
    plan = last;
  if (forced_plan (query)) {
    gboolean warn;

    g_mutex_lock (&planner->lock);
    warn = !planner->warned;
    planner->warned = TRUE;
    g_mutex_unlock (&planner->lock);
    if (warn)
      GST_WARNING_OBJECT (planner->element, "the plan %s, forced, cannot run "
          "on %s with these settings: %s instead", forced_plan (query)->name,
          gst_cl_context_get_device_name (query->context), plan->name);
  }
  return plan;
}

/* the first fallback plan that takes @query's settings, or NULL */
static const GstClPlan *
fallback (GstClPlanQuery * query)
{
  for (const GstClPlan * plan = query->planner->plans; plan->name; plan++)
    if ((plan->flags & GST_CL_PLAN_FALLBACK) && takes (query, plan))
      return plan;
  return NULL;
}

/**
 * gst_cl_plan_get_options:
 * @part: which of the settings' parts
 *
 * The build options of @query's plan for @part of its settings.
 */
void
gst_cl_plan_get_options (const GstClPlanQuery * query, guint part,
    gchar * options, gsize size)
{
  GstClPlanQuery q = *query;

  g_return_if_fail (query->plan && size > 0);

  q.part = part;
  options[0] = '\0';
  if (q.plan->options)
    q.plan->options (&q, options, size);
}

/* the options of every part of @query's plan, one a line, after the
 * context and the source they are built on */
static gchar *
programs_key (const GstClPlanQuery * query)
{
  GString *key = g_string_new (NULL);
  gchar options[PLAN_OPTIONS_SIZE];

  g_string_append_printf (key, "%p|%p", query->context, query->plan->source);
  for (guint part = 0; part < query->n_parts; part++) {
    gst_cl_plan_get_options (query, part, options, sizeof (options));
    g_string_append_printf (key, "\n%s", options);
  }
  return g_string_free (key, FALSE);
}

/* Whether every program of @query's plan is built; those that are not
 * are built in the background, all at once. */
static gboolean
programs_ready (const GstClPlanQuery * query)
{
  gchar options[PLAN_OPTIONS_SIZE];
  gboolean ready = TRUE;

  for (guint part = 0; part < query->n_parts; part++) {
    gst_cl_plan_get_options (query, part, options, sizeof (options));
    ready &= gst_cl_program_ready (query->context, query->plan->source,
        options);
  }
  return ready;
}

static void
set_current (GstClPlanner * planner, const GstClPlan * plan)
{
  g_mutex_lock (&planner->lock);
  planner->current = plan;
  g_mutex_unlock (&planner->lock);
}

/**
 * gst_cl_plan_prepare:
 * @query: the settings the stream starts with, as gst_cl_plan_query_init()
 *   made it
 *
 * Chooses the plan for the caps just negotiated, as gst_cl_plan_select()
 * does for a frame, and builds its programs now where they are built for
 * the settings, so that no frame waits for them; the fallback's, for
 * settings changed while playing, start building in the background.
 * Sets @query's plan.
 *
 * Returns: (nullable): the plan; %NULL where its build failed
 */
const GstClPlan *
gst_cl_plan_prepare (GstClPlanQuery * query, GError ** error)
{
  GstClPlanner *planner;
  const GstClPlan *plan, *back;
  gchar options[PLAN_OPTIONS_SIZE];
  gboolean prebuild;

  g_return_val_if_fail (query && query->planner, NULL);

  planner = query->planner;
  g_mutex_lock (&planner->lock);
  prebuild = planner->prebuild;
  g_mutex_unlock (&planner->lock);
  /* caps foreseen: the plan's programs start building, whatever its flags,
   * and nothing else changes */
  if (prebuild) {
    query->plan = plan = choose (query);
    GST_DEBUG_OBJECT (planner->element, "plan %s built ahead of the caps",
        plan->name);
    programs_ready (query);
    return plan;
  }
  g_mutex_lock (&planner->lock);
  planner->warned = FALSE;
  g_mutex_unlock (&planner->lock);
  g_clear_pointer (&planner->built_key, g_free);

  plan = choose (query);
  GST_DEBUG_OBJECT (planner->element, "plan %s%s", plan->name,
      plan == forced_plan (query) ? " (forced)" : "");
  if (plan->flags & GST_CL_PLAN_BUILT_FOR_SETTINGS) {
    back = fallback (query);
    if (back && back != plan) {
      query->plan = back;
      programs_ready (query);
    }
    query->plan = plan;
    for (guint part = 0; part < query->n_parts; part++) {
      gst_cl_plan_get_options (query, part, options, sizeof (options));
      if (!gst_cl_program_get (query->context, plan->source, options, NULL,
              error))
        return NULL;
    }
    planner->built_key = programs_key (query);
  }
  query->plan = plan;
  return plan;
}

/**
 * gst_cl_plan_select:
 *
 * Chooses the plan for a frame of @query's settings: the forced one where
 * it takes them, else the first that prefers and takes them. Where the
 * programs of that plan are built for the settings and are not built yet,
 * as after a setting changed while playing, they build in the background
 * and the fallback serves meanwhile. Sets @query's plan.
 *
 * Returns: the plan to run
 */
const GstClPlan *
gst_cl_plan_select (GstClPlanQuery * query)
{
  GstClPlanner *planner;
  const GstClPlan *plan;

  g_return_val_if_fail (query && query->planner, NULL);

  planner = query->planner;
  plan = choose (query);
  query->plan = plan;
  if (plan->flags & GST_CL_PLAN_BUILT_FOR_SETTINGS) {
    gchar *key = programs_key (query);

    if (g_strcmp0 (key, planner->built_key) == 0) {
      g_free (key);
    } else if (programs_ready (query)) {
      GST_DEBUG_OBJECT (planner->element, "plan %s built for new settings",
          plan->name);
      g_free (planner->built_key);
      planner->built_key = key;
    } else {
      const GstClPlan *back = fallback (query);

      g_free (key);
      if (back) {
        GST_LOG_OBJECT (planner->element, "plan %s while %s builds",
            back->name, plan->name);
        plan = back;
      }
      query->plan = plan;
    }
  }
  set_current (planner, plan);
  return plan;
}

/* @query's tunable @name, if its plan is the forced one and sets it */
static const gchar *
find_tunable (const GstClPlanQuery * query, const gchar * name)
{
  gsize len = strlen (name);

  if (!query->plan || query->plan != forced_plan (query))
    return NULL;
  for (const gchar * t = query->override->tuning; t && *t;) {
    const gchar *end = strchr (t, '/');

    if (strncmp (t, name, len) == 0 && t[len] == '=')
      return t + len + 1;
    t = end ? end + 1 : NULL;
  }
  return NULL;
}

/**
 * gst_cl_plan_get_int:
 *
 * Returns: @tunable as set for @query's plan, forced, or @default_value
 */
gint
gst_cl_plan_get_int (const GstClPlanQuery * query, const gchar * tunable,
    gint default_value)
{
  const gchar *value = find_tunable (query, tunable);
  gint a, b;

  return value && parse_value (value, &a, &b) ? a : default_value;
}

/**
 * gst_cl_plan_get_size:
 * @width: (out): set where the tunable is set
 * @height: (out): likewise; 0 where it was set as a number alone
 *
 * Returns: whether @tunable is set, as WxH or N, for @query's plan, forced
 */
gboolean
gst_cl_plan_get_size (const GstClPlanQuery * query, const gchar * tunable,
    gint * width, gint * height)
{
  const gchar *value = find_tunable (query, tunable);
  gint a, b;

  if (!value || !parse_value (value, &a, &b))
    return FALSE;
  *width = a;
  *height = b;
  return TRUE;
}

/**
 * gst_cl_plan_always:
 *
 * A #GstClPlanCondition: the plan to take where none before it applies.
 */
gboolean
gst_cl_plan_always (const GstClPlanQuery * query)
{
  return TRUE;
}

static GstClPlanner *
get_planner (GstElement * element)
{
  return g_object_get_qdata (G_OBJECT (element), planner_quark ());
}

/**
 * gst_cl_plan_set_override:
 * @plan: (nullable): "plan" or "plan/tunable=value/...", as after the
 *   element's name in GST_CL_PLAN, or %NULL for the element's own choice
 *
 * Forces a plan of @element, as GST_CL_PLAN does for every instance, from
 * the next frame on (through the fallback until its programs are built,
 * as for a setting changed while playing; set before the caps, they are
 * built with them). For tests and benchmarks.
 *
 * Returns: %FALSE, leaving the override as it was, where @element has no
 *   such plan or its plan no such tunable
 */
gboolean
gst_cl_plan_set_override (GstElement * element, const gchar * plan)
{
  GstClPlanner *planner;
  const GstClPlan *forced = NULL;
  gchar tuning[GST_CL_PLAN_TUNING_SIZE] = "";
  gchar *why = NULL;

  g_return_val_if_fail (GST_IS_ELEMENT (element), FALSE);
  planner = get_planner (element);
  g_return_val_if_fail (planner != NULL, FALSE);

  if (plan && !parse_spec (planner, plan, strlen (plan), &forced, tuning, &why)) {
    GST_WARNING_OBJECT (element, "%s", why);
    g_free (why);
    return FALSE;
  }
  g_mutex_lock (&planner->lock);
  set_override (planner, forced, tuning);
  planner->warned = FALSE;
  g_mutex_unlock (&planner->lock);
  return TRUE;
}

/**
 * gst_cl_plan_get_current:
 *
 * For tests: the plan that @element's last frame went through (a
 * fallback's while the chosen plan builds), %NULL before any.
 *
 * Returns: (nullable): its name
 */
const gchar *
gst_cl_plan_get_current (GstElement * element)
{
  GstClPlanner *planner;
  const gchar *name;

  g_return_val_if_fail (GST_IS_ELEMENT (element), NULL);
  planner = get_planner (element);
  g_return_val_if_fail (planner != NULL, NULL);

  g_mutex_lock (&planner->lock);
  name = planner->current ? planner->current->name : NULL;
  g_mutex_unlock (&planner->lock);
  return name;
}
