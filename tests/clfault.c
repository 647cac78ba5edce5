/* gstclfilters tests: OpenCL fault injection and object counts, preloaded
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Preloaded (LD_PRELOAD) into a test, this library stands in front of every
 * OpenCL entry point the plugin calls: it forwards each call to the real one,
 * numbers the calls process-wide, makes the call numbered N fail with an
 * error a driver gives there, and counts the OpenCL objects alive, so that
 * a test sees any that a pipeline keeps after it is gone. The test reaches
 * it through the clfault_* functions (clfault.h), looked up with dlsym.
 *
 * Retains and releases are counted, never failed: a driver fails them only
 * for a handle that is not valid, a bug that the counts show anyway.
 * clWaitForEvents and clFinish fail as a driver does when a command ended in
 * an error: after the wait, so that nothing still runs on the memory the
 * caller frees next. Every other call fails without reaching the driver.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "clfault.h"

#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long calls;
static unsigned long fail_at;
static char failed_call[64];
static cl_int failed_status;
/* clfault_fail_names(): ",name,name," */
static char fail_names[256];
/* clfault_hold_writes() */
static size_t hold_min_bytes;
static unsigned hold_ms;
static long live[CLFAULT_N_KINDS];
/* clfault_fail_signals(): the events of fills and small writes, which say
 * they failed */
static int fail_signals;
#define MAX_DOOMED 256
static cl_event doomed[MAX_DOOMED];
static unsigned n_doomed;
/* the signals doomed since the last reset */
static unsigned doomed_total;

/* each call's entry point and the address it returns to, its call site */
#define MAX_RECORDED (1 << 16)
static struct
{
  const char *name;
  const void *site;
} recorded[MAX_RECORDED];

/* Each entry point's calls since the last reset, retains and releases
 * included, and with CL_FAULT_COUNT set in the environment the wall and CPU
 * time of its calls in the driver, all printed at exit: what a frame costs
 * in driver calls, and where a streaming thread's time goes. Timing, the
 * shim injects no fault and records no call (fault_check()). */
#define N_TALLY 64
static struct
{
  const char *name;
  unsigned long n;
  unsigned long long wall_ns;
  unsigned long long cpu_ns;
  long inside;                  /* threads in the call now */
} tally[N_TALLY];
static int timing = -1;

/* CL_FAULT_WATCH=MS: every MS milliseconds, a line of the calls made since
 * the last and of the threads inside each entry point now; where a program
 * stalls, it says in which call its threads are. */
static void *
watch (void *data)
{
  unsigned long last[N_TALLY] = { 0 };
  long ms = (long) (intptr_t) data;

  for (;;) {
    char line[2048];
    int i, len = 0;

    usleep (ms * 1000);
    for (i = 0; i < N_TALLY && tally[i].name && len < 1800; i++) {
      unsigned long n = __atomic_load_n (&tally[i].n, __ATOMIC_RELAXED);
      long in = __atomic_load_n (&tally[i].inside, __ATOMIC_RELAXED);

      if (n != last[i] || in)
        len += snprintf (line + len, sizeof (line) - len, " %s %lu/%ld",
            tally[i].name + 2, n - last[i], in);
      last[i] = n;
    }
    fprintf (stderr, "clfault watch:%s\n", len ? line : " idle");
  }
  return NULL;
}

static void
watch_start (void)
{
  const char *env = getenv ("CL_FAULT_WATCH");
  pthread_t thread;

  if (env && atol (env) > 0 &&
      pthread_create (&thread, NULL, watch, (void *) (intptr_t) atol (env))
      == 0)
    pthread_detach (thread);
}

static int
tally_slot (const char *name)
{
  int i;

  pthread_mutex_lock (&lock);
  for (i = 0; i < N_TALLY && tally[i].name && strcmp (tally[i].name, name);
      i++);
  if (i < N_TALLY)
    tally[i].name = name;
  pthread_mutex_unlock (&lock);
  if (timing < 0) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;

    timing = getenv ("CL_FAULT_COUNT") != NULL;
    pthread_once (&once, watch_start);
  }
  return i < N_TALLY ? i : -1;
}

typedef struct
{
  struct timespec wall, cpu;
} Clock;

static Clock
clock_start (void)
{
  Clock c = { {0, 0}, {0, 0} };

  if (timing > 0) {
    clock_gettime (CLOCK_MONOTONIC, &c.wall);
    clock_gettime (CLOCK_THREAD_CPUTIME_ID, &c.cpu);
  }
  return c;
}

