/* implicit_polygon.c — a polygon side of a geometrically implicit contact (Chakraborty, Berard, Akella &
 * Trinkle, Sec. 4.3, eqs. (28)-(32)): the polygon as the intersection of its edges' half-planes, and the
 * guess of the contact's closest points and multipliers at the predicted pose. */
#include "implicit_polygon.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int implicit_polygon_halfplanes(const struct world *w, int si, struct convex_fn *fn, int cap, char *msg,
                                size_t len)
{
  const struct shape *sh = &w->shapes[si];
  if (sh->kind != SHAPE_POLYGON || !sh->polygon) {
    snprintf(msg, len, "shape %d is not a polygon", si);
    return -1;
  }
  const struct polygon *pg = sh->polygon;
  if (pg->n > cap) {
    snprintf(msg, len, "shape %d: a polygon of %d edges (at most %d inequalities per part)", si, pg->n, cap);
    return -1;
  }
  for (int i = 0; i < pg->n; i++) {
    struct convex_part part;
    const double n[3] = {pg->en[2 * i], pg->en[2 * i + 1], 0.0};
    if (convex_part_halfspace(&part, 2, n, pg->ed[i], msg, len)) return -1;
    fn[i] = part.f[0];
  }
  return pg->n;
}

int implicit_side_body2_count(const struct world *w, int si)
{
  return w->shapes[si].kind == SHAPE_POLYGON && w->shapes[si].polygon ? w->shapes[si].polygon->n : 0;
}

int implicit_side_body2(const struct world *w, int si, struct gi_side *s, struct convex_fn *g2, char *msg,
                        size_t len)
{
  if (w->shapes[si].kind != SHAPE_POLYGON) return implicit_side_init(w, si, s, msg, len) ? -1 : 0;
  implicit_side_pose_init(w, si, s);
  memset(&s->fn, 0, sizeof s->fn);
  return implicit_polygon_halfplanes(w, si, g2, w->shapes[si].polygon->n, msg, len);
}

int implicit_side_body2_pool(const struct world *w, int si, struct gi_side *s, struct convex_fn **pool,
                             int *cap_pool, int *npool, int *m2, int *g2, char *msg, size_t len)
{
  int m = implicit_side_body2_count(w, si);
  if (implicit_grow((void **)pool, cap_pool, *npool + m, sizeof **pool)) {
    snprintf(msg, len, "out of memory");
    return -1;
  }
  m = implicit_side_body2(w, si, s, *pool + *npool, msg, len);
  if (m < 0) return -1;
  *m2 = m ? m : 1;
  *g2 = m ? *npool : -1;
  *npool += m;
  return 0;
}

/* p = x + R(th) u, with c = cos th, sn = sin th */
static void place(const double x[2], double c, double sn, const double u[2], double p[2])
{
  p[0] = x[0] + c * u[0] - sn * u[1];
  p[1] = x[1] + sn * u[0] + c * u[1];
}

/* The closest-point guess of a polygon contact (body 2 a polygon, Sec. 4.3) at the poses predicted with the
 * start velocities, q + h nu^l: a2 minimises body 1's function over the polygon (its vertices and, along each
 * edge, a golden-section search: f is convex along a segment), a1 is a2 projected on f = 0 by one Newton
 * step, and the multipliers of the faces active at a2 combine to -grad f (a vertex: a 2 x 2 system; a
 * negative weight falls back to the best-aligned face). Why: warm-started from the previous step, a polygon
 * that pivots from one vertex to the next leaves a2 on the old vertex, where the Newton solvers stall. The
 * warm start (guess already holding the previous answer, warm = 1) is kept when its a2, carried with body 2
 * to the predicted pose, is still a minimiser (a box resting on a face keeps its contact point under the
 * centre of mass). */
