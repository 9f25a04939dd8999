/* implicit_side3.c — one body's implicit function at the end-of-step pose in 3D and its derivatives in the
 * body's velocities (see implicit_side3.h; Chakraborty et al., geometrically implicit time-stepping, Sec. 4).
 */
#include "implicit_side3.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void cross_mat(const double u[3], double S[9])
{
  S[0] = 0, S[1] = -u[2], S[2] = u[1];
  S[3] = u[2], S[4] = 0, S[5] = -u[0];
  S[6] = -u[1], S[7] = u[0], S[8] = 0;
}

static void mat_mul(const double *A, const double *B, double *C)
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[i * 3 + j] = A[i * 3] * B[j] + A[i * 3 + 1] * B[3 + j] + A[i * 3 + 2] * B[6 + j];
}

static void quat_rot(const double *q, double *R)
{
  double qw = q[0], qx = q[1], qy = q[2], qz = q[3];
  R[0] = 1 - 2 * (qy * qy + qz * qz), R[1] = 2 * (qx * qy - qw * qz), R[2] = 2 * (qx * qz + qw * qy);
  R[3] = 2 * (qx * qy + qw * qz), R[4] = 1 - 2 * (qx * qx + qz * qz), R[5] = 2 * (qy * qz - qw * qx);
  R[6] = 2 * (qx * qz - qw * qy), R[7] = 2 * (qy * qz + qw * qx), R[8] = 1 - 2 * (qx * qx + qy * qy);
}

/* C(u) and, when dC is not NULL, dC[k] = d C / d u_k (three 3x3 blocks). */
static void cayley(const double u[3], double C[9], double dC[27])
{
  double S[9], S2[9], uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], s = 1.0 + uu;
  cross_mat(u, S);
  mat_mul(S, S, S2);
  for (int i = 0; i < 9; i++)
    C[i] = (i % 4 == 0 ? 1.0 : 0.0) + 2.0 * (S[i] + S2[i]) / s;
  if (!dC) return;
  for (int k = 0; k < 3; k++) {
    double e[3] = {0, 0, 0}, E[9], ES[9], SE[9];
    e[k] = 1.0;
    cross_mat(e, E);
    mat_mul(E, S, ES);
    mat_mul(S, E, SE);
    for (int i = 0; i < 9; i++)
      dC[k * 9 + i] = 2.0 * (E[i] + ES[i] + SE[i]) / s - 4.0 * u[k] * (S[i] + S2[i]) / (s * s);
  }
}

static void pose(const struct gi_side3 *s, double h, const double *nu, double x[3], double R[9],
                 double dR[27])
{
  double R0[9], u[3] = {0, 0, 0}, C[9], dC[27];
  quat_rot(s->q0, R0);
  for (int k = 0; k < 3; k++)
    x[k] = s->x0[k];
  if (s->dof >= 0)
    for (int k = 0; k < 3; k++) {
      x[k] += h * nu[s->dof + k];
      u[k] = 0.5 * h * nu[s->dof + 3 + k];
    }
  cayley(u, C, dC);
  mat_mul(C, R0, R);
  if (dR)
    for (int k = 0; k < 3; k++)
      mat_mul(dC + 9 * k, R0, dR + 9 * k);
}

void side3_pose(const struct gi_side3 *s, double h, const double *nu, double x[3], double R[9])
{
  pose(s, h, nu, x, R, NULL);
}

void side3_pose_d(const struct gi_side3 *s, double h, const double *nu, double x[3], double R[9],
                  double dR[27])
{
  pose(s, h, nu, x, R, dR);
}

/* f(a) = phi(xi), xi = R^T (a - x): G = R grad phi, Hw = R H R^T; d f / d v = -h G;
 * d xi / d u_k = dR_k^T r, d f / d u_k = grad phi . d xi / d u_k, d G / d u_k = dR_k grad phi + R H d xi / d
 * u_k, d G / d v = -h Hw; d u / d omega = h / 2. */
void side3_eval(const struct gi_side3 *s, double h, const double *nu, const double *a, struct side3_eval *e)
{
  side3_eval_fn(s, &s->fn, h, nu, a, e);
}

