/* simulation.c — building and releasing a world + formulation + solver + stepper (simulation.h). */
#include "simulation.h"

#include <string.h>

int simulation_open(struct simulation *sim, struct world *w, const char *formulation, const char *solver,
                    PetscOptions opts)
{
  char msg[256] = "";
  memset(sim, 0, sizeof *sim);
  sim->w = w;
  int rc = !w || formulation_create(formulation, &sim->f, msg, sizeof msg) ||
           formulation_set_from_options(sim->f, opts, msg, sizeof msg) ||
           solver_create(solver, &sim->s, msg, sizeof msg) ||
           solver_set_from_options(sim->s, opts, msg, sizeof msg) || stepper_create(&sim->st);
  if (msg[0]) fprintf(stderr, "error: %s\n", msg);
  return rc;
}

void simulation_close(struct simulation *sim)
{
  stepper_destroy(&sim->st);
  solver_destroy(&sim->s);
  formulation_destroy(&sim->f);
  world_destroy(&sim->w);
}
