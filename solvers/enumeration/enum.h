/* enum.h — complementary basic solutions of a (mixed) LCP, shared by `enum` (which enumerates them) and
 * `milp` (which polishes GLPK's answer on the basis it found). Cottle-Pang-Stone, The LCP, Sec. 1.3:
 * for a basic set B (every free unknown plus the complementary unknowns allowed to be positive), z is
 * zero off B and M_BB z_B = -q_B, so w_B = 0. */
#ifndef CB_ENUM_H
#define CB_ENUM_H

#include "cp.h"

#include <lapacke.h>
#include <stddef.h>

/* Workspace for bases of up to n unknowns; allocated once per solve. */
struct enum_basis_work {
  int n;
  double *A;    /* n x n, column-major for LAPACK */
  double *work; /* 4 n (dgecon) */
  lapack_int *ipiv;
  lapack_int *iwork;
};

int enum_basis_work_create(int n, struct enum_basis_work *w);
void enum_basis_work_destroy(struct enum_basis_work *w);

/* Solves M_BB z_B = -q_B for the k indices in basic[] and sets z to zero elsewhere. Returns 0 on success,
 * 1 if M_BB is singular or its reciprocal condition number is below rcond_min (the basis is skipped). */
int enum_basis_solve(const struct cp_problem *p, const int *basic, int k, double rcond_min,
                     struct enum_basis_work *w, double *z);

/* 1 if p is a (mixed) LCP as cp.h stores it: the first n_eq unknowns free, the rest in [0, +inf). */
int enum_is_lcp_form(const struct cp_problem *p);

#endif
