/* implicit_contact2d.c — the rows of one geometrically implicit contact in 2D (Chakraborty, Berard, Akella
 * & Trinkle, Sec. 3-4): the KKT rows of the distance problem (15)-(16) (or (28)-(29) when body 2 is an
 * intersection of half-planes, Sec. 4.3), the friction row (21) with the ellipsoidal law (22), the
 * complementarity rows (17)-(19), and the contact impulses in the Newton-Euler rows (20), with their analytic
 * derivatives (tests/formulations/types/implicit/test_geometric_implicit.c checks them against finite
 * differences). The normal n (towards body 1) is grad g(a2) / |grad g| when body 2 is one function, else
 * -grad f(a1) / |grad f| (body 2's normal cone at a vertex holds many; by (29) -grad f is the common normal);
 * t = (n_y, -n_x). */
#include "implicit_contact2d.h"

#include "jacobian_add.h"

#include <math.h>
#include <stddef.h>

int implicit_contact2d_eval(const struct gi_side s[2], const struct convex_fn *g2, int m2, double mu,
                            double et2, double creep, double h, const double *x,
                            struct implicit_contact2d_index ix, struct side_eval *e2, double *F, double *J,
                            int n)
{
  const struct gi_side *s1 = &s[0], *s2 = &s[1];
  const double *nu = x;
  const double *a1 = x + ix.a1, *a2 = x + ix.a2;
  double pt = x[ix.pt], pn = x[ix.pn], sg = x[ix.sg];
  struct side_eval e1, e12;
  side_eval(s1, h, nu, a1, &e1);
  for (int j = 0; j < m2; j++)
    if (m2 == 1)
      side_eval(s2, h, nu, a2, &e2[0]);
    else
      side_eval_fn(s2, &g2[j], h, nu, a2, &e2[j]);
  side_eval(s1, h, nu, a2, &e12);
  /* (15)-(16) = (28)-(29): the closest points */
  implicit_kkt2_rows((struct implicit_kkt2_cols){ix.a1, ix.a1 + 2, ix.a1, ix.a2, ix.l1, ix.l2}, x, s1, &e1,
                     s2, e2, m2, h, F, J, n);
  /* normal n (towards body 1) and tangent t = (n_y, -n_x), with their derivatives in the point and the
   * pose of the side they come from: G2(a2) / |G2| when body 2 is one function, else -G1(a1) / |G1| (body
   * 2's normal cone at a vertex holds many; by (29) -G1 is the common normal) */
  const struct side_eval *en = m2 == 1 ? &e2[0] : &e1;
  const struct gi_side *sn = m2 == 1 ? s2 : s1;
  int ian = m2 == 1 ? ix.a2 : ix.a1;
  double nsg = m2 == 1 ? 1.0 : -1.0;
  double nv[2], dn_a[4], dn_q[6], dt_a[4], dt_q[6];
  if (side_unit_normal(en, nsg, nv, dn_a, dn_q)) return 1;
  const double tv[2] = {nv[1], -nv[0]};
  for (int j = 0; j < 2; j++) {
    dt_a[j] = dn_a[2 + j];
    dt_a[2 + j] = -dn_a[j];
  }
  for (int j = 0; j < 3; j++) {
    dt_q[j] = dn_q[3 + j];
    dt_q[3 + j] = -dn_q[j];
  }
  /* relative velocity of the contact points w = v1 + w1 S r1 - v2 - w2 S r2; v_t = t . w */
  double w1 = s1->dof >= 0 ? nu[s1->dof + 2] : 0.0, w2 = s2->dof >= 0 ? nu[s2->dof + 2] : 0.0;
  const double *r2 = e2[0].r; /* a2 - x2, the same for every inequality of body 2 */
  double wr[2] = {-w1 * e1.r[1] + w2 * r2[1], w1 * e1.r[0] - w2 * r2[0]};
  if (s1->dof >= 0) wr[0] += nu[s1->dof], wr[1] += nu[s1->dof + 1];
  if (s2->dof >= 0) wr[0] -= nu[s2->dof], wr[1] -= nu[s2->dof + 1];
  double vt = tv[0] * wr[0] + tv[1] * wr[1];
  /* friction (21): e_t^2 mu p_n v_t + p_t sigma */
  {
    int row = ix.pt;
    double c0 = et2 * mu;
    F[row] = c0 * pn * vt + pt * (sg + creep);
    jac_add(J, n, row, ix.pn, c0 * vt);
    jac_add(J, n, row, ix.pt, sg + creep);
    jac_add(J, n, row, ix.sg, pt);
    double k0 = c0 * pn;
    /* through t: dv_t = dt . w */
    for (int j = 0; j < 2; j++)
      jac_add(J, n, row, ian + j, k0 * (dt_a[j] * wr[0] + dt_a[2 + j] * wr[1]));
    double tq[3];
    for (int j = 0; j < 3; j++)
      tq[j] = dt_q[j] * wr[0] + dt_q[3 + j] * wr[1];
    side_add_pose(J, n, row, sn, h, tq, k0);
    /* through w: t . S = (t_y, -t_x) applied to d r */
    double tS[2] = {tv[1], -tv[0]};
    if (s1->dof >= 0) {
      jac_add(J, n, row, s1->dof, k0 * (tv[0] - h * w1 * tS[0]));
      jac_add(J, n, row, s1->dof + 1, k0 * (tv[1] - h * w1 * tS[1]));
      jac_add(J, n, row, s1->dof + 2, k0 * (tv[1] * e1.r[0] - tv[0] * e1.r[1]));
    }
    if (s2->dof >= 0) {
      jac_add(J, n, row, s2->dof, k0 * (-tv[0] + h * w2 * tS[0]));
      jac_add(J, n, row, s2->dof + 1, k0 * (-tv[1] + h * w2 * tS[1]));
      jac_add(J, n, row, s2->dof + 2, -k0 * (tv[1] * r2[0] - tv[0] * r2[1]));
    }
    for (int j = 0; j < 2; j++) {
      jac_add(J, n, row, ix.a1 + j, k0 * w1 * tS[j]);
      jac_add(J, n, row, ix.a2 + j, -k0 * w2 * tS[j]);
    }
  }
  /* Newton-Euler: body 1 gets Fv = n p_n + t p_t at a1, body 2 gets -Fv at a2 */
  double Fv[2] = {nv[0] * pn + tv[0] * pt, nv[1] * pn + tv[1] * pt};
  double dF_a[4], dF_q[6];
  for (int k = 0; k < 4; k++)
    dF_a[k] = pn * dn_a[k] + pt * dt_a[k];
  for (int k = 0; k < 6; k++)
    dF_q[k] = pn * dn_q[k] + pt * dt_q[k];
  for (int side = 0; side < 2; side++) {
    const struct gi_side *sd = &s[side];
    if (sd->dof < 0) continue;
    double sign = side == 0 ? 1.0 : -1.0;
    const double *r = side == 0 ? e1.r : r2;
    int ia = side == 0 ? ix.a1 : ix.a2;
    int o = sd->dof;
    /* force rows */
    for (int k = 0; k < 2; k++) {
      F[o + k] += sign * Fv[k];
      jac_add(J, n, o + k, ix.pn, sign * nv[k]);
      jac_add(J, n, o + k, ix.pt, sign * tv[k]);
      for (int j = 0; j < 2; j++)
        jac_add(J, n, o + k, ian + j, sign * dF_a[k * 2 + j]);
      side_add_pose(J, n, o + k, sn, h, dF_q + 3 * k, sign);
    }
    /* torque row: sign (r x Fv), r = a - x(nu) */
    F[o + 2] += sign * (r[0] * Fv[1] - r[1] * Fv[0]);
    double dr[2] = {Fv[1], -Fv[0]}; /* d(r x F)/dr */
    double dFv[2] = {-r[1], r[0]};  /* d(r x F)/dF */
    for (int j = 0; j < 2; j++) {
      jac_add(J, n, o + 2, ia + j, sign * dr[j]);
      jac_add(J, n, o + 2, o + j, -sign * h * dr[j]);
    }
    jac_add(J, n, o + 2, ix.pn, sign * (dFv[0] * nv[0] + dFv[1] * nv[1]));
    jac_add(J, n, o + 2, ix.pt, sign * (dFv[0] * tv[0] + dFv[1] * tv[1]));
    for (int j = 0; j < 2; j++)
      jac_add(J, n, o + 2, ian + j, sign * (dFv[0] * dF_a[j] + dFv[1] * dF_a[2 + j]));
    double tq[3];
    for (int j = 0; j < 3; j++)
      tq[j] = dFv[0] * dF_q[j] + dFv[1] * dF_q[3 + j];
    side_add_pose(J, n, o + 2, sn, h, tq, sign);
  }
  /* complementarity rows */
  F[ix.l1] = -e1.f;
  for (int q = 0; q < m2; q++) { /* (18) = (31) */
    F[ix.l2 + q] = -e2[q].f;
    for (int j = 0; j < 2; j++)
      jac_add(J, n, ix.l2 + q, ix.a2 + j, -e2[q].G[j]);
    side_add_pose(J, n, ix.l2 + q, s2, h, e2[q].dfdq, -1.0);
  }
  F[ix.pn] = e12.f;
  F[ix.sg] = mu * mu * pn * pn - pt * pt / et2;
  for (int j = 0; j < 2; j++) {
    jac_add(J, n, ix.l1, ix.a1 + j, -e1.G[j]);
    jac_add(J, n, ix.pn, ix.a2 + j, e12.G[j]);
  }
  side_add_pose(J, n, ix.l1, s1, h, e1.dfdq, -1.0);
  side_add_pose(J, n, ix.pn, s1, h, e12.dfdq, 1.0);
  jac_add(J, n, ix.sg, ix.pn, 2.0 * mu * mu * pn);
  jac_add(J, n, ix.sg, ix.pt, -2.0 * pt / et2);
  return 0;
}
