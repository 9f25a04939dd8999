/* sweep_observers.c — the standard observer of a task's run (sweep_observers.h): the physics checks
 * (physics_check.h) with their columns, the trace and the failed-problem dump. The
 * dump keeps a failure inside a long sweep replayable with bin/cpsolve (every solver, its own options)
 * without the scene; files are named by experiment, task id and step, so a rerun overwrites its own. */
#include "sweep_observers.h"

#include "corpus.h"
#include "cp_io.h"
#include "sweep_capture.h"
#include "world_io.h"

#include <errno.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

enum { SWEEP_MAX_DUMPS = 5, SWEEP_TRACE_MAX_OBSERVERS = 16 };

/* ---- trace ---- */

struct trace_ctx {
  char path[PETSC_MAX_PATH_LEN + 128]; /* DIR/EXPERIMENT_task<ID>.csv */
  FILE *fp;
  int failed; /* a write failed: the file is closed, the run told (sweep_task_write_failed) */
  int n_src;  /* the observers whose columns the trace carries */
  void *src_ctx[SWEEP_TRACE_MAX_OBSERVERS];
  void (*src_values[SWEEP_TRACE_MAX_OBSERVERS])(void *ctx, double *v);
  int src_n[SWEEP_TRACE_MAX_OBSERVERS];
  char header[1024];
};

/* A trace that cannot be written is a failure of the run, not of the task (the run stops after it and
 * -resume redoes the task): the rows written so far stay as they are. Returns RUN_STOP. */
static int trace_failed(struct trace_ctx *c, int err)
{
  sweep_task_write_failed("cannot write the trace %s: %s", c->path, err ? strerror(err) : "write error");
  if (c->fp) fclose(c->fp);
  c->fp = NULL;
  c->failed = 1;
  return RUN_STOP;
}

static int trace_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  (void)sim, (void)h, (void)steps;
  struct trace_ctx *c = vctx;
  if (c->fp || c->failed) return c->failed ? RUN_STOP : RUN_CONTINUE;
  errno = 0;
  if (!(c->fp = fopen(c->path, "w")) || fprintf(c->fp, "%s\n", c->header) < 0) return trace_failed(c, errno);
  return RUN_CONTINUE;
}

static void put(FILE *fp, const char *fmt, double v)
{
  fputc(',', fp);
  if (isfinite(v)) fprintf(fp, fmt, v);
}

static int trace_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)sim;
  struct trace_ctx *c = vctx;
  if (!c->fp) return RUN_CONTINUE;
  const double step_seconds =
      rec->seconds_detect + rec->seconds_assemble + rec->seconds_solve + rec->seconds_recover;
  fprintf(c->fp, "%ld,%.17g,%s,%d,%d,%d,%d", k, rec->t, solve_status_name(rec->solve.status), rec->contacts,
          rec->rows.total, rec->solve.iterations, rec->fp_iterations);
  put(c->fp, "%.6g", rec->solve.residual);
  put(c->fp, "%.6g", rec->solve.seconds);
  put(c->fp, "%.6g", step_seconds);
  put(c->fp, "%.17g", rec->energy);
  put(c->fp, "%.17g", rec->max_penetration);
  for (int i = 0; i < c->n_src; i++) {
    double v[16];
    for (int j = 0; j < c->src_n[i]; j++)
      v[j] = NAN;
    c->src_values[i](c->src_ctx[i], v);
    for (int j = 0; j < c->src_n[i]; j++)
      put(c->fp, "%.17g", v[j]);
  }
  fputc('\n', c->fp);
  return ferror(c->fp) ? trace_failed(c, errno) : RUN_CONTINUE; /* a full disk shows at a flush */
}

static void trace_destroy(void *vctx)
{
  struct trace_ctx *c = vctx;
  if (!c) return;
  errno = 0;
  if (c->fp && fclose(c->fp))
    sweep_task_write_failed("cannot write the trace %s: %s", c->path, strerror(errno));
  free(c);
}

/* ---- failed-problem dump ---- */

struct dump_ctx {
  char dir[PETSC_MAX_PATH_LEN];
  const char *experiment;
  long task_id;
  int dumped;
};

