/* gstclfilters: two 16-bit lanes an instruction, in packed half floats
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by the kernels whose windows take two samples at once (#include
 * "halves.cl", inlined by kernels/embed.py): with NV_PTX (NVIDIA's
 * compiler, which takes PTX assembly), packed half-precision floats
 * (f16x2), every value an exact integer of at most 2048, so that the
 * halves' rounding never shows; without it, two 16-bit integers, which give
 * the same numbers. A sample n is packed as the bits 0x6400 | n, the half
 * 1024 + n: a difference of two is n - m exactly, without a conversion. */

#ifdef NV_PTX
/* a - b */
inline uint
sub_f16x2 (uint a, uint b)
{
  uint r;

asm ("sub.rn.f16x2 %0, %1, %2;": "=r" (r):"r" (a), "r" (b));
  return r;
}

/* sat (t1 - |e|): 1 where |e| < t1, else 0 (the assembler folds the
 * absolute value into the subtraction) */
inline uint
mask_f16x2 (uint e, uint t1)
{
  uint r;

asm ("{ .reg .b32 a; abs.f16x2 a, %1; sub.rn.sat.f16x2 %0, %2, a; }": "=r" (r):"r" (e), "r" (t1));
  return r;
}

/* a * b + c */
inline uint
fma_f16x2 (uint a, uint b, uint c)
{
  uint r;

asm ("fma.rn.f16x2 %0, %1, %2, %3;": "=r" (r):"r" (a), "r" (b), "r" (c));
  return r;
}

/* a + b */
inline uint
add_f16x2 (uint a, uint b)
{
  uint r;

asm ("add.rn.f16x2 %0, %1, %2;": "=r" (r):"r" (a), "r" (b));
  return r;
}

/* the integers @v as the two halves */
inline uint
to_f16x2 (int2 v)
{
  uint r;

asm ("{ .reg .b16 l, h; cvt.rn.f16.s32 l, %1; cvt.rn.f16.s32 h, %2; mov.b32 %0, {l, h}; }": "=r" (r):"r" (v.x), "r" (v.y));
  return r;
}

/* the two halves as floats */
inline float2
from_f16x2 (uint v)
{
  float a, b;

asm ("{ .reg .b16 l, h; mov.b32 {l, h}, %2; cvt.f32.f16 %0, l; cvt.f32.f16 %1, h; }": "=f" (a), "=f" (b):"r" (v));
  return (float2) (a, b);
}
#else
#define H2_LANES(v) ((int2) ((short) ((v) & 0xffff), (short) ((v) >> 16)))
#define H2_PACKED(v) ((uint) ((v).x & 0xffff) | (uint) ((v).y & 0xffff) << 16)

inline uint
sub_f16x2 (uint a, uint b)
{
  return H2_PACKED (H2_LANES (a) - H2_LANES (b));
}

inline uint
mask_f16x2 (uint e, uint t1)
{
  return H2_PACKED (clamp (H2_LANES (t1) - as_int2 (abs (H2_LANES (e))), 0,
          1));
}

inline uint
fma_f16x2 (uint a, uint b, uint c)
{
  return H2_PACKED (H2_LANES (a) * H2_LANES (b) + H2_LANES (c));
}

inline uint
add_f16x2 (uint a, uint b)
{
  return H2_PACKED (H2_LANES (a) + H2_LANES (b));
}

inline uint
to_f16x2 (int2 v)
{
  return H2_PACKED (v);
}

inline float2
from_f16x2 (uint v)
{
  return convert_float2 (H2_LANES (v));
}
#endif
