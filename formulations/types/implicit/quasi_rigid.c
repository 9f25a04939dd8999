/* quasi_rigid.c — the geometrically implicit time-stepper for quasi-rigid bodies (Chakraborty, Berard, Akella
 * & Trinkle, "A geometrically implicit time-stepping method for multibody systems with intermittent contact",
 * Sec. 5.1, eqs. (33)-(38); the disc on the quasi-rigid half-plane of Sec. 6.3 is eqs. (48)-(55)): a rigid
 * core inside a compliant layer of normal stiffness k, damping c and maximum deflection delta_max. Per
 * contact one body is compliant (C, function c: the half-plane when there is one, as in the paper's example)
 * and one rigid (R, function r). Rows, with n = grad c(aC) / |grad c(aC)| (from C towards R), positions at
 * the end of the step (backward Euler): (48) 0 = -M (nu - nu^l) + W_n (p_ns + p_nr) + p_app, W_n = [n; r x n]
 * on R at aR, its opposite on C at aC; (34) 0 = aC - aR + l1 grad c(aC) and 0 = grad c(aC) + l2 grad r(aR)
 * (C's deflected level set); (35) 0 = c(aC + delta n): the deflection from the algebraic one; (49)/(37) 0 =
 * p_ns - (h k delta + c (delta - delta^l)); (34) 0 <= l1 perp -(c(aC) + delta_bar) >= 0, 0 <= l2 perp -r(aR)
 * >= 0; (36) 0 <= p_ns perp c(aR) + delta_bar >= 0 (psi = c at the rigid body's point), and the rigid core's
 * impulse 0 <= p_nr perp delta_max - delta >= 0.
 * Which body carries l1 follows Proposition 1 (the deflected compliant body plays f): the paper's example
 * writes the same rows with the roles of (50)-(51) and the signs of (52)-(53) arranged differently; the
 * solution set is the same. In a world with friction each contact adds p_t and sigma with the ellipsoidal law
 * (21)-(22) on p_n = p_ns + p_nr (qr_friction_rows; in 3D p_t, p_o, p_r, sigma with e_t, e_o, e_r through
 * implicit_friction3.h); eq. (37)'s tangential spring only maps p_t to a deflection no other row uses, so it
 * is left out; a frictionless world (the paper's examples) has the problem above unchanged. Unknowns: z =
 * [nu; per contact (aC, aR, delta_bar, delta [, p_t]); per contact (l1, l2, p_ns, p_nr [, sigma])], shifted
 * by the warm start as in geometric_implicit.c (the previous step's answer for the same shape pair). Analytic
 * Jacobian (checked by finite differences in tests/formulations/types/implicit/test_quasi_rigid.c). A polygon
 * is the rigid body R as an intersection of half-planes (Sec. 4.3): one multiplier l2_q per edge with its gap
 * row -r_q(aR), grad c(aC) + sum_q l2_q grad r_q(aR) = 0 in (34), the guesses of implicit_polygon.c
 * (tests/formulations/types/implicit/test_quasi_rigid_polygon.c); C stays one function (two polygons are
 * refused). The carried state is quasi_rigid_state.c's. 3D worlds (spheres, superellipsoids, planes; a
 * polyhedron as the rigid body) are assembled by quasi_rigid3d.c. Options: qr_options below. */
#include "formulation.h"
#include "implicit.h"
#include "implicit_polygon.h"
#include "implicit_side.h"
#include "jacobian_add.h"
#include "quasi_rigid3d.h"
#include "quasi_rigid_state.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct qr_contact {
  struct gi_side
      s[2];      /* s[0]: compliant body C (one function), s[1]: rigid body R (one, or a polygon's edges) */
  int sc, sr;    /* their world shapes (the warm-start key) */
  double delta0; /* the deflection at the start of the step (damping) */
  double mu;     /* the contact's friction coefficient */
  int m2;        /* inequalities of R: 1, or a polygon's edges (Sec. 4.3's (28)-(31) in (34)) */
  int g2;        /* with m2 > 1: where R's half-planes start in qr_data.pool */
  int comp;      /* where the contact's complementarity block (3 + m2 [+ sigma] unknowns) starts */
};

