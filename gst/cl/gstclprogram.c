/* gstclfilters: building OpenCL programs, with an on-disk binary cache
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A context's programs are kept in its table, built once each, in the
 * background where an element can go on with another kernel meanwhile.
 * Cache entries live in $XDG_CACHE_HOME/gstclfilters/<sha256>.bin, keyed by the
 * device, its driver, the kernel source and the build options. Each entry holds
 * a header with that key and the payload's checksum, so a truncated or corrupt
 * file, or one that holds another program, is found before the driver sees it,
 * and rebuilt.
 */
#include "gstclprogram.h"
#include "gstclcontext.h"
#include "gstclerror.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_program_debug);
#define GST_CAT_DEFAULT gst_cl_program_debug

/* magic, payload length (64-bit little-endian), key, payload checksum */
#define CACHE_MAGIC "GSTCLBN2"
#define CACHE_MAGIC_LEN 8
#define CACHE_KEY_OFFSET (CACHE_MAGIC_LEN + 8)
#define CACHE_SUM_OFFSET (CACHE_KEY_OFFSET + 32)
#define CACHE_HEADER_LEN (CACHE_SUM_OFFSET + 32)

static void
ensure_debug_category (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_program_debug, "clprogram", 0,
        "OpenCL program build and cache");
    g_once_init_leave (&done, 1);
  }
}

/* What @source is, for the log: its first line, the kernels/ file's
 * header comment ("gstclfilters kernels: the box blur"). */
static gchar *
source_title (const gchar * source)
{
  const gchar *end = strchr (source, '\n');
  gchar *line = g_strndup (source, end ? (gsize) (end - source) :
      strlen (source));
  gchar *title;

  g_strstrip (g_strdelimit (line, "/*", ' '));
  title = g_strdup_printf ("\"%.60s\"", *line ? line : "a program");
  g_free (line);
  return title;
}

/* The folder of cached program binaries, read on every call, so that a
 * change of XDG_CACHE_HOME takes effect. */
static gchar *
cache_dir (void)
{
  const gchar *xdg = g_getenv ("XDG_CACHE_HOME");

  if (xdg && g_path_is_absolute (xdg))
    return g_build_filename (xdg, "gstclfilters", NULL);
  return g_build_filename (g_get_home_dir (), ".cache", "gstclfilters", NULL);
}

/* The entry's key: a SHA-256 of what the binary depends on. */
static void
cache_key_digest (const gchar * cache_key, const gchar * source,
    const gchar * options, guint8 key[32])
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize len = 32;

  g_checksum_update (sum, (const guchar *) cache_key, -1);
  g_checksum_update (sum, (const guchar *) "\n", 1);
  g_checksum_update (sum, (const guchar *) options, -1);
  g_checksum_update (sum, (const guchar *) "\n", 1);
  g_checksum_update (sum, (const guchar *) source, -1);
  g_checksum_get_digest (sum, key, &len);
  g_checksum_free (sum);
}

static gchar *
cache_path (const guint8 key[32])
{
  gchar hex[65], *dir, *file, *path;
  guint i;

  for (i = 0; i < 32; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", key[i]);
  dir = cache_dir ();
  file = g_strconcat (hex, ".bin", NULL);
  path = g_build_filename (dir, file, NULL);
  g_free (file);
  g_free (dir);
  return path;
}

static void
payload_digest (const guint8 * data, gsize len, guint8 digest[32])
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize dlen = 32;

  g_checksum_update (sum, data, len);
  g_checksum_get_digest (sum, digest, &dlen);
  g_checksum_free (sum);
}

/* Returns the binary stored at @path for @key, or NULL if missing, damaged or
 * another program's (a file copied or renamed by hand). */
