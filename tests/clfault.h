/* gstclfilters tests: the control of the preloaded OpenCL fault injector
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stddef.h>

/* the OpenCL objects whose live count clfault_live() gives */
typedef enum
{
  CLFAULT_CONTEXT,
  CLFAULT_QUEUE,
  CLFAULT_MEM,
  CLFAULT_PROGRAM,
  CLFAULT_KERNEL,
  CLFAULT_EVENT,
  CLFAULT_N_KINDS
} ClFaultKind;

/* Numbers calls from 1 again; the call numbered @n fails (0: none). */
void          clfault_reset  (unsigned long n);
/* how many OpenCL calls were made since the last reset */
unsigned long clfault_calls  (void);
/* The error given since the last reset (CL_SUCCESS: none yet); @call is set
 * to the name of the call that failed. */
int           clfault_failed (char * call, size_t size);
/* Call @n (from 1) since the last reset: its entry point, and in @site the
 * address it returns to; NULL past the calls made or recorded. */
const char *  clfault_call   (unsigned long n, const void ** site);
/* retains and creations less releases of one kind, over the whole process */
long          clfault_live   (ClFaultKind kind);
/* Every call of the entry points named in @names (separated by commas)
 * fails too, until the next reset, as calls of a driver out of resources
 * fail again. */
void          clfault_fail_names (const char * names);
/* Until the next reset, every non-blocking clEnqueueWriteBuffer of at
 * least @min_bytes with no events to wait for waits @ms ms behind a user
 * event before it reads its host memory, as on a busy device. */
void          clfault_hold_writes (size_t min_bytes, unsigned ms);
/* Until the next reset, every clEnqueueFillBuffer, and every non-blocking
 * clEnqueueWriteBuffer of at most 16 bytes, that gives an event (a signal
 * to another API, as a CUDA fence's write) writes nothing, and its event,
 * once the commands before it are done, says it ended in an error
 * (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST), as a command that failed
 * on the device. */
void          clfault_fail_signals (void);
/* How many signals clfault_fail_signals() doomed since the last reset. */
unsigned      clfault_doomed (void);