static int dump_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  struct dump_ctx *c = vctx;
  const struct cp_problem *p = stepper_problem(sim->st);
  if (!rec->failed || !p || c->dumped >= SWEEP_MAX_DUMPS) return RUN_CONTINUE;
  char path[PETSC_MAX_PATH_LEN + 128], err[512];
  snprintf(path, sizeof path, "%s/%s_task%ld_step%ld.txt", c->dir, c->experiment, c->task_id, k);
  c->dumped++;
  int bad = !cp_is_linear(p);
  if (bad) /* the way to keep it is named: the plain format's own message does not */
    snprintf(err, sizeof err,
             "step %ld's failed problem is a nonlinear (callback) %s, which has no plain file: keep it with "
             "-cp_capture FILE.h5 -cp_capture_failed 1 and replay it with bin/bench_corpus",
             k, cp_kind_name(p->kind));
  else
    bad = cp_write_plain(path, p, err, sizeof err);
  if (bad) {
    sweep_task_write_failed("-cp_dump_failed: %s", err); /* as a trace: the run stops after this task */
    return RUN_STOP;
  }
  fprintf(stderr, "note: the failed problem at t = %g (%s%s%s) is in %s\n", rec->t_start,
          solve_status_name(rec->solve.status), rec->solve.message[0] ? ": " : "", rec->solve.message, path);
  return RUN_CONTINUE;
}

/* ---- capture of the steps' problems into an HDF5 corpus (corpus.h) ---- */

struct capture_ctx {
  const struct sweep_capture *set;
  struct corpus_meta meta; /* the task's part, filled once */
  double h;
  int done; /* 1: the cap was reached or a write failed: no more */
  /* Callback problems (Chakraborty et al.'s implicit NCPs) are stored with what rebuilds them, taken
   * before the step: the world text, the formulation's carried state, the previous answer (the warm
   * start). callback: -1 not known yet (the first step's problem tells), 0 linear (no snapshots), 1. */
  int callback;
  int snap_ok; /* the snapshot of this step is complete */
  char *world;
  size_t world_len;
  double *carry, *z_prev, *z0, *Fz0;
  int carry_n, n_prev, cap_prev, cap_z0;
  char options[4096]; /* the formulation's option values: read once, they do not change in a run */
  int options_ok;
  /* The problem a picked step first failed on (capture_first_failure), kept with its verdict and rows:
   * the step's record and stepper_problem are the last retry's. NULL when the first solve converged. */
  const struct simulation *sim;
  int picked;
  struct cp_problem *first;
  struct solve_result first_solve;
  struct row_counts first_rows;
  struct corpus_callback first_cb;
  const struct corpus_callback *first_rb; /* &first_cb, or NULL: linear, or its rebuild data is missing */
};

/* Step k is one -cp_capture_step or -cp_capture_every picks. */
static int capture_picks(const struct sweep_capture *set, long k)
{
  return set->step > 0 ? k == set->step : (k - 1) % set->every == 0;
}

static void capture_first_failure(void *vctx, const struct cp_problem *p, const struct solve_result *r,
                                  const struct row_counts *rows);

/* Before step k: the state the step's problem is assembled from, when the step may be captured. */
static void capture_before(struct capture_ctx *c, const struct simulation *sim, long k)
{
  c->snap_ok = 0;
  cp_destroy(&c->first);
  c->sim = sim;
  c->picked = !c->done && capture_picks(c->set, k);
  /* hooked for this step only (capture_after unhooks): the stepper may outlive this observer */
  stepper_on_first_failure(sim->st, c->picked ? capture_first_failure : NULL, c);
  if (!c->picked || c->callback == 0) return;
  free(c->world);
  free(c->carry);
  c->world = NULL;
  c->carry = NULL;
  if (world_to_text(sim->w, &c->world, &c->world_len) ||
      formulation_carry_get(sim->f, &c->carry, &c->carry_n))
    return;
  int n = 0;
  const double *z = stepper_solution(sim->st, &n);
  if (n > c->cap_prev) {
    double *b = realloc(c->z_prev, (size_t)n * sizeof *b);
    if (!b) return;
    c->z_prev = b;
    c->cap_prev = n;
  }
  if (n) memcpy(c->z_prev, z, (size_t)n * sizeof *z);
  c->n_prev = n;
  c->snap_ok = 1;
}

/* The rebuild data of the step's callback problem p: z0 as the stepper and the solver set it (the
 * previous answer under -cp_warm_start when the size matches, else mid(lo, hi, 0)) and F(z0). NULL when
 * the snapshot is incomplete (e.g. a formulation whose carried state cannot be exported). */