struct qr_data {
  double k, c, dmax; /* options */
  double et, eo, er; /* the friction ellipsoid's semi-axes (options; 3D: 2D has e_t = 1) */
  int ndof, nc, n;
  int fr; /* 1: the friction unknowns p_t (free) and sigma (complementarity) are in (a world with mu > 0) */
  double h;
  double *M, *nu0, *papp, *guess;
  struct qr_contact *ct;
  int cap_c;
  struct convex_fn *pool; /* the polygons' half-planes of this step's contacts */
  int cap_pool;
  struct side_eval *eR; /* R's inequalities at aR (room for the largest m2) */
  int cap_e;
  struct qr_prev *prev;
  int nprev, cap_prev;
  struct qr3_data *d3; /* the 3D half (quasi_rigid3d.c) */
};

static const struct option_decl qr_options[] = {
    {"quasi_rigid_k", OPT_REAL, offsetof(struct qr_data, k), "1000", "(0,inf)",
     "normal stiffness of the compliant layer k [N/m]"},
    {"quasi_rigid_c", OPT_REAL, offsetof(struct qr_data, c), "0", "[0,inf)", "normal damping c [N s/m]"},
    {"quasi_rigid_delta_max", OPT_REAL, offsetof(struct qr_data, dmax), "0.05", "(0,inf)",
     "maximum deflection delta_max: the rigid core is reached there [m]"},
    {"quasi_rigid_et", OPT_REAL, offsetof(struct qr_data, et), "1", "(0,inf)",
     "e_t: tangential semi-axis of the friction ellipsoid (Sec. 3, eq. 5; 3D only, 2D uses 1)"},
    {"quasi_rigid_eo", OPT_REAL, offsetof(struct qr_data, eo), "1", "(0,inf)",
     "e_o: second tangential semi-axis of the friction ellipsoid (eq. 5; 3D only)"},
    {"quasi_rigid_er", OPT_REAL, offsetof(struct qr_data, er), "1", "(0,inf)",
     "e_r: semi-axis of the frictional moment about the normal, a length [m] (eq. 5; 3D only)"},
};

static int qr_create(struct formulation *f)
{
  f->data = calloc(1, sizeof(struct qr_data));
  return f->data ? 0 : 1;
}

static void qr_destroy(struct formulation *f)
{
  struct qr_data *d = f->data;
  if (!d) return;
  free(d->M);
  free(d->nu0);
  free(d->papp);
  free(d->guess);
  free(d->ct);
  free(d->pool);
  free(d->eR);
  free(d->prev);
  qr3_free(&d->d3);
  free(d);
  f->data = NULL;
}

struct qr_idx {
  int ac, ar, db, dl, l1, l2, pns, pnr, pt, sg; /* pt, sg: -1 without friction */
};

/* l2 is the first of R's m2 multipliers */
static struct qr_idx qr_index(const struct qr_data *d, int i)
{
  int fb = d->ndof + (QR_FREE + d->fr) * i, cb = d->ct[i].comp, m2 = d->ct[i].m2;
  return (struct qr_idx){fb,
                         fb + 2,
                         fb + 4,
                         fb + 5,
                         cb,
                         cb + 1,
                         cb + 1 + m2,
                         cb + 2 + m2,
                         d->fr ? fb + 6 : -1,
                         d->fr ? cb + 3 + m2 : -1};
}

/* The friction rows (Sec. 3 eqs. (21)-(22), in 2D e_t = 1; eq. (37)'s tangential spring-damper only maps
 * p_t to a tangential deflection that no other row uses, so it is left out): with p_n = p_ns + p_nr and v_t
 * = t . (v_R(aR) - v_C(aC)) the tangential velocity of R relative to C at the contact points,
 *   0 = mu p_n v_t + p_t sigma,   0 <= sigma perp mu^2 p_n^2 - p_t^2 >= 0.
 * A frictionless contact in a world with friction elsewhere gets p_t = 0 and sigma = 0. */
