/* gstclfilters: subgroup and work-group-collective kernels against plain ones
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Times the formulations of kernels/subgroups.cl at 1920x1080 on the device
 * GST_CL_DEVICE names (an index or part of "platform device"; else the
 * first), each output checked against a C reference, and
 * prints Markdown tables of kernel times from profiling events: the best
 * call, and the best round's mean as clfilters-bench counts. Exits 77 where
 * the device lacks Intel's subgroups.
 *
 *   clfilters-subgroups-bench [CALLS_PER_ROUND]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 210
#include <CL/cl.h>

#include "subgroupskernels.h"

#define W 1920
#define H 1080
#define ROUNDS 5
#define EPS_ROWS 8
#define EPS_THRESHOLD 20
#define EPS_RADIUS 4

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue queue;
static int calls = 16, failures;

static void
check (cl_int status, const char *what)
{
  if (status != CL_SUCCESS) {
    fprintf (stderr, "%s failed: %d\n", what, status);
    exit (1);
  }
}

/* GST_CL_DEVICE as the plugin reads it, else the first device */
static cl_device_id
pick_device (char *name, size_t size)
{
  const char *want = getenv ("GST_CL_DEVICE");
  cl_platform_id platforms[16];
  cl_device_id devices[16];
  cl_uint np = 0, nd, index = 0;
  char plat[256], dname[256], full[520];
  int by_index = want && want[strspn (want, "0123456789")] == '\0';

  clGetPlatformIDs (16, platforms, &np);
  for (cl_uint p = 0; p < np; p++) {
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 16, devices,
            &nd) != CL_SUCCESS)
      continue;
    clGetPlatformInfo (platforms[p], CL_PLATFORM_NAME, sizeof plat, plat, NULL);
    for (cl_uint i = 0; i < nd; i++, index++) {
      clGetDeviceInfo (devices[i], CL_DEVICE_NAME, sizeof dname, dname, NULL);
      snprintf (full, sizeof full, "%s %s", plat, dname);
      if (want && (by_index ? (cl_uint) atoi (want) != index :
              !strcasestr (full, want)))
        continue;
      snprintf (name, size, "%s", full);
      return devices[i];
    }
  }
  return NULL;
}

static int
has_extension (const char *ext)
{
  char exts[8192] = " ", word[128];

  clGetDeviceInfo (dev, CL_DEVICE_EXTENSIONS, sizeof exts - 2, exts + 1, NULL);
  strcat (exts, " ");
  snprintf (word, sizeof word, " %s ", ext);
  return strstr (exts, word) != NULL;
}

/* NULL, with the log printed, where the device does not take the program */
static cl_program
build (const char *options)
{
  const char *src = gst_cl_kernel_subgroups;
  cl_int status;
  cl_program prog = clCreateProgramWithSource (ctx, 1, &src, NULL, &status);
  char log[4096] = "";

  check (status, "clCreateProgramWithSource");
  if (clBuildProgram (prog, 1, &dev, options, NULL, NULL) == CL_SUCCESS)
    return prog;
  clGetProgramBuildInfo (prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log,
      NULL);
  fprintf (stderr, "build with \"%s\" failed:\n%s\n", options, log);
  clReleaseProgram (prog);
  return NULL;
}

static cl_kernel
kernel (cl_program prog, const char *name)
{
  cl_int status;
  cl_kernel k = clCreateKernel (prog, name, &status);

  check (status, name);
  return k;
}

#define ARG(k, i, v) check (clSetKernelArg (k, i, sizeof (v), &(v)), "arg")

typedef struct
{
  cl_kernel kernel;
  size_t global[2], local[2];   /* local[0] 0: the runtime's choice */
} Launch;

static void
enqueue (const Launch * l, cl_event * event)
{
  cl_uint dims = l->global[1] > 1 ? 2 : 1;

  check (clEnqueueNDRangeKernel (queue, l->kernel, dims, NULL, l->global,
          l->local[0] ? l->local : NULL, 0, NULL, event), "enqueue");
}

static double
event_ms (cl_event e)
{
  cl_ulong start, end;

  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_START, sizeof start,
      &start, NULL);
  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  clReleaseEvent (e);
  return (end - start) / 1e6;
}

/* @n launches a call, back to back as a pipeline's frames; their kernel
 * times added up. Returns the best call; @mean: the best round's mean. */
