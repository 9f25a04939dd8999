/* geometric_implicit3d.c — the geometrically implicit time-stepper in 3D (Chakraborty, Berard, Akella &
 * Trinkle, "A geometrically implicit time-stepping method for multibody systems with intermittent contact",
 * Sec. 3 eqs. (5)-(7) and Sec. 4.2 eqs. (21)-(22) with the rows (15)-(19) of Proposition 1). Per contact the
 * unknowns are a1, a2 (3 each), p_t, p_o, p_r (free) and l1, l2, p_n, sigma (complementarity): 13, as in
 * Sec. 6.2 ("6 velocity variables and 13 variables for each contact"). Rows:
 *   0 = -M (nu - nu^l) + sum W_n p_n + W_t p_t + W_o p_o + W_r p_r + p_app          (Newton-Euler, W at l+1)
 *   0 = a1 - a2 + l1 grad f(a1),   0 = grad f(a1) + l2 grad g(a2)                    (15), (16)
 *   0 = e_t^2 mu p_n W_t^T nu + p_t sigma  (and o, r)                                (21)
 *   0 <= (l1, l2, p_n, sigma) perp (-f(a1), -g(a2), f(a2), zeta) >= 0                (22)
 *   zeta = mu^2 p_n^2 - p_t^2/e_t^2 - p_o^2/e_o^2 - p_r^2/e_r^2                      (ellipsoidal friction)
 * f, g are evaluated at the end-of-step poses: x^{l+1} = x^l + h v, q^{l+1} = q^l + h G(q^l) omega
 * renormalised (implicit_side3.h), the world's own update. The contact frame: n = grad g(a2) / |grad g(a2)|
 * (body 2 -> body 1), t = the unit projection of a fixed axis e onto the plane normal to n (e chosen once
 * per pair, the world axis least aligned with the first normal, and kept while the pair persists, so the
 * frame varies smoothly), o = n x t. Body 1 receives F = n p_n + t p_t + o p_o at a1 and the moment n p_r;
 * body 2 the opposite at a2. W_t^T nu = t . (v1 + w1 x r1 - v2 - w2 x r2), W_r^T nu = n . (w1 - w2).
 * The Jacobian is analytic: every geometric quantity carries its derivative in the contact's 18 local
 * variables (a1, a2, nu of body 1, nu of body 2), then is scattered into the global Jacobian
 * (tests/formulations/types/implicit/test_geometric_implicit.c checks it against finite differences). Warm
 * start as in 2D: the stored unknowns are shifted by the previous step's answer for the same pair (else the
 * detected closest points). */
#include "geometric_implicit3d.h"

#include "implicit_dv.h"
#include "implicit_friction3.h"
#include "implicit_polyhedron.h"
#include "implicit_side.h"
#include "implicit_side3.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define G3_FREE 9 /* a1 (3), a2 (3), p_t, p_o, p_r */
#define G3_COMP 4 /* l1, l2, p_n, sigma when body 2 is one function; l1, l2_1 .. l2_m2, p_n, sigma else */

struct g3_contact {
  struct gi_side3 s[2]; /* s[0]: body 1 (f, one function), s[1]: body 2 (g, or a polyhedron's faces) */
  int sa, sb, axis;
  double mu;
  int m2;   /* inequalities of body 2: 1, or a polyhedron's faces (Sec. 4.3) */
  int g2;   /* with m2 > 1: where body 2's half-spaces start in gi3_data.pool */
  int comp; /* where the contact's complementarity block (3 + m2 unknowns) starts */
};

struct g3_prev {
  int sa, sb, axis, m2;
  double blk[G3_FREE + 3 + CONVEX_PART_MAX]; /* the free block, then the complementarity block */
};

struct gi3_data {
  double e[3]; /* e_t, e_o, e_r */
  int ndof, nc, n;
  double h;
  double *M, *nu0, *papp, *guess;
  struct g3_contact *c;
  int cap_c;
  struct convex_fn *pool; /* the polyhedra's half-spaces of this step's contacts */
  int cap_pool;
  struct side3_eval *e2; /* body 2's inequalities at a2 (room for the largest m2) */
  int cap_e2;
  struct g3_prev *prev;
  int nprev, cap_prev;
};

struct g3_idx {
  int a1, a2, pt, po, pr, l1, l2, pn, sg;
};

