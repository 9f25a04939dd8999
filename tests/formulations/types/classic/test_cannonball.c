/* test_cannonball.c — the cannonball arrangement of Anitescu-Hart Sec. 4B (21 discs of diameter 3 in 6
 * rows on a fixed plank, h = 0.05, mu = 0.05, from rest) through stewart_trinkle + Lemke.
 * Known answer: in a trough (static walls touching the end discs of the bottom row) the pile is in
 * equilibrium and no disc moves more than 1e-3 in 1 s. Without walls the free-standing pile is NOT an
 * equilibrium at mu = 0.05: holding an end disc of the bottom row needs mu >= ~0.27 at its contacts
 * (force and torque balance of the 3-disc pyramid), so there we check that it spreads. */
#include "check.h"
#include "formulation.h"
#include "scenes.h"
#include "stepper.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>

static double max_motion(int walls, const char *solver_name, int *failed)
{
  struct world *w = scene_cannonball(6, 1.0, 0.05, walls);
  struct formulation *f = NULL;
  struct solver *s = NULL;
  struct stepper *st = NULL;
  double *x0 = malloc((size_t)w->nb * 2 * sizeof *x0), moved = -1.0;
  *failed = 0;
  w->threshold = 0.01;
  if (!x0 || formulation_create("stewart_trinkle", &f, NULL, 0) || solver_create(solver_name, &s, NULL, 0) ||
      stepper_create(&st))
    goto cleanup;
  for (int i = 0; i < w->nb; i++) {
    x0[2 * i] = w->bodies[i].x[0];
    x0[2 * i + 1] = w->bodies[i].x[1];
  }
  for (int k = 0; k < 20; k++) {
    struct step_record rec;
    if (stepper_step(st, w, f, s, 0.05, &rec)) goto cleanup;
    *failed += rec.failed;
  }
  moved = 0.0;
  for (int i = 0; i < w->nb; i++) {
    double d = hypot(w->bodies[i].x[0] - x0[2 * i], w->bodies[i].x[1] - x0[2 * i + 1]);
    if (d > moved) moved = d;
  }
cleanup:
  stepper_destroy(&st);
  solver_destroy(&s);
  formulation_destroy(&f);
  world_destroy(&w);
  free(x0);
  return moved;
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  const char *solver_name = solver_find("lemke") ? "lemke" : "pgs";
  int failed;
  double moved = max_motion(1, solver_name, &failed);
  CHECK(failed == 0, "cannonball 21 in a trough: every solve converged (%d failed)", failed);
  CHECK(moved >= 0.0 && moved < 1e-3, "cannonball 21 in a trough: no disc moves more than 1e-3 in 1 s (%g)",
        moved);
  moved = max_motion(0, solver_name, &failed);
  CHECK(failed == 0, "cannonball 21 free-standing: every solve converged (%d failed)", failed);
  CHECK(moved > 0.1, "cannonball 21 free-standing, mu = 0.05: the pile spreads (max motion %g in 1 s)",
        moved);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
