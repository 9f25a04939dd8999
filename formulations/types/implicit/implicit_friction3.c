/* implicit_friction3.c — the 3D ellipsoidal friction rows (21)-(22) of Chakraborty, Berard, Akella & Trinkle
 * (implicit_friction3.h), shared by geometric_implicit.c and quasi_rigid.c in 3D. */
#include "implicit_friction3.h"

#include <string.h>

/* The contact frame t, o from n: t from the pair's fixed world axis, so the frame varies smoothly; 1 when n
 * is along the axis. */
static int friction_frame(const struct friction3 *c, const struct dv *nv, struct dv *tv, struct dv *ov)
{
  struct dv m;
  double ev[3] = {0, 0, 0};
  ev[c->axis] = 1.0;
  double ne = nv->v[c->axis];
  for (int k = 0; k < 3; k++) {
    m.v[k] = ev[k] - ne * nv->v[k];
    for (int j = 0; j < NL; j++)
      m.d[k][j] = -nv->d[c->axis][j] * nv->v[k] - ne * nv->d[k][j];
  }
  if (!(m.v[0] * m.v[0] + m.v[1] * m.v[1] + m.v[2] * m.v[2] > 1e-24)) return 1;
  dv_normalise(&m, tv);
  dv_cross(nv, tv, ov);
  return 0;
}

/* The lever arms r = a - x(nu), the relative velocity w = v+ + w+ x r+ - v- - w- x r- and the relative
 * angular velocity omega+ - omega-. */
static void friction_velocity(const struct friction3 *c, const double *nu, struct dv r[2], struct dv *vel,
                              struct dv *dom)
{
  struct dv om[2];
  if (c->rd)
    memcpy(r, c->rd, 2 * sizeof *r);
  else
    memset(r, 0, 2 * sizeof *r);
  memset(om, 0, sizeof om);
  memset(vel, 0, sizeof *vel);
  for (int b = 0; b < 2; b++) {
    int dof = c->s[b]->dof;
    double sign = b == c->plus ? 1.0 : -1.0;
    for (int k = 0; k < 3; k++) {
      if (!c->rd) {
        r[b].v[k] = c->r[b][k];
        r[b].d[k][3 * b + k] = 1.0;
      }
      if (dof < 0) continue;
      if (!c->rd) r[b].d[k][6 + 6 * b + k] = -c->h;
      om[b].v[k] = nu[dof + 3 + k];
      om[b].d[k][6 + 6 * b + 3 + k] = 1.0;
      vel->v[k] += sign * nu[dof + k];
      vel->d[k][6 + 6 * b + k] += sign;
    }
    struct dv wr;
    dv_cross(&om[b], &r[b], &wr);
    for (int k = 0; k < 3; k++) {
      vel->v[k] += sign * wr.v[k];
      for (int j = 0; j < NL; j++)
        vel->d[k][j] += sign * wr.d[k][j];
    }
  }
  const int bp = c->plus, bm = 1 - c->plus;
  for (int k = 0; k < 3; k++) {
    dom->v[k] = om[bp].v[k] - om[bm].v[k];
    for (int j = 0; j < NL; j++)
      dom->d[k][j] = om[bp].d[k][j] - om[bm].d[k][j];
  }
}

/* The Newton-Euler rows: the + body gets Fv = (n p_n +) t p_t + o p_o at its point and n p_r; the other the
 * opposite at its point. */