static guint8 *
cache_read (const gchar * path, const guint8 key[32], gsize * len)
{
  gchar *contents = NULL;
  gsize size = 0;
  guint64 payload_len;
  guint8 digest[32];
  guint8 *payload;

  if (!g_file_get_contents (path, &contents, &size, NULL))
    return NULL;
  if (size >= CACHE_MAGIC_LEN && memcmp (contents, "GSTCLBN", 7) == 0 &&
      memcmp (contents, CACHE_MAGIC, CACHE_MAGIC_LEN) != 0) {
    GST_INFO ("cache entry %s is of an older version, rebuilding it", path);
    g_free (contents);
    return NULL;
  }
  if (size < CACHE_HEADER_LEN || memcmp (contents, CACHE_MAGIC,
          CACHE_MAGIC_LEN) != 0)
    goto damaged;
  memcpy (&payload_len, contents + CACHE_MAGIC_LEN, 8);
  payload_len = GUINT64_FROM_LE (payload_len);
  if (payload_len != size - CACHE_HEADER_LEN || payload_len == 0)
    goto damaged;
  if (memcmp (key, contents + CACHE_KEY_OFFSET, 32) != 0) {
    GST_WARNING ("cache entry %s holds another program, rebuilding it", path);
    g_free (contents);
    return NULL;
  }
  payload_digest ((guint8 *) contents + CACHE_HEADER_LEN, payload_len, digest);
  if (memcmp (digest, contents + CACHE_SUM_OFFSET, 32) != 0)
    goto damaged;

  payload = g_memdup2 (contents + CACHE_HEADER_LEN, payload_len);
  *len = payload_len;
  g_free (contents);
  return payload;

damaged:
  GST_WARNING ("cache entry %s is damaged, rebuilding it", path);
  g_free (contents);
  return NULL;
}

static void
cache_write (const gchar * path, const guint8 key[32], const guint8 * data,
    gsize len)
{
  gsize total = CACHE_HEADER_LEN + len;
  guint8 *buf = g_malloc (total);
  guint64 len_le = GUINT64_TO_LE ((guint64) len);
  gchar *dir = g_path_get_dirname (path);
  GError *err = NULL;

  memcpy (buf, CACHE_MAGIC, CACHE_MAGIC_LEN);
  memcpy (buf + CACHE_MAGIC_LEN, &len_le, 8);
  memcpy (buf + CACHE_KEY_OFFSET, key, 32);
  payload_digest (data, len, buf + CACHE_SUM_OFFSET);
  memcpy (buf + CACHE_HEADER_LEN, data, len);

  if (g_mkdir_with_parents (dir, 0755) != 0 ||
      !g_file_set_contents (path, (const gchar *) buf, total, &err)) {
    GST_WARNING ("could not write program cache %s: %s", path,
        err ? err->message : g_strerror (errno));
    g_clear_error (&err);
  }
  g_free (dir);
  g_free (buf);
}

static gchar *
build_log (cl_program program, cl_device_id device)
{
  gsize size = 0;
  gchar *log;

  if (clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, 0, NULL,
          &size) != CL_SUCCESS || size == 0)
    return g_strdup ("");
  log = g_malloc0 (size + 1);
  clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, size, log,
      NULL);
  return log;
}

static cl_program
build_from_binary (cl_context context, cl_device_id device,
    const guint8 * binary, gsize len, const gchar * options)
{
  cl_int status = CL_SUCCESS, bin_status = CL_SUCCESS;
  cl_program program;

  program = clCreateProgramWithBinary (context, 1, &device, &len, &binary,
      &bin_status, &status);
  if (status != CL_SUCCESS || bin_status != CL_SUCCESS)
    goto failed;
  status = clBuildProgram (program, 1, &device, options, NULL, NULL);
  if (status != CL_SUCCESS)
    goto failed;
  return program;

failed:
  GST_WARNING ("cached binary rejected (%s), rebuilding from source",
      gst_cl_error_name (status != CL_SUCCESS ? status : bin_status));
  if (program)
    clReleaseProgram (program);
  return NULL;
}

static guint8 *
program_binary (cl_program program, gsize * len)
{
  guint8 *binary;

  if (clGetProgramInfo (program, CL_PROGRAM_BINARY_SIZES, sizeof (gsize), len,
          NULL) != CL_SUCCESS || *len == 0)
    return NULL;
  binary = g_malloc (*len);
  if (clGetProgramInfo (program, CL_PROGRAM_BINARIES, sizeof (binary),
          &binary, NULL) != CL_SUCCESS) {
    g_free (binary);
    return NULL;
  }
  return binary;
}

