/* registry.c — the one list of solvers (design.md contract 2). Adding a solver: one file defining
 * `const struct solver_type solver_type_NAME` in its family's folder, and one line X(NAME) below. */
#include "solver.h"

/* The solvers, one X(name) each: X declares `solver_type_name` and lists it. The Siconos backends exist
 * only in a build that found Siconos numerics, the Bullet ones in a build that found Bullet's MLCP headers
 * (the Makefile's other guards leave solvers/siconos/ and solvers/bullet/ out otherwise). */
#define SOLVERS(X)                                                                                           \
  X(pgs)                                                                                                     \
  X(psor)                                                                                                    \
  X(fb_newton)                                                                                               \
  X(enum)                                                                                                    \
  X(milp)                                                                                                    \
  X(lemke)                                                                                                   \
  X(tao_ssils)                                                                                               \
  X(tao_ssfls)                                                                                               \
  X(tao_asils)                                                                                               \
  X(tao_asfls)                                                                                               \
  X(snes_vinewtonrsls)                                                                                       \
  X(snes_vinewtonssls)                                                                                       \
  X(tao_bqpip)                                                                                               \
  X(tao_gpcg)                                                                                                \
  X(prox_newton)                                                                                             \
  X(path_crash)                                                                                              \
  X(fb_newton_sparse)                                                                                        \
  X(lemke_exact)                                                                                             \
  X(fc_nsgs)                                                                                                 \
  X(fc_newton)                                                                                               \
  X(fc_admm)                                                                                                 \
  X(dantzig)                                                                                                 \
  X(auto)                                                                                                    \
  /* one line X(NAME) per solver, above this one */
#ifdef CB_HAVE_SICONOS
#define SICONOS_SOLVERS(X)                                                                                   \
  X(siconos_lemke)                                                                                           \
  X(siconos_pgs)                                                                                             \
  X(siconos_newton_fb)                                                                                       \
  X(siconos_newton_minfb)                                                                                    \
  X(siconos_enum)                                                                                            \
  X(siconos_mcp_newton_fb)                                                                                   \
  X(siconos_mcp_newton_minfb)                                                                                \
  X(siconos_pathsearch)                                                                                      \
  X(siconos_pivot_lumod)                                                                                     \
  X(siconos_fc_nsgs)                                                                                         \
  X(siconos_fc_nsn_ac)                                                                                       \
  X(siconos_fc_nsn_fb)                                                                                       \
  X(siconos_fc_admm)                                                                                         \
  X(siconos_fc_vi_eg)                                                                                        \
  /* one line X(NAME) per Siconos backend, above this one */
#else
#define SICONOS_SOLVERS(X)
#endif

#ifdef CB_HAVE_BULLET
#define BULLET_SOLVERS(X)                                                                                    \
  X(bullet_dantzig)                                                                                          \
  X(bullet_lemke)                                                                                            \
  X(bullet_pgs)                                                                                              \
  /* one line X(NAME) per Bullet backend, above this one */
#else
#define BULLET_SOLVERS(X)
#endif

#define DECLARE(name) extern const struct solver_type solver_type_##name;
SOLVERS(DECLARE)
SICONOS_SOLVERS(DECLARE)
BULLET_SOLVERS(DECLARE)
#undef DECLARE

#define ENTRY(name) &solver_type_##name,
const struct solver_type *const solver_registry[] = {SOLVERS(ENTRY) SICONOS_SOLVERS(ENTRY)
                                                         BULLET_SOLVERS(ENTRY) NULL};
#undef ENTRY
