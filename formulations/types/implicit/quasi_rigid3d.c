/* quasi_rigid3d.c — the quasi-rigid geometrically implicit time-stepper in 3D (Chakraborty, Berard, Akella &
 * Trinkle, Sec. 5.1 eqs. (33)-(38); the 2D rows of Sec. 6.3, eqs. (48)-(55), with 3-vectors): a rigid core
 * inside a compliant layer of stiffness k, damping c and maximum deflection delta_max. Per contact the
 * unknowns are aC, aR (3 each), delta_bar, delta (free) and l1, l2, p_ns, p_nr (complementarity); in a world
 * with mu > 0 also p_t, p_o, p_r (free) and sigma (complementarity) with the ellipsoidal friction (21)-(22)
 * of Sec. 3 on p_n = p_ns + p_nr (implicit_friction3.h, the rows geometric_implicit3d.c uses; R receives
 * +u, the frame's t from a world axis kept while the pair persists; eq. (37)'s tangential spring is left
 * out as in 2D, quasi_rigid.c). A frictionless world's problem is the one below, unchanged. The rows, with
 * u = grad c(aC) / |grad c(aC)| (from the compliant body C towards R):
 *   0 = -M (nu - nu^l) + W_n (p_ns + p_nr) + p_app, W_n: +u at aR on R, -u at aC on C       (48)
 *   0 = aC - aR + l1 grad c(aC),   0 = grad c(aC) + l2 grad r(aR)                              (34)
 *   0 = c(aC + delta u)                                                                        (35)
 *   0 = p_ns - (h k delta + c (delta - delta^l))                                               (49), (37)
 *   0 <= (l1, l2, p_ns, p_nr) perp (-(c(aC) + delta_bar), -r(aR), c(aR) + delta_bar, delta_max - delta)
 * at the end-of-step poses of implicit_side3.h (x^{l+1} = x^l + h v, quaternions renormalised). The length
 * rows are divided by h as in 2D (the scale of the Newton-Euler rows; fb_newton stalled without it). The
 * Jacobian is analytic through implicit_dv.h (tests/formulations/types/implicit/test_quasi_rigid.c checks it
 * against finite differences). Warm start: the previous step's answer for the same pair of shapes. A
 * polyhedron is the rigid body R as an intersection of half-spaces (Sec. 4.3): one multiplier l2_q per face
 * with its complementarity row, grad c(aC) + sum_q l2_q grad r_q(aR) = 0 in (34), the guess of
 * implicit_polyhedron.c; C stays one function (two polyhedra are refused). */
#include "quasi_rigid3d.h"

#include "implicit_answers.h"
#include "implicit_dv.h"
#include "implicit_friction3.h"
#include "implicit_polyhedron.h"
#include "implicit_side.h"
#include "implicit_side3.h"

#include <stdlib.h>
#include <string.h>

#define Q3_FREE 8 /* aC (3), aR (3), delta_bar, delta; + p_t, p_o, p_r with friction */
#define Q3_COMP                                                                                              \
  4 /* l1, l2, p_ns, p_nr; a polyhedron R: l1, l2_1 .. l2_m, p_ns, p_nr; + sigma with friction */
#define Q3_FRIC 5 /* a pair's carried answers with friction: p_t, p_o, p_r, sigma and the frame's axis */
/* a carried state with friction counts its pairs from here (a frictionless one reads as before) */
#define Q3_FRICTION_STATE 1048576.0

struct q3_contact {
  struct gi_side3 s[2]; /* s[0]: compliant C (one function), s[1]: rigid R (one, or a polyhedron's faces) */
  int sc, sr;
  double delta0;
  int m2;   /* inequalities of R: 1, or a polyhedron's faces (Sec. 4.3's (28)-(31) in (34)) */
  int g2;   /* with m2 > 1: where R's half-spaces start in qr3_data.pool */
  int comp; /* where the contact's complementarity block (3 + m2 unknowns, + sigma) starts */
  double mu;
  int axis; /* the world axis of the friction frame's t (implicit_friction3.h), kept while the pair persists
             */
};

