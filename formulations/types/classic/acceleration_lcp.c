/* acceleration_lcp.c — Baraff's acceleration-level LCP for resting contact (Trefny Sec. 1, eqs. 1-7):
 *   0 <= f  perp  a = A f + b >= 0,  A = Wn' M^-1 Wn (symmetric PSD),
 *   b_i = n.(abar_a(p) - abar_b(p)) + 2 ndot.(v_a(p) - v_b(p)) + 2 alpha vn_i + beta^2 psi_i,
 * abar: the point accelerations from gravity/applied forces (M^-1 k) plus the centripetal w x (w x r);
 * ndot = w_b x n (the normal belongs to body b's feature). Frictionless. Valid only for contacts that are
 * already resting (zero approach velocity): it has no collision response, so approaching bodies need a
 * separate impulse; -acceleration_lcp_alpha and -acceleration_lcp_beta (Baumgarte, default 0: pure Baraff)
 * keep drift in check. The stepper integrates nu+ = nu + h M^-1 (k + Wn f); impulses reported as h f. */
#include "classic.h"
#include "formulation.h"
#include "jacobian.h"

#include <stddef.h>
#include <stdlib.h>

struct acc_data {
  struct jcol *col;
  int cap;
  double *nu, *acc;
  int ndof;
  double alpha, beta;
};

static int acc_create(struct formulation *f)
{
  struct acc_data *d = calloc(1, sizeof *d);
  f->data = d;
  return d ? 0 : 1;
}

/* Baumgarte's feedback gains: b gains 2 alpha vn + beta^2 psi; a negative alpha would feed drift. */
static const struct option_decl acc_options[] = {
    {"acceleration_lcp_alpha", OPT_REAL, offsetof(struct acc_data, alpha), "0", "[0,inf)",
     "Baumgarte velocity gain alpha (0: pure Baraff) [1/s]"},
    {"acceleration_lcp_beta", OPT_REAL, offsetof(struct acc_data, beta), "0", "[0,inf)",
     "Baumgarte position gain beta, enters as beta^2 psi (0: pure Baraff) [1/s]"},
};

static void acc_destroy(struct formulation *f)
{
  struct acc_data *d = f->data;
  if (!d) return;
  free(d->col);
  free(d->nu);
  free(d->acc);
  free(d);
  f->data = NULL;
}

static void cross(const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* n . (w x (w x r)) for body b at point p (0 for static bodies). */
static double centripetal(const struct world *w, int body, const double p[3], const double n[3])
{
  const struct body *b = &w->bodies[body];
  if (b->is_static) return 0.0;
  double om[3] = {w->dim == 3 ? b->w[0] : 0.0, w->dim == 3 ? b->w[1] : 0.0, b->w[2]};
  double r[3] = {p[0] - b->x[0], p[1] - b->x[1], w->dim == 3 ? p[2] - b->x[2] : 0.0}, t[3], u[3];
  cross(om, r, t);
  cross(om, t, u);
  return n[0] * u[0] + n[1] * u[1] + n[2] * u[2];
}

static int acc_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                        struct cp_problem **out)
{
  struct acc_data *d = f->data;
  int nc = cs->n, nd = w->ndof, n = nc > 0 ? nc : 1;
  (void)h;
  *out = NULL;
  if (nc > d->cap) {
    struct jcol *c = realloc(d->col, (size_t)nc * sizeof *c);
    if (!c) return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
    d->col = c;
    d->cap = nc;
  }
  if (nd != d->ndof || !d->nu) {
    free(d->nu);
    free(d->acc);
    d->nu = malloc(((size_t)nd + 1) * sizeof *d->nu);
    d->acc = malloc(((size_t)nd + 1) * sizeof *d->acc);
    if (!d->nu || !d->acc) return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
    d->ndof = nd;
  }
  world_get_velocity(w, d->nu);
  world_external_force(w, d->acc);
  world_apply_inverse_mass(w, d->acc, d->acc);
  struct cp_problem *p = cp_lcp_create(n);
  if (!p) return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  if (nc == 0) p->M[0] = 1.0;
  for (int i = 0; i < nc; i++)
    jcol_contact(w, &cs->c[i], cs->c[i].n, &d->col[i]);
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    for (int j = 0; j < nc; j++)
      p->M[(size_t)i * n + j] = jcol_dot_minv(&d->col[i], &d->col[j]);
    double va[3], vb[3], ndot[3] = {0.0, 0.0, 0.0};
    world_point_velocity(w, &w->bodies[c->a], c->pa, va);
    world_point_velocity(w, &w->bodies[c->b], c->pb, vb);
    const struct body *bb = &w->bodies[c->b];
    if (!bb->is_static) {
      double om[3] = {w->dim == 3 ? bb->w[0] : 0.0, w->dim == 3 ? bb->w[1] : 0.0, bb->w[2]};
      cross(om, c->n, ndot);
    }
    double vn = jcol_dot(&d->col[i], d->nu), rel = 0.0;
    for (int k = 0; k < 3; k++)
      rel += ndot[k] * (va[k] - vb[k]);
    p->q[i] = jcol_dot(&d->col[i], d->acc) + centripetal(w, c->a, c->pa, c->n) -
              centripetal(w, c->b, c->pb, c->n) + 2.0 * rel + 2.0 * d->alpha * vn +
              d->beta * d->beta * c->gap;
  }
  snprintf(p->name, sizeof p->name, "acceleration_lcp nc=%d", nc);
  f->rows = (struct row_counts){.normal = nc, .total = n};
  *out = p;
  return 0;
}

static int acc_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       const double *z, double *nu, double *pn)
{
  const struct acc_data *d = f->data;
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->nu[i] + h * d->acc[i];
  for (int i = 0; i < cs->n; i++) {
    jcol_axpy_minv(&d->col[i], h * z[i], nu);
    pn[i] = h * z[i];
  }
  return 0;
}

static void acc_view(const struct formulation *f, FILE *out)
{
  const struct acc_data *d = f->data;
  fprintf(out, "  Baumgarte alpha %g beta %g\n", d->alpha, d->beta);
}

const struct formulation_type formulation_type_acceleration_lcp = {
    .name = "acceleration_lcp",
    .summary = "force-level LCP, frictionless, resting contact only (no collision response)",
    .paper = "Baraff 1994 as summarised by Trefny Sec. 1 eqs. 1-7",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE | SHAPE_SPHERE | SHAPE_POLYHEDRON | SHAPE_PLANE |
              SHAPE_SUPERELLIPSE | SHAPE_SUPERELLIPSOID,
    .joints = 0,
    .frictionless = 1,
    .options = acc_options,
    .n_options = (int)(sizeof acc_options / sizeof acc_options[0]),
    .create = acc_create,
    .assemble = acc_assemble,
    .recover = acc_recover,
    .destroy = acc_destroy,
    .view = acc_view,
};
