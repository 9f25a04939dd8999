/* quasi_rigid.c — the geometrically implicit time-stepper for quasi-rigid bodies (Chakraborty, Berard, Akella
 * & Trinkle, "A geometrically implicit time-stepping method for multibody systems with intermittent contact",
 * Sec. 5.1, eqs. (33)-(38); the disc on the quasi-rigid half-plane of Sec. 6.3 is eqs. (48)-(55)): a rigid
 * core inside a compliant layer of normal stiffness k, damping c and maximum deflection delta_max. Per
 * contact one body is compliant (C, function c: the half-plane (plane) when there is one, as in the paper's
 * example) and one rigid (R, function r). Rows, with n = grad c(aC) / |grad c(aC)| (from C towards R),
 * positions at the end of the step (backward Euler), 2D and 3D alike:
 *   0 = -M (nu - nu^l) + W_n (p_ns + p_nr) + p_app, W_n: +n at aR on R, -n at aC on C            (48)
 *   0 = aC - aR + l1 grad c(aC),   0 = grad c(aC) + l2 grad r(aR)  (C's deflected level set)    (34)
 *   0 = c(aC + delta n)  (the deflection from the algebraic one)                                (35)
 *   0 = p_ns - (h k delta + c (delta - delta^l))                                                 (49), (37)
 *   0 <= (l1, l2, p_ns, p_nr) perp (-(c(aC) + delta_bar), -r(aR), c(aR) + delta_bar, delta_max - delta) >= 0
 * ((34), (36) with psi = c at the rigid body's point, and the rigid core's impulse p_nr). Which body carries
 * l1 follows Proposition 1 (the deflected compliant body plays f): the paper's example writes the same rows
 * with the roles of (50)-(51) and the signs of (52)-(53) arranged differently; the solution set is the same.
 * In a world with friction each contact adds the ellipsoidal law (21)-(22) on p_n = p_ns + p_nr: 2D p_t and
 * sigma with e_t = 1 (qr_friction2), 3D p_t, p_o, p_r and sigma with e_t, e_o, e_r (implicit_friction3.h, R
 * receiving +n); eq. (37)'s tangential spring only maps the friction impulse to a deflection no other row
 * uses, so it is left out; a frictionless world (the paper's examples) has the problem above unchanged. The
 * rows in lengths are divided by h (qr_scale_rows). Unknowns, warm start and bounds: implicit_step.h. A
 * polygon (polyhedron) is the rigid body R as an intersection of half-planes (half-spaces), Sec. 4.3: one
 * multiplier l2_q per face with its gap row -r_q(aR), grad c(aC) + sum_q l2_q grad r_q(aR) = 0 in (34), the
 * guesses of implicit_polygon.c (implicit_polyhedron.c); C stays one function (two polytopes are refused).
 * Analytic Jacobian (checked by finite differences in tests/formulations/types/implicit/test_quasi_rigid.c,
 * tests/formulations/types/implicit/test_quasi_rigid_polygon.c). Options: qr_options below. */
#include "formulation.h"
#include "implicit.h"
#include "implicit_carry.h"
#include "implicit_contact2d.h"
#include "implicit_contact3d.h"
#include "implicit_friction3.h"
#include "implicit_polygon.h"
#include "implicit_step.h"

#include <stddef.h>
#include <string.h>