static void qr_friction_rows(const struct qr_contact *ct, const double *nu, double h,
                             const struct side_eval *eC, const struct side_eval *eR, const double t[2],
                             const double dt_a[4], const double dt_q[6], double pn, double pt, double sg,
                             struct qr_idx ix, double *F, double *J, int n)
{
  if (ct->mu == 0.0) {
    F[ix.pt] = pt;
    F[ix.sg] = sg;
    jac_add(J, n, ix.pt, ix.pt, 1.0);
    jac_add(J, n, ix.sg, ix.sg, 1.0);
    return;
  }
  double mu = ct->mu, w[2] = {0.0, 0.0};
  for (int side = 0; side < 2; side++) { /* w = v_R(aR) - v_C(aC) */
    const struct gi_side *s = &ct->s[side];
    if (s->dof < 0) continue;
    const double *r = side == 1 ? eR->r : eC->r, *v = nu + s->dof;
    double sign = side == 1 ? 1.0 : -1.0;
    w[0] += sign * (v[0] - v[2] * r[1]);
    w[1] += sign * (v[1] + v[2] * r[0]);
  }
  double vt = t[0] * w[0] + t[1] * w[1];
  F[ix.pt] = mu * pn * vt + pt * sg;
  jac_add(J, n, ix.pt, ix.pns, mu * vt);
  jac_add(J, n, ix.pt, ix.pnr, mu * vt);
  jac_add(J, n, ix.pt, ix.pt, sg);
  jac_add(J, n, ix.pt, ix.sg, pt);
  double c = mu * pn; /* d F / d v_t */
  for (int side = 0; side < 2; side++) {
    const struct gi_side *s = &ct->s[side];
    if (s->dof < 0) continue;
    const double *r = side == 1 ? eR->r : eC->r;
    double sign = side == 1 ? 1.0 : -1.0, om = nu[s->dof + 2];
    int o = s->dof, ia = side == 1 ? ix.ar : ix.ac;
    /* r = a - x^{l+1}: d r / d v = -h I, d r / d a = I */
    jac_add(J, n, ix.pt, o, c * sign * (t[0] - h * om * t[1]));
    jac_add(J, n, ix.pt, o + 1, c * sign * (t[1] + h * om * t[0]));
    jac_add(J, n, ix.pt, o + 2, c * sign * (t[1] * r[0] - t[0] * r[1]));
    jac_add(J, n, ix.pt, ia, c * sign * om * t[1]);
    jac_add(J, n, ix.pt, ia + 1, -c * sign * om * t[0]);
  }
  double tq[3]; /* through t: its derivatives in aC and in C's pose */
  for (int j = 0; j < 2; j++)
    jac_add(J, n, ix.pt, ix.ac + j, c * (dt_a[j] * w[0] + dt_a[2 + j] * w[1]));
  for (int j = 0; j < 3; j++)
    tq[j] = dt_q[j] * w[0] + dt_q[3 + j] * w[1];
  side_add_pose(J, n, ix.pt, &ct->s[0], h, tq, c);
  F[ix.sg] = mu * mu * pn * pn - pt * pt;
  jac_add(J, n, ix.sg, ix.pns, 2.0 * mu * mu * pn);
  jac_add(J, n, ix.sg, ix.pnr, 2.0 * mu * mu * pn);
  jac_add(J, n, ix.sg, ix.pt, -2.0 * pt);
}

/* A polygon R's closest points and multipliers at the predicted pose (warm: from the previous answer in the
 * guess), then the face guess (implicit_polygon.h). */
static void qr_polygon_guess(struct qr_data *d, const struct qr_contact *ct, struct qr_idx ix,
                             const struct polygon *pg, double h, int warm)
{
  double *g = d->guess;
  implicit_polygon_guess(&ct->s[0], &ct->s[1], pg, d->pool + ct->g2, h, d->nu0, warm, g + ix.ac, g + ix.ar,
                         g + ix.l1, g + ix.l2);
  implicit_polygon_face_guess(&ct->s[0], &ct->s[1], pg, d->pool + ct->g2, h, d->nu0, g + ix.ac, g + ix.ar,
                              g + ix.l2);
}

