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
 * does not converge. seconds_solve includes the hook (the fixed-point update). What an experiment measures
 * per step (traps, normal-velocity error, dumps of failed problems) are observers of the run loop (run.h),
 * so the stepper does no file I/O and reads no options. A step whose solve does not converge is taken again
 * as two half steps when the formulation's -step_halvings allows (step_halving), after being taken once
 * more from the formulation's cold start when its -step_cold_retry says so (cold_retry); a step those
 * retries did not solve is taken again whole, with the same retries, by the fallback solver when the
 * formulation's -step_fallback_solver names one (step_with_fallback). */
#include "stepper.h"

#include "formulation.h"
#include "world_detect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct stepper {
  struct contact_set cs;
  struct cp_problem *p; /* the last step's problem, kept for observers (stepper_problem) */
  double *z, *nu, *pn;
  double *drive; /* the drives' generalised impulse of the last step (ndof), when the formulation has them */
  int cap_z, cap_nu, cap_pn, cap_drive;
  int has_drive;
  int nz;             /* entries of z in the last step */
  struct body *start; /* the bodies at the start of the last attempt (stepper_on_substep) */
  int cap_start;
  stepper_substep_fn on_substep; /* stepper_on_substep */
  void *on_substep_ctx;
  stepper_first_failure_fn on_first_failure; /* stepper_on_first_failure */
  void *on_first_failure_ctx;
  int first_solve;         /* 1 until the step's first solve has been made (stepper_step) */
  struct solver *fallback; /* stepper_set_fallback (lent) */
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
  cp_destroy(&(*st)->p);
  free((*st)->z);
  free((*st)->nu);
  free((*st)->pn);
  free((*st)->drive);
  free((*st)->start);
  free(*st);
  *st = NULL;
}

const struct contact_set *stepper_contacts(const struct stepper *st) { return &st->cs; }
const double *stepper_impulses(const struct stepper *st) { return st->pn; }
const double *stepper_velocity(const struct stepper *st) { return st->nu; }
const double *stepper_drive_impulse(const struct stepper *st) { return st->has_drive ? st->drive : NULL; }
const double *stepper_solution(const struct stepper *st, int *n)
{
  *n = st->nz;
  return st->z;
}
const struct cp_problem *stepper_problem(const struct stepper *st) { return st->p; }

void stepper_on_substep(struct stepper *st, stepper_substep_fn fn, void *ctx)
{
  st->on_substep = fn;
  st->on_substep_ctx = ctx;
}

void stepper_set_fallback(struct stepper *st, struct solver *fallback) { st->fallback = fallback; }