static const struct option_decl qr_options[] = {
    {"quasi_rigid_k", OPT_REAL, offsetof(struct implicit_step, k), "1000", "(0,inf)",
     "normal stiffness of the compliant layer k [N/m]"},
    {"quasi_rigid_c", OPT_REAL, offsetof(struct implicit_step, cdamp), "0", "[0,inf)",
     "normal damping c [N s/m]"},
    {"quasi_rigid_delta_max", OPT_REAL, offsetof(struct implicit_step, dmax), "0.05", "(0,inf)",
     "maximum deflection delta_max: the rigid core is reached there [m]"},
    {"quasi_rigid_et", OPT_REAL, offsetof(struct implicit_step, et), "1", "(0,inf)",
     "e_t: tangential semi-axis of the friction ellipsoid (Sec. 3, eq. 5; 3D only, 2D uses 1)"},
    {"quasi_rigid_eo", OPT_REAL, offsetof(struct implicit_step, eo), "1", "(0,inf)",
     "e_o: second tangential semi-axis of the friction ellipsoid (eq. 5; 3D only)"},
    {"quasi_rigid_er", OPT_REAL, offsetof(struct implicit_step, er), "1", "(0,inf)",
     "e_r: semi-axis of the frictional moment about the normal, a length [m] (eq. 5; 3D only)"},
    {"quasi_rigid_cone_row", OPT_CHOICE, offsetof(struct implicit_step, cone_degree1), "paper",
     "paper|degree1",
     "the friction cone row (22) on p_n = p_ns + p_nr, which sigma is complementary to: paper, mu^2 p_n^2 - "
     "|p|_e^2 (in (N s)^2); degree1, mu p_n - |p|_e (the same solutions where p_n >= 0, in N s)"},
};

/* the compliant body: the half-plane (plane) when there is one (Sec. 6.3), else the one that is not a
 * polygon (polyhedron), else body b */
static int qr_a_first(int flat_a, int flat_b, int poly_a, int poly_b)
{
  (void)poly_a;
  return flat_a || (poly_b && !flat_b);
}

/* ---- the rows of both dimensions ---- */

/* (49): p_ns - h k delta - c (delta - delta^l), and the core's gap delta_max - delta */
static void qr_spring_rows(const struct implicit_step *d, int i, struct implicit_index ix, const double *x,
                           double *F, double *J)
{
  const int n = d->n;
  const double h = d->h, dl = x[ix.dl];
  F[ix.dl] = x[ix.pn] - h * d->k * dl - d->cdamp * (dl - d->c[i].delta0);
  jac_add(J, n, ix.dl, ix.pn, 1.0);
  jac_add(J, n, ix.dl, ix.dl, -(h * d->k + d->cdamp));
  F[ix.pnr] = d->dmax - dl;
  jac_add(J, n, ix.pnr, ix.dl, -1.0);
}

/* The rows in lengths ((34)'s aC - aR + l1 grad c, (35), and the gaps of l1, l2, p_ns and p_nr) are divided
 * by h: a velocity, the scale of the Newton-Euler rows' impulse / mass. Unscaled, the core row
 * delta_max - delta moves by h / m per unit of p_nr, and at the core-impact step (h = 1e-4) the
 * Fischer-Burmeister merit has a local minimum with p_nr = 0.11 (the answer: 2.70), l1 < 0 and residuals
 * of 9e-5 spread over these rows, where fb_newton stalled (at h = 1e-5 the same with the l2 row at 1e-5);
 * scaled, it converges. The solution set is unchanged (each row times a positive constant). */
static void qr_scale_rows(const struct implicit_step *d, struct implicit_index ix, int m2, double *F,
                          double *J)
{
  const int n = d->n, nfix = d->dim + 4;
  const int rows[7] = {ix.a1, ix.a1 + 1, ix.a1 + 2, ix.db, ix.l1, ix.pn, ix.pnr};
  for (int k = 0; k < nfix + m2; k++) {
    int row = k < d->dim ? rows[k] : k < nfix ? rows[3 + k - d->dim] : ix.l2 + k - nfix; /* and R's m2 gaps */
    F[row] /= d->h;
    if (J)
      for (int j = 0; j < n; j++)
        J[(size_t)row * n + j] /= d->h;
  }
}

/* ---- 2D ---- */