struct qr3_data {
  double k, c, dmax;
  double e[3]; /* e_t, e_o, e_r */
  int fr;      /* 1: p_t, p_o, p_r (free) and sigma (complementarity) per contact (a world with mu > 0) */
  int ndof, nc, n;
  double h;
  double *M, *nu0, *papp, *guess;
  struct q3_contact *ct;
  int cap_c;
  struct convex_fn *pool; /* the polyhedra's half-spaces of this step's contacts */
  int cap_pool;
  struct side3_eval *eR; /* R's inequalities at aR (room for the largest m2) */
  int cap_e;
  /* the last step's answers per pair (sc, sr): the warm start, carried; m2 there is R's inequalities less
   * one (0 for one function, so a state without polyhedra reads as before) */
  struct implicit_answers prev;
};

/* The data, created at first use. */
static struct qr3_data *q3_data(struct qr3_data **dp)
{
  if (!*dp && (*dp = calloc(1, sizeof **dp))) (*dp)->prev.base = Q3_FREE + Q3_COMP;
  return *dp;
}

struct q3_idx {
  int ac, ar, db, dl, l1, l2, pns, pnr;
  int pt, po, pr, sg; /* -1 without friction */
};

/* l2 is the first of R's m2 multipliers */
static struct q3_idx q3_index(const struct qr3_data *d, int i)
{
  int fb = d->ndof + (Q3_FREE + 3 * d->fr) * i, cb = d->ct[i].comp, m2 = d->ct[i].m2;
  if (!d->fr)
    return (struct q3_idx){fb, fb + 3, fb + 6, fb + 7, cb, cb + 1, cb + 1 + m2, cb + 2 + m2, -1, -1, -1, -1};
  return (struct q3_idx){fb,          fb + 3,      fb + 6, fb + 7, cb,      cb + 1,
                         cb + 1 + m2, cb + 2 + m2, fb + 8, fb + 9, fb + 10, cb + 3 + m2};
}

/* grad f of a side at a point, with its derivative in the local variables (point slot, body slot). */
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

/* Friction (Sec. 3 eqs. (21)-(22) on p_n = p_ns + p_nr, the rows of implicit_friction3.h with R as the
 * body that receives +u): p_t, p_o, p_r and sigma. Eq. (37)'s tangential spring only maps the friction
 * impulse to a tangential deflection that no other row uses, so it is left out, as in 2D. A frictionless
 * contact in a world with friction elsewhere gets p_t = p_o = p_r = 0 and sigma = 0. */
static int q3_friction(const struct qr3_data *d, const struct q3_contact *ct, struct q3_idx ix,
                       const struct dv *u, const double *rr[2], const int *cols, const double *x, double *F,
                       double *J)
{
  int n = d->n;
  if (ct->mu == 0.0) {
    const int rows[4] = {ix.pt, ix.po, ix.pr, ix.sg};
    for (int k = 0; k < 4; k++) {
      F[rows[k]] = x[rows[k]];
      jac_add(J, n, rows[k], rows[k], 1.0);
    }
    return 0;
  }
  const struct friction3 fc = {.s = {&ct->s[0], &ct->s[1]},
                               .r = {rr[0], rr[1]},
                               .plus = 1,
                               .axis = ct->axis,
                               .mu = ct->mu,
                               .e = {d->e[0], d->e[1], d->e[2]},
                               .h = d->h,
                               .with_normal = 0, /* the caller's (48) applies u (p_ns + p_nr) */
                               .pn = x[ix.pns] + x[ix.pnr],
                               .pn_col = {ix.pns, ix.pnr},
                               .npn = 2,
                               .pt = x[ix.pt],
                               .po = x[ix.po],
                               .pr = x[ix.pr],
                               .sg = x[ix.sg],
                               .ipt = ix.pt,
                               .ipo = ix.po,
                               .ipr = ix.pr,
                               .isg = ix.sg,
                               .cols = cols};
  return implicit_friction3_rows(&fc, u, x, F, J, n);
}

