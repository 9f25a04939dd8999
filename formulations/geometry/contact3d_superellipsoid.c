/* contact3d_superellipsoid.c — explicit 3D contact of a superellipsoid sum_k |u_k / a_k|^p <= 1 (Barr; p
 * even >= 2; the smooth convex shapes of Chakraborty, Berard, Akella & Trinkle, Sec. 4.1) with a plane, a
 * sphere, another superellipsoid or a convex polyhedron (contact3d.h's conventions: n from b to a, gap =
 * n . (pa - pb)).
 * Support function: the unit p-ball's support in direction w is its dual q-norm, q = p / (p - 1), reached at
 * s_k = sign(w_k) (|w_k| / |w|_q)^(q - 1); with w = (a_k u_k) the superellipsoid's point farthest along u is
 * (a_k s_k) and its outward normal there is u. Against a plane n . x <= d the deepest point is the support
 * point along -n: exact, no iteration. Against a sphere or a superellipsoid (both smooth and strictly
 * convex) the signed distance is the separating-axis maximum, as contact2d_convex.c does in 2D:
 *     sd = max over unit u of sep(u),   sep(u) = -h_A(-u) - h_B(u) = min_{x in A} u . x - max_{y in B} u . y,
 * the distance when apart, minus the penetration depth when they overlap; the maximiser is the normal (b to
 * a). sep is C^1 on the sphere with gradient x_A(-u) - y_B(u) (the two support points), whose tangential
 * part vanishes exactly when the witness points lie on the common normal (the distance problem's KKT
 * condition). Search: a gradient ascent on the sphere (retraction u <- normalise(u + t g_tan), Armijo
 * backtracking, Barzilai-Borwein trial steps) from the centre-to-centre direction; apart, that maximum is the
 * only local one, so it is global; overlapping (several local maxima when deep), a Fibonacci grid of 600
 * directions brackets them and the ascent restarts from its 4 best distinct directions. Curvature vanishing
 * on a p > 2 superellipsoid's axes makes the peak sharp (sep ~ -|du|^q there), not the ascent wrong: it ends
 * when no step of angle > 1e-15 rad gains. Near the peak sep is flat to rounding, so steps are then judged by
 * the tangential gradient (the KKT residual) halving instead, which takes u from about sqrt(eps) to near eps.
 * A polyhedron's support is only piecewise linear (kinks at its face normals), so there the maximum is taken
 * cell by cell over its normal fan (polyhedron_pair below). */
#include "contact3d_superellipsoid.h"

#include "contact3d.h"
#include "geom3d.h"

#include <lapacke.h>
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

/* A smooth part's support in the world frame: a superellipsoid (centre C, shape -> world rotation R, axes a,
 * exponent p) or a ball (p = 0: centre C, radius r; r = 0 a point, e.g. a polyhedron's vertex). bound: a
 * bounding radius about C (the length scale of the searches). */
struct support3 {
  int p, body;
  double C[3], R[9], a[3], r, bound;
};

static void support_init(struct support3 *sp, const struct world *w, int si)
{
  const struct shape *s = &w->shapes[si];
  const struct body *b = &w->bodies[s->body];
  double Rb[9], Q[9];
  memset(sp, 0, sizeof *sp);
  sp->body = s->body;
  sp->bound = s->radius;
  world_point(w, b, s->c, sp->C);
  world_rotation(w, b, Rb);
  if (s->kind == SHAPE_SUPERELLIPSOID) {
    quat_to_matrix(s->sq.q, Q);
    mat3_mul(Rb, Q, sp->R);
    memcpy(sp->a, s->sq.a, sizeof sp->a);
    sp->p = s->sq.p;
  } else {
    sp->r = s->radius;
  }
}