static const struct corpus_callback *capture_callback(struct capture_ctx *c, const struct simulation *sim,
                                                      const struct cp_problem *p, struct corpus_callback *cb)
{
  if (!c->options_ok)
    c->options_ok = formulation_options_text(sim->f, c->options, sizeof c->options) ? -1 : 1;
  if (!c->snap_ok || c->options_ok < 0) return NULL;
  if (p->n > c->cap_z0) {
    double *a = realloc(c->z0, (size_t)p->n * sizeof *a),
           *b = a ? realloc(c->Fz0, (size_t)p->n * sizeof *b) : NULL;
    if (a) c->z0 = a;
    if (b) c->Fz0 = b;
    if (!a || !b) return NULL;
    c->cap_z0 = p->n;
  }
  int warm = sim->s->set.warm_start && c->n_prev == p->n;
  for (int i = 0; i < p->n; i++)
    c->z0[i] = warm ? c->z_prev[i] : cp_mid(p->lo[i], p->hi[i], 0.0);
  if (cp_eval_F(p, c->z0, c->Fz0)) return NULL;
  *cb = (struct corpus_callback){.world = c->world,
                                 .options = c->options,
                                 .world_len = c->world_len,
                                 .options_len = strlen(c->options),
                                 .lo = p->lo,
                                 .hi = p->hi,
                                 .z0 = c->z0,
                                 .Fz0 = c->Fz0,
                                 .carry = c->carry,
                                 .carry_n = c->carry_n,
                                 .warm = warm};
  return cb;
}

/* The stepper's first-failure hook (stepper_on_first_failure): a picked step's first problem, copied with
 * its callback data (z0 and F(z0) now, while the formulation's state is the one it was assembled from), for
 * capture_after to keep instead of the last retry's. Without memory it is not kept (the last retry's is). */
static void capture_first_failure(void *vctx, const struct cp_problem *p, const struct solve_result *r,
                                  const struct row_counts *rows)
{
  struct capture_ctx *c = vctx;
  if (!c->picked || !(c->first = cp_duplicate(p))) return;
  c->first_solve = *r;
  c->first_rows = *rows;
  c->first_rb = cp_is_linear(p) ? NULL : capture_callback(c, c->sim, c->first, &c->first_cb);
}

static void capture_free(struct capture_ctx *c)
{
  if (!c) return;
  cp_destroy(&c->first);
  free(c->world);
  free(c->carry);
  free(c->z_prev);
  free(c->z0);
  free(c->Fz0);
  free(c);
}

static struct capture_ctx *capture_create(const struct sweep_task *task)
{
  struct capture_ctx *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->set = task->capture;
  c->callback = -1;
  struct corpus_meta *m = &c->meta;
  snprintf(m->driver, sizeof m->driver, "%s", task->driver->experiment);
  m->task_id = task->id;
  m->seed = task->instance_seed;
  size_t len = 0;
  for (int k = 0; k < task->n_axes && len < sizeof m->axes; k++)
    len += (size_t)snprintf(m->axes + len, sizeof m->axes - len, "%s%s=%s", k ? ";" : "",
                            task->driver->axes[k].name, task->value[k]);
  snprintf(m->git_sha, sizeof m->git_sha, "%s", c->set->git_sha);
  return c;
}

/* After step k: the step's problem into the corpus when it is picked: the one it first failed on when it
 * was taken again (capture_first_failure), so that the stored problem is the one its world at the step's
 * start and h rebuild; under -cp_capture_failed, a step whose first solve failed counts as failed even
 * when a retry converged. */