static int qr_eval(struct qr_data *d, const double *z, double *F, double *J)
{
  int n = d->n, nd = d->ndof;
  double h = d->h;
  double *x = calloc((size_t)n, sizeof *x);
  if (!x) return 1;
  for (int i = 0; i < n; i++)
    x[i] = d->guess[i] + z[i];
  const double *nu = x;
  if (J) memset(J, 0, (size_t)n * n * sizeof *J);
  for (int r = 0; r < nd; r++) {
    double s = d->papp[r];
    for (int c = 0; c < nd; c++) {
      s -= d->M[(size_t)r * nd + c] * (nu[c] - d->nu0[c]);
      jac_add(J, n, r, c, -d->M[(size_t)r * nd + c]);
    }
    F[r] = s;
  }
  for (int i = 0; i < d->nc; i++) {
    const struct qr_contact *ct = &d->ct[i];
    const struct gi_side *sC = &ct->s[0], *sR = &ct->s[1];
    struct qr_idx ix = qr_index(d, i);
    const double *ac = x + ix.ac, *ar = x + ix.ar;
    double db = x[ix.db], dl = x[ix.dl], pns = x[ix.pns], pnr = x[ix.pnr];
    const int m2 = ct->m2;
    struct side_eval eC, *eR = d->eR, eCR, eY; /* eR[q]: R's inequality q at aR */
    side_eval(sC, h, nu, ac, &eC);
    for (int q = 0; q < m2; q++)
      if (m2 == 1)
        side_eval(sR, h, nu, ar, &eR[0]);
      else
        side_eval_fn(sR, &d->pool[ct->g2 + q], h, nu, ar, &eR[q]);
    side_eval(sC, h, nu, ar, &eCR);
    double u[2], du_a[4], du_q[6]; /* u = Gc / |Gc|, du / d aC, du / d pose of C */
    if (side_unit_normal(&eC, 1.0, u, du_a, du_q)) {
      free(x);
      return 1;
    }
    /* (34): aC - aR + l1 Gc(aC) and Gc(aC) + sum_q l2_q Gr_q(aR) ((15)-(16), (29) with C's one function) */
    implicit_kkt2_rows((struct implicit_kkt2_cols){ix.ac, ix.ar, ix.ac, ix.ar, ix.l1, ix.l2}, x, sC, &eC, sR,
                       eR, m2, h, F, J, n);
    /* (35): c(y) = 0, y = aC + delta u */
    double y[2] = {ac[0] + dl * u[0], ac[1] + dl * u[1]};
    side_eval(sC, h, nu, y, &eY);
    F[ix.db] = eY.f;
    for (int j = 0; j < 2; j++)
      jac_add(J, n, ix.db, ix.ac + j, eY.G[j] + dl * (eY.G[0] * du_a[j] + eY.G[1] * du_a[2 + j]));
    jac_add(J, n, ix.db, ix.dl, eY.G[0] * u[0] + eY.G[1] * u[1]);
    double yq[3];
    for (int j = 0; j < 3; j++)
      yq[j] = eY.dfdq[j] + dl * (eY.G[0] * du_q[j] + eY.G[1] * du_q[3 + j]);
    side_add_pose(J, n, ix.db, sC, h, yq, 1.0);
    /* (49): p_ns - h k delta - c (delta - delta^l) */
    F[ix.dl] = pns - h * d->k * dl - d->c * (dl - ct->delta0);
    jac_add(J, n, ix.dl, ix.pns, 1.0);
    jac_add(J, n, ix.dl, ix.dl, -(h * d->k + d->c));
    /* (48): +(n p_n + t p_t) on R at aR, the opposite on C at aC (t = n turned by +90 degrees; p_t = 0
     * without friction). G_a, G_q: the force's derivatives in aC and in C's pose through n and t. */
    double pn = pns + pnr, pt = ix.pt >= 0 ? x[ix.pt] : 0.0, t[2] = {-u[1], u[0]};
    double dt_a[4] = {-du_a[2], -du_a[3], du_a[0], du_a[1]}, dt_q[6], G_a[4], G_q[6];
    for (int j = 0; j < 3; j++)
      dt_q[j] = -du_q[3 + j], dt_q[3 + j] = du_q[j];
    for (int j = 0; j < 4; j++)
      G_a[j] = pn * du_a[j] + pt * dt_a[j];
    for (int j = 0; j < 6; j++)
      G_q[j] = pn * du_q[j] + pt * dt_q[j];
    for (int side = 0; side < 2; side++) {
      const struct gi_side *s = &ct->s[side];
      if (s->dof < 0) continue;
      double sign = side == 1 ? 1.0 : -1.0;
      const double *r = side == 1 ? eR[0].r : eC.r; /* the lever arm aR - x, whichever inequality */
      int ia = side == 1 ? ix.ar : ix.ac, o = s->dof;
      double Fv[2] = {u[0] * pn + t[0] * pt, u[1] * pn + t[1] * pt};
      for (int k = 0; k < 2; k++) {
        F[o + k] += sign * Fv[k];
        jac_add(J, n, o + k, ix.pns, sign * u[k]);
        jac_add(J, n, o + k, ix.pnr, sign * u[k]);
        if (ix.pt >= 0) jac_add(J, n, o + k, ix.pt, sign * t[k]);
        for (int j = 0; j < 2; j++)
          jac_add(J, n, o + k, ix.ac + j, sign * G_a[k * 2 + j]);
        side_add_pose(J, n, o + k, sC, h, G_q + 3 * k, sign);
      }
      F[o + 2] += sign * (r[0] * Fv[1] - r[1] * Fv[0]);
      double dr[2] = {Fv[1], -Fv[0]}, dF[2] = {-r[1], r[0]};
      for (int j = 0; j < 2; j++) {
        jac_add(J, n, o + 2, ia + j, sign * dr[j]);
        jac_add(J, n, o + 2, o + j, -sign * h * dr[j]);
        jac_add(J, n, o + 2, ix.ac + j, sign * (dF[0] * G_a[j] + dF[1] * G_a[2 + j]));
      }
      double rn = dF[0] * u[0] + dF[1] * u[1];
      jac_add(J, n, o + 2, ix.pns, sign * rn);
      jac_add(J, n, o + 2, ix.pnr, sign * rn);
      if (ix.pt >= 0) jac_add(J, n, o + 2, ix.pt, sign * (dF[0] * t[0] + dF[1] * t[1]));
      double tq[3];
      for (int j = 0; j < 3; j++)
        tq[j] = dF[0] * G_q[j] + dF[1] * G_q[3 + j];
      side_add_pose(J, n, o + 2, sC, h, tq, sign);
    }
    if (ix.pt >= 0) qr_friction_rows(ct, nu, h, &eC, &eR[0], t, dt_a, dt_q, pn, pt, x[ix.sg], ix, F, J, n);
    /* complementarity rows */
    F[ix.l1] = -(eC.f + db);
    F[ix.pns] = eCR.f + db;
    F[ix.pnr] = d->dmax - dl;
    for (int j = 0; j < 2; j++) {
      jac_add(J, n, ix.l1, ix.ac + j, -eC.G[j]);
      jac_add(J, n, ix.pns, ix.ar + j, eCR.G[j]);
    }
    for (int q = 0; q < m2; q++) {
      F[ix.l2 + q] = -eR[q].f;
      for (int j = 0; j < 2; j++)
        jac_add(J, n, ix.l2 + q, ix.ar + j, -eR[q].G[j]);
      side_add_pose(J, n, ix.l2 + q, sR, h, eR[q].dfdq, -1.0);
    }
    jac_add(J, n, ix.l1, ix.db, -1.0);
    jac_add(J, n, ix.pns, ix.db, 1.0);
    jac_add(J, n, ix.pnr, ix.dl, -1.0);
    side_add_pose(J, n, ix.l1, sC, h, eC.dfdq, -1.0);
    side_add_pose(J, n, ix.pns, sC, h, eCR.dfdq, 1.0);
  }
  free(x);
  /* The rows in lengths ((34)'s aC - aR + l1 grad c, (35), and the gaps of l1, l2, p_ns and p_nr) are divided
   * by h: a velocity, the scale of the Newton-Euler rows' impulse / mass. Unscaled, the core row
   * delta_max - delta moves by h / m per unit of p_nr, and at the core-impact step (h = 1e-4) the
   * Fischer-Burmeister merit has a local minimum with p_nr = 0.11 (the answer: 2.70), l1 < 0 and residuals
   * of 9e-5 spread over these rows, where fb_newton stalled (at h = 1e-5 the same with the l2 row at 1e-5);
   * scaled, it converges. The solution set is
   * unchanged (each row times a positive constant). */
  for (int i = 0; i < d->nc; i++) {
    struct qr_idx ix = qr_index(d, i);
    const int rows[] = {ix.ac, ix.ac + 1, ix.db, ix.l1, ix.pns, ix.pnr};
    for (int k = 0; k < 6 + d->ct[i].m2; k++) {
      int row = k < 6 ? rows[k] : ix.l2 + k - 6; /* and R's m2 gap rows */
      F[row] /= h;
      if (J)
        for (int j = 0; j < n; j++)
          J[(size_t)row * n + j] /= h;
    }
  }
  for (int i = 0; i < n; i++)
    if (!isfinite(F[i])) return 1;
  return 0;
}

