/* geometric_implicit.c — the geometrically implicit time-stepper of Chakraborty, Berard, Akella & Trinkle,
 * "A geometrically implicit time-stepping method for multibody systems with intermittent contact", Sec. 3-4:
 * the contact points are unknowns of the step, fixed by the KKT conditions of the distance problem, so the
 * geometry is not linearised. Per step one mixed NCP (eqs. (20)-(22) with the rows of Proposition 1):
 *   0 = -M (nu - nu^l) + W_n p_n + W_t p_t + p_app                (Newton-Euler, W's at l+1)
 *   0 = a1 - a2 + l1 grad f(a1)                                   (15)
 *   0 = grad f(a1) + l2 grad g(a2)                                (16)
 *   0 = e_t^2 mu p_n (W_t^T nu) + p_t sigma                       (21, friction; 3D: also o, r)
 *   0 <= l1 perp -f(a1) >= 0,  0 <= l2 perp -g(a2) >= 0           (17), (18)
 *   0 <= p_n perp f(a2) >= 0                                      (19)
 *   0 <= sigma perp mu^2 p_n^2 - p_t^2 / e_t^2 (- p_o^2 / e_o^2 - p_r^2 / e_r^2) >= 0   (22)
 * with f, g the implicit functions of the two bodies evaluated at the poses of the end of the step (backward
 * Euler on positions, the stepper's own update); for the unit disc on the plane these are eqs. (41)-(47). The
 * normal n = grad g(a2) / |grad g(a2)| of body 2 (towards body 1); 2D t = (n_y, -n_x); 3D t is a fixed world
 * axis projected onto the plane normal to n (chosen per pair, the axis least aligned with the first normal),
 * o = n x t, and body 1 also receives the moment n p_r. Unknowns, warm start and bounds: implicit_step.h.
 * Polygons (2D) and polyhedra (3D) are intersections of half-planes (half-spaces), Sec. 4.3: as body 2 with
 * inequalities g_1 .. g_m, (16) becomes (29) G1(a1) + sum_j l2_j G2_j(a2) = 0 and (18) becomes (31), one
 * multiplier per face; body 1 stays a single function, so the active index k1 of (28)-(29) is known before
 * the step, the case Sec. 7 says PATH-based implementations are restricted to; the normal is then
 * -G1(a1)/|G1|, and the closest points are guessed at the predicted pose (implicit_polygon.c,
 * implicit_polyhedron.c). Two polytopes in one contact would need k1 chosen within the step (Remark 1) and
 * are refused. Rows: 2D implicit_contact2d.c, 3D below with implicit_friction3.h. The Jacobian is analytic
 * (tests/formulations/types/implicit/test_geometric_implicit.c checks it against finite differences).
 * 2D worlds' joints (free impulses, equality rows), force-limited motors and support friction (the law
 * (21)-(22) with a known normal impulse) are implicit_drives.h's rows; 3D worlds with them are refused.
 * Options: -geometric_implicit_et, _eo, _er (the friction ellipsoid, eq. (5)); -geometric_implicit_creep (a
 * slip speed allowed while friction sticks: with several frictional contacts on one body the paper's law
 * leaves the split of the impulses statically indeterminate, a singular Jacobian for Newton). */
