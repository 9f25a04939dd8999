/* jacobian_add.h — J[row, col] += v into a dense row-major Jacobian of n columns: the one accumulation step
 * of the implicit formulations' analytic Jacobians (geometric_implicit, quasi_rigid, 2D and 3D). Nothing
 * happens when J is NULL (a residual-only evaluation) or col < 0 (a static body has no velocity column).
 * And the gap rows of Chakraborty, Berard, Akella & Trinkle's (17)-(19), (31) (quasi_rigid's (34), (36)),
 * written the same way in 2D and 3D. */
#ifndef CB_JACOBIAN_ADD_H
#define CB_JACOBIAN_ADD_H

#include <stddef.h>

static inline void jac_add(double *J, int n, int row, int col, double v)
{
  if (J && col >= 0) J[(size_t)row * n + col] += v;
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
