/* world.c — world lifecycle, building, kinematics and energy (design.md contract 5; layout in world.h).
 * 3D angular velocity lives in the world frame, so the Newton-Euler equations read
 * R J R^T dw/dt = tau - w x (R J R^T w): the gyroscopic term enters as an explicit force. Orientation
 * update q <- q + h/2 (0, w) * q (world-frame w), renormalised every step. */
#include "world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct world *world_create(int dim)
{
  if (dim != 2 && dim != 3) return NULL;
  struct world *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->dim = dim;
  w->gravity[dim - 1] = -9.81;
  w->mu = 0.0;
  w->threshold = 0.01;
  w->broad = BROAD_SWEEP;
  return w;
}

void world_destroy(struct world **pw)
{
  if (!pw || !*pw) return;
  struct world *w = *pw;
  for (int i = 0; i < w->ns; i++) {
    polygon_free(w->shapes[i].polygon);
    polyhedron_free(w->shapes[i].polyhedron);
  }
  free(w->shapes);
  free(w->bodies);
  free(w->joints);
  free(w->motors);
  free(w->supports);
  free(w);
  *pw = NULL;
}

static int grow(void **arr, int *cap, int need, size_t size)
{
  if (need <= *cap) return 0;
  int nc = *cap ? 2 * *cap : 8;
  while (nc < need)
    nc *= 2;
  void *p = realloc(*arr, (size_t)nc * size);
  if (!p) return 1;
  *arr = p;
  *cap = nc;
  return 0;
}

int world_add_body(struct world *w, int is_static, double mass, double inertia)
{
  if (grow((void **)&w->bodies, &w->cap_b, w->nb + 1, sizeof *w->bodies)) return -1;
  struct body *b = &w->bodies[w->nb];
  memset(b, 0, sizeof *b);
  b->is_static = is_static;
  b->dof = -1;
  b->mass = is_static ? 0.0 : mass;
  b->inertia = is_static ? 0.0 : inertia;
  for (int k = 0; k < 3; k++)
    b->inertia3[4 * k] = b->inertia;
  b->q[0] = 1.0;
  b->shape_begin = w->ns;
  return w->nb++;
}

/* Parts of a body must be contiguous in w->shapes: shapes are appended to the last body only. */
struct shape *world_new_shape(struct world *w, int body, enum shape_kind kind)
{
  if (body < 0 || body != w->nb - 1) return NULL;
  int two_d =
      kind == SHAPE_DISC || kind == SHAPE_POLYGON || kind == SHAPE_HALFPLANE || kind == SHAPE_SUPERELLIPSE;
  if (two_d != (w->dim == 2)) return NULL;
  if (grow((void **)&w->shapes, &w->cap_s, w->ns + 1, sizeof *w->shapes)) return NULL;
  struct shape *s = &w->shapes[w->ns++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->body = body;
  w->bodies[body].shape_count++;
  return s;
}

int world_add_disc(struct world *w, int body, double cx, double cy, double radius)
{
  struct shape *s = world_new_shape(w, body, SHAPE_DISC);
  if (!s) return -1;
  s->c[0] = cx;
  s->c[1] = cy;
  s->radius = radius;
  return w->ns - 1;
}

int world_add_polygon(struct world *w, int body, int n, const double *xy)
{
  struct polygon *p = polygon_create(n, xy);
  if (!p) return -1;
  struct shape *s = world_new_shape(w, body, SHAPE_POLYGON);
  if (!s) {
    polygon_free(p);
    return -1;
  }
  s->polygon = p;
  for (int i = 0; i < p->n; i++) {
    double r = hypot(p->v[2 * i], p->v[2 * i + 1]);
    if (r > s->radius) s->radius = r;
  }
  return w->ns - 1;
}

int world_add_halfplane(struct world *w, int body, double nx, double ny, double d)
{
  double len = hypot(nx, ny);
  if (!(len > 0.0)) return -1;
  struct shape *s = world_new_shape(w, body, SHAPE_HALFPLANE);
  if (!s) return -1;
  s->n[0] = nx / len;
  s->n[1] = ny / len;
  s->d = d / len;
  return w->ns - 1;
}

int world_add_sphere(struct world *w, int body, const double c[3], double radius)
{
  struct shape *s = world_new_shape(w, body, SHAPE_SPHERE);
  if (!s) return -1;
  memcpy(s->c, c, 3 * sizeof *c);
  s->radius = radius;
  return w->ns - 1;
}

int world_add_polyhedron(struct world *w, int body, struct polyhedron *ph)
{
  if (!ph) return -1;
  struct shape *s = world_new_shape(w, body, SHAPE_POLYHEDRON);
  if (!s) {
    polyhedron_free(ph);
    return -1;
  }
  s->polyhedron = ph;
  for (int i = 0; i < ph->nv; i++) {
    const double *p = ph->v + 3 * i;
    double r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    if (r > s->radius) s->radius = r;
  }
  return w->ns - 1;
}

int world_add_plane(struct world *w, int body, const double n[3], double d)
{
  double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(len > 0.0)) return -1;
  struct shape *s = world_new_shape(w, body, SHAPE_PLANE);
  if (!s) return -1;
  for (int k = 0; k < 3; k++)
    s->n[k] = n[k] / len;
  s->d = d / len;
  return w->ns - 1;
}