static void capture_after(struct capture_ctx *c, const struct simulation *sim, long k,
                          const struct step_record *rec)
{
  stepper_on_first_failure(sim->st, NULL, NULL);
  const struct cp_problem *last = stepper_problem(sim->st), *p = c->first ? c->first : last;
  if (last) c->callback = !cp_is_linear(last);
  const int failed = c->first || rec->failed;
  if (c->done || !p || (c->set->failed_only && !failed) || !capture_picks(c->set, k)) return;
  const struct solve_result *solve = c->first ? &c->first_solve : &rec->solve;
  const struct row_counts *r = c->first ? &c->first_rows : &rec->rows;
  struct corpus_meta *m = &c->meta;
  snprintf(m->name, sizeof m->name, "%s_task%ld_step%ld", m->driver, m->task_id, k);
  snprintf(m->formulation, sizeof m->formulation, "%s", sim->f->type->name);
  snprintf(m->solver, sizeof m->solver, "%s", sim->s->type->name);
  snprintf(m->status, sizeof m->status, "%s", solve_status_name(solve->status));
  m->h = c->h;
  m->t = rec->t_start;
  m->step = k;
  const int rows[6] = {r->normal, r->friction, r->slack, r->joint, r->velocity, r->other};
  memcpy(m->rows, rows, sizeof rows);
  struct corpus_callback cb;
  const struct corpus_callback *rb = NULL; /* a linear problem's data is its own */
  if (!cp_is_linear(p)) rb = c->first ? c->first_rb : capture_callback(c, sim, p, &cb);
  if (sweep_capture_add(c->set, p, m, rb)) c->done = 1;
  cp_destroy(&c->first);
}

/* ---- the standard columns ---- */

const struct sweep_column sweep_standard_columns[] = {
    {"phys_penetration_max", SWEEP_INFO, "deepest overlap after a step, shared detection [m]", .floor = 1e-9},
    {"phys_penetration_mean", SWEEP_INFO, "mean over the steps of the deepest overlap [m]", .floor = 1e-9},
    {"phys_signorini_max", SWEEP_INFO, "largest p_n (gap/h + v_n+)^+: impulse on an opening contact [J]",
     .floor = 1e-9},
    {"phys_signorini_mean", SWEEP_INFO, "mean over the steps of the step's largest [J]", .floor = 1e-9},
    {"phys_coulomb_max", SWEEP_INFO, "largest (|lambda_t| - mu p_n)^+ against the true cone [N s]",
     .floor = 1e-9},
    {"phys_coulomb_mean", SWEEP_INFO, "mean over the steps of the step's largest [N s]", .floor = 1e-9},
    {"phys_dissipation_max", SWEEP_INFO,
     "largest (lambda_t . v_t+ + mu p_n |v_t+|)^+: friction not opposing sliding at the cone's edge [J]",
     .floor = 1e-9},
    {"phys_dissipation_mean", SWEEP_INFO, "mean over the steps of the step's largest [J]", .floor = 1e-9},
    {"phys_energy_gain_max", SWEEP_INFO, "largest energy gain of a step (kinetic + potential) [J]",
     .floor = 1e-9},
    {"phys_energy_gain_mean", SWEEP_INFO, "mean over the steps of the energy gain [J]", .floor = 1e-9},
};
const int sweep_n_standard_columns = (int)(sizeof sweep_standard_columns / sizeof sweep_standard_columns[0]);

struct driver_with_columns {
  struct sweep_driver d;
  struct sweep_column col[];
};

struct sweep_driver *sweep_driver_with_standard_columns(const struct sweep_driver *d)
{
  int n = d->n_columns + sweep_n_standard_columns;
  struct driver_with_columns *x = malloc(sizeof *x + (size_t)n * sizeof x->col[0]);
  if (!x) return NULL;
  x->d = *d;
  memcpy(x->col, d->columns, (size_t)d->n_columns * sizeof x->col[0]);
  memcpy(x->col + d->n_columns, sweep_standard_columns, (size_t)sweep_n_standard_columns * sizeof x->col[0]);
  x->d.columns = x->col;
  x->d.n_columns = n;
  return &x->d;
}

/* ---- the one standard observer: physics checks, then trace, dump ---- */

struct standard_ctx {
  struct run_observer phys;
  struct run_physics_stats stats;
  struct trace_ctx *trace;
  struct dump_ctx *dump;
  struct capture_ctx *capture;
  struct sweep_row *row;
};

static int std_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  struct standard_ctx *c = vctx;
  if (c->phys.begin(c->phys.ctx, sim, h, steps) == RUN_ERROR) return RUN_ERROR;
  if (c->capture) c->capture->h = h;
  return c->trace ? trace_begin(c->trace, sim, h, steps) : RUN_CONTINUE;
}

static int std_before(void *vctx, struct simulation *sim, long k, double h)
{
  struct standard_ctx *c = vctx;
  if (c->phys.before_step(c->phys.ctx, sim, k, h) == RUN_ERROR) return RUN_ERROR;
  if (c->capture) capture_before(c->capture, sim, k);
  return RUN_CONTINUE;
}

