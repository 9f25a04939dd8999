/* implicit_drives.c — joints, motors and support friction in the geometrically implicit mixed NCP (see
 * implicit_drives.h: Chakraborty, Berard, Akella & Trinkle's (20)-(22) with a known normal impulse). */
#include "implicit_drives.h"

#include "implicit_side.h"
#include "jacobian_add.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void implicit_drives_free(struct implicit_drives *dr)
{
  free(dr->col);
  free(dr->phi);
  free(dr->g);
  memset(dr, 0, sizeof *dr);
}

/* The support points of w with a positive bound, as groups of two components (world x, y at the point). */
static void support_groups(struct implicit_drives *dr, const struct world *w, double h)
{
  for (int i = 0; i < w->nsup; i++) {
    const struct support_friction *sp = &w->supports[i];
    const struct body *b = &w->bodies[sp->body];
    for (int k = 0; k < sp->n; k++) {
      const double B = sp->mu * sp->normal[k] * h;
      if (!(B > 0.0)) continue;
      const double local[3] = {sp->p[k][0], sp->p[k][1], 0.0};
      double p[3];
      world_point(w, b, local, p);
      const double r[2] = {p[0] - b->x[0], p[1] - b->x[1]};
      dr->g[dr->ng++] = (struct implicit_bounded){
          .dof = b->dof, .np = 2, .d = {{1.0, 0.0, -r[1]}, {0.0, 1.0, r[0]}}, .target = {0.0, 0.0}, .B = B};
    }
  }
}

int implicit_drives_build(struct implicit_drives *dr, const struct world *w, double h)
{
  int nj = jacobian_joint_rows(w), ng = w->nm;
  for (int i = 0; i < w->nsup; i++)
    ng += w->supports[i].n;
  if (implicit_grow((void **)&dr->col, &dr->cap_j, nj, sizeof *dr->col) ||
      implicit_grow((void **)&dr->g, &dr->cap_g, ng, sizeof *dr->g))
    return 1;
  if (implicit_grow((void **)&dr->phi, &dr->cap_phi, nj, sizeof *dr->phi)) return 1;
  if (nj > 0) jacobian_joint_columns(w, dr->col, dr->phi);
  dr->nj = nj;
  dr->ng = 0;
  support_groups(dr, w, h);
  for (int i = 0; i < w->nm; i++) {
    const struct motor *m = &w->motors[i];
    dr->g[dr->ng++] = (struct implicit_bounded){.dof = w->bodies[m->body].dof,
                                                .np = 1,
                                                .d = {{m->axis[0], m->axis[1], 0.0}},
                                                .target = {m->speed},
                                                .B = m->max_force * h};
  }
  dr->nfree = nj;
  dr->nbox = 0;
  for (int i = 0; i < dr->ng; i++) {
    dr->nfree += dr->g[i].np == 2 ? 2 : 0;
    dr->nbox += dr->g[i].np == 1;
  }
  return 0;
}

/* Joint j's row J_j' nu + phi_j / h and J_j lambda_j in the Newton-Euler rows. */
static void joint_rows(const struct jcol *c, double phi, double h, int col, const double *x, double *F,
                       double *J, int n)
{
  const double lambda = x[col];
  F[col] = jcol_dot(c, x) + phi / h;
  for (int k = 0; k < 2; k++) {
    if (c->dof[k] < 0) continue;
    for (int j = 0; j < c->bs; j++) {
      F[c->dof[k] + j] += c->v[k][j] * lambda;
      jac_add(J, n, col, c->dof[k] + j, c->v[k][j]);
      jac_add(J, n, c->dof[k] + j, col, c->v[k][j]);
    }
  }
}

/* A group's rows (implicit_drives.h): d_k' nu - v*_k + sigma p_k / B per component at p, B - |p|^2 / B at
 * sg, and d_k p_k in the body's Newton-Euler rows. */
