/* registry.c — the one list of solvers (design.md contract 2). Adding a solver: one file defining
 * `const struct solver_type solver_type_NAME`, one extern line and one entry below. */
#include "solver.h"

extern const struct solver_type solver_type_pgs;
extern const struct solver_type solver_type_psor;
extern const struct solver_type solver_type_fb_newton;
extern const struct solver_type solver_type_enum;
extern const struct solver_type solver_type_milp;
extern const struct solver_type solver_type_lemke;
extern const struct solver_type solver_type_tao_ssils;
extern const struct solver_type solver_type_tao_ssfls;
extern const struct solver_type solver_type_tao_asils;
extern const struct solver_type solver_type_tao_asfls;
extern const struct solver_type solver_type_snes_vinewtonrsls;
extern const struct solver_type solver_type_snes_vinewtonssls;
extern const struct solver_type solver_type_tao_bqpip;
extern const struct solver_type solver_type_tao_gpcg;
extern const struct solver_type solver_type_prox_newton;
extern const struct solver_type solver_type_path_crash;
extern const struct solver_type solver_type_fb_newton_sparse;
extern const struct solver_type solver_type_lemke_exact;
#ifdef CB_HAVE_SICONOS
extern const struct solver_type solver_type_siconos_lemke;
extern const struct solver_type solver_type_siconos_pgs;
extern const struct solver_type solver_type_siconos_newton_fb;
extern const struct solver_type solver_type_siconos_newton_minfb;
extern const struct solver_type solver_type_siconos_enum;
extern const struct solver_type solver_type_siconos_mcp_newton_fb;
extern const struct solver_type solver_type_siconos_mcp_newton_minfb;
extern const struct solver_type solver_type_siconos_pathsearch;
extern const struct solver_type solver_type_siconos_pivot_lumod;
#endif

const struct solver_type *const solver_registry[] = {
    &solver_type_pgs,
    &solver_type_psor,
    &solver_type_fb_newton,
    &solver_type_enum,
    &solver_type_milp,
    &solver_type_lemke,
    &solver_type_tao_ssils,
    &solver_type_tao_ssfls,
    &solver_type_tao_asils,
    &solver_type_tao_asfls,
    &solver_type_snes_vinewtonrsls,
    &solver_type_snes_vinewtonssls,
    &solver_type_tao_bqpip,
    &solver_type_tao_gpcg,
    &solver_type_prox_newton,
    &solver_type_path_crash,
    &solver_type_fb_newton_sparse,
    &solver_type_lemke_exact,
#ifdef CB_HAVE_SICONOS
    &solver_type_siconos_lemke,
    &solver_type_siconos_pgs,
    &solver_type_siconos_newton_fb,
    &solver_type_siconos_newton_minfb,
    &solver_type_siconos_enum,
    &solver_type_siconos_mcp_newton_fb,
    &solver_type_siconos_mcp_newton_minfb,
    &solver_type_siconos_pathsearch,
    &solver_type_siconos_pivot_lumod,
#endif
    NULL,
};
