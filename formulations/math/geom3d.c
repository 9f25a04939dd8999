/* geom3d.c — 3D vectors, 3x3 matrices and unit quaternions (see geom3d.h for the conventions).
 * Quaternion kinematics: with the angular velocity w in the world frame, dq/dt = 1/2 (0, w) * q;
 * quat_integrate takes one explicit Euler step of it and renormalises (the world renormalises each step,
 * design.md contract 5). quat_from_matrix follows Shepperd (1978): pivot on the largest of
 * 4w^2, 4x^2, 4y^2, 4z^2 so the division is never by a small number. */
#include "geom3d.h"

#include <math.h>

double vec3_normalize(double a[3])
{
  double len = vec3_norm(a);
  if (len > 0.0)
    for (int k = 0; k < 3; k++)
      a[k] /= len;
  return len;
}

void vec3_basis(const double n[3], double t1[3], double t2[3])
{
  /* Cross with the coordinate axis least aligned with n: never nearly parallel. */
  double e[3] = {0, 0, 0};
  int k = 0;
  for (int i = 1; i < 3; i++)
    if (fabs(n[i]) < fabs(n[k])) k = i;
  e[k] = 1.0;
  vec3_cross(n, e, t1);
  vec3_normalize(t1);
  vec3_cross(n, t1, t2);
}

void mat3_identity(double out[9])
{
  for (int i = 0; i < 9; i++)
    out[i] = (i % 4 == 0) ? 1.0 : 0.0;
}

void mat3_mul(const double A[9], const double B[9], double out[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      out[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

void mat3_vec(const double A[9], const double x[3], double out[3])
{
  for (int i = 0; i < 3; i++)
    out[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
}

void mat3_tvec(const double A[9], const double x[3], double out[3])
{
  for (int i = 0; i < 3; i++)
    out[i] = A[i] * x[0] + A[3 + i] * x[1] + A[6 + i] * x[2];
}

void mat3_transpose(const double A[9], double out[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      out[3 * j + i] = A[3 * i + j];
}

double mat3_det(const double A[9])
{
  return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
         A[2] * (A[3] * A[7] - A[4] * A[6]);
}

void mat3_rotate_tensor(const double R[9], const double A[9], double out[9])
{
  double RA[9], Rt[9];
  mat3_mul(R, A, RA);
  mat3_transpose(R, Rt);
  mat3_mul(RA, Rt, out);
}

void quat_identity(double q[4])
{
  q[0] = 1.0;
  q[1] = q[2] = q[3] = 0.0;
}

void quat_mul(const double p[4], const double q[4], double out[4])
{
  double r0 = p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3];
  double r1 = p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2];
  double r2 = p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1];
  double r3 = p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0];
  out[0] = r0;
  out[1] = r1;
  out[2] = r2;
  out[3] = r3;
}

void quat_conj(const double q[4], double out[4])
{
  out[0] = q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = -q[3];
}

double quat_normalize(double q[4])
{
  double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(len > 0.0)) {
    quat_identity(q);
    return len;
  }
  for (int k = 0; k < 4; k++)
    q[k] /= len;
  return len;
}

void quat_rotate(const double q[4], const double v[3], double out[3])
{
  /* v' = v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z): the expanded q v q* for unit q. */
  const double *u = q + 1;
  double t[3], ut[3];
  vec3_cross(u, v, t);
  vec3_scale(t, 2.0, t);
  vec3_cross(u, t, ut);
  for (int k = 0; k < 3; k++)
    out[k] = v[k] + q[0] * t[k] + ut[k];
}

void quat_from_axis_angle(const double axis[3], double angle, double q[4])
{
  double a[3] = {axis[0], axis[1], axis[2]};
  if (!(vec3_normalize(a) > 0.0)) {
    quat_identity(q);
    return;
  }
  double s = sin(0.5 * angle);
  q[0] = cos(0.5 * angle);
  for (int k = 0; k < 3; k++)
    q[k + 1] = s * a[k];
}

void quat_integrate(double q[4], const double w[3], double h)
{
  double wq[4] = {0.0, w[0], w[1], w[2]}, dq[4];
  quat_mul(wq, q, dq);
  for (int k = 0; k < 4; k++)
    q[k] += 0.5 * h * dq[k];
  quat_normalize(q);
}

void quat_to_matrix(const double q[4], double R[9])
{
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - w * z);
  R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);
  R[7] = 2 * (y * z + w * x);
  R[8] = 1 - 2 * (x * x + y * y);
}

void quat_from_matrix(const double R[9], double q[4])
{
  double tr = R[0] + R[4] + R[8];
  double piv[4] = {1 + tr, 1 + R[0] - R[4] - R[8], 1 - R[0] + R[4] - R[8], 1 - R[0] - R[4] + R[8]};
  int k = 0;
  for (int i = 1; i < 4; i++)
    if (piv[i] > piv[k]) k = i;
  double s = 2.0 * sqrt(piv[k]); /* = 4 |component k| */
  switch (k) {
  case 0:
    q[0] = s / 4;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
    break;
  case 1:
    q[1] = s / 4;
    q[0] = (R[7] - R[5]) / s;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
    break;
  case 2:
    q[2] = s / 4;
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[3] = (R[5] + R[7]) / s;
    break;
  default:
    q[3] = s / 4;
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    break;
  }
  if (q[0] < 0)
    for (int i = 0; i < 4; i++)
      q[i] = -q[i];
  quat_normalize(q);
}