#include "formulation.h"
#include "geometric_implicit3d.h"
#include "implicit.h"
#include "implicit_carry.h"
#include "implicit_contact2d.h"
#include "implicit_contact3d.h"
#include "implicit_friction3.h"
#include "implicit_polygon.h"
#include "implicit_polyhedron.h"
#include "implicit_step.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static const struct option_decl gi_options[] = {
    {"geometric_implicit_et", OPT_REAL, offsetof(struct implicit_step, et), "1", "(0,inf)",
     "e_t: semi-axis of the friction ellipse (Sec. 3, eq. 5); 2D has no e_o, e_r"},
    {"geometric_implicit_eo", OPT_REAL, offsetof(struct implicit_step, eo), "1", "(0,inf)",
     "e_o: second tangential semi-axis of the friction ellipsoid (eq. 5; 3D only)"},
    {"geometric_implicit_er", OPT_REAL, offsetof(struct implicit_step, er), "1", "(0,inf)",
     "e_r: semi-axis of the frictional moment about the normal (eq. 5; 3D only)"},
    {"geometric_implicit_creep", OPT_REAL, offsetof(struct implicit_step, creep), "0", "[0,inf)",
     "slip speed allowed while friction sticks [m/s]: (21) reads ... + p_t (sigma + creep), the same for "
     "support friction and motors; it picks the statically indeterminate split of the friction impulses "
     "(0: the paper's law)"},
    {"geometric_implicit_cone_row", OPT_CHOICE, offsetof(struct implicit_step, cone_degree1), "paper",
     "paper|degree1",
     "the friction cone row (22) sigma is complementary to: paper, mu^2 p_n^2 - |p|_e^2 (in (N s)^2, so the "
     "tolerance bounds the friction's square); degree1, mu p_n - |p|_e (the same solutions where p_n >= 0, "
     "in N s)"},
    {"geometric_implicit_equilibrate", OPT_BOOL, offsetof(struct implicit_step, equilibrate), "0", NULL,
     "solve each step's NCP with its rows and unknowns scaled by powers of two that equilibrate the "
     "Jacobian at the guess (Ruiz): for worlds whose impulses, speeds and lengths differ by orders of "
     "magnitude (the grasp study's centimetre parts)"},
};

/* body 1 carries f (evaluated at a2 in (19)): the single function, bounded when there is a choice */
static int gi_a_first(int flat_a, int flat_b, int poly_a, int poly_b)
{
  (void)flat_b;
  return !(poly_a || (!poly_b && flat_a));
}

static int gi_rows2(const struct implicit_step *d, int i, const double *x, double *F, double *J)
{
  const struct implicit_contact *ct = &d->c[i];
  const struct implicit_index ix = implicit_step_index(d, i);
  const struct implicit_contact2d_index i2 = {ix.a1, ix.a2, ix.pt, ix.l1, ix.l2, ix.pn, ix.sg};
  const struct convex_fn *g2 = ct->m2 > 1 ? d->pool + ct->g2 : NULL;
  double et2 = d->et * d->et;
  return implicit_contact2d_eval(ct->s2, g2, ct->m2, ct->mu, et2, d->cone_degree1, d->creep, d->h, x, i2,
                                 d->e2, F, J, d->n);
}

/* 3D: (15)-(16), the frame, friction (21)-(22) and the impulses in the Newton-Euler rows
 * (implicit_friction3.h), (17)-(19). */
static int gi_rows3(const struct implicit_step *d, int i, const double *x, double *F, double *J)
{
  struct implicit_contact3d c;
  implicit_contact3d_eval(d, i, x, &c);
  implicit_contact3d_kkt(&c, x, F, J, d->n);
  /* the normal's direction: G2(a2) when body 2 is one function, else -G1(a1) (body 2's normal cone at an
   * edge or vertex holds many; by (29) -G1 is the common normal) */
  struct dv G2, nv;
  if (c.m2 == 1)
    implicit_grad_dv(&c.e2[0], 1, 1, &G2);
  else
    for (int k = 0; k < 3; k++) {
      G2.v[k] = -c.G1.v[k];
      for (int j = 0; j < NL; j++)
        G2.d[k][j] = -c.G1.d[k][j];
    }
  if (!(G2.v[0] * G2.v[0] + G2.v[1] * G2.v[1] + G2.v[2] * G2.v[2] > 0.0)) return 1;
  dv_normalise(&G2, &nv);
  const struct friction3 fc = implicit_contact3d_friction(d, &c, x, 0, 1); /* body 1 receives +n p_n */
  if (implicit_friction3_rows(&fc, &nv, x, F, J, d->n)) return 1;
  implicit_contact3d_gaps(&c, x, F, J, d->n); /* (17)-(19); (22) is implicit_friction3_rows' */
  return 0;
}

