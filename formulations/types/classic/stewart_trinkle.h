/* stewart_trinkle.h — what corrective.c shares with stewart_trinkle.c: the standard model's declared
 * options (option_table.h; offsets into stewart_trinkle.c's state), so that corrective, which assembles
 * with that state, declares the same shared rows (not the detection ones: it detects on its own). The count
 * is a constant because a type table's n_options must be one; the definition's initialiser is checked against
 * it by the compiler. */
#ifndef CB_STEWART_TRINKLE_H
#define CB_STEWART_TRINKLE_H

#include "contact_set.h"
#include "option_table.h"

#define STEWART_TRINKLE_N_OPTIONS 4
/* corrective declares the first row only (it has its own detection): -stewart_trinkle_penetration_correction
 */
#define STEWART_TRINKLE_N_SHARED_OPTIONS 1
extern const struct option_decl stewart_trinkle_options[STEWART_TRINKLE_N_OPTIONS];

/* -stewart_trinkle_detection paper (stewart_trinkle_paper.c): every vertex against every edge / face whose
 * line / plane is within eps and whose projection falls within eps of it, both ways, as the PEG paper's
 * experiments ran the standard model. Appends to out; 0, or 1 on allocation failure. */
int stewart_trinkle_paper_detect(const struct world *w, double eps, struct contact_set *out);

#endif
