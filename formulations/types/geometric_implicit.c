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
 * Jacobian is analytic (tests/test_geometric_implicit.c checks it against finite differences). Polygons (2D)
 * are intersections of half-planes, Sec. 4.3: when body 2 is a polygon with inequalities g_1 .. g_m, (16)
 * becomes (29) G1(a1) + sum_j l2_j G2_j(a2) = 0 and (18) becomes (31), one multiplier per edge (0 <= l2_j
 * perp -g_j(a2) >= 0); body 1 stays a single function, so the active index k1 of (28)-(29) is known before
 * the step, the case Sec. 7 says PATH-based implementations are restricted to. The normal is then
 * -G1(a1)/|G1| (body 2's normal cone at a vertex holds many), and the closest points are guessed at the
 * predicted pose (implicit_polygon.c). A polygon against a polygon would need k1 chosen within the step
 * (Remark 1) and is refused with a message. 3D worlds (spheres, planes; unit quaternions; e_t, e_o, e_r) are
 * assembled by geometric_implicit3d.c; polyhedra are refused there. Options: -geometric_implicit_et, _eo,
 * _er (the friction ellipsoid, eq. (5)). */
#include "formulation.h"
#include "geometric_implicit3d.h"
#include "implicit_answers.h"
#include "implicit_polygon.h"
#include "implicit_side.h"
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

struct gi_idx {
  int a1, a2, pt, l1, l2, pn, sg;
};

/* l2 is the first of body 2's m2 multipliers */
static struct gi_idx gi_index(const struct gi_data *d, int i)
{
  int fb = d->ndof + GI_FREE * i, cb = d->c[i].comp, m2 = d->c[i].m2;
  return (struct gi_idx){fb, fb + 2, fb + 4, cb, cb + 1, cb + 1 + m2, cb + 2 + m2};
}

/* J[row, dof(side) + k] += h v[k] (a derivative with respect to the side's pose, chained to nu). */
static void add_pose(double *J, int n, int row, const struct gi_side *s, double h, const double *v,
                     double scale)
{
  if (!J || s->dof < 0) return;
  for (int k = 0; k < 3; k++)
    J[(size_t)row * n + s->dof + k] += scale * h * v[k];
}

static void add(double *J, int n, int row, int col, double v)
{
  if (J) J[(size_t)row * n + col] += v;
}

/* F (and J, dense row-major, when not NULL) at the unknowns x = guess + z. */
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
      add(J, n, r, c, -d->M[(size_t)r * nd + c]);
    }
    F[r] = s;
  }
  double et2 = d->et * d->et;
  for (int i = 0; i < d->nc; i++) {
    const struct gi_contact *ct = &d->c[i];
    const struct gi_side *s1 = &ct->s[0], *s2 = &ct->s[1];
    struct gi_idx ix = gi_index(d, i);
    const double *a1 = x + ix.a1, *a2 = x + ix.a2;
    double pt = x[ix.pt], l1 = x[ix.l1], pn = x[ix.pn], sg = x[ix.sg], mu = ct->mu;
    int m2 = ct->m2;
    const double *l2 = x + ix.l2;
    struct side_eval e1, *e2 = d->e2, e12;
    side_eval(s1, h, nu, a1, &e1);
    for (int j = 0; j < m2; j++)
      if (m2 == 1)
        side_eval(s2, h, nu, a2, &e2[0]);
      else
        side_eval_fn(s2, &d->pool[ct->g2 + j], h, nu, a2, &e2[j]);
    side_eval(s1, h, nu, a2, &e12);
    /* (15) = (28): a1 - a2 + l1 G1(a1) */
    for (int k = 0; k < 2; k++) {
      int row = ix.a1 + k;
      F[row] = a1[k] - a2[k] + l1 * e1.G[k];
      add(J, n, row, ix.a1 + k, 1.0);
      add(J, n, row, ix.a2 + k, -1.0);
      for (int j = 0; j < 2; j++)
        add(J, n, row, ix.a1 + j, l1 * e1.Hw[k * 2 + j]);
      add(J, n, row, ix.l1, e1.G[k]);
      add_pose(J, n, row, s1, h, e1.dGdq + 3 * k, l1);
    }
    /* (16) = (29): G1(a1) + sum_j l2_j G2_j(a2) */
    for (int k = 0; k < 2; k++) {
      int row = ix.a1 + 2 + k;
      F[row] = e1.G[k];
      for (int j = 0; j < 2; j++)
        add(J, n, row, ix.a1 + j, e1.Hw[k * 2 + j]);
      add_pose(J, n, row, s1, h, e1.dGdq + 3 * k, 1.0);
      for (int q = 0; q < m2; q++) {
        F[row] += l2[q] * e2[q].G[k];
        for (int j = 0; j < 2; j++)
          add(J, n, row, ix.a2 + j, l2[q] * e2[q].Hw[k * 2 + j]);
        add(J, n, row, ix.l2 + q, e2[q].G[k]);
        add_pose(J, n, row, s2, h, e2[q].dGdq + 3 * k, l2[q]);
      }
    }
    /* normal n (towards body 1) and tangent t = (n_y, -n_x), with their derivatives in the point and the
     * pose of the side they come from: G2(a2) / |G2| when body 2 is one function, else -G1(a1) / |G1| (body
     * 2's normal cone at a vertex holds many; by (29) -G1 is the common normal) */
    const struct side_eval *en = m2 == 1 ? &e2[0] : &e1;
    const struct gi_side *sn = m2 == 1 ? s2 : s1;
    int ian = m2 == 1 ? ix.a2 : ix.a1;
    double nsg = m2 == 1 ? 1.0 : -1.0;
    double gn = hypot(en->G[0], en->G[1]);
    if (!(gn > 0.0)) {
      free(x);
      return 1;
    }
    double nv[2] = {nsg * en->G[0] / gn, nsg * en->G[1] / gn}, tv[2] = {nv[1], -nv[0]};
    double P[4] = {nsg * (1 - nv[0] * nv[0]) / gn, -nsg * nv[0] * nv[1] / gn, -nsg * nv[0] * nv[1] / gn,
                   nsg * (1 - nv[1] * nv[1]) / gn};
    double dn_a[4], dn_q[6], dt_a[4], dt_q[6];
    for (int k = 0; k < 2; k++) {
      for (int j = 0; j < 2; j++)
        dn_a[k * 2 + j] = P[k * 2] * en->Hw[j] + P[k * 2 + 1] * en->Hw[2 + j];
      for (int j = 0; j < 3; j++)
        dn_q[k * 3 + j] = P[k * 2] * en->dGdq[j] + P[k * 2 + 1] * en->dGdq[3 + j];
    }
    for (int j = 0; j < 2; j++) {
      dt_a[j] = dn_a[2 + j];
      dt_a[2 + j] = -dn_a[j];
    }
    for (int j = 0; j < 3; j++) {
      dt_q[j] = dn_q[3 + j];
      dt_q[3 + j] = -dn_q[j];
    }
    /* relative velocity of the contact points w = v1 + w1 S r1 - v2 - w2 S r2; v_t = t . w */
    double w1 = s1->dof >= 0 ? nu[s1->dof + 2] : 0.0, w2 = s2->dof >= 0 ? nu[s2->dof + 2] : 0.0;
    const double *r2 = e2[0].r; /* a2 - x2, the same for every inequality of body 2 */
    double wr[2] = {-w1 * e1.r[1] + w2 * r2[1], w1 * e1.r[0] - w2 * r2[0]};
    if (s1->dof >= 0) wr[0] += nu[s1->dof], wr[1] += nu[s1->dof + 1];
    if (s2->dof >= 0) wr[0] -= nu[s2->dof], wr[1] -= nu[s2->dof + 1];
    double vt = tv[0] * wr[0] + tv[1] * wr[1];
    /* friction (21): e_t^2 mu p_n v_t + p_t sigma */
    {
      int row = ix.pt;
      double c0 = et2 * mu;
      F[row] = c0 * pn * vt + pt * sg;
      add(J, n, row, ix.pn, c0 * vt);
      add(J, n, row, ix.pt, sg);
      add(J, n, row, ix.sg, pt);
      double k0 = c0 * pn;
      /* through t: dv_t = dt . w */
      for (int j = 0; j < 2; j++)
        add(J, n, row, ian + j, k0 * (dt_a[j] * wr[0] + dt_a[2 + j] * wr[1]));
      double tq[3];
      for (int j = 0; j < 3; j++)
        tq[j] = dt_q[j] * wr[0] + dt_q[3 + j] * wr[1];
      add_pose(J, n, row, sn, h, tq, k0);
      /* through w: t . S = (t_y, -t_x) applied to d r */
      double tS[2] = {tv[1], -tv[0]};
      if (s1->dof >= 0) {
        add(J, n, row, s1->dof, k0 * (tv[0] - h * w1 * tS[0]));
        add(J, n, row, s1->dof + 1, k0 * (tv[1] - h * w1 * tS[1]));
        add(J, n, row, s1->dof + 2, k0 * (tv[1] * e1.r[0] - tv[0] * e1.r[1]));
      }
      if (s2->dof >= 0) {
        add(J, n, row, s2->dof, k0 * (-tv[0] + h * w2 * tS[0]));
        add(J, n, row, s2->dof + 1, k0 * (-tv[1] + h * w2 * tS[1]));
        add(J, n, row, s2->dof + 2, -k0 * (tv[1] * r2[0] - tv[0] * r2[1]));
      }
      for (int j = 0; j < 2; j++) {
        add(J, n, row, ix.a1 + j, k0 * w1 * tS[j]);
        add(J, n, row, ix.a2 + j, -k0 * w2 * tS[j]);
      }
    }
    /* Newton-Euler: body 1 gets Fv = n p_n + t p_t at a1, body 2 gets -Fv at a2 */
    double Fv[2] = {nv[0] * pn + tv[0] * pt, nv[1] * pn + tv[1] * pt};
    double dF_a[4], dF_q[6];
    for (int k = 0; k < 4; k++)
      dF_a[k] = pn * dn_a[k] + pt * dt_a[k];
    for (int k = 0; k < 6; k++)
      dF_q[k] = pn * dn_q[k] + pt * dt_q[k];
    for (int side = 0; side < 2; side++) {
      const struct gi_side *s = &ct->s[side];
      if (s->dof < 0) continue;
      double sign = side == 0 ? 1.0 : -1.0;
      const double *r = side == 0 ? e1.r : r2;
      int ia = side == 0 ? ix.a1 : ix.a2;
      int o = s->dof;
      /* force rows */
      for (int k = 0; k < 2; k++) {
        F[o + k] += sign * Fv[k];
        add(J, n, o + k, ix.pn, sign * nv[k]);
        add(J, n, o + k, ix.pt, sign * tv[k]);
        for (int j = 0; j < 2; j++)
          add(J, n, o + k, ian + j, sign * dF_a[k * 2 + j]);
        add_pose(J, n, o + k, sn, h, dF_q + 3 * k, sign);
      }
      /* torque row: sign (r x Fv), r = a - x(nu) */
      F[o + 2] += sign * (r[0] * Fv[1] - r[1] * Fv[0]);
      double dr[2] = {Fv[1], -Fv[0]}; /* d(r x F)/dr */
      double dFv[2] = {-r[1], r[0]};  /* d(r x F)/dF */
      for (int j = 0; j < 2; j++) {
        add(J, n, o + 2, ia + j, sign * dr[j]);
        add(J, n, o + 2, o + j, -sign * h * dr[j]);
      }
      add(J, n, o + 2, ix.pn, sign * (dFv[0] * nv[0] + dFv[1] * nv[1]));
      add(J, n, o + 2, ix.pt, sign * (dFv[0] * tv[0] + dFv[1] * tv[1]));
      for (int j = 0; j < 2; j++)
        add(J, n, o + 2, ian + j, sign * (dFv[0] * dF_a[j] + dFv[1] * dF_a[2 + j]));
      double tq[3];
      for (int j = 0; j < 3; j++)
        tq[j] = dFv[0] * dF_q[j] + dFv[1] * dF_q[3 + j];
      add_pose(J, n, o + 2, sn, h, tq, sign);
    }
    /* complementarity rows */
    F[ix.l1] = -e1.f;
    for (int q = 0; q < m2; q++) { /* (18) = (31) */
      F[ix.l2 + q] = -e2[q].f;
      for (int j = 0; j < 2; j++)
        add(J, n, ix.l2 + q, ix.a2 + j, -e2[q].G[j]);
      add_pose(J, n, ix.l2 + q, s2, h, e2[q].dfdq, -1.0);
    }
    F[ix.pn] = e12.f;
    F[ix.sg] = mu * mu * pn * pn - pt * pt / et2;
    for (int j = 0; j < 2; j++) {
      add(J, n, ix.l1, ix.a1 + j, -e1.G[j]);
      add(J, n, ix.pn, ix.a2 + j, e12.G[j]);
    }
    add_pose(J, n, ix.l1, s1, h, e1.dfdq, -1.0);
    add_pose(J, n, ix.pn, s1, h, e12.dfdq, 1.0);
    add(J, n, ix.sg, ix.pn, 2.0 * mu * mu * pn);
    add(J, n, ix.sg, ix.pt, -2.0 * pt / et2);
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
    if (w->shapes[sh[1]].kind == SHAPE_POLYGON) {
      implicit_side_pose_init(w, sh[1], &ct->s[1]);
      int m = w->shapes[sh[1]].polygon->n;
      if (npool + m > d->cap_pool) {
        int cap = 2 * (npool + m);
        struct convex_fn *pool = realloc(d->pool, (size_t)cap * sizeof *pool);
        if (!pool) return formulation_fail(f, "out of memory");
        d->pool = pool;
        d->cap_pool = cap;
      }
      if (implicit_polygon_halfplanes(w, sh[1], d->pool + npool, m, msg, sizeof msg) < 0)
        return formulation_fail(f, "%s", msg);
      ct->m2 = m;
      ct->g2 = npool;
      npool += m;
    } else {
      if (implicit_side_init(w, sh[1], &ct->s[1], msg, sizeof msg)) return formulation_fail(f, "%s", msg);
      ct->m2 = 1;
      ct->g2 = -1;
    }
    ct->sa = sh[0];
    ct->sb = sh[1];
    ct->mu = c->mu;
    ct->comp = n;
    n += 3 + ct->m2;
    if (ct->m2 > d->cap_e2) {
      struct side_eval *e2 = realloc(d->e2, (size_t)ct->m2 * sizeof *e2);
      if (!e2) return formulation_fail(f, "out of memory");
      d->e2 = e2;
      d->cap_e2 = ct->m2;
    }
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
    struct gi_idx ix = gi_index(d, i);
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
    struct gi_idx ix = gi_index(d, i);
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
          "polygons in one contact), 3D spheres and planes\n",
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
              SHAPE_SUPERELLIPSOID,
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