static double
time_calls (const Launch * l, int n, double *mean)
{
  cl_event *events = malloc (sizeof (cl_event) * n * calls);
  double best = 1e9, t, sum;

  *mean = 1e9;
  for (int i = 0; i < n; i++)
    enqueue (&l[i], NULL);
  for (int round = 0; round < ROUNDS; round++) {
    for (int c = 0; c < calls; c++)
      for (int i = 0; i < n; i++)
        enqueue (&l[i], &events[c * n + i]);
    clFinish (queue);
    sum = 0;
    for (int c = 0; c < calls; c++) {
      t = 0;
      for (int i = 0; i < n; i++)
        t += event_ms (events[c * n + i]);
      best = t < best ? t : best;
      sum += t;
    }
    *mean = sum / calls < *mean ? sum / calls : *mean;
  }
  free (events);
  return best;
}

static cl_mem
buffer (size_t size, const void *data)
{
  cl_int status;
  cl_mem mem = clCreateBuffer (ctx, CL_MEM_READ_WRITE |
      (data ? CL_MEM_COPY_HOST_PTR : 0), size, (void *) data, &status);

  check (status, "clCreateBuffer");
  return mem;
}

/* the device's output against @want: "yes", or where it first differs */
static const char *
compare (cl_mem mem, const void *want, size_t size)
{
  static char verdict[64];
  unsigned char *got = malloc (size);
  size_t i = 0;

  check (clEnqueueReadBuffer (queue, mem, CL_TRUE, 0, size, got, 0, NULL,
          NULL), "clEnqueueReadBuffer");
  while (i < size && got[i] == ((const unsigned char *) want)[i])
    i++;
  free (got);
  if (i == size)
    return "yes";
  failures++;
  snprintf (verdict, sizeof verdict, "**no**, byte %zu", i);
  return verdict;
}

static void
row (const char *what, int sg, const Launch * l, int n, cl_mem out,
    const void *want, size_t size)
{
  double mean, best;
  cl_uchar junk = 0xa5;
  char size_sg[8] = "-";

  if (want)
    check (clEnqueueFillBuffer (queue, out, &junk, 1, 0, size, 0, NULL,
            NULL), "clEnqueueFillBuffer");
  best = time_calls (l, n, &mean);
  if (sg)
    snprintf (size_sg, sizeof size_sg, "%d", sg);
  printf ("| %s | %s | %.4f | %.4f | %s |\n", what, size_sg, best, mean,
      want ? compare (out, want, size) : "-");
}

/* the references, as kernels/boxblur.cl's, integral.cl's and epsilon.cl's */
static void
boxblur_ref (const unsigned char *src, unsigned char *dst, int r)
{
  unsigned n = (2 * r + 1) * (2 * r + 1);

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 4; c++) {
        unsigned sum = 0;

        for (int yy = y - r; yy <= y + r; yy++)
          for (int xx = x - r; xx <= x + r; xx++)
            sum += src[((yy < 0 ? 0 : yy >= H ? H - 1 : yy) * W +
                    (xx < 0 ? 0 : xx >= W ? W - 1 : xx)) * 4 + c];
        dst[(y * W + x) * 4 + c] = (sum + n / 2) / n;
      }
}

static void
integral_ref (const unsigned char *src, unsigned *dst)
{
  for (int y = 0; y < H; y++) {
    unsigned acc = 0;

    for (int x = 0; x < W; x++) {
      acc += src[y * W + x];
      dst[y * W + x] = acc + (y ? dst[(y - 1) * W + x] : 0);
    }
  }
}

static void
epsilon_ref (const unsigned char *src, unsigned char *dst, int r, int t)
{
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int c = src[y * W + x];
      unsigned sum = 0, n = 0;

      for (int yy = y - r; yy <= y + r; yy++)
        for (int xx = x - r; xx <= x + r; xx++) {
          int p = src[(yy < 0 ? 0 : yy >= H ? H - 1 : yy) * W +
              (xx < 0 ? 0 : xx >= W ? W - 1 : xx)];

          if (abs (p - c) <= t) {
            sum += p;
            n++;
          }
        }
      dst[y * W + x] = (sum + n / 2) / n;
    }
}