/* l2 is the first of body 2's m2 multipliers */
static struct g3_idx g3_index(const struct gi3_data *d, int i)
{
  int fb = d->ndof + G3_FREE * i, cb = d->c[i].comp, m2 = d->c[i].m2;
  return (struct g3_idx){fb, fb + 3, fb + 6, fb + 7, fb + 8, cb, cb + 1, cb + 1 + m2, cb + 2 + m2};
}

/* grad of a side's inequality at its point, with its derivative in the local variables (point slot, body
 * slot) */
static void grad_dv(const struct side3_eval *e, int point, int body, struct dv *G)
{
  memset(G, 0, sizeof *G);
  for (int k = 0; k < 3; k++) {
    G->v[k] = e->G[k];
    for (int j = 0; j < 3; j++)
      G->d[k][3 * point + j] = e->Hw[k * 3 + j];
    for (int j = 0; j < 6; j++)
      G->d[k][6 + 6 * body + j] = e->dGdn[k * 6 + j];
  }
}

/* One contact's rows of F (and J): see the header comment. */
static int g3_contact_eval(const struct gi3_data *d, int i, const double *x, double *F, double *J)
{
  int n = d->n;
  double h = d->h;
  const struct g3_contact *ct = &d->c[i];
  const struct gi_side3 *s1 = &ct->s[0], *s2 = &ct->s[1];
  struct g3_idx ix = g3_index(d, i);
  const double *a1 = x + ix.a1, *a2 = x + ix.a2, *nu = x;
  double pt = x[ix.pt], po = x[ix.po], pr = x[ix.pr], l1 = x[ix.l1], pn = x[ix.pn];
  double sg = x[ix.sg], mu = ct->mu;
  const double *l2 = x + ix.l2;
  const int m2 = ct->m2;
  const struct convex_fn *g2 = m2 > 1 ? d->pool + ct->g2 : NULL;
  int cols[NL];
  for (int k = 0; k < 3; k++) {
    cols[k] = ix.a1 + k;
    cols[3 + k] = ix.a2 + k;
  }
  for (int k = 0; k < 6; k++) {
    cols[6 + k] = s1->dof >= 0 ? s1->dof + k : -1;
    cols[12 + k] = s2->dof >= 0 ? s2->dof + k : -1;
  }
  struct side3_eval e1, e12, *e2 = d->e2; /* e2[q]: body 2's inequality q at a2 */
  side3_eval(s1, h, nu, a1, &e1);
  for (int q = 0; q < m2; q++)
    if (m2 == 1)
      side3_eval(s2, h, nu, a2, &e2[0]);
    else
      side3_eval_fn(s2, &g2[q], h, nu, a2, &e2[q]);
  side3_eval(s1, h, nu, a2, &e12);
  /* G1(a1, nu1), G2_q(a2, nu2) as local-derivative vectors */
  struct dv G1, G2;
  grad_dv(&e1, 0, 0, &G1);
  /* (15): a1 - a2 + l1 G1 */
  for (int k = 0; k < 3; k++) {
    int row = ix.a1 + k;
    F[row] = a1[k] - a2[k] + l1 * G1.v[k];
    jac_add(J, n, row, ix.a1 + k, 1.0);
    jac_add(J, n, row, ix.a2 + k, -1.0);
    scatter(J, n, row, cols, G1.d[k], l1);
    jac_add(J, n, row, ix.l1, G1.v[k]);
  }
  /* (16) = (29): G1 + sum_q l2_q G2_q */
  for (int k = 0; k < 3; k++) {
    int row = ix.a2 + k;
    F[row] = G1.v[k];
    scatter(J, n, row, cols, G1.d[k], 1.0);
  }
  for (int q = 0; q < m2; q++) {
    grad_dv(&e2[q], 1, 1, &G2);
    for (int k = 0; k < 3; k++) {
      int row = ix.a2 + k;
      F[row] += l2[q] * G2.v[k];
      scatter(J, n, row, cols, G2.d[k], l2[q]);
      jac_add(J, n, row, ix.l2 + q, G2.v[k]);
    }
  }
  /* the normal's direction: G2(a2) when body 2 is one function, else -G1(a1) (body 2's normal cone at an
   * edge or vertex holds many; by (29) -G1 is the common normal) */
  if (m2 > 1)
    for (int k = 0; k < 3; k++) {
      G2.v[k] = -G1.v[k];
      for (int j = 0; j < NL; j++)
        G2.d[k][j] = -G1.d[k][j];
    }
  if (!(G2.v[0] * G2.v[0] + G2.v[1] * G2.v[1] + G2.v[2] * G2.v[2] > 0.0)) return 1;
  /* the contact frame, friction (21)-(22) and the Newton-Euler rows' forces (implicit_friction3.h) */
  struct dv nv;
  dv_normalise(&G2, &nv);
  const struct friction3 fc = {.s = {s1, s2},
                               .r = {e1.r, e2[0].r}, /* a2 - x2: the same for every inequality of body 2 */
                               .plus = 0,
                               .axis = ct->axis,
                               .mu = mu,
                               .e = {d->e[0], d->e[1], d->e[2]},
                               .h = h,
                               .with_normal = 1,
                               .pn = pn,
                               .pn_col = {ix.pn, -1},
                               .npn = 1,
                               .pt = pt,
                               .po = po,
                               .pr = pr,
                               .sg = sg,
                               .ipt = ix.pt,
                               .ipo = ix.po,
                               .ipr = ix.pr,
                               .isg = ix.sg,
                               .cols = cols};
  if (implicit_friction3_rows(&fc, &nv, nu, F, J, n)) return 1;
  /* complementarity rows (17)-(19); (22) is implicit_friction3_rows' */
  F[ix.l1] = -e1.f;
  for (int q = 0; q < m2; q++) /* (18) = (31) */
    F[ix.l2 + q] = -e2[q].f;
  F[ix.pn] = e12.f;
  for (int k = 0; k < 3; k++) {
    jac_add(J, n, ix.l1, ix.a1 + k, -e1.G[k]);
    for (int q = 0; q < m2; q++)
      jac_add(J, n, ix.l2 + q, ix.a2 + k, -e2[q].G[k]);
    jac_add(J, n, ix.pn, ix.a2 + k, e12.G[k]);
  }
  for (int k = 0; k < 6; k++) {
    jac_add(J, n, ix.l1, cols[6 + k], -e1.dfdn[k]);
    for (int q = 0; q < m2; q++)
      jac_add(J, n, ix.l2 + q, cols[12 + k], -e2[q].dfdn[k]);
    jac_add(J, n, ix.pn, cols[6 + k], e12.dfdn[k]);
  }
  return 0;
}