void stepper_on_first_failure(struct stepper *st, stepper_first_failure_fn fn, void *ctx)
{
  st->on_first_failure = fn;
  st->on_first_failure_ctx = ctx;
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

/* One attempt at a step of length h (the header's pipeline), without retries. */
static int step_once(struct stepper *st, struct world *w, struct formulation *f, struct solver *s, double h,
                     struct step_record *rec)
{
  int rc = 1;
  memset(rec, 0, sizeof *rec);
  rec->t_start = w->t;
  int nz_prev = st->nz; /* the previous step's answer stays in st->z (a warm start when the size matches) */
  st->nz = 0;
  cp_destroy(&st->p);
  if (st->on_substep && world_bodies_save(w, &st->start, &st->cap_start)) goto cleanup;
  double t0 = solver_wall_time();
  contact_set_clear(&st->cs);
  if (f->type->detect) {
    if (f->type->detect(f, w, h, &st->cs)) {
      world_detect_explain(w, rec->solve.message, sizeof rec->solve.message); /* an unsupported pair, named */
      goto cleanup;
    }
  } else if (world_detect(w, f->threshold >= 0.0 ? f->threshold : w->threshold, &st->cs)) {
    world_detect_explain(w, rec->solve.message, sizeof rec->solve.message); /* an unsupported pair, named */
    goto cleanup;
  }
  double t1 = solver_wall_time(), t_assemble = 0.0, t_solve = 0.0;
  /* Rounds: one, unless the formulation's iterate hook asks for another (same contacts, state unchanged;
   * z keeps the last round's answer, the initial guess under -cp_warm_start). */
  for (int round = 0;; round++) {
    double ta = solver_wall_time();
    f->round = round;
    cp_destroy(&st->p);
    if (f->type->assemble(f, w, &st->cs, h, &st->p)) goto cleanup;
    const struct cp_problem *p = st->p;
    double tb = solver_wall_time();
    t_assemble += tb - ta;
    if (reserve(&st->z, &st->cap_z, p->n) || reserve(&st->nu, &st->cap_nu, w->ndof + 1) ||
        reserve(&st->pn, &st->cap_pn, st->cs.n + 1))
      goto cleanup;
    /* -cp_warm_start: the previous step's answer is the initial guess when its problem had the same size
     * (a heuristic: the contacts are matched by position, not identity) */
    if (round == 0 && !(s->set.warm_start && p->n == nz_prev)) memset(st->z, 0, (size_t)p->n * sizeof *st->z);
    st->nz = p->n;
    struct solve_result r;
    if (solver_solve(s, p, st->z, &r)) goto cleanup;
    if (st->first_solve && r.status != SOLVE_CONVERGED && st->on_first_failure)
      st->on_first_failure(st->on_first_failure_ctx, p, &r, &f->rows);
    st->first_solve = 0;
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
  enum solve_status ss = rec->solve.status;
  int usable = (ss == SOLVE_CONVERGED || ss == SOLVE_MAX_ITERATIONS || ss == SOLVE_TIME_LIMIT ||
                ss == SOLVE_LINE_SEARCH_FAILURE) &&
               (ss == SOLVE_CONVERGED || !rec->solve.no_answer);
  for (int i = 0; i < st->nz && usable; i++)
    if (!isfinite(st->z[i])) usable = 0;
  if (usable) {
    if (f->type->recover(f, w, &st->cs, h, st->z, st->nu, st->pn)) goto cleanup;
    st->has_drive = f->type->drive_impulse != NULL;
    if (st->has_drive) {
      if (reserve(&st->drive, &st->cap_drive, w->ndof + 1)) goto cleanup;
      f->type->drive_impulse(f, w, st->z, st->drive);
    }
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
  rec->h_last = h;
  rc = 0;
cleanup:
  return rc;
}

/* What a retried step must put back: the bodies' state and the clock, and the formulation's carried state
 * (the implicit formulations' previous answers, which shift their unknowns). */
struct step_snapshot {
  struct body *bodies;
  double t;
  double *carry;
  int n_carry;
};

static int snapshot_take(struct step_snapshot *ss, const struct world *w, const struct formulation *f)
{
  memset(ss, 0, sizeof *ss);
  ss->bodies = malloc((size_t)(w->nb > 0 ? w->nb : 1) * sizeof *ss->bodies);
  if (!ss->bodies || formulation_carry_get(f, &ss->carry, &ss->n_carry)) return 1;
  memcpy(ss->bodies, w->bodies, (size_t)w->nb * sizeof *ss->bodies);
  ss->t = w->t;
  return 0;
}

static int snapshot_restore(const struct step_snapshot *ss, struct world *w, struct formulation *f)
{
  memcpy(w->bodies, ss->bodies, (size_t)w->nb * sizeof *w->bodies);
  w->t = ss->t;
  return f->type->carry_set ? formulation_carry_set(f, ss->carry, ss->n_carry) : 0;
}

static void snapshot_free(struct step_snapshot *ss)
{
  free(ss->bodies);
  free(ss->carry);
}

/* snapshot_take for a step about to be attempted: when the state cannot be saved, rec says so (the step's
 * record, zeroed) and 1 is returned with nothing left to free. */
static int snapshot_take_for(struct step_snapshot *ss, const struct world *w, const struct formulation *f,
                             struct step_record *rec)
{
  if (!snapshot_take(ss, w, f)) return 0;
  snapshot_free(ss);
  memset(rec, 0, sizeof *rec);
  snprintf(rec->solve.message, sizeof rec->solve.message, "out of memory saving the step's state");
  return 1;
}

/* Folds the record of a half step into the step's: costs summed (the failed attempt's included), the state's
 * quantities the last half's, the worst penetration; the verdict (status, message, residual) the first
 * failing half's; advanced only while every half advanced. */
static void add_half(struct step_record *all, const struct step_record *half)
{
  struct step_record sum = *half;
  sum.t_start = all->t_start;
  if (all->failed) sum.solve = all->solve, sum.failed = 1;
  sum.solve.iterations = all->solve.iterations + half->solve.iterations;
  sum.solve.seconds = all->solve.seconds + half->solve.seconds;
  sum.fp_iterations = all->fp_iterations + half->fp_iterations;
  sum.halvings = all->halvings + half->halvings;
  sum.cold_retries = all->cold_retries + half->cold_retries;
  sum.advanced = all->advanced && half->advanced;
  sum.max_penetration = fmax(all->max_penetration, half->max_penetration);
  sum.seconds_detect += all->seconds_detect;
  sum.seconds_assemble += all->seconds_assemble;
  sum.seconds_solve += all->seconds_solve;
  sum.seconds_recover += all->seconds_recover;
  *all = sum;
}

/* Adds the costs of a failed attempt (before) to the record of the attempt that replaced it (again): what a
 * step cost is everything it ran. */
static void add_costs(struct step_record *again, const struct step_record *before)
{
  again->solve.iterations += before->solve.iterations;
  again->solve.seconds += before->solve.seconds;
  again->fp_iterations += before->fp_iterations;
  again->seconds_detect += before->seconds_detect;
  again->seconds_assemble += before->seconds_assemble;
  again->seconds_solve += before->seconds_solve;
  again->seconds_recover += before->seconds_recover;
}

/* A failed step (rec) taken again from the same state (ss) with the formulation's carried state forgotten
 * (-step_cold_retry): the warm start that shifts an implicit step's unknowns is the last step's answer,
 * which can hold Newton at a spurious point when a pair starts to touch (the grasp study's first finger
 * contact: jaws at full speed, the part still, the penetration left in the merit), where the cold guess at
 * the predicted pose lets it finish. rec becomes the retry's record (its verdict, and the state it left),
 * with the failed attempt's costs added and cold_retries = 1 when it converged. 0, or 1 when the state
 * could not be put back or the retry failed outside its solve. */
static int cold_retry(struct stepper *st, struct world *w, struct formulation *f, struct solver *s, double h,
                      const struct step_snapshot *ss, struct step_record *rec)
{
  struct step_record again;
  if (snapshot_restore(ss, w, f)) return 1;
  f->type->forget(f);
  st->nz = 0; /* the failed attempt's z is no warm start either */
  if (step_once(st, w, f, s, h, &again)) return 1;
  add_costs(&again, rec);
  again.cold_retries = !again.failed;
  *rec = again;
  return 0;
}

/* A step whose solve did not converge is taken again from the same state as two steps of h / 2, each
 * retried the same way, nested at most f->step_halvings deep: an implicit step's Newton solve can fail from
 * its guess where a shorter step's guess is closer (the geometrically implicit grasp trials). With
 * -step_cold_retry it is first taken once more from the cold start (cold_retry), at every depth. */
static int step_halving(struct stepper *st, struct world *w, struct formulation *f, struct solver *s,
                        double h, int depth, struct step_record *rec)
{
  struct step_snapshot ss;
  const int halve = depth < f->step_halvings, retry = f->step_cold_retry && f->type->forget,
            keep = halve || retry;
  if (keep && snapshot_take_for(&ss, w, f, rec)) return 1;
  int rc = step_once(st, w, f, s, h, rec);
  if (!rc && retry && rec->failed && cold_retry(st, w, f, s, h, &ss, rec)) {
    snapshot_free(&ss);
    snprintf(rec->solve.message, sizeof rec->solve.message, "%s", f->message);
    return 1;
  }
  if (rc || !halve || !rec->failed) { /* kept: this (half) step is final */
    if (keep) snapshot_free(&ss);
    if (!rc && rec->advanced && st->on_substep &&
        st->on_substep(st->on_substep_ctx, st->start, w->nb, h, rec)) {
      snprintf(rec->solve.message, sizeof rec->solve.message, "an observer of the (half) step failed");
      rc = 1;
    }
    return rc;
  }
  rc = snapshot_restore(&ss, w, f);
  snapshot_free(&ss);
  if (rc) {
    snprintf(rec->solve.message, sizeof rec->solve.message, "%s", f->message);
    return 1;
  }
  rec->failed = 0, rec->advanced = 1, rec->halvings = 1;
  st->nz = 0; /* the failed attempt's z is no warm start for a half step */
  for (int k = 0; k < 2 && rec->advanced; k++) {
    struct step_record half;
    if (step_halving(st, w, f, s, 0.5 * h, depth + 1, &half)) {
      snprintf(rec->solve.message, sizeof rec->solve.message, "%s", half.solve.message);
      return 1;
    }
    add_half(rec, &half);
  }
  return 0;
}

/* A step that the step's solver did not solve with its retries (step_halving) is taken again whole from its
 * start by the fallback solver, with the same retries (-step_fallback_solver). Why: on the grasp study's
 * grid most of fb_newton's failed steps are its own (a stalled Levenberg-Marquardt run), which TAO's SSILS
 * solves from the same state; a step the first cascade solved is not touched, so a run none of whose steps
 * fail gives the same numbers with or without a fallback. The (half) steps the failed cascade reported to
 * the substep hook are withdrawn first; the carried state is put back as the step found it (not forgotten:
 * the fallback's own cascade has the cold retry). rec: the fallback's record with both attempts' costs and
 * retry counts, fallbacks 1 when it converged. */
static int step_with_fallback(struct stepper *st, struct world *w, struct formulation *f, struct solver *s,
                              double h, struct step_record *rec)
{
  struct step_snapshot ss;
  if (snapshot_take_for(&ss, w, f, rec)) return 1;
  int rc = step_halving(st, w, f, s, h, 0, rec);
  if (!rc && rec->failed) {
    struct step_record again;
    if (st->on_substep && st->on_substep(st->on_substep_ctx, NULL, 0, 0.0, NULL)) {
      snprintf(rec->solve.message, sizeof rec->solve.message, "an observer of the (half) step failed");
      rc = 1;
    } else if (snapshot_restore(&ss, w, f)) {
      snprintf(rec->solve.message, sizeof rec->solve.message, "%s", f->message);
      rc = 1;
    } else {
      st->nz = 0; /* the failed attempt's z is no warm start for another solver */
      rc = step_halving(st, w, f, st->fallback, h, 0, &again);
      add_costs(&again, rec);
      again.halvings += rec->halvings;
      again.cold_retries += rec->cold_retries;
      again.fallbacks = !again.failed;
      *rec = again;
    }
  }
  snapshot_free(&ss);
  return rc;
}

int stepper_step(struct stepper *st, struct world *w, struct formulation *f, struct solver *s, double h,
                 struct step_record *rec)
{
  st->first_solve = 1;
  return st->fallback ? step_with_fallback(st, w, f, s, h, rec) : step_halving(st, w, f, s, h, 0, rec);
}
