/* contact2d_superellipse.c — explicit contact of a 2D superellipse |u/a|^p + |v/b|^p <= 1 (Barr; p even >= 2,
 * the smooth convex shapes of Chakraborty, Berard, Akella & Trinkle, Sec. 4.1) with a half-plane and with
 * a disc, for the formulations that detect contacts before the step (contact2d.h's conventions).
 * Support function: the unit p-ball's support in direction w is its dual q-norm, q = p / (p - 1), reached at
 * s_k = sign(w_k) (|w_k| / |w|_q)^(q - 1); with w = (a u_x, b u_y) the superellipse's point farthest along u
 * is (a s_0, b s_1), and its outward normal there is u. So against a half-plane n . x <= d the deepest point
 * is the support point along -n: exact, no iteration. Against a disc the nearest boundary point to the
 * centre is the support point x(phi) whose normal angle phi minimises |centre - x(phi)| (the distance
 * problem's KKT condition, centre - x parallel to the normal, is its stationarity): a grid of normal angles
 * brackets the global minimum (also for a centre inside, where several stationary points exist), a
 * golden-section search narrows it to 1e-7 rad, and regula falsi (Illinois) on the stationarity condition
 * itself finishes it to rounding. The normal angle is the parameter, not a boundary
 * coordinate, because x(phi) is continuous where the curvature vanishes (p > 2 at the axes) while Newton on
 * the KKT system loses its Hessian there. */
#include "contact2d_superellipse.h"

#include <math.h>
#include <string.h>

void superellipse_support(double a, double b, int p, const double u[2], double x[2])
{
  const double wv[2] = {a * u[0], b * u[1]};
  double q = (double)p / (p - 1), m = fmax(fabs(wv[0]), fabs(wv[1]));
  if (!(m > 0.0)) {
    x[0] = x[1] = 0.0;
    return;
  }
  /* one of r0, r1 is 1, whose power is 1 exactly: one pow call fewer (this is the narrow phase's hot spot) */
  const double r0 = fabs(wv[0]) / m, r1 = fabs(wv[1]) / m;
  const double N = pow((r0 == 1.0 ? 1.0 : pow(r0, q)) + (r1 == 1.0 ? 1.0 : pow(r1, q)), 1.0 / q);
  x[0] = a * copysign(pow(r0 / N, q - 1.0), wv[0]);
  x[1] = b * copysign(pow(r1 / N, q - 1.0), wv[1]);
}

/* World pose of the superellipse's frame: centre C and rotation (cos, sin) of body angle + shape angle. */
static void se_frame(const struct world *w, const struct shape *s, double C[3], double *c, double *sn)
{
  const struct body *b = &w->bodies[s->body];
  world_point(w, b, s->c, C);
  *c = cos(b->theta + s->se.angle);
  *sn = sin(b->theta + s->se.angle);
}

static void fill(struct contact *ct, const struct world *w, int sa, int sb)
{
  memset(ct, 0, sizeof *ct);
  ct->sa = sa;
  ct->sb = sb;
  ct->a = w->shapes[sa].body;
  ct->b = w->shapes[sb].body;
  ct->fa = ct->fb = FEATURE_SURFACE;
}

int contact2d_superellipse_halfplane(const struct world *w, int sa, int sb, double thr,
                                     struct contact_set *out)
{
  const struct shape *A = &w->shapes[sa], *B = &w->shapes[sb];
  const struct body *bb = &w->bodies[B->body];
  double n[3], C[3], c, sn;
  world_vector(w, bb, B->n, n);
  double d = B->d + n[0] * bb->x[0] + n[1] * bb->x[1];
  se_frame(w, A, C, &c, &sn);
  const double u[2] = {-(c * n[0] + sn * n[1]), -(-sn * n[0] + c * n[1])}; /* R^T (-n) */
  double xl[2];
  superellipse_support(A->se.a, A->se.b, A->se.p, u, xl);
  double pa[2] = {C[0] + c * xl[0] - sn * xl[1], C[1] + sn * xl[0] + c * xl[1]};
  double s = n[0] * pa[0] + n[1] * pa[1] - d;
  if (s > thr) return 0;
  struct contact ct;
  fill(&ct, w, sa, sb);
  ct.n[0] = n[0], ct.n[1] = n[1];
  ct.pa[0] = pa[0], ct.pa[1] = pa[1];
  ct.pb[0] = pa[0] - s * n[0], ct.pb[1] = pa[1] - s * n[1];
  ct.gap = s;
  return contact_set_push(out, &ct);
}