static int q3_contact_eval(const struct qr3_data *d, int i, const double *x, double *F, double *J)
{
  int n = d->n;
  double h = d->h;
  const struct q3_contact *ct = &d->ct[i];
  const struct gi_side3 *sC = &ct->s[0], *sR = &ct->s[1];
  struct q3_idx ix = q3_index(d, i);
  const double *ac = x + ix.ac, *ar = x + ix.ar, *nu = x;
  double db = x[ix.db], dl = x[ix.dl], l1 = x[ix.l1], pn = x[ix.pns] + x[ix.pnr];
  const double *l2 = x + ix.l2;
  const int m2 = ct->m2;
  const struct convex_fn *g2 = m2 > 1 ? d->pool + ct->g2 : NULL;
  int cols[NL];
  for (int k = 0; k < 3; k++)
    cols[k] = ix.ac + k, cols[3 + k] = ix.ar + k;
  for (int k = 0; k < 6; k++) {
    cols[6 + k] = sC->dof >= 0 ? sC->dof + k : -1;
    cols[12 + k] = sR->dof >= 0 ? sR->dof + k : -1;
  }
  struct side3_eval eC, *eR = d->eR, eCR, eY; /* eR[q]: R's inequality q at aR */
  side3_eval(sC, h, nu, ac, &eC);
  for (int q = 0; q < m2; q++)
    if (m2 == 1)
      side3_eval(sR, h, nu, ar, &eR[0]);
    else
      side3_eval_fn(sR, &g2[q], h, nu, ar, &eR[q]);
  side3_eval(sC, h, nu, ar, &eCR);
  struct dv Gc, Gr, u;
  grad_dv(&eC, 0, 0, &Gc);
  if (!(Gc.v[0] * Gc.v[0] + Gc.v[1] * Gc.v[1] + Gc.v[2] * Gc.v[2] > 0.0)) return 1;
  dv_normalise(&Gc, &u);
  /* (34) */
  for (int k = 0; k < 3; k++) {
    int row = ix.ac + k;
    F[row] = ac[k] - ar[k] + l1 * Gc.v[k];
    jac_add(J, n, row, ix.ac + k, 1.0);
    jac_add(J, n, row, ix.ar + k, -1.0);
    scatter(J, n, row, cols, Gc.d[k], l1);
    jac_add(J, n, row, ix.l1, Gc.v[k]);
    row = ix.ar + k;
    F[row] = Gc.v[k];
    scatter(J, n, row, cols, Gc.d[k], 1.0);
  }
  for (int q = 0; q < m2; q++) { /* grad c(aC) + sum_q l2_q grad r_q(aR): (29) with C's one function */
    grad_dv(&eR[q], 1, 1, &Gr);
    for (int k = 0; k < 3; k++) {
      int row = ix.ar + k;
      F[row] += l2[q] * Gr.v[k];
      scatter(J, n, row, cols, Gr.d[k], l2[q]);
      jac_add(J, n, row, ix.l2 + q, Gr.v[k]);
    }
  }
  /* (35): c(y) = 0 at y = aC + delta u */
  double y[3];
  for (int k = 0; k < 3; k++)
    y[k] = ac[k] + dl * u.v[k];
  side3_eval(sC, h, nu, y, &eY);
  F[ix.db] = eY.f;
  double dy[NL];
  for (int j = 0; j < NL; j++) {
    dy[j] = 0.0;
    for (int k = 0; k < 3; k++)
      dy[j] += eY.G[k] * (dl * u.d[k][j] + (j == k ? 1.0 : 0.0));
    if (j >= 6 && j < 12) dy[j] += eY.dfdn[j - 6];
  }
  scatter(J, n, ix.db, cols, dy, 1.0);
  jac_add(J, n, ix.db, ix.dl, eY.G[0] * u.v[0] + eY.G[1] * u.v[1] + eY.G[2] * u.v[2]);
  /* (49) */
  F[ix.dl] = x[ix.pns] - h * d->k * dl - d->c * (dl - ct->delta0);
  jac_add(J, n, ix.dl, ix.pns, 1.0);
  jac_add(J, n, ix.dl, ix.dl, -(h * d->k + d->c));
  /* (48): +u p_n on R at aR, -u p_n on C at aC */
  struct dv Fv;
  for (int k = 0; k < 3; k++) {
    Fv.v[k] = u.v[k] * pn;
    for (int j = 0; j < NL; j++)
      Fv.d[k][j] = u.d[k][j] * pn;
  }
  const struct gi_side3 *ss[2] = {sC, sR};
  const double *rr[2] = {eC.r, eR[0].r}; /* aR - xR: the same for every inequality of R */
  for (int b = 0; b < 2; b++) {
    int o = ss[b]->dof;
    if (o < 0) continue;
    double sign = b == 1 ? 1.0 : -1.0;
    struct dv r, tq;
    memset(&r, 0, sizeof r);
    for (int k = 0; k < 3; k++) {
      r.v[k] = rr[b][k];
      r.d[k][3 * b + k] = 1.0;
      r.d[k][6 + 6 * b + k] = -h;
    }
    dv_cross(&r, &Fv, &tq);
    double ru[3];
    cross(r.v, u.v, ru);
    for (int k = 0; k < 3; k++) {
      F[o + k] += sign * Fv.v[k];
      scatter(J, n, o + k, cols, Fv.d[k], sign);
      jac_add(J, n, o + k, ix.pns, sign * u.v[k]);
      jac_add(J, n, o + k, ix.pnr, sign * u.v[k]);
      F[o + 3 + k] += sign * tq.v[k];
      scatter(J, n, o + 3 + k, cols, tq.d[k], sign);
      jac_add(J, n, o + 3 + k, ix.pns, sign * ru[k]);
      jac_add(J, n, o + 3 + k, ix.pnr, sign * ru[k]);
    }
  }
  if (ix.pt >= 0 && q3_friction(d, ct, ix, &u, rr, cols, x, F, J)) return 1;
  /* complementarity rows */
  F[ix.l1] = -(eC.f + db);
  for (int q = 0; q < m2; q++)
    F[ix.l2 + q] = -eR[q].f;
  F[ix.pns] = eCR.f + db;
  F[ix.pnr] = d->dmax - dl;
  for (int k = 0; k < 3; k++) {
    jac_add(J, n, ix.l1, ix.ac + k, -eC.G[k]);
    for (int q = 0; q < m2; q++)
      jac_add(J, n, ix.l2 + q, ix.ar + k, -eR[q].G[k]);
    jac_add(J, n, ix.pns, ix.ar + k, eCR.G[k]);
  }
  for (int k = 0; k < 6; k++) {
    jac_add(J, n, ix.l1, cols[6 + k], -eC.dfdn[k]);
    for (int q = 0; q < m2; q++)
      jac_add(J, n, ix.l2 + q, cols[12 + k], -eR[q].dfdn[k]);
    jac_add(J, n, ix.pns, cols[6 + k], eCR.dfdn[k]);
  }
  jac_add(J, n, ix.l1, ix.db, -1.0);
  jac_add(J, n, ix.pns, ix.db, 1.0);
  jac_add(J, n, ix.pnr, ix.dl, -1.0);
  /* the length rows in velocities (divided by h), as in 2D */
  const int rows[] = {ix.ac, ix.ac + 1, ix.ac + 2, ix.db, ix.l1, ix.pns, ix.pnr};
  for (size_t k = 0; k < sizeof rows / sizeof rows[0] + (size_t)m2; k++) {
    int row = k < sizeof rows / sizeof rows[0] ? rows[k] : ix.l2 + (int)(k - sizeof rows / sizeof rows[0]);
    F[row] /= h;
    if (J)
      for (int j = 0; j < n; j++)
        J[(size_t)row * n + j] /= h;
  }
  return 0;
}