static int qr_F(void *ctx, const double *z, double *F) { return qr_eval(ctx, z, F, NULL); }

static int qr_J(void *ctx, const double *z, double *J)
{
  struct qr_data *d = ctx;
  double *F = calloc((size_t)d->n, sizeof *F);
  if (!F) return 1;
  int rc = qr_eval(d, z, F, J);
  free(F);
  return rc;
}

static int qr_detect(struct formulation *f, const struct world *w, double h, struct contact_set *cs)
{
  (void)h;
  return implicit_detect_pairs(w, f->threshold >= 0.0 ? f->threshold : w->threshold, cs);
}

static int qr_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       struct cp_problem **out)
{
  struct qr_data *d = f->data;
  *out = NULL;
  if (w->dim == 3) {
    const double kcd[3] = {d->k, d->c, d->dmax}, e[3] = {d->et, d->eo, d->er};
    return qr3_assemble(f, &d->d3, kcd, e, w, cs, h, out);
  }
  int fr = w->mu > 0.0, nd = w->ndof, nc = cs->n, n = nd + (QR_FREE + fr) * nc, npool = 0;
  if (nc > d->cap_c) {
    struct qr_contact *c = realloc(d->ct, (size_t)nc * sizeof *c);
    if (!c) return formulation_fail(f, "out of memory");
    d->ct = c;
    d->cap_c = nc;
  }
  /* pass 1: the compliant body C (one function) and the rigid R, R's inequalities, the layout */
  char msg[200];
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    struct qr_contact *ct = &d->ct[i];
    int poly_a = w->shapes[c->sa].kind == SHAPE_POLYGON, poly_b = w->shapes[c->sb].kind == SHAPE_POLYGON;
    if (poly_a && poly_b)
      return formulation_fail(
          f,
          "shapes %d and %d are both polygons: the compliant side of Sec. 5's rows is one "
          "function (the active index k1 of eq. (29) known before the step, Sec. 4.3, "
          "Remark 1); use a disc, superellipse or half-plane for one of them",
          c->sa, c->sb);
    /* the compliant body: the half-plane when there is one (Sec. 6.3), else the one that is not a polygon,
     * else body b */
    int a_is_c = w->shapes[c->sa].kind == SHAPE_HALFPLANE || poly_b;
    int sh[2] = {a_is_c ? c->sa : c->sb, a_is_c ? c->sb : c->sa};
    if (implicit_side_init(w, sh[0], &ct->s[0], msg, sizeof msg)) return formulation_fail(f, "%s", msg);
    /* R: a polygon's edges, or one function */
    int m = implicit_side_body2_count(w, sh[1]);
    if (m > CONVEX_PART_MAX)
      return formulation_fail(
          f,
          "shape %d: a polygon of %d edges (quasi_rigid carries at most %d multipliers per "
          "contact)",
          sh[1], m, CONVEX_PART_MAX);
    if (implicit_side_body2_pool(w, sh[1], &ct->s[1], &d->pool, &d->cap_pool, &npool, &ct->m2, &ct->g2, msg,
                                 sizeof msg))
      return formulation_fail(f, "%s", msg);
    if (implicit_grow((void **)&d->eR, &d->cap_e, ct->m2, sizeof *d->eR))
      return formulation_fail(f, "out of memory");
    ct->sc = sh[0];
    ct->sr = sh[1];
    ct->mu = c->mu;
  }
  for (int i = 0; i < nc; i++) { /* the complementarity blocks follow the free ones */
    d->ct[i].comp = n;
    n += 3 + d->ct[i].m2 + fr;
  }
  if (implicit_grow((void **)&d->eR, &d->cap_e, 1, sizeof *d->eR))
    return formulation_fail(f, "out of memory");
  if (implicit_step_start(w, h, n, &d->M, &d->nu0, &d->papp, &d->guess))
    return formulation_fail(f, "out of memory");
  d->ndof = nd;
  d->fr = fr;
  d->nc = nc;
  d->n = n;
  d->h = h;
  /* pass 2: the initial guess, from the previous step's answer for the same pair, else the detection */
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    struct qr_contact *ct = &d->ct[i];
    const int m2 = ct->m2, a_is_c = ct->sc == c->sa;
    const struct polygon *pg = m2 > 1 ? w->shapes[ct->sr].polygon : NULL;
    const double *pt[2] = {a_is_c ? c->pa : c->pb, a_is_c ? c->pb : c->pa};
    struct qr_idx ix = qr_index(d, i);
    const struct qr_prev *pv = NULL;
    for (int j = 0; j < d->nprev && !pv; j++)
      if (d->prev[j].sc == ct->sc && d->prev[j].sr == ct->sr && d->prev[j].m2 == m2) pv = &d->prev[j];
    if (pv) {
      memcpy(d->guess + ix.ac, pv->blk, QR_FREE * sizeof(double));
      d->guess[ix.l1] = pv->blk[QR_FREE];
      d->guess[ix.l2] = pv->blk[QR_FREE + 1];
      memcpy(d->guess + ix.l2 + 1, pv->l2x, (size_t)(m2 - 1) * sizeof(double));
      d->guess[ix.pns] = pv->blk[QR_FREE + 2];
      d->guess[ix.pnr] = pv->blk[QR_FREE + 3];
      if (fr) d->guess[ix.pt] = pv->blk[QR_FREE + QR_COMP], d->guess[ix.sg] = pv->blk[QR_FREE + QR_COMP + 1];
      ct->delta0 = pv->blk[5];
      if (pg) qr_polygon_guess(d, ct, ix, pg, h, 1);
      continue;
    }
    d->guess[ix.db] = d->guess[ix.dl] = 0.0;
    d->guess[ix.pns] = d->guess[ix.pnr] = 0.0;
    if (fr) d->guess[ix.pt] = d->guess[ix.sg] = 0.0;
    ct->delta0 = 0.0;
    if (pg) {
      qr_polygon_guess(d, ct, ix, pg, h, 0);
      continue;
    }
    struct side_eval eC, eR;
    memcpy(d->guess + ix.ac, pt[0], 2 * sizeof(double));
    memcpy(d->guess + ix.ar, pt[1], 2 * sizeof(double));
    side_eval(&ct->s[0], 0.0, d->nu0, pt[0], &eC);
    side_eval(&ct->s[1], 0.0, d->nu0, pt[1], &eR);
    double gc = hypot(eC.G[0], eC.G[1]), gr = hypot(eR.G[0], eR.G[1]);
    d->guess[ix.l1] = gc > 0 ? fmax(c->gap, 0.0) / gc : 0.0;
    d->guess[ix.l2] = gr > 0 ? gc / gr : 1.0;
  }
  struct cp_problem *p = cp_ncp_create(n, qr_F, qr_J, d);
  if (!p) return formulation_fail(f, "out of memory");
  int nfree = nd + (QR_FREE + fr) * nc;
  for (int i = 0; i < n; i++) {
    p->lo[i] = i < nfree ? -INFINITY : -d->guess[i];
    p->hi[i] = INFINITY;
  }
  snprintf(p->name, sizeof p->name, "quasi_rigid nc=%d (z shifted by the warm start)", nc);
  int other = 0;
  for (int i = 0; i < nc; i++)
    other += 7 + d->ct[i].m2; /* aC, aR, delta_bar, delta, l1, l2_1 .. l2_m */
  f->rows = (struct row_counts){
      .normal = 2 * nc, .friction = 2 * fr * nc, .velocity = nd, .other = other, .total = n};
  *out = p;
  return 0;
}