/* |e - x(phi)|^2 for the local point e and the support point at normal angle phi (x returned). */
static double dist2(const struct shape *S, const double e[2], double phi, double x[2])
{
  const double u[2] = {cos(phi), sin(phi)};
  superellipse_support(S->se.a, S->se.b, S->se.p, u, x);
  return (e[0] - x[0]) * (e[0] - x[0]) + (e[1] - x[1]) * (e[1] - x[1]);
}

/* The distance problem's stationarity in phi: (e - x(phi)) x u(phi), zero at the nearest point. */
static double kkt(const struct shape *S, const double e[2], double phi, double x[2])
{
  dist2(S, e, phi, x);
  return (e[0] - x[0]) * sin(phi) - (e[1] - x[1]) * cos(phi);
}

int contact2d_disc_superellipse(const struct world *w, int sa, int sb, double thr, struct contact_set *out)
{
  const struct shape *A = &w->shapes[sa], *S = &w->shapes[sb];
  double cd[3], C[3], c, sn, x[2];
  world_point(w, &w->bodies[A->body], A->c, cd);
  se_frame(w, S, C, &c, &sn);
  const double r[2] = {cd[0] - C[0], cd[1] - C[1]};
  const double e[2] = {c * r[0] + sn * r[1], -sn * r[0] + c * r[1]}; /* the centre in the local frame */
  enum { GRID = 256 };
  const double step = 2.0 * M_PI / GRID;
  int best = 0;
  double dbest = INFINITY;
  for (int i = 0; i < GRID; i++) {
    double d = dist2(S, e, i * step, x);
    if (d < dbest) dbest = d, best = i;
  }
  /* golden section on [phi_best - step, phi_best + step] */
  const double g = 0.5 * (sqrt(5.0) - 1.0);
  double lo = (best - 1) * step, hi = (best + 1) * step;
  double m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo);
  double f1 = dist2(S, e, m1, x), f2 = dist2(S, e, m2, x);
  for (int it = 0; it < 80 && hi - lo > 1e-7; it++) {
    if (f1 < f2) {
      hi = m2, m2 = m1, f2 = f1;
      m1 = hi - g * (hi - lo);
      f1 = dist2(S, e, m1, x);
    } else {
      lo = m1, m1 = m2, f1 = f2;
      m2 = lo + g * (hi - lo);
      f2 = dist2(S, e, m2, x);
    }
  }
  /* the minimum of the distance is flat (phi to ~sqrt(eps) only): finish on the KKT condition itself,
   * F(phi) = (e - x(phi)) x u(phi) = 0, by the Illinois variant of regula falsi on the bracket */
  lo -= 1e-9, hi += 1e-9;
  double flo = kkt(S, e, lo, x), fhi = kkt(S, e, hi, x), phi = 0.5 * (lo + hi);
  for (int it = 0; it < 60 && flo * fhi < 0.0; it++) {
    phi = (lo * fhi - hi * flo) / (fhi - flo);
    double fm = kkt(S, e, phi, x);
    if (fm == 0.0 || fabs(hi - lo) < 1e-15) break;
    if (fm * fhi < 0.0)
      lo = hi, flo = fhi;
    else
      flo *= 0.5; /* the retained end's value halved: no one-sided stagnation */
    hi = phi, fhi = fm;
  }
  dist2(S, e, phi, x);
  const double ul[2] = {cos(phi), sin(phi)};
  double n[2] = {c * ul[0] - sn * ul[1], sn * ul[0] + c * ul[1]}; /* outward normal of the superellipse */
  double pb[2] = {C[0] + c * x[0] - sn * x[1], C[1] + sn * x[0] + c * x[1]};
  double gap = n[0] * (cd[0] - pb[0]) + n[1] * (cd[1] - pb[1]) - A->radius;
  if (gap > thr) return 0;
  struct contact ct;
  fill(&ct, w, sa, sb);
  ct.n[0] = n[0], ct.n[1] = n[1];
  ct.pa[0] = cd[0] - A->radius * n[0], ct.pa[1] = cd[1] - A->radius * n[1];
  ct.pb[0] = pb[0], ct.pb[1] = pb[1];
  ct.gap = gap;
  return contact_set_push(out, &ct);
}
