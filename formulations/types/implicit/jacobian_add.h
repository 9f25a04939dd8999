/* jacobian_add.h — J[row, col] += v into a dense row-major Jacobian of n columns: the one accumulation step
 * of the implicit formulations' analytic Jacobians (geometric_implicit, quasi_rigid, 2D and 3D). Nothing
 * happens when J is NULL (a residual-only evaluation) or col < 0 (a static body has no velocity column).
 * And the gap rows of Chakraborty, Berard, Akella & Trinkle's (17)-(19), (31) (quasi_rigid's (34), (36)),
 * written the same way in 2D and 3D. */
#ifndef CB_JACOBIAN_ADD_H
#define CB_JACOBIAN_ADD_H

#include <math.h>
#include <stddef.h>

static inline void jac_add(double *J, int n, int row, int col, double v)
{
  if (J && col >= 0) J[(size_t)row * n + col] += v;
}

/* The friction cone row (22) of Chakraborty et al., the one that sigma is complementary to (0 <= F[row] perp
 * sigma >= 0): the normal impulse pn (its unknowns' columns pncol[0 .. npn)) and the friction impulses p[k]
 * (columns pcol[k], squared ellipsoid semi-axes e2[k], k < m). degree1 0, the paper's: mu^2 pn^2 - sum p_k^2
 * / e2_k, a row in (N s)^2. 1: mu pn - sqrt(sum p_k^2 / e2_k), the same solutions wherever pn >= 0 ((a^2 -
 * b^2) sigma = 0 iff (a - b) sigma = 0 for a + b > 0, both rows 0 at a = b = 0) but in N s, so that the
 * solver's tolerance bounds the friction itself: in (N s)^2, 6e-5 N s of friction on a contact with pn = 0
 * reads 4e-9, inside a 1e-8 tolerance (results/reference/grasp_implicit_quick/README.md). Its slope in p at p
 * = 0 is taken as 0 (an element of the generalised gradient). */
static inline void implicit_cone_row(int row, double mu, double pn, const int *pncol, int npn,
                                     const double *p, const int *pcol, const double *e2, int m, int degree1,
                                     double *F, double *J, int n)
{
  if (!degree1) {
    F[row] = mu * mu * pn * pn;
    for (int k = 0; k < m; k++)
      F[row] -= p[k] * p[k] / e2[k];
    for (int q = 0; q < npn; q++)
      jac_add(J, n, row, pncol[q], 2.0 * mu * mu * pn);
    for (int k = 0; k < m; k++)
      jac_add(J, n, row, pcol[k], -2.0 * p[k] / e2[k]);
    return;
  }
  double b2 = 0.0;
  for (int k = 0; k < m; k++)
    b2 += p[k] * p[k] / e2[k];
  const double b = sqrt(b2);
  F[row] = mu * pn - b;
  for (int q = 0; q < npn; q++)
    jac_add(J, n, row, pncol[q], mu);
  for (int k = 0; k < m && b > 0.0; k++)
    jac_add(J, n, row, pcol[k], -p[k] / (e2[k] * b));
}

/* One gap row: F[row] = value, J[row][a + j] += sign G[j] (j < dim), and for a moving side J[row][dof + k]
 * += sign hp dq[k] (k < nq): 2D's pose derivatives (x, y, theta; nq = 3) chained to the velocities by
 * hp = h, 3D's velocity derivatives (nq = 6) with hp = 1. */
struct implicit_gap {
  int dim, nq;
  double hp;
};
static inline void implicit_gap_row(const struct implicit_gap *g, int row, double value, double sign, int a,
                                    const double *G, int dof, const double *dq, double *F, double *J, int n)
{
  F[row] = value;
  if (!J) return;
  for (int j = 0; j < g->dim; j++)
    J[(size_t)row * n + a + j] += sign * G[j];
  if (dof >= 0)
    for (int k = 0; k < g->nq; k++)
      J[(size_t)row * n + dof + k] += sign * g->hp * dq[k];
}

/* The gap rows' unknowns: the points a1, a2, the rows l1, l2 .. l2 + m2 - 1 and pn ((17), (18) per
 * inequality of body 2, (19)), and quasi_rigid's delta_bar (db; -1 for a rigid contact), which (34) and (36)
 * add to the first and last. */
struct implicit_gap_at {
  int a1, a2, l1, l2, pn, db;
};

#endif
