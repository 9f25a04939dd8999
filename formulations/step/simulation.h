/* simulation.h — what a driver's task steps (design.md contracts 5-6): a world with a formulation, a
 * solver and a stepper, the formulation and the solver made from their names with their options. One
 * place to build and release the four, so drivers only say which scene, formulation and solver. */
#ifndef CB_SIMULATION_H
#define CB_SIMULATION_H

#include "stepper.h"

struct simulation {
  struct world *w;
  struct formulation *f;
  struct solver *s;
  struct stepper *st;
};

/* Takes ownership of w (NULL: fails) and creates the rest, the formulation and the solver with their
 * options read from opts (the task's options object; it must outlive the simulation). 0 on success; 1 on
 * failure (the creators print why). Either way sim may be passed to simulation_close. */
int simulation_open(struct simulation *sim, struct world *w, const char *formulation, const char *solver,
                    PetscOptions opts);
/* Releases the four (NULL members are skipped) and zeroes sim. */
void simulation_close(struct simulation *sim);

#endif
