/* formulation_registry.c — the one list of formulations (design.md contract 4). Adding a formulation: one
 * file in its family's folder defining `const struct formulation_type formulation_type_NAME`, and one line
 * X(NAME) below; X declares it and lists it. */
#include "formulation.h"

#define FORMULATIONS(X)                                                                                      \
  X(stewart_trinkle)                                                                                         \
  X(anitescu_potra)                                                                                          \
  X(acceleration_lcp)                                                                                        \
  X(impulse_lcp)                                                                                             \
  X(nonconvex_max)                                                                                           \
  X(nonconvex_sum)                                                                                           \
  X(peg)                                                                                                     \
  X(lnc)                                                                                                     \
  X(corrective)                                                                                              \
  X(anitescu_hart_lcp1)                                                                                      \
  X(anitescu_hart_lcp2)                                                                                      \
  X(geometric_implicit)                                                                                      \
  X(quasi_rigid)                                                                                             \
  X(tzitzouris_pang)                                                                                         \
  X(coulomb_cone)                                                                                            \
  X(boxed_lcp)                                                                                               \
  X(anitescu_ccp)                                                                                            \
  /* one line X(NAME) per formulation, above this one */

#define DECLARE(name) extern const struct formulation_type formulation_type_##name;
FORMULATIONS(DECLARE)
#undef DECLARE

#define ENTRY(name) &formulation_type_##name,
const struct formulation_type *const formulation_registry[] = {FORMULATIONS(ENTRY) NULL};
#undef ENTRY