/* F (and J, dense row-major, when not NULL) at the unknowns x = guess + z. */
static int g3_eval(struct gi3_data *d, const double *z, double *F, double *J)
{
  int n = d->n, nd = d->ndof, rc = 0;
  double *x = calloc((size_t)n, sizeof *x);
  if (!x) return 1;
  for (int i = 0; i < n; i++)
    x[i] = d->guess[i] + z[i];
  if (J) memset(J, 0, (size_t)n * n * sizeof *J);
  for (int r = 0; r < nd; r++) {
    double s = d->papp[r];
    for (int c = 0; c < nd; c++) {
      s -= d->M[(size_t)r * nd + c] * (x[c] - d->nu0[c]);
      jac_add(J, n, r, c, -d->M[(size_t)r * nd + c]);
    }
    F[r] = s;
  }
  for (int i = 0; i < d->nc && !rc; i++)
    rc = g3_contact_eval(d, i, x, F, J);
  free(x);
  for (int i = 0; i < n && !rc; i++)
    if (!isfinite(F[i])) rc = 1;
  return rc;
}

static int g3_F(void *ctx, const double *z, double *F) { return g3_eval(ctx, z, F, NULL); }

static int g3_J(void *ctx, const double *z, double *J)
{
  struct gi3_data *d = ctx;
  double *F = calloc((size_t)d->n, sizeof *F);
  if (!F) return 1;
  int rc = g3_eval(d, z, F, J);
  free(F);
  return rc;
}

static const struct g3_prev *find_prev(const struct gi3_data *d, int sa, int sb)
{
  for (int i = 0; i < d->nprev; i++)
    if (d->prev[i].sa == sa && d->prev[i].sb == sb) return &d->prev[i];
  return NULL;
}

/* Room for m more half-spaces in the pool (npool used) and for m evaluations in e2; 0, or 1 out of memory. */
static int g3_reserve(struct gi3_data *d, int npool, int m)
{
  return implicit_grow((void **)&d->pool, &d->cap_pool, npool + m, sizeof *d->pool) ||
         implicit_grow((void **)&d->e2, &d->cap_e2, m, sizeof *d->e2);
}

