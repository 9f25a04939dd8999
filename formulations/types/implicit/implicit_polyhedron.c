/* implicit_polyhedron.c — a polyhedron side of a geometrically implicit contact in 3D (Chakraborty, Berard,
 * Akella & Trinkle, Sec. 4.3, eqs. (28)-(32)): the polyhedron as the intersection of its faces' half-spaces,
 * and the guess of the contact's closest points and multipliers at the predicted pose (the 3D analogue of
 * implicit_polygon.c). */
#include "implicit_polyhedron.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define ACTIVE_MAX 8   /* faces taken into the multiplier guess at a vertex (a box vertex has 3) */
#define VERTEX_MAX 128 /* vertices kept for the face searches (nv <= 2 nf - 4, nf <= 64) */

int implicit_polyhedron_halfspaces(const struct world *w, int si, struct convex_fn *fn, int cap, char *msg,
                                   size_t len)
{
  const struct shape *sh = &w->shapes[si];
  if (sh->kind != SHAPE_POLYHEDRON || !sh->polyhedron) {
    snprintf(msg, len, "shape %d is not a polyhedron", si);
    return -1;
  }
  const struct polyhedron *ph = sh->polyhedron;
  if (ph->nf > cap) {
    snprintf(msg, len, "shape %d: a polyhedron of %d faces (at most %d inequalities per part)", si, ph->nf,
             cap);
    return -1;
  }
  for (int f = 0; f < ph->nf; f++) {
    struct convex_part part;
    if (convex_part_halfspace(&part, 3, ph->fn + 3 * f, ph->fd[f], msg, len)) return -1;
    fn[f] = part.f[0];
  }
  return ph->nf;
}