static void group_rows(const struct implicit_bounded *g, int p, int sg, double creep, const double *x,
                       double *F, double *J, int n)
{
  const double sigma = x[sg] + creep;
  double cone = g->B;
  for (int k = 0; k < g->np; k++) {
    const double pk = x[p + k], *d = g->d[k];
    double e = -g->target[k];
    for (int j = 0; j < 3; j++) {
      e += d[j] * x[g->dof + j];
      F[g->dof + j] += d[j] * pk;
      jac_add(J, n, p + k, g->dof + j, d[j]);
      jac_add(J, n, g->dof + j, p + k, d[j]);
    }
    F[p + k] = e + sigma * pk / g->B;
    jac_add(J, n, p + k, p + k, sigma / g->B);
    jac_add(J, n, p + k, sg, pk / g->B);
    cone -= pk * pk / g->B;
    jac_add(J, n, sg, p + k, -2.0 * pk / g->B);
  }
  F[sg] = cone;
}

/* A motor's box row (implicit_drives.h) at its impulse p = x[col]: d' nu - v* + creep p / B, and d p in the
 * body's Newton-Euler rows. */
static void box_row(const struct implicit_bounded *g, int col, double creep, const double *x, double *F,
                    double *J, int n)
{
  const double p = x[col], *d = g->d[0];
  double e = -g->target[0] + creep * p / g->B;
  for (int j = 0; j < 3; j++) {
    e += d[j] * x[g->dof + j];
    F[g->dof + j] += d[j] * p;
    jac_add(J, n, col, g->dof + j, d[j]);
    jac_add(J, n, g->dof + j, col, d[j]);
  }
  F[col] = e;
  jac_add(J, n, col, col, creep / g->B);
}

void implicit_drives_rows(const struct implicit_drives *dr, double h, const double *x, double *F, double *J,
                          int n)
{
  for (int j = 0; j < dr->nj; j++)
    joint_rows(&dr->col[j], dr->phi[j], h, dr->free0 + j, x, F, J, n);
  int p = dr->free0 + dr->nj;
  for (int i = 0; i < dr->ng; i++) {
    if (dr->g[i].np == 1) {
      box_row(&dr->g[i], dr->comp0 + i, dr->creep, x, F, J, n);
      continue;
    }
    group_rows(&dr->g[i], p, dr->comp0 + i, dr->creep, x, F, J, n);
    p += dr->g[i].np;
  }
}

void implicit_drives_impulse(const struct implicit_drives *dr, const double *x, double *g)
{
  int p = dr->free0 + dr->nj; /* the support points' components, in order (implicit_drives_rows) */
  for (int i = 0; i < dr->ng; i++) {
    const struct implicit_bounded *b = &dr->g[i];
    const int at = b->np == 1 ? dr->comp0 + i : p;
    for (int k = 0; k < b->np; k++)
      for (int j = 0; j < 3; j++)
        g[b->dof + j] += b->d[k][j] * x[at + k];
    if (b->np != 1) p += b->np;
  }
}

void implicit_drives_bounds(const struct implicit_drives *dr, const double *guess, double *lo, double *hi)
{
  for (int i = 0; i < dr->ng; i++) {
    if (dr->g[i].np != 1) continue;
    const int col = dr->comp0 + i;
    lo[col] = -dr->g[i].B - guess[col];
    hi[col] = dr->g[i].B - guess[col];
  }
}

void implicit_drives_guess(const struct implicit_drives *dr, const double *nu0, const double *papp,
                           const double *M, int ndof, double *guess)
{
  for (int j = 0; j < dr->nj; j++)
    guess[dr->free0 + j] = 0.0;
  int p = dr->free0 + dr->nj;
  for (int i = 0; i < dr->ng; i++) {
    const struct implicit_bounded *g = &dr->g[i];
    double e[2] = {0.0, 0.0}, len = 0.0;
    for (int k = 0; k < g->np; k++) {
      e[k] = -g->target[k];
      for (int j = 0; j < 3; j++) {
        const int c = g->dof + j;
        e[k] += g->d[k][j] * (nu0[c] + papp[c] / M[(size_t)c * ndof + c]);
      }
      len += e[k] * e[k];
    }
    len = sqrt(len);
    if (g->np == 1) { /* a motor: its boxed impulse at the bound against the error */
      guess[dr->comp0 + i] = len > 0.0 ? -g->B * e[0] / len : 0.0;
      continue;
    }
    for (int k = 0; k < g->np; k++)
      guess[p + k] = len > 0.0 ? -g->B * e[k] / len : 0.0;
    guess[dr->comp0 + i] = len;
    p += g->np;
  }
}
