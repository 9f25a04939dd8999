/* implicit_contact2d.h — the rows of one geometrically implicit contact in 2D (Chakraborty, Berard, Akella &
 * Trinkle, Sec. 3-4: eqs. (15)-(19), (21)-(22), with Sec. 4.3's (28)-(31) when body 2 is an intersection of
 * half-planes): the closest-point KKT rows, the friction rows and the complementarity rows of the pair, and
 * its impulses' share of the two bodies' Newton-Euler rows. Shared by geometric_implicit.c (a world's
 * bodies) and grasp_trial_implicit.c (the lock piece between two jaws that move on one axis). */
#ifndef CB_IMPLICIT_CONTACT2D_H
#define CB_IMPLICIT_CONTACT2D_H

#include "implicit_side.h"

/* Where a contact's unknowns (and rows) are in x: the free block a1 (2), a2 (2), p_t, the complementarity
 * block l1, l2_1 .. l2_m2, p_n, sigma. */
struct implicit_contact2d_index {
  int a1, a2, pt, l1, l2, pn, sg;
};

/* Sets the contact's rows of F and adds its impulses to the Newton-Euler rows F[dof .. dof + 2] of each
 * moving side (s[0]: body 1, one convex function f; s[1]: body 2, its own function when m2 == 1, else the
 * m2 half-planes g2). x holds every unknown, the velocities nu at the sides' dof indices. With J (dense,
 * n columns, row-major) not NULL, adds the analytic derivatives there. e2: room for m2 evaluations. mu, et2:
 * the friction coefficient and e_t^2 (eq. 5); creep: 0 for the paper's (21), else the friction row reads
 * e_t^2 mu p_n v_t + (sigma + creep) p_t (a slip of at most creep while sticking, grasp_trial_implicit.c).
 * Returns 1 when body 2's normal is undefined (zero gradient). */
int implicit_contact2d_eval(const struct gi_side s[2], const struct convex_fn *g2, int m2, double mu,
                            double et2, double creep, double h, const double *x,
                            struct implicit_contact2d_index ix, struct side_eval *e2, double *F, double *J,
                            int n);

#endif