static int push_joint(struct world *w, const struct joint *j)
{
  if (grow((void **)&w->joints, &w->cap_j, w->nj + 1, sizeof *w->joints)) return -1;
  w->joints[w->nj] = *j;
  return w->nj++;
}

static int joint_bodies_ok(const struct world *w, int a, int b)
{
  return a >= 0 && a < w->nb && b >= -1 && b < w->nb && a != b;
}

/* The unit vector of v (2D: its plane part) into u; 1 when v is zero or not finite. */
static int unit_axis(const struct world *w, const double v[3], double u[3])
{
  const double z = w->dim == 3 ? v[2] : 0.0, len = sqrt(v[0] * v[0] + v[1] * v[1] + z * z);
  if (!(len > 0.0) || !isfinite(len)) return 1;
  u[0] = v[0] / len, u[1] = v[1] / len, u[2] = z / len;
  return 0;
}

int world_add_joint(struct world *w, enum joint_kind kind, int a, int b, const double pa[3],
                    const double pb[3])
{
  if ((kind != JOINT_REVOLUTE_2D && kind != JOINT_BALL_3D) || (kind == JOINT_REVOLUTE_2D) != (w->dim == 2) ||
      !joint_bodies_ok(w, a, b))
    return -1;
  struct joint j = {.kind = kind, .a = a, .b = b};
  memcpy(j.pa, pa, sizeof j.pa);
  memcpy(j.pb, pb, sizeof j.pb);
  return push_joint(w, &j);
}

int world_add_slider(struct world *w, int a, int b, const double pa[3], const double pb[3],
                     const double axis[3])
{
  struct joint j = {.kind = JOINT_PRISMATIC_2D, .a = a, .b = b};
  if (w->dim != 2 || !joint_bodies_ok(w, a, b) || unit_axis(w, axis, j.axis)) return -1;
  memcpy(j.pa, pa, sizeof j.pa);
  memcpy(j.pb, pb, sizeof j.pb);
  j.angle = w->bodies[a].theta - (b >= 0 ? w->bodies[b].theta : 0.0);
  return push_joint(w, &j);
}

int world_add_mirror(struct world *w, int a, int b, const double c[3], const double axis[3])
{
  struct joint j = {.kind = JOINT_MIRROR_2D, .a = a, .b = b};
  if (w->dim != 2 || b < 0 || !joint_bodies_ok(w, a, b) || unit_axis(w, axis, j.axis)) return -1;
  memcpy(j.pb, c, sizeof j.pb);
  return push_joint(w, &j);
}

int world_joint_row_count(const struct joint *j)
{
  switch (j->kind) {
  case JOINT_REVOLUTE_2D: return 2;
  case JOINT_BALL_3D: return 3;
  case JOINT_PRISMATIC_2D: return 2;
  case JOINT_MIRROR_2D: return 1;
  }
  return 0;
}