static int q3_eval(struct qr3_data *d, const double *z, double *F, double *J)
{
  int n = d->n, nd = d->ndof;
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
  int rc = 0;
  for (int i = 0; i < d->nc && !rc; i++)
    rc = q3_contact_eval(d, i, x, F, J);
  free(x);
  for (int i = 0; i < n && !rc; i++)
    if (!isfinite(F[i])) rc = 1;
  return rc;
}

static int q3_F(void *ctx, const double *z, double *F) { return q3_eval(ctx, z, F, NULL); }

static int q3_J(void *ctx, const double *z, double *J)
{
  struct qr3_data *d = ctx;
  double *F = calloc((size_t)d->n, sizeof *F);
  if (!F) return 1;
  int rc = q3_eval(d, z, F, J);
  free(F);
  return rc;
}

/* Room for m more half-spaces in the pool (npool used) and for m evaluations in eR; 0, or 1 out of memory. */
static int q3_reserve(struct qr3_data *d, int npool, int m)
{
  return implicit_grow((void **)&d->pool, &d->cap_pool, npool + m, sizeof *d->pool) ||
         implicit_grow((void **)&d->eR, &d->cap_e, m, sizeof *d->eR);
}

int qr3_assemble(struct formulation *f, struct qr3_data **dp, const double kcd[3], const double e[3],
                 const struct world *w, const struct contact_set *cs, double h, struct cp_problem **out)
{
  *out = NULL;
  struct qr3_data *d = q3_data(dp);
  if (!d) return formulation_fail(f, "out of memory");
  const int fr = w->mu > 0.0, base = Q3_FREE + Q3_COMP + Q3_FRIC * fr;
  if (d->prev.base != base) d->prev.n = 0; /* answers of a run with the other layout: no warm start */
  d->prev.base = base;
  d->fr = fr;
  int nd = w->ndof, nc = cs->n, n = nd + (Q3_FREE + 3 * fr) * nc, npool = 0;
  if (nc > d->cap_c) {
    struct q3_contact *c = realloc(d->ct, (size_t)nc * sizeof *c);
    if (!c) return formulation_fail(f, "out of memory");
    d->ct = c;
    d->cap_c = nc;
  }
  if (q3_reserve(d, 0, 1)) return formulation_fail(f, "out of memory");
  /* pass 1: the compliant body C (one function) and the rigid R, R's inequalities, the layout */
  char msg[200];
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    struct q3_contact *ct = &d->ct[i];
    int poly_a = w->shapes[c->sa].kind == SHAPE_POLYHEDRON,
        poly_b = w->shapes[c->sb].kind == SHAPE_POLYHEDRON;
    if (poly_a && poly_b)
      return formulation_fail(
          f,
          "shapes %d and %d are both polyhedra: the compliant side of Sec. 5's rows is one "
          "function (the active index k1 of eq. (29) known before the step, Sec. 4.3, "
          "Remark 1); use a sphere, superellipsoid or plane for one of them",
          c->sa, c->sb);
    /* the compliant body: the plane when there is one (Sec. 6.3's half-plane), else the one that is not a
     * polyhedron, else body b */
    int a_is_c = w->shapes[c->sa].kind == SHAPE_PLANE || (poly_b && w->shapes[c->sb].kind != SHAPE_PLANE);
    int sh[2] = {a_is_c ? c->sa : c->sb, a_is_c ? c->sb : c->sa};
    if (implicit_side3_init(w, sh[0], &ct->s[0], msg, sizeof msg)) return formulation_fail(f, "%s", msg);
    int m = implicit_side3_body2_count(w, sh[1]); /* body 2: a polyhedron's faces, or one function */
    if (q3_reserve(d, npool, m > 0 ? m : 1)) return formulation_fail(f, "out of memory");
    m = implicit_side3_body2(w, sh[1], &ct->s[1], d->pool + npool, msg, sizeof msg);
    if (m < 0) return formulation_fail(f, "%s", msg);
    ct->m2 = m ? m : 1;
    ct->g2 = m ? npool : -1;
    npool += m;
    ct->sc = sh[0];
    ct->sr = sh[1];
    ct->mu = c->mu;
    ct->comp = n;
    n += 3 + ct->m2 + fr;
  }
  if (implicit_step_start(w, h, n, &d->M, &d->nu0, &d->papp, &d->guess))
    return formulation_fail(f, "out of memory");
  d->k = kcd[0], d->c = kcd[1], d->dmax = kcd[2];
  memcpy(d->e, e, sizeof d->e);
  d->ndof = nd, d->nc = nc, d->n = n, d->h = h;
  /* pass 2: the initial guess, from the previous step's answer for the same pair, else the detection */
  int other = 0;
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    struct q3_contact *ct = &d->ct[i];
    const int m2 = ct->m2, a_is_c = ct->sc == c->sa;
    const struct polyhedron *ph = m2 > 1 ? w->shapes[ct->sr].polyhedron : NULL;
    const double *pt[2] = {a_is_c ? c->pa : c->pb, a_is_c ? c->pb : c->pa};
    struct q3_idx ix = q3_index(d, i);
    other += 9 + m2; /* aC, aR, delta_bar, delta, l1, l2_1 .. l2_m */
    const struct implicit_answer *pv = implicit_answers_find(&d->prev, ct->sc, ct->sr);
    if (pv && pv->m2 == m2 - 1) {
      const double *blk = d->prev.val + pv->at;
      memcpy(d->guess + ix.ac, blk, Q3_FREE * sizeof(double));
      memcpy(d->guess + ix.l1, blk + Q3_FREE, (size_t)(3 + m2) * sizeof(double));
      ct->delta0 = blk[7];
      if (fr) {
        const double *bf = blk + Q3_FREE + 3 + m2; /* p_t, p_o, p_r, sigma, axis */
        d->guess[ix.pt] = bf[0], d->guess[ix.po] = bf[1], d->guess[ix.pr] = bf[2], d->guess[ix.sg] = bf[3];
        ct->axis = (int)bf[4];
      }
      if (ph)
        implicit_polyhedron_guess(&ct->s[0], &ct->s[1], ph, d->pool + ct->g2, h, d->nu0, 1, d->guess + ix.ac,
                                  d->guess + ix.ar, d->guess + ix.l1, d->guess + ix.l2);
      continue;
    }
    d->guess[ix.db] = d->guess[ix.dl] = 0.0;
    d->guess[ix.pns] = d->guess[ix.pnr] = 0.0;
    ct->delta0 = 0.0;
    if (fr) { /* the friction frame's axis: the world axis least aligned with the detected normal */
      d->guess[ix.pt] = d->guess[ix.po] = d->guess[ix.pr] = d->guess[ix.sg] = 0.0;
      ct->axis = 0;
      for (int k = 1; k < 3; k++)
        if (fabs(c->n[k]) < fabs(c->n[ct->axis])) ct->axis = k;
    }
    if (ph) {
      implicit_polyhedron_guess(&ct->s[0], &ct->s[1], ph, d->pool + ct->g2, h, d->nu0, 0, d->guess + ix.ac,
                                d->guess + ix.ar, d->guess + ix.l1, d->guess + ix.l2);
      continue;
    }
    struct side3_eval eC, eR;
    memcpy(d->guess + ix.ac, pt[0], 3 * sizeof(double));
    memcpy(d->guess + ix.ar, pt[1], 3 * sizeof(double));
    side3_eval(&ct->s[0], 0.0, d->nu0, pt[0], &eC);
    side3_eval(&ct->s[1], 0.0, d->nu0, pt[1], &eR);
    double gc = sqrt(eC.G[0] * eC.G[0] + eC.G[1] * eC.G[1] + eC.G[2] * eC.G[2]);
    double gr = sqrt(eR.G[0] * eR.G[0] + eR.G[1] * eR.G[1] + eR.G[2] * eR.G[2]);
    d->guess[ix.l1] = gc > 0 ? fmax(c->gap, 0.0) / gc : 0.0;
    d->guess[ix.l2] = gr > 0 ? gc / gr : 1.0;
  }
  struct cp_problem *p = cp_ncp_create(n, q3_F, q3_J, d);
  if (!p) return formulation_fail(f, "out of memory");
  int nfree = nd + (Q3_FREE + 3 * fr) * nc;
  for (int i = 0; i < n; i++) {
    p->lo[i] = i < nfree ? -INFINITY : -d->guess[i];
    p->hi[i] = INFINITY;
  }
  snprintf(p->name, sizeof p->name, "quasi_rigid 3D nc=%d (z shifted by the warm start)", nc);
  f->rows = (struct row_counts){.normal = 2 * nc,
                                .friction = 3 * fr * nc,
                                .slack = fr * nc,
                                .velocity = nd,
                                .other = other,
                                .total = n};
  *out = p;
  return 0;
}

