/* geom3d.h — small 3D linear algebra for the rigid-body world: vectors (double[3]), 3x3 matrices
 * (double[9], row-major) and unit quaternions (double[4], scalar first: w, x, y, z).
 * Conventions: quat_to_matrix gives the body -> world rotation R with x_world = R x_body + position;
 * angular velocities are in the world frame, so dq/dt = 1/2 (0, w) * q (quaternion product). */
#ifndef CB_GEOM3D_H
#define CB_GEOM3D_H

#include <math.h>

/* Vectors. Output arguments may alias inputs. The smallest helpers are static inline: the narrow
 * phase calls them in its innermost loops (a call each cost a third of contact3d's time). */
static inline double vec3_dot(const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void vec3_cross(const double a[3], const double b[3], double out[3])
{
  double c0 = a[1] * b[2] - a[2] * b[1], c1 = a[2] * b[0] - a[0] * b[2], c2 = a[0] * b[1] - a[1] * b[0];
  out[0] = c0, out[1] = c1, out[2] = c2;
}
static inline void vec3_add(const double a[3], const double b[3], double out[3])
{
  out[0] = a[0] + b[0], out[1] = a[1] + b[1], out[2] = a[2] + b[2];
}
static inline void vec3_sub(const double a[3], const double b[3], double out[3])
{
  out[0] = a[0] - b[0], out[1] = a[1] - b[1], out[2] = a[2] - b[2];
}
static inline void vec3_scale(const double a[3], double s, double out[3])
{
  out[0] = s * a[0], out[1] = s * a[1], out[2] = s * a[2];
}
static inline void vec3_axpy(double alpha, const double x[3], double y[3]) /* y += alpha x */
{
  y[0] += alpha * x[0], y[1] += alpha * x[1], y[2] += alpha * x[2];
}
static inline double vec3_norm(const double a[3]) { return sqrt(vec3_dot(a, a)); }
/* Scales a to unit length and returns its former length; leaves a zero vector unchanged. */
double vec3_normalize(double a[3]);
/* A unit vector orthogonal to the unit vector n, and t2 = n x t1 (so (t1, t2, n) is right-handed). */
void vec3_basis(const double n[3], double t1[3], double t2[3]);

/* 3x3 matrices, row-major. */
void mat3_identity(double out[9]);
void mat3_mul(const double A[9], const double B[9], double out[9]);  /* out must not alias A or B */
void mat3_vec(const double A[9], const double x[3], double out[3]);  /* A x; out must not alias x */
void mat3_tvec(const double A[9], const double x[3], double out[3]); /* A^T x; out must not alias x */
void mat3_transpose(const double A[9], double out[9]);               /* out must not alias A */
double mat3_det(const double A[9]);
/* R A R^T (a tensor from the body frame to the world frame). */
void mat3_rotate_tensor(const double R[9], const double A[9], double out[9]);

/* Unit quaternions (w, x, y, z). */
void quat_identity(double q[4]);
void quat_mul(const double p[4], const double q[4], double out[4]); /* Hamilton product p q; may alias */
void quat_conj(const double q[4], double out[4]);
/* Scales to unit length; returns the former length (a zero quaternion becomes the identity). */
double quat_normalize(double q[4]);
void quat_rotate(const double q[4], const double v[3], double out[3]); /* q v q*; may alias */
/* Rotation by angle (radians) about axis (need not be unit; a zero axis gives the identity). */
void quat_from_axis_angle(const double axis[3], double angle, double q[4]);
/* One explicit step of dq/dt = 1/2 (0, w) q with world-frame angular velocity w, then renormalised. */
void quat_integrate(double q[4], const double w[3], double h);
void quat_to_matrix(const double q[4], double R[9]);
/* Nearest unit quaternion of a rotation matrix (Shepperd's method: largest of the four pivots), w >= 0. */
void quat_from_matrix(const double R[9], double q[4]);

#endif
