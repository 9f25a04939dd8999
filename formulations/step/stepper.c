/* stepper.c — one time step (design.md contract 6): detect -> assemble -> solve -> recover -> position
 * update. Semi-implicit Euler as in the PEG time-stepper: solve for nu+, then q += h nu+ (2D theta +=
 * h omega; 3D quaternions renormalised). A solve that does not converge is recorded (rec->failed). An
 * approximate answer (max_iterations, time_limit, line_search_failure with finite z, from a solver that
 * did not flag no_answer) still advances the state, as iterative contact solvers are used in practice; no
 * answer (Lemke's basis at its pivot or time limit, a MILP without incumbent, an unfinished enumeration;
 * not_applicable, ray_termination, infeasible, numerical_failure, nan_or_inf) leaves the state untouched
 * (rec->advanced = 0). The caller decides whether to stop ("failed at t"). Each phase is timed for make
 * bench-step. A formulation with an iterate hook (fixed-point methods) gets assemble -> solve rounds until it
 * is done; the step's solve result sums the rounds' iterations and seconds and stops at the first round that
 * does not converge. seconds_solve includes the hook (the fixed-point update). rec->traps (2D) counts
 * standard-model traps on the step-start state (peg2d_count_traps), untimed. */
#include "stepper.h"
#include "world_detect.h"
#include "cp_io.h"
#include "formulation.h"
#include "jacobian.h"
#include "peg2d.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct stepper {
  struct contact_set cs;
  struct contact_set trap_cs; /* scratch for the trap count */
  double *z, *nu, *pn;
  int cap_z, cap_nu, cap_pn;
  int nz;                            /* entries of z in the last step */
  char dump_dir[PETSC_MAX_PATH_LEN]; /* -cp_dump_failed DIR ("" = off) */
  int dumped;
};

/* The first few failed problems of a run go to -cp_dump_failed DIR as plain files, so that a failure
 * inside a long sweep can be replayed with bin/cpsolve (every solver, its own options) without the scene. */
enum { STEPPER_MAX_DUMPS = 5 };

