/* sweep_observers.c — the trace and failed-problem dump observers of a task's run (sweep_observers.h). The
 * dump keeps a failure inside a long sweep replayable with bin/cpsolve (every solver, its own options)
 * without the scene; files are named by experiment, task id and step, so a rerun overwrites its own. */
#include "sweep_observers.h"

#include "cp_io.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

enum { SWEEP_MAX_DUMPS = 5, SWEEP_TRACE_MAX_OBSERVERS = 16 };

/* ---- trace ---- */

struct trace_ctx {
  char dir[PETSC_MAX_PATH_LEN];
  const char *experiment;
  long task_id;
  FILE *fp;
  int n_src; /* the observers whose columns the trace carries */
  void *src_ctx[SWEEP_TRACE_MAX_OBSERVERS];
  void (*src_values[SWEEP_TRACE_MAX_OBSERVERS])(void *ctx, double *v);
  int src_n[SWEEP_TRACE_MAX_OBSERVERS];
  char header[1024];
};

static int trace_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  (void)sim, (void)h, (void)steps;
  struct trace_ctx *c = vctx;
  if (!c->fp) c->fp = sweep_trace_open(c->dir, c->experiment, c->task_id, c->header);
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
  return RUN_CONTINUE;
}

static void trace_destroy(void *vctx)
{
  struct trace_ctx *c = vctx;
  if (!c) return;
  if (c->fp) fclose(c->fp);
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
  if (cp_write_plain(path, p, err, sizeof err))
    fprintf(stderr, "warning: -cp_dump_failed: %s\n", err);
  else
    fprintf(stderr, "note: the failed problem at t = %g (%s%s%s) is in %s\n", rec->t_start,
            solve_status_name(rec->solve.status), rec->solve.message[0] ? ": " : "", rec->solve.message,
            path);
  return RUN_CONTINUE;
}

int sweep_observers_standard(const struct sweep_task *task, struct run_observer *obs, int *n, int cap)
{
  const char *trace = task->trace_dir ? task->trace_dir : "", *dump = task->dump_dir ? task->dump_dir : "";
  const char *experiment = task->driver->experiment;
  if (*n + (trace[0] != '\0') + (dump[0] != '\0') > cap) {
    fprintf(stderr, "error: sweep_observers_standard: room for %d observers, %d used\n", cap, *n);
    return 1;
  }
  if (trace[0]) {
    struct trace_ctx *c = calloc(1, sizeof *c);
    if (!c) return 1;
    snprintf(c->dir, sizeof c->dir, "%s", trace);
    c->experiment = experiment;
    c->task_id = task->id;
    size_t len = (size_t)snprintf(c->header, sizeof c->header, "%s", SWEEP_TRACE_COLUMNS);
    for (int i = 0; i < *n; i++) {
      if (!obs[i].values || obs[i].n_columns <= 0) continue;
      if (c->n_src == SWEEP_TRACE_MAX_OBSERVERS || obs[i].n_columns > 16 || len >= sizeof c->header) {
        fprintf(stderr, "error: -trace: too many observer columns\n");
        free(c);
        return 1;
      }
      c->src_ctx[c->n_src] = obs[i].ctx;
      c->src_values[c->n_src] = obs[i].values;
      c->src_n[c->n_src++] = obs[i].n_columns;
      len += (size_t)snprintf(c->header + len, sizeof c->header - len, ",%s", obs[i].columns);
    }
    obs[(*n)++] = (struct run_observer){
        .name = "trace", .ctx = c, .begin = trace_begin, .after_step = trace_after, .destroy = trace_destroy};
  }
  if (dump[0]) {
    struct dump_ctx *c = calloc(1, sizeof *c);
    if (!c) return 1;
    snprintf(c->dir, sizeof c->dir, "%s", dump);
    c->experiment = experiment;
    c->task_id = task->id;
    obs[(*n)++] =
        (struct run_observer){.name = "cp_dump_failed", .ctx = c, .after_step = dump_after, .destroy = free};
  }
  return 0;
}