/* The polyhedron guess, then the impulses' cold start of a contact that is new or was apart
 * (implicit_polyhedron_impulses). */
static void gi_polyhedron_guess(struct implicit_step *d, const struct world *w, int i, int warm)
{
  const struct implicit_contact *ct = &d->c[i];
  const struct implicit_index ix = implicit_step_index(d, i);
  implicit_step_polyhedron_guess(d, w, i, warm);
  if (warm && d->guess[ix.pn] > 0.0) return; /* apart last step: no impulses to keep */
  const double e[3] = {d->et, d->eo, d->er};
  double p[3];
  if (implicit_polyhedron_impulses(ct->s3, d->guess + ix.a1, d->guess + ix.a2, d->nu0, d->papp, d->M, d->ndof,
                                   d->h, ct->mu, e, ct->axis, d->guess + ix.pn, p, d->guess + ix.sg))
    memcpy(d->guess + ix.pt, p, sizeof p);
}

/* The polygon guess, then the impulses' cold start of a contact that is new or was apart
 * (implicit_polygon_impulses). Measured on the grasp study's quick grid, slice 0 of 5 (96 trials, fb_newton,
 * -geometric_implicit_equilibrate 1 -geometric_implicit_creep 2e-5 -step_halvings 8): 73 trials solved
 * without it, 78 with it. */
static void gi_polygon_guess(struct implicit_step *d, const struct world *w, int i, int warm)
{
  const struct implicit_contact *ct = &d->c[i];
  const struct implicit_index ix = implicit_step_index(d, i);
  implicit_step_polygon_guess(d, w, i, warm);
  if (ix.pt < 0 || (warm && d->guess[ix.pn] > 0.0)) return; /* frictionless; or in contact last step */
  implicit_polygon_impulses(ct->s2, d->guess + ix.a1, d->guess + ix.a2, d->nu0, d->papp, d->M, d->ndof, d->h,
                            ct->mu, d->et, d->guess + ix.pn, d->guess + ix.pt, d->guess + ix.sg);
}

static const struct implicit_model gi_model = {
    .name = "geometric_implicit",
    .nextra = 0,
    .npn = 1,
    .friction = 1,
    .max_edges = 0,
    .a_first = gi_a_first,
    .refusal =
        {"shapes %d and %d are both polygons: Sec. 4.3's rows need one body given by a single "
         "function (the active index k1 of eq. (29) known before the step, Sec. 7); use a disc, a "
         "half-plane or another formulation",
         "shapes %d and %d are both polyhedra: Sec. 4.3's rows need one body given by a single function "
         "(the active index k1 of eq. (29) known before the step, Remark 1 and Sec. 7); use a sphere, "
         "superellipsoid or plane, or another formulation"},
    .rows = {gi_rows2, gi_rows3},
    .polytope_guess = {gi_polygon_guess, gi_polyhedron_guess},
    .sigma_is_friction_2d = 0,
};

static int gi_create(struct formulation *f) { return implicit_step_create(f, &gi_model); }

/* The carried state (formulation.h carry_get): [0 (2D) | 1 (3D); implicit_carry.h's gi2 | gi3], the previous
 * step's answers that shift the unknowns. */
static int gi_carry_get(const struct formulation *f, double *buf, int cap)
{
  const struct implicit_step *d = f->data;
  const int three = d->prev.dim == 3;
  int need =
      1 + (three ? implicit_carry_gi3_get(&d->prev, NULL, 0) : implicit_carry_gi2_get(&d->prev, NULL, 0));
  if (need > cap) return need;
  buf[0] = three ? 1 : 0;
  if (three)
    implicit_carry_gi3_get(&d->prev, buf + 1, cap - 1);
  else
    implicit_carry_gi2_get(&d->prev, buf + 1, cap - 1);
  return need;
}

