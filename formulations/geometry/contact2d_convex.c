/* contact2d_convex.c — the explicit 2D narrow phase of a superellipse (Barr; the smooth convex shapes of
 * Chakraborty, Berard, Akella & Trinkle, Sec. 4.1) against a convex polygon or another superellipse, from
 * the shapes' support functions h_S(u) = max over x in S of u . x. For convex A and B the signed distance
 * is the separating-axis maximum
 *     sd = max over unit u of ( min_{x in A} u . x - max_{y in B} u . y ) = max_u ( -h_A(-u) - h_B(u) ),
 * positive when they are apart (the distance, by duality) and minus the penetration depth when they overlap
 * (the shortest translation that separates them); the maximiser u* is the contact normal (from B to A).
 * In 2D u = (cos phi, sin phi): a grid of 720 angles brackets the global maximum,
 * golden-section search narrows it to 1e-11 rad. The witness on a superellipse is its support point along the
 * normal; on a polygon it is the superellipse's witness moved by the gap along the normal, which is the
 * vertex for a vertex contact and the foot on the edge for a face contact (where the polygon's support is a
 * whole edge). The support of a superellipse is closed form (contact2d_superellipse.h), so there is no
 * iteration on the boundary and no Hessian: p > 2 superellipses, whose curvature vanishes at the axes, are
 * handled alike. The search costs about 170 separations (two support evaluations each, with pow) for shapes
 * apart; for overlapping ones a Lipschitz bound leaves out the grid angles that cannot hold the maximum
 * (best_grid_angle), and a pair is given up as soon as one angle proves it farther apart than the threshold
 * — both exact: the same grid angle, the same contacts as evaluating all 720. A pair whose lower bound on the
 * distance (a superellipse inside its bounding circle, a polygon exact) already exceeds the threshold is not
 * searched: it cannot be a contact (the search's gap is at most the true distance's). */
#include "contact2d_convex.h"

#include "contact2d_superellipse.h"

#include <math.h>
#include <string.h>

/* A part's support in the world frame. */
struct support {
  const struct world *w;
  const struct shape *s;
  double C[3], c, sn; /* superellipse: world centre and rotation; polygon: body origin and rotation */
};

static void support_init(struct support *sp, const struct world *w, int si)
{
  const struct shape *s = &w->shapes[si];
  const struct body *b = &w->bodies[s->body];
  sp->w = w;
  sp->s = s;
  if (s->kind == SHAPE_SUPERELLIPSE) {
    world_point(w, b, s->c, sp->C);
    sp->c = cos(b->theta + s->se.angle), sp->sn = sin(b->theta + s->se.angle);
  } else {
    sp->C[0] = b->x[0], sp->C[1] = b->x[1];
    sp->c = cos(b->theta), sp->sn = sin(b->theta);
  }
}

/* h(u) and the point x reaching it; *vertex the polygon vertex (-1 for a superellipse). */
static double support_eval(const struct support *sp, const double u[2], double x[2], int *vertex)
{
  const double ul[2] = {sp->c * u[0] + sp->sn * u[1], -sp->sn * u[0] + sp->c * u[1]}; /* R^T u */
  double xl[2];
  *vertex = -1;
  if (sp->s->kind == SHAPE_SUPERELLIPSE) {
    superellipse_support(sp->s->se.a, sp->s->se.b, sp->s->se.p, ul, xl);
  } else {
    const struct polygon *P = sp->s->polygon;
    double best = -INFINITY;
    for (int i = 0; i < P->n; i++) {
      double d = ul[0] * P->v[2 * i] + ul[1] * P->v[2 * i + 1];
      if (d > best) best = d, *vertex = i;
    }
    xl[0] = P->v[2 * *vertex], xl[1] = P->v[2 * *vertex + 1];
  }
  x[0] = sp->C[0] + sp->c * xl[0] - sp->sn * xl[1];
  x[1] = sp->C[1] + sp->sn * xl[0] + sp->c * xl[1];
  return u[0] * x[0] + u[1] * x[1];
}

/* -h_A(-u) - h_B(u) at angle phi. */
static double separation(const struct support *A, const struct support *B, double phi)
{
  const double u[2] = {cos(phi), sin(phi)}, mu[2] = {-u[0], -u[1]};
  double x[2];
  int v;
  return -support_eval(A, mu, x, &v) - support_eval(B, u, x, &v);
}

/* Distance from the world point x to the polygon of sp (0 inside). */
static double polygon_distance(const struct support *sp, const double x[2])
{
  const struct polygon *P = sp->s->polygon;
  const double d[2] = {x[0] - sp->C[0], x[1] - sp->C[1]};
  const double xl[2] = {sp->c * d[0] + sp->sn * d[1], -sp->sn * d[0] + sp->c * d[1]}; /* R^T d */
  int inside = 1;
  double best = INFINITY;
  for (int e = 0; e < P->n; e++) {
    const double *v0 = P->v + 2 * e, *v1 = P->v + 2 * ((e + 1) % P->n);
    inside &= P->en[2 * e] * xl[0] + P->en[2 * e + 1] * xl[1] <= P->ed[e];
    const double t[2] = {v1[0] - v0[0], v1[1] - v0[1]}, r[2] = {xl[0] - v0[0], xl[1] - v0[1]};
    const double len2 = t[0] * t[0] + t[1] * t[1];
    const double s = len2 > 0.0 ? fmin(1.0, fmax(0.0, (r[0] * t[0] + r[1] * t[1]) / len2)) : 0.0;
    best = fmin(best, hypot(r[0] - s * t[0], r[1] - s * t[1]));
  }
  return inside ? 0.0 : best;
}

