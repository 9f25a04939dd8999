/* geometric_implicit.c — the geometrically implicit time-stepper of Chakraborty, Berard, Akella & Trinkle,
 * "A geometrically implicit time-stepping method for multibody systems with intermittent contact", Sec. 3-4:
 * the contact points are unknowns of the step, fixed by the KKT conditions of the distance problem, so the
 * geometry is not linearised. Per step one mixed NCP (eqs. (20)-(22) with the rows of Proposition 1):
 *   0 = -M (nu - nu^l) + W_n p_n + W_t p_t + p_app                (Newton-Euler, W's at l+1)
 *   0 = a1 - a2 + l1 grad f(a1)                                   (15)
 *   0 = grad f(a1) + l2 grad g(a2)                                (16)
 *   0 = e_t^2 mu p_n (W_t^T nu) + p_t sigma                       (21, friction; 2D: e_t only)
 *   0 <= l1 perp -f(a1) >= 0,  0 <= l2 perp -g(a2) >= 0           (17), (18)
 *   0 <= p_n perp f(a2) >= 0                                      (19)
 *   0 <= sigma perp mu^2 p_n^2 - p_t^2 / e_t^2 >= 0               (22, ellipsoidal friction)
 * with f, g the implicit functions of the two bodies (formulations/shapes/shape.h) evaluated at the poses
 * of the end of the step, q^{l+1} = q^l + h nu^{l+1} (backward Euler on positions, the stepper's own update).
 * For the unit disc on the plane these are exactly eqs. (41)-(47). W_n = [n; r x n], W_t = [t; r x t] with
 * r = a - x^{l+1} and n = grad g(a2) / |grad g(a2)| the outward normal of body 2 (towards body 1), t = (n_y,
 * -n_x). Unknowns z = [nu; per contact (a1, a2, p_t); per contact (l1, l2 (m of them), p_n, sigma)]: free
 * rows first, then complementarity rows, each stored SHIFTED by the initial guess (the previous step's answer
 * for the same pair of shapes, else the detected closest points), so that the stepper's z = 0 start is a warm
 * start: the unknowns are x = guess + z with lower bounds -guess on the complementarity part (a box MCP). The
 * Jacobian is analytic (tests/formulations/types/implicit/test_geometric_implicit.c checks it against finite
 * differences). Polygons (2D) are intersections of half-planes, Sec. 4.3: when body 2 is a polygon with
 * inequalities g_1 .. g_m, (16) becomes (29) G1(a1) + sum_j l2_j G2_j(a2) = 0 and (18) becomes (31), one
 * multiplier per edge (0 <= l2_j perp -g_j(a2) >= 0); body 1 stays a single function, so the active index k1
 * of (28)-(29) is known before the step, the case Sec. 7 says PATH-based implementations are restricted to.
 * The normal is then -G1(a1)/|G1| (body 2's normal cone at a vertex holds many), and the closest points are
 * guessed at the predicted pose (implicit_polygon.c). A polygon against a polygon would need k1 chosen within
 * the step (Remark 1) and is refused with a message. 3D worlds (spheres, superellipsoids, planes, and
 * polyhedra as intersections of half-spaces against one of those, Sec. 4.3; unit quaternions; e_t, e_o, e_r)
 * are assembled by geometric_implicit3d.c; two polyhedra in one contact are refused there. Options:
 * -geometric_implicit_et, _eo, _er (the friction ellipsoid, eq. (5)). */
#include "formulation.h"
#include "geometric_implicit3d.h"
#include "implicit.h"
#include "implicit_answers.h"
#include "implicit_contact2d.h"
#include "implicit_polygon.h"
#include "implicit_side.h"
#include "jacobian_add.h"
#include "shape.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define GI_FREE 5 /* a1 (2), a2 (2), p_t; then l1, l2_1 .. l2_m, p_n, sigma */