static unsigned long long
ns_since (clockid_t id, const struct timespec *t0)
{
  struct timespec t;

  clock_gettime (id, &t);
  return (t.tv_sec - t0->tv_sec) * 1000000000ull + t.tv_nsec - t0->tv_nsec;
}

static void
clock_stop (int slot, const Clock * c)
{
  if (slot < 0)
    return;
  __atomic_add_fetch (&tally[slot].n, 1, __ATOMIC_RELAXED);
  if (timing > 0) {
    __atomic_add_fetch (&tally[slot].cpu_ns,
        ns_since (CLOCK_THREAD_CPUTIME_ID, &c->cpu), __ATOMIC_RELAXED);
    __atomic_add_fetch (&tally[slot].wall_ns,
        ns_since (CLOCK_MONOTONIC, &c->wall), __ATOMIC_RELAXED);
  }
}

__attribute__((destructor))
     static void print_tally (void)
{
  unsigned long long wall = 0, cpu = 0;
  unsigned long total = 0;
  int i;

  if (timing <= 0)
    return;
  fprintf (stderr, "clfault: %10s %10s %10s  entry point\n", "calls",
      "wall us", "cpu us");
  for (i = 0; i < N_TALLY && tally[i].name; i++) {
    if (!tally[i].n)
      continue;
    fprintf (stderr, "clfault: %10lu %10.0f %10.0f  %s\n", tally[i].n,
        tally[i].wall_ns / 1e3, tally[i].cpu_ns / 1e3, tally[i].name);
    total += tally[i].n;
    wall += tally[i].wall_ns;
    cpu += tally[i].cpu_ns;
  }
  fprintf (stderr, "clfault: %10lu %10.0f %10.0f  in all\n", total,
      wall / 1e3, cpu / 1e3);
}

/* Numbers this call, made from @site; returns the error to give, or
 * CL_SUCCESS. */
/* whether @name is in fail_names; the lock held */
static int
name_listed (const char *name)
{
  char key[72];

  snprintf (key, sizeof (key), ",%s,", name);
  return strstr (fail_names, key) != NULL;
}

static cl_int
fault_check (const char *name, cl_int error, const void *site)
{
  cl_int status = CL_SUCCESS;

  /* timing a program, not a test's faults: no lock of ours between the
   * threads' calls */
  if (timing > 0)
    return CL_SUCCESS;
  pthread_mutex_lock (&lock);
  if (calls < MAX_RECORDED) {
    recorded[calls].name = name;
    recorded[calls].site = site;
  }
  calls++;
  if (calls == fail_at || (fail_names[0] && name_listed (name))) {
    snprintf (failed_call, sizeof (failed_call), "%s", name);
    failed_status = error;
    status = error;
  }
  pthread_mutex_unlock (&lock);
  return status;
}

static void
count_live (ClFaultKind kind, long delta)
{
  __atomic_add_fetch (&live[kind], delta, __ATOMIC_RELAXED);
}

/* The loader's own entry point: the plugin's library is loaded local to
 * it, out of reach of RTLD_NEXT. */
static void *
real (const char *name)
{
  static void *opencl;
  void *fn;

  if (!opencl)
    opencl = dlopen ("libOpenCL.so.1", RTLD_NOW | RTLD_GLOBAL);
  fn = opencl ? dlsym (opencl, name) : NULL;

  if (!fn) {
    fprintf (stderr, "clfault: no %s to forward to\n", name);
    abort ();
  }
  return fn;
}

#define REAL(name) \
  static __typeof__ (name) *real_fn; \
  static int slot = -2; \
  if (!real_fn) \
    real_fn = (__typeof__ (name) *) real (#name); \
  if (slot == -2) \
    slot = tally_slot (#name)

/* the real call, counted and, with CL_FAULT_COUNT, timed */
#define CALL(...) ({ \
  Clock clock_ = clock_start (); \
  if (slot >= 0) \
    __atomic_add_fetch (&tally[slot].inside, 1, __ATOMIC_RELAXED); \
  __auto_type ret_ = real_fn (__VA_ARGS__); \
  if (slot >= 0) \
    __atomic_sub_fetch (&tally[slot].inside, 1, __ATOMIC_RELAXED); \
  clock_stop (slot, &clock_); \
  ret_; })

/* Control, for the test */

void
clfault_reset (unsigned long n)
{
  pthread_mutex_lock (&lock);
  calls = 0;
  for (int i = 0; i < N_TALLY; i++)
    tally[i].n = tally[i].wall_ns = tally[i].cpu_ns = 0;
  fail_at = n;
  failed_call[0] = '\0';
  failed_status = CL_SUCCESS;
  fail_names[0] = '\0';
  hold_min_bytes = 0;
  hold_ms = 0;
  fail_signals = 0;
  n_doomed = 0;
  doomed_total = 0;
  pthread_mutex_unlock (&lock);
}