/* (35): c(y) = 0, y = aC + delta u, with u = fc->n and its derivatives */
static void qr_deflection2(const struct implicit_step *d, const struct gi_side *sC, struct implicit_index ix,
                           const struct implicit_force2 *fc, const double *x, double *F, double *J)
{
  const int n = d->n;
  const double h = d->h, dl = x[ix.dl], *ac = x + ix.a1, *u = fc->n, *du_a = fc->dn_a, *du_q = fc->dn_q;
  double y[2] = {ac[0] + dl * u[0], ac[1] + dl * u[1]};
  struct side_eval eY;
  side_eval(sC, h, x, y, &eY);
  F[ix.db] = eY.f;
  for (int j = 0; j < 2; j++)
    jac_add(J, n, ix.db, ix.a1 + j, eY.G[j] + dl * (eY.G[0] * du_a[j] + eY.G[1] * du_a[2 + j]));
  jac_add(J, n, ix.db, ix.dl, eY.G[0] * u[0] + eY.G[1] * u[1]);
  double yq[3];
  for (int j = 0; j < 3; j++)
    yq[j] = eY.dfdq[j] + dl * (eY.G[0] * du_q[j] + eY.G[1] * du_q[3 + j]);
  side_add_pose(J, n, ix.db, sC, h, yq, 1.0);
}

/* The friction rows (Sec. 3 eqs. (21)-(22), in 2D e_t = 1): with p_n = p_ns + p_nr and v_t = t . (v_R(aR) -
 * v_C(aC)) the tangential velocity of R relative to C at the contact points,
 *   0 = mu p_n v_t + p_t sigma,   0 <= sigma perp mu^2 p_n^2 - p_t^2 >= 0.
 * A frictionless contact in a world with friction elsewhere gets p_t = 0 and sigma = 0. */
static void qr_friction2(const struct implicit_step *d, double mu, struct implicit_index ix,
                         const struct implicit_force2 *fc, const double *nu, double *F, double *J)
{
  const int n = d->n;
  const double h = d->h, pn = fc->pn, pt = fc->pt, sg = nu[ix.sg], *t = fc->t;
  if (mu == 0.0) {
    F[ix.pt] = pt;
    F[ix.sg] = sg;
    jac_add(J, n, ix.pt, ix.pt, 1.0);
    jac_add(J, n, ix.sg, ix.sg, 1.0);
    return;
  }
  double w[2] = {0.0, 0.0};
  for (int side = 0; side < 2; side++) { /* w = v_R(aR) - v_C(aC) */
    if (fc->s[side]->dof < 0) continue;
    const double *r = fc->r[side], *v = nu + fc->s[side]->dof, sign = side == 1 ? 1.0 : -1.0;
    w[0] += sign * (v[0] - v[2] * r[1]);
    w[1] += sign * (v[1] + v[2] * r[0]);
  }
  double vt = t[0] * w[0] + t[1] * w[1];
  F[ix.pt] = mu * pn * vt + pt * sg;
  jac_add(J, n, ix.pt, ix.pn, mu * vt);
  jac_add(J, n, ix.pt, ix.pnr, mu * vt);
  jac_add(J, n, ix.pt, ix.pt, sg);
  jac_add(J, n, ix.pt, ix.sg, pt);
  double c = mu * pn; /* d F / d v_t */
  for (int side = 0; side < 2; side++) {
    const int o = fc->s[side]->dof, ia = fc->a[side];
    if (o < 0) continue;
    const double *r = fc->r[side], sign = side == 1 ? 1.0 : -1.0, om = nu[o + 2];
    /* r = a - x^{l+1}: d r / d v = -h I, d r / d a = I */
    jac_add(J, n, ix.pt, o, c * sign * (t[0] - h * om * t[1]));
    jac_add(J, n, ix.pt, o + 1, c * sign * (t[1] + h * om * t[0]));
    jac_add(J, n, ix.pt, o + 2, c * sign * (t[1] * r[0] - t[0] * r[1]));
    jac_add(J, n, ix.pt, ia, c * sign * om * t[1]);
    jac_add(J, n, ix.pt, ia + 1, -c * sign * om * t[0]);
  }
  double tq[3]; /* through t: its derivatives in aC and in C's pose */
  for (int j = 0; j < 2; j++)
    jac_add(J, n, ix.pt, ix.a1 + j, c * (fc->dt_a[j] * w[0] + fc->dt_a[2 + j] * w[1]));
  for (int j = 0; j < 3; j++)
    tq[j] = fc->dt_q[j] * w[0] + fc->dt_q[3 + j] * w[1];
  side_add_pose(J, n, ix.pt, fc->s[0], h, tq, c);
  const int pncol[2] = {ix.pn, ix.pnr};
  const double one = 1.0;
  implicit_cone_row(ix.sg, mu, pn, pncol, 2, &pt, &ix.pt, &one, 1, d->cone_degree1, F, J, n);
}