struct gi_contact {
  struct gi_side s[2]; /* s[0]: body 1 (f), s[1]: body 2 (g) */
  int sa, sb;          /* world shapes of body 1 and body 2 (the warm-start key) */
  double mu;
  int m2;      /* inequalities of body 2: 1 (disc, half-plane) or a polygon's edges (Sec. 4.3) */
  int g2;      /* with m2 > 1: where body 2's half-planes start in gi_data.pool */
  int comp;    /* where the contact's complementarity block (3 + m2 unknowns) starts in z */
  int swapped; /* body 1 is the detected contact's second shape */
};

struct gi_data {
  double et, eo, er;   /* options: e_t, e_o, e_r (e_o, e_r: 3D only) */
  struct gi3_data *d3; /* the 3D half */
  int ndof, nc, n;
  double h;
  double *M, *nu0, *papp, *guess;
  struct gi_contact *c;
  int cap_c, cap_n;
  struct convex_fn *pool; /* the polygons' half-planes of this step's contacts */
  int cap_pool;
  struct side_eval *e2; /* body 2's inequalities evaluated at a2 (room for the largest m2) */
  int cap_e2;
  struct implicit_answers prev; /* the last step's answers per pair: GI_FREE + 3 + m2 values each */
};

static const struct option_decl gi_options[] = {
    {"geometric_implicit_et", OPT_REAL, offsetof(struct gi_data, et), "1", "(0,inf)",
     "e_t: semi-axis of the friction ellipse (Sec. 3, eq. 5); 2D has no e_o, e_r"},
    {"geometric_implicit_eo", OPT_REAL, offsetof(struct gi_data, eo), "1", "(0,inf)",
     "e_o: second tangential semi-axis of the friction ellipsoid (eq. 5; 3D only)"},
    {"geometric_implicit_er", OPT_REAL, offsetof(struct gi_data, er), "1", "(0,inf)",
     "e_r: semi-axis of the frictional moment about the normal (eq. 5; 3D only)"},
};

static int gi_create(struct formulation *f)
{
  struct gi_data *d = calloc(1, sizeof *d);
  if (!d) return 1;
  d->prev.base = GI_FREE + 3;
  d->prev.m2_min = 1; /* body 2 has at least one inequality */
  f->data = d;
  return 0;
}

static void gi_destroy(struct formulation *f)
{
  struct gi_data *d = f->data;
  if (!d) return;
  free(d->M);
  free(d->nu0);
  free(d->papp);
  free(d->guess);
  free(d->c);
  free(d->pool);
  free(d->e2);
  implicit_answers_free(&d->prev);
  gi3_free(&d->d3);
  free(d);
  f->data = NULL;
}

/* ---- residual and Jacobian ---- */

/* l2 is the first of body 2's m2 multipliers */
static struct implicit_contact2d_index gi_index(const struct gi_data *d, int i)
{
  int fb = d->ndof + GI_FREE * i, cb = d->c[i].comp, m2 = d->c[i].m2;
  return (struct implicit_contact2d_index){fb, fb + 2, fb + 4, cb, cb + 1, cb + 1 + m2, cb + 2 + m2};
}

/* F (and J, dense row-major, when not NULL) at the unknowns x = guess + z; each contact's rows are
 * implicit_contact2d.c's. */
static int gi_eval(struct gi_data *d, const double *z, double *F, double *J)
{
  int n = d->n, nd = d->ndof;
  double h = d->h;
  double *x = calloc((size_t)n, sizeof *x); /* zeroed: the analyser cannot see n covers every index */
  if (!x) return 1;
  for (int i = 0; i < n; i++)
    x[i] = d->guess[i] + z[i];
  const double *nu = x;
  if (J) memset(J, 0, (size_t)n * n * sizeof *J);
  /* Newton-Euler: -M (nu - nu^l) + p_app */
  for (int r = 0; r < nd; r++) {
    double s = d->papp[r];
    for (int c = 0; c < nd; c++) {
      s -= d->M[(size_t)r * nd + c] * (nu[c] - d->nu0[c]);
      jac_add(J, n, r, c, -d->M[(size_t)r * nd + c]);
    }
    F[r] = s;
  }
  double et2 = d->et * d->et;
  for (int i = 0; i < d->nc; i++) {
    const struct gi_contact *ct = &d->c[i];
    const struct convex_fn *g2 = ct->m2 > 1 ? d->pool + ct->g2 : NULL;
    if (implicit_contact2d_eval(ct->s, g2, ct->m2, ct->mu, et2, 0.0, h, x, gi_index(d, i), d->e2, F, J, n)) {
      free(x);
      return 1;
    }
  }
  free(x);
  for (int i = 0; i < n; i++)
    if (!isfinite(F[i])) return 1;
  return 0;
}

