/* run.c — the one run loop (run.h, design.md contract 6): begin -> (before_step -> stepper_step ->
 * after_step) per step -> end, and the run summary's totals. A step whose solve gave no answer leaves the
 * state where it was, so the same problem would come back at every further step: it ends the run. */
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Folds one step's record into the running totals (means are finished by finish()). */
static void add_step(struct run_summary *out, const struct step_record *rec)
{
  if (out->steps++ == 0) out->rows_first = rec->rows.total;
  if (rec->failed && out->failed_steps++ == 0) {
    out->failed_at = rec->t_start;
    out->first_failed_status = rec->solve.status;
    out->first_failed_step = out->steps;
  }
  out->step_seconds +=
      rec->seconds_detect + rec->seconds_assemble + rec->seconds_solve + rec->seconds_recover;
  out->solve_seconds += rec->solve.seconds;
  out->detect_seconds += rec->seconds_detect;
  out->assemble_seconds += rec->seconds_assemble;
  out->rows_mean += rec->rows.total;
  out->contacts_mean += rec->contacts;
  out->max_penetration = fmax(out->max_penetration, rec->max_penetration);
  out->iterations += rec->solve.iterations;
  out->fp_iterations += rec->fp_iterations;
  out->halvings += rec->halvings;
  out->cold_retries += rec->cold_retries;
  out->fallbacks += rec->fallbacks;
  if (rec->fp_iterations > out->fp_iterations_max) out->fp_iterations_max = rec->fp_iterations;
  if (rec->solve.scale > 0.0)
    out->residual_max =
        fmax(out->residual_max, fmax(rec->solve.residual, rec->solve.residual_eq) / rec->solve.scale);
}

static void finish(struct run_summary *out, const struct world *w)
{
  double d = out->steps > 0 ? (double)out->steps : 1.0;
  out->step_seconds /= d;
  out->solve_seconds /= d;
  out->detect_seconds /= d;
  out->assemble_seconds /= d;
  out->rows_mean /= d;
  out->contacts_mean /= d;
  out->fp_iterations /= d;
  out->energy = world_energy(w);
  out->t = w->t;
}

int simulation_run(struct simulation *sim, double h, long steps, struct run_observer *obs, int n_obs,
                   struct run_summary *out)
{
  int rc = 1, stop = 0;
  memset(out, 0, sizeof *out);
  out->failed_at = NAN;
  out->first_failed_status = SOLVE_CONVERGED;
  out->end = RUN_END_COMPLETED;
  double c0 = cpu_now();
  for (int i = 0; i < n_obs && !stop; i++) {
    int v = obs[i].begin ? obs[i].begin(obs[i].ctx, sim, h, steps) : RUN_CONTINUE;
    if (v == RUN_ERROR) goto cleanup;
    if (v == RUN_STOP) out->stopped_by = obs[i].name, stop = 1;
  }
  for (long k = 1; k <= steps && !stop; k++) {
    for (int i = 0; i < n_obs && !stop; i++) {
      int v = obs[i].before_step ? obs[i].before_step(obs[i].ctx, sim, k, h) : RUN_CONTINUE;
      if (v == RUN_ERROR) goto cleanup;
      if (v == RUN_STOP) out->stopped_by = obs[i].name, stop = 1;
    }
    if (stop) break;
    struct step_record rec;
    if (stepper_step(sim->st, sim->w, sim->f, sim->s, h, &rec)) goto cleanup;
    add_step(out, &rec);
    /* every observer sees the step (a trace writes the row that made another one stop) */
    for (int i = 0; i < n_obs; i++) {
      int v = obs[i].after_step ? obs[i].after_step(obs[i].ctx, sim, k, &rec) : RUN_CONTINUE;
      if (v == RUN_ERROR) goto cleanup;
      if (v == RUN_STOP && !stop) out->stopped_by = obs[i].name, stop = 1;
    }
    if (!rec.advanced) {
      out->end = RUN_END_NO_ANSWER;
      out->stopped_by = NULL;
      break;
    }
  }
  if (out->stopped_by) out->end = RUN_END_OBSERVER;
  out->completed = out->end != RUN_END_NO_ANSWER && out->steps == steps;
  rc = 0;
cleanup:
  out->cpu_seconds = cpu_now() - c0;
  finish(out, sim->w);
  for (int i = 0; i < n_obs && rc == 0; i++)
    if (obs[i].end && obs[i].end(obs[i].ctx, sim, out) == RUN_ERROR) rc = 1;
  return rc;
}

void run_observers_destroy(struct run_observer *obs, int n_obs)
{
  for (int i = 0; i < n_obs; i++) {
    if (obs[i].destroy) obs[i].destroy(obs[i].ctx);
    memset(&obs[i], 0, sizeof obs[i]);
  }
}

/* The count as a double (NAN when t_end or h is not a positive finite number), before the limits. */
static double step_count(double t_end, double h)
{
  if (!(isfinite(t_end) && isfinite(h) && t_end > 0.0 && h > 0.0)) return NAN;
  double r = t_end / h, n = nearbyint(r);
  return fabs(r - n) <= 1e-9 * fmax(1.0, r) ? n : floor(r);
}

long run_step_count(double t_end, double h)
{
  double n = step_count(t_end, h);
  return n >= 1.0 && n <= (double)RUN_STEPS_MAX ? (long)n : -1;
}

int run_steps_refused(long steps, char *why, size_t len)
{
  if (steps >= 1 && steps <= RUN_STEPS_MAX) return 0;
  if (steps < 1)
    snprintf(why, len, "%ld steps: no step would be taken (a run takes 1 to %ld)", steps, RUN_STEPS_MAX);
  else
    snprintf(why, len, "%ld steps, more than a run may take (%ld)", steps, RUN_STEPS_MAX);
  return 1;
}

int run_step_count_refused(double t_end, double h, char *why, size_t len)
{
  double n = step_count(t_end, h);
  if (n >= 1.0 && n <= (double)RUN_STEPS_MAX) return 0;
  if (isnan(n))
    snprintf(why, len, "t_end %g and h %g must be positive finite numbers", t_end, h);
  else if (n < 1.0)
    snprintf(why, len, "t_end %g is shorter than one step of h %g (no step would be taken)", t_end, h);
  else
    snprintf(why, len, "t_end / h = %g / %g is %.3g steps, more than a run may take (%ld)", t_end, h, n,
             RUN_STEPS_MAX);
  return 1;
}

const char *run_failed_status(const struct run_summary *s)
{
  return s->first_failed_step == 1 && s->first_failed_status == SOLVE_NOT_APPLICABLE ? "not_applicable"
                                                                                     : "solve_failed";
}