static void
bench_boxblur (const unsigned char *rgba, const int *sgs, int nsg)
{
  size_t size = (size_t) W * H * 4;
  unsigned char *want = malloc (size);
  cl_mem in = buffer (size, rgba), out = buffer (size, NULL);
  int width = W, height = H;
  char opts[128], what[64];

  printf ("\n| clboxblur RGBA 1920x1080 | SG | best ms | mean ms | exact |\n"
      "|---|---:|---:|---:|---|\n");
  for (int d = 3; d <= 9; d += 6) {
    boxblur_ref (rgba, want, d / 2);
    for (int s = 0; s < nsg; s++)
      for (int plain = 0; plain < 2; plain++) {
        cl_program prog;
        Launch l = { NULL, {W / 4, H / 4}, {sgs[s], 1} };

        snprintf (opts, sizeof opts, "-DSG=%d -DRADIUS=%d%s", sgs[s], d / 2,
            plain ? " -DPLAIN" : "");
        if (!(prog = build (opts)))
          continue;
        l.kernel = kernel (prog, "boxblur_blocks");
        ARG (l.kernel, 0, in);
        ARG (l.kernel, 1, out);
        ARG (l.kernel, 2, width);
        ARG (l.kernel, 3, height);
        snprintf (what, sizeof what, "d=%d, 4x4 a work-item, %s", d,
            plain ? "plain loads" : "block read4/write4");
        row (what, sgs[s], &l, 1, out, want, size);
        clReleaseKernel (l.kernel);
        clReleaseProgram (prog);
      }
  }
  clReleaseMemObject (in);
  clReleaseMemObject (out);
  free (want);
}

/* a row pass of @prog, then the columns, checked against @want */
static void
integral_row (cl_program prog, const char *name, size_t global0,
    size_t local0, cl_mem in, cl_mem table, const Launch * cols,
    const unsigned *want, const char *what, int sg)
{
  Launch l[2] = { {kernel (prog, name), {global0, H}, {local0, 1}}, *cols };
  int width = W;

  if (!local0)
    l[0].global[1] = 1;
  ARG (l[0].kernel, 0, in);
  ARG (l[0].kernel, 1, width);
  ARG (l[0].kernel, 2, table);
  ARG (l[0].kernel, 3, width);
  ARG (l[0].kernel, 4, width);
  row (what, sg, l, 2, table, want, (size_t) W * H * 4);
  clReleaseKernel (l[0].kernel);
}

static void
bench_integral (const unsigned char *gray, const int *sgs, int nsg)
{
  size_t size = (size_t) W * H * 4;
  unsigned *want = malloc (size);
  cl_mem in = buffer ((size_t) W * H, gray), table = buffer (size, NULL);
  cl_program prog, wg;
  Launch cols = { NULL, {W / 4, 1}, {0, 0} };
  int height = H, pitch = W;
  char opts[64], what[96];

  integral_ref (gray, want);
  printf ("\n| clintegral GRAY8 1920x1080, rows then columns | SG | "
      "best ms | mean ms | exact |\n|---|---:|---:|---:|---|\n");
  for (int s = 0; s < nsg; s++) {
    snprintf (opts, sizeof opts, "-DSG=%d -DRADIUS=1", sgs[s]);
    if (!(prog = build (opts)))
      continue;
    cols.kernel = kernel (prog, "integral_cols4");
    ARG (cols.kernel, 0, table);
    ARG (cols.kernel, 1, pitch);
    ARG (cols.kernel, 2, height);
    if (s == 0) {
      row ("columns alone", 0, &cols, 1, table, NULL, size);
      integral_row (prog, "integral_rows_plain", H, 0, in, table, &cols,
          want, "rows, a work-item a row (clintegral's scans plan)", 0);
      /* OpenCL C 2.0's collectives: a step of 128, and the row in one */
      if ((wg = build ("-cl-std=CL2.0 -DWG_SCAN"))) {
        for (int i = 0; i < 2; i++) {
          size_t step = i ? W : 128;

          snprintf (what, sizeof what,
              "rows, work_group_scan_inclusive_add, %zu a step", step);
          integral_row (wg, "integral_rows_wg", step, step, in, table, &cols,
              want, what, 0);
        }
        clReleaseProgram (wg);
      }
    }
    for (int four = 0; four < 2; four++) {
      snprintf (what, sizeof what, "rows, sub_group_scan_%s_add, %d a step",
          four ? "exclusive" : "inclusive", four ? 4 * sgs[s] : sgs[s]);
      integral_row (prog, four ? "integral_rows_sg4" : "integral_rows_sg",
          sgs[s], sgs[s], in, table, &cols, want, what, sgs[s]);
    }
    clReleaseKernel (cols.kernel);
    clReleaseProgram (prog);
  }
  clReleaseMemObject (in);
  clReleaseMemObject (table);
  free (want);
}