/* A lower bound on the distance between A and B: a superellipse lies in the circle of radius max(a, b)
 * about its centre. */
static double distance_lower_bound(const struct support *A, const struct support *B)
{
  const int a_smooth = A->s->kind == SHAPE_SUPERELLIPSE, b_smooth = B->s->kind == SHAPE_SUPERELLIPSE;
  if (a_smooth && b_smooth) return hypot(A->C[0] - B->C[0], A->C[1] - B->C[1]) - A->s->radius - B->s->radius;
  const struct support *S = a_smooth ? A : B, *P = a_smooth ? B : A;
  return polygon_distance(P, S->C) - S->s->radius;
}

/* The separation is Lipschitz in the angle with L = |C_B - C_A| + R_A + R_B (translate by C_A: u . (C_B -
 * C_A) plus the supports of parts within R_A, R_B of their centres; |u(phi) - u(phi')| <= |phi - phi'|), so
 * no angle within d of an evaluated phi exceeds g(phi) + L d. The margin covers the rounding of the
 * evaluations. */
static double separation_lipschitz(const struct support *A, const struct support *B)
{
  const double L = hypot(B->C[0] - A->C[0], B->C[1] - A->C[1]) + A->s->radius + B->s->radius;
  return L * (1.0 + 1e-9);
}

enum { GRID = 720, COARSE = 8, REACH = 2 * COARSE, NC = GRID / COARSE, SPAN = 6 };

/* The best grid angle so far: the highest separation, the lowest index among equals (the order the angles
 * are evaluated in does not matter). */
struct grid_best {
  double g;
  int i;
};

static void grid_take(struct grid_best *b, double g, int i)
{
  if (g > b->g || (g == b->g && i < b->i)) b->g = g, b->i = i;
}

/* The NC coarse angles: every SPAN-th first, from the one nearest the line of centres (B to A, where the
 * maximum of shapes apart lies); then the others — of shapes apart only those whose Lipschitz bound from
 * their two first-pass neighbours reaches the best value, the two spans beside the best first (they raise
 * the bar); of overlapping ones all (the fine search needs every coarse value). 1 when an angle's separation
 * exceeds thr by 2 L step: the refined maximum lies within a grid step of the best angle, so it is at least
 * that angle's value minus L step, above thr: not a contact, what the whole search would say (pairs near but
 * apart stop early). */
static int coarse_scan(const struct support *A, const struct support *B, double thr, double coarse[NC],
                       struct grid_best *best)
{
  const double step = 2.0 * M_PI / GRID, L = separation_lipschitz(A, B) * COARSE * step;
  const double exit_above = thr + 2.0 * L / COARSE;
  const int first = (int)lround(atan2(A->C[1] - B->C[1], A->C[0] - B->C[0]) / (SPAN * COARSE * step));
  for (int t = 0; t < NC / SPAN; t++) {
    const int c = ((first + t) % (NC / SPAN) + NC / SPAN) % (NC / SPAN) * SPAN;
    const double g = coarse[c] = separation(A, B, c * COARSE * step);
    if (g > exit_above) return 1;
    grid_take(best, g, c * COARSE);
  }
  const int prune = best->g > 0.0, near_span = best->i / (COARSE * SPAN);
  for (int pass = 0; pass < 2; pass++)
    for (int sp = 0; sp < NC / SPAN; sp++) {
      if ((sp == near_span || (sp + 1) % (NC / SPAN) == near_span) != (pass == 0)) continue;
      const double gl = coarse[sp * SPAN], gr = coarse[(sp + 1) % (NC / SPAN) * SPAN];
      for (int k = 1; k < SPAN; k++) {
        const int c = sp * SPAN + k;
        if (prune && fmin(gl + L * k, gr + L * (SPAN - k)) < best->g) continue; /* cannot reach the best */
        const double g = coarse[c] = separation(A, B, c * COARSE * step);
        if (g > exit_above) return 1;
        grid_take(best, g, c * COARSE);
      }
    }
  return 0;
}

/* Index of the best of GRID angles (the lowest index among equal maxima), or -1 when the pair is farther
 * apart than thr (coarse_scan). Shapes apart (a coarse angle separates them): the directions that separate
 * two convex sets form one arc, over which the separation rises to its one maximum and falls, so the best of
 * the 720 lies within two coarse cells of the best of the 90. Overlapping shapes: the penetration's
 * separation can have several humps, so every fine angle is a candidate; one is evaluated only when the
 * Lipschitz bound from its coarse neighbours reaches the best value seen — the angles left out cannot be the
 * maximum, so the index is the full scan's, at a fraction of its evaluations. */
