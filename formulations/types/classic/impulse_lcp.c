/* impulse_lcp.c — the velocity/impulse LCP of Trefny Sec. 2 (eqs. 8-10), frictionless:
 *   0 <= p  perp  A p + b >= 0,  A = Wn' M^-1 Wn,  b = Wn'(nu + h M^-1 k) + c,
 * with c the right-hand side Trefny leaves to the implementer:
 *   c_i = e vn_i + (beta / h) min(psi_i, 0)   when e > 0 and the contact closes within the step
 *                                              (psi_i + h Wn_i' nu_free <= slop, vn_i < 0): restitution,
 *   c_i = (beta / h) psi_i  if psi_i < 0,  psi_i / h  otherwise (speculative: close the gap, no overshoot),
 * vn_i = Wn_i' nu the pre-step normal velocity, e = -impulse_lcp_restitution (default 0),
 * beta = -impulse_lcp_baumgarte (default 0.2), slop = -impulse_lcp_slop (default 1e-6). With e > 0 a body
 * bounces up to h |vn| before the surface: the O(h) position error of an impact inside a step.
 * Valid for frictionless impacts and resting contact; Baumgarte softens penetration recovery over 1/beta
 * steps instead of the full psi/h correction of stewart_trinkle. */
#include "classic.h"
#include "formulation.h"
#include "jacobian.h"

#include <stddef.h>
#include <stdlib.h>

struct imp_data {
  struct jcol *col;
  int cap;
  double *nu_free, *work;
  int ndof;
  double restitution, baumgarte, slop;
};

static int imp_create(struct formulation *f)
{
  f->data = calloc(1, sizeof(struct imp_data));
  return f->data ? 0 : 1;
}

/* The slop is any finite length, as before: it only moves the "closes within the step" test. */
static const struct option_decl imp_options[] = {
    {"impulse_lcp_restitution", OPT_REAL, offsetof(struct imp_data, restitution), "0", "[0,1]",
     "coefficient of restitution e of a contact closing within the step"},
    {"impulse_lcp_baumgarte", OPT_REAL, offsetof(struct imp_data, baumgarte), "0.2", "[0,1]",
     "Baumgarte beta: fraction of a penetration removed per step"},
    {"impulse_lcp_slop", OPT_REAL, offsetof(struct imp_data, slop), "1e-6", NULL,
     "end-of-step gap below which an approaching contact counts as an impact [m]"},
};

static void imp_destroy(struct formulation *f)
{
  struct imp_data *d = f->data;
  if (!d) return;
  free(d->col);
  free(d->nu_free);
  free(d->work);
  free(d);
  f->data = NULL;
}

static int imp_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                        struct cp_problem **out)
{
  struct imp_data *d = f->data;
  int nc = cs->n, nd = w->ndof, n = nc > 0 ? nc : 1;
  *out = NULL;
  if (classic_reserve((struct classic_columns){&d->col, &d->cap, &d->nu_free, &d->work, &d->ndof}, nc, nd))
    return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  struct cp_problem *p = cp_lcp_create(n);
  if (!p) return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  if (nc == 0) p->M[0] = 1.0;
  world_get_velocity(w, d->work);
  for (int i = 0; i < nc; i++)
    jcol_contact(w, &cs->c[i], cs->c[i].n, &d->col[i]);
  double *vn = malloc(((size_t)nc + 1) * sizeof *vn);
  if (!vn) {
    cp_destroy(&p);
    return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  }
  for (int i = 0; i < nc; i++)
    vn[i] = jcol_dot(&d->col[i], d->work);
  jacobian_free_velocity(w, h, d->nu_free, d->work);
  for (int i = 0; i < nc; i++) {
    double psi = cs->c[i].gap, vfree = jcol_dot(&d->col[i], d->nu_free), c;
    if (d->restitution > 0.0 && vn[i] < 0.0 && psi + h * vfree <= d->slop)
      c = d->restitution * vn[i] + (psi < 0.0 ? d->baumgarte * psi / h : 0.0);
    else
      c = psi < 0.0 ? d->baumgarte * psi / h : psi / h;
    for (int j = 0; j < nc; j++)
      p->M[(size_t)i * n + j] = jcol_dot_minv(&d->col[i], &d->col[j]);
    p->q[i] = vfree + c;
  }
  free(vn);
  snprintf(p->name, sizeof p->name, "impulse_lcp nc=%d", nc);
  f->rows = (struct row_counts){.normal = nc, .total = n};
  *out = p;
  return 0;
}

static int imp_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       const double *z, double *nu, double *pn)
{
  const struct imp_data *d = f->data;
  (void)h;
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->nu_free[i];
  for (int i = 0; i < cs->n; i++) {
    jcol_axpy_minv(&d->col[i], z[i], nu);
    pn[i] = z[i];
  }
  return 0;
}

static void imp_view(const struct formulation *f, FILE *out)
{
  const struct imp_data *d = f->data;
  fprintf(out, "  restitution %g, Baumgarte %g, slop %g\n", d->restitution, d->baumgarte, d->slop);
}

const struct formulation_type formulation_type_impulse_lcp = {
    .name = "impulse_lcp",
    .summary = "velocity/impulse LCP, frictionless, Baumgarte + restitution in the right-hand side",
    .paper = "Trefny Sec. 2 eqs. 8-10",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE | SHAPE_SPHERE | SHAPE_POLYHEDRON | SHAPE_PLANE |
              SHAPE_SUPERELLIPSE | SHAPE_SUPERELLIPSOID,
    .joints = 0,
    .frictionless = 1,
    .options = imp_options,
    .n_options = (int)(sizeof imp_options / sizeof imp_options[0]),
    .create = imp_create,
    .assemble = imp_assemble,
    .recover = imp_recover,
    .destroy = imp_destroy,
    .view = imp_view,
};