static cl_program
build_from_source (cl_context context, cl_device_id device,
    const gchar * source, const gchar * options, GError ** error)
{
  cl_int status = CL_SUCCESS;
  cl_program program;
  gchar *log;

  program = clCreateProgramWithSource (context, 1, &source, NULL, &status);
  if (!gst_cl_result (status, error, "clCreateProgramWithSource"))
    return NULL;
  status = clBuildProgram (program, 1, &device, options, NULL, NULL);
  log = build_log (program, device);
  if (status != CL_SUCCESS) {
    GST_ERROR ("build with options \"%s\" failed: %s\n%s", options,
        gst_cl_error_name (status), log);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "OpenCL kernel build failed: %s in clBuildProgram (options \"%s\"); "
        "the build log is in the debug log (GST_DEBUG=clprogram:5): %.200s",
        gst_cl_error_name (status), options, log);
    clReleaseProgram (program);
    program = NULL;
  } else if (*log) {
    GST_DEBUG ("build log for options \"%s\":\n%s", options, log);
  }
  g_free (log);
  return program;
}

/* Where PoCL keeps the programs it builds (its kernel cache) */
static gchar *
pocl_cache_dir (void)
{
  const gchar *dir = g_getenv ("POCL_CACHE_DIR");
  const gchar *xdg = g_getenv ("XDG_CACHE_HOME");

  if (dir && *dir)
    return g_strdup (dir);
  if (xdg && g_path_is_absolute (xdg))
    return g_build_filename (xdg, "pocl", "kcache", NULL);
  return g_build_filename (g_get_home_dir (), ".cache", "pocl", "kcache", NULL);
}

/* Builds @source with @options where the driver keeps what it builds
 * itself: a build it has seen takes it milliseconds. The binaries are not
 * asked for, which would make it compile every kernel of the program. */
static cl_program
program_build_driver_cached (cl_context context, cl_device_id device,
    const gchar * source, const gchar * options, GstClProgramOrigin * origin,
    GError ** error)
{
  gint64 start = g_get_monotonic_time ();
  cl_program program = build_from_source (context, device, source, options,
      error);
  gdouble seconds = (g_get_monotonic_time () - start) / 1e6;
  gchar *title, *dir;

  if (!program)
    return NULL;
  if (origin)
    *origin = GST_CL_PROGRAM_COMPILED;
  /* a build of this long compiled: said where a user looks (GST_DEBUG=2 or
   * more), as a first build elsewhere is */
  title = source_title (source);
  dir = pocl_cache_dir ();
  if (seconds >= 0.1)
    GST_INFO ("compiled %s (%s) for this device for the first time, in %.1f "
        "s: the driver keeps it in %s for later runs", title, *options ?
        options : "no options", seconds, dir);
  else
    GST_DEBUG ("built %s (%s) from the driver's cache in %s in %.3f s",
        title, *options ? options : "no options", dir, seconds);
  g_free (dir);
  g_free (title);
  return program;
}

/* Builds @source with @options for @device, loading the binary from the
 * disk cache when a valid entry exists and storing one otherwise; @cache_key
 * identifies the device and driver, @origin (nullable) says where the
 * program came from. Where the driver keeps its own builds
 * (@driver_cache), it is left to them. */
static cl_program
program_build (cl_context context, cl_device_id device,
    const gchar * cache_key, gboolean driver_cache, const gchar * source,
    const gchar * options, GstClProgramOrigin * origin, GError ** error)
{
  gchar *path, *title;
  guint8 key[32];
  guint8 *binary;
  gsize len = 0;
  gint64 start;
  cl_program program = NULL;

  ensure_debug_category ();
  if (driver_cache)
    return program_build_driver_cached (context, device, source, options,
        origin, error);
  cache_key_digest (cache_key, source, options, key);
  path = cache_path (key);
  binary = cache_read (path, key, &len);
  if (binary) {
    program = build_from_binary (context, device, binary, len, options);
    g_free (binary);
  }
  if (program) {
    GST_DEBUG ("loaded %s", path);
    if (origin)
      *origin = GST_CL_PROGRAM_DISK_CACHE;
    g_free (path);
    return program;
  }

  /* the seconds a first run waits, said where a user looks (GST_DEBUG=2
   * or more), and where the result goes */
  title = source_title (source);
  GST_INFO ("compiling %s (%s) for this device for the first time: the "
      "binary is kept in %s for later runs", title, *options ? options :
      "no options", path);
  start = g_get_monotonic_time ();
  program = build_from_source (context, device, source, options, error);
  if (program) {
    binary = program_binary (program, &len);
    if (binary)
      cache_write (path, key, binary, len);
    g_free (binary);
    GST_INFO ("compiled %s (%s) in %.1f s", title, *options ? options :
        "no options", (g_get_monotonic_time () - start) / 1e6);
    if (origin)
      *origin = GST_CL_PROGRAM_COMPILED;
  }
  g_free (title);
  g_free (path);
  return program;
}

