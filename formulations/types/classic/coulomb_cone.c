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
 * siconos_fc_*); the LCP solvers report not_applicable. The rows are contact_rows.h's (shared with
 * boxed_lcp); the assemble hook also serves anitescu_ccp, the same problem without De Saxcé's term. */
#include "classic.h"
#include "contact_rows.h"

#include <stddef.h>

static const struct option_decl cc_options[] = {
    {"coulomb_cone_penetration_correction", OPT_REAL, offsetof(struct contact_rows, correction), "1", "[0,1]",
     "beta: a penetrating contact's normal row uses beta psi / h (1: the full psi/h, as stewart_trinkle)"},
};

int coulomb_cone_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs,
                          double h, struct cp_problem **out)
{
  int nc = cs->n, dim = w->dim == 2 ? 2 : 3, n = nc * dim;
  *out = NULL;
  if (contact_rows_columns(f, w, cs, h)) return 1;
  struct cp_problem *p = cp_fc_create(dim, nc);
  if (!p) return formulation_fail(f, "out of memory assembling %d contacts", nc);
  contact_rows_fill(f->data, cs, dim, h, p->M, p->q);
  for (int i = 0; i < nc; i++)
    p->mu[i] = cs->c[i].mu;
  p->fc_relaxed = ((const struct contact_rows *)f->data)->relaxed;
  snprintf(p->name, sizeof p->name, "%s nc=%d d=%d", f->type->name, nc, dim);
  f->rows = (struct row_counts){.normal = nc, .friction = nc * (dim - 1), .total = n};
  *out = p;
  return 0;
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
    .create = contact_rows_create,
    .assemble = coulomb_cone_assemble,
    .recover = contact_rows_recover,
    .destroy = contact_rows_destroy,
    .view = contact_rows_view,
};