/* p = x + R u */
static void place(const double x[3], const double R[9], const double u[3], double p[3])
{
  for (int i = 0; i < 3; i++)
    p[i] = x[i] + R[i * 3] * u[0] + R[i * 3 + 1] * u[1] + R[i * 3 + 2] * u[2];
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The minimisers found so far: the best value and the mean of the points within tol of it. The set of
 * minimisers of a convex function over a polyhedron is convex, so the mean of several of them is one too: a
 * box parallel to the plane gets the centre of its face, not a vertex (an impulse there would turn it). */
struct argmin {
  double f, sum[3];
  int count;
};

static void argmin_add(struct argmin *m, const double p[3], double f)
{
  const double tol = 1e-9 * fmax(1.0, fabs(f));
  if (m->count == 0 || f < m->f - tol) m->count = 0, m->f = f, m->sum[0] = m->sum[1] = m->sum[2] = 0.0;
  if (f > m->f + tol) return;
  if (f < m->f) m->f = f;
  for (int k = 0; k < 3; k++)
    m->sum[k] += p[k];
  m->count++;
}

static double f_at(const struct gi_side3 *s1, double h, const double *nu0, const double p[3])
{
  struct side3_eval e;
  side3_eval(s1, h, nu0, p, &e);
  return e.f;
}

/* The minimiser of body 1's f over the plane of a face (Newton with backtracking in the face's two tangent
 * directions, damped where the Hessian is singular), as a candidate when it lies inside the polyhedron: f is
 * convex, so otherwise the face's minimum is on its edges, searched apart. Nothing for a linear f (a plane):
 * its minimum over the polyhedron is at a vertex. */
static void face_minimum(const struct gi_side3 *s1, double h, const double *nu0, const double *V,
                         const int *fv, int nfv, const double nw[3], const struct convex_fn *g2, int m2,
                         const struct gi_side3 *s2, struct argmin *m)
{
  double p[3] = {0, 0, 0}, u[3], v[3];
  for (int i = 0; i < nfv; i++)
    for (int k = 0; k < 3; k++)
      p[k] += V[3 * fv[i] + k] / nfv;
  for (int k = 0; k < 3; k++)
    u[k] = V[3 * fv[1] + k] - V[3 * fv[0] + k];
  double lu = sqrt(dot3(u, u));
  if (!(lu > 0.0)) return;
  for (int k = 0; k < 3; k++)
    u[k] /= lu;
  v[0] = nw[1] * u[2] - nw[2] * u[1], v[1] = nw[2] * u[0] - nw[0] * u[2], v[2] = nw[0] * u[1] - nw[1] * u[0];
  struct side3_eval e;
  side3_eval(s1, h, nu0, p, &e);
  double hn = 0.0;
  for (int k = 0; k < 9; k++)
    hn = fmax(hn, fabs(e.Hw[k]));
  if (!(hn > 0.0)) return;
  for (int it = 0; it < 60; it++) {
    double Hu[3], Hv[3];
    for (int i = 0; i < 3; i++) {
      Hu[i] = e.Hw[i * 3] * u[0] + e.Hw[i * 3 + 1] * u[1] + e.Hw[i * 3 + 2] * u[2];
      Hv[i] = e.Hw[i * 3] * v[0] + e.Hw[i * 3 + 1] * v[1] + e.Hw[i * 3 + 2] * v[2];
    }
    double g0 = dot3(e.G, u), g1 = dot3(e.G, v), a = dot3(u, Hu), b = dot3(u, Hv), c = dot3(v, Hv);
    double lam = 1e-10 * (1.0 + fabs(a) + fabs(c) + sqrt(g0 * g0 + g1 * g1)), det;
    a += lam, c += lam, det = a * c - b * b;
    if (!(det > 0.0)) break;
    double d0 = -(c * g0 - b * g1) / det, d1 = -(a * g1 - b * g0) / det, slope = g0 * d0 + g1 * d1, t = 1.0;
    if (!(slope < 0.0) || hypot(d0, d1) < 1e-14) break;
    double q[3], fq = INFINITY;
    for (int ls = 0; ls < 34; ls++, t *= 0.5) { /* backtracking down to t = 2^-33 */
      for (int k = 0; k < 3; k++)
        q[k] = p[k] + t * (d0 * u[k] + d1 * v[k]);
      fq = f_at(s1, h, nu0, q);
      if (fq <= e.f + 1e-4 * t * slope) break;
    }
    if (!(fq <= e.f + 1e-4 * t * slope)) break;
    memcpy(p, q, sizeof p);
    side3_eval(s1, h, nu0, p, &e);
  }
  for (int q = 0; q < m2; q++) { /* inside the polyhedron, up to rounding */
    struct side3_eval eq;
    side3_eval_fn(s2, &g2[q], h, nu0, p, &eq);
    if (eq.f > 1e-9) return;
  }
  argmin_add(m, p, e.f);
}

/* Solves the k x k system A x = b (k <= 3, row-major A, overwritten by its LU factors) with LAPACK's
 * partially pivoted LU; 1 when singular: a pivot of at most 1e-14 (the faces' gradients are unit vectors, so
 * A is a Gram matrix of entries <= 1, and such a pivot means dependent faces). */
static int solve_small(int k, double *A, double *b, double *x)
{
  lapack_int ipiv[3];
  if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, k, 1, A, k, ipiv, b, 1) < 0) return 1;
  for (int c = 0; c < k; c++)
    if (!(fabs(A[c * k + c]) > 1e-14)) return 1;
  memcpy(x, b, (size_t)k * sizeof *x);
  return 0;
}

/* Weights w >= 0 of at most three of the active faces' gradients G (na of them, 3 each) with sum w_j G_j
 * closest to t: every subset of one to three faces by least squares, the nonnegative answer of smallest
 * residual (the smaller subset on a tie). Returns the residual (INFINITY when no subset has one). */
