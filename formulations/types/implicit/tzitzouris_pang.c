/* tzitzouris_pang.c — the geometrically implicit step of Tzitzouris and Pang (Trinkle, Tzitzouris & Pang
 * 2001, as Chakraborty, Berard, Akella & Trinkle Sec. 2 describe it): the distance between two bodies is a
 * closed-form function of their end-of-step poses, so the contact points are not unknowns. Spheres against
 * spheres and planes only (3D):
 *   gap(q^{l+1}) = |c1 - c2| - r1 - r2   (sphere-sphere),   n . c1 - d - r1   (sphere-plane)
 *   0 <= p_n perp gap(q^{l+1}) >= 0,  n = (c1 - c2) / |c1 - c2| (the plane's normal), a1 = c1 - r1 n,
 *   a2 = c2 + r2 n (the plane's point nearest c1)
 * with c, n, d at the end-of-step poses (the stepper's update, implicit_side3.h), the Newton-Euler rows at
 * l+1 and the elliptic friction law (5) as Chakraborty et al.'s (21)-(22) (implicit_friction3.h, the same
 * rows geometric_implicit uses). For spheres this is geometric_implicit's model: its KKT points (15)-(19) are
 * these closed-form points. Per contact 5 unknowns (p_t, p_o, p_r free; p_n, sigma complementary) instead
 * of 13. Fixed step: Tzitzouris' adaptive step that locates every collision time (Sec. 2) is not reproduced,
 * nor his position update (the stepper's own is used). The Jacobian is analytic, the points' derivatives
 * through the poses included (tests/formulations/types/implicit/test_tzitzouris_pang.c checks it against
 * finite differences). Layout, warm start and Newton-Euler rows: implicit_step.h (a closed-form model). */
#include "formulation.h"
#include "implicit.h"
#include "implicit_carry.h"
#include "implicit_dv.h"
#include "implicit_friction3.h"
#include "implicit_step.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const struct option_decl tp_options[] = {
    {"tzitzouris_pang_et", OPT_REAL, offsetof(struct implicit_step, et), "1", "(0,inf)",
     "e_t: semi-axis of the friction ellipsoid (Chakraborty et al. eq. 5)"},
    {"tzitzouris_pang_eo", OPT_REAL, offsetof(struct implicit_step, eo), "1", "(0,inf)",
     "e_o: second tangential semi-axis of the friction ellipsoid (eq. 5)"},
    {"tzitzouris_pang_er", OPT_REAL, offsetof(struct implicit_step, er), "1", "(0,inf)",
     "e_r: semi-axis of the frictional moment about the normal (eq. 5)"},
};

/* A side at the end-of-step pose, with derivatives in the contact's local variables (implicit_dv.h; body slot
 * b at 6 + 6 b): its body's origin x, and the sphere's centre c and radius, or the plane's normal n and
 * offset d (n . a <= d inside). */
struct tp_side {
  int plane;
  struct dv x, c, n;
  double rad, d, dd[NL];
};

/* R l and its derivatives: d (R l) / d omega_m = (h / 2) dR_m l (u = h omega / 2, implicit_side3.h). */
static void tp_rotate(const double *R, const double *dR, const double *l, double h, int dyn, int b,
                      struct dv *out)
{
  memset(out, 0, sizeof *out);
  for (int k = 0; k < 3; k++) {
    out->v[k] = R[3 * k] * l[0] + R[3 * k + 1] * l[1] + R[3 * k + 2] * l[2];
    for (int m = 0; dyn && m < 3; m++) {
      const double *D = dR + 9 * m + 3 * k;
      out->d[k][6 + 6 * b + 3 + m] = 0.5 * h * (D[0] * l[0] + D[1] * l[1] + D[2] * l[2]);
    }
  }
}