/* A prismatic joint's axis and its normal in the world (turned with b). */
static void slider_axes(const struct world *w, const struct joint *j, double e[3], double nrm[3])
{
  const double th = j->b >= 0 ? w->bodies[j->b].theta : 0.0, c = cos(th), s = sin(th);
  e[0] = c * j->axis[0] - s * j->axis[1], e[1] = s * j->axis[0] + c * j->axis[1], e[2] = 0.0;
  nrm[0] = -e[1], nrm[1] = e[0], nrm[2] = 0.0;
}

void world_joint_violation(const struct world *w, const struct joint *j, double *phi)
{
  double pa[3], pb[3] = {j->pb[0], j->pb[1], w->dim == 3 ? j->pb[2] : 0.0};
  const struct body *a = &w->bodies[j->a];
  if (j->kind == JOINT_MIRROR_2D) {
    const double *xb = w->bodies[j->b].x;
    phi[0] = j->axis[0] * (a->x[0] + xb[0] - 2.0 * pb[0]) + j->axis[1] * (a->x[1] + xb[1] - 2.0 * pb[1]);
    return;
  }
  world_point(w, a, j->pa, pa);
  if (j->b >= 0) world_point(w, &w->bodies[j->b], j->pb, pb);
  if (j->kind == JOINT_PRISMATIC_2D) {
    double e[3], nrm[3];
    slider_axes(w, j, e, nrm);
    phi[0] = nrm[0] * (pa[0] - pb[0]) + nrm[1] * (pa[1] - pb[1]);
    phi[1] = a->theta - (j->b >= 0 ? w->bodies[j->b].theta : 0.0) - j->angle;
    return;
  }
  for (int k = 0; k < world_joint_row_count(j); k++)
    phi[k] = pa[k] - pb[k];
}

int world_add_motor(struct world *w, int body, const double axis[3], double speed, double max_force)
{
  struct motor m = {.body = body, .speed = speed, .max_force = max_force};
  if (body < 0 || body >= w->nb || w->bodies[body].is_static || unit_axis(w, axis, m.axis) ||
      !isfinite(speed) || !(max_force > 0.0) || !isfinite(max_force))
    return -1;
  if (grow((void **)&w->motors, &w->cap_m, w->nm + 1, sizeof *w->motors)) return -1;
  w->motors[w->nm] = m;
  return w->nm++;
}

int world_add_support(struct world *w, int body, int n, const double *p, const double *normal, double mu,
                      int dirs, double damping)
{
  if (w->dim != 2 || body < 0 || body >= w->nb || w->bodies[body].is_static || n < 1 ||
      n > WORLD_SUPPORT_POINTS || !(mu >= 0.0) || !isfinite(mu) || dirs < 3 || !(damping >= 0.0) ||
      !isfinite(damping))
    return -1;
  struct support_friction s = {.body = body, .n = n, .dirs = dirs, .mu = mu, .damping = damping};
  for (int i = 0; i < n; i++) {
    if (!isfinite(p[2 * i]) || !isfinite(p[2 * i + 1]) || !(normal[i] >= 0.0) || !isfinite(normal[i]))
      return -1;
    s.p[i][0] = p[2 * i], s.p[i][1] = p[2 * i + 1], s.normal[i] = normal[i];
  }
  if (grow((void **)&w->supports, &w->cap_sup, w->nsup + 1, sizeof *w->supports)) return -1;
  w->supports[w->nsup] = s;
  return w->nsup++;
}

int world_finalize(struct world *w)
{
  int per = w->dim == 2 ? 3 : 6;
  w->ndof = 0;
  for (int i = 0; i < w->nb; i++) {
    struct body *b = &w->bodies[i];
    b->dof = -1;
    if (!b->is_static) {
      if (!(b->mass > 0.0)) return 1;
      b->dof = w->ndof;
      w->ndof += per;
    }
    b->bound_radius = 0.0;
    b->unbounded = 0;
    for (int k = b->shape_begin; k < b->shape_begin + b->shape_count; k++) {
      const struct shape *s = &w->shapes[k];
      if (s->kind == SHAPE_HALFPLANE || s->kind == SHAPE_PLANE) {
        b->unbounded = 1;
        continue;
      }
      double r = s->radius;
      if (s->kind == SHAPE_DISC || s->kind == SHAPE_SPHERE || s->kind == SHAPE_SUPERELLIPSE ||
          s->kind == SHAPE_SUPERELLIPSOID)
        r += sqrt(s->c[0] * s->c[0] + s->c[1] * s->c[1] + s->c[2] * s->c[2]);
      if (r > b->bound_radius) b->bound_radius = r;
    }
  }
  return 0;
}

