/* registry.c — the one list of solvers (design.md contract 2). Adding a solver: one file defining
 * `const struct solver_type solver_type_NAME`, one extern line and one entry below. */
#include "solver.h"

extern const struct solver_type solver_type_pgs;
extern const struct solver_type solver_type_psor;
extern const struct solver_type solver_type_fb_newton;
extern const struct solver_type solver_type_lemke;

const struct solver_type *const solver_registry[] = {
    &solver_type_pgs,
    &solver_type_psor,
    &solver_type_fb_newton,
    &solver_type_lemke,
    NULL,
};
