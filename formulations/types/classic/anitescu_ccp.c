/* anitescu_ccp.c — the cone complementarity relaxation of the exact-cone velocity step (Anitescu 2006,
 * "Optimization-based simulation of nonsmooth rigid multibody dynamics"; the convex model MuJoCo and Drake
 * solve): coulomb_cone's W = J M^-1 J' and q = J nu_free (+ psi/h on the normal rows), but
 *   K_mu ∋ r_c ⟂ u_c ∈ K_mu*,  u = W r + q,
 * without De Saxcé's term mu |u_T| e_N: the KKT conditions of the convex QP min 1/2 r'Wr + q'r over the
 * cones, so a solution exists and is found in polynomial time, at a price the physics checks show: a
 * sliding contact separates, u_N = mu |u_T| > 0 while r_N > 0 (the normal impulse acts on an opening
 * contact), where Coulomb's law has u_N = 0. The problem is kind fc with fc_relaxed = 1 (cp.h): the checker's
 * residual is the natural map of the relaxed problem; fc_nsgs and fc_admm solve it, fc_newton and the
 * Siconos backends answer not_applicable (Coulomb's law is what they solve). Assembly and recovery are
 * coulomb_cone's (contact_rows.h). 2D and 3D; no joints or motors. */
#include "contact_rows.h"
#include "formulation.h"

#include <stddef.h>

static const struct option_decl ccp_options[] = {
    {"anitescu_ccp_penetration_correction", OPT_REAL, offsetof(struct contact_rows, correction), "1", "[0,1]",
     "beta: a penetrating contact's normal row uses beta psi / h (1: the full psi/h, as coulomb_cone)"},
};

static int ccp_create(struct formulation *f)
{
  if (contact_rows_create(f)) return 1;
  ((struct contact_rows *)f->data)->relaxed = 1;
  return 0;
}

const struct formulation_type formulation_type_anitescu_ccp = {
    .name = "anitescu_ccp",
    .summary =
        "the exact cone's convex relaxation: cone complementarity, no De Saxce term (kind fc, relaxed)",
    .paper = "Anitescu 2006 (cone complementarity; MuJoCo's and Drake's convex model)",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE | SHAPE_SPHERE | SHAPE_POLYHEDRON | SHAPE_PLANE |
              SHAPE_SUPERELLIPSE | SHAPE_SUPERELLIPSOID,
    .options = ccp_options,
    .n_options = (int)(sizeof ccp_options / sizeof ccp_options[0]),
    .create = ccp_create,
    .assemble = coulomb_cone_assemble,
    .recover = contact_rows_recover,
    .destroy = contact_rows_destroy,
    .view = contact_rows_view,
};
