/* simulation.h — what a driver's task steps (design.md contracts 5-6): a world with a formulation, a
 * solver and a stepper, the formulation and the solver made from their names with their options (and the
 * step's fallback solver when the formulation's -step_fallback_solver names one). One place to build and
 * release them, so drivers only say which scene, formulation and solver. */
#ifndef CB_SIMULATION_H
#define CB_SIMULATION_H

#include "stepper.h"

struct simulation {
  struct world *w;
  struct formulation *f;
  struct solver *s;
  struct solver *fallback; /* the formulation's -step_fallback_solver (NULL: none), lent to st */
  struct stepper *st;
};

/* The fallback solver f's -step_fallback_solver names, made and read from opts as the step's solver is
 * (*fb NULL for "none"). solver: the step's solver's name, which the fallback may not repeat (the same
 * solver with the same options fails the same way). 0, or 1 with msg. The sweep's method probe and
 * simulation_open both make it, so that its options count as read and a bad name fails before any task. */
int simulation_fallback_create(const struct formulation *f, const char *solver, PetscOptions opts,
                               struct solver **fb, char *msg, size_t len);

/* Takes ownership of w (NULL: fails) and creates the rest, the formulation and the solver with their
 * options read from opts (the task's options object; it must outlive the simulation). 0 on success; 1 on
 * failure (the creators print why). Either way sim may be passed to simulation_close. */
int simulation_open(struct simulation *sim, struct world *w, const char *formulation, const char *solver,
                    PetscOptions opts);
/* Releases them all (NULL members are skipped) and zeroes sim. */
void simulation_close(struct simulation *sim);

#endif