static void tp_side_eval(const struct gi_side3 *s, int b, double h, const double *nu, struct tp_side *o)
{
  double xp[3], R[9], dR[27];
  const int dyn = s->dof >= 0;
  side3_pose_d(s, h, nu, xp, R, dR);
  memset(&o->x, 0, sizeof o->x);
  for (int k = 0; k < 3; k++) {
    o->x.v[k] = xp[k];
    if (dyn) o->x.d[k][6 + 6 * b + k] = h; /* x^{l+1} = x^l + h v */
  }
  o->plane = s->fn.kind == CONVEX_HALFSPACE;
  if (o->plane) { /* world n = R n_b, d = n . x + d_b */
    tp_rotate(R, dR, s->fn.n, h, dyn, b, &o->n);
    o->d = dv_dot(&o->n, &o->x, o->dd) + s->fn.d;
    return;
  }
  tp_rotate(R, dR, s->fn.c, h, dyn, b, &o->c); /* the centre x + R c_b */
  for (int k = 0; k < 3; k++) {
    o->c.v[k] += o->x.v[k];
    for (int j = 0; j < NL; j++)
      o->c.d[k][j] += o->x.d[k][j];
  }
  o->rad = s->fn.a[0];
}

/* out = a + s b, with s a scalar of derivative ds (NULL: constant) */
static void tp_axpy(const struct dv *a, double s, const double *ds, const struct dv *b, struct dv *out)
{
  for (int k = 0; k < 3; k++) {
    out->v[k] = a->v[k] + s * b->v[k];
    for (int j = 0; j < NL; j++)
      out->d[k][j] = a->d[k][j] + s * b->d[k][j] + (ds ? ds[j] * b->v[k] : 0.0);
  }
}

/* The closed-form distance of body 1 (a sphere) and body 2 (a sphere or a plane) at the end-of-step poses:
 * the gap and its derivatives, the normal towards body 1, the lever arms a - x of the two points; 1 when the
 * centres coincide (no normal). */
static int tp_distance(const struct tp_side *s1, const struct tp_side *s2, struct dv *nv, double *gap,
                       double *dgap, struct dv lever[2])
{
  struct dv a[2];
  if (s2->plane) {
    *nv = s2->n;
    *gap = dv_dot(nv, &s1->c, dgap) - s2->d - s1->rad;
    for (int j = 0; j < NL; j++)
      dgap[j] -= s2->dd[j];
  } else {
    struct dv dc;
    tp_axpy(&s1->c, -1.0, NULL, &s2->c, &dc);
    double len = sqrt(dc.v[0] * dc.v[0] + dc.v[1] * dc.v[1] + dc.v[2] * dc.v[2]);
    if (!(len > 0.0)) return 1;
    dv_normalise(&dc, nv);
    *gap = len - s1->rad - s2->rad; /* d |dc| = n . d dc */
    for (int j = 0; j < NL; j++)
      dgap[j] = 0.0;
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < NL; j++)
        dgap[j] += nv->v[k] * dc.d[k][j];
  }
  tp_axpy(&s1->c, -s1->rad, NULL, nv, &a[0]); /* a1 = c1 - r1 n */
  if (s2->plane)
    tp_axpy(&a[0], -*gap, dgap, nv, &a[1]); /* the plane's point nearest c1: a1 - gap n */
  else
    tp_axpy(&s2->c, s2->rad, NULL, nv, &a[1]); /* a2 = c2 + r2 n */
  tp_axpy(&a[0], -1.0, NULL, &s1->x, &lever[0]);
  tp_axpy(&a[1], -1.0, NULL, &s2->x, &lever[1]);
  return 0;
}

/* One contact's rows: the gap row of p_n, and (21)-(22) with the impulses n p_n + t p_t + o p_o at the points
 * and n p_r (implicit_friction3.h) in the Newton-Euler rows. */
static int tp_rows3(const struct implicit_step *d, int i, const double *x, double *F, double *J)
{
  const struct implicit_contact *ct = &d->c[i];
  const struct implicit_index ix = implicit_step_index(d, i);
  struct tp_side s1, s2;
  struct dv nv, lever[2];
  double gap, dgap[NL];
  int cols[NL];
  for (int k = 0; k < 6; k++) { /* no point unknowns: the points are functions of the velocities */
    cols[k] = -1;
    cols[6 + k] = ct->s3[0].dof >= 0 ? ct->s3[0].dof + k : -1;
    cols[12 + k] = ct->s3[1].dof >= 0 ? ct->s3[1].dof + k : -1;
  }
  tp_side_eval(&ct->s3[0], 0, d->h, x, &s1);
  tp_side_eval(&ct->s3[1], 1, d->h, x, &s2);
  if (tp_distance(&s1, &s2, &nv, &gap, dgap, lever)) return 1;
  F[ix.pn] = gap;
  scatter(J, d->n, ix.pn, cols, dgap, 1.0);
  struct friction3 fc = {.s = {&ct->s3[0], &ct->s3[1]},
                         .r = {lever[0].v, lever[1].v},
                         .rd = lever,
                         .plus = 0, /* body 1 receives +n */
                         .axis = ct->axis,
                         .mu = ct->mu,
                         .e = {d->et, d->eo, d->er},
                         .h = d->h,
                         .with_normal = 1,
                         .pn = x[ix.pn],
                         .pn_col = {ix.pn, -1},
                         .npn = 1,
                         .cols = cols};
  friction3_set_unknowns(&fc, ix.pt, ix.sg, x);
  return implicit_friction3_rows(&fc, &nv, x, F, J, d->n);
}

