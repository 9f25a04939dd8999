/* implicit_side.c — one body's implicit function at the end-of-step pose and its derivatives (see
 * implicit_side.h; Chakraborty et al., geometrically implicit time-stepping, Sec. 4). */
#include "implicit_side.h"

#include "jacobian_add.h"
#include "world_detect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void side_pose(const struct gi_side *s, double h, const double *nu, double x[2], double *th)
{
  x[0] = s->x0[0];
  x[1] = s->x0[1];
  *th = s->th0;
  if (s->dof < 0) return;
  x[0] += h * nu[s->dof];
  x[1] += h * nu[s->dof + 1];
  *th += h * nu[s->dof + 2];
}

/* f(a) = phi(R^T (a - x)): G = R grad phi, Hw = R H R^T, df/dx = -G, df/dtheta = -G . S r,
 * dG/dx = -Hw, dG/dtheta = S G - Hw S r, with S the rotation by +90 degrees (S r = (-r_y, r_x)). */
void side_eval(const struct gi_side *s, double h, const double *nu, const double *a, struct side_eval *e)
{
  side_eval_fn(s, &s->fn, h, nu, a, e);
}

void side_eval_fn(const struct gi_side *s, const struct convex_fn *fn, double h, const double *nu,
                  const double *a, struct side_eval *e)
{
  double x[2], th;
  side_pose(s, h, nu, x, &th);
  double c = cos(th), sn = sin(th);
  e->r[0] = a[0] - x[0];
  e->r[1] = a[1] - x[1];
  double xi[2] = {c * e->r[0] + sn * e->r[1], -sn * e->r[0] + c * e->r[1]}, gl[2], Hl[4];
  e->f = convex_fn_eval(fn, xi, gl, Hl);
  double R[4] = {c, -sn, sn, c};
  e->G[0] = R[0] * gl[0] + R[1] * gl[1];
  e->G[1] = R[2] * gl[0] + R[3] * gl[1];
  double RH[4];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      RH[i * 2 + j] = R[i * 2] * Hl[j] + R[i * 2 + 1] * Hl[2 + j];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      e->Hw[i * 2 + j] = RH[i * 2] * R[j * 2] + RH[i * 2 + 1] * R[j * 2 + 1];
  double Sr[2] = {-e->r[1], e->r[0]};
  e->dfdq[0] = -e->G[0];
  e->dfdq[1] = -e->G[1];
  e->dfdq[2] = -(e->G[0] * Sr[0] + e->G[1] * Sr[1]);
  double SG[2] = {-e->G[1], e->G[0]};
  for (int i = 0; i < 2; i++) {
    e->dGdq[i * 3] = -e->Hw[i * 2];
    e->dGdq[i * 3 + 1] = -e->Hw[i * 2 + 1];
    e->dGdq[i * 3 + 2] = SG[i] - (e->Hw[i * 2] * Sr[0] + e->Hw[i * 2 + 1] * Sr[1]);
  }
}

/* The single convex function of a world shape, in its body's frame; 1 if the shape is not one. */
int implicit_side_shape(const struct world *w, int si, struct convex_fn *fn, char *msg, size_t len)
{
  const struct shape *sh = &w->shapes[si];
  struct convex_part part;
  int rc;
  if (sh->kind == SHAPE_DISC)
    rc = convex_part_ball(&part, 2, sh->c, sh->radius, msg, len);
  else if (sh->kind == SHAPE_HALFPLANE)
    rc = convex_part_halfspace(&part, 2, sh->n, sh->d, msg, len);
  else if (sh->kind == SHAPE_SUPERELLIPSE) {
    /* Sec. 4.1's single convex function: (u/a)^p + (v/b)^p - 1 in the frame at c turned by the angle */
    const double ax[3] = {sh->se.a, sh->se.b, 1.0};
    rc = convex_part_superellipsoid(&part, 2, sh->c, ax, sh->se.p, sh->se.p, msg, len);
    if (!rc) {
      double c = cos(sh->se.angle), s = sin(sh->se.angle);
      double *R = part.f[0].R;
      R[0] = c, R[1] = -s, R[3] = s, R[4] = c;
    }
  } else {
    snprintf(msg, len,
             "shape %d is a polygon: an intersection of half-planes needs Sec. 4.3's active-index choice, "
             "not implemented (discs, superellipses and half-planes only)",
             si);
    return 1;
  }
  if (rc) return 1;
  *fn = part.f[0];
  return 0;
}

int implicit_grow(void **buf, int *cap, int need, size_t size)
{
  if (need <= *cap) return 0;
  void *p = realloc(*buf, 2 * (size_t)need * size);
  if (!p) return 1;
  *buf = p;
  *cap = 2 * need;
  return 0;
}

static int grow(double **p, int n)
{
  double *q = realloc(*p, (size_t)(n > 0 ? n : 1) * sizeof *q);
  if (!q) return 1;
  *p = q;
  return 0;
}