int qr3_recover(struct formulation *f, struct qr3_data *d, const struct world *w, const double *z, double *nu,
                double *pn)
{
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->guess[i] + z[i];
  int total = 0, base = d->prev.base;
  for (int i = 0; i < d->nc; i++)
    total += base - 1 + d->ct[i].m2;
  if (implicit_answers_reserve(&d->prev, d->nc > 0 ? d->nc : 1, total > 0 ? total : 1))
    return formulation_fail(f, "out of memory");
  d->prev.n = d->nc;
  for (int i = 0, at = 0; i < d->nc; i++) {
    struct q3_idx ix = q3_index(d, i);
    struct implicit_answer *pv = &d->prev.a[i];
    const int m2 = d->ct[i].m2;
    *pv = (struct implicit_answer){.sa = d->ct[i].sc, .sb = d->ct[i].sr, .m2 = m2 - 1, .at = at};
    double *blk = d->prev.val + pv->at;
    for (int k = 0; k < Q3_FREE; k++)
      blk[k] = d->guess[ix.ac + k] + z[ix.ac + k];
    for (int k = 0; k < 3 + m2; k++)
      blk[Q3_FREE + k] = d->guess[ix.l1 + k] + z[ix.l1 + k];
    pn[i] = blk[Q3_FREE + 1 + m2] + blk[Q3_FREE + 2 + m2];
    if (d->fr) {
      double *bf = blk + Q3_FREE + 3 + m2;
      const int fi[4] = {ix.pt, ix.po, ix.pr, ix.sg};
      for (int k = 0; k < 4; k++)
        bf[k] = d->guess[fi[k]] + z[fi[k]];
      bf[4] = d->ct[i].axis;
    }
    at += base - 1 + m2;
  }
  return 0;
}

