/* implicit_contact2d.c — the rows of one geometrically implicit contact in 2D (Chakraborty, Berard, Akella
 * & Trinkle, Sec. 3-4): the KKT rows of the distance problem (15)-(16) (or (28)-(29) when body 2 is an
 * intersection of half-planes, Sec. 4.3), the friction row (21) with the ellipsoidal law (22), the
 * complementarity rows (17)-(19), and the contact impulses in the Newton-Euler rows (20), with their analytic
 * derivatives (tests/formulations/types/implicit/test_geometric_implicit.c checks them against finite
 * differences). The normal n (towards body 1) is grad g(a2) / |grad g| when body 2 is one function, else
 * -grad f(a1) / |grad f| (body 2's normal cone at a vertex holds many; by (29) -grad f is the common normal);
 * t = (n_y, -n_x). */
#include "implicit_contact2d.h"

#include <math.h>
#include <stddef.h>

void implicit_contact2d_sides(const struct gi_side s[2], const struct convex_fn *g2, int m2, double h,
                              const double *x, const double *a1, const double *a2, struct side_eval *e1,
                              struct side_eval *e2, struct side_eval *e12)
{
  side_eval(&s[0], h, x, a1, e1);
  for (int j = 0; j < m2; j++)
    if (m2 == 1)
      side_eval(&s[1], h, x, a2, &e2[0]);
    else
      side_eval_fn(&s[1], &g2[j], h, x, a2, &e2[j]);
  side_eval(&s[0], h, x, a2, e12);
}

void implicit_contact2d_gaps(const struct gi_side s[2], const struct side_eval *e1,
                             const struct side_eval *e2, int m2, const struct side_eval *e12, double h,
                             struct implicit_gap_at at, const double *x, double *F, double *J, int n)
{
  const struct implicit_gap g = {.dim = 2, .nq = 3, .hp = h};
  const double db = at.db >= 0 ? x[at.db] : 0.0;
  implicit_gap_row(&g, at.l1, at.db >= 0 ? -(e1->f + db) : -e1->f, -1.0, at.a1, e1->G, s[0].dof, e1->dfdq, F,
                   J, n);
  for (int q = 0; q < m2; q++) /* (18) = (31) */
    implicit_gap_row(&g, at.l2 + q, -e2[q].f, -1.0, at.a2, e2[q].G, s[1].dof, e2[q].dfdq, F, J, n);
  implicit_gap_row(&g, at.pn, at.db >= 0 ? e12->f + db : e12->f, 1.0, at.a2, e12->G, s[0].dof, e12->dfdq, F,
                   J, n);
  jac_add(J, n, at.l1, at.db, -1.0);
  jac_add(J, n, at.pn, at.db, 1.0);
}

int implicit_force2_frame(struct implicit_force2 *c, const struct side_eval *e, double nsign, double tsign)
{
  if (side_unit_normal(e, nsign, c->n, c->dn_a, c->dn_q)) return 1;
  c->t[0] = tsign * -c->n[1];
  c->t[1] = tsign * c->n[0];
  for (int j = 0; j < 2; j++) {
    c->dt_a[j] = tsign * -c->dn_a[2 + j];
    c->dt_a[2 + j] = tsign * c->dn_a[j];
  }
  for (int j = 0; j < 3; j++) {
    c->dt_q[j] = tsign * -c->dn_q[3 + j];
    c->dt_q[3 + j] = tsign * c->dn_q[j];
  }
  return 0;
}