static int gi_carry_set(struct formulation *f, const double *buf, int n)
{
  struct implicit_step *d = f->data;
  char msg[128];
  int three = n >= 1 && buf[0] == 1.0;
  if (!three && (n < 1 || buf[0] != 0.0)) return formulation_fail(f, "carried state: neither 2D nor 3D");
  if (three ? implicit_carry_gi3_set(&d->prev, implicit_step_width(d->model, 3), buf + 1, n - 1, msg,
                                     sizeof msg)
            : implicit_carry_gi2_set(&d->prev, implicit_step_width(d->model, 2), buf + 1, n - 1, msg,
                                     sizeof msg))
    return formulation_fail(f, "%s", msg);
  return 0;
}

static void gi_view(const struct formulation *f, FILE *out)
{
  const struct implicit_step *d = f->data;
  fprintf(out,
          "  friction ellipsoid e_t %g, e_o %g, e_r %g (3D); 2D discs, half-planes and polygons (not two "
          "polygons in one contact), 3D spheres, superellipsoids, planes and polyhedra (not two in one "
          "contact); 2D joints, motors and support friction (implicit_drives.h)\n",
          d->et, d->eo, d->er);
}

int geometric_implicit_results(const struct formulation *f, int i, struct gi3_contact_result *out)
{
  if (!f || !f->type || !f->data ||
      (strcmp(f->type->name, "geometric_implicit") != 0 && strcmp(f->type->name, "tzitzouris_pang") != 0))
    return 0;
  const struct implicit_step *d = f->data;
  const struct implicit_answers *s = &d->prev;
  if (s->dim != 3) return 0;
  if (i >= 0 && i < s->n && out) { /* the answer's slots: [a1, a2,] p_t, p_o, p_r | [l1, l2 ..,] p_n, sigma */
    const struct implicit_answer *p = &s->a[i];
    const double *v = s->val + p->at;
    const int cf = d->model->closed_form, pt = cf ? 0 : 6, pn = pt + 3 + (cf ? 0 : 1 + p->m2);
    out->sa = p->sa;
    out->sb = p->sb;
    for (int k = 0; k < 3; k++) {
      out->a1[k] = cf ? NAN : v[k];
      out->a2[k] = cf ? NAN : v[3 + k];
    }
    out->pt = v[pt];
    out->po = v[pt + 1];
    out->pr = v[pt + 2];
    out->pn = v[pn];
    out->sigma = v[pn + 1];
  }
  return s->n;
}

const struct formulation_type formulation_type_geometric_implicit = {
    .name = "geometric_implicit",
    .summary = "mixed NCP with the closest points as unknowns (no linearised geometry); discs/half-planes/"
               "polygons (one side a single function), spheres/planes; joints, motors and support friction "
               "in 2D only (3D refuses them)",
    .paper = "Chakraborty, Berard, Akella & Trinkle, geometrically implicit time-stepping, eqs. (15)-(22), "
             "(28)-(32), (41)-(47)",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_HALFPLANE | SHAPE_POLYGON | SHAPE_SPHERE | SHAPE_PLANE | SHAPE_SUPERELLIPSE |
              SHAPE_SUPERELLIPSOID | SHAPE_POLYHEDRON,
    .joints = FORMULATION_2D, /* 3D joints and drives: not yet */
    .drives = FORMULATION_2D,
    .options = gi_options,
    .n_options = sizeof gi_options / sizeof gi_options[0],
    .create = gi_create,
    .assemble = implicit_step_assemble,
    .recover = implicit_step_recover,
    .drive_impulse = implicit_step_drive_impulse,
    .detect = implicit_step_detect,
    .carry_get = gi_carry_get,
    .carry_set = gi_carry_set,
    .forget = implicit_step_forget,
    .destroy = implicit_step_destroy,
    .view = gi_view,
};