static int std_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  struct standard_ctx *c = vctx;
  if (c->phys.after_step(c->phys.ctx, sim, k, rec) == RUN_ERROR) return RUN_ERROR;
  int v = c->trace ? trace_after(c->trace, sim, k, rec) : RUN_CONTINUE;
  if (c->dump && dump_after(c->dump, sim, k, rec) == RUN_STOP) v = RUN_STOP;
  if (c->capture) capture_after(c->capture, sim, k, rec);
  return v;
}

static int std_end(void *vctx, const struct simulation *sim, const struct run_summary *sum)
{
  (void)sim, (void)sum;
  struct standard_ctx *c = vctx;
  if (!c->row || c->stats.steps == 0) return RUN_CONTINUE;
  for (int j = 0; j < PHYSICS_N_CHECKS; j++) {
    char name[64];
    snprintf(name, sizeof name, "phys_%s_max", physics_check_names[j]);
    sweep_row_set(c->row, name, c->stats.max[j]);
    snprintf(name, sizeof name, "phys_%s_mean", physics_check_names[j]);
    sweep_row_set(c->row, name, c->stats.mean[j]);
  }
  return RUN_CONTINUE;
}

static void std_destroy(void *vctx)
{
  struct standard_ctx *c = vctx;
  if (!c) return;
  if (c->phys.destroy) c->phys.destroy(c->phys.ctx);
  trace_destroy(c->trace);
  free(c->dump);
  capture_free(c->capture);
  free(c);
}

/* The trace of task: SWEEP_TRACE_COLUMNS, the columns of obs[0 .. n), then the physics checks'. */
static struct trace_ctx *trace_create(const struct sweep_task *task, const struct run_observer *obs, int n,
                                      const struct run_observer *phys)
{
  struct trace_ctx *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  snprintf(c->path, sizeof c->path, "%s/%s_task%ld.csv", task->trace_dir, task->driver->experiment, task->id);
  size_t len = (size_t)snprintf(c->header, sizeof c->header, "%s", SWEEP_TRACE_COLUMNS);
  for (int i = 0; i <= n; i++) {
    const struct run_observer *o = i < n ? &obs[i] : phys;
    if (!o->values || o->n_columns <= 0) continue;
    if (c->n_src == SWEEP_TRACE_MAX_OBSERVERS || o->n_columns > 16 || len >= sizeof c->header) {
      fprintf(stderr, "error: -trace: too many observer columns\n");
      free(c);
      return NULL;
    }
    c->src_ctx[c->n_src] = o->ctx;
    c->src_values[c->n_src] = o->values;
    c->src_n[c->n_src++] = o->n_columns;
    len += (size_t)snprintf(c->header + len, sizeof c->header - len, ",%s", o->columns);
  }
  return c;
}

int sweep_observers_standard(const struct sweep_task *task, struct run_observer *obs, int *n, int cap)
{
  const char *trace = task->trace_dir ? task->trace_dir : "", *dump = task->dump_dir ? task->dump_dir : "";
  if (*n + 1 > cap) {
    fprintf(stderr, "error: sweep_observers_standard: room for %d observers, %d used\n", cap, *n);
    return 1;
  }
  struct standard_ctx *c = calloc(1, sizeof *c);
  if (!c) return 1;
  c->row = task->row;
  if (run_observer_physics(&c->phys, &c->stats)) {
    free(c);
    return 1;
  }
  if (trace[0] && !(c->trace = trace_create(task, obs, *n, &c->phys))) {
    std_destroy(c);
    return 1;
  }
  if (dump[0]) {
    if (!(c->dump = calloc(1, sizeof *c->dump))) {
      std_destroy(c);
      return 1;
    }
    snprintf(c->dump->dir, sizeof c->dump->dir, "%s", dump);
    c->dump->experiment = task->driver->experiment;
    c->dump->task_id = task->id;
  }
  if (task->capture && task->capture->path[0] && !(c->capture = capture_create(task))) {
    std_destroy(c);
    return 1;
  }
  obs[(*n)++] = (struct run_observer){.name = "standard",
                                      .ctx = c,
                                      .begin = std_begin,
                                      .before_step = std_before,
                                      .after_step = std_after,
                                      .end = std_end,
                                      .destroy = std_destroy};
  return 0;
}
