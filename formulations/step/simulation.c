/* simulation.c — building and releasing a world + formulation + solver + stepper (simulation.h). */
#include "simulation.h"

#include <stdio.h>
#include <string.h>

int simulation_fallback_create(const struct formulation *f, const char *solver, PetscOptions opts,
                               struct solver **fb, char *msg, size_t len)
{
  const char *name = f->step_fallback_solver;
  *fb = NULL;
  if (strcmp(name, "none") == 0) return 0;
  if (solver && strcmp(name, solver) == 0) {
    snprintf(msg, len, "-step_fallback_solver %s is the step's solver itself (name another one, or none)",
             name);
    return 1;
  }
  if (solver_create(name, fb, msg, len) || solver_set_from_options(*fb, opts, msg, len)) {
    char why[256];
    snprintf(why, sizeof why, "%s", msg);
    snprintf(msg, len, "-step_fallback_solver: %s", why);
    solver_destroy(fb);
    return 1;
  }
  return 0;
}

int simulation_open(struct simulation *sim, struct world *w, const char *formulation, const char *solver,
                    PetscOptions opts)
{
  char msg[256] = "";
  memset(sim, 0, sizeof *sim);
  sim->w = w;
  int rc = !w || formulation_create(formulation, &sim->f, msg, sizeof msg) ||
           formulation_set_from_options(sim->f, opts, msg, sizeof msg) ||
           solver_create(solver, &sim->s, msg, sizeof msg) ||
           solver_set_from_options(sim->s, opts, msg, sizeof msg) ||
           simulation_fallback_create(sim->f, solver, opts, &sim->fallback, msg, sizeof msg) ||
           stepper_create(&sim->st);
  if (!rc) stepper_set_fallback(sim->st, sim->fallback);
  if (msg[0]) fprintf(stderr, "error: %s\n", msg);
  return rc;
}

void simulation_close(struct simulation *sim)
{
  stepper_destroy(&sim->st);
  solver_destroy(&sim->fallback);
  solver_destroy(&sim->s);
  formulation_destroy(&sim->f);
  world_destroy(&sim->w);
}
