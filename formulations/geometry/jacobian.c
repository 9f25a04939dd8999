/* jacobian.c — sparse constraint columns (see jacobian.h). For a point p on body b with centre x, the
 * generalised direction of a world direction d is [d; (p - x) x d] (2D: [d_x, d_y, (p - x) x d]). */
#include "jacobian.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void block(const struct world *w, int body, const double p[3], const double d[3], double sign, int k,
                  struct jcol *c)
{
  c->dof[k] = -1;
  if (body < 0) return;
  const struct body *b = &w->bodies[body];
  if (b->dof < 0) return;
  c->dof[k] = b->dof;
  double r[3] = {p[0] - b->x[0], p[1] - b->x[1], w->dim == 3 ? p[2] - b->x[2] : 0.0};
  double rxd[3] = {r[1] * d[2] - r[2] * d[1], r[2] * d[0] - r[0] * d[2], r[0] * d[1] - r[1] * d[0]};
  double *v = c->v[k], *m = c->m[k], Ji[9];
  world_inverse_inertia(w, b, Ji);
  if (w->dim == 2) {
    v[0] = sign * d[0];
    v[1] = sign * d[1];
    v[2] = sign * rxd[2];
    m[0] = v[0] / b->mass;
    m[1] = v[1] / b->mass;
    m[2] = v[2] * Ji[8];
    return;
  }
  for (int i = 0; i < 3; i++) {
    v[i] = sign * d[i];
    v[3 + i] = sign * rxd[i];
    m[i] = v[i] / b->mass;
  }
  for (int i = 0; i < 3; i++)
    m[3 + i] = Ji[3 * i] * v[3] + Ji[3 * i + 1] * v[4] + Ji[3 * i + 2] * v[5];
}

void jcol_make(const struct world *w, int a, const double pa[3], int b, const double pb[3],
               const double dir[3], struct jcol *c)
{
  memset(c, 0, sizeof *c);
  c->bs = w->dim == 2 ? 3 : 6;
  block(w, a, pa, dir, 1.0, 0, c);
  block(w, b, pb, dir, -1.0, 1, c);
}

void jcol_contact(const struct world *w, const struct contact *ct, const double dir[3], struct jcol *c)
{
  jcol_make(w, ct->a, ct->pa, ct->b, ct->pb, dir, c);
}

double jcol_dot_minv(const struct jcol *x, const struct jcol *y)
{
  double s = 0.0;
  for (int i = 0; i < 2; i++) {
    if (x->dof[i] < 0) continue;
    for (int j = 0; j < 2; j++) {
      if (y->dof[j] != x->dof[i]) continue;
      for (int k = 0; k < x->bs; k++)
        s += x->v[i][k] * y->m[j][k];
    }
  }
  return s;
}

double jcol_dot(const struct jcol *x, const double *nu)
{
  double s = 0.0;
  for (int i = 0; i < 2; i++)
    if (x->dof[i] >= 0)
      for (int k = 0; k < x->bs; k++)
        s += x->v[i][k] * nu[x->dof[i] + k];
  return s;
}

void jcol_axpy_minv(const struct jcol *x, double s, double *nu)
{
  for (int i = 0; i < 2; i++)
    if (x->dof[i] >= 0)
      for (int k = 0; k < x->bs; k++)
        nu[x->dof[i] + k] += s * x->m[i][k];
}

void jcol_axpy(const struct jcol *x, double s, double *g)
{
  for (int i = 0; i < 2; i++)
    if (x->dof[i] >= 0)
      for (int k = 0; k < x->bs; k++)
        g[x->dof[i] + k] += s * x->v[i][k];
}

int jacobian_joint_rows(const struct world *w)
{
  int rows = 0;
  for (int j = 0; j < w->nj; j++)
    rows += world_joint_row_count(&w->joints[j]);
  return rows;
}

/* A column of pure turn: +1 on a's omega, -1 on b's (2D). */
static void turn_column(const struct world *w, int a, int b, struct jcol *c)
{
  const double zero[3] = {0.0, 0.0, 0.0}, none[3] = {0.0, 0.0, 0.0};
  jcol_make(w, a, zero, b, zero, none, c);
  for (int k = 0; k < 2; k++) {
    const int body = k == 0 ? a : b;
    if (c->dof[k] < 0) continue;
    double Ji[9];
    world_inverse_inertia(w, &w->bodies[body], Ji);
    c->v[k][2] = k == 0 ? 1.0 : -1.0;
    c->m[k][2] = c->v[k][2] * Ji[8];
  }
}

void jacobian_joint_columns(const struct world *w, struct jcol *col, double *phi)
{
  int r = 0;
  for (int j = 0; j < w->nj; j++) {
    const struct joint *jt = &w->joints[j];
    double pa[3], pb[3] = {jt->pb[0], jt->pb[1], w->dim == 3 ? jt->pb[2] : 0.0};
    world_joint_violation(w, jt, phi + r);
    if (jt->kind == JOINT_MIRROR_2D) { /* axis on both bodies, same sign: their sum along it is held */
      const double *xa = w->bodies[jt->a].x, *xb = w->bodies[jt->b].x;
      jcol_make(w, jt->a, xa, jt->b, xb, jt->axis, &col[r]);
      for (int k = 0; k < 3; k++)
        col[r].v[1][k] = -col[r].v[1][k], col[r].m[1][k] = -col[r].m[1][k];
      r++;
      continue;
    }
    world_point(w, &w->bodies[jt->a], jt->pa, pa);
    if (jt->b >= 0) world_point(w, &w->bodies[jt->b], jt->pb, pb);
    if (jt->kind == JOINT_PRISMATIC_2D) { /* across the axis at a's point, then the turn */
      const double th = jt->b >= 0 ? w->bodies[jt->b].theta : 0.0;
      const double nrm[3] = {-(sin(th) * jt->axis[0] + cos(th) * jt->axis[1]),
                             cos(th) * jt->axis[0] - sin(th) * jt->axis[1], 0.0};
      jcol_make(w, jt->a, pa, jt->b, pa, nrm, &col[r++]);
      turn_column(w, jt->a, jt->b, &col[r++]);
      continue;
    }
    for (int k = 0; k < world_joint_row_count(jt); k++, r++) {
      double e[3] = {0.0, 0.0, 0.0};
      e[k] = 1.0;
      jcol_make(w, jt->a, pa, jt->b, pb, e, &col[r]);
    }
  }
}

void jacobian_free_velocity(const struct world *w, double h, double *nu_free, double *work)
{
  world_get_velocity(w, nu_free);
  world_external_force(w, work);
  world_apply_inverse_mass(w, work, work);
  for (int i = 0; i < w->ndof; i++)
    nu_free[i] += h * work[i];
}