/* Only sphere-sphere and sphere-plane have the closed-form distance here. */
static int tp_accept(const struct world *w, int sa, int sb, char *msg, size_t len)
{
  const enum shape_kind ka = w->shapes[sa].kind, kb = w->shapes[sb].kind;
  if ((ka == SHAPE_SPHERE && (kb == SHAPE_SPHERE || kb == SHAPE_PLANE)) ||
      (kb == SHAPE_SPHERE && ka == SHAPE_PLANE))
    return 0;
  snprintf(msg, len,
           "shapes %d (%s) and %d (%s): the closed-form distance is implemented for "
           "sphere-sphere and sphere-plane pairs only; use geometric_implicit",
           sa, world_shape_kind_name(ka), sb, world_shape_kind_name(kb));
  return 1;
}

/* body 1 is the sphere of a sphere-plane pair */
static int tp_a_first(int flat_a, int flat_b, int poly_a, int poly_b)
{
  (void)flat_b;
  (void)poly_a;
  (void)poly_b;
  return !flat_a;
}

static const struct implicit_model tp_model = {
    .name = "tzitzouris_pang",
    .npn = 1,
    .friction = 1,
    .closed_form = 1,
    .accept = tp_accept,
    .a_first = tp_a_first,
    .refusal = {"shapes %d and %d: tzitzouris_pang is 3D only", "shapes %d and %d are both polyhedra"},
    .rows = {NULL, tp_rows3},
};

static int tp_create(struct formulation *f) { return implicit_step_create(f, &tp_model); }

static int tp_carry_get(const struct formulation *f, double *buf, int cap)
{
  const struct implicit_step *d = f->data;
  return implicit_carry_tp3_get(&d->prev, buf, cap);
}

static int tp_carry_set(struct formulation *f, const double *buf, int n)
{
  struct implicit_step *d = f->data;
  char msg[128];
  if (implicit_carry_tp3_set(&d->prev, implicit_step_width(d->model, 3), buf, n, msg, sizeof msg))
    return formulation_fail(f, "%s", msg);
  return 0;
}

static void tp_view(const struct formulation *f, FILE *out)
{
  const struct implicit_step *d = f->data;
  fprintf(out,
          "  friction ellipsoid e_t %g, e_o %g, e_r %g; 3D sphere-sphere and sphere-plane pairs (closed-form "
          "distance), fixed step\n",
          d->et, d->eo, d->er);
}

const struct formulation_type formulation_type_tzitzouris_pang = {
    .name = "tzitzouris_pang",
    .summary =
        "mixed NCP with the closed-form distance of the end-of-step poses (no contact-point unknowns); "
        "3D spheres and planes, fixed step",
    .paper = "Trinkle, Tzitzouris & Pang 2001 (Chakraborty et al. Sec. 2); friction Chakraborty et al. eqs. "
             "(5), (21)-(22)",
    .dims = FORMULATION_3D,
    .shapes = SHAPE_SPHERE | SHAPE_PLANE,
    .options = tp_options,
    .n_options = sizeof tp_options / sizeof tp_options[0],
    .create = tp_create,
    .assemble = implicit_step_assemble,
    .recover = implicit_step_recover,
    .detect = implicit_step_detect,
    .carry_get = tp_carry_get,
    .carry_set = tp_carry_set,
    .forget = implicit_step_forget,
    .destroy = implicit_step_destroy,
    .view = tp_view,
};