static int best_grid_angle(const struct support *A, const struct support *B, double thr)
{
  const double step = 2.0 * M_PI / GRID;
  double coarse[NC];
  struct grid_best best = {-INFINITY, 0};
  if (coarse_scan(A, B, thr, coarse, &best)) return -1;
  const int centre = best.i;
  if (best.g > 0.0) {
    for (int j = -REACH; j <= REACH; j++) {
      const int i = ((centre + j) % GRID + GRID) % GRID;
      if (i % COARSE == 0) continue; /* a coarse angle: seen or ruled out */
      grid_take(&best, separation(A, B, i * step), i);
    }
    return best.i;
  }
  const double L = separation_lipschitz(A, B) * step;
  /* the two cells beside the coarse best first: they raise the bar the others are pruned against */
  for (int pass = 0; pass < 2; pass++)
    for (int cell = 0; cell < NC; cell++) {
      if ((cell * COARSE == centre || (cell + 1) % NC * COARSE == centre) != (pass == 0)) continue;
      const double gl = coarse[cell], gr = coarse[(cell + 1) % NC];
      for (int k = 1; k < COARSE; k++) {
        const int i = cell * COARSE + k;
        if (fmin(gl + L * k, gr + L * (COARSE - k)) < best.g) continue; /* cannot reach the best */
        grid_take(&best, separation(A, B, i * step), i);
      }
    }
  return best.i;
}

int contact2d_convex(const struct world *w, int sa, int sb, double thr, struct contact_set *out)
{
  struct support A, B;
  support_init(&A, w, sa);
  support_init(&B, w, sb);
  if (distance_lower_bound(&A, &B) > thr) return 0;
  const double step = 2.0 * M_PI / GRID;
  const int best = best_grid_angle(&A, &B, thr);
  if (best < 0) return 0;
  const double gr = 0.5 * (sqrt(5.0) - 1.0);
  double lo = (best - 1) * step, hi = (best + 1) * step;
  double m1 = hi - gr * (hi - lo), m2 = lo + gr * (hi - lo);
  double f1 = separation(&A, &B, m1), f2 = separation(&A, &B, m2);
  for (int it = 0; it < 120 && hi - lo > 1e-11; it++) {
    if (f1 > f2) {
      hi = m2, m2 = m1, f2 = f1;
      m1 = hi - gr * (hi - lo);
      f1 = separation(&A, &B, m1);
    } else {
      lo = m1, m1 = m2, f1 = f2;
      m2 = lo + gr * (hi - lo);
      f2 = separation(&A, &B, m2);
    }
  }
  const double phi = f1 > f2 ? m1 : m2, gap = fmax(f1, f2);
  if (gap > thr) return 0;
  const double n[2] = {cos(phi), sin(phi)}, mn[2] = {-n[0], -n[1]};
  double pa[2], pb[2];
  int va, vb;
  support_eval(&A, mn, pa, &va);
  support_eval(&B, n, pb, &vb);
  /* a polygon's witness from the smooth side's (see the header comment) */
  if (va >= 0 && vb < 0)
    pa[0] = pb[0] + gap * n[0], pa[1] = pb[1] + gap * n[1];
  else if (vb >= 0 && va < 0)
    pb[0] = pa[0] - gap * n[0], pb[1] = pa[1] - gap * n[1];
  struct contact ct;
  memset(&ct, 0, sizeof ct);
  ct.sa = sa, ct.sb = sb;
  ct.a = w->shapes[sa].body, ct.b = w->shapes[sb].body;
  ct.n[0] = n[0], ct.n[1] = n[1];
  ct.pa[0] = pa[0], ct.pa[1] = pa[1];
  ct.pb[0] = pb[0], ct.pb[1] = pb[1];
  ct.gap = gap;
  /* features: the surface of a superellipse; for a polygon its vertex, or its edge when the normal is the
   * edge's (a face contact) */
  for (int side = 0; side < 2; side++) {
    const struct support *S = side ? &B : &A;
    int v = side ? vb : va;
    enum feature_kind *f = side ? &ct.fb : &ct.fa;
    int *id = side ? &ct.idb : &ct.ida;
    *f = FEATURE_SURFACE;
    if (v < 0) continue;
    const struct polygon *P = S->s->polygon;
    const double u[2] = {side ? n[0] : mn[0], side ? n[1] : mn[1]};
    const double ul[2] = {S->c * u[0] + S->sn * u[1], -S->sn * u[0] + S->c * u[1]};
    *f = FEATURE_VERTEX, *id = v;
    for (int e = 0; e < P->n; e++) /* edge e joins vertices e and e + 1, outward normal en[e] */
      if ((e == v || (e + 1) % P->n == v) && P->en[2 * e] * ul[0] + P->en[2 * e + 1] * ul[1] > 1.0 - 1e-9)
        *f = FEATURE_EDGE, *id = e;
  }
  return contact_set_push(out, &ct);
}