static int gi_F(void *ctx, const double *z, double *F) { return gi_eval(ctx, z, F, NULL); }

static int gi_J(void *ctx, const double *z, double *J)
{
  struct gi_data *d = ctx;
  double *F = calloc((size_t)d->n, sizeof *F);
  if (!F) return 1;
  int rc = gi_eval(d, z, F, J);
  free(F);
  return rc;
}

/* ---- world -> implicit functions, detection, assembly, recovery ---- */

static int gi_detect(struct formulation *f, const struct world *w, double h, struct contact_set *cs)
{
  (void)h;
  return implicit_detect_pairs(w, f->threshold >= 0.0 ? f->threshold : w->threshold, cs);
}

static int gi_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       struct cp_problem **out)
{
  struct gi_data *d = f->data;
  *out = NULL;
  if (w->dim == 3) {
    const double e[3] = {d->et, d->eo, d->er};
    return gi3_assemble(f, &d->d3, e, w, cs, h, out);
  }
  int nd = w->ndof, nc = cs->n;
  if (nc > d->cap_c) {
    struct gi_contact *c = realloc(d->c, (size_t)nc * sizeof *c);
    if (!c) return formulation_fail(f, "out of memory");
    d->c = c;
    d->cap_c = nc;
  }
  /* pass 1: which body carries the single function f (body 1), body 2's inequalities, the layout */
  int n = nd + GI_FREE * nc, npool = 0;
  char msg[200];
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    struct gi_contact *ct = &d->c[i];
    int poly_a = w->shapes[c->sa].kind == SHAPE_POLYGON, poly_b = w->shapes[c->sb].kind == SHAPE_POLYGON;
    if (poly_a && poly_b)
      return formulation_fail(f,
                              "shapes %d and %d are both polygons: Sec. 4.3's rows need one "
                              "body given by a single function (the active index k1 of eq. (29) known before "
                              "the step, Sec. 7); use a disc, a half-plane or another formulation",
                              c->sa, c->sb);
    /* body 1 carries f (evaluated at a2 in (19)): the single function, bounded when there is a choice */
    int swap = poly_a || (!poly_b && w->shapes[c->sa].kind == SHAPE_HALFPLANE);
    ct->swapped = swap;
    int sh[2] = {swap ? c->sb : c->sa, swap ? c->sa : c->sb};
    if (implicit_side_init(w, sh[0], &ct->s[0], msg, sizeof msg)) return formulation_fail(f, "%s", msg);
    /* body 2: a polygon's edges, or one function */
    if (implicit_side_body2_pool(w, sh[1], &ct->s[1], &d->pool, &d->cap_pool, &npool, &ct->m2, &ct->g2, msg,
                                 sizeof msg))
      return formulation_fail(f, "%s", msg);
    ct->sa = sh[0];
    ct->sb = sh[1];
    ct->mu = c->mu;
    ct->comp = n;
    n += 3 + ct->m2;
    if (implicit_grow((void **)&d->e2, &d->cap_e2, ct->m2, sizeof *d->e2))
      return formulation_fail(f, "out of memory");
  }
  if (implicit_step_start(w, h, n, &d->M, &d->nu0, &d->papp, &d->guess))
    return formulation_fail(f, "out of memory");
  d->ndof = nd;
  d->nc = nc;
  d->n = n;
  d->h = h;
  /* pass 2: the initial guess, from the previous step's answer for the same pair, else the detection */
  int other = 0;
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    struct gi_contact *ct = &d->c[i];
    struct implicit_contact2d_index ix = gi_index(d, i);
    int m2 = ct->m2, ncomp = 3 + m2;
    other += 5 + m2; /* a1, a2, l1, l2_1 .. l2_m */
    const struct implicit_answer *pv = implicit_answers_find(&d->prev, ct->sa, ct->sb);
    if (pv && pv->m2 == m2) {
      memcpy(d->guess + ix.a1, d->prev.val + pv->at, GI_FREE * sizeof(double));
      memcpy(d->guess + ix.l1, d->prev.val + pv->at + GI_FREE, (size_t)ncomp * sizeof(double));
      if (m2 > 1)
        implicit_polygon_guess(&ct->s[0], &ct->s[1], w->shapes[ct->sb].polygon, d->pool + ct->g2, h, d->nu0,
                               1, d->guess + ix.a1, d->guess + ix.a2, d->guess + ix.l1, d->guess + ix.l2);
      continue;
    }
    if (m2 > 1) {
      implicit_polygon_guess(&ct->s[0], &ct->s[1], w->shapes[ct->sb].polygon, d->pool + ct->g2, h, d->nu0, 0,
                             d->guess + ix.a1, d->guess + ix.a2, d->guess + ix.l1, d->guess + ix.l2);
      d->guess[ix.pt] = d->guess[ix.pn] = d->guess[ix.sg] = 0.0;
      continue;
    }
    /* first step of this pair: the detected closest points, l1 = gap / |grad f|, and on body 2 the most
     * nearly active inequality j gets l2_j = |grad f| / |grad g_j|, the others 0 */
    int swap = ct->swapped;
    const double *pt[2] = {swap ? c->pb : c->pa, swap ? c->pa : c->pb};
    struct side_eval e1, e2;
    memcpy(d->guess + ix.a1, pt[0], 2 * sizeof(double));
    memcpy(d->guess + ix.a2, pt[1], 2 * sizeof(double));
    side_eval(&ct->s[0], 0.0, d->nu0, pt[0], &e1);
    int best = 0;
    double fbest = -INFINITY, g1 = hypot(e1.G[0], e1.G[1]), g2 = 1.0;
    for (int q = 0; q < m2; q++) {
      if (m2 == 1)
        side_eval(&ct->s[1], 0.0, d->nu0, pt[1], &e2);
      else
        side_eval_fn(&ct->s[1], &d->pool[ct->g2 + q], 0.0, d->nu0, pt[1], &e2);
      d->guess[ix.l2 + q] = 0.0;
      if (e2.f > fbest) {
        fbest = e2.f;
        best = q;
        g2 = hypot(e2.G[0], e2.G[1]);
      }
    }
    d->guess[ix.pt] = 0.0;
    d->guess[ix.l1] = g1 > 0 ? fmax(c->gap, 0.0) / g1 : 0.0;
    d->guess[ix.l2 + best] = g2 > 0 ? g1 / g2 : 1.0;
    d->guess[ix.pn] = 0.0;
    d->guess[ix.sg] = 0.0;
  }
  struct cp_problem *p = cp_ncp_create(n, gi_F, gi_J, d);
  if (!p) return formulation_fail(f, "out of memory");
  int nfree = nd + GI_FREE * nc;
  for (int i = 0; i < n; i++) {
    p->lo[i] = i < nfree ? -INFINITY : -d->guess[i];
    p->hi[i] = INFINITY;
  }
  snprintf(p->name, sizeof p->name, "geometric_implicit nc=%d (z shifted by the warm start)", nc);
  f->rows = (struct row_counts){
      .normal = nc, .friction = nc, .slack = nc, .velocity = nd, .other = other, .total = n};
  *out = p;
  return 0;
}