static int qr_rows2(const struct implicit_step *d, int i, const double *x, double *F, double *J)
{
  const struct implicit_contact *ct = &d->c[i];
  const struct implicit_index ix = implicit_step_index(d, i);
  const int n = d->n, m2 = ct->m2;
  const double h = d->h;
  struct side_eval eC, eCR, *eR = d->e2; /* eR[q]: R's inequality q at aR */
  implicit_contact2d_sides(ct->s2, m2 > 1 ? d->pool + ct->g2 : NULL, m2, h, x, x + ix.a1, x + ix.a2, &eC, eR,
                           &eCR);
  /* (48): +(u p_n + t p_t) on R at aR, the opposite on C at aC, u = Gc / |Gc| and t = u turned by +90
   * degrees (p_t = 0 without friction), both functions of aC and C's pose */
  struct implicit_force2 fc = {.s = {&ct->s2[0], &ct->s2[1]},
                               .r = {eC.r, eR[0].r}, /* the lever arm aR - x, whichever inequality */
                               .a = {ix.a1, ix.a2},
                               .plus = 1,
                               .sn = &ct->s2[0],
                               .an = ix.a1,
                               .pn = x[ix.pn] + x[ix.pnr],
                               .pt = ix.pt >= 0 ? x[ix.pt] : 0.0,
                               .pn_col = {ix.pn, ix.pnr},
                               .npn = 2,
                               .pt_col = ix.pt};
  if (implicit_force2_frame(&fc, &eC, 1.0, 1.0)) return 1;
  /* (34): aC - aR + l1 Gc(aC) and Gc(aC) + sum_q l2_q Gr_q(aR) ((15)-(16), (29) with C's one function) */
  implicit_kkt2_rows((struct implicit_kkt2_cols){ix.a1, ix.a2, ix.a1, ix.a2, ix.l1, ix.l2}, x, &ct->s2[0],
                     &eC, &ct->s2[1], eR, m2, h, F, J, n);
  qr_deflection2(d, &ct->s2[0], ix, &fc, x, F, J);
  qr_spring_rows(d, i, ix, x, F, J);
  implicit_force2_rows(&fc, h, F, J, n);
  if (ix.pt >= 0) qr_friction2(d, ct->mu, ix, &fc, x, F, J);
  implicit_contact2d_gaps(
      ct->s2, &eC, eR, m2, &eCR, h,
      (struct implicit_gap_at){.a1 = ix.a1, .a2 = ix.a2, .l1 = ix.l1, .l2 = ix.l2, .pn = ix.pn, .db = ix.db},
      x, F, J, n);
  qr_scale_rows(d, ix, m2, F, J);
  return 0;
}

/* ---- 3D ---- */

/* (35): c(y) = 0 at y = aC + delta u */
static void qr_deflection3(const struct implicit_step *d, const struct implicit_contact3d *c,
                           const struct dv *u, const double *x, double *F, double *J)
{
  const int n = d->n;
  const struct implicit_index ix = c->ix;
  const double dl = x[ix.dl], *ac = x + ix.a1;
  double y[3];
  for (int k = 0; k < 3; k++)
    y[k] = ac[k] + dl * u->v[k];
  struct side3_eval eY;
  side3_eval(c->s1, d->h, x, y, &eY);
  F[ix.db] = eY.f;
  double dy[NL];
  for (int j = 0; j < NL; j++) {
    dy[j] = 0.0;
    for (int k = 0; k < 3; k++)
      dy[j] += eY.G[k] * (dl * u->d[k][j] + (j == k ? 1.0 : 0.0));
    if (j >= 6 && j < 12) dy[j] += eY.dfdn[j - 6];
  }
  scatter(J, n, ix.db, c->cols, dy, 1.0);
  jac_add(J, n, ix.db, ix.dl, eY.G[0] * u->v[0] + eY.G[1] * u->v[1] + eY.G[2] * u->v[2]);
}

