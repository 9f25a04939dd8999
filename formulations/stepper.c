/* stepper.c — one time step (design.md contract 6): detect -> assemble -> solve -> recover -> position
 * update. Semi-implicit Euler as in the PEG time-stepper: solve for nu+, then q += h nu+ (2D theta +=
 * h omega; 3D quaternions renormalised). A solve that does not converge is recorded (rec->failed). An
 * approximate answer (max_iterations, time_limit, line_search_failure with finite z) still advances the
 * state, as iterative contact solvers are used in practice; no answer (not_applicable, ray_termination,
 * infeasible, numerical_failure, nan_or_inf) leaves the state untouched (rec->advanced = 0). The caller
 * decides whether to stop ("failed at t"). Each phase is timed for make bench-step. rec->traps (2D) counts
 * standard-model traps on the step-start state (peg2d_count_traps), untimed. */
#include "formulation.h"
#include "peg2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct stepper {
  struct contact_set cs;
  struct contact_set trap_cs; /* scratch for the trap count */
  double *z, *nu, *pn;
  int cap_z, cap_nu, cap_pn;
};

int stepper_create(struct stepper **st)
{
  *st = calloc(1, sizeof **st);
  return *st ? 0 : 1;
}

void stepper_destroy(struct stepper **st)
{
  if (!st || !*st) return;
  contact_set_free(&(*st)->cs);
  contact_set_free(&(*st)->trap_cs);
  free((*st)->z);
  free((*st)->nu);
  free((*st)->pn);
  free(*st);
  *st = NULL;
}

const struct contact_set *stepper_contacts(const struct stepper *st) { return &st->cs; }
const double *stepper_impulses(const struct stepper *st) { return st->pn; }

static int reserve(double **p, int *cap, int n)
{
  if (n <= *cap) return 0;
  double *q = realloc(*p, (size_t)n * sizeof *q);
  if (!q) return 1;
  *p = q;
  *cap = n;
  return 0;
}

int stepper_step(struct stepper *st, struct world *w, struct formulation *f, struct solver *s, double h,
                 struct step_record *rec)
{
  struct cp_problem *p = NULL;
  int rc = 1;
  memset(rec, 0, sizeof *rec);
  double t0 = solver_wall_time();
  contact_set_clear(&st->cs);
  if (f->type->detect) {
    if (f->type->detect(f, w, h, &st->cs)) goto cleanup;
  } else if (world_detect(w, f->threshold >= 0.0 ? f->threshold : w->threshold, &st->cs)) {
    goto cleanup;
  }
  double t1 = solver_wall_time();
  /* counted on the step-start state for every formulation, outside the timed phases */
  rec->traps = w->dim == 2 ? peg2d_count_traps(w, h, &st->trap_cs) : -1;
  if (w->dim == 2 && rec->traps < 0) goto cleanup;
  double t1b = solver_wall_time();
  if (f->type->assemble(f, w, &st->cs, h, &p)) goto cleanup;
  double t2 = solver_wall_time();
  if (reserve(&st->z, &st->cap_z, p->n) || reserve(&st->nu, &st->cap_nu, w->ndof + 1) ||
      reserve(&st->pn, &st->cap_pn, st->cs.n + 1))
    goto cleanup;
  memset(st->z, 0, (size_t)p->n * sizeof *st->z);
  if (solver_solve(s, p, st->z, &rec->solve)) goto cleanup;
  double t3 = solver_wall_time();
  rec->failed = rec->solve.status != SOLVE_CONVERGED;
  enum solve_status ss = rec->solve.status;
  int usable = ss == SOLVE_CONVERGED || ss == SOLVE_MAX_ITERATIONS || ss == SOLVE_TIME_LIMIT ||
               ss == SOLVE_LINE_SEARCH_FAILURE;
  for (int i = 0; i < p->n && usable; i++)
    if (!isfinite(st->z[i])) usable = 0;
  if (usable) {
    if (f->type->recover(f, w, &st->cs, h, st->z, st->nu, st->pn)) goto cleanup;
    world_set_velocity(w, st->nu);
    world_integrate_positions(w, h);
    w->t += h;
    rec->advanced = 1;
  }
  double t4 = solver_wall_time();
  rec->t = w->t;
  rec->contacts = st->cs.n;
  rec->rows = f->rows;
  rec->max_penetration = contact_set_max_penetration(&st->cs);
  rec->energy = world_energy(w);
  rec->seconds_detect = t1 - t0;
  rec->seconds_assemble = t2 - t1b;
  rec->seconds_solve = t3 - t2;
  rec->seconds_recover = t4 - t3;
  rc = 0;
cleanup:
  cp_destroy(&p);
  return rc;
}
