/* implicit_side3.h — one body's implicit function at a world point in 3D, evaluated at the body's pose at the
 * end of the step (Chakraborty, Berard, Akella & Trinkle, geometrically implicit time-stepping, Sec. 3 eq.
 * (6) and Sec. 4): x^{l+1} = x^l + h v^{l+1}, q^{l+1} = q^l + h G(q^l) nu^{l+1} renormalised, i.e.
 * (world-frame omega) q^{l+1} = normalise((1, h omega / 2) * q^l), the world's own update
 * (world_integrate_positions). The rotation is then R = C(u) R^l with u = h omega / 2 and the Cayley form
 * C(u) = I + 2 ([u]x + [u]x^2) / (1 + u.u), whose derivatives in u are exact, so the pose derivatives below
 * are those of the stepper's map. Value, world gradient and Hessian in the point, and value / gradient
 * derivatives in the body's 6 velocities (v, omega). Any single convex function of shapes/shape.h (sphere,
 * ellipsoid, superellipsoid, half-space), or one of a polyhedron's half-spaces (side3_eval_fn, Sec. 4.3). */
#ifndef CB_IMPLICIT_SIDE3_H
#define CB_IMPLICIT_SIDE3_H

#include "shape.h"
#include "world.h"

#include <stddef.h>

struct gi_side3 {
  int dof;             /* -1 for a static body */
  double x0[3], q0[4]; /* pose at the start of the step (unit quaternion, scalar first) */
  struct convex_fn fn; /* in the body frame */
};

struct side3_eval {
  double f, G[3], Hw[9]; /* value, world gradient, world Hessian (row-major) */
  double dfdn[6];        /* d f / d (v, omega) of the body (zero for a static body) */
  double dGdn[18];       /* d G / d (v, omega), 3 x 6 row-major */
  double r[3];           /* a - x^{l+1} (lever arm); d r / d v = -h I, d r / d omega = 0 */
};

/* The body's end-of-step position and rotation (body -> world, row-major) for the velocities nu. */
void side3_pose(const struct gi_side3 *s, double h, const double *nu, double x[3], double R[9]);
/* The same with dR[9 k .. 9 k + 8] = d R / d u_k, u = h omega / 2 (the Cayley map's exact derivative; zero
 * velocities' derivative for a static body is the caller's to drop). */
void side3_pose_d(const struct gi_side3 *s, double h, const double *nu, double x[3], double R[9],
                  double dR[27]);
/* f at the world point a, with its derivatives (struct side3_eval). */
void side3_eval(const struct gi_side3 *s, double h, const double *nu, const double *a, struct side3_eval *e);
/* The same for another inequality fn of the side's body (a polyhedron's half-spaces, Sec. 4.3). */
void side3_eval_fn(const struct gi_side3 *s, const struct convex_fn *fn, double h, const double *nu,
                   const double *a, struct side3_eval *e);
/* The single convex function of a 3D world shape in its body's frame (sphere, superellipsoid, plane); 1 with
 * msg otherwise. */
int implicit_side3_shape(const struct world *w, int si, struct convex_fn *fn, char *msg, size_t len);
/* A side of a contact from shape si: its body's dof, its pose at the start of the step and its function
 * (implicit_side3_shape; nonzero with msg when the shape has none). */
int implicit_side3_init(const struct world *w, int si, struct gi_side3 *s, char *msg, size_t len);
/* Only the body's dof and pose at the start of the step (a side whose inequalities are kept elsewhere). */
void implicit_side3_pose_init(const struct world *w, int si, struct gi_side3 *s);

#endif