/* The impulses' cold start of a polyhedron contact that is new or was apart (implicit_polyhedron_impulses),
 * its points already guessed. */
static void g3_impulse_guess(struct gi3_data *d, int i)
{
  const struct g3_contact *ct = &d->c[i];
  struct g3_idx ix = g3_index(d, i);
  double p[3];
  if (implicit_polyhedron_impulses(ct->s, d->guess + ix.a1, d->guess + ix.a2, d->nu0, d->papp, d->M, d->ndof,
                                   d->h, ct->mu, d->e, ct->axis, d->guess + ix.pn, p, d->guess + ix.sg)) {
    d->guess[ix.pt] = p[0];
    d->guess[ix.po] = p[1];
    d->guess[ix.pr] = p[2];
  }
}

int gi3_assemble(struct formulation *f, struct gi3_data **dp, const double e[3], const struct world *w,
                 const struct contact_set *cs, double h, struct cp_problem **out)
{
  *out = NULL;
  if (!*dp && !(*dp = calloc(1, sizeof **dp))) return formulation_fail(f, "out of memory");
  struct gi3_data *d = *dp;
  int nd = w->ndof, nc = cs->n, n = nd + G3_FREE * nc, npool = 0;
  if (nc > d->cap_c) {
    struct g3_contact *c = realloc(d->c, (size_t)nc * sizeof *c);
    if (!c) return formulation_fail(f, "out of memory");
    d->c = c;
    d->cap_c = nc;
  }
  if (g3_reserve(d, 0, 1)) return formulation_fail(f, "out of memory");
  /* pass 1: which body carries the single function f (body 1), body 2's inequalities, the layout */
  char msg[200];
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    struct g3_contact *ct = &d->c[i];
    int poly_a = w->shapes[c->sa].kind == SHAPE_POLYHEDRON,
        poly_b = w->shapes[c->sb].kind == SHAPE_POLYHEDRON;
    if (poly_a && poly_b)
      return formulation_fail(
          f,
          "shapes %d and %d are both polyhedra: Sec. 4.3's rows need one body given by a "
          "single function (the active index k1 of eq. (29) known before the step, Remark 1 "
          "and Sec. 7); use a sphere, superellipsoid or plane, or another formulation",
          c->sa, c->sb);
    /* body 1 carries f (evaluated at a2 in (19)): the single function, bounded when there is a choice */
    int swap = poly_a || (!poly_b && w->shapes[c->sa].kind == SHAPE_PLANE);
    int sh[2] = {swap ? c->sb : c->sa, swap ? c->sa : c->sb};
    if (implicit_side3_init(w, sh[0], &ct->s[0], msg, sizeof msg)) return formulation_fail(f, "%s", msg);
    int m = implicit_side3_body2_count(w, sh[1]); /* body 2: a polyhedron's faces, or one function */
    if (g3_reserve(d, npool, m > 0 ? m : 1)) return formulation_fail(f, "out of memory");
    m = implicit_side3_body2(w, sh[1], &ct->s[1], d->pool + npool, msg, sizeof msg);
    if (m < 0) return formulation_fail(f, "%s", msg);
    ct->m2 = m ? m : 1;
    ct->g2 = m ? npool : -1;
    npool += m;
    ct->sa = sh[0];
    ct->sb = sh[1];
    ct->mu = c->mu;
    ct->comp = n;
    n += 3 + ct->m2;
  }
  if (implicit_step_start(w, h, n, &d->M, &d->nu0, &d->papp, &d->guess))
    return formulation_fail(f, "out of memory");
  memcpy(d->e, e, sizeof d->e);
  d->ndof = nd;
  d->nc = nc;
  d->n = n;
  d->h = h;
  /* pass 2: the initial guess, from the previous step's answer for the same pair, else the detection */
  int other = 0;
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    struct g3_contact *ct = &d->c[i];
    const int m2 = ct->m2, swap = ct->sa != c->sa;
    const struct polyhedron *ph = m2 > 1 ? w->shapes[ct->sb].polyhedron : NULL;
    const double *pt[2] = {swap ? c->pb : c->pa, swap ? c->pa : c->pb};
    struct g3_idx ix = g3_index(d, i);
    other += 7 + m2; /* a1, a2, l1, l2_1 .. l2_m */
    const struct g3_prev *pv = find_prev(d, ct->sa, ct->sb);
    if (pv && pv->m2 == m2) {
      ct->axis = pv->axis;
      memcpy(d->guess + ix.a1, pv->blk, G3_FREE * sizeof(double));
      memcpy(d->guess + ix.l1, pv->blk + G3_FREE, (size_t)(3 + m2) * sizeof(double));
      if (ph) {
        implicit_polyhedron_guess(&ct->s[0], &ct->s[1], ph, d->pool + ct->g2, h, d->nu0, 1, d->guess + ix.a1,
                                  d->guess + ix.a2, d->guess + ix.l1, d->guess + ix.l2);
        if (!(d->guess[ix.pn] > 0.0)) g3_impulse_guess(d, i); /* apart last step: no impulses to keep */
      }
      continue;
    }
    int axis = 0;
    for (int k = 1; k < 3; k++)
      if (fabs(c->n[k]) < fabs(c->n[axis])) axis = k;
    ct->axis = axis;
    d->guess[ix.pt] = d->guess[ix.po] = d->guess[ix.pr] = 0.0;
    d->guess[ix.pn] = 0.0;
    d->guess[ix.sg] = 0.0;
    if (ph) {
      implicit_polyhedron_guess(&ct->s[0], &ct->s[1], ph, d->pool + ct->g2, h, d->nu0, 0, d->guess + ix.a1,
                                d->guess + ix.a2, d->guess + ix.l1, d->guess + ix.l2);
      g3_impulse_guess(d, i);
      continue;
    }
    /* first step of this pair: the detected closest points, l1 = gap / |grad f|, l2 = |grad f| / |grad g| */
    struct side3_eval e1, e2;
    memcpy(d->guess + ix.a1, pt[0], 3 * sizeof(double));
    memcpy(d->guess + ix.a2, pt[1], 3 * sizeof(double));
    side3_eval(&ct->s[0], 0.0, d->nu0, pt[0], &e1);
    side3_eval(&ct->s[1], 0.0, d->nu0, pt[1], &e2);
    double g1 = sqrt(e1.G[0] * e1.G[0] + e1.G[1] * e1.G[1] + e1.G[2] * e1.G[2]);
    double g2 = sqrt(e2.G[0] * e2.G[0] + e2.G[1] * e2.G[1] + e2.G[2] * e2.G[2]);
    d->guess[ix.l1] = g1 > 0 ? fmax(c->gap, 0.0) / g1 : 0.0;
    d->guess[ix.l2] = g2 > 0 ? g1 / g2 : 1.0;
  }
  struct cp_problem *p = cp_ncp_create(n, g3_F, g3_J, d);
  if (!p) return formulation_fail(f, "out of memory");
  int nfree = nd + G3_FREE * nc;
  for (int i = 0; i < n; i++) {
    p->lo[i] = i < nfree ? -INFINITY : -d->guess[i];
    p->hi[i] = INFINITY;
  }
  snprintf(p->name, sizeof p->name, "geometric_implicit 3D nc=%d (z shifted by the warm start)", nc);
  f->rows = (struct row_counts){
      .normal = nc, .friction = 3 * nc, .slack = nc, .velocity = nd, .other = other, .total = n};
  *out = p;
  return 0;
}

