/* blas_core.h — the OpenBLAS kernel set ("core") the timings are measured with, chosen from the CPU's
 * instructions when OpenBLAS's own detection fell back to a generic one (see blas_core.c). */
#ifndef CB_BLAS_CORE_H
#define CB_BLAS_CORE_H

/* Call first thing in main, before any BLAS call and before threads start. When OPENBLAS_CORETYPE is unset
 * and the core OpenBLAS picked lacks instructions the CPU has (AVX-512, AVX2 + FMA), switches to the core
 * that uses them; the environment is left as the user set it. Idempotent. */
void blas_core_select(void);

/* The core in use (OpenBLAS's name, e.g. "SkylakeX"), and the one OpenBLAS detected by itself: the same
 * unless blas_core_select switched. */
const char *blas_core_in_use(void);
const char *blas_core_detected(void);

#endif