void implicit_polygon_guess(const struct gi_side *s1, const struct gi_side *s2, const struct polygon *pg,
                            const struct convex_fn *g2, double h, const double *nu0, int warm,
                            double a1_out[2], double a2[2], double *l1, double *l2)
{
  double x2[2], th2;
  side_pose(s2, h, nu0, x2, &th2);
  double c = cos(th2), sn = sin(th2), best[2] = {0, 0}, fbest = INFINITY;
  struct side_eval e;
  for (int i = 0; i < pg->n; i++) {
    const double *u = pg->v + 2 * i, *v = pg->v + 2 * ((i + 1) % pg->n);
    double p0[2], p1[2];
    place(x2, c, sn, u, p0);
    place(x2, c, sn, v, p1);
    double lo = 0.0, hi = 1.0; /* golden section on t -> f(p0 + t (p1 - p0)) */
    const double gr = 0.5 * (sqrt(5.0) - 1.0);
    for (int it = 0; it < 40; it++) {
      double t1 = hi - gr * (hi - lo), t2 = lo + gr * (hi - lo), q1[2], q2[2];
      for (int k = 0; k < 2; k++) {
        q1[k] = p0[k] + t1 * (p1[k] - p0[k]);
        q2[k] = p0[k] + t2 * (p1[k] - p0[k]);
      }
      side_eval(s1, h, nu0, q1, &e);
      double f1 = e.f;
      side_eval(s1, h, nu0, q2, &e);
      if (f1 <= e.f)
        hi = t2;
      else
        lo = t1;
    }
    for (int k = 0; k < 3; k++) { /* the two ends and the search's point */
      double t = k == 0 ? 0.0 : k == 1 ? 1.0 : 0.5 * (lo + hi), q[2];
      for (int j = 0; j < 2; j++)
        q[j] = p0[j] + t * (p1[j] - p0[j]);
      side_eval(s1, h, nu0, q, &e);
      if (e.f < fbest - 1e-12) {
        fbest = e.f;
        best[0] = q[0];
        best[1] = q[1];
      }
    }
  }
  if (warm) { /* the previous a2 in body 2's frame (start pose), then in the world at the predicted pose */
    double dx = a2[0] - s2->x0[0], dy = a2[1] - s2->x0[1];
    double c0 = cos(s2->th0), s0 = sin(s2->th0), u[2] = {c0 * dx + s0 * dy, -s0 * dx + c0 * dy}, q[2];
    place(x2, c, sn, u, q);
    side_eval(s1, h, nu0, q, &e);
    if (e.f <= fbest + 1e-9 * fmax(1.0, fabs(fbest))) return;
  }
  side_eval(s1, h, nu0, best, &e);
  double g2n = e.G[0] * e.G[0] + e.G[1] * e.G[1];
  double a1[2] = {best[0], best[1]};
  if (g2n > 0.0)
    for (int k = 0; k < 2; k++)
      a1[k] -= e.f / g2n * e.G[k];
  struct side_eval e1;
  side_eval(s1, h, nu0, a1, &e1);
  double g1 = hypot(e1.G[0], e1.G[1]), gap = hypot(best[0] - a1[0], best[1] - a1[1]);
  a1_out[0] = a1[0], a1_out[1] = a1[1];
  a2[0] = best[0], a2[1] = best[1];
  *l1 = g1 > 0.0 && e.f > 0.0 ? gap / g1 : 0.0;
  /* faces active at a2, and the weights l2 with sum l2_j G2_j = -G1 */
  int act[2], na = 0, align = 0;
  double G2[2][2], walign = -INFINITY;
  for (int q = 0; q < pg->n; q++) {
    struct side_eval e2;
    side_eval_fn(s2, &g2[q], h, nu0, best, &e2);
    l2[q] = 0.0;
    double al = -(e2.G[0] * e1.G[0] + e2.G[1] * e1.G[1]) / (hypot(e2.G[0], e2.G[1]) * g1 + 1e-300);
    if (fabs(e2.f) < 1e-9 && na < 2) {
      act[na] = q;
      G2[na][0] = e2.G[0];
      G2[na][1] = e2.G[1];
      na++;
    }
    if (al > walign) {
      walign = al;
      align = q;
    }
  }
  if (na == 2) {
    double det = G2[0][0] * G2[1][1] - G2[1][0] * G2[0][1];
    double u0 = (-e1.G[0] * G2[1][1] + e1.G[1] * G2[1][0]) / det;
    double u1 = (-G2[0][0] * e1.G[1] + G2[0][1] * e1.G[0]) / det;
    if (fabs(det) > 1e-12 && u0 >= 0.0 && u1 >= 0.0) {
      l2[act[0]] = u0;
      l2[act[1]] = u1;
      return;
    }
  }
  struct side_eval e2;
  side_eval_fn(s2, &g2[align], h, nu0, best, &e2);
  double gn2 = hypot(e2.G[0], e2.G[1]);
  l2[align] = gn2 > 0.0 ? g1 / gn2 : 1.0;
}

/* h times the largest speed of a point of the pair (body 2: its farthest vertex; body 1: the point a2) at the
 * start velocities: how far the pair can close in one step. */
static double pair_reach(const struct gi_side *s1, const struct gi_side *s2, const struct polygon *pg,
                         double h, const double *nu0, const double a2[2])
{
  double reach = 0.0;
  for (int k = 0; k < 2; k++) {
    const struct gi_side *sd = k ? s2 : s1;
    if (sd->dof < 0) continue;
    const double *v = nu0 + sd->dof;
    double lever = 0.0;
    if (k)
      for (int i = 0; i < pg->n; i++)
        lever = fmax(lever, hypot(pg->v[2 * i], pg->v[2 * i + 1]));
    else {
      double x1[2], th1;
      side_pose(s1, h, nu0, x1, &th1);
      lever = hypot(a2[0] - x1[0], a2[1] - x1[1]);
    }
    reach += h * (hypot(v[0], v[1]) + fabs(v[2]) * lever);
  }
  return reach;
}