void world_rotation(const struct world *w, const struct body *b, double R[9])
{
  memset(R, 0, 9 * sizeof *R);
  if (w->dim == 2) {
    double c = cos(b->theta), s = sin(b->theta);
    R[0] = c;
    R[1] = -s;
    R[3] = s;
    R[4] = c;
    R[8] = 1.0;
    return;
  }
  double qw = b->q[0], qx = b->q[1], qy = b->q[2], qz = b->q[3];
  R[0] = 1 - 2 * (qy * qy + qz * qz);
  R[1] = 2 * (qx * qy - qw * qz);
  R[2] = 2 * (qx * qz + qw * qy);
  R[3] = 2 * (qx * qy + qw * qz);
  R[4] = 1 - 2 * (qx * qx + qz * qz);
  R[5] = 2 * (qy * qz - qw * qx);
  R[6] = 2 * (qx * qz - qw * qy);
  R[7] = 2 * (qy * qz + qw * qx);
  R[8] = 1 - 2 * (qx * qx + qy * qy);
}

void world_vector(const struct world *w, const struct body *b, const double local[3], double out[3])
{
  double R[9], l[3] = {local[0], local[1], w->dim == 3 ? local[2] : 0.0};
  world_rotation(w, b, R);
  for (int i = 0; i < 3; i++)
    out[i] = R[3 * i] * l[0] + R[3 * i + 1] * l[1] + R[3 * i + 2] * l[2];
}

void world_point(const struct world *w, const struct body *b, const double local[3], double out[3])
{
  world_vector(w, b, local, out);
  for (int i = 0; i < w->dim; i++)
    out[i] += b->x[i];
  if (w->dim == 2) out[2] = 0.0;
}