static void
bench_epsilon (const unsigned char *luma, const int *sgs, int nsg)
{
  size_t size = (size_t) W * H;
  unsigned char *want = malloc (size);
  cl_mem in = buffer (size, luma), out = buffer (size, NULL);
  int width = W, height = H;
  cl_uint threshold = EPS_THRESHOLD;
  char opts[128], what[96];

  epsilon_ref (luma, want, EPS_RADIUS, EPS_THRESHOLD);
  printf ("\n| clepsilon luma 1920x1080, d=9 t=20 | SG | best ms | mean ms | "
      "exact |\n|---|---:|---:|---:|---|\n");
  for (int s = 0; s < nsg; s++)
    for (int plain = 0; plain < 2; plain++) {
      cl_program prog;
      Launch l = { NULL, {W, (H + EPS_ROWS - 1) / EPS_ROWS}, {64, 1} };

      snprintf (opts, sizeof opts, "-DSG=%d -DRADIUS=%d -DROWS=%d%s",
          sgs[s], EPS_RADIUS, EPS_ROWS, plain ? " -DPLAIN" : "");
      if (sgs[s] < EPS_RADIUS || !(prog = build (opts)))
        continue;
      l.kernel = kernel (prog, "epsilon_rows");
      ARG (l.kernel, 0, in);
      ARG (l.kernel, 1, width);
      ARG (l.kernel, 2, out);
      ARG (l.kernel, 3, width);
      ARG (l.kernel, 4, width);
      ARG (l.kernel, 5, height);
      ARG (l.kernel, 6, threshold);
      snprintf (what, sizeof what, "a column of %d a work-item, %s",
          EPS_ROWS, plain ? "plain loads" : "neighbours shuffled");
      row (what, sgs[s], &l, 1, out, want, size);
      clReleaseKernel (l.kernel);
      clReleaseProgram (prog);
    }
  clReleaseMemObject (in);
  clReleaseMemObject (out);
  free (want);
}

int
main (int argc, char **argv)
{
  size_t sizes[8] = { 0 }, nsizes = 0, sg_default = 0, local = 128;
  int sgs[2], nsg = 0;
  unsigned char *pixels = malloc ((size_t) W * H * 4);
  unsigned seed = 1;
  char name[600] = "";
  cl_int status;
  cl_program probe;
  cl_kernel k;

  if (argc > 1 && (calls = atoi (argv[1])) < 1)
    calls = 16;
  if (!(dev = pick_device (name, sizeof name))) {
    printf ("skipped: no OpenCL device%s%s\n", getenv ("GST_CL_DEVICE") ?
        " matches GST_CL_DEVICE=" : "", getenv ("GST_CL_DEVICE") ?
        getenv ("GST_CL_DEVICE") : "");
    return 77;
  }
  if (!has_extension ("cl_intel_subgroups") ||
      !has_extension ("cl_intel_required_subgroup_size")) {
    printf ("skipped: %s has no cl_intel_subgroups and "
        "cl_intel_required_subgroup_size (block reads, shuffles, "
        "subgroups of a set size)\n", name);
    return 77;
  }
  ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, &status);
  check (status, "clCreateContext");
  queue = clCreateCommandQueue (ctx, dev, CL_QUEUE_PROFILING_ENABLE, &status);
  check (status, "clCreateCommandQueue");

  /* the sizes the device offers; 8 and 16 are measured where it has them */
  clGetDeviceInfo (dev, 0x4108 /* CL_DEVICE_SUB_GROUP_SIZES_INTEL */ ,
      sizeof sizes, sizes, &nsizes);
  nsizes /= sizeof (size_t);
  for (size_t i = 0; i < nsizes; i++)
    if (sizes[i] == 8 || sizes[i] == 16)
      sgs[nsg++] = sizes[i];
  printf ("device: %s; subgroup sizes:", name);
  for (size_t i = 0; i < nsizes; i++)
    printf (" %zu", sizes[i]);
  /* and what its compiler picks for kernels that ask for none */
  if ((probe = build ("-DSG=8 -DRADIUS=1"))) {
    for (int i = 0; i < 2; i++) {
      const char *probed = i ? "integral_cols4" : "integral_rows_plain";

      k = kernel (probe, probed);
      clGetKernelSubGroupInfo (k, dev,
          CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
          sizeof sg_default, &sg_default, NULL);
      printf ("; %s gets %zu", probed, sg_default);
      clReleaseKernel (k);
    }
    clReleaseProgram (probe);
  }
  printf ("\n");

  for (size_t i = 0; i < (size_t) W * H * 4; i++) {
    seed = seed * 1103515245u + 12345u;
    pixels[i] = seed >> 23;
  }
  bench_boxblur (pixels, sgs, nsg);
  bench_integral (pixels, sgs, nsg);
  bench_epsilon (pixels, sgs, nsg);
  free (pixels);
  clReleaseCommandQueue (queue);
  clReleaseContext (ctx);
  return failures ? 1 : 0;
}