/* h(u) for a unit u, and the point x reaching it. */
static double support_eval(const struct support3 *sp, const double u[3], double x[3])
{
  if (sp->p == 0) {
    for (int k = 0; k < 3; k++)
      x[k] = sp->C[k] + sp->r * u[k];
  } else {
    double ul[3], xl[3];
    mat3_tvec(sp->R, u, ul);
    superellipsoid_support(sp->a, sp->p, ul, xl);
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
        /* the next trial step: Barzilai-Borwein's s.s / s.y from this step (s the move, y the fall of the
         * tangential gradient), else twice this one */
        double sv[3], yv[3];
        vec3_sub(un, u, sv);
        vec3_sub(gt, gnew, yv);
        double sy = vec3_dot(sv, yv), ss = vec3_dot(sv, sv);
        t = sy > 0.0 ? ss / sy : 2.0 * t;
        memcpy(u, un, sizeof un);
        memcpy(xa, xn, sizeof xn);
        memcpy(yb, yn, sizeof yn);
        f = fn;
        gained = 1;
        break;
      }
      t *= 0.5;
    }
    if (!gained) break;
  }
  return f;
}

/* The side's function f(x) <= 0 at the world point x with its gradient G and Hessian H: sum_k (l_k / a_k)^p -
 * 1 in the superellipsoid's frame (l = R^T (x - C)), |x - C|^2 / r^2 - 1 for a ball. */
static double side_eval(const struct support3 *sp, const double x[3], double G[3], double H[9])
{
  double d[3];
  vec3_sub(x, sp->C, d);
  if (sp->p == 0) {
    double r2 = sp->r * sp->r;
    for (int i = 0; i < 3; i++) {
      G[i] = 2.0 * d[i] / r2;
      for (int j = 0; j < 3; j++)
        H[3 * i + j] = i == j ? 2.0 / r2 : 0.0;
    }
    return vec3_dot(d, d) / r2 - 1.0;
  }
  double l[3], gl[3], D[9] = {0}, f = -1.0;
  mat3_tvec(sp->R, d, l);
  for (int k = 0; k < 3; k++) {
    double t = l[k] / sp->a[k], tp2 = pow(t, sp->p - 2); /* p even: no sign trouble */
    f += tp2 * t * t;
    gl[k] = sp->p * tp2 * t / sp->a[k];
    D[4 * k] = sp->p * (sp->p - 1) * tp2 / (sp->a[k] * sp->a[k]);
  }
  mat3_vec(sp->R, gl, G);
  mat3_rotate_tensor(sp->R, D, H);
  return f;
}

/* Solves the n x n system A x = b (row-major, both overwritten; x in b) with LAPACK's partially pivoted LU;
 * 1 when singular. */
static int dense_solve(int n, double *A, double *b)
{
  lapack_int ipiv[8];
  return n > 8 || LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, 1, A, n, ipiv, b, 1) != 0;
}

/* The KKT residual of the closest-point rows (Chakraborty et al. eqs. (15)-(18) as equations): x on A, y on
 * B (y = the point when B is a point, r = 0), x - y + l1 G_A(x) = 0, G_A(x) + l2 G_B(y) = 0, f_A(x) = 0,
 * f_B(y) = 0 (for a point: y = C_B, l2 = 0); with its Jacobian J (8 x 8) when not NULL. */