static double cone_weights(int na, const double (*G)[3], const double t[3], double *w)
{
  double best = INFINITY;
  for (int i = 0; i < na; i++)
    w[i] = 0.0;
  for (int mask = 1; mask < (1 << na); mask++) {
    int idx[3], k = 0;
    for (int i = 0; i < na && k <= 3; i++)
      if (mask & (1 << i)) {
        if (k < 3) idx[k] = i;
        k++;
      }
    if (k > 3) continue;
    double A[9], b[3], x[3];
    for (int r = 0; r < k; r++) {
      b[r] = dot3(G[idx[r]], t);
      for (int c = 0; c < k; c++)
        A[r * k + c] = dot3(G[idx[r]], G[idx[c]]);
    }
    if (solve_small(k, A, b, x)) continue;
    int neg = 0;
    double res[3] = {-t[0], -t[1], -t[2]};
    for (int r = 0; r < k; r++) {
      neg |= x[r] < 0.0;
      for (int j = 0; j < 3; j++)
        res[j] += x[r] * G[idx[r]][j];
    }
    double rn = sqrt(dot3(res, res));
    if (neg || !(rn < best - 1e-12 * (1.0 + best))) continue;
    best = rn;
    for (int i = 0; i < na; i++)
      w[i] = 0.0;
    for (int r = 0; r < k; r++)
      w[idx[r]] = x[r];
  }
  return best;
}

/* The closest-point guess of a polyhedron contact (body 2 a polyhedron, Sec. 4.3) at the poses predicted with
 * the start velocities, q + h G nu^l: a2 minimises body 1's function over the polyhedron (its vertices, along
 * each edge a golden-section search, in each face's plane a Newton search; f is convex on each), a1 is a2
 * projected on f = 0 by one Newton step, and the multipliers of the faces active at a2 combine to -grad f
 * (cone_weights; none found: the best-aligned face). Why: as in 2D (implicit_polygon.c), warm-started from
 * the previous step a body that pivots from one vertex to the next leaves a2 on the old vertex, where the
 * Newton solvers stall. The warm start (guess already holding the previous answer, warm = 1) is kept when
 * its a2, carried with body 2 to the predicted pose, is still a minimiser (a box resting on a face keeps its
 * contact point under the centre of mass). */
