/* blas_core.c — OpenBLAS (DYNAMIC_ARCH, as Debian builds it) picks its kernels from the CPU's family and
 * model. A model newer than the library falls back to the generic Prescott (SSE3) kernels: Debian 12's
 * OpenBLAS 0.3.21 on an Emerald Rapids Xeon (family 6, model 207) measured dgemm-bound Lemke at n = 1000
 * 2.2x slower with Prescott than with the SkylakeX kernels the CPU can run, so every solver time the suite
 * reports would have been a library's detection artefact. When OPENBLAS_CORETYPE (OpenBLAS's own switch)
 * is unset and the detected core lacks instructions the CPU has, the core that uses them is selected by
 * setting the variable for OpenBLAS's re-detection (gotoblas_dynamic_quit / _init, the library's entry
 * points of its constructor) and then restoring the environment. meta.json records both names. */
#include "blas_core.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

/* OpenBLAS's DYNAMIC_ARCH entry points (not in its headers); weak, so a BLAS without them links and the
 * selection is skipped. */
void gotoblas_dynamic_init(void) __attribute__((weak));
void gotoblas_dynamic_quit(void) __attribute__((weak));

static char detected[64] = "", in_use[64] = "";

/* 3: AVX-512 (F, CD, BW, DQ, VL: OpenBLAS's SkylakeX kernels), 2: AVX2 + FMA (Haswell), 0: less. */
static int cpu_level(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl"))
    return 3;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 2;
#endif
  return 0;
}

/* The level of an OpenBLAS x86-64 core by name; the cores not listed (Prescott, Core2, Nehalem,
 * Sandybridge, Barcelona, ...) use at most AVX without FMA. */
static int core_level(const char *name)
{
  static const char *const avx512[] = {"skylakex", "cooperlake", "sapphirerapids"};
  static const char *const avx2[] = {"haswell", "zen", "excavator", "steamroller"};
  char low[64];
  size_t i = 0;
  for (; name[i] && i + 1 < sizeof low; i++)
    low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
  low[i] = '\0';
  for (size_t k = 0; k < sizeof avx512 / sizeof avx512[0]; k++)
    if (strcmp(low, avx512[k]) == 0) return 3;
  for (size_t k = 0; k < sizeof avx2 / sizeof avx2[0]; k++)
    if (strcmp(low, avx2[k]) == 0) return 2;
  return 0;
}

static void copy_name(char *dst, size_t n, const char *src)
{
  size_t len = strlen(src);
  if (len >= n) len = n - 1;
  memcpy(dst, src, len);
  dst[len] = '\0';
}

void blas_core_select(void)
{
  if (detected[0]) return;
  copy_name(detected, sizeof detected, openblas_get_corename());
  copy_name(in_use, sizeof in_use, detected);
  if (getenv("OPENBLAS_CORETYPE") || !gotoblas_dynamic_init || !gotoblas_dynamic_quit) return;
  int level = cpu_level();
  if (level <= core_level(detected)) return;
  setenv("OPENBLAS_CORETYPE", level == 3 ? "SkylakeX" : "Haswell", 1);
  gotoblas_dynamic_quit();
  gotoblas_dynamic_init();
  unsetenv("OPENBLAS_CORETYPE");
  copy_name(in_use, sizeof in_use, openblas_get_corename());
}

const char *blas_core_in_use(void) { return in_use[0] ? in_use : openblas_get_corename(); }

const char *blas_core_detected(void) { return detected[0] ? detected : openblas_get_corename(); }