/* The programs built on a context, kept until it goes: a program a
 * (source, options) */
/* the programs built on a context, and those building
 * (gst_cl_context_get_attached()) */
typedef struct
{
  GMutex lock;
  GHashTable *programs;
  GHashTable *building;         /* keys of the programs being built */
  GHashTable *failed;           /* keys of background builds that failed */
  GCond built;                  /* signalled as each build ends */
  GThreadPool *builder;         /* gst_cl_program_ready()'s */
} GstClProgramTable;

static void
release_program (gpointer program)
{
  clReleaseProgram (program);
}

static gpointer
program_table_new (GstClContext * ctx, GError ** error)
{
  GstClProgramTable *table = g_new0 (GstClProgramTable, 1);

  g_mutex_init (&table->lock);
  g_cond_init (&table->built);
  table->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      release_program);
  table->building = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  table->failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return table;
}

/* A build under way ends first: it uses the context. */
static void
program_table_free (gpointer data)
{
  GstClProgramTable *table = data;

  if (table->builder)
    g_thread_pool_free (table->builder, TRUE, TRUE);
  g_hash_table_unref (table->programs);
  g_hash_table_unref (table->building);
  g_hash_table_unref (table->failed);
  g_cond_clear (&table->built);
  g_mutex_clear (&table->lock);
  g_free (table);
}

/* freed first of what the context holds: a build uses the rest */
static GstClContextAttachment program_tables = {
  program_table_new, program_table_free, 0, 0
};

/* the programs of @ctx (made on the first call, which cannot fail) */
static GstClProgramTable *
program_table (GstClContext * ctx)
{
  return gst_cl_context_get_attached (ctx, &program_tables, NULL);
}

/* the key of a program in the context's tables: the embedded sources are
 * told apart by address */
static gchar *
program_key (const gchar * source, const gchar * options)
{
  return g_strdup_printf ("%p|%s", source, options);
}

/* Builds outside the lock, so that a build of seconds holds up no other
 * use of the context; a (source, options) being built is in the table's
 * building, and whoever wants it waits for built rather than building it
 * again.
 * Called and returns with the lock held. */
static cl_program
build_locked (GstClContext * ctx, const gchar * source, const gchar * options,
    const gchar * key, GstClProgramOrigin * origin, GError ** error)
{
  GstClProgramTable *table = program_table (ctx);
  cl_program program;
  gint64 start = g_get_monotonic_time ();

  g_hash_table_add (table->building, g_strdup (key));
  g_mutex_unlock (&table->lock);
  program = program_build (gst_cl_context_get_handle (ctx),
      gst_cl_context_get_device (ctx), gst_cl_context_get_cache_key (ctx),
      gst_cl_context_get_caps (ctx)->driver_cache, source, options, origin,
      error);
  GST_DEBUG_OBJECT (ctx, "program \"%s\" ready in %.1f ms", options,
      (g_get_monotonic_time () - start) / 1000.0);
  g_mutex_lock (&table->lock);
  g_hash_table_remove (table->building, key);
  if (program)
    g_hash_table_insert (table->programs, g_strdup (key), program);
  g_cond_broadcast (&table->built);
  return program;
}

/**
 * gst_cl_program_get:
 * @source: OpenCL C source, one of the embedded kernels/ files
 * @options: build options, carrying the compile-time constants
 * @origin: (out) (optional): where the program came from
 *
 * Builds once per (source, options) and context, and once per machine
 * thanks to the disk cache, or to the driver's own where it keeps one
 * (#GstClDeviceCaps.driver_cache). A program that another thread is
 * building is waited for.
 *
 * Returns: (transfer none) (nullable): the program, owned by @ctx
 */