static int qr_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                      const double *z, double *nu, double *pn)
{
  struct qr_data *d = f->data;
  (void)h;
  (void)cs;
  if (w->dim == 3) return qr3_recover(f, d->d3, w, z, nu, pn);
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->guess[i] + z[i];
  if (d->nc > d->cap_prev) {
    struct qr_prev *p = realloc(d->prev, (size_t)d->nc * sizeof *p);
    if (!p) return formulation_fail(f, "out of memory");
    d->prev = p;
    d->cap_prev = d->nc;
  }
  d->nprev = d->nc;
  for (int i = 0; i < d->nc; i++) {
    struct qr_idx ix = qr_index(d, i);
    struct qr_prev *pv = &d->prev[i];
    pv->sc = d->ct[i].sc;
    pv->sr = d->ct[i].sr;
    pv->m2 = d->ct[i].m2;
    for (int k = 0; k < QR_FREE; k++)
      pv->blk[k] = d->guess[ix.ac + k] + z[ix.ac + k];
    const int at[QR_COMP] = {ix.l1, ix.l2, ix.pns, ix.pnr};
    for (int k = 0; k < QR_COMP; k++)
      pv->blk[QR_FREE + k] = d->guess[at[k]] + z[at[k]];
    for (int q = 1; q < pv->m2; q++)
      pv->l2x[q - 1] = d->guess[ix.l2 + q] + z[ix.l2 + q];
    pv->blk[QR_FREE + QR_COMP] = d->fr ? d->guess[ix.pt] + z[ix.pt] : 0.0;
    pv->blk[QR_FREE + QR_COMP + 1] = d->fr ? d->guess[ix.sg] + z[ix.sg] : 0.0;
    pn[i] = pv->blk[QR_FREE + 2] + pv->blk[QR_FREE + 3]; /* p_ns + p_nr */
  }
  return 0;
}