void implicit_polygon_face_guess(const struct gi_side *s1, const struct gi_side *s2, const struct polygon *pg,
                                 const struct convex_fn *g2, double h, const double *nu0, double a1[2],
                                 double a2[2], double *l2)
{
  double x2[2], th2;
  side_pose(s2, h, nu0, x2, &th2);
  double c = cos(th2), sn = sin(th2);
  struct side_eval e;
  side_eval(s1, h, nu0, a2, &e);
  const double fbest = e.f, gnorm = hypot(e.G[0], e.G[1]), exact = 1e-12 * fmax(1.0, fabs(fbest));
  /* a nearly flat face counts only within ten steps of contact: a box turning through flat in flight has
   * its closest point jump between corners, and the corner guess is the better one there */
  const int near = fbest <= 10.0 * gnorm * pair_reach(s1, s2, pg, h, nu0, a2);
  for (int i = 0; i < pg->n; i++) {
    double p0[2], p1[2], f0, f1;
    place(x2, c, sn, pg->v + 2 * i, p0);
    place(x2, c, sn, pg->v + 2 * ((i + 1) % pg->n), p1);
    side_eval(s1, h, nu0, p0, &e);
    f0 = e.f;
    side_eval(s1, h, nu0, p1, &e);
    f1 = e.f;
    /* a face on which f is constant (to rounding), or near contact within 1e-4 rad of body 1's level set (f
     * changes by at most 1e-4 |G| |edge| along it) */
    double d[2] = {p1[0] - p0[0], p1[1] - p0[1]}, dd = d[0] * d[0] + d[1] * d[1];
    double tol = near ? 1e-4 * gnorm * sqrt(dd) + exact : exact;
    if (fabs(f0 - fbest) > tol || fabs(f1 - fbest) > tol) continue;
    /* edge i is a minimising face: a2 = the point of it nearest the centre's projection */
    double t = dd > 0.0 ? ((x2[0] - p0[0]) * d[0] + (x2[1] - p0[1]) * d[1]) / dd : 0.5;
    t = fmin(fmax(t, 0.0), 1.0);
    double shift[2] = {p0[0] + t * d[0] - a2[0], p0[1] + t * d[1] - a2[1]};
    for (int k = 0; k < 2; k++) {
      a2[k] += shift[k];
      a1[k] += shift[k];
    }
    struct side_eval e1, ef;
    side_eval(s1, h, nu0, a1, &e1);
    side_eval_fn(s2, &g2[i], h, nu0, a2, &ef);
    double g1 = hypot(e1.G[0], e1.G[1]), gf = hypot(ef.G[0], ef.G[1]);
    for (int q = 0; q < pg->n; q++)
      l2[q] = 0.0;
    l2[i] = gf > 0.0 ? g1 / gf : 1.0;
    break;
  }
}

int implicit_polygon_impulses(const struct gi_side s[2], const double a1[2], const double a2[2],
                              const double *nu0, const double *papp, const double *M, int ndof, double h,
                              double mu, double et, double *pn_out, double *pt, double *sigma)
{
  struct side_eval e1;
  side_eval(&s[0], h, nu0, a1, &e1);
  const double g1 = hypot(e1.G[0], e1.G[1]);
  if (!(g1 > 0.0) || !(h > 0.0)) return 0;
  const double n[2] = {-e1.G[0] / g1, -e1.G[1] / g1}, t[2] = {n[1], -n[0]}, *a[2] = {a1, a2};
  double vrel[2] = {0.0, 0.0}, dvfree[2] = {0.0, 0.0}, inv_m = 0.0;
  for (int b = 0; b < 2; b++) {
    if (s[b].dof < 0) continue;
    const double sign = b == 0 ? 1.0 : -1.0, *v = nu0 + s[b].dof;
    const double m = M[(size_t)s[b].dof * ndof + s[b].dof];
    double x[2], th;
    side_pose(&s[b], h, nu0, x, &th);
    const double r[2] = {a[b][0] - x[0], a[b][1] - x[1]};
    inv_m += 1.0 / m;
    vrel[0] += sign * (v[0] - v[2] * r[1]), vrel[1] += sign * (v[1] + v[2] * r[0]);
    dvfree[0] += sign * papp[s[b].dof] / m, dvfree[1] += sign * papp[s[b].dof + 1] / m;
  }
  if (!(inv_m > 0.0)) return 0;
  /* the points are at the pose the start velocities reach: their gap already holds h v_n */
  const double gap = n[0] * (a1[0] - a2[0]) + n[1] * (a1[1] - a2[1]);
  const double pn = fmax(0.0, -gap / h - (n[0] * dvfree[0] + n[1] * dvfree[1])) / inv_m;
  *pn_out = pn;
  const double vt = t[0] * vrel[0] + t[1] * vrel[1];
  if (!(pn > 0.0) || !(et * fabs(vt) > 1e-9)) return 0;
  *sigma = et * fabs(vt);
  *pt = -et * mu * pn * (vt > 0.0 ? 1.0 : -1.0);
  return 1;
}
