/* fd_jacobian.h — the tests' finite-difference check of a callback problem's analytic Jacobian (central
 * differences, entrywise relative error), and the random states the implicit formulations' tests check it
 * at. Linked into every test with check.o. */
#ifndef CB_FD_JACOBIAN_H
#define CB_FD_JACOBIAN_H

#include "cp.h"
#include "world.h"

#include <gsl/gsl_rng.h>

/* max over entries of |J - J_fd| / max(1, |J|) at z, J_fd by central differences with the step 1e-6 (times
 * max(1, |z_j|) with relative_step); INFINITY when F or J cannot be evaluated or memory runs out. */
double fd_jacobian_error(const struct cp_problem *p, const double *z, int relative_step);

/* The formulation's step problem for w (its defaults and the option / value pairs opts, NULL-terminated
 * or NULL, given through formulation_set_option; detection and assembly at h = 0.01) checked at 5 random
 * points of rng, each complementarity unknown 0.05 .. 1.05 above its lower bound, each free one in [-0.3,
 * 0.3]: the worst fd_jacobian_error (fixed step). NAN when the formulation detects no contact, refuses an
 * option or cannot assemble; *ncontacts (may be NULL) the contacts detected. */
double formulation_jacobian_error(struct world *w, const char *formulation, const char *const *opts,
                                  gsl_rng *rng, int *ncontacts);

/* A random unit quaternion, velocity in [-1, 1]^3 and angular velocity in [-2, 2]^3 (3D bodies). */
void random_body_motion(struct body *b, gsl_rng *rng);

#endif
