/* solver_fixture.h — what the solver tests share: a registered solver set up from the options database with
 * a given tolerance, and the largest entrywise difference of two vectors. Linked into every test. */
#ifndef CB_SOLVER_FIXTURE_H
#define CB_SOLVER_FIXTURE_H

#include "solver.h"

/* The solver name, its options read; tol > 0 replaces -cp_tol's value. NULL when name is not registered. */
struct solver *test_solver(const char *name, double tol);
/* max_i |a_i - b_i|, NaN if any difference is NaN (a NaN must fail the tolerance it is compared with). */
double max_abs_diff(const double *a, const double *b, int n);

#endif