/* (48): +u p_n on R at aR, -u p_n on C at aC, and their moments */
static void qr_normal3(const struct implicit_step *d, const struct implicit_contact3d *c, const struct dv *u,
                       const double *x, double *F, double *J)
{
  const int n = d->n;
  const struct implicit_index ix = c->ix;
  const double pn = x[ix.pn] + x[ix.pnr];
  struct dv Fv;
  for (int k = 0; k < 3; k++) {
    Fv.v[k] = u->v[k] * pn;
    for (int j = 0; j < NL; j++)
      Fv.d[k][j] = u->d[k][j] * pn;
  }
  const struct gi_side3 *ss[2] = {c->s1, c->s2};
  const double *rr[2] = {c->e1.r, c->e2[0].r}; /* aR - xR: the same for every inequality of R */
  for (int b = 0; b < 2; b++) {
    int o = ss[b]->dof;
    if (o < 0) continue;
    double sign = b == 1 ? 1.0 : -1.0;
    struct dv r, tq;
    memset(&r, 0, sizeof r);
    for (int k = 0; k < 3; k++) {
      r.v[k] = rr[b][k];
      r.d[k][3 * b + k] = 1.0;
      r.d[k][6 + 6 * b + k] = -d->h;
    }
    dv_cross(&r, &Fv, &tq);
    double ru[3];
    cross(r.v, u->v, ru);
    for (int k = 0; k < 3; k++) {
      F[o + k] += sign * Fv.v[k];
      scatter(J, n, o + k, c->cols, Fv.d[k], sign);
      jac_add(J, n, o + k, ix.pn, sign * u->v[k]);
      jac_add(J, n, o + k, ix.pnr, sign * u->v[k]);
      F[o + 3 + k] += sign * tq.v[k];
      scatter(J, n, o + 3 + k, c->cols, tq.d[k], sign);
      jac_add(J, n, o + 3 + k, ix.pn, sign * ru[k]);
      jac_add(J, n, o + 3 + k, ix.pnr, sign * ru[k]);
    }
  }
}

/* Friction (Sec. 3 eqs. (21)-(22) on p_n = p_ns + p_nr, the rows of implicit_friction3.h with R as the body
 * that receives +u): p_t, p_o, p_r and sigma. A frictionless contact in a world with friction elsewhere gets
 * p_t = p_o = p_r = 0 and sigma = 0. */
static int qr_friction3(const struct implicit_step *d, const struct implicit_contact3d *c, const struct dv *u,
                        const double *x, double *F, double *J)
{
  const struct implicit_index ix = c->ix;
  if (c->ct->mu == 0.0) {
    const int rows[4] = {ix.pt, ix.pt + 1, ix.pt + 2, ix.sg};
    for (int k = 0; k < 4; k++) {
      F[rows[k]] = x[rows[k]];
      jac_add(J, d->n, rows[k], rows[k], 1.0);
    }
    return 0;
  }
  const struct friction3 fc = implicit_contact3d_friction(d, c, x, 1, 0); /* qr_normal3 applies u p_n */
  return implicit_friction3_rows(&fc, u, x, F, J, d->n);
}

static int qr_rows3(const struct implicit_step *d, int i, const double *x, double *F, double *J)
{
  struct implicit_contact3d c;
  implicit_contact3d_eval(d, i, x, &c);
  const struct dv *Gc = &c.G1;
  if (!(Gc->v[0] * Gc->v[0] + Gc->v[1] * Gc->v[1] + Gc->v[2] * Gc->v[2] > 0.0)) return 1;
  struct dv u;
  dv_normalise(Gc, &u);
  implicit_contact3d_kkt(&c, x, F, J, d->n); /* (34) */
  qr_deflection3(d, &c, &u, x, F, J);
  qr_spring_rows(d, i, c.ix, x, F, J);
  qr_normal3(d, &c, &u, x, F, J);
  if (c.ix.pt >= 0 && qr_friction3(d, &c, &u, x, F, J)) return 1;
  implicit_contact3d_gaps(&c, x, F, J, d->n);
  qr_scale_rows(d, c.ix, c.m2, F, J);
  return 0;
}