int gi3_recover(struct formulation *f, struct gi3_data *d, const struct world *w, const double *z, double *nu,
                double *pn)
{
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->guess[i] + z[i];
  if (d->nc > d->cap_prev) {
    struct g3_prev *p = realloc(d->prev, (size_t)d->nc * sizeof *p);
    if (!p) return formulation_fail(f, "out of memory");
    d->prev = p;
    d->cap_prev = d->nc;
  }
  d->nprev = d->nc;
  for (int i = 0; i < d->nc; i++) {
    struct g3_idx ix = g3_index(d, i);
    struct g3_prev *pv = &d->prev[i];
    pv->sa = d->c[i].sa;
    pv->sb = d->c[i].sb;
    pv->axis = d->c[i].axis;
    pv->m2 = d->c[i].m2;
    for (int k = 0; k < G3_FREE; k++)
      pv->blk[k] = d->guess[ix.a1 + k] + z[ix.a1 + k];
    for (int k = 0; k < 3 + pv->m2; k++)
      pv->blk[G3_FREE + k] = d->guess[ix.l1 + k] + z[ix.l1 + k];
    pn[i] = pv->blk[G3_FREE + 1 + pv->m2];
  }
  return 0;
}

/* Two layouts: with every body 2 one function (m2 = 1) the one captured steps were stored in, [np; per pair
 * sa, sb, axis, its 13 values]; with a polyhedron (Sec. 4.3) [-np; per pair sa, sb, axis, m2, its 12 + m2
 * values]. */
