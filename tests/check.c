/* check.c — see check.h. */
#include "check.h"

#include "blas_core.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static int n_passed, n_failed, n_skipped;

/* Every test runs on the BLAS kernels the drivers run on (bench/engine/blas_core.c), whatever core
 * OpenBLAS detected by itself: a rounding-sensitive path then behaves in a test as in the benchmarks. A
 * constructor, so that no test's main has to remember it; OpenBLAS's own constructor has run by then (a
 * shared library's initialisers run before the program's). */
__attribute__((constructor)) static void check_blas_core(void) { blas_core_select(); }

static void check_vprint(int ok, const char *file, int line, const char *fmt, va_list ap)
{
  printf("%s - ", ok ? "ok" : "not ok");
  vprintf(fmt, ap);
  if (!ok) printf(" (%s:%d)", file, line);
  printf("\n");
  fflush(stdout);
  if (ok)
    n_passed++;
  else
    n_failed++;
}

int check_report(int ok, const char *file, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  check_vprint(ok, file, line, fmt, ap);
  va_end(ap);
  return ok;
}

int check_close(double a, double b, double tol, const char *file, int line, const char *fmt, ...)
{
  int ok = isfinite(a) && isfinite(b) && fabs(a - b) <= tol;
  va_list ap;
  va_start(ap, fmt);
  check_vprint(ok, file, line, fmt, ap);
  va_end(ap);
  if (!ok) printf("#   got %.17g, expected %.17g (tol %.3g)\n", a, b, tol);
  return ok;
}

void check_skip(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  printf("skip - ");
  vprintf(fmt, ap);
  printf("\n");
  fflush(stdout);
  va_end(ap);
  n_skipped++;
}

int check_finish(void)
{
  printf("# %d passed, %d failed, %d skipped\n", n_passed, n_failed, n_skipped);
  return n_failed ? 1 : 0;
}

const char *check_shared_data(void)
{
  const char *env = getenv("CB_SHARED_DATA");
  const char *dir = env ? env : "../shared/data";
  struct stat st;
  return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}
