/* lemke_exact.h — Lemke's method in exact rational arithmetic (GMP integers, fraction-free pivoting) with the
 * lexicographic rule exactly as the theory states it (Cottle-Pang-Stone, The LCP, Sec. 4.4 and 4.9): the end
 * game for problems small enough to pay for it, where the floating-point tableau's ties and near-dependent
 * columns decide the path by rounding. */
#ifndef CB_LEMKE_EXACT_H
#define CB_LEMKE_EXACT_H

#include "solver.h"

/* Solve the LCP or mixed LCP p on the exact binary values of its M and q (covering vector e): z gets the
 * answer rounded to double. s supplies -cp_time_limit (checked every pivot); max_pivots bounds the pivots
 * after the free unknowns' n_eq (which are not counted). r: status (converged, ray_termination, time_limit,
 * max_iterations, not_applicable when the free block is singular), iterations, no_answer, message (appended).
 * Returns nonzero only on allocation failure. */
int lemke_exact_solve(struct solver *s, const struct cp_problem *p, int max_pivots, double *z,
                      struct solve_result *r);

/* lemke's end game: after a float run that left (z, r), solve p again exactly when p->n <= max_n and the
 * float answer does not pass the checker (not after a time limit, nor a ray when keep_ray); the pivot limit
 * covers both runs. Keeps the exact answer unless the float one checks better after rounding. Nonzero only
 * on allocation failure. */
int lemke_exact_end_game(struct solver *s, const struct cp_problem *p, int max_n, int keep_ray, double *z,
                         struct solve_result *r);

#endif
