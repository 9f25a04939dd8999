/* formulation_registry.c — the one list of formulations (design.md contract 4). Adding a formulation: one file
 * defining `const struct formulation_type formulation_type_NAME`, one extern line and one entry below. */
#include "formulation.h"

extern const struct formulation_type formulation_type_stewart_trinkle;
extern const struct formulation_type formulation_type_anitescu_potra;

const struct formulation_type *const formulation_registry[] = {
  &formulation_type_stewart_trinkle,
  &formulation_type_anitescu_potra,
  NULL,
};