static double kkt_rows(const struct support3 *A, const struct support3 *B, const double *z, double *R,
                       double *J)
{
  const double *x = z, *y = z + 3, l1 = z[6], l2 = z[7];
  int point = B->p == 0 && B->r == 0.0;
  double Ga[3], Ha[9], Gb[3] = {0, 0, 0}, Hb[9] = {0}, fa = side_eval(A, x, Ga, Ha), fb = 0.0;
  if (!point) fb = side_eval(B, y, Gb, Hb);
  if (J) memset(J, 0, 64 * sizeof *J);
  for (int i = 0; i < 3; i++) {
    R[i] = x[i] - y[i] + l1 * Ga[i];
    R[3 + i] = point ? y[i] - B->C[i] : Ga[i] + l2 * Gb[i];
    if (!J) continue;
    for (int j = 0; j < 3; j++) {
      J[i * 8 + j] = (i == j) + l1 * Ha[3 * i + j];
      J[(3 + i) * 8 + j] = point ? 0.0 : Ha[3 * i + j];
      J[(3 + i) * 8 + 3 + j] = point ? (double)(i == j) : l2 * Hb[3 * i + j];
    }
    J[i * 8 + 3 + i] = -1.0;
    J[i * 8 + 6] = Ga[i];
    J[(3 + i) * 8 + 7] = point ? 0.0 : Gb[i];
    J[6 * 8 + i] = Ga[i];
    J[7 * 8 + 3 + i] = point ? 0.0 : Gb[i];
  }
  R[6] = fa;
  R[7] = point ? l2 : fb;
  if (J && point) J[7 * 8 + 7] = 1.0;
  double r = 0.0; /* the Euclidean norm: Newton's step is a descent direction for it */
  for (int i = 0; i < 8; i++)
    r += R[i] * R[i];
  return sqrt(r);
}

/* Newton on the closest-point rows from the ascent's witness points (u, xa, yb): where a p > 2 surface is
 * flat the support map is only Hoelder continuous in u, and the ascent can stall short of the peak, while
 * the rows in the points are polynomial. The polished normal replaces u when its sep is not lower. */
static double polish(const struct support3 *A, const struct support3 *B, double u[3], double f, double xa[3],
                     double yb[3])
{
  double z[8], R[8], J[64], Ga[3], Gb[3], H[9];
  separation(A, B, u, xa, yb);
  memcpy(z, xa, 3 * sizeof *xa);
  memcpy(z + 3, yb, 3 * sizeof *yb);
  side_eval(A, xa, Ga, H);
  double ga = vec3_norm(Ga), gb = 1.0;
  if (!(B->p == 0 && B->r == 0.0)) side_eval(B, yb, Gb, H), gb = vec3_norm(Gb);
  if (!(ga > 0.0 && gb > 0.0)) return f;
  z[6] = f / ga; /* x - y = f u and G_A = -|G_A| u: l1 = f / |G_A| (negative when they overlap) */
  z[7] = B->p == 0 && B->r == 0.0 ? 0.0 : ga / gb;
  double res = kkt_rows(A, B, z, R, J);
  for (int it = 0; it < 60 && res > 1e-15 * (1.0 + A->bound + B->bound); it++) {
    double dz[8], zt[8], Rt[8];
    for (int i = 0; i < 8; i++)
      dz[i] = -R[i];
    if (dense_solve(8, J, dz)) return f;
    double step = 1.0, rt = INFINITY;
    for (int ls = 0; ls < 40; ls++, step *= 0.5) {
      for (int i = 0; i < 8; i++)
        zt[i] = z[i] + step * dz[i];
      rt = kkt_rows(A, B, zt, Rt, NULL);
      if (rt < res) break;
    }
    if (!(rt < res)) break;
    memcpy(z, zt, sizeof zt);
    res = kkt_rows(A, B, z, R, J);
  }
  double un[3], d[3];
  side_eval(A, z, Ga, H);
  vec3_scale(Ga, -1.0, un); /* the normal from B to A is A's inward normal at its witness point */
  if (!(vec3_normalize(un) > 0.0)) return f;
  vec3_sub(z, z + 3, d);
  double fn = vec3_dot(un, d);
  if (!(fn >= f - 1e-12 * (A->bound + B->bound))) return f; /* not lower than the peak, up to rounding */
  /* the points are the rows' own: near a flat spot the support point of the polished u could move by
   * about (rounding)^(1/(p-1)), the normal not */
  memcpy(u, un, sizeof un);
  memcpy(xa, z, 3 * sizeof *xa);
  memcpy(yb, z + 3, 3 * sizeof *yb);
  return fn;
}

