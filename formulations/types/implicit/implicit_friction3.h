/* implicit_friction3.h — the ellipsoidal friction of the 3D geometrically implicit formulations (Chakraborty,
 * Berard, Akella & Trinkle, Sec. 3 eqs. (5)-(7) and Sec. 4.2 eqs. (21)-(22)), one set of rows shared by
 * geometric_implicit.c (rigid bodies) and quasi_rigid.c (Sec. 5, with p_n = p_ns + p_nr). Given the
 * contact normal n (a struct dv: with its derivatives in the contact's 18 local variables), the frame is
 * t = the unit projection of the world axis `axis` onto the plane normal to n, o = n x t; the body that
 * receives +n (slot `plus`) gets the force F = t p_t + o p_o (+ n p_n when asked) at its point and the
 * moment n p_r, the other body the opposite at its point. Rows written:
 *   0 = e_t^2 mu p_n W_t^T nu + p_t sigma,  and o, r                                          (21)
 *   0 <= sigma perp zeta = mu^2 p_n^2 - p_t^2/e_t^2 - p_o^2/e_o^2 - p_r^2/e_r^2 >= 0             (22)
 * with W_t^T nu = t . (the + body's point velocity - the other's), W_r^T nu = n . (omega_+ - omega_-), and
 * the Newton-Euler rows' friction (and optionally normal) force, each with its analytic Jacobian. */
#ifndef CB_IMPLICIT_FRICTION3_H
#define CB_IMPLICIT_FRICTION3_H

#include "implicit_dv.h"
#include "implicit_side3.h"

struct friction3 {
  const struct gi_side3 *s[2]; /* the contact's sides in local slots 0 and 1 (points, bodies) */
  const double *r[2];          /* their lever arms a - x^{l+1} (d r / d a = I, d r / d v = -h I) */
  const struct dv *rd;         /* NULL, or both lever arms with their derivatives given (the points are
                                  closed-form functions of the poses, tzitzouris_pang); r then unused */
  int plus;                    /* the slot that receives +n, +F: 0 (geometric_implicit's body 1) or 1 */
  int axis;                    /* the world axis that t is projected from (kept while the pair persists) */
  double mu, e[3], h;          /* friction coefficient, e_t, e_o, e_r, step */
  int with_normal;             /* 1: n p_n is part of the force written here; 0: the caller applies it */
  double pn;                   /* the total normal impulse */
  int pn_col[2], npn;          /* its unknowns' columns (p_n; or p_ns, p_nr) */
  double pt, po, pr, sg;       /* the friction impulses and sigma */
  double creep;           /* (21) reads ... + p (sigma + creep): a slip of at most creep while sticking */
  int cone_degree1;       /* (22) in degree 1 (implicit_cone_row) */
  int ipt, ipo, ipr, isg; /* their columns; rows (21) are ipt, ipo, ipr and (22) is isg */
  const int *cols;        /* the 18 local variables' global columns (-1: a static body's) */
};

/* Adds the rows above into F (and J, dense n x n row-major, when not NULL) at the velocities nu; 0, or 1 when
 * the tangent is undefined (n along the axis). */
int implicit_friction3_rows(const struct friction3 *c, const struct dv *nv, const double *nu, double *F,
                            double *J, int n);

/* The friction impulses p_t, p_o, p_r (at columns ipt .. ipt + 2 of x) and sigma (column isg) into fc, with
 * their columns: every model stores them in this order. */
static inline void friction3_set_unknowns(struct friction3 *fc, int ipt, int isg, const double *x)
{
  fc->pt = x[ipt], fc->po = x[ipt + 1], fc->pr = x[ipt + 2], fc->sg = x[isg];
  fc->ipt = ipt, fc->ipo = ipt + 1, fc->ipr = ipt + 2, fc->isg = isg;
}

#endif