void
clfault_fail_names (const char *names)
{
  pthread_mutex_lock (&lock);
  snprintf (fail_names, sizeof (fail_names), ",%s,", names);
  pthread_mutex_unlock (&lock);
}

void
clfault_hold_writes (size_t min_bytes, unsigned ms)
{
  pthread_mutex_lock (&lock);
  hold_min_bytes = min_bytes;
  hold_ms = ms;
  pthread_mutex_unlock (&lock);
}

void
clfault_fail_signals (void)
{
  pthread_mutex_lock (&lock);
  fail_signals = 1;
  pthread_mutex_unlock (&lock);
}

/* With clfault_fail_signals(), a fill or a small write that gives an event
 * writes nothing: a marker takes its place, its event doomed. Returns
 * whether it did, with the marker's status in @status. */
static int
doomed_marker (cl_command_queue queue, cl_uint n_wait, const cl_event * wait,
    cl_event * event, cl_int * status)
{
  int doom;

  /* held across the marker, so that the event it gives surely has a place
   * among the doomed (the driver's call does not come back here) */
  pthread_mutex_lock (&lock);
  doom = fail_signals && event && n_doomed < MAX_DOOMED;
  if (doom) {
    *status = ((__typeof__ (clEnqueueMarkerWithWaitList) *)
        real ("clEnqueueMarkerWithWaitList")) (queue, n_wait, wait, event);
    if (*status == CL_SUCCESS) {
      doomed[n_doomed++] = *event;
      doomed_total++;
    }
  }
  pthread_mutex_unlock (&lock);
  return doom;
}

unsigned
clfault_doomed (void)
{
  unsigned n;

  pthread_mutex_lock (&lock);
  n = doomed_total;
  pthread_mutex_unlock (&lock);
  return n;
}

static int
is_doomed (cl_event event)
{
  unsigned i;
  int found = 0;

  pthread_mutex_lock (&lock);
  for (i = 0; i < n_doomed && !found; i++)
    found = doomed[i] == event;
  pthread_mutex_unlock (&lock);
  return found;
}

unsigned long
clfault_calls (void)
{
  unsigned long n;

  pthread_mutex_lock (&lock);
  n = calls;
  pthread_mutex_unlock (&lock);
  return n;
}

int
clfault_failed (char *call, size_t size)
{
  int status;

  pthread_mutex_lock (&lock);
  snprintf (call, size, "%s", failed_call);
  status = failed_status;
  pthread_mutex_unlock (&lock);
  return status;
}

const char *
clfault_call (unsigned long n, const void **site)
{
  const char *name = NULL;

  pthread_mutex_lock (&lock);
  if (n >= 1 && n <= calls && n <= MAX_RECORDED) {
    name = recorded[n - 1].name;
    *site = recorded[n - 1].site;
  }
  pthread_mutex_unlock (&lock);
  return name;
}

long
clfault_live (ClFaultKind kind)
{
  long n;

  n = __atomic_load_n (&live[kind], __ATOMIC_RELAXED);
  return n;
}

/* Creators: set *errcode_ret and return NULL, as drivers do */