void implicit_polyhedron_guess(const struct gi_side3 *s1, const struct gi_side3 *s2,
                               const struct polyhedron *ph, const struct convex_fn *g2, double h,
                               const double *nu0, int warm, double a1_out[3], double a2[3], double *l1,
                               double *l2)
{
  double x2[3], R2[9], V[3 * VERTEX_MAX];
  side3_pose(s2, h, nu0, x2, R2);
  struct argmin m = {0.0, {0, 0, 0}, 0};
  /* vertices (world, predicted pose), kept for the face searches */
  for (int i = 0; i < ph->nv; i++) {
    double p[3];
    place(x2, R2, ph->v + 3 * i, p);
    if (i < VERTEX_MAX) memcpy(V + 3 * i, p, sizeof p);
    argmin_add(&m, p, f_at(s1, h, nu0, p));
  }
  /* a linear f (body 1 a plane) has its minimum over the polyhedron at a vertex: no edge or face search */
  const int linear = s1->fn.kind == CONVEX_HALFSPACE;
  for (int e = 0; e < ph->ne && !linear; e++) { /* golden section on t -> f(p0 + t (p1 - p0)) */
    double p0[3], p1[3], lo = 0.0, hi = 1.0, q[3];
    place(x2, R2, ph->v + 3 * ph->edge_vert[2 * e], p0);
    place(x2, R2, ph->v + 3 * ph->edge_vert[2 * e + 1], p1);
    const double gr = 0.5 * (sqrt(5.0) - 1.0);
    for (int it = 0; it < 40; it++) {
      double t1 = hi - gr * (hi - lo), t2 = lo + gr * (hi - lo), q1[3], q2[3];
      for (int k = 0; k < 3; k++) {
        q1[k] = p0[k] + t1 * (p1[k] - p0[k]);
        q2[k] = p0[k] + t2 * (p1[k] - p0[k]);
      }
      if (f_at(s1, h, nu0, q1) <= f_at(s1, h, nu0, q2))
        hi = t2;
      else
        lo = t1;
    }
    for (int k = 0; k < 3; k++)
      q[k] = p0[k] + 0.5 * (lo + hi) * (p1[k] - p0[k]);
    argmin_add(&m, q, f_at(s1, h, nu0, q));
  }
  if (ph->nv <= VERTEX_MAX && !linear)
    for (int f = 0; f < ph->nf; f++) {
      double nw[3];
      for (int i = 0; i < 3; i++)
        nw[i] =
            R2[i * 3] * ph->fn[3 * f] + R2[i * 3 + 1] * ph->fn[3 * f + 1] + R2[i * 3 + 2] * ph->fn[3 * f + 2];
      const int *fv = ph->face_vert + ph->face_start[f];
      int nfv = ph->face_start[f + 1] - ph->face_start[f];
      if (nfv >= 3) face_minimum(s1, h, nu0, V, fv, nfv, nw, g2, ph->nf, s2, &m);
    }
  double best[3];
  for (int k = 0; k < 3; k++)
    best[k] = m.sum[k] / m.count;
  double fbest = f_at(s1, h, nu0, best);
  if (warm) { /* the previous a2 in body 2's frame (start pose), then in the world at the predicted pose */
    double x0[3], R0[9], u[3], q[3];
    side3_pose(s2, 0.0, nu0, x0, R0);
    for (int i = 0; i < 3; i++)
      u[i] = R0[i] * (a2[0] - x0[0]) + R0[3 + i] * (a2[1] - x0[1]) + R0[6 + i] * (a2[2] - x0[2]);
    place(x2, R2, u, q);
    if (f_at(s1, h, nu0, q) <= fbest + 1e-9 * fmax(1.0, fabs(fbest))) return;
  }
  struct side3_eval e, e1;
  side3_eval(s1, h, nu0, best, &e);
  double g2n = dot3(e.G, e.G), a1[3] = {best[0], best[1], best[2]};
  if (g2n > 0.0)
    for (int k = 0; k < 3; k++)
      a1[k] -= e.f / g2n * e.G[k];
  side3_eval(s1, h, nu0, a1, &e1);
  double d[3] = {best[0] - a1[0], best[1] - a1[1], best[2] - a1[2]};
  double g1 = sqrt(dot3(e1.G, e1.G)), gap = sqrt(dot3(d, d));
  memcpy(a1_out, a1, sizeof a1);
  memcpy(a2, best, sizeof best);
  *l1 = g1 > 0.0 && e.f > 0.0 ? gap / g1 : 0.0;
  /* faces active at a2, and the weights l2 with sum l2_j G2_j = -G1 */
  int act[ACTIVE_MAX], na = 0, align = 0;
  double G2[ACTIVE_MAX][3], walign = -INFINITY, w[ACTIVE_MAX];
  for (int q = 0; q < ph->nf; q++) {
    struct side3_eval e2;
    side3_eval_fn(s2, &g2[q], h, nu0, best, &e2);
    l2[q] = 0.0;
    double al = -dot3(e2.G, e1.G) / (sqrt(dot3(e2.G, e2.G)) * g1 + 1e-300);
    if (fabs(e2.f) < 1e-8 && na < ACTIVE_MAX) {
      act[na] = q;
      memcpy(G2[na], e2.G, sizeof G2[na]);
      na++;
    }
    if (al > walign) {
      walign = al;
      align = q;
    }
  }
  const double t[3] = {-e1.G[0], -e1.G[1], -e1.G[2]};
  if (na > 0 && cone_weights(na, (const double(*)[3])G2, t, w) < 1e-6 * (1.0 + g1)) {
    for (int j = 0; j < na; j++)
      l2[act[j]] = w[j];
    return;
  }
  struct side3_eval e2;
  side3_eval_fn(s2, &g2[align], h, nu0, best, &e2);
  double gn2 = sqrt(dot3(e2.G, e2.G));
  l2[align] = gn2 > 0.0 ? g1 / gn2 : 1.0;
}

/* See implicit_polyhedron.h. The frame is geometric_implicit.c's: n = -grad f(a1) / |grad f(a1)|, t the
 * unit projection of the world axis onto the plane normal to n, o = n x t. */
