/* stewart_trinkle.h — what corrective.c shares with stewart_trinkle.c: the standard model's declared
 * options (option_table.h; offsets into stewart_trinkle.c's state), so that corrective, which assembles
 * with that state, declares exactly the same rows. The count is a constant because a type table's
 * n_options must be one; the definition's initialiser is checked against it by the compiler. */
#ifndef CB_STEWART_TRINKLE_H
#define CB_STEWART_TRINKLE_H

#include "option_table.h"

#define STEWART_TRINKLE_N_OPTIONS 1
extern const struct option_decl stewart_trinkle_options[STEWART_TRINKLE_N_OPTIONS];

#endif
