/* implicit_contact2d.h — the rows of one geometrically implicit contact in 2D (Chakraborty, Berard, Akella &
 * Trinkle, Sec. 3-4: eqs. (15)-(19), (21)-(22), with Sec. 4.3's (28)-(31) when body 2 is an intersection of
 * half-planes): the closest-point KKT rows, the friction rows and the complementarity rows of the pair, and
 * its impulses' share of the two bodies' Newton-Euler rows, for geometric_implicit.c (a world's bodies); its
 * parts (the sides' evaluations, the gap rows, the impulses in the Newton-Euler rows) also for
 * quasi_rigid.c's 2D rows.
 */
#ifndef CB_IMPLICIT_CONTACT2D_H
#define CB_IMPLICIT_CONTACT2D_H

#include "implicit_side.h"
#include "jacobian_add.h"

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
 * e_t^2 mu p_n v_t + (sigma + creep) p_t (a slip of at most creep while sticking: -geometric_implicit_creep).
 * Returns 1 when body 2's normal is undefined (zero gradient). */
int implicit_contact2d_eval(const struct gi_side s[2], const struct convex_fn *g2, int m2, double mu,
                            double et2, int cone_degree1, double creep, double h, const double *x,
                            struct implicit_contact2d_index ix, struct side_eval *e2, double *F, double *J,
                            int n);

/* The sides' functions at the velocities x (nu at their dof indices): body 1's at a1 (e1) and at a2 (e12),
 * body 2's m2 inequalities at a2 (e2[q]: its own function when m2 == 1, else the half-planes g2). */
void implicit_contact2d_sides(const struct gi_side s[2], const struct convex_fn *g2, int m2, double h,
                              const double *x, const double *a1, const double *a2, struct side_eval *e1,
                              struct side_eval *e2, struct side_eval *e12);

/* The gap rows -f(a1) [- delta_bar], -g_q(a2), f(a2) [+ delta_bar] (jacobian_add.h) of the evaluations above.
 */
void implicit_contact2d_gaps(const struct gi_side s[2], const struct side_eval *e1,
                             const struct side_eval *e2, int m2, const struct side_eval *e12, double h,
                             struct implicit_gap_at at, const double *x, double *F, double *J, int n);

/* A contact's impulse n p_n + t p_t in the Newton-Euler rows of its two moving sides: +F at the point of the
 * side plus, -F at the other's, and the moments r x F about the end-of-step positions. n and t are
 * functions of the point column an and of the pose of the side sn. */
struct implicit_force2 {
  const struct gi_side *s[2]; /* the sides */
  const double *r[2];         /* their lever arms a - x^{l+1} (d r / d a = I, d r / d v = -h I) */
  int a[2];                   /* their points' columns */
  int plus;                   /* the side that receives +F */
  const struct gi_side *sn;   /* the side whose function gives n */
  int an;                     /* and the column of the point it is evaluated at */
  double n[2], t[2];
  double dn_a[4], dn_q[6], dt_a[4], dt_q[6]; /* d n, d t / d point (2 x 2), d pose (2 x 3), row-major */
  double pn, pt;                             /* the impulses (pt = 0 without friction) */
  int pn_col[2], npn, pt_col;                /* their columns (p_n, or p_ns and p_nr; pt_col -1: none) */
};

/* n = nsign G / |G| of the evaluation e (side_unit_normal) and t = tsign (-n_y, n_x), with their derivatives,
 * into c; 1 when G = 0. */
int implicit_force2_frame(struct implicit_force2 *c, const struct side_eval *e, double nsign, double tsign);
void implicit_force2_rows(const struct implicit_force2 *c, double h, double *F, double *J, int n);

#endif