static void friction_forces(const struct friction3 *c, const struct dv *nv, const struct dv *tv,
                            const struct dv *ov, const struct dv r[2], double *F, double *J, int n)
{
  const double pn = c->pn, pt = c->pt, po = c->po, pr = c->pr;
  struct dv Fv;
  for (int k = 0; k < 3; k++)
    if (c->with_normal) {
      Fv.v[k] = nv->v[k] * pn + tv->v[k] * pt + ov->v[k] * po;
      for (int j = 0; j < NL; j++)
        Fv.d[k][j] = nv->d[k][j] * pn + tv->d[k][j] * pt + ov->d[k][j] * po;
    } else {
      Fv.v[k] = tv->v[k] * pt + ov->v[k] * po;
      for (int j = 0; j < NL; j++)
        Fv.d[k][j] = tv->d[k][j] * pt + ov->d[k][j] * po;
    }
  for (int b = 0; b < 2; b++) {
    int o = c->s[b]->dof;
    if (o < 0) continue;
    double sign = b == c->plus ? 1.0 : -1.0;
    struct dv tq;
    dv_cross(&r[b], &Fv, &tq);
    double rn[3], rt[3], ro[3];
    cross(r[b].v, nv->v, rn);
    cross(r[b].v, tv->v, rt);
    cross(r[b].v, ov->v, ro);
    for (int k = 0; k < 3; k++) {
      F[o + k] += sign * Fv.v[k];
      scatter(J, n, o + k, c->cols, Fv.d[k], sign);
      if (c->with_normal)
        for (int q = 0; q < c->npn; q++)
          jac_add(J, n, o + k, c->pn_col[q], sign * nv->v[k]);
      jac_add(J, n, o + k, c->ipt, sign * tv->v[k]);
      jac_add(J, n, o + k, c->ipo, sign * ov->v[k]);
      F[o + 3 + k] += sign * (tq.v[k] + nv->v[k] * pr);
      scatter(J, n, o + 3 + k, c->cols, tq.d[k], sign);
      scatter(J, n, o + 3 + k, c->cols, nv->d[k], sign * pr);
      if (c->with_normal)
        for (int q = 0; q < c->npn; q++)
          jac_add(J, n, o + 3 + k, c->pn_col[q], sign * rn[k]);
      jac_add(J, n, o + 3 + k, c->ipt, sign * rt[k]);
      jac_add(J, n, o + 3 + k, c->ipo, sign * ro[k]);
      jac_add(J, n, o + 3 + k, c->ipr, sign * nv->v[k]);
    }
  }
}

int implicit_friction3_rows(const struct friction3 *c, const struct dv *nv, const double *nu, double *F,
                            double *J, int n)
{
  const double mu = c->mu, pn = c->pn, pt = c->pt, po = c->po, pr = c->pr, sg = c->sg + c->creep;
  struct dv tv, ov, r[2], vel, dom;
  if (friction_frame(c, nv, &tv, &ov)) return 1;
  friction_velocity(c, nu, r, &vel, &dom);
  double dvt[NL], dvo[NL], dvr[NL];
  double vt = dv_dot(&tv, &vel, dvt), vo = dv_dot(&ov, &vel, dvo), vr = dv_dot(nv, &dom, dvr);
  /* (21) */
  const double vs[3] = {vt, vo, vr}, *dvs[3] = {dvt, dvo, dvr}, ps[3] = {pt, po, pr};
  const int prow[3] = {c->ipt, c->ipo, c->ipr};
  for (int k = 0; k < 3; k++) {
    double c0 = c->e[k] * c->e[k] * mu;
    F[prow[k]] = c0 * pn * vs[k] + ps[k] * sg;
    for (int q = 0; q < c->npn; q++)
      jac_add(J, n, prow[k], c->pn_col[q], c0 * vs[k]);
    jac_add(J, n, prow[k], prow[k], sg);
    jac_add(J, n, prow[k], c->isg, ps[k]);
    scatter(J, n, prow[k], c->cols, dvs[k], c0 * pn);
  }
  friction_forces(c, nv, &tv, &ov, r, F, J, n);
  /* (22) */
  const double e2[3] = {c->e[0] * c->e[0], c->e[1] * c->e[1], c->e[2] * c->e[2]};
  implicit_cone_row(c->isg, mu, pn, c->pn_col, c->npn, ps, prow, e2, 3, c->cone_degree1, F, J, n);
  return 0;
}