static int gi_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                      const double *z, double *nu, double *pn)
{
  struct gi_data *d = f->data;
  (void)h;
  (void)cs;
  if (w->dim == 3) return gi3_recover(f, d->d3, w, z, nu, pn);
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->guess[i] + z[i];
  int total = 0;
  for (int i = 0; i < d->nc; i++)
    total += GI_FREE + 3 + d->c[i].m2;
  if (implicit_answers_reserve(&d->prev, d->nc > 0 ? d->nc : 1, total > 0 ? total : 1))
    return formulation_fail(f, "out of memory");
  d->prev.n = d->nc;
  for (int i = 0, at = 0; i < d->nc; i++) {
    struct implicit_contact2d_index ix = gi_index(d, i);
    struct implicit_answer *pv = &d->prev.a[i];
    pv->sa = d->c[i].sa;
    pv->sb = d->c[i].sb;
    pv->m2 = d->c[i].m2;
    pv->at = at;
    double *blk = d->prev.val + at;
    for (int k = 0; k < GI_FREE; k++)
      blk[k] = d->guess[ix.a1 + k] + z[ix.a1 + k];
    for (int k = 0; k < 3 + pv->m2; k++)
      blk[GI_FREE + k] = d->guess[ix.l1 + k] + z[ix.l1 + k];
    at += GI_FREE + 3 + pv->m2;
    pn[i] = d->guess[ix.pn] + z[ix.pn];
  }
  return 0;
}