/* The carried state: quasi_rigid_state.c's layout in 2D; a 3D run's state is quasi_rigid3d.c's with its count
 * stored as -1 - nprev. */
static int qr_carry_get(const struct formulation *f, double *buf, int cap)
{
  const struct qr_data *d = f->data;
  if (d->d3) {
    int need3 = qr3_carry_get(d->d3, buf, cap);
    if (need3 <= cap) buf[0] = -1.0 - buf[0];
    return need3;
  }
  return qr_state_export(d->prev, d->nprev, d->fr, buf, cap);
}

static int qr_carry_set(struct formulation *f, const double *buf, int n)
{
  struct qr_data *d = f->data;
  if (n > 0 && buf[0] < 0.0) {
    double *b3 = malloc((size_t)n * sizeof *b3);
    if (!b3) return formulation_fail(f, "out of memory");
    memcpy(b3, buf, (size_t)n * sizeof *b3);
    b3[0] = -1.0 - b3[0];
    int rc = qr3_carry_set(f, &d->d3, b3, n);
    free(b3);
    return rc;
  }
  char msg[200];
  if (qr_state_import(&d->prev, &d->cap_prev, &d->nprev, buf, n, msg, sizeof msg))
    return formulation_fail(f, "%s", msg);
  return 0;
}

