/* corpus_rebuild.h — a captured callback problem (corpus.h, captured 2: Chakraborty et al.'s geometrically
 * implicit mixed NCPs, whose F and Jacobian are C callbacks) assembled again through the formulation
 * registry: the world at the step's start (world_io.h), the formulation made by name with the option values
 * the run had (set in the PETSc options database only while it reads them), its carried state restored,
 * then its detect and assemble at the stored h. The problem's callbacks point into the world and the
 * formulation kept here, so it lives as long as the struct. */
#ifndef CB_CORPUS_REBUILD_H
#define CB_CORPUS_REBUILD_H

#include "contact_set.h"
#include "corpus.h"
#include "formulation.h"

struct corpus_rebuilt {
  struct world *w;
  struct formulation *f;
  struct contact_set cs;
  struct cp_problem *p;      /* the rebuilt problem (callbacks) */
  struct corpus_callback cb; /* what was stored: z0, F(z0), bounds, ... */
};

/* Rebuilds problem i: 0 with *out (corpus_rebuilt_free it); 1 with err saying what could not be rebuilt
 * (unreadable data, bad world text, unknown formulation or option, a failing detect / assemble, a problem
 * of another size than the stored one). */
int corpus_rebuild(const struct corpus *c, int i, struct corpus_rebuilt **out, char *err, size_t len);
void corpus_rebuilt_free(struct corpus_rebuilt **r);
/* max_i |F_i(z0) - stored F_i(z0)| / max(1, |stored F_i|) over the rebuilt problem; also the bounds
 * (inf when one differs or F cannot be evaluated): 0 for the same problem up to round-off. */
double corpus_rebuilt_difference(const struct corpus_rebuilt *r);

#endif