#define FAIL_CREATE(name, error) \
  cl_int injected = fault_check (#name, error, __builtin_return_address (0)); \
  if (injected != CL_SUCCESS) { \
    if (errcode_ret) \
      *errcode_ret = injected; \
    return NULL; \
  }

#define COUNT_CREATED(kind, obj) \
  if (obj) \
    count_live (kind, 1)

cl_context
clCreateContext (const cl_context_properties * properties,
    cl_uint num_devices, const cl_device_id * devices,
    void (CL_CALLBACK * pfn_notify) (const char *, const void *, size_t,
        void *), void *user_data, cl_int * errcode_ret)
{
  cl_context obj;

  REAL (clCreateContext);
  FAIL_CREATE (clCreateContext, CL_OUT_OF_HOST_MEMORY);
  obj = CALL (properties, num_devices, devices, pfn_notify, user_data,
      errcode_ret);
  COUNT_CREATED (CLFAULT_CONTEXT, obj);
  return obj;
}

cl_command_queue
clCreateCommandQueue (cl_context context, cl_device_id device,
    cl_command_queue_properties properties, cl_int * errcode_ret)
{
  cl_command_queue obj;

  REAL (clCreateCommandQueue);
  FAIL_CREATE (clCreateCommandQueue, CL_OUT_OF_RESOURCES);
  obj = CALL (context, device, properties, errcode_ret);
  COUNT_CREATED (CLFAULT_QUEUE, obj);
  return obj;
}

cl_mem
clCreateBuffer (cl_context context, cl_mem_flags flags, size_t size,
    void *host_ptr, cl_int * errcode_ret)
{
  cl_mem obj;

  REAL (clCreateBuffer);
  FAIL_CREATE (clCreateBuffer, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  obj = CALL (context, flags, size, host_ptr, errcode_ret);
  COUNT_CREATED (CLFAULT_MEM, obj);
  return obj;
}

/* OpenCL 3.0's, which imports CUDA memory (gstclcudaframe.c); the headers
 * declare it only for that target */
cl_mem clCreateBufferWithProperties (cl_context context,
    const cl_ulong * properties, cl_mem_flags flags, size_t size,
    void *host_ptr, cl_int * errcode_ret);

cl_mem
clCreateBufferWithProperties (cl_context context, const cl_ulong * properties,
    cl_mem_flags flags, size_t size, void *host_ptr, cl_int * errcode_ret)
{
  cl_mem obj;

  REAL (clCreateBufferWithProperties);
  FAIL_CREATE (clCreateBufferWithProperties, CL_INVALID_OPERATION);
  obj = CALL (context, properties, flags, size, host_ptr, errcode_ret);
  COUNT_CREATED (CLFAULT_MEM, obj);
  return obj;
}

cl_mem
clCreateSubBuffer (cl_mem buffer, cl_mem_flags flags,
    cl_buffer_create_type type, const void *info, cl_int * errcode_ret)
{
  cl_mem obj;

  REAL (clCreateSubBuffer);
  FAIL_CREATE (clCreateSubBuffer, CL_OUT_OF_RESOURCES);
  obj = CALL (buffer, flags, type, info, errcode_ret);
  COUNT_CREATED (CLFAULT_MEM, obj);
  return obj;
}

cl_program
clCreateProgramWithSource (cl_context context, cl_uint count,
    const char **strings, const size_t *lengths, cl_int * errcode_ret)
{
  cl_program obj;

  REAL (clCreateProgramWithSource);
  FAIL_CREATE (clCreateProgramWithSource, CL_OUT_OF_HOST_MEMORY);
  obj = CALL (context, count, strings, lengths, errcode_ret);
  COUNT_CREATED (CLFAULT_PROGRAM, obj);
  return obj;
}

cl_program
clCreateProgramWithBinary (cl_context context, cl_uint num_devices,
    const cl_device_id * device_list, const size_t *lengths,
    const unsigned char **binaries, cl_int * binary_status,
    cl_int * errcode_ret)
{
  cl_program obj;

  REAL (clCreateProgramWithBinary);
  FAIL_CREATE (clCreateProgramWithBinary, CL_INVALID_BINARY);
  obj = CALL (context, num_devices, device_list, lengths, binaries,
      binary_status, errcode_ret);
  COUNT_CREATED (CLFAULT_PROGRAM, obj);
  return obj;
}

cl_kernel
clCreateKernel (cl_program program, const char *kernel_name,
    cl_int * errcode_ret)
{
  cl_kernel obj;

  REAL (clCreateKernel);
  FAIL_CREATE (clCreateKernel, CL_OUT_OF_RESOURCES);
  obj = CALL (program, kernel_name, errcode_ret);
  COUNT_CREATED (CLFAULT_KERNEL, obj);
  return obj;
}

/* Retains and releases: counted */

#define RETAIN_RELEASE(name, type, kind, delta) \
cl_int \
name (type obj) \
{ \
  cl_int status; \
  REAL (name); \
  status = CALL (obj); \
  if (status == CL_SUCCESS) \
    count_live (kind, delta); \
  return status; \
}

RETAIN_RELEASE (clRetainContext, cl_context, CLFAULT_CONTEXT, 1);
RETAIN_RELEASE (clReleaseContext, cl_context, CLFAULT_CONTEXT, -1);
RETAIN_RELEASE (clReleaseCommandQueue, cl_command_queue, CLFAULT_QUEUE, -1);
RETAIN_RELEASE (clRetainMemObject, cl_mem, CLFAULT_MEM, 1);
RETAIN_RELEASE (clReleaseMemObject, cl_mem, CLFAULT_MEM, -1);
RETAIN_RELEASE (clReleaseProgram, cl_program, CLFAULT_PROGRAM, -1);
RETAIN_RELEASE (clReleaseKernel, cl_kernel, CLFAULT_KERNEL, -1);
RETAIN_RELEASE (clRetainEvent, cl_event, CLFAULT_EVENT, 1);

cl_int
clReleaseEvent (cl_event event)
{
  cl_int status;
  unsigned i;

  REAL (clReleaseEvent);
  /* a failed fill's event no more: its handle may come back for another */
  if (__atomic_load_n (&n_doomed, __ATOMIC_RELAXED)) {
    pthread_mutex_lock (&lock);
    for (i = 0; i < n_doomed; i++)
      if (doomed[i] == event)
        doomed[i--] = doomed[--n_doomed];
    pthread_mutex_unlock (&lock);
  }
  status = CALL (event);
  if (status == CL_SUCCESS)
    count_live (CLFAULT_EVENT, -1);
  return status;
}

/* Calls that return a status */

#define FAIL_STATUS(name, error) \
  cl_int injected = fault_check (#name, error, __builtin_return_address (0)); \
  if (injected != CL_SUCCESS) \
    return injected

/* an event made by an enqueue */
#define COUNT_EVENT(status, event) \
  if ((status) == CL_SUCCESS && (event)) \
    count_live (CLFAULT_EVENT, 1)

cl_int
clGetPlatformIDs (cl_uint num_entries, cl_platform_id * platforms,
    cl_uint * num_platforms)
{
  REAL (clGetPlatformIDs);
  FAIL_STATUS (clGetPlatformIDs, CL_OUT_OF_HOST_MEMORY);
  return CALL (num_entries, platforms, num_platforms);
}

cl_int
clGetPlatformInfo (cl_platform_id platform, cl_platform_info param_name,
    size_t size, void *value, size_t *size_ret)
{
  REAL (clGetPlatformInfo);
  FAIL_STATUS (clGetPlatformInfo, CL_OUT_OF_HOST_MEMORY);
  return CALL (platform, param_name, size, value, size_ret);
}

cl_int
clGetDeviceIDs (cl_platform_id platform, cl_device_type device_type,
    cl_uint num_entries, cl_device_id * devices, cl_uint * num_devices)
{
  REAL (clGetDeviceIDs);
  FAIL_STATUS (clGetDeviceIDs, CL_OUT_OF_RESOURCES);
  return CALL (platform, device_type, num_entries, devices, num_devices);
}

cl_int
clGetDeviceInfo (cl_device_id device, cl_device_info param_name,
    size_t size, void *value, size_t *size_ret)
{
  REAL (clGetDeviceInfo);
  FAIL_STATUS (clGetDeviceInfo, CL_OUT_OF_RESOURCES);
  return CALL (device, param_name, size, value, size_ret);
}

cl_int
clBuildProgram (cl_program program, cl_uint num_devices,
    const cl_device_id * device_list, const char *options,
    void (CL_CALLBACK * pfn_notify) (cl_program, void *), void *user_data)
{
  REAL (clBuildProgram);
  FAIL_STATUS (clBuildProgram, CL_BUILD_PROGRAM_FAILURE);
  return CALL (program, num_devices, device_list, options, pfn_notify,
      user_data);
}

cl_int
clGetProgramInfo (cl_program program, cl_program_info param_name,
    size_t size, void *value, size_t *size_ret)
{
  REAL (clGetProgramInfo);
  FAIL_STATUS (clGetProgramInfo, CL_OUT_OF_RESOURCES);
  return CALL (program, param_name, size, value, size_ret);
}

cl_int
clGetProgramBuildInfo (cl_program program, cl_device_id device,
    cl_program_build_info param_name, size_t size, void *value,
    size_t *size_ret)
{
  REAL (clGetProgramBuildInfo);
  FAIL_STATUS (clGetProgramBuildInfo, CL_OUT_OF_RESOURCES);
  return CALL (program, device, param_name, size, value, size_ret);
}

cl_int
clSetKernelArg (cl_kernel kernel, cl_uint index, size_t size, const void *value)
{
  REAL (clSetKernelArg);
  FAIL_STATUS (clSetKernelArg, CL_OUT_OF_RESOURCES);
  return CALL (kernel, index, size, value);
}

cl_int
clGetEventInfo (cl_event event, cl_event_info param_name, size_t size,
    void *value, size_t *size_ret)
{
  cl_int status;

  REAL (clGetEventInfo);
  FAIL_STATUS (clGetEventInfo, CL_OUT_OF_RESOURCES);
  status = CALL (event, param_name, size, value, size_ret);
  /* a failed fill ends, as a command does, once the commands before it */
  if (status == CL_SUCCESS && param_name == CL_EVENT_COMMAND_EXECUTION_STATUS
      && value && size >= sizeof (cl_int)
      && *(cl_int *) value == CL_COMPLETE && is_doomed (event))
    *(cl_int *) value = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return status;
}

cl_int
clGetEventProfilingInfo (cl_event event, cl_profiling_info param_name,
    size_t size, void *value, size_t *size_ret)
{
  REAL (clGetEventProfilingInfo);
  FAIL_STATUS (clGetEventProfilingInfo, CL_PROFILING_INFO_NOT_AVAILABLE);
  return CALL (event, param_name, size, value, size_ret);
}

cl_int
clSetEventCallback (cl_event event, cl_int type,
    void (CL_CALLBACK * pfn_notify) (cl_event, cl_int, void *), void *user_data)
{
  REAL (clSetEventCallback);
  FAIL_STATUS (clSetEventCallback, CL_OUT_OF_HOST_MEMORY);
  return CALL (event, type, pfn_notify, user_data);
}

cl_int
clFlush (cl_command_queue queue)
{
  REAL (clFlush);
  FAIL_STATUS (clFlush, CL_OUT_OF_RESOURCES);
  return CALL (queue);
}

/* after the wait: see the top of the file */
cl_int
clFinish (cl_command_queue queue)
{
  cl_int status;

  REAL (clFinish);
  status = CALL (queue);
  if (status == CL_SUCCESS)
    status = fault_check ("clFinish", CL_OUT_OF_RESOURCES,
        __builtin_return_address (0));
  return status;
}

cl_int
clWaitForEvents (cl_uint num_events, const cl_event * events)
{
  cl_int status;

  REAL (clWaitForEvents);
  status = CALL (num_events, events);
  if (status == CL_SUCCESS)
    status = fault_check ("clWaitForEvents",
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
        __builtin_return_address (0));
  return status;
}

/* Enqueues */

cl_int
clEnqueueNDRangeKernel (cl_command_queue queue, cl_kernel kernel,
    cl_uint dims, const size_t *offset, const size_t *global,
    const size_t *local, cl_uint n_wait, const cl_event * wait,
    cl_event * event)
{
  cl_int status;

  REAL (clEnqueueNDRangeKernel);
  FAIL_STATUS (clEnqueueNDRangeKernel, CL_OUT_OF_RESOURCES);
  status = CALL (queue, kernel, dims, offset, global, local, n_wait, wait,
      event);
  COUNT_EVENT (status, event);
  return status;
}

cl_int
clEnqueueCopyBuffer (cl_command_queue queue, cl_mem src, cl_mem dst,
    size_t src_offset, size_t dst_offset, size_t size, cl_uint n_wait,
    const cl_event * wait, cl_event * event)
{
  cl_int status;

  REAL (clEnqueueCopyBuffer);
  FAIL_STATUS (clEnqueueCopyBuffer, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  status = CALL (queue, src, dst, src_offset, dst_offset, size, n_wait,
      wait, event);
  COUNT_EVENT (status, event);
  return status;
}

cl_int
clEnqueueCopyBufferRect (cl_command_queue queue, cl_mem src, cl_mem dst,
    const size_t *src_origin, const size_t *dst_origin,
    const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
    size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint n_wait,
    const cl_event * wait, cl_event * event)
{
  cl_int status;

  REAL (clEnqueueCopyBufferRect);
  FAIL_STATUS (clEnqueueCopyBufferRect, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  status = CALL (queue, src, dst, src_origin, dst_origin, region,
      src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch, n_wait,
      wait, event);
  COUNT_EVENT (status, event);
  return status;
}

cl_int
clEnqueueFillBuffer (cl_command_queue queue, cl_mem buffer,
    const void *pattern, size_t pattern_size, size_t offset, size_t size,
    cl_uint n_wait, const cl_event * wait, cl_event * event)
{
  cl_int status;

  REAL (clEnqueueFillBuffer);
  FAIL_STATUS (clEnqueueFillBuffer, CL_OUT_OF_RESOURCES);
  if (doomed_marker (queue, n_wait, wait, event, &status)) {
    COUNT_EVENT (status, event);
    return status;
  }
  status = CALL (queue, buffer, pattern, pattern_size, offset, size,
      n_wait, wait, event);
  COUNT_EVENT (status, event);
  return status;
}

cl_int
clEnqueueReadBuffer (cl_command_queue queue, cl_mem buffer,
    cl_bool blocking, size_t offset, size_t size, void *ptr, cl_uint n_wait,
    const cl_event * wait, cl_event * event)
{
  cl_int status;

  REAL (clEnqueueReadBuffer);
  FAIL_STATUS (clEnqueueReadBuffer, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  status = CALL (queue, buffer, blocking, offset, size, ptr, n_wait, wait,
      event);
  COUNT_EVENT (status, event);
  return status;
}

cl_int
clEnqueueReadBufferRect (cl_command_queue queue, cl_mem buffer,
    cl_bool blocking, const size_t *buffer_origin,
    const size_t *host_origin, const size_t *region,
    size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
    size_t host_slice_pitch, void *ptr, cl_uint n_wait, const cl_event * wait,
    cl_event * event)
{
  cl_int status;

  REAL (clEnqueueReadBufferRect);
  FAIL_STATUS (clEnqueueReadBufferRect, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  status = CALL (queue, buffer, blocking, buffer_origin, host_origin,
      region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
      host_slice_pitch, ptr, n_wait, wait, event);
  COUNT_EVENT (status, event);
  return status;
}

typedef struct
{
  cl_event event;
  unsigned ms;
} Held;

static void *
release_held (void *data)
{
  Held *held = data;
  static __typeof__ (clSetUserEventStatus) * set;
  static __typeof__ (clReleaseEvent) * release;

  usleep (held->ms * 1000u);
  if (!set) {
    set = (__typeof__ (clSetUserEventStatus) *) real ("clSetUserEventStatus");
    release = (__typeof__ (clReleaseEvent) *) real ("clReleaseEvent");
  }
  set (held->event, CL_COMPLETE);
  release (held->event);
  free (held);
  return NULL;
}

/* a user event on @queue's context that completes @ms ms from now, for
 * the caller to release; NULL where it cannot be made */
static cl_event
user_event_after (cl_command_queue queue, unsigned ms)
{
  static __typeof__ (clGetCommandQueueInfo) * info;
  static __typeof__ (clCreateUserEvent) * create;
  cl_context context;
  Held *held;
  pthread_t thread;

  if (!create) {
    info = (__typeof__ (clGetCommandQueueInfo) *)
        real ("clGetCommandQueueInfo");
    create = (__typeof__ (clCreateUserEvent) *) real ("clCreateUserEvent");
  }
  if (info (queue, CL_QUEUE_CONTEXT, sizeof (context), &context, NULL) !=
      CL_SUCCESS || !(held = malloc (sizeof (*held))))
    return NULL;
  held->ms = ms;
  if (!(held->event = create (context, NULL))) {
    free (held);
    return NULL;
  }
  /* one reference for the thread, one for the caller */
  ((__typeof__ (clRetainEvent) *) real ("clRetainEvent")) (held->event);
  if (pthread_create (&thread, NULL, release_held, held) != 0) {
    cl_event event = held->event;

    free (held);
    ((__typeof__ (clSetUserEventStatus) *)
        real ("clSetUserEventStatus")) (event, CL_COMPLETE);
    ((__typeof__ (clReleaseEvent) *) real ("clReleaseEvent")) (event);
    return event;
  }
  pthread_detach (thread);
  return held->event;
}

cl_int
clEnqueueWriteBuffer (cl_command_queue queue, cl_mem buffer,
    cl_bool blocking, size_t offset, size_t size, const void *ptr,
    cl_uint n_wait, const cl_event * wait, cl_event * event)
{
  cl_int status;
  cl_event held = NULL;
  unsigned ms;

  REAL (clEnqueueWriteBuffer);
  FAIL_STATUS (clEnqueueWriteBuffer, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  if (size <= 16 && !blocking &&
      doomed_marker (queue, n_wait, wait, event, &status)) {
    COUNT_EVENT (status, event);
    return status;
  }
  pthread_mutex_lock (&lock);
  ms = hold_ms && !blocking && !n_wait && size >= hold_min_bytes ? hold_ms : 0;
  pthread_mutex_unlock (&lock);
  if (ms && (held = user_event_after (queue, ms))) {
    n_wait = 1;
    wait = &held;
  }
  status = CALL (queue, buffer, blocking, offset, size, ptr, n_wait, wait,
      event);
  COUNT_EVENT (status, event);
  if (held)
    ((__typeof__ (clReleaseEvent) *) real ("clReleaseEvent")) (held);
  return status;
}

void *
clEnqueueMapBuffer (cl_command_queue queue, cl_mem buffer, cl_bool blocking,
    cl_map_flags flags, size_t offset, size_t size, cl_uint n_wait,
    const cl_event * wait, cl_event * event, cl_int * errcode_ret)
{
  void *ptr;
  cl_int status = CL_SUCCESS;

  REAL (clEnqueueMapBuffer);
  FAIL_CREATE (clEnqueueMapBuffer, CL_MAP_FAILURE);
  ptr = CALL (queue, buffer, blocking, flags, offset, size, n_wait, wait,
      event, &status);
  if (errcode_ret)
    *errcode_ret = status;
  COUNT_EVENT (status, event);
  return ptr;
}

cl_int
clEnqueueUnmapMemObject (cl_command_queue queue, cl_mem memobj,
    void *mapped_ptr, cl_uint n_wait, const cl_event * wait, cl_event * event)
{
  cl_int status;

  REAL (clEnqueueUnmapMemObject);
  FAIL_STATUS (clEnqueueUnmapMemObject, CL_OUT_OF_RESOURCES);
  status = CALL (queue, memobj, mapped_ptr, n_wait, wait, event);
  COUNT_EVENT (status, event);
  return status;
}

cl_int
clEnqueueMarkerWithWaitList (cl_command_queue queue, cl_uint n_wait,
    const cl_event * wait, cl_event * event)
{
  cl_int status;

  REAL (clEnqueueMarkerWithWaitList);
  FAIL_STATUS (clEnqueueMarkerWithWaitList, CL_OUT_OF_HOST_MEMORY);
  status = CALL (queue, n_wait, wait, event);
  COUNT_EVENT (status, event);
  return status;
}

cl_int
clEnqueueBarrierWithWaitList (cl_command_queue queue, cl_uint n_wait,
    const cl_event * wait, cl_event * event)
{
  cl_int status;

  REAL (clEnqueueBarrierWithWaitList);
  FAIL_STATUS (clEnqueueBarrierWithWaitList, CL_OUT_OF_HOST_MEMORY);
  status = CALL (queue, n_wait, wait, event);
  COUNT_EVENT (status, event);
  return status;
}

/* The entry points of extensions, which the plugin looks up at run time:
 * those it calls for every frame are counted, timed and failed as the
 * others are. */

#include <CL/cl_ext.h>

static clEnqueueAcquireExternalMemObjectsKHR_fn real_acquire;
static clEnqueueReleaseExternalMemObjectsKHR_fn real_release;

#define EXTERNAL_MEM_WRAPPER(fn, real_ext, NAME) \
static cl_int CL_API_CALL \
fn (cl_command_queue queue, cl_uint n, const cl_mem * mems, cl_uint n_wait, \
    const cl_event * wait, cl_event * event) \
{ \
  static int slot = -2; \
  __auto_type real_fn = real_ext; \
  cl_int status; \
  if (slot == -2) \
    slot = tally_slot (NAME); \
  status = fault_check (NAME, CL_OUT_OF_RESOURCES, \
      __builtin_return_address (0)); \
  if (status != CL_SUCCESS) \
    return status; \
  status = CALL (queue, n, mems, n_wait, wait, event); \
  COUNT_EVENT (status, event); \
  return status; \
}

EXTERNAL_MEM_WRAPPER (acquire_external, real_acquire,
    "clEnqueueAcquireExternalMemObjectsKHR");
EXTERNAL_MEM_WRAPPER (release_external, real_release,
    "clEnqueueReleaseExternalMemObjectsKHR");

void *
clGetExtensionFunctionAddressForPlatform (cl_platform_id platform,
    const char *name)
{
  static __typeof__ (clGetExtensionFunctionAddressForPlatform) * real_fn;
  void *fn;

  if (!real_fn)
    real_fn = (__typeof__ (real_fn))
        real ("clGetExtensionFunctionAddressForPlatform");
  /* the first platform's only: another's goes to its own driver, uncounted */
  fn = real_fn (platform, name);
  pthread_mutex_lock (&lock);
  if (fn && strcmp (name, "clEnqueueAcquireExternalMemObjectsKHR") == 0 &&
      (!real_acquire || (void *) real_acquire == fn)) {
    real_acquire = (clEnqueueAcquireExternalMemObjectsKHR_fn) fn;
    fn = (void *) acquire_external;
  } else if (fn && strcmp (name, "clEnqueueReleaseExternalMemObjectsKHR") == 0
      && (!real_release || (void *) real_release == fn)) {
    real_release = (clEnqueueReleaseExternalMemObjectsKHR_fn) fn;
    fn = (void *) release_external;
  }
  pthread_mutex_unlock (&lock);
  return fn;
}