int implicit_polyhedron_impulses(const struct gi_side3 s[2], const double a1[3], const double a2[3],
                                 const double *nu0, const double *papp, const double *M, int ndof, double h,
                                 double mu, const double e[3], int axis, double *pn_out, double p[3],
                                 double *sigma)
{
  const double *a[2] = {a1, a2};
  struct side3_eval e1;
  side3_eval(&s[0], 0.0, nu0, a1, &e1);
  double g1 = sqrt(dot3(e1.G, e1.G));
  if (!(g1 > 0.0)) return 0;
  double n[3], vrel[3] = {0, 0, 0}, vfree[3] = {0, 0, 0}, wrel[3] = {0, 0, 0}, inv_m = 0.0;
  for (int k = 0; k < 3; k++)
    n[k] = -e1.G[k] / g1;
  for (int b = 0; b < 2; b++) {
    if (s[b].dof < 0) continue;
    const double sign = b == 0 ? 1.0 : -1.0, *v = nu0 + s[b].dof, *om = v + 3;
    const double m = M[(size_t)s[b].dof * ndof + s[b].dof];
    double r[3] = {a[b][0] - s[b].x0[0], a[b][1] - s[b].x0[1], a[b][2] - s[b].x0[2]};
    double wr[3] = {om[1] * r[2] - om[2] * r[1], om[2] * r[0] - om[0] * r[2], om[0] * r[1] - om[1] * r[0]};
    inv_m += 1.0 / m;
    for (int k = 0; k < 3; k++) {
      vrel[k] += sign * (v[k] + wr[k]);
      vfree[k] += sign * (v[k] + wr[k] + papp[s[b].dof + k] / m);
      wrel[k] += sign * om[k];
    }
  }
  if (!(inv_m > 0.0)) return 0;
  double gap = 0.0, vn = 0.0, vn0 = 0.0;
  for (int k = 0; k < 3; k++) {
    gap += n[k] * (a1[k] - a2[k]);
    vn += n[k] * vfree[k];
    vn0 += n[k] * vrel[k];
  }
  const double pn = fmax(0.0, -gap / h - vn) / inv_m;
  *pn_out = pn;
  double t[3], o[3], ne = n[axis], len = 0.0;
  for (int k = 0; k < 3; k++) {
    t[k] = (k == axis ? 1.0 : 0.0) - ne * n[k];
    len += t[k] * t[k];
  }
  if (!(pn > 0.0) || !(len > 1e-24)) return 0;
  for (int k = 0; k < 3; k++)
    t[k] /= sqrt(len);
  o[0] = n[1] * t[2] - n[2] * t[1], o[1] = n[2] * t[0] - n[0] * t[2], o[2] = n[0] * t[1] - n[1] * t[0];
  double vs[3] = {0, 0, 0}, sg = 0.0;
  for (int k = 0; k < 3; k++) {
    vs[0] += t[k] * (vrel[k] - vn0 * n[k]);
    vs[1] += o[k] * (vrel[k] - vn0 * n[k]);
    vs[2] += n[k] * wrel[k];
  }
  for (int k = 0; k < 3; k++)
    sg += e[k] * e[k] * vs[k] * vs[k];
  sg = sqrt(sg);
  if (!(sg > 1e-9)) return 0;
  *sigma = sg;
  for (int k = 0; k < 3; k++)
    p[k] = -e[k] * e[k] * mu * pn * vs[k] / sg;
  return 1;
}

int implicit_side3_body2_count(const struct world *w, int si)
{
  return w->shapes[si].kind == SHAPE_POLYHEDRON ? w->shapes[si].polyhedron->nf : 0;
}

int implicit_side3_body2(const struct world *w, int si, struct gi_side3 *s, struct convex_fn *g2, char *msg,
                         size_t len)
{
  if (w->shapes[si].kind != SHAPE_POLYHEDRON) return implicit_side3_init(w, si, s, msg, len) ? -1 : 0;
  implicit_side3_pose_init(w, si, s);
  memset(&s->fn, 0, sizeof s->fn);
  int m = w->shapes[si].polyhedron->nf;
  if (m > CONVEX_PART_MAX) {
    snprintf(msg, len, "shape %d: a polyhedron of %d faces (at most %d inequalities per part)", si, m,
             CONVEX_PART_MAX);
    return -1;
  }
  return implicit_polyhedron_halfspaces(w, si, g2, m, msg, len);
}
