/* implicit_side.h — one body's implicit function at a world point, evaluated at the body's pose at the end
 * of the step q^{l+1} = q^l + h nu^{l+1} (backward Euler on positions), with the derivatives the mixed NCPs
 * of the geometrically implicit time-stepper need (Chakraborty, Berard, Akella & Trinkle, Sec. 4 and 5):
 * value, world gradient and Hessian in the point, and value / gradient derivatives in the body's pose. 2D.
 * Shared by geometric_implicit.c and quasi_rigid.c. */
#ifndef CB_IMPLICIT_SIDE_H
#define CB_IMPLICIT_SIDE_H

#include "contact_set.h"
#include "shape.h"
#include "world.h"

#include <stddef.h>

struct gi_side {
  int dof;           /* -1 for a static body */
  double x0[2], th0; /* pose at the start of the step */
  struct convex_fn fn;
};

struct side_eval {
  double f, G[2], Hw[4]; /* value, world gradient, world Hessian (row-major) */
  double dfdq[3];        /* d f / d (x, y, theta) of the body's pose */
  double dGdq[6];        /* d G / d (x, y, theta), 2 x 3 row-major */
  double r[2];           /* a - x (lever arm) */
};

/* The body's pose (x, theta) at the end of the step for the velocities nu (unchanged for a static body). */
void side_pose(const struct gi_side *s, double h, const double *nu, double x[2], double *th);
/* f at the world point a, with its derivatives (struct side_eval). */
void side_eval(const struct gi_side *s, double h, const double *nu, const double *a, struct side_eval *e);
/* The same for another inequality fn of the side's body (a polygon's half-planes, Sec. 4.3). */
void side_eval_fn(const struct gi_side *s, const struct convex_fn *fn, double h, const double *nu,
                  const double *a, struct side_eval *e);
/* The single convex function of a world shape in its body's frame (disc, half-plane); 1 with msg otherwise.
 */
int implicit_side_shape(const struct world *w, int si, struct convex_fn *fn, char *msg, size_t len);
/* J[row, dof + k] += scale h v[k] (k = 0 .. 2): a derivative with respect to the side's end-of-step pose,
 * chained to its velocities (q^{l+1} = q^l + h nu); nothing for a static side or a NULL J. */
static inline void side_add_pose(double *J, int n, int row, const struct gi_side *s, double h,
                                 const double *v, double scale)
{
  if (!J || s->dof < 0) return;
  for (int k = 0; k < 3; k++)
    J[(size_t)row * n + s->dof + k] += scale * h * v[k];
}

/* The unit normal n = sign G / |G| of an evaluation and its derivatives in the point (dn_a, 2 x 2) and in
 * the side's pose (dn_q, 2 x 3), row-major; 1 when G = 0 (no normal). */
int side_unit_normal(const struct side_eval *e, double sign, double n[2], double dn_a[4], double dn_q[6]);

/* The KKT rows of the distance problem between two sides in 2D, Chakraborty et al. (15)-(16), or (28)-(29)
 * when side 2 is an intersection of m2 half-planes (e2[q] its inequality q at a2): rows row15 + k,
 * a1 - a2 + l1 G1(a1), and rows row16 + k, G1(a1) + sum_q l2_q G2_q(a2) (k = 0, 1), with their derivatives
 * in J when J is not NULL. x holds every unknown: the points at columns a1, a2 (two each), l1 at l1, the m2
 * multipliers l2 from l2. Used by geometric_implicit and by quasi_rigid's (34). */
struct implicit_kkt2_cols {
  int row15, row16, a1, a2, l1, l2;
};
void implicit_kkt2_rows(struct implicit_kkt2_cols c, const double *x, const struct gi_side *s1,
                        const struct side_eval *e1, const struct gi_side *s2, const struct side_eval *e2,
                        int m2, double h, double *F, double *J, int n);

/* A side of a contact from shape si: its body's dof, its pose at the start of the step and its function
 * (implicit_side_shape; nonzero with msg when the shape has none). */
int implicit_side_init(const struct world *w, int si, struct gi_side *s, char *msg, size_t len);
/* Only the body's dof and pose at the start of the step (a side whose inequalities are kept elsewhere). */
void implicit_side_pose_init(const struct world *w, int si, struct gi_side *s);

/* Room for need elements of size bytes in *buf (its room *cap, grown to 2 need when short: the step's
 * per-contact pools and scratch of the implicit formulations); 0, or 1 out of memory (*buf unchanged). */
int implicit_grow(void **buf, int *cap, int need, size_t size);

/* What every implicit step (geometric_implicit in 2D and 3D, quasi_rigid) starts from: the mass matrix M
 * (ndof x ndof), the velocity nu0 at the start of the step, the applied impulse h F_ext (papp), and the
 * initial guess (length n) whose velocity block is nu0. The buffers are grown (realloc) to fit; nonzero when
 * out of memory. */
int implicit_step_start(const struct world *w, double h, int n, double **M, double **nu0, double **papp,
                        double **guess);

/* The potential contacts of an implicit step: world_detect within threshold, then one contact per pair of
 * convex parts (the KKT rows find the closest points themselves). Nonzero when detection fails. */
int implicit_detect_pairs(const struct world *w, double threshold, struct contact_set *cs);

#endif