int qr3_carry_get(const struct qr3_data *d, double *buf, int cap)
{
  if (!d) return cap >= 1 ? (buf[0] = 0.0, 1) : 1;
  int need = implicit_answers_export(&d->prev, buf, cap);
  if (need <= cap && d->prev.base > Q3_FREE + Q3_COMP) buf[0] += Q3_FRICTION_STATE;
  return need;
}

int qr3_carry_set(struct formulation *f, struct qr3_data **dp, const double *buf, int n)
{
  struct qr3_data *d = q3_data(dp);
  char msg[200];
  if (!d) return formulation_fail(f, "out of memory");
  int fr = n > 0 && buf[0] >= Q3_FRICTION_STATE, rc = 0;
  double *b = fr ? malloc((size_t)n * sizeof *b) : NULL;
  if (fr && !b) return formulation_fail(f, "out of memory");
  if (fr) memcpy(b, buf, (size_t)n * sizeof *b), b[0] -= Q3_FRICTION_STATE;
  int base = d->prev.base;
  d->prev.base = Q3_FREE + Q3_COMP + Q3_FRIC * fr;
  if (implicit_answers_import(&d->prev, fr ? b : buf, n, msg, sizeof msg)) {
    d->prev.base = base;
    rc = formulation_fail(f, "%s", msg);
  }
  free(b);
  return rc;
}

void qr3_free(struct qr3_data **dp)
{
  struct qr3_data *d = *dp;
  if (!d) return;
  free(d->M);
  free(d->nu0);
  free(d->papp);
  free(d->guess);
  free(d->ct);
  free(d->pool);
  free(d->eR);
  implicit_answers_free(&d->prev);
  free(d);
  *dp = NULL;
}
