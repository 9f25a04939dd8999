/* drive_fixture.c — worlds with drives and their closed-form motion (drive_fixture.h). */
#include "drive_fixture.h"

#include "formulation.h"
#include "stepper.h"

#include <math.h>
#include <string.h>

/* A 2D world without gravity holding one disc of mass m (radius 0.01) at the origin; its body in *b. */
static struct world *one_disc(double m, double inertia, int *b)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->gravity[1] = 0.0;
  *b = world_add_body(w, 0, m, inertia);
  world_add_disc(w, *b, 0.0, 0.0, 0.01);
  return w;
}

static struct world *finished(struct world *w, int part_added)
{
  if (part_added < 0 || world_finalize(w)) world_destroy(&w);
  return w;
}

struct world *drive_support_disc(double m, double mu, double damping)
{
  int b;
  struct world *w = one_disc(m, 0.5 * m * 0.01 * 0.01, &b);
  const double p[6] = {0.006, 0.0, -0.003, 0.005196152422706632, -0.003, -0.005196152422706632};
  const double N[3] = {m * 9.81 / 3.0, m * 9.81 / 3.0, m * 9.81 / 3.0};
  return w ? finished(w, world_add_support(w, b, 3, p, N, mu, 8, damping)) : NULL;
}

struct world *drive_motor_disc(double m, const double axis[3], double vstar, double F)
{
  int b;
  struct world *w = one_disc(m, 1e-4, &b);
  return w ? finished(w, world_add_motor(w, b, axis, vstar, F)) : NULL;
}

struct world *drive_incline_slider(double m, double alpha)
{
  int b;
  struct world *w = one_disc(m, 1e-3, &b);
  if (!w) return NULL;
  w->gravity[1] = -9.81;
  const double zero[3] = {0.0, 0.0, 0.0}, axis[3] = {cos(alpha), -sin(alpha), 0.0};
  return finished(w, world_add_slider(w, b, -1, zero, zero, axis));
}

struct world *drive_mirror_pair(double ma, double mb)
{
  int a, c;
  struct world *w = one_disc(ma, 1e-4, &a);
  if (!w) return NULL;
  c = world_add_body(w, 0, mb, 1e-4);
  world_add_disc(w, c, 0.0, 0.0, 0.01);
  w->bodies[a].x[0] = 0.05, w->bodies[c].x[0] = -0.05;
  w->bodies[a].group = w->bodies[c].group = 1;
  const double zero[3] = {0.0, 0.0, 0.0}, ex[3] = {1.0, 0.0, 0.0};
  return finished(w, world_add_mirror(w, a, c, zero, ex));
}

/* n steps (drive_steps); with g, the last step's drive impulse into it (-1 when none was reported). */
static int run_steps(struct world *w, int n, double h, const char *formulation, const char *solver, double *g)
{
  struct formulation *f = NULL;
  struct solver *s = NULL;
  struct stepper *st = NULL;
  int failed = -1;
  if (!w || formulation_create(formulation, &f, NULL, 0) || solver_create(solver, &s, NULL, 0) ||
      stepper_create(&st) || !formulation_supports(f, w))
    goto done;
  failed = 0;
  for (int i = 0; i < n && failed >= 0; i++) {
    struct step_record rec;
    if (stepper_step(st, w, f, s, h, &rec))
      failed = -1;
    else
      failed += rec.failed;
  }
  if (g && failed >= 0) {
    if (stepper_drive_impulse(st))
      memcpy(g, stepper_drive_impulse(st), (size_t)w->ndof * sizeof *g);
    else
      failed = -1;
  }
done:
  stepper_destroy(&st);
  solver_destroy(&s);
  formulation_destroy(&f);
  return failed;
}

int drive_steps(struct world *w, int n, double h, const char *formulation, const char *solver)
{
  return run_steps(w, n, h, formulation, solver, NULL);
}

int drive_step_impulse(struct world *w, double h, const char *formulation, const char *solver, double *g)
{
  return run_steps(w, 1, h, formulation, solver, g);
}

double drive_slide_distance(double v0, double a, double h)
{
  double x = 0.0;
  for (int k = 1; v0 - k * a * h > 0.0; k++)
    x += h * (v0 - k * a * h);
  return x;
}

double drive_fall_distance(double a, int n, double h)
{
  double x = 0.0;
  for (int i = 1; i <= n; i++)
    x += h * i * a * h;
  return x;
}