/* ---- the model ---- */

/* A polygon R's closest points and multipliers at the predicted pose, then the face guess
 * (implicit_polygon.h). */
static void qr_polygon_guess(struct implicit_step *d, const struct world *w, int i, int warm)
{
  const struct implicit_contact *ct = &d->c[i];
  const struct implicit_index ix = implicit_step_index(d, i);
  double *g = d->guess;
  implicit_step_polygon_guess(d, w, i, warm);
  implicit_polygon_face_guess(&ct->s2[0], &ct->s2[1], w->shapes[ct->sb].polygon, d->pool + ct->g2, d->h,
                              d->nu0, g + ix.a1, g + ix.a2, g + ix.l2);
}

static const struct implicit_model qr_model = {
    .name = "quasi_rigid",
    .nextra = 2,
    .npn = 2,
    .friction = 0,
    .max_edges = CONVEX_PART_MAX,
    .a_first = qr_a_first,
    .refusal =
        {"shapes %d and %d are both polygons: the compliant side of Sec. 5's rows is one function (the "
         "active index k1 of eq. (29) known before the step, Sec. 4.3, Remark 1); use a disc, "
         "superellipse or half-plane for one of them",
         "shapes %d and %d are both polyhedra: the compliant side of Sec. 5's rows is one function (the "
         "active index k1 of eq. (29) known before the step, Sec. 4.3, Remark 1); use a sphere, "
         "superellipsoid or plane for one of them"},
    .rows = {qr_rows2, qr_rows3},
    .polytope_guess = {qr_polygon_guess, implicit_step_polyhedron_guess},
    .sigma_is_friction_2d = 1, /* as its 2D rows were always counted (tasks.csv's rows_ columns) */
};

static int qr_create(struct formulation *f) { return implicit_step_create(f, &qr_model); }

/* The carried state: implicit_carry.h's qr2 in 2D, qr3 (its first value negative) in 3D. */
static int qr_carry_get(const struct formulation *f, double *buf, int cap)
{
  const struct implicit_step *d = f->data;
  return d->prev.dim == 3 ? implicit_carry_qr3_get(&d->prev, buf, cap)
                          : implicit_carry_qr2_get(&d->prev, buf, cap);
}

static int qr_carry_set(struct formulation *f, const double *buf, int n)
{
  struct implicit_step *d = f->data;
  char msg[200];
  int three = n > 0 && buf[0] < 0.0;
  if (three ? implicit_carry_qr3_set(&d->prev, implicit_step_width(d->model, 3), buf, n, msg, sizeof msg)
            : implicit_carry_qr2_set(&d->prev, implicit_step_width(d->model, 2), buf, n, msg, sizeof msg))
    return formulation_fail(f, "%s", msg);
  return 0;
}

static void qr_view(const struct formulation *f, FILE *out)
{
  const struct implicit_step *d = f->data;
  fprintf(
      out,
      "  k %g, c %g, delta_max %g; friction (21)-(22) with mu > 0 (3D: e_t %g, e_o %g, e_r %g); 2D discs, "
      "superellipses, half-planes and polygons (rigid side), 3D spheres, superellipsoids, planes and "
      "polyhedra "
      "(rigid side)\n",
      d->k, d->cdamp, d->dmax, d->et, d->eo, d->er);
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
    .assemble = implicit_step_assemble,
    .recover = implicit_step_recover,
    .detect = implicit_step_detect,
    .carry_get = qr_carry_get,
    .carry_set = qr_carry_set,
    .forget = implicit_step_forget,
    .destroy = implicit_step_destroy,
    .view = qr_view,
};