int implicit_step_start(const struct world *w, double h, int n, double **M, double **nu0, double **papp,
                        double **guess)
{
  int nd = w->ndof;
  if (grow(M, nd * nd) || grow(nu0, nd) || grow(papp, nd) || grow(guess, n)) return 1;
  world_mass_matrix(w, *M);
  world_get_velocity(w, *nu0);
  world_external_force(w, *papp);
  for (int i = 0; i < nd; i++) {
    (*papp)[i] *= h;
    (*guess)[i] = (*nu0)[i];
  }
  return 0;
}

void implicit_side_pose_init(const struct world *w, int si, struct gi_side *s)
{
  const struct body *b = &w->bodies[w->shapes[si].body];
  s->dof = b->dof;
  s->x0[0] = b->x[0];
  s->x0[1] = b->x[1];
  s->th0 = b->theta;
}

int implicit_side_init(const struct world *w, int si, struct gi_side *s, char *msg, size_t len)
{
  implicit_side_pose_init(w, si, s);
  return implicit_side_shape(w, si, &s->fn, msg, len);
}

int implicit_detect_pairs(const struct world *w, double threshold, struct contact_set *cs)
{
  if (world_detect(w, threshold, cs)) return 1;
  int m = 0;
  for (int i = 0; i < cs->n; i++) {
    int dup = 0;
    for (int j = 0; j < m && !dup; j++)
      dup = cs->c[j].sa == cs->c[i].sa && cs->c[j].sb == cs->c[i].sb;
    if (!dup) cs->c[m++] = cs->c[i];
  }
  cs->n = m;
  return 0;
}

/* n = sign G / g with g = |G|: dn = sign (I - u u^T) / g dG, u = G / g (sign = +-1, so n n^T = u u^T). */
int side_unit_normal(const struct side_eval *e, double sign, double n[2], double dn_a[4], double dn_q[6])
{
  const double gn = hypot(e->G[0], e->G[1]);
  if (!(gn > 0.0)) return 1;
  n[0] = sign * e->G[0] / gn;
  n[1] = sign * e->G[1] / gn;
  const double P[4] = {sign * (1 - n[0] * n[0]) / gn, -sign * n[0] * n[1] / gn, -sign * n[0] * n[1] / gn,
                       sign * (1 - n[1] * n[1]) / gn};
  for (int k = 0; k < 2; k++) {
    for (int j = 0; j < 2; j++)
      dn_a[k * 2 + j] = P[k * 2] * e->Hw[j] + P[k * 2 + 1] * e->Hw[2 + j];
    for (int j = 0; j < 3; j++)
      dn_q[k * 3 + j] = P[k * 2] * e->dGdq[j] + P[k * 2 + 1] * e->dGdq[3 + j];
  }
  return 0;
}

void implicit_kkt2_rows(struct implicit_kkt2_cols c, const double *x, const struct gi_side *s1,
                        const struct side_eval *e1, const struct gi_side *s2, const struct side_eval *e2,
                        int m2, double h, double *F, double *J, int n)
{
  const double *a1 = x + c.a1, *a2 = x + c.a2, *l2 = x + c.l2;
  double l1 = x[c.l1];
  for (int k = 0; k < 2; k++) { /* (15) = (28): a1 - a2 + l1 G1(a1) */
    int row = c.row15 + k;
    F[row] = a1[k] - a2[k] + l1 * e1->G[k];
    jac_add(J, n, row, c.a1 + k, 1.0);
    jac_add(J, n, row, c.a2 + k, -1.0);
    for (int j = 0; j < 2; j++)
      jac_add(J, n, row, c.a1 + j, l1 * e1->Hw[k * 2 + j]);
    jac_add(J, n, row, c.l1, e1->G[k]);
    side_add_pose(J, n, row, s1, h, e1->dGdq + 3 * k, l1);
  }
  for (int k = 0; k < 2; k++) { /* (16) = (29): G1(a1) + sum_q l2_q G2_q(a2) */
    int row = c.row16 + k;
    F[row] = e1->G[k];
    for (int j = 0; j < 2; j++)
      jac_add(J, n, row, c.a1 + j, e1->Hw[k * 2 + j]);
    side_add_pose(J, n, row, s1, h, e1->dGdq + 3 * k, 1.0);
    for (int q = 0; q < m2; q++) {
      F[row] += l2[q] * e2[q].G[k];
      for (int j = 0; j < 2; j++)
        jac_add(J, n, row, c.a2 + j, l2[q] * e2[q].Hw[k * 2 + j]);
      jac_add(J, n, row, c.l2 + q, e2[q].G[k]);
      side_add_pose(J, n, row, s2, h, e2[q].dGdq + 3 * k, l2[q]);
    }
  }
}
