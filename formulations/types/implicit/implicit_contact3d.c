/* implicit_contact3d.c — the 3D contact rows geometric_implicit and quasi_rigid share (implicit_contact3d.h;
 * Chakraborty, Berard, Akella & Trinkle, eqs. (15)-(19), (28)-(31), (34), (36)). */
#include "implicit_contact3d.h"

#include <string.h>

void implicit_grad_dv(const struct side3_eval *e, int point, int body, struct dv *G)
{
  memset(G, 0, sizeof *G);
  for (int k = 0; k < 3; k++) {
    G->v[k] = e->G[k];
    for (int j = 0; j < 3; j++)
      G->d[k][3 * point + j] = e->Hw[k * 3 + j];
    for (int j = 0; j < 6; j++)
      G->d[k][6 + 6 * body + j] = e->dGdn[k * 6 + j];
  }
}

void implicit_contact3d_eval(const struct implicit_step *d, int i, const double *x,
                             struct implicit_contact3d *c)
{
  const struct implicit_contact *ct = &d->c[i];
  const struct implicit_index ix = implicit_step_index(d, i);
  const struct gi_side3 *s1 = &ct->s3[0], *s2 = &ct->s3[1];
  const double h = d->h, *a1 = x + ix.a1, *a2 = x + ix.a2;
  c->ct = ct;
  c->ix = ix;
  c->s1 = s1;
  c->s2 = s2;
  c->m2 = ct->m2;
  for (int k = 0; k < 3; k++) {
    c->cols[k] = ix.a1 + k;
    c->cols[3 + k] = ix.a2 + k;
  }
  for (int k = 0; k < 6; k++) {
    c->cols[6 + k] = s1->dof >= 0 ? s1->dof + k : -1;
    c->cols[12 + k] = s2->dof >= 0 ? s2->dof + k : -1;
  }
  c->e2 = d->e3;
  side3_eval(s1, h, x, a1, &c->e1);
  for (int q = 0; q < ct->m2; q++)
    if (ct->m2 == 1)
      side3_eval(s2, h, x, a2, &c->e2[0]);
    else
      side3_eval_fn(s2, &d->pool[ct->g2 + q], h, x, a2, &c->e2[q]);
  side3_eval(s1, h, x, a2, &c->e12);
  implicit_grad_dv(&c->e1, 0, 0, &c->G1);
}

void implicit_contact3d_kkt(const struct implicit_contact3d *c, const double *x, double *F, double *J, int n)
{
  const struct implicit_index ix = c->ix;
  const double *a1 = x + ix.a1, *a2 = x + ix.a2, *l2 = x + ix.l2, l1 = x[ix.l1];
  const struct dv *G1 = &c->G1;
  for (int k = 0; k < 3; k++) { /* (15) */
    int row = ix.a1 + k;
    F[row] = a1[k] - a2[k] + l1 * G1->v[k];
    jac_add(J, n, row, ix.a1 + k, 1.0);
    jac_add(J, n, row, ix.a2 + k, -1.0);
    scatter(J, n, row, c->cols, G1->d[k], l1);
    jac_add(J, n, row, ix.l1, G1->v[k]);
  }
  for (int k = 0; k < 3; k++) { /* (16) = (29) */
    int row = ix.a2 + k;
    F[row] = G1->v[k];
    scatter(J, n, row, c->cols, G1->d[k], 1.0);
  }
  for (int q = 0; q < c->m2; q++) {
    struct dv G2;
    implicit_grad_dv(&c->e2[q], 1, 1, &G2);
    for (int k = 0; k < 3; k++) {
      int row = ix.a2 + k;
      F[row] += l2[q] * G2.v[k];
      scatter(J, n, row, c->cols, G2.d[k], l2[q]);
      jac_add(J, n, row, ix.l2 + q, G2.v[k]);
    }
  }
}

void implicit_contact3d_gaps(const struct implicit_contact3d *c, const double *x, double *F, double *J, int n)
{
  const struct implicit_gap g = {.dim = 3, .nq = 6, .hp = 1.0};
  const struct implicit_index ix = c->ix;
  const int dof1 = c->s1->dof, dof2 = c->s2->dof;
  const double db = ix.db >= 0 ? x[ix.db] : 0.0;
  implicit_gap_row(&g, ix.l1, ix.db >= 0 ? -(c->e1.f + db) : -c->e1.f, -1.0, ix.a1, c->e1.G, dof1, c->e1.dfdn,
                   F, J, n);
  for (int q = 0; q < c->m2; q++) /* (18) = (31) */
    implicit_gap_row(&g, ix.l2 + q, -c->e2[q].f, -1.0, ix.a2, c->e2[q].G, dof2, c->e2[q].dfdn, F, J, n);
  implicit_gap_row(&g, ix.pn, ix.db >= 0 ? c->e12.f + db : c->e12.f, 1.0, ix.a2, c->e12.G, dof1, c->e12.dfdn,
                   F, J, n);
  jac_add(J, n, ix.l1, ix.db, -1.0);
  jac_add(J, n, ix.pn, ix.db, 1.0);
}

struct friction3 implicit_contact3d_friction(const struct implicit_step *d,
                                             const struct implicit_contact3d *c, const double *x, int plus,
                                             int with_normal)
{
  const struct implicit_index ix = c->ix;
  double pn = x[ix.pn];
  if (ix.pnr >= 0) pn += x[ix.pnr];
  struct friction3 fc = {.s = {c->s1, c->s2},
                         .r = {c->e1.r, c->e2[0].r}, /* a2 - x2: the same for every inequality of body 2 */
                         .plus = plus,
                         .axis = c->ct->axis,
                         .mu = c->ct->mu,
                         .e = {d->et, d->eo, d->er},
                         .cone_degree1 = d->cone_degree1,
                         .h = d->h,
                         .creep = d->creep,
                         .with_normal = with_normal,
                         .pn = pn,
                         .pn_col = {ix.pn, ix.pnr},
                         .npn = ix.pnr >= 0 ? 2 : 1,
                         .cols = c->cols};
  friction3_set_unknowns(&fc, ix.pt, ix.sg, x);
  return fc;
}