cl_program
gst_cl_program_get (GstClContext * ctx, const gchar * source,
    const gchar * options, GstClProgramOrigin * origin, GError ** error)
{
  GstClProgramTable *table;
  gchar *key;
  cl_program program;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (ctx), NULL);

  ensure_debug_category ();
  table = program_table (ctx);
  key = program_key (source, options);
  g_mutex_lock (&table->lock);
  while (!(program = g_hash_table_lookup (table->programs, key)) &&
      g_hash_table_contains (table->building, key))
    g_cond_wait (&table->built, &table->lock);
  if (program) {
    if (origin)
      *origin = GST_CL_PROGRAM_MEMORY;
  } else {
    program = build_locked (ctx, source, options, key, origin, error);
  }
  g_mutex_unlock (&table->lock);
  g_free (key);
  return program;
}

typedef struct
{
  GstClContext *ctx;
  const gchar *source;
  gchar *options;
  gchar *key;
} BuildJob;

static void
build_job_free (BuildJob * job)
{
  g_free (job->options);
  g_free (job->key);
  g_free (job);
}

static void
build_in_background (gpointer data, gpointer user_data)
{
  BuildJob *job = data;
  GstClProgramTable *table = user_data;
  GstClContext *ctx = job->ctx;
  GError *error = NULL;

  g_mutex_lock (&table->lock);
  if (!build_locked (ctx, job->source, job->options, job->key, NULL, &error)) {
    GST_WARNING_OBJECT (ctx, "program \"%s\" failed: %s", job->options,
        error->message);
    g_hash_table_add (table->failed, g_strdup (job->key));
    g_clear_error (&error);
  }
  g_mutex_unlock (&table->lock);
  build_job_free (job);
}

/**
 * gst_cl_program_ready:
 * @source: OpenCL C source, one of the embedded kernels/ files
 * @options: build options
 *
 * Whether gst_cl_program_get() would return the program at once.
 * If not, and no thread is building it, it is built on a thread of the
 * context's, so that an element can go on with another kernel meanwhile
 * (at most one such build at a time; a context waits for it when it is
 * freed). A build that failed there is not tried again: the element keeps
 * to its other kernel.
 *
 * Returns: %TRUE when the program is built
 */
gboolean
gst_cl_program_ready (GstClContext * ctx, const gchar * source,
    const gchar * options)
{
  GstClProgramTable *table;
  gchar *key;
  gboolean ready;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (ctx), FALSE);

  ensure_debug_category ();
  table = program_table (ctx);
  key = program_key (source, options);
  g_mutex_lock (&table->lock);
  ready = g_hash_table_contains (table->programs, key);
  if (!ready && !g_hash_table_contains (table->building, key) &&
      !g_hash_table_contains (table->failed, key)) {
    BuildJob *job = g_new0 (BuildJob, 1);

    if (!table->builder)
      table->builder = g_thread_pool_new_full (build_in_background, table,
          (GDestroyNotify) build_job_free, 1, FALSE, NULL);
    /* no reference: the context frees the pool, waiting, before itself */
    job->ctx = ctx;
    job->source = source;
    job->options = g_strdup (options);
    job->key = g_strdup (key);
    /* marked now, so that it is queued once */
    g_hash_table_add (table->building, g_strdup (key));
    GST_DEBUG_OBJECT (ctx, "program \"%s\" built in the background", options);
    g_thread_pool_push (table->builder, job, NULL);
  }
  g_mutex_unlock (&table->lock);
  g_free (key);
  return ready;
}

/**
 * gst_cl_program_failed:
 *
 * Returns: whether a build of @source with @options that
 *   gst_cl_program_ready() started failed (and is not tried again)
 */
gboolean
gst_cl_program_failed (GstClContext * ctx, const gchar * source,
    const gchar * options)
{
  GstClProgramTable *table = program_table (ctx);
  gchar *key = program_key (source, options);
  gboolean failed;

  g_mutex_lock (&table->lock);
  failed = g_hash_table_contains (table->failed, key);
  g_mutex_unlock (&table->lock);
  g_free (key);
  return failed;
}

/**
 * gst_cl_program_wait_builds:
 *
 * Waits until no program of @ctx is being built, in the background or by
 * another thread.
 */
void
gst_cl_program_wait_builds (GstClContext * ctx)
{
  GstClProgramTable *table = program_table (ctx);

  g_mutex_lock (&table->lock);
  while (g_hash_table_size (table->building) > 0)
    g_cond_wait (&table->built, &table->lock);
  g_mutex_unlock (&table->lock);
}
