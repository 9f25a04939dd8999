/* copositive.h — whether a complementarity matrix is copositive, as far as a cheap test can tell. Lemke's
 * secondary ray proves an LCP infeasible only for copositive-plus M (Cottle, Pang & Stone, Thm. 4.4.13), so
 * a solver reporting a ray says when M is not (lemke.c). */
#ifndef CB_COPOSITIVE_H
#define CB_COPOSITIVE_H

/* A witness that M is not copositive on a face of the simplex: x = t e_i + (1 - t) e_j >= 0 with
 * x^T M x = a t^2 + b t (1 - t) + c (1 - t)^2 < 0 for some t in [0, 1] (a = M_ii, c = M_jj, b = M_ij +
 * M_ji), i.e. a < 0, or b < -2 sqrt(a c) with a, c >= 0. Lemke's secondary ray proves an LCP infeasible
 * only for copositive-plus M (Cottle, Pang & Stone, Thm. 4.4.13), so a ray on such an M is a limit of the
 * method, not an answer (the nonconvex corners of Egan et al.'s max formulation have such matrices). O(n^2):
 * only after a ray. 1 with *wi, *wj (wi == wj: a negative diagonal), else 0. */
int cp_not_copositive(const double *M, int n, int *wi, int *wj);

#endif