void implicit_force2_rows(const struct implicit_force2 *c, double h, double *F, double *J, int n)
{
  const double pn = c->pn, pt = c->pt, *nv = c->n, *tv = c->t;
  const double Fv[2] = {nv[0] * pn + tv[0] * pt, nv[1] * pn + tv[1] * pt};
  double dF_a[4], dF_q[6];
  for (int k = 0; k < 4; k++)
    dF_a[k] = pn * c->dn_a[k] + pt * c->dt_a[k];
  for (int k = 0; k < 6; k++)
    dF_q[k] = pn * c->dn_q[k] + pt * c->dt_q[k];
  for (int side = 0; side < 2; side++) {
    const int o = c->s[side]->dof, ia = c->a[side];
    if (o < 0) continue;
    const double sign = side == c->plus ? 1.0 : -1.0, *r = c->r[side];
    for (int k = 0; k < 2; k++) { /* force rows */
      F[o + k] += sign * Fv[k];
      for (int q = 0; q < c->npn; q++)
        jac_add(J, n, o + k, c->pn_col[q], sign * nv[k]);
      jac_add(J, n, o + k, c->pt_col, sign * tv[k]);
      for (int j = 0; j < 2; j++)
        jac_add(J, n, o + k, c->an + j, sign * dF_a[k * 2 + j]);
      side_add_pose(J, n, o + k, c->sn, h, dF_q + 3 * k, sign);
    }
    /* torque row: sign (r x Fv), r = a - x(nu) */
    F[o + 2] += sign * (r[0] * Fv[1] - r[1] * Fv[0]);
    const double dr[2] = {Fv[1], -Fv[0]}; /* d(r x F)/dr */
    const double dFv[2] = {-r[1], r[0]};  /* d(r x F)/dF */
    for (int j = 0; j < 2; j++) {
      jac_add(J, n, o + 2, ia + j, sign * dr[j]);
      jac_add(J, n, o + 2, o + j, -sign * h * dr[j]);
    }
    for (int q = 0; q < c->npn; q++)
      jac_add(J, n, o + 2, c->pn_col[q], sign * (dFv[0] * nv[0] + dFv[1] * nv[1]));
    jac_add(J, n, o + 2, c->pt_col, sign * (dFv[0] * tv[0] + dFv[1] * tv[1]));
    for (int j = 0; j < 2; j++)
      jac_add(J, n, o + 2, c->an + j, sign * (dFv[0] * dF_a[j] + dFv[1] * dF_a[2 + j]));
    double tq[3];
    for (int j = 0; j < 3; j++)
      tq[j] = dFv[0] * dF_q[j] + dFv[1] * dF_q[3 + j];
    side_add_pose(J, n, o + 2, c->sn, h, tq, sign);
  }
}

/* Friction (21): e_t^2 mu p_n v_t + p_t (sigma + creep) in row pt_col, v_t = t . w with the relative velocity
 * of the contact points w = v1 + w1 S r1 - v2 - w2 S r2; c0 = e_t^2 mu. */
static void friction_row(const struct implicit_force2 *c, const double *nu, double c0, double creep,
                         double sg, int isg, double h, double *F, double *J, int n)
{
  const struct gi_side *s1 = c->s[0], *s2 = c->s[1];
  const double *r1 = c->r[0], *r2 = c->r[1], *tv = c->t, pn = c->pn, pt = c->pt;
  const int row = c->pt_col;
  double w1 = s1->dof >= 0 ? nu[s1->dof + 2] : 0.0, w2 = s2->dof >= 0 ? nu[s2->dof + 2] : 0.0;
  double wr[2] = {-w1 * r1[1] + w2 * r2[1], w1 * r1[0] - w2 * r2[0]};
  if (s1->dof >= 0) wr[0] += nu[s1->dof], wr[1] += nu[s1->dof + 1];
  if (s2->dof >= 0) wr[0] -= nu[s2->dof], wr[1] -= nu[s2->dof + 1];
  double vt = tv[0] * wr[0] + tv[1] * wr[1];
  F[row] = c0 * pn * vt + pt * (sg + creep);
  jac_add(J, n, row, c->pn_col[0], c0 * vt);
  jac_add(J, n, row, row, sg + creep);
  jac_add(J, n, row, isg, pt);
  double k0 = c0 * pn;
  /* through t: dv_t = dt . w */
  for (int j = 0; j < 2; j++)
    jac_add(J, n, row, c->an + j, k0 * (c->dt_a[j] * wr[0] + c->dt_a[2 + j] * wr[1]));
  double tq[3];
  for (int j = 0; j < 3; j++)
    tq[j] = c->dt_q[j] * wr[0] + c->dt_q[3 + j] * wr[1];
  side_add_pose(J, n, row, c->sn, h, tq, k0);
  /* through w: t . S = (t_y, -t_x) applied to d r */
  double tS[2] = {tv[1], -tv[0]};
  if (s1->dof >= 0) {
    jac_add(J, n, row, s1->dof, k0 * (tv[0] - h * w1 * tS[0]));
    jac_add(J, n, row, s1->dof + 1, k0 * (tv[1] - h * w1 * tS[1]));
    jac_add(J, n, row, s1->dof + 2, k0 * (tv[1] * r1[0] - tv[0] * r1[1]));
  }
  if (s2->dof >= 0) {
    jac_add(J, n, row, s2->dof, k0 * (-tv[0] + h * w2 * tS[0]));
    jac_add(J, n, row, s2->dof + 1, k0 * (-tv[1] + h * w2 * tS[1]));
    jac_add(J, n, row, s2->dof + 2, -k0 * (tv[1] * r2[0] - tv[0] * r2[1]));
  }
  for (int j = 0; j < 2; j++) {
    jac_add(J, n, row, c->a[0] + j, k0 * w1 * tS[j]);
    jac_add(J, n, row, c->a[1] + j, -k0 * w2 * tS[j]);
  }
}

