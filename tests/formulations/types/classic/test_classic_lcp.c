/* test_classic_lcp.c — known answers for Baraff's acceleration-level LCP (Trefny Sec. 1) and the
 * velocity/impulse LCP with Baumgarte and restitution (Trefny Sec. 2), both frictionless: a stack of 5
 * boxes stays at rest (acceleration_lcp, impulse_lcp); a dropped disc comes to rest on a line without
 * penetrating beyond the Baumgarte tolerance (e = 0), and with e = 0.5 it rebounds at half its impact
 * speed. */
#include "check.h"
#include "formulation.h"
#include "scenes.h"
#include "solver_fixture.h"
#include "stepper.h"

#include <math.h>
#include <petscsys.h>

static const char *solver_name = "lemke";

/* opts: the formulation's option / value pairs (NULL: its defaults) */
static int run(struct world *w, const char *form, const char *const *opts, double h, int steps,
               double *vmax_up)
{
  struct formulation *f = test_formulation(form, opts);
  struct solver *s = NULL;
  struct stepper *st = NULL;
  int failed = -1;
  if (!f || solver_create(solver_name, &s, NULL, 0) || stepper_create(&st)) goto cleanup;
  failed = 0;
  for (int i = 0; i < steps; i++) {
    struct step_record rec;
    if (stepper_step(st, w, f, s, h, &rec)) {
      failed = -1;
      break;
    }
    failed += rec.failed;
    if (vmax_up && w->bodies[1].v[1] > *vmax_up) *vmax_up = w->bodies[1].v[1];
  }
cleanup:
  stepper_destroy(&st);
  solver_destroy(&s);
  formulation_destroy(&f);
  return failed;
}

static void test_stack(const char *form, double taper)
{
  struct world *w = scene_box_stack(5, 1.0, 0.5, 1.0, 0.0, taper);
  w->threshold = 0.01;
  int failed = run(w, form, NULL, 0.01, 100, NULL);
  double moved = 0.0;
  for (int i = 1; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    double d =
        fabs(b->x[0]) + fabs(b->x[1] - 0.5 * (i - 0.5)) + fabs(b->theta) + fabs(b->v[0]) + fabs(b->v[1]);
    if (d > moved) moved = d;
  }
  CHECK(failed == 0, "%s stack of 5 (taper %g): every solve converged (%d failed)", form, taper, failed);
  CHECK(moved < 1e-9, "%s stack of 5 (taper %g): stays at rest (max displacement + speed %g after 1 s)", form,
        taper, moved);
  world_destroy(&w);
}

static void test_drop(double e)
{
  char opt[32];
  snprintf(opt, sizeof opt, "%g", e);
  /* dropped from 0.2 m above the line: impact speed sqrt(2 g 0.2) = 1.98 */
  struct world *w = scene_disc_on_line(0.5, 1.0, 0.7, 0.0);
  w->threshold = 0.05;
  double up = 0.0, h = 1e-3, vimpact = sqrt(2.0 * 9.81 * 0.2);
  int failed = run(w, "impulse_lcp", OPTS("-impulse_lcp_restitution", opt), h, e > 0.0 ? 300 : 2000, &up);
  const struct body *b = &w->bodies[1];
  CHECK(failed == 0, "impulse_lcp drop e = %g: every solve converged (%d failed)", e, failed);
  if (e == 0.0) {
    CHECK(fabs(b->x[1] - 0.5) < 1e-6, "impulse_lcp drop e = 0: rests on the line (y = %.9f)", b->x[1]);
    CHECK(fabs(b->v[1]) < 1e-9, "impulse_lcp drop e = 0: at rest (vy = %g)", b->v[1]);
  } else {
    /* discrete impact: the step before contact carries at most h g of extra speed */
    CHECK(fabs(up - e * vimpact) < 0.02 * vimpact,
          "impulse_lcp drop e = %g: rebound speed %.4f vs e v = %.4f", e, up, e * vimpact);
  }
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (!solver_find(solver_name)) solver_name = "pgs";
  test_stack("acceleration_lcp", 0.1);
  test_stack("acceleration_lcp", 0.0);
  test_stack("impulse_lcp", 0.1);
  test_stack("impulse_lcp", 0.0);
  test_drop(0.0);
  test_drop(0.5);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
