/* contact3d_superellipsoid.c — explicit 3D contact of a superellipsoid sum_k |u_k / a_k|^p <= 1 (Barr; p
 * even >= 2; the smooth convex shapes of Chakraborty, Berard, Akella & Trinkle, Sec. 4.1) with a plane, a
 * sphere or another superellipsoid (contact3d.h's conventions: n from b to a, gap = n . (pa - pb)).
 * Support function: the unit p-ball's support in direction w is its dual q-norm, q = p / (p - 1), reached at
 * s_k = sign(w_k) (|w_k| / |w|_q)^(q - 1); with w = (a_k u_k) the superellipsoid's point farthest along u is
 * (a_k s_k) and its outward normal there is u. Against a plane n . x <= d the deepest point is the support
 * point along -n: exact, no iteration. Against a sphere or a superellipsoid (both smooth and strictly
 * convex) the signed distance is the separating-axis maximum, as contact2d_convex.c does in 2D:
 *     sd = max over unit u of sep(u),   sep(u) = -h_A(-u) - h_B(u) = min_{x in A} u . x - max_{y in B} u . y,
 * the distance when apart, minus the penetration depth when they overlap; the maximiser is the normal (b to
 * a). sep is C^1 on the sphere with gradient x_A(-u) - y_B(u) (the two support points), whose tangential
 * part vanishes exactly when the witness points lie on the common normal (the distance problem's KKT
 * condition). Search: a Fibonacci grid of 600 directions (and the centre-to-centre one) brackets the global
 * maximum — the only local one when the bodies are apart, one of several when they overlap deeply — then a
 * gradient ascent on the sphere (retraction u <- normalise(u + t g_tan), Armijo backtracking, step doubled
 * after each success) climbs to it. Curvature vanishing on a p > 2 superellipsoid's axes makes the peak
 * sharp (sep ~ -|du|^q there), not the ascent wrong: it ends when no step of angle > 1e-15 rad gains. Near
 * the peak sep is flat to rounding, so steps are then judged by the tangential gradient (the KKT residual)
 * halving instead, which takes u from about sqrt(eps) to near eps. */
#include "contact3d_superellipsoid.h"

#include "contact3d.h"
#include "geom3d.h"

#include <math.h>
#include <string.h>

void superellipsoid_support(const double a[3], int p, const double u[3], double x[3])
{
  double wv[3], m = 0.0, q = (double)p / (p - 1), N = 0.0;
  for (int k = 0; k < 3; k++) {
    wv[k] = a[k] * u[k];
    m = fmax(m, fabs(wv[k]));
  }
  if (!(m > 0.0)) {
    x[0] = x[1] = x[2] = 0.0;
    return;
  }
  for (int k = 0; k < 3; k++)
    N += pow(fabs(wv[k]) / m, q);
  N = pow(N, 1.0 / q);
  for (int k = 0; k < 3; k++)
    x[k] = a[k] * copysign(pow(fabs(wv[k]) / m / N, q - 1.0), wv[k]);
}

/* A smooth part's support in the world frame: a superellipsoid (centre C, shape -> world rotation R) or a
 * sphere (centre C, radius). */
struct support3 {
  const struct shape *s;
  double C[3], R[9];
};

static void support_init(struct support3 *sp, const struct world *w, int si)
{
  const struct shape *s = &w->shapes[si];
  const struct body *b = &w->bodies[s->body];
  double Rb[9], Q[9];
  sp->s = s;
  world_point(w, b, s->c, sp->C);
  world_rotation(w, b, Rb);
  if (s->kind == SHAPE_SUPERELLIPSOID) {
    quat_to_matrix(s->sq.q, Q);
    mat3_mul(Rb, Q, sp->R);
  } else {
    memcpy(sp->R, Rb, sizeof sp->R);
  }
}

/* h(u) for a unit u, and the point x reaching it. */
static double support_eval(const struct support3 *sp, const double u[3], double x[3])
{
  if (sp->s->kind == SHAPE_SPHERE) {
    for (int k = 0; k < 3; k++)
      x[k] = sp->C[k] + sp->s->radius * u[k];
  } else {
    double ul[3], xl[3];
    mat3_tvec(sp->R, u, ul);
    superellipsoid_support(sp->s->sq.a, sp->s->sq.p, ul, xl);
    mat3_vec(sp->R, xl, x);
    vec3_add(x, sp->C, x);
  }
  return vec3_dot(u, x);
}

/* sep(u) = -h_A(-u) - h_B(u) with the witness points xa (on A, along -u) and yb (on B, along u). */
static double separation(const struct support3 *A, const struct support3 *B, const double u[3], double xa[3],
                         double yb[3])
{
  const double mu[3] = {-u[0], -u[1], -u[2]};
  return -support_eval(A, mu, xa) - support_eval(B, u, yb);
}