/* The carried state (formulation.h carry_get): [0 (2D) | 1 (3D); 2D: implicit_answers_export's; 3D:
 * gi3_carry_get's], the previous step's answers that shift the unknowns. */
static int gi_carry_get(const struct formulation *f, double *buf, int cap)
{
  const struct gi_data *d = f->data;
  int need = 1 + (d->d3 ? gi3_carry_get(d->d3, NULL, 0) : implicit_answers_export(&d->prev, NULL, 0));
  if (need > cap) return need;
  buf[0] = d->d3 ? 1 : 0;
  if (d->d3)
    gi3_carry_get(d->d3, buf + 1, cap - 1);
  else
    implicit_answers_export(&d->prev, buf + 1, cap - 1);
  return need;
}

static int gi_carry_set(struct formulation *f, const double *buf, int n)
{
  struct gi_data *d = f->data;
  if (n >= 1 && buf[0] == 1.0) return gi3_carry_set(f, &d->d3, buf + 1, n - 1);
  if (n < 1 || buf[0] != 0.0) return formulation_fail(f, "carried state: neither 2D nor 3D");
  char msg[128];
  if (implicit_answers_import(&d->prev, buf + 1, n - 1, msg, sizeof msg))
    return formulation_fail(f, "%s", msg);
  return 0;
}

static void gi_view(const struct formulation *f, FILE *out)
{
  const struct gi_data *d = f->data;
  fprintf(out,
          "  friction ellipsoid e_t %g, e_o %g, e_r %g (3D); 2D discs, half-planes and polygons (not two "
          "polygons in one contact), 3D spheres, superellipsoids, planes and polyhedra (not two in one "
          "contact)\n",
          d->et, d->eo, d->er);
}

int geometric_implicit_results(const struct formulation *f, int i, struct gi3_contact_result *out)
{
  if (!f || !f->type || strcmp(f->type->name, "geometric_implicit") != 0 || !f->data) return 0;
  const struct gi_data *d = f->data;
  return gi3_results(d->d3, i, out);
}

const struct formulation_type formulation_type_geometric_implicit = {
    .name = "geometric_implicit",
    .summary = "mixed NCP with the closest points as unknowns (no linearised geometry); discs/half-planes/"
               "polygons (one side a single function), spheres/planes",
    .paper = "Chakraborty, Berard, Akella & Trinkle, geometrically implicit time-stepping, eqs. (15)-(22), "
             "(28)-(32), (41)-(47)",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_HALFPLANE | SHAPE_POLYGON | SHAPE_SPHERE | SHAPE_PLANE | SHAPE_SUPERELLIPSE |
              SHAPE_SUPERELLIPSOID | SHAPE_POLYHEDRON,
    .joints = 0,
    .options = gi_options,
    .n_options = 3,
    .create = gi_create,
    .assemble = gi_assemble,
    .recover = gi_recover,
    .detect = gi_detect,
    .carry_get = gi_carry_get,
    .carry_set = gi_carry_set,
    .destroy = gi_destroy,
    .view = gi_view,
};
