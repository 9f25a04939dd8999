/* mlcp_reduce.h — a mixed LCP with an invertible equality block as an LCP (Cottle-Pang-Stone Sec. 1.5;
 * Anitescu-Hart eq. 6 layout, cp.h: the first n_eq unknowns u are free, M = [A C; D B], q = [a; b]):
 *   A u + C v + a = 0, 0 <= v perp D u + B v + b >= 0,  u = -A^-1 (C v + a)
 *   =>  0 <= v perp (B - D A^-1 C) v + (b - D A^-1 a) >= 0.
 * For any LCP-only solver: reduce, solve the LCP in v, recover z = [u; v]. A (n_eq x n_eq) is factored
 * with LAPACKE dgetrf; a singular or ill-conditioned A (reciprocal condition number below 1e3 * DBL_EPSILON)
 * is refused. Cost O(n_eq^2 (n_eq + m) + n_eq m^2) for m complementary unknowns. */
#ifndef CB_MLCP_REDUCE_H
#define CB_MLCP_REDUCE_H

#include "cp.h"

#include <stddef.h>

struct mlcp_reduction; /* holds A^-1 [C a] for the recovery */

/* p must be CP_MLCP (or CP_LCP, passed through as a copy). Returns 0 with *lcp (an LCP of size
 * p->n - p->n_eq, caller destroys) and *red set; 1 if A is singular (reason in msg); 2 on bad input or
 * allocation failure. */
int mlcp_reduce(const struct cp_problem *p, struct cp_problem **lcp, struct mlcp_reduction **red, char *msg,
                size_t msg_len);
/* z = [u; v] (p->n entries) from the LCP solution v (p->n - p->n_eq entries). */
void mlcp_recover(const struct mlcp_reduction *red, const double *v, double *z);
void mlcp_reduction_destroy(struct mlcp_reduction **red);

#endif
