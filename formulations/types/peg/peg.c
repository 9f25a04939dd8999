/* peg.c — the polytopal exact geometry (PEG) contact model in 2D, Williams, Lu & Trinkle 2016: potential
 * vertex-edge contacts within delta = max(0.5 h, 0.0008) of the edge segment at the current or predicted
 * configuration (peg2d.c), unilateral U (eq. 32), intercontact I and cross-contact X constraints (eq. 33)
 * with relaxed applicability (eq. 29, epsilon_theta = sin theta = -0.2) and the single-primary heuristic,
 * giving the pure LCP of eqs. 48-49 with nu eliminated (peg_model.c, peg_lcp.c). Frictionless in the
 * paper; with mu > 0 every impulse-carrying contact (U, I/X primary) gets Stewart-Trinkle's polyhedral
 * cone (2 directions). Options -peg_distance_factor, -peg_distance_min, -peg_predict, -peg_swept,
 * -peg_applicability, -peg_swap_tol, -peg_distance_3d. In 3D (polyhedra; peg3d.c, Sec. 5.2): vertex-face
 * and edge-edge potential contacts within -peg_distance_3d, U (eqs. 34-35), I over the faces a vertex is
 * near (eqs. 36-37) and X of the vertex-edge case (eq. 36). */
#include "peg.h"

#include "peg_lcp.h"

#include <stddef.h>

static int peg_create(struct formulation *f) { return peg_type_create(f, 1); }
static const struct option_decl peg_options[PEG_SETTINGS_N_OPTIONS] = {PEG_SETTINGS_OPTIONS("peg")};

static int peg_set_from_options(struct formulation *f, char *msg, size_t len)
{
  return peg_type_set_from_options(f, "peg", msg, len);
}
static void peg_view(const struct formulation *f, FILE *out) { peg_type_view(f, "peg", out); }

const struct formulation_type formulation_type_peg = {
    .name = "peg",
    .summary = "PEG: exact polytope corners via U/I/X constraints, single primary contact (LCP); "
               "polygons / polyhedra",
    .paper = "Williams, Lu & Trinkle 2016 eqs. 20-24, 29-37, 43-49",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_POLYGON | SHAPE_POLYHEDRON,
    .joints = FORMULATION_2D | FORMULATION_3D,
    .options = peg_options,
    .n_options = PEG_SETTINGS_N_OPTIONS,
    .create = peg_create,
    .set_from_options = peg_set_from_options,
    .assemble = peg_type_assemble,
    .recover = peg_type_recover,
    .detect = peg_type_detect,
    .destroy = peg_type_destroy,
    .view = peg_view,
};
