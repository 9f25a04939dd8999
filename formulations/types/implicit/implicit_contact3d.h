/* implicit_contact3d.h — what the 3D contacts of the geometrically implicit formulations share (Chakraborty,
 * Berard, Akella & Trinkle, Secs. 3-5; implicit_step.h's layout): the sides' evaluations at the end-of-step
 * poses, the closest-point KKT rows (15)-(16) ((28)-(29) with a polyhedron; quasi_rigid's (34)) and the gap
 * rows (17)-(19) ((31); quasi_rigid's (34), (36)). Derivatives are carried in the contact's 18 local
 * variables (implicit_dv.h) and scattered through cols. */
#ifndef CB_IMPLICIT_CONTACT3D_H
#define CB_IMPLICIT_CONTACT3D_H

#include "implicit_dv.h"
#include "implicit_friction3.h"
#include "implicit_step.h"

struct implicit_contact3d {
  const struct implicit_contact *ct;
  struct implicit_index ix;
  const struct gi_side3 *s1, *s2; /* body 1 (one function), body 2 */
  int m2;
  int cols[NL];          /* the local variables' global columns: a1, a2, nu1, nu2 (-1: a static body's) */
  struct side3_eval e1;  /* body 1's function at a1 */
  struct side3_eval e12; /* and at a2 */
  struct side3_eval *e2; /* body 2's inequalities at a2 (implicit_step.e3) */
  struct dv G1;          /* grad f(a1) */
};

/* grad of an evaluation at its point, with its derivative in the local variables (point slot, body slot) */
void implicit_grad_dv(const struct side3_eval *e, int point, int body, struct dv *G);
/* Contact i's evaluations at x. */
void implicit_contact3d_eval(const struct implicit_step *d, int i, const double *x,
                             struct implicit_contact3d *c);
/* (15): a1 - a2 + l1 G1(a1) and (16) = (29): G1(a1) + sum_q l2_q G2_q(a2). */
void implicit_contact3d_kkt(const struct implicit_contact3d *c, const double *x, double *F, double *J, int n);
/* The gap rows -f(a1) [- delta_bar], -g_q(a2), f(a2) [+ delta_bar]. */
void implicit_contact3d_gaps(const struct implicit_contact3d *c, const double *x, double *F, double *J,
                             int n);

/* The contact's friction rows (21)-(22) as implicit_friction3.h takes them: the side plus receives +n;
 * with_normal: n p_n is applied there too (else the caller applies it); p_n is p_n, or p_ns + p_nr. */
struct friction3 implicit_contact3d_friction(const struct implicit_step *d,
                                             const struct implicit_contact3d *c, const double *x, int plus,
                                             int with_normal);

#endif
