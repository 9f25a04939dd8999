/* implicit_scaling.c — the geometrically implicit step's NCP in equilibrated units (implicit_scaling.h).
 * Why: the step's unknowns mix velocities, points, impulses, Lagrange multipliers and the friction law's
 * sigma, and its rows momenta, lengths, gradients and products of impulses with speeds. For a world of
 * centimetre bodies moving at centimetres per second (the grasp study: impulses 1e-5 N s, support bounds
 * 4e-5 N s) these differ by ten orders of magnitude, so Newton's Jacobian is numerically singular and an
 * absolute tolerance on F is met by some rows and unreachable by others. Ruiz's equilibration (D. Ruiz, "A
 * scaling algorithm to equilibrate both rows and columns norms in matrices", RAL-TR-2001-034) of the
 * Jacobian at the guess makes every row's and column's largest entry about 1: the problem solved is
 *   F_s(y) = R F(C y),  J_s(y) = R J(C y) C,  lo / C <= y <= hi / C,
 * with R, C diagonal and every entry a power of two, so scaling and unscaling are exact and a problem whose
 * Jacobian is already equilibrated is left as it is. Complementarity is unchanged (C > 0 keeps each bound's
 * side). */
#include "implicit_scaling.h"

#include "implicit_side.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RUIZ_SWEEPS 12

/* The power of two nearest 1 / sqrt(a) (1 for a zero or non-finite a: an empty row or column). */
static double inverse_root(double a)
{
  if (!(a > 0.0) || !isfinite(a)) return 1.0;
  int e;
  (void)frexp(1.0 / sqrt(a), &e);
  return ldexp(1.0, e - 1);
}

int implicit_scaling_set(struct implicit_scaling *sc, int n, const double *J)
{
  if (implicit_grow((void **)&sc->r, &sc->cap_r, n, sizeof *sc->r) ||
      implicit_grow((void **)&sc->c, &sc->cap_c, n, sizeof *sc->c) ||
      implicit_grow((void **)&sc->row_max, &sc->cap_m, 2 * n, sizeof *sc->row_max))
    return 1;
  double *row = sc->row_max, *col = sc->row_max + n;
  for (int i = 0; i < n; i++)
    sc->r[i] = sc->c[i] = 1.0;
  for (int sweep = 0; sweep < RUIZ_SWEEPS; sweep++) {
    memset(sc->row_max, 0, 2 * (size_t)n * sizeof *sc->row_max);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        /* selects, not fmax (a libm call per use at -O2: 5 % of a grasp trial); a NaN entry is passed over
         * as fmax passes it */
        const double a = fabs(sc->r[i] * J[(size_t)i * n + j] * sc->c[j]);
        row[i] = a > row[i] ? a : row[i];
        col[j] = a > col[j] ? a : col[j];
      }
    int changed = 0;
    for (int i = 0; i < n; i++) {
      const double ri = inverse_root(row[i]), ci = inverse_root(col[i]);
      changed |= ri != 1.0 || ci != 1.0;
      sc->r[i] *= ri, sc->c[i] *= ci;
    }
    if (!changed) break;
  }
  sc->n = n;
  return 0;
}

const double *implicit_scaling_unscale(const struct implicit_scaling *sc, const double *y, double *z)
{
  if (!sc->n) return y;
  for (int i = 0; i < sc->n; i++)
    z[i] = sc->c[i] * y[i];
  return z;
}

void implicit_scaling_rows(const struct implicit_scaling *sc, double *F, double *J)
{
  const int n = sc->n;
  for (int i = 0; i < n; i++) {
    F[i] *= sc->r[i];
    if (J)
      for (int j = 0; j < n; j++)
        J[(size_t)i * n + j] *= sc->r[i] * sc->c[j];
  }
}

void implicit_scaling_bounds(const struct implicit_scaling *sc, double *lo, double *hi)
{
  for (int i = 0; i < sc->n; i++)
    lo[i] /= sc->c[i], hi[i] /= sc->c[i];
}

void implicit_scaling_free(struct implicit_scaling *sc)
{
  free(sc->r);
  free(sc->c);
  free(sc->row_max);
  memset(sc, 0, sizeof *sc);
}