static void cross(const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

void world_point_velocity(const struct world *w, const struct body *b, const double p[3], double out[3])
{
  double r[3] = {p[0] - b->x[0], p[1] - b->x[1], w->dim == 3 ? p[2] - b->x[2] : 0.0};
  double om[3] = {w->dim == 3 ? b->w[0] : 0.0, w->dim == 3 ? b->w[1] : 0.0, b->w[2]};
  cross(om, r, out);
  for (int i = 0; i < 3; i++)
    out[i] += (i < w->dim) ? b->v[i] : 0.0;
}

/* 3x3 symmetric inverse by cofactors; J is a body inertia, so it is positive definite. */
static void inverse3(const double A[9], double B[9])
{
  double c0 = A[4] * A[8] - A[5] * A[7], c1 = A[5] * A[6] - A[3] * A[8], c2 = A[3] * A[7] - A[4] * A[6];
  double det = A[0] * c0 + A[1] * c1 + A[2] * c2;
  B[0] = c0 / det;
  B[3] = c1 / det;
  B[6] = c2 / det;
  B[1] = (A[2] * A[7] - A[1] * A[8]) / det;
  B[4] = (A[0] * A[8] - A[2] * A[6]) / det;
  B[7] = (A[1] * A[6] - A[0] * A[7]) / det;
  B[2] = (A[1] * A[5] - A[2] * A[4]) / det;
  B[5] = (A[2] * A[3] - A[0] * A[5]) / det;
  B[8] = (A[0] * A[4] - A[1] * A[3]) / det;
}

/* out = R A R^T */
static void rotate_tensor(const double R[9], const double A[9], double out[9])
{
  double T[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      T[3 * i + j] = R[3 * i] * A[j] + R[3 * i + 1] * A[3 + j] + R[3 * i + 2] * A[6 + j];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      out[3 * i + j] = T[3 * i] * R[3 * j] + T[3 * i + 1] * R[3 * j + 1] + T[3 * i + 2] * R[3 * j + 2];
}

static void world_inertia_tensor(const struct world *w, const struct body *b, double out[9])
{
  double R[9];
  world_rotation(w, b, R);
  rotate_tensor(R, b->inertia3, out);
}

void world_inverse_inertia(const struct world *w, const struct body *b, double out[9])
{
  memset(out, 0, 9 * sizeof *out);
  if (b->is_static) return;
  if (w->dim == 2) {
    out[8] = 1.0 / b->inertia;
    return;
  }
  double R[9], Ji[9];
  world_rotation(w, b, R);
  inverse3(b->inertia3, Ji);
  rotate_tensor(R, Ji, out);
}

void world_get_velocity(const struct world *w, double *nu)
{
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    if (b->dof < 0) continue;
    if (w->dim == 2) {
      nu[b->dof] = b->v[0];
      nu[b->dof + 1] = b->v[1];
      nu[b->dof + 2] = b->w[2];
    } else {
      for (int k = 0; k < 3; k++) {
        nu[b->dof + k] = b->v[k];
        nu[b->dof + 3 + k] = b->w[k];
      }
    }
  }
}

void world_set_velocity(struct world *w, const double *nu)
{
  for (int i = 0; i < w->nb; i++) {
    struct body *b = &w->bodies[i];
    if (b->dof < 0) continue;
    if (w->dim == 2) {
      b->v[0] = nu[b->dof];
      b->v[1] = nu[b->dof + 1];
      b->w[2] = nu[b->dof + 2];
    } else {
      for (int k = 0; k < 3; k++) {
        b->v[k] = nu[b->dof + k];
        b->w[k] = nu[b->dof + 3 + k];
      }
    }
  }
}

void world_integrate_positions(struct world *w, double h)
{
  for (int i = 0; i < w->nb; i++) {
    struct body *b = &w->bodies[i];
    if (b->is_static) continue;
    for (int k = 0; k < w->dim; k++)
      b->x[k] += h * b->v[k];
    if (w->dim == 2) {
      b->theta += h * b->w[2];
      continue;
    }
    const double *q = b->q, *om = b->w;
    double dq[4] = {-om[0] * q[1] - om[1] * q[2] - om[2] * q[3], om[0] * q[0] + om[1] * q[3] - om[2] * q[2],
                    om[1] * q[0] + om[2] * q[1] - om[0] * q[3], om[2] * q[0] + om[0] * q[2] - om[1] * q[1]};
    double len = 0.0;
    for (int k = 0; k < 4; k++) {
      b->q[k] += 0.5 * h * dq[k];
      len += b->q[k] * b->q[k];
    }
    len = sqrt(len);
    for (int k = 0; k < 4; k++)
      b->q[k] /= len;
  }
}

void world_external_force(const struct world *w, double *k)
{
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    if (b->dof < 0) continue;
    if (w->dim == 2) {
      k[b->dof] = b->mass * w->gravity[0] + b->f[0];
      k[b->dof + 1] = b->mass * w->gravity[1] + b->f[1];
      k[b->dof + 2] = b->tau[2];
      continue;
    }
    double I[9], Iw[3], g[3];
    world_inertia_tensor(w, b, I);
    for (int r = 0; r < 3; r++)
      Iw[r] = I[3 * r] * b->w[0] + I[3 * r + 1] * b->w[1] + I[3 * r + 2] * b->w[2];
    cross(b->w, Iw, g);
    for (int r = 0; r < 3; r++) {
      k[b->dof + r] = b->mass * w->gravity[r] + b->f[r];
      k[b->dof + 3 + r] = b->tau[r] - g[r];
    }
  }
  for (int i = 0; i < w->nsup; i++) { /* viscous support damping (explicit) */
    const struct support_friction *sp = &w->supports[i];
    const struct body *b = &w->bodies[sp->body];
    double rho2 = 0.0;
    for (int p = 0; p < sp->n; p++)
      rho2 += sp->p[p][0] * sp->p[p][0] + sp->p[p][1] * sp->p[p][1];
    k[b->dof] -= sp->damping * b->v[0];
    k[b->dof + 1] -= sp->damping * b->v[1];
    k[b->dof + 2] -= sp->damping * rho2 / sp->n * b->w[2];
  }
}