/* Gradient ascent of sep on the unit sphere from u (see the header comment); returns sep at the end. */
static double ascend(const struct support3 *A, const struct support3 *B, double u[3], double scale)
{
  double xa[3], yb[3], f = separation(A, B, u, xa, yb), t = 1.0 / scale;
  for (int it = 0; it < 2000; it++) {
    double g[3], gt[3];
    vec3_sub(xa, yb, g);
    double gu = vec3_dot(g, u);
    for (int k = 0; k < 3; k++)
      gt[k] = g[k] - gu * u[k];
    double gn = vec3_norm(gt);
    if (!(gn > 1e-15 * scale)) break;
    t = fmin(t, 0.5 / gn); /* at most half a radian a step */
    int gained = 0;
    while (t * gn > 1e-15) {
      double un[3], xn[3], yn[3];
      for (int k = 0; k < 3; k++)
        un[k] = u[k] + t * gt[k];
      vec3_normalize(un);
      double fn = separation(A, B, un, xn, yn), gnew[3];
      vec3_sub(xn, yn, gnew);
      double gun = vec3_dot(gnew, un);
      for (int k = 0; k < 3; k++)
        gnew[k] -= gun * un[k];
      /* Armijo; or, once sep no longer changes above rounding (its peak is flat, so u is known to about
       * sqrt(eps) from values alone), a smaller stationarity residual: the KKT condition itself */
      int flat = fabs(fn - f) <= 1e-14 * scale && vec3_norm(gnew) < 0.5 * gn;
      if (fn >= f + 1e-4 * t * gn * gn || flat) {
        memcpy(u, un, sizeof un);
        memcpy(xa, xn, sizeof xn);
        memcpy(yb, yn, sizeof yn);
        f = fn;
        t *= 2.0;
        gained = 1;
        break;
      }
      t *= 0.5;
    }
    if (!gained) break;
  }
  return f;
}

static int smooth_pair(const struct world *w, int sa, int sb, double thr, struct contact_set *out)
{
  struct support3 A, B;
  support_init(&A, w, sa);
  support_init(&B, w, sb);
  double scale = A.s->radius + B.s->radius, u[3], xa[3], yb[3];
  vec3_sub(A.C, B.C, u);
  if (!(vec3_normalize(u) > 0.0)) u[0] = 0.0, u[1] = 0.0, u[2] = 1.0;
  double best = separation(&A, &B, u, xa, yb);
  enum { GRID = 600 };
  const double golden = M_PI * (3.0 - sqrt(5.0));
  for (int i = 0; i < GRID; i++) {
    double z = 1.0 - (2.0 * i + 1.0) / GRID, r = sqrt(1.0 - z * z),
           v[3] = {r * cos(golden * i), r * sin(golden * i), z};
    double f = separation(&A, &B, v, xa, yb);
    if (f > best) best = f, memcpy(u, v, sizeof v);
  }
  double gap = ascend(&A, &B, u, scale);
  if (gap > thr) return 0;
  separation(&A, &B, u, xa, yb);
  struct contact c = {.a = A.s->body,
                      .b = B.s->body,
                      .sa = sa,
                      .sb = sb,
                      .gap = gap,
                      .fa = FEATURE_SURFACE,
                      .fb = FEATURE_SURFACE};
  memcpy(c.n, u, sizeof c.n);
  memcpy(c.pa, xa, sizeof c.pa);
  memcpy(c.pb, yb, sizeof c.pb);
  return contact_set_push(out, &c);
}

/* Superellipsoid part se against plane part pl; the contact is written with a = se's body, then flipped
 * when the plane is the contact's body a. */
static int plane_pair(const struct world *w, int se, int pl, int flip, double thr, struct contact_set *out)
{
  struct support3 A;
  support_init(&A, w, se);
  const struct shape *P = &w->shapes[pl];
  const struct body *bp = &w->bodies[P->body];
  double n[3], mn[3], xa[3];
  world_vector(w, bp, P->n, n);
  double d = P->d + vec3_dot(n, bp->x);
  vec3_scale(n, -1.0, mn);
  support_eval(&A, mn, xa);
  double s = vec3_dot(n, xa) - d;
  if (s > thr) return 0;
  struct contact c = {.a = A.s->body,
                      .b = P->body,
                      .sa = se,
                      .sb = pl,
                      .gap = s,
                      .fa = FEATURE_SURFACE,
                      .fb = FEATURE_SURFACE};
  memcpy(c.n, n, sizeof c.n);
  memcpy(c.pa, xa, sizeof c.pa);
  memcpy(c.pb, xa, sizeof c.pb);
  vec3_axpy(-s, n, c.pb);
  if (flip) contact3d_flip(&c);
  return contact_set_push(out, &c);
}

int contact3d_superellipsoid_supported(enum shape_kind a, enum shape_kind b)
{
  int ka = a == SHAPE_SUPERELLIPSOID, kb = b == SHAPE_SUPERELLIPSOID;
  enum shape_kind other = ka ? b : a;
  return (ka || kb) && (other == SHAPE_SUPERELLIPSOID || other == SHAPE_SPHERE || other == SHAPE_PLANE);
}

int contact3d_superellipsoid_shapes(const struct world *w, int sa, int sb, double thr,
                                    struct contact_set *out)
{
  enum shape_kind ka = w->shapes[sa].kind, kb = w->shapes[sb].kind;
  if (!contact3d_superellipsoid_supported(ka, kb)) return 2;
  if (kb == SHAPE_PLANE) return plane_pair(w, sa, sb, 0, thr, out);
  if (ka == SHAPE_PLANE) return plane_pair(w, sb, sa, 1, thr, out);
  return smooth_pair(w, sa, sb, thr, out);
}