int gi3_carry_get(const struct gi3_data *d, double *buf, int cap)
{
  int np = d ? d->nprev : 0, need = 1, general = 0;
  for (int i = 0; i < np; i++) {
    general |= d->prev[i].m2 != 1;
    need += 3 + G3_FREE + 3 + d->prev[i].m2;
  }
  if (general) need += np;
  if (need > cap) return need;
  buf[0] = general ? -np : np;
  for (int i = 0, k = 1; i < np; i++) {
    const struct g3_prev *pv = &d->prev[i];
    buf[k++] = pv->sa;
    buf[k++] = pv->sb;
    buf[k++] = pv->axis;
    if (general) buf[k++] = pv->m2;
    memcpy(buf + k, pv->blk, (size_t)(G3_FREE + 3 + pv->m2) * sizeof(double));
    k += G3_FREE + 3 + pv->m2;
  }
  return need;
}

int gi3_carry_set(struct formulation *f, struct gi3_data **dp, const double *buf, int n)
{
  int np = n > 0 ? (int)fabs(buf[0]) : -1, general = n > 0 && buf[0] < 0;
  const char *bad = "carried state: %d values do not hold whole pairs";
  /* the layout check first: nothing changes unless every pair fits */
  int k = 1, i = 0;
  for (; i < np && k < n; i++) {
    int m2 = 1;
    if (general) {
      if (k + 3 >= n) return formulation_fail(f, bad, n);
      m2 = (int)buf[k + 3];
      if (m2 < 1 || m2 > CONVEX_PART_MAX) return formulation_fail(f, bad, n);
    }
    k += 3 + general + G3_FREE + 3 + m2;
  }
  if (np < 0 || i < np || k != n) return formulation_fail(f, bad, n);
  if (!*dp && !(*dp = calloc(1, sizeof **dp))) return formulation_fail(f, "out of memory");
  struct gi3_data *d = *dp;
  if (np > d->cap_prev) {
    struct g3_prev *p = realloc(d->prev, (size_t)np * sizeof *p);
    if (!p) return formulation_fail(f, "out of memory");
    d->prev = p;
    d->cap_prev = np;
  }
  k = 1;
  for (i = 0; i < np; i++) {
    struct g3_prev *pv = &d->prev[i];
    pv->sa = (int)buf[k++];
    pv->sb = (int)buf[k++];
    pv->axis = (int)buf[k++];
    pv->m2 = general ? (int)buf[k++] : 1;
    memcpy(pv->blk, buf + k, (size_t)(G3_FREE + 3 + pv->m2) * sizeof(double));
    k += G3_FREE + 3 + pv->m2;
  }
  d->nprev = np;
  return 0;
}

void gi3_free(struct gi3_data **dp)
{
  struct gi3_data *d = *dp;
  if (!d) return;
  free(d->M);
  free(d->nu0);
  free(d->papp);
  free(d->guess);
  free(d->c);
  free(d->pool);
  free(d->e2);
  free(d->prev);
  free(d);
  *dp = NULL;
}

int gi3_results(const struct gi3_data *d, int i, struct gi3_contact_result *out)
{
  if (!d) return 0;
  if (i >= 0 && i < d->nprev && out) {
    const struct g3_prev *pv = &d->prev[i];
    out->sa = pv->sa;
    out->sb = pv->sb;
    memcpy(out->a1, pv->blk, 3 * sizeof(double));
    memcpy(out->a2, pv->blk + 3, 3 * sizeof(double));
    out->pt = pv->blk[6];
    out->po = pv->blk[7];
    out->pr = pv->blk[8];
    out->pn = pv->blk[G3_FREE + 1 + pv->m2];
    out->sigma = pv->blk[G3_FREE + 2 + pv->m2];
  }
  return d->nprev;
}
