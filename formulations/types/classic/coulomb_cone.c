/* coulomb_cone.c — the Moreau-Jean velocity step with the exact Coulomb cone (Moreau 1988; Jean 1999; Acary,
 * Brémond & Huber 2018 eqs. 1-3): one frictional-contact problem (cp.h kind fc) per step, with the rows of
 * stewart_trinkle's velocity level but the cone kept whole instead of a polyhedral one:
 *   r = [r_1; ...; r_nc], r_c = (p_n, p_t1[, p_t2]) the contact's impulse in its frame (the normal, then
 *   the first tangent(s) of formulation_tangents), W = J M^-1 J', q = J nu_free (+ psi/h on each normal row,
 *   Egan et al.'s stabilisation, beta psi/h when penetrating: -coulomb_cone_penetration_correction),
 *   K_mu ∋ r_c ⟂ u_c + mu |u_T,c| e_N ∈ K_mu* with u = W r + q (De Saxcé's modified velocity, which makes
 *   it Coulomb's law: u_N = 0 while sliding, r_T opposite to u_T on the cone's boundary).
 * Recovery as Stewart-Trinkle eq. 3: nu+ = nu_free + M^-1 J' r. 2D: one tangent; 3D: two orthogonal ones.
 * No joints or motors (not applicable to such worlds). Solved by the fc solvers (fc_newton, fc_nsgs, fc_admm,
 * siconos_fc_*); the LCP solvers report not_applicable. The step's hooks (cone_step_*, classic.h) also
 * serve anitescu_ccp, the same problem without De Saxcé's term. */
#include "classic.h"
#include "formulation.h"
#include "jacobian.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct option_decl cc_options[] = {
    {"coulomb_cone_penetration_correction", OPT_REAL, offsetof(struct cone_step, correction), "1", "[0,1]",
     "beta: a penetrating contact's normal row uses beta psi / h (1: the full psi/h, as stewart_trinkle)"},
};

int cone_step_create(struct formulation *f)
{
  f->data = calloc(1, sizeof(struct cone_step));
  return f->data ? 0 : 1;
}

void cone_step_destroy(struct formulation *f)
{
  struct cone_step *d = f->data;
  if (!d) return;
  free(d->col);
  free(d->nu_free);
  free(d->work);
  free(d);
  f->data = NULL;
}

int cone_step_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       struct cp_problem **out)
{
  struct cone_step *d = f->data;
  int nc = cs->n, dim = w->dim == 2 ? 2 : 3, n = nc * dim;
  *out = NULL;
  if (classic_reserve((struct classic_columns){&d->col, &d->cap, &d->nu_free, &d->work, &d->ndof},
                      n > 0 ? n : 1, w->ndof))
    return formulation_fail(f, "out of memory assembling %d contacts", nc);
  jacobian_free_velocity(w, h, d->nu_free, d->work);
  double dirs[3 * 4];
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    /* 3D: of 4 evenly spaced tangents the first two are orthogonal; 2D: +t */
    formulation_tangents(w->dim, c->n, w->dim == 2 ? 2 : 4, dirs);
    jcol_contact(w, c, c->n, &d->col[i * dim]);
    for (int t = 1; t < dim; t++)
      jcol_contact(w, c, dirs + 3 * (t - 1), &d->col[i * dim + t]);
  }
  struct cp_problem *p = cp_fc_create(dim, nc);
  if (!p) return formulation_fail(f, "out of memory assembling %d contacts", nc);
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < n; c++)
      p->M[(size_t)r * n + c] = jcol_dot_minv(&d->col[r], &d->col[c]);
    p->q[r] = jcol_dot(&d->col[r], d->nu_free);
  }
  for (int i = 0; i < nc; i++) {
    double gap = cs->c[i].gap;
    p->q[i * dim] += (gap < 0.0 ? d->correction : 1.0) * gap / h;
    p->mu[i] = cs->c[i].mu;
  }
  p->fc_relaxed = d->relaxed;
  snprintf(p->name, sizeof p->name, "%s nc=%d d=%d", f->type->name, nc, dim);
  f->rows = (struct row_counts){.normal = nc, .friction = nc * (dim - 1), .total = n};
  *out = p;
  return 0;
}

int cone_step_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                      const double *z, double *nu, double *pn)
{
  const struct cone_step *d = f->data;
  int nc = cs->n, dim = w->dim == 2 ? 2 : 3;
  (void)h;
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->nu_free[i];
  for (int c = 0; c < nc * dim; c++)
    jcol_axpy_minv(&d->col[c], z[c], nu);
  for (int i = 0; i < nc; i++)
    pn[i] = z[i * dim];
  return 0;
}

void cone_step_view(const struct formulation *f, FILE *out)
{
  const struct cone_step *d = f->data;
  fprintf(out, "  penetration correction %g%s\n", d->correction,
          d->relaxed ? "; the cone complementarity relaxation (no De Saxce term)" : "");
}

const struct formulation_type formulation_type_coulomb_cone = {
    .name = "coulomb_cone",
    .summary = "velocity-level step with the exact Coulomb cone (kind fc); no joints or motors",
    .paper = "Moreau 1988, Jean 1999; Acary, Bremond & Huber 2018 eqs. 1-3 (De Saxce's modified velocity)",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE | SHAPE_SPHERE | SHAPE_POLYHEDRON | SHAPE_PLANE |
              SHAPE_SUPERELLIPSE | SHAPE_SUPERELLIPSOID,
    .options = cc_options,
    .n_options = (int)(sizeof cc_options / sizeof cc_options[0]),
    .create = cone_step_create,
    .assemble = cone_step_assemble,
    .recover = cone_step_recover,
    .destroy = cone_step_destroy,
    .view = cone_step_view,
};