int implicit_contact2d_eval(const struct gi_side s[2], const struct convex_fn *g2, int m2, double mu,
                            double et2, int cone_degree1, double creep, double h, const double *x,
                            struct implicit_contact2d_index ix, struct side_eval *e2, double *F, double *J,
                            int n)
{
  const double pt = x[ix.pt], pn = x[ix.pn], sg = x[ix.sg];
  struct side_eval e1, e12;
  implicit_contact2d_sides(s, g2, m2, h, x, x + ix.a1, x + ix.a2, &e1, e2, &e12);
  /* (15)-(16) = (28)-(29): the closest points */
  implicit_kkt2_rows((struct implicit_kkt2_cols){ix.a1, ix.a1 + 2, ix.a1, ix.a2, ix.l1, ix.l2}, x, &s[0], &e1,
                     &s[1], e2, m2, h, F, J, n);
  /* normal n (towards body 1) and tangent t = (n_y, -n_x), with their derivatives in the point and the
   * pose of the side they come from: G2(a2) / |G2| when body 2 is one function, else -G1(a1) / |G1| (body
   * 2's normal cone at a vertex holds many; by (29) -G1 is the common normal) */
  struct implicit_force2 fc = {.s = {&s[0], &s[1]},
                               .r = {e1.r, e2[0].r}, /* a2 - x2: the same for every inequality of body 2 */
                               .a = {ix.a1, ix.a2},
                               .plus = 0,
                               .sn = m2 == 1 ? &s[1] : &s[0],
                               .an = m2 == 1 ? ix.a2 : ix.a1,
                               .pn = pn,
                               .pt = pt,
                               .pn_col = {ix.pn, -1},
                               .npn = 1,
                               .pt_col = ix.pt};
  if (implicit_force2_frame(&fc, m2 == 1 ? &e2[0] : &e1, m2 == 1 ? 1.0 : -1.0, -1.0)) return 1;
  friction_row(&fc, x, et2 * mu, creep, sg, ix.sg, h, F, J, n);
  /* Newton-Euler: body 1 gets n p_n + t p_t at a1, body 2 the opposite at a2 */
  implicit_force2_rows(&fc, h, F, J, n);
  /* complementarity rows (17)-(19), (22) */
  implicit_contact2d_gaps(
      s, &e1, e2, m2, &e12, h,
      (struct implicit_gap_at){.a1 = ix.a1, .a2 = ix.a2, .l1 = ix.l1, .l2 = ix.l2, .pn = ix.pn, .db = -1}, x,
      F, J, n);
  implicit_cone_row(ix.sg, mu, pn, &ix.pn, 1, &pt, &ix.pt, &et2, 1, cone_degree1, F, J, n);
  return 0;
}