void side3_eval_fn(const struct gi_side3 *s, const struct convex_fn *fn, double h, const double *nu,
                   const double *a, struct side3_eval *e)
{
  double x[3], R[9], dR[27], xi[3], gl[3], Hl[9];
  pose(s, h, nu, x, R, dR);
  for (int k = 0; k < 3; k++)
    e->r[k] = a[k] - x[k];
  for (int i = 0; i < 3; i++)
    xi[i] = R[i] * e->r[0] + R[3 + i] * e->r[1] + R[6 + i] * e->r[2];
  e->f = convex_fn_eval(fn, xi, gl, Hl);
  double RH[9];
  for (int i = 0; i < 3; i++) {
    e->G[i] = R[i * 3] * gl[0] + R[i * 3 + 1] * gl[1] + R[i * 3 + 2] * gl[2];
    for (int j = 0; j < 3; j++)
      RH[i * 3 + j] = R[i * 3] * Hl[j] + R[i * 3 + 1] * Hl[3 + j] + R[i * 3 + 2] * Hl[6 + j];
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      e->Hw[i * 3 + j] = RH[i * 3] * R[j * 3] + RH[i * 3 + 1] * R[j * 3 + 1] + RH[i * 3 + 2] * R[j * 3 + 2];
  memset(e->dfdn, 0, sizeof e->dfdn);
  memset(e->dGdn, 0, sizeof e->dGdn);
  if (s->dof < 0) return;
  for (int k = 0; k < 3; k++) {
    e->dfdn[k] = -h * e->G[k];
    for (int i = 0; i < 3; i++)
      e->dGdn[i * 6 + k] = -h * e->Hw[i * 3 + k];
    const double *D = dR + 9 * k;
    double dxi[3], dG[3];
    for (int i = 0; i < 3; i++)
      dxi[i] = D[i] * e->r[0] + D[3 + i] * e->r[1] + D[6 + i] * e->r[2];
    e->dfdn[3 + k] = 0.5 * h * (gl[0] * dxi[0] + gl[1] * dxi[1] + gl[2] * dxi[2]);
    for (int i = 0; i < 3; i++) {
      dG[i] = D[i * 3] * gl[0] + D[i * 3 + 1] * gl[1] + D[i * 3 + 2] * gl[2];
      dG[i] += RH[i * 3] * dxi[0] + RH[i * 3 + 1] * dxi[1] + RH[i * 3 + 2] * dxi[2];
      e->dGdn[i * 6 + 3 + k] = 0.5 * h * dG[i];
    }
  }
}

int implicit_side3_shape(const struct world *w, int si, struct convex_fn *fn, char *msg, size_t len)
{
  const struct shape *sh = &w->shapes[si];
  struct convex_part part;
  int rc;
  if (sh->kind == SHAPE_SPHERE)
    rc = convex_part_ball(&part, 3, sh->c, sh->radius, msg, len);
  else if (sh->kind == SHAPE_PLANE)
    rc = convex_part_halfspace(&part, 3, sh->n, sh->d, msg, len);
  else if (sh->kind == SHAPE_SUPERELLIPSOID) {
    /* Sec. 4.1's single convex function: sum_k (u_k / a_k)^p - 1 in the frame at c turned by the shape's q */
    rc = convex_part_superellipsoid(&part, 3, sh->c, sh->sq.a, sh->sq.p, sh->sq.p, msg, len);
    if (!rc) quat_rot(sh->sq.q, part.f[0].R);
  } else {
    snprintf(
        msg, len,
        "shape %d is a polyhedron: an intersection of half-spaces, not one convex function (Sec. 4.3 takes "
        "it as body 2 of a contact whose body 1 is a sphere, superellipsoid or plane)",
        si);
    return 1;
  }
  if (rc) return 1;
  *fn = part.f[0];
  return 0;
}

void implicit_side3_pose_init(const struct world *w, int si, struct gi_side3 *s)
{
  const struct body *b = &w->bodies[w->shapes[si].body];
  s->dof = b->dof;
  memcpy(s->x0, b->x, sizeof s->x0);
  memcpy(s->q0, b->q, sizeof s->q0);
}

int implicit_side3_init(const struct world *w, int si, struct gi_side3 *s, char *msg, size_t len)
{
  implicit_side3_pose_init(w, si, s);
  return implicit_side3_shape(w, si, &s->fn, msg, len);
}