static void qr_view(const struct formulation *f, FILE *out)
{
  const struct qr_data *d = f->data;
  fprintf(
      out,
      "  k %g, c %g, delta_max %g; friction (21)-(22) with mu > 0 (3D: e_t %g, e_o %g, e_r %g); 2D discs, "
      "superellipses, half-planes and polygons (rigid side), 3D spheres, superellipsoids, planes and "
      "polyhedra "
      "(rigid side)\n",
      d->k, d->c, d->dmax, d->et, d->eo, d->er);
}

const struct formulation_type formulation_type_quasi_rigid = {
    .name = "quasi_rigid",
    .summary = "mixed NCP, rigid core in a compliant layer (k, c, delta_max); ellipsoidal friction",
    .paper = "Chakraborty, Berard, Akella & Trinkle, geometrically implicit time-stepping, eqs. (33)-(38), "
             "(48)-(55)",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_HALFPLANE | SHAPE_SUPERELLIPSE | SHAPE_POLYGON | SHAPE_SPHERE | SHAPE_PLANE |
              SHAPE_SUPERELLIPSOID | SHAPE_POLYHEDRON,
    .joints = 0,
    .options = qr_options,
    .n_options = sizeof qr_options / sizeof qr_options[0],
    .create = qr_create,
    .assemble = qr_assemble,
    .recover = qr_recover,
    .detect = qr_detect,
    .carry_get = qr_carry_get,
    .carry_set = qr_carry_set,
    .destroy = qr_destroy,
    .view = qr_view,
};
