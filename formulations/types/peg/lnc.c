/* lnc.c — Nguyen's locally nonconvex (LNC) model as the PEG paper states it (Williams, Lu & Trinkle 2016,
 * eqs. 12-14): PEG's contacts and intercontact constraints — a vertex may violate one of the half-spaces
 * at a corner but not both, one primary impulse per I (eq. 24) — without the cross-contact constraints of
 * eq. 16, so two corners can interpenetrate (the paper's Fig. 6). Same detection, applicability filter,
 * LCP and friction as peg (peg_model.c, peg_lcp.c). Options -lnc_distance_factor, -lnc_distance_min,
 * -lnc_predict, -lnc_swept, -lnc_applicability, -lnc_swap_tol. Polygons only. */
#include "peg.h"
#include "peg_lcp.h"

#include <stddef.h>

static int lnc_create(struct formulation *f) { return peg_type_create(f, 0); }
static const struct option_decl lnc_options[PEG_SETTINGS_N_OPTIONS] = {PEG_SETTINGS_OPTIONS("lnc")};

static int lnc_set_from_options(struct formulation *f, char *msg, size_t len)
{
  return peg_type_set_from_options(f, "lnc", msg, len);
}
static void lnc_view(const struct formulation *f, FILE *out) { peg_type_view(f, "lnc", out); }

const struct formulation_type formulation_type_lnc = {
    .name = "lnc",
    .summary = "locally nonconvex: PEG's U and I constraints without X (corners may cross); 2D polygons",
    .paper = "Nguyen's LNC as in Williams, Lu & Trinkle 2016 eqs. 12-14, 24",
    .dims = FORMULATION_2D,
    .shapes = SHAPE_POLYGON,
    .joints = FORMULATION_2D | FORMULATION_3D,
    .options = lnc_options,
    .n_options = PEG_SETTINGS_N_OPTIONS,
    .create = lnc_create,
    .set_from_options = lnc_set_from_options,
    .assemble = peg_type_assemble,
    .recover = peg_type_recover,
    .detect = peg_type_detect,
    .destroy = peg_type_destroy,
    .view = lnc_view,
};