int stepper_create(struct stepper **st)
{
  *st = calloc(1, sizeof **st);
  if (!*st) return 1;
  PetscBool set = PETSC_FALSE;
  if (PetscOptionsGetString(NULL, NULL, "-cp_dump_failed", (*st)->dump_dir, sizeof(*st)->dump_dir, &set) != 0)
    (*st)->dump_dir[0] = '\0';
  return 0;
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
const double *stepper_solution(const struct stepper *st, int *n)
{
  *n = st->nz;
  return st->z;
}

static int reserve(double **p, int *cap, int n)
{
  if (n <= *cap) return 0;
  double *q = realloc(*p, (size_t)n * sizeof *q);
  if (!q) return 1;
  *p = q;
  *cap = n;
  return 0;
}

/* Anitescu-Hart's normal velocity error (formulation.h, struct step_record) of nu at the step-start state. */
static void normal_velocity_error(const struct world *w, const struct contact_set *cs, double h,
                                  const double *nu, const double *pn, double pn_zero, struct step_record *rec)
{
  double sum = 0.0;
  for (int i = 0; i < cs->n; i++) {
    if (!(pn[i] > pn_zero)) continue;
    struct jcol col;
    jcol_contact(w, &cs->c[i], cs->c[i].n, &col);
    double e = fabs(jcol_dot(&col, nu) + cs->c[i].gap / h);
    sum += e;
    if (e > rec->nv_error_max) rec->nv_error_max = e;
    rec->nv_contacts++;
  }
  rec->nv_error_mean = rec->nv_contacts ? sum / rec->nv_contacts : 0.0;
}

/* Folds one round's solve result into the step's (see struct step_record). */
static void add_round(struct solve_result *all, const struct solve_result *r, int round)
{
  int iterations = all->iterations;
  double seconds = all->seconds;
  *all = *r;
  if (round > 0) {
    all->iterations += iterations;
    all->seconds += seconds;
  }
}

static void dump_failed(struct stepper *st, const struct cp_problem *p, double t,
                        const struct solve_result *r)
{
  if (!st->dump_dir[0] || st->dumped >= STEPPER_MAX_DUMPS) return;
  char path[PETSC_MAX_PATH_LEN + 64], err[512];
  snprintf(path, sizeof path, "%s/failed-%ld-%d.txt", st->dump_dir, (long)getpid(), st->dumped++);
  if (cp_write_plain(path, p, err, sizeof err))
    fprintf(stderr, "warning: -cp_dump_failed: %s\n", err);
  else
    fprintf(stderr, "note: the failed problem at t = %g (%s%s%s) is in %s\n", t, solve_status_name(r->status),
            r->message[0] ? ": " : "", r->message, path);
}

int stepper_step(struct stepper *st, struct world *w, struct formulation *f, struct solver *s, double h,
                 struct step_record *rec)
{
  struct cp_problem *p = NULL;
  int rc = 1;
  memset(rec, 0, sizeof *rec);
  st->nz = 0;
  double t0 = solver_wall_time();
  contact_set_clear(&st->cs);
  if (f->type->detect) {
    if (f->type->detect(f, w, h, &st->cs)) goto cleanup;
  } else if (world_detect(w, f->threshold >= 0.0 ? f->threshold : w->threshold, &st->cs)) {
    goto cleanup;
  }
  double t1 = solver_wall_time(), t_assemble = 0.0, t_solve = 0.0;
  /* counted on the step-start state for every formulation, outside the timed phases */
  rec->traps = w->dim == 2 ? peg2d_count_traps(w, h, &st->trap_cs) : -1;
  if (w->dim == 2 && rec->traps < 0) goto cleanup;
  /* Rounds: one, unless the formulation's iterate hook asks for another (same contacts, state unchanged;
   * z keeps the last round's answer, the initial guess under -cp_warm_start). */
  for (int round = 0;; round++) {
    double ta = solver_wall_time();
    f->round = round;
    cp_destroy(&p);
    if (f->type->assemble(f, w, &st->cs, h, &p)) goto cleanup;
    double tb = solver_wall_time();
    t_assemble += tb - ta;
    if (reserve(&st->z, &st->cap_z, p->n) || reserve(&st->nu, &st->cap_nu, w->ndof + 1) ||
        reserve(&st->pn, &st->cap_pn, st->cs.n + 1))
      goto cleanup;
    if (round == 0) memset(st->z, 0, (size_t)p->n * sizeof *st->z);
    st->nz = p->n;
    struct solve_result r;
    if (solver_solve(s, p, st->z, &r)) goto cleanup;
    add_round(&rec->solve, &r, round);
    rec->fp_iterations = round + 1;
    int next = FORMULATION_ROUND_DONE;
    if (r.status == SOLVE_CONVERGED && f->type->iterate) next = f->type->iterate(f, w, &st->cs, h, st->z);
    t_solve += solver_wall_time() - tb;
    if (next < 0) goto cleanup;
    if (next == FORMULATION_ROUND_AGAIN) continue;
    if (next == FORMULATION_ROUND_NO_FIXED_POINT) {
      rec->solve.status = SOLVE_MAX_ITERATIONS;
      snprintf(rec->solve.message, sizeof rec->solve.message,
               "%s: no fixed point within %d rounds (each converged)", f->type->name, rec->fp_iterations);
    }
    break;
  }
  double t3 = solver_wall_time();
  rec->failed = rec->solve.status != SOLVE_CONVERGED;
  if (rec->failed) dump_failed(st, p, w->t, &rec->solve);
  enum solve_status ss = rec->solve.status;
  int usable = (ss == SOLVE_CONVERGED || ss == SOLVE_MAX_ITERATIONS || ss == SOLVE_TIME_LIMIT ||
                ss == SOLVE_LINE_SEARCH_FAILURE) &&
               (ss == SOLVE_CONVERGED || !rec->solve.no_answer);
  for (int i = 0; i < p->n && usable; i++)
    if (!isfinite(st->z[i])) usable = 0;
  if (usable) {
    if (f->type->recover(f, w, &st->cs, h, st->z, st->nu, st->pn)) goto cleanup;
    normal_velocity_error(w, &st->cs, h, st->nu, st->pn, s->set.tol * rec->solve.scale, rec);
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
  rec->seconds_assemble = t_assemble;
  rec->seconds_solve = t_solve;
  rec->seconds_recover = t4 - t3;
  rc = 0;
cleanup:
  cp_destroy(&p);
  return rc;
}
