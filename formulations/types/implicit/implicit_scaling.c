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

#include <float.h>
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

/* The entries of J above the round-off floor n eps max|J_ij|, row by row: their magnitudes and (row, column)
 * pairs; their count, or -1 on allocation failure. Why nonzeros only: a step's Jacobian is mostly zeros
 * (each contact's rows touch two bodies), and an entry that is 0 never raises a maximum. Why the floor: a
 * column whose only entry is round-off at the guess — a contact's sigma, whose one entry is its friction
 * impulse p_t, ~1e-20 N s while the contact carries no load; a support point's, p_k / B while the part is
 * still — was scaled by up to 3.5e41 (1 / sqrt(entry) per sweep), and lo / C <= y then bounds nothing the
 * solver's tolerance can see: a grasp trial's step converged (residual 3e-10) with a fingertip's sigma at
 * -0.277 m/s, its friction pushing along a 6 cm/s slide (the second touch of trial 1074 of the seven medium
 * rows, results/reference/grasp_24seeds_implicit/paired/second_touch/). Below the floor an entry is treated
 * as the zero it is, so such a column keeps the scale 1 and its bound keeps its units. */
static int scaling_nonzeros(struct implicit_scaling *sc, int n, const double *J)
{
  double big = 0.0;
  for (size_t k = 0; k < (size_t)n * n; k++)
    big = fabs(J[k]) > big ? fabs(J[k]) : big;
  const double noise = n * DBL_EPSILON * big;
  int nz = 0;
  for (size_t k = 0; k < (size_t)n * n; k++)
    nz += fabs(J[k]) > noise || isnan(J[k]);
  if (implicit_grow((void **)&sc->nz_abs, &sc->cap_nz_abs, nz > 0 ? nz : 1, sizeof *sc->nz_abs) ||
      implicit_grow((void **)&sc->nz_at, &sc->cap_nz_at, nz > 0 ? 2 * nz : 1, sizeof *sc->nz_at))
    return -1;
  nz = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      const double a = J[(size_t)i * n + j];
      if (!(fabs(a) > noise) && !isnan(a)) continue; /* a NaN is kept: the sweep passes it over as it would */
      sc->nz_abs[nz] = fabs(a);
      sc->nz_at[2 * nz] = i, sc->nz_at[2 * nz + 1] = j;
      nz++;
    }
  return nz;
}

int implicit_scaling_set(struct implicit_scaling *sc, int n, const double *J)
{
  if (implicit_grow((void **)&sc->r, &sc->cap_r, n, sizeof *sc->r) ||
      implicit_grow((void **)&sc->c, &sc->cap_c, n, sizeof *sc->c) ||
      implicit_grow((void **)&sc->row_max, &sc->cap_m, 2 * n, sizeof *sc->row_max))
    return 1;
  const int nz = scaling_nonzeros(sc, n, J);
  if (nz < 0) return 1;
  double *row = sc->row_max, *col = sc->row_max + n;
  for (int i = 0; i < n; i++)
    sc->r[i] = sc->c[i] = 1.0;
  for (int sweep = 0; sweep < RUIZ_SWEEPS; sweep++) {
    memset(sc->row_max, 0, 2 * (size_t)n * sizeof *sc->row_max);
    for (int k = 0; k < nz; k++) {
      const int i = sc->nz_at[2 * k], j = sc->nz_at[2 * k + 1];
      /* r |J_ij| c = |r J_ij c| exactly (rounding is symmetric in sign); selects, not fmax (a libm call per
       * use at -O2: 5 % of a grasp trial); a NaN entry is passed over as fmax passes it */
      const double a = sc->r[i] * sc->nz_abs[k] * sc->c[j];
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
  const double *restrict c = sc->c;
  for (int i = 0; i < n; i++) {
    const double ri = sc->r[i];
    F[i] *= ri;
    if (!J) continue;
    double *restrict Ji = J + (size_t)i * n; /* restrict: J is not the scales, so the loop vectorises */
    for (int j = 0; j < n; j++)
      Ji[j] *= ri * c[j];
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
  free(sc->nz_abs);
  free(sc->nz_at);
  memset(sc, 0, sizeof *sc);
}