/* Overlapping: a Fibonacci grid of directions; the climb (and polish) from each of its best 4 directions at
 * least 0.5 rad apart (distinct basins when the overlap is deep and sep has several peaks) and from u; the
 * highest peak wins. */
static double overlap_search(const struct support3 *A, const struct support3 *B, double u[3], double scale,
                             double xa[3], double yb[3])
{
  enum { GRID = 600, STARTS = 4 };
  const double golden = M_PI * (3.0 - sqrt(5.0));
  double dirs[GRID][3], val[GRID], starts[STARTS][3], x[3], y[3];
  for (int i = 0; i < GRID; i++) {
    double z = 1.0 - (2.0 * i + 1.0) / GRID, r = sqrt(1.0 - z * z);
    dirs[i][0] = r * cos(golden * i), dirs[i][1] = r * sin(golden * i), dirs[i][2] = z;
    val[i] = separation(A, B, dirs[i], x, y);
  }
  int ns = 0;
  for (; ns < STARTS; ns++) {
    int arg = -1;
    for (int i = 0; i < GRID; i++) {
      int near = 0;
      for (int j = 0; j < ns && !near; j++)
        near = vec3_dot(dirs[i], starts[j]) > cos(0.5);
      if (!near && (arg < 0 || val[i] > val[arg])) arg = i;
    }
    if (arg < 0) break;
    memcpy(starts[ns], dirs[arg], sizeof starts[ns]);
  }
  double best = polish(A, B, u, ascend(A, B, u, scale), xa, yb);
  for (int j = 0; j < ns; j++) {
    double v[3];
    memcpy(v, starts[j], sizeof v);
    double f = polish(A, B, v, ascend(A, B, v, scale), x, y);
    if (f > best) {
      best = f;
      memcpy(u, v, sizeof v);
      memcpy(xa, x, sizeof x);
      memcpy(yb, y, sizeof y);
    }
  }
  return best;
}

static int smooth_pair(const struct world *w, int sa, int sb, double thr, struct contact_set *out)
{
  struct support3 A, B;
  support_init(&A, w, sa);
  support_init(&B, w, sb);
  double scale = A.bound + B.bound, u[3], xa[3], yb[3];
  vec3_sub(A.C, B.C, u);
  if (!(vec3_normalize(u) > 0.0)) u[0] = 0.0, u[1] = 0.0, u[2] = 1.0;
  double gap = polish(&A, &B, u, ascend(&A, &B, u, scale), xa, yb);
  /* apart, sep has no other local maximum on the sphere (the maximum of the concave -h_{B-A} over the unit
   * ball is on its boundary), so the climb from the centre-to-centre direction is global; overlapping, a
   * grid brackets the global maximum first */
  if (gap <= 0.0) gap = overlap_search(&A, &B, u, scale, xa, yb);
  if (gap > thr) return 0;
  struct contact c = {
      .a = A.body, .b = B.body, .sa = sa, .sb = sb, .gap = gap, .fa = FEATURE_SURFACE, .fb = FEATURE_SURFACE};
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
  struct contact c = {
      .a = A.body, .b = P->body, .sa = se, .sb = pl, .gap = s, .fa = FEATURE_SURFACE, .fb = FEATURE_SURFACE};
  memcpy(c.n, n, sizeof c.n);
  memcpy(c.pa, xa, sizeof c.pa);
  memcpy(c.pb, xa, sizeof c.pb);
  vec3_axpy(-s, n, c.pb);
  if (flip) contact3d_flip(&c);
  return contact_set_push(out, &c);
}

/* A candidate maximiser of sep over the polyhedron's normal fan. */
struct fan_best {
  double gap, u[3];
  enum feature_kind f;
  int id;
};

static void fan_take(struct fan_best *b, double gap, const double u[3], enum feature_kind f, int id)
{
  if (!(gap > b->gap)) return;
  b->gap = gap, b->f = f, b->id = id;
  memcpy(b->u, u, sizeof b->u);
}

