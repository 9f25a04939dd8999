/* jacobian_add.h — J[row, col] += v into a dense row-major Jacobian of n columns: the one accumulation step
 * of the implicit formulations' analytic Jacobians (geometric_implicit, quasi_rigid, 2D and 3D). Nothing
 * happens when J is NULL (a residual-only evaluation) or col < 0 (a static body has no velocity column). */
#ifndef CB_JACOBIAN_ADD_H
#define CB_JACOBIAN_ADD_H

#include <stddef.h>

static inline void jac_add(double *J, int n, int row, int col, double v)
{
  if (J && col >= 0) J[(size_t)row * n + col] += v;
}

#endif
