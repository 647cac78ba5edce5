/* gstclfilters: a row's outputs stored as whole vectors, at any address
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by the kernels whose CPU plans store vectors of 8 or 16 bytes or
 * words (#include "vectors.cl", inlined by kernels/embed.py). PoCL's
 * vstoreN stores a byte or a word at a time, each extracted from its
 * vector (an eighth of cldenoise's time on a CPU:
 * docs/benchmarks-journal.md); a store through a vector type of its
 * elements' own alignment is one store of the whole vector, and wants no
 * address a multiple of the vector's size. clepsilon's vector plan, whose
 * stores were a smaller share of its time, measured the same either way
 * and keeps vstoreN. A vector type of
 * lowered alignment is Clang's and GCC's, not OpenCL C's, whose spec
 * leaves a store of a vector at an address not a multiple of its size
 * undefined but through vstoreN: PoCL, Intel's CPU runtime and NVIDIA's
 * (a GPU plan forced to 8 or 16 samples a work-item) stored it so at any
 * address, bit for bit, at odd strides; a compiler that ignored the
 * attribute could take the address as aligned.
 * STORE_WHOLE (T, N, v, p): the N-vector @v of T (uchar or ushort, N 8 or
 * 16) to the global address @p. */
typedef uchar8 __attribute__ ((aligned (1))) uchar8_at;
typedef uchar16 __attribute__ ((aligned (1))) uchar16_at;
typedef ushort8 __attribute__ ((aligned (2))) ushort8_at;
typedef ushort16 __attribute__ ((aligned (2))) ushort16_at;

#define STORE_WHOLE_(at, v, p) (*(__global at *) (p) = (v))
#define STORE_WHOLE_AT(T, N, v, p) STORE_WHOLE_ (T ## N ## _at, v, p)
#define STORE_WHOLE(T, N, v, p) STORE_WHOLE_AT (T, N, v, p)
