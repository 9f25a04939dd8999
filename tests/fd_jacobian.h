/* fd_jacobian.h — the tests' finite-difference check of a callback problem's analytic Jacobian (central
 * differences, entrywise relative error), the random states the implicit formulations' tests check it at,
 * and the 3D sphere worlds those tests share. Linked into every test with check.o. */
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

/* A sphere of radius 0.8, off-centre in its body (0.1, -0.05, 0.02; m = 1.3, J = 0.4) at height 1 near the
 * tilted static plane of normal (sin 0.3, -0.2, cos 0.3) and offset 0.1, moving at random (rng); threshold
 * 1, mu 0.4. */
struct world *fd_sphere_near_tilted_plane(gsl_rng *rng);
/* Two moving spheres over the plane z <= 0: radius 1 centred at c1 in its body (m = 1, J = 0.4) at height
 * 1.05, radius 0.7 (m = 2, J = 0.9) at (1.9, 0.6, 1.5), both moving at random (rng, in that order);
 * threshold 1, mu 0.3: sphere-sphere with both bodies dynamic, and sphere-plane. */
struct world *fd_two_spheres_on_ground(const double c1[3], gsl_rng *rng);
/* A unit sphere (m = 1, J = 2/5), body 1, at height z over the plane z <= 0; threshold 1, friction mu. */
struct world *fd_sphere_on_plane(double z, double mu);

#endif