void world_apply_inverse_mass(const struct world *w, const double *in, double *out)
{
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    if (b->dof < 0) continue;
    const double *x = in + b->dof;
    double *y = out + b->dof;
    if (w->dim == 2) {
      y[0] = x[0] / b->mass;
      y[1] = x[1] / b->mass;
      y[2] = x[2] / b->inertia;
      continue;
    }
    double Ji[9], t[3] = {x[3], x[4], x[5]};
    world_inverse_inertia(w, b, Ji);
    for (int r = 0; r < 3; r++)
      y[r] = x[r] / b->mass;
    for (int r = 0; r < 3; r++)
      y[3 + r] = Ji[3 * r] * t[0] + Ji[3 * r + 1] * t[1] + Ji[3 * r + 2] * t[2];
  }
}

void world_mass_matrix(const struct world *w, double *M)
{
  int n = w->ndof;
  memset(M, 0, (size_t)n * n * sizeof *M);
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    if (b->dof < 0) continue;
    int o = b->dof;
    if (w->dim == 2) {
      M[(size_t)o * n + o] = b->mass;
      M[(size_t)(o + 1) * n + o + 1] = b->mass;
      M[(size_t)(o + 2) * n + o + 2] = b->inertia;
      continue;
    }
    double I[9];
    world_inertia_tensor(w, b, I);
    for (int r = 0; r < 3; r++) {
      M[(size_t)(o + r) * n + o + r] = b->mass;
      for (int c = 0; c < 3; c++)
        M[(size_t)(o + 3 + r) * n + o + 3 + c] = I[3 * r + c];
    }
  }
}

double world_kinetic_energy(const struct world *w)
{
  double e = 0.0;
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    if (b->is_static) continue;
    double v2 = 0.0;
    for (int k = 0; k < w->dim; k++)
      v2 += b->v[k] * b->v[k];
    e += 0.5 * b->mass * v2;
    if (w->dim == 2) {
      e += 0.5 * b->inertia * b->w[2] * b->w[2];
      continue;
    }
    double I[9];
    world_inertia_tensor(w, b, I);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        e += 0.5 * b->w[r] * I[3 * r + c] * b->w[c];
  }
  return e;
}

int world_bodies_save(const struct world *w, struct body **buf, int *cap)
{
  if (w->nb > *cap) {
    struct body *b = realloc(*buf, (size_t)w->nb * sizeof *b);
    if (!b) return 1;
    *buf = b;
    *cap = w->nb;
  }
  if (w->nb > 0) memcpy(*buf, w->bodies, (size_t)w->nb * sizeof **buf);
  return 0;
}

double world_potential_energy(const struct world *w)
{
  double e = 0.0;
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    if (b->is_static) continue;
    for (int k = 0; k < w->dim; k++)
      e -= b->mass * w->gravity[k] * b->x[k];
  }
  return e;
}

double world_energy(const struct world *w) { return world_kinetic_energy(w) + world_potential_energy(w); }

double world_max_speed(const struct world *w)
{
  double m = 0.0;
  for (int i = 0; i < w->nb; i++) {
    const double *v = w->bodies[i].v;
    if (!w->bodies[i].is_static) m = fmax(m, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
  }
  return m;
}

double world_joint_gap(const struct world *w)
{
  double gap = 0.0;
  if (w->dim != 2 && w->dim != 3) return 0.0;
  for (int j = 0; j < w->nj; j++) {
    const struct joint *jt = &w->joints[j];
    double phi[3] = {0.0, 0.0, 0.0};
    world_joint_violation(w, jt, phi);
    if (jt->kind == JOINT_REVOLUTE_2D)
      gap = fmax(gap, hypot(phi[0], phi[1]));
    else if (jt->kind == JOINT_BALL_3D)
      gap = fmax(gap, sqrt(phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]));
    else
      for (int k = 0; k < world_joint_row_count(jt); k++)
        gap = fmax(gap, fabs(phi[k]));
  }
  return gap;
}