/* sep along the arc u(s) = normalise((1 - s) n1 + s n2) of an edge through the vertex v0 (h_P(u) = u . v0).
 */
static double arc_sep(const struct support3 *S, const double n1[3], const double n2[3], const double v0[3],
                      double s, double u[3])
{
  double x[3];
  for (int k = 0; k < 3; k++)
    u[k] = (1.0 - s) * n1[k] + s * n2[k];
  vec3_normalize(u);
  const double mu[3] = {-u[0], -u[1], -u[2]};
  return -support_eval(S, mu, x) - vec3_dot(u, v0);
}

/* Superellipsoid part se against polyhedron part ph (contact body a = se's). The polyhedron's support h_P is
 * linear on each cone of its normal fan, so the maximum of sep is at a face normal (a face contact, exact),
 * on an edge's arc between its two face normals (a 1D search: a grid of 16, then golden section to 1e-12), or
 * inside a vertex's cone (the ascent of the smooth pair against the vertex as a point, kept when it ends
 * inside the cone, i.e. when the vertex is still P's support there). The witness on the polyhedron is the
 * vertex, or the superellipsoid's support point moved by the gap along the normal (on the face plane / edge
 * line). */
static int polyhedron_pair(const struct world *w, int se, int ph, int flip, double thr,
                           struct contact_set *out)
{
  struct support3 S, V;
  support_init(&S, w, se);
  const struct shape *P = &w->shapes[ph];
  const struct polyhedron *poly = P->polyhedron;
  double R[9], xmu[3];
  world_rotation(w, &w->bodies[P->body], R);
  struct hull3d_placed pl = {0};
  if (hull3d_place(poly, R, w->bodies[P->body].x, &pl)) return 1;
  double scale = S.bound + pl.radius;
  struct fan_best best = {-INFINITY, {0, 0, 1}, FEATURE_NONE, -1};
  for (int f = 0; f < poly->nf; f++) {
    const double *n = pl.fn + 3 * f, mu[3] = {-n[0], -n[1], -n[2]};
    fan_take(&best, -support_eval(&S, mu, xmu) - pl.fd[f], n, FEATURE_FACE, f);
  }
  for (int e = 0; e < poly->ne; e++) {
    const double *n1 = pl.fn + 3 * poly->edge_face[2 * e], *n2 = pl.fn + 3 * poly->edge_face[2 * e + 1];
    const double *v0 = pl.v + 3 * poly->edge_vert[2 * e];
    if (vec3_dot(n1, n2) > 1.0 - 1e-12) continue; /* a flat edge of a triangulated face: no arc */
    enum { ARC = 16 };
    double u[3], fb = -INFINITY;
    int ib = 0;
    for (int i = 1; i < ARC; i++) {
      double f = arc_sep(&S, n1, n2, v0, (double)i / ARC, u);
      if (f > fb) fb = f, ib = i;
    }
    const double gr = 0.5 * (sqrt(5.0) - 1.0);
    double lo = (ib - 1.0) / ARC, hi = (ib + 1.0) / ARC;
    double m1 = hi - gr * (hi - lo), m2 = lo + gr * (hi - lo);
    double f1 = arc_sep(&S, n1, n2, v0, m1, u), f2 = arc_sep(&S, n1, n2, v0, m2, u);
    for (int it = 0; it < 100 && hi - lo > 1e-12; it++) {
      if (f1 > f2) {
        hi = m2, m2 = m1, f2 = f1;
        m1 = hi - gr * (hi - lo);
        f1 = arc_sep(&S, n1, n2, v0, m1, u);
      } else {
        lo = m1, m1 = m2, f1 = f2;
        m2 = lo + gr * (hi - lo);
        f2 = arc_sep(&S, n1, n2, v0, m2, u);
      }
    }
    double sm = f1 > f2 ? m1 : m2, fm = arc_sep(&S, n1, n2, v0, sm, u);
    fan_take(&best, fm, u, FEATURE_EDGE, e);
  }
  /* sep inside a vertex's cone is at most the vertex's distance to the superellipsoid, below |v - C| minus
   * its inscribed radius min a_k (a p-ball, p >= 2, holds its 2-ball): a vertex that cannot beat the best
   * face or edge is not climbed */
  double inscribed = fmin(S.a[0], fmin(S.a[1], S.a[2])), pa_vertex[3] = {0, 0, 0};
  for (int v = 0; v < poly->nv; v++) {
    double u[3] = {0, 0, 0}, dv[3];
    vec3_sub(pl.v + 3 * v, S.C, dv);
    if (vec3_norm(dv) - inscribed < best.gap) continue;
    for (int f = 0; f < poly->nf; f++)
      for (int k = poly->face_start[f]; k < poly->face_start[f + 1]; k++)
        if (poly->face_vert[k] == v) vec3_add(u, pl.fn + 3 * f, u);
    if (!(vec3_normalize(u) > 0.0)) continue;
    memset(&V, 0, sizeof V);
    memcpy(V.C, pl.v + 3 * v, sizeof V.C);
    double xs[3], xv[3], gap = polish(&S, &V, u, ascend(&S, &V, u, scale), xs, xv), hp = -INFINITY;
    for (int i = 0; i < poly->nv; i++)
      hp = fmax(hp, vec3_dot(u, pl.v + 3 * i));
    if (hp - vec3_dot(u, V.C) <= 1e-12 * scale && gap > best.gap) {
      fan_take(&best, gap, u, FEATURE_VERTEX, v);
      memcpy(pa_vertex, xs, sizeof xs);
    }
  }
  int rc = 0;
  if (best.gap <= thr) {
    const double mu[3] = {-best.u[0], -best.u[1], -best.u[2]};
    struct contact c = {.a = S.body,
                        .b = P->body,
                        .sa = se,
                        .sb = ph,
                        .gap = best.gap,
                        .fa = FEATURE_SURFACE,
                        .fb = best.f,
                        .idb = best.id};
    memcpy(c.n, best.u, sizeof c.n);
    support_eval(&S, mu, c.pa);
    if (best.f == FEATURE_VERTEX) {
      memcpy(c.pa, pa_vertex, sizeof c.pa);
      memcpy(c.pb, pl.v + 3 * best.id, sizeof c.pb);
    } else {
      memcpy(c.pb, c.pa, sizeof c.pb);
      vec3_axpy(-best.gap, best.u, c.pb);
    }
    if (flip) contact3d_flip(&c);
    rc = contact_set_push(out, &c);
  }
  hull3d_placed_free(&pl);
  return rc;
}

