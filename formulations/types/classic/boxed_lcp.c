/* boxed_lcp.c — the velocity-level step of the engines, ODE (Smith, "Open Dynamics Engine" user guide, the
 * dLCP's friction index) and Bullet (btMLCPSolver): one boxed LCP with friction index (cp.h kind boxed) per
 * step, on coulomb_cone's rows (contact_rows.h: W = J M^-1 J' symmetric positive semidefinite, q = J nu_free
 * + psi/h on the normal rows), with the friction approximated by a box instead of a cone:
 *   normal row:        0 <= p_n  perp  w_n >= 0                        (lo 0, hi inf, findex -1)
 *   tangent row t:     -mu p_n <= p_t <= mu p_n complementary to w_t   (lo -mu, hi mu, findex = its normal)
 * with one tangent in 2D (there the box is Coulomb's interval: the same law as coulomb_cone) and two
 * orthogonal ones in 3D (formulation_tangents' first two), each limited on its own: |p_t1|, |p_t2| <= mu p_n,
 * a square pyramid circumscribing Coulomb's cone. A slide along a tangent gets Coulomb's friction exactly;
 * a slide between the tangents saturates both (a corner of the box), so friction is up to sqrt(2) mu p_n and
 * points at the corner, not against the velocity: the body slows more than Coulomb's and drifts toward
 * the nearer tangent (the box's anisotropy, tests/formulations/types/classic/test_boxed_lcp.c measures it).
 * Recovery as Stewart-Trinkle eq. 3. No joints or motors. Solved by dantzig (principal pivoting with ODE's
 * friction index and an outer loop), pgs / psor (ODE's quickstep projection), auto, and Bullet's three. */
#include "classic.h"
#include "contact_rows.h"

#include <stddef.h>

static const struct option_decl boxed_options[] = {
    {"boxed_lcp_penetration_correction", OPT_REAL, offsetof(struct contact_rows, correction), "1", "[0,1]",
     "beta: a penetrating contact's normal row uses beta psi / h (1: the full psi/h, as stewart_trinkle)"},
    {"boxed_lcp_cfm", OPT_REAL, offsetof(struct contact_rows, cfm), "0", "[0,1]",
     "constraint force mixing (ODE's CFM, Bullet's m_globalCfm): cfm / h added to W's diagonal [s]; 0: the "
     "exact step (a resting box's 4 corners on a plane then make W singular for the pivoting methods)"},
};

static int boxed_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs,
                          double h, struct cp_problem **out)
{
  int nc = cs->n, dim = w->dim == 2 ? 2 : 3, n = nc * dim;
  *out = NULL;
  if (contact_rows_columns(f, w, cs, h)) return 1;
  struct cp_problem *p = cp_boxed_create(n);
  if (!p) return formulation_fail(f, "out of memory assembling %d contacts", nc);
  contact_rows_fill(f->data, cs, dim, h, p->M, p->q);
  for (int i = 0; i < nc; i++)
    for (int t = 1; t < dim; t++) { /* ODE's and Bullet's convention: hi = mu, lo = -mu on a friction row */
      int r = i * dim + t;
      p->findex[r] = i * dim;
      p->lo[r] = -cs->c[i].mu;
      p->hi[r] = cs->c[i].mu;
    }
  snprintf(p->name, sizeof p->name, "boxed_lcp nc=%d d=%d", nc, dim);
  f->rows = (struct row_counts){.normal = nc, .friction = nc * (dim - 1), .total = n};
  *out = p;
  return 0;
}

const struct formulation_type formulation_type_boxed_lcp = {
    .name = "boxed_lcp",
    .summary = "the engines' velocity step: boxed LCP, friction +-mu p_n per tangent by friction index",
    .paper = "ODE's dLCP (Smith, ODE user guide: friction index) and Bullet's btMLCPSolver; box friction "
             "(a pyramid of 4 faces in 3D)",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE | SHAPE_SPHERE | SHAPE_POLYHEDRON | SHAPE_PLANE |
              SHAPE_SUPERELLIPSE | SHAPE_SUPERELLIPSOID,
    .options = boxed_options,
    .n_options = (int)(sizeof boxed_options / sizeof boxed_options[0]),
    .create = contact_rows_create,
    .assemble = boxed_assemble,
    .recover = contact_rows_recover,
    .destroy = contact_rows_destroy,
    .view = contact_rows_view,
};
