/* formulation_registry.c — the one list of formulations (design.md contract 4). Adding a formulation: one
 * file defining `const struct formulation_type formulation_type_NAME`, one extern line and one entry below.
 */
#include "formulation.h"

extern const struct formulation_type formulation_type_stewart_trinkle;
extern const struct formulation_type formulation_type_anitescu_potra;
extern const struct formulation_type formulation_type_acceleration_lcp;
extern const struct formulation_type formulation_type_impulse_lcp;
extern const struct formulation_type formulation_type_nonconvex_max;
extern const struct formulation_type formulation_type_nonconvex_sum;
extern const struct formulation_type formulation_type_peg;
extern const struct formulation_type formulation_type_lnc;
extern const struct formulation_type formulation_type_corrective;
extern const struct formulation_type formulation_type_anitescu_hart_lcp1;
extern const struct formulation_type formulation_type_anitescu_hart_lcp2;
extern const struct formulation_type formulation_type_geometric_implicit;
extern const struct formulation_type formulation_type_quasi_rigid;

const struct formulation_type *const formulation_registry[] = {
    &formulation_type_stewart_trinkle,
    &formulation_type_anitescu_potra,
    &formulation_type_acceleration_lcp,
    &formulation_type_impulse_lcp,
    &formulation_type_nonconvex_max,
    &formulation_type_nonconvex_sum,
    &formulation_type_peg,
    &formulation_type_lnc,
    &formulation_type_corrective,
    &formulation_type_anitescu_hart_lcp1,
    &formulation_type_anitescu_hart_lcp2,
    &formulation_type_geometric_implicit,
    &formulation_type_quasi_rigid,
    NULL,
};