int contact3d_superellipsoid_supported(enum shape_kind a, enum shape_kind b)
{
  int ka = a == SHAPE_SUPERELLIPSOID, kb = b == SHAPE_SUPERELLIPSOID;
  enum shape_kind other = ka ? b : a;
  return (ka || kb) && (other == SHAPE_SUPERELLIPSOID || other == SHAPE_SPHERE || other == SHAPE_PLANE ||
                        other == SHAPE_POLYHEDRON);
}

int contact3d_superellipsoid_shapes(const struct world *w, int sa, int sb, double thr,
                                    struct contact_set *out)
{
  enum shape_kind ka = w->shapes[sa].kind, kb = w->shapes[sb].kind;
  if (!contact3d_superellipsoid_supported(ka, kb)) return 2;
  if (kb == SHAPE_PLANE) return plane_pair(w, sa, sb, 0, thr, out);
  if (ka == SHAPE_PLANE) return plane_pair(w, sb, sa, 1, thr, out);
  if (kb == SHAPE_POLYHEDRON) return polyhedron_pair(w, sa, sb, 0, thr, out);
  if (ka == SHAPE_POLYHEDRON) return polyhedron_pair(w, sb, sa, 1, thr, out);
  return smooth_pair(w, sa, sb, thr, out);
}
