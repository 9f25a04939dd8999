/* sweep_task.c — axes (options -> value lists, checked), stable task ids, per-task seeding and the row
 * a driver fills. Task ids: the cartesian product of the axes with the LAST axis varying fastest, so an id
 * names the same parameters whatever the number of ranks, slices or resumes. Seeding: the task's GSL
 * mt19937 is seeded with splitmix64(base seed, id) — from the task alone, never from the rank. */
#include "formulation.h"
#include "program.h"
#include "run.h"
#include "scene.h"
#include "sweep_impl.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <petscsys.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SWEEP_TASKS_MAX 100000000L

struct sweep_row {
  const struct sweep_driver *d;
  char status[64];
  char **field; /* d->n_columns, malloc'd or NULL */
};

static char *dup_str(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static int push_value(struct sweep_axis_values *a, const char *v)
{
  char **nv = realloc(a->v, (size_t)(a->n + 1) * sizeof *nv);
  if (!nv) return 1;
  a->v = nv;
  if (!(a->v[a->n] = dup_str(v))) return 1;
  a->n++;
  return 0;
}

/* Checks one value of an axis; prints what is wrong (rank 0) and returns nonzero if bad. */
static int check_value(const struct sweep *s, const struct sweep_axis *ax, const char *opt, const char *v)
{
  const int say = s->rank == 0;
  char why[256];
  if (run_text_check(v, RUN_TEXT_FIELD, why, sizeof why)) { /* an axis value is a field of every row */
    if (say) fprintf(stderr, "error: %s: a value cannot hold %s\n", opt, why);
    return 1;
  }
  if (!v[0] || strpbrk(v, " \t\"'")) {
    if (say) fprintf(stderr, "error: %s: empty or malformed value '%s'\n", opt, v);
    return 1;
  }
  switch (ax->kind) {
  case SWEEP_REAL:
  case SWEEP_INT: {
    double x = 0.0;
    long n = 0;
    int bad = ax->kind == SWEEP_REAL ? option_parse_real(v, &x) : option_parse_int(v, &n);
    if (bad) {
      if (say)
        fprintf(stderr, "error: %s: '%s' is not %s\n", opt, v,
                ax->kind == SWEEP_REAL ? "a number" : "an integer");
      return 1;
    }
    if (ax->kind == SWEEP_INT) x = (double)n;
    if (option_in_range(ax->range, x) != 1) {
      if (say)
        fprintf(stderr, "error: %s %s: out of range %s (%s)\n", opt, v, ax->range, ax->help ? ax->help : "");
      return 1;
    }
    return 0;
  }
  case SWEEP_FORMULATION:
    if (formulation_find(v)) return 0;
    if (say) {
      fprintf(stderr, "error: %s: unable to find requested formulation type '%s'; valid: ", opt, v);
      formulation_registry_names(stderr);
      fprintf(stderr, "\n");
    }
    return 1;
  case SWEEP_SOLVER:
    if (solver_find(v)) return 0;
    if (say) {
      fprintf(stderr, "error: %s: unable to find requested solver type '%s'; valid: ", opt, v);
      solver_registry_names(stderr);
      fprintf(stderr, "\n");
    }
    return 1;
  case SWEEP_STRING:
    if (strchr(v, ',')) return 1;
    return 0;
  case SWEEP_OPTION: return sweep_check_option_value(s, opt, v);
  }
  return 1;
}

/* "all" for registry axes expands to every registered name. */
static int expand_all(struct sweep_axis_values *a, enum sweep_axis_kind kind)
{
  if (kind == SWEEP_FORMULATION) {
    for (int i = 0; formulation_registry[i]; i++)
      if (push_value(a, formulation_registry[i]->name)) return 1;
  } else {
    for (int i = 0; solver_registry[i]; i++)
      if (push_value(a, solver_registry[i]->name)) return 1;
  }
  return 0;
}

/* The value of option in the run's options (marked used), NULL when not given; *given says whether it was. */
static const char *run_value(const struct sweep *s, const char *option, int *given)
{
  const char *v = NULL;
  PetscBool set = PETSC_FALSE;
  if (PetscOptionsFindPair(s->options, NULL, option, &v, &set)) set = PETSC_FALSE;
  *given = set == PETSC_TRUE;
  return set ? (v ? v : "") : NULL;
}

static int parse_seeds(struct sweep *s, const struct sweep_axis *ax, struct sweep_axis_values *a)
{
  int given = 0;
  const char *text = run_value(s, "-seeds", &given);
  long n = ax->def ? atol(ax->def) : 1;
  if (given && option_parse_int(text, &n)) {
    if (s->rank == 0)
      fprintf(stderr, "error: -seeds '%s': takes a positive integer (the number of seeds)\n", text);
    return 1;
  }
  if (n < 1 || n > 1000000) {
    if (s->rank == 0) fprintf(stderr, "error: -seeds %ld: must be between 1 and 1000000\n", n);
    return 1;
  }
  if (option_in_range(ax->range, (double)(n - 1)) != 1) { /* a driver with a fixed set of instances */
    if (s->rank == 0)
      fprintf(stderr, "error: -seeds %ld: seed %ld is out of range %s (%s)\n", n, n - 1, ax->range,
              ax->help ? ax->help : "");
    return 1;
  }
  char buf[32];
  for (long i = 0; i < n; i++) {
    snprintf(buf, sizeof buf, "%ld", i);
    if (push_value(a, buf)) return 1;
  }
  return 0;
}

/* One axis's comma list into a (values checked, no empty item, no repeat). */
static int parse_list(struct sweep *s, const struct sweep_axis *ax, const char *opt, const char *list,
                      struct sweep_axis_values *a)
{
  size_t len = strlen(list);
  if (strspn(list, ",") == len) {
    if (s->rank == 0) fprintf(stderr, "error: %s: the axis is empty (give at least one value)\n", opt);
    return 1;
  }
  /* strtok skips an empty item ("1e-3,,2e-3"): a typo would silently drop a value from the sweep */
  if (list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,")) {
    if (s->rank == 0)
      fprintf(stderr, "error: %s %s: an empty value in the list (two commas in a row, or one at an end)\n",
              opt, list);
    return 1;
  }
  char *buf = dup_str(list), *save = NULL;
  if (!buf) return 1;
  int rc = 1;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if ((ax->kind == SWEEP_FORMULATION || ax->kind == SWEEP_SOLVER) && strcmp(tok, "all") == 0) {
      if (expand_all(a, ax->kind)) goto cleanup;
      continue;
    }
    if (check_value(s, ax, opt, tok)) goto cleanup;
    for (int i = 0; i < a->n; i++)
      if (strcmp(a->v[i], tok) == 0) {
        if (s->rank == 0) fprintf(stderr, "error: %s: value '%s' given twice\n", opt, tok);
        goto cleanup;
      }
    if (push_value(a, tok)) goto cleanup;
  }
  rc = 0;
cleanup:
  free(buf);
  return rc;
}

int sweep_axes_parse(struct sweep *s)
{
  const struct sweep_driver *d = s->d;
  s->ax = calloc((size_t)d->n_axes + 1, sizeof *s->ax);
  if (!s->ax) return 1;
  s->total = 1;
  for (int k = 0; k < d->n_axes; k++) {
    const struct sweep_axis *ax = &d->axes[k];
    struct sweep_axis_values *a = &s->ax[k];
    const char *opt = sweep_axis_option(ax);
    if (strcmp(ax->name, SWEEP_SEEDS_AXIS) == 0) {
      if (parse_seeds(s, ax, a)) return 1;
    } else {
      int given = 0;
      const char *list = run_value(s, opt, &given);
      if (!given && !ax->def && d->axis_default && s->ctx) list = d->axis_default(s->ctx, ax->name);
      if (!list) list = ax->def ? ax->def : "";
      /* -help before the driver's settings exist: an axis whose default they give (axis_default) is shown
       * as its help says, not as an error */
      if (!list[0] && !given && d->axis_default && !s->ctx && s->program && s->program->help) continue;
      if (!list[0]) {
        if (s->rank == 0) fprintf(stderr, "error: %s: the axis is empty (give at least one value)\n", opt);
        return 1;
      }
      if (parse_list(s, ax, opt, list, a)) return 1;
      if (a->n == 0) {
        if (s->rank == 0) fprintf(stderr, "error: %s: the axis is empty (give at least one value)\n", opt);
        return 1;
      }
    }
    if (s->total > SWEEP_TASKS_MAX / a->n) {
      if (s->rank == 0) fprintf(stderr, "error: the sweep has more than %ld tasks\n", SWEEP_TASKS_MAX);
      return 1;
    }
    s->total *= a->n;
  }
  return 0;
}

/* The driver's declared option of that name and type, or NULL. */
static const struct option_decl *driver_option(const struct sweep_driver *d, const char *name,
                                               enum option_type type)
{
  for (int i = 0; i < d->n_options; i++)
    if (strcmp(d->options[i].name, name) == 0 && d->options[i].type == type) return &d->options[i];
  return NULL;
}

/* The driver's h axis when it steps in time (a real option t_end too), else -1. */
static int time_step_axis(const struct sweep_driver *d)
{
  for (int k = 0; k < d->n_axes && driver_option(d, "t_end", OPT_REAL); k++)
    if (strcmp(d->axes[k].name, "h") == 0 && d->axes[k].kind == SWEEP_REAL) return k;
  return -1;
}

int sweep_check_step_option(struct sweep *s)
{
  int given = 0;
  const char *text = run_value(s, "-steps", &given);
  s->fixed_steps = 0;
  if (!given || time_step_axis(s->d) < 0 || !driver_option(s->d, "steps", OPT_INT)) return 0;
  long n = 0;
  char why[256];
  if (option_parse_int(text, &n)) {
    if (s->rank == 0) fprintf(stderr, "error: -steps: '%s' is not a whole number\n", text);
    return 1;
  }
  if (run_steps_refused(n, why, sizeof why)) {
    if (s->rank == 0) fprintf(stderr, "error: -steps %s: %s\n", text, why);
    return 1;
  }
  s->fixed_steps = n;
  return 0;
}

int sweep_check_steps(struct sweep *s)
{
  const struct option_decl *t_end = driver_option(s->d, "t_end", OPT_REAL);
  s->step_axis = s->ctx ? time_step_axis(s->d) : -1;
  if (s->step_axis < 0) return 0;
  memcpy(&s->sim_t_end, (const char *)s->ctx + t_end->offset, sizeof s->sim_t_end);
  if (s->fixed_steps) return 0; /* -steps N replaces t_end / h: checked at the option */
  const struct sweep_axis_values *h = &s->ax[s->step_axis];
  for (int i = 0; i < h->n; i++) {
    char why[256];
    if (!run_step_count_refused(s->sim_t_end, strtod(h->v[i], NULL), why, sizeof why)) continue;
    if (s->rank == 0) fprintf(stderr, "error: -t_end %g with -h %s: %s\n", s->sim_t_end, h->v[i], why);
    return 1;
  }
  return 0;
}

void sweep_axes_free(struct sweep *s)
{
  if (!s->ax) return;
  for (int k = 0; k < s->d->n_axes; k++) {
    for (int i = 0; i < s->ax[k].n; i++)
      free(s->ax[k].v[i]);
    free(s->ax[k].v);
  }
  free(s->ax);
  s->ax = NULL;
}

void sweep_task_values(const struct sweep *s, long id, const char **values)
{
  for (int k = s->d->n_axes - 1; k >= 0; k--) {
    values[k] = s->ax[k].v[id % s->ax[k].n];
    id /= s->ax[k].n;
  }
}

/* splitmix64 finaliser: a well-mixed 64-bit value, so that neighbouring inputs get unrelated seeds. */
static uint64_t mix64(uint64_t x)
{
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

int sweep_axis_is_instance(const struct sweep_axis *a)
{
  return a->role == SWEEP_INSTANCE || strcmp(a->name, SWEEP_SEEDS_AXIS) == 0;
}

/* The task's seed from the base seed and its instance axes (name=value, as text) alone: FNV-1a over the
 * text, then splitmix64 with the base. Method axes (formulation, solver, h) do not enter, so every method
 * sees the same instance; nor does the task id, so adding values to an axis leaves old tasks' seeds. */
unsigned long sweep_instance_seed(const struct sweep *s, const char *const *values)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (int k = 0; k < s->d->n_axes; k++) {
    if (!sweep_axis_is_instance(&s->d->axes[k])) continue;
    for (int part = 0; part < 2; part++)
      for (const char *c = part ? values[k] : s->d->axes[k].name; *c; c++)
        h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
    h = (h ^ 0xffu) * 0x100000001b3ull; /* separator */
  }
  return (unsigned long)mix64((uint64_t)s->base_seed * 0x9E3779B97F4A7C15ull + h);
}

const char *sweep_axis_option(const struct sweep_axis *a)
{
  static char slot[4][128];
  static int next;
  if (a->option) return a->option;
  if (strcmp(a->name, SWEEP_SEEDS_AXIS) == 0) return "-seeds";
  char *b = slot[next++ % 4];
  snprintf(b, sizeof slot[0], "-%s", a->name);
  return b;
}

static int axis_index(const struct sweep_task *t, const char *axis)
{
  const struct sweep_driver *d = t->driver;
  for (int k = 0; k < d->n_axes; k++)
    if (strcmp(d->axes[k].name, axis) == 0) return k;
  fprintf(stderr, "error: driver %s asked for axis '%s', which it does not declare\n", d->experiment, axis);
  return -1;
}

double sweep_task_real(const struct sweep_task *t, const char *axis)
{
  int k = axis_index(t, axis);
  return k < 0 ? NAN : strtod(t->value[k], NULL);
}

long sweep_task_int(const struct sweep_task *t, const char *axis)
{
  int k = axis_index(t, axis);
  return k < 0 ? 0 : strtol(t->value[k], NULL, 10);
}

const char *sweep_task_string(const struct sweep_task *t, const char *axis)
{
  int k = axis_index(t, axis);
  return k < 0 ? "" : t->value[k];
}

static int column_index(const struct sweep_row *r, const char *column)
{
  for (int j = 0; j < r->d->n_columns; j++)
    if (strcmp(r->d->columns[j].name, column) == 0) return j;
  fprintf(stderr, "error: driver %s set column '%s', which it does not declare\n", r->d->experiment, column);
  return -1;
}

void sweep_row_set_text(struct sweep_row *r, const char *column, const char *text)
{
  int j = column_index(r, column);
  if (j < 0) return;
  char *c = dup_str(text ? text : "");
  if (!c) return;
  for (char *p = c; *p; p++) /* the ledger has no quoting: keep every field one CSV field */
    if (*p == ',')
      *p = ';';
    else if (*p == '\n' || *p == '\r')
      *p = ' ';
  free(r->field[j]);
  r->field[j] = c;
}

void sweep_row_set(struct sweep_row *r, const char *column, double value)
{
  char buf[40];
  snprintf(buf, sizeof buf, "%.17g", value);
  sweep_row_set_text(r, column, buf);
}

void sweep_row_set_int(struct sweep_row *r, const char *column, long value)
{
  char buf[32];
  snprintf(buf, sizeof buf, "%ld", value);
  sweep_row_set_text(r, column, buf);
}

void sweep_row_set_distribution(struct sweep_row *r, const char *prefix, double *v, size_t n)
{
  char col[128];
  if (n == 0) return;
  snprintf(col, sizeof col, "%s_mean", prefix);
  sweep_row_set(r, col, gsl_stats_mean(v, 1, n));
  gsl_sort(v, 1, n);
  snprintf(col, sizeof col, "%s_median", prefix);
  sweep_row_set(r, col, gsl_stats_median_from_sorted_data(v, 1, n));
  snprintf(col, sizeof col, "%s_q1", prefix);
  sweep_row_set(r, col, gsl_stats_quantile_from_sorted_data(v, 1, n, 0.25));
  snprintf(col, sizeof col, "%s_q3", prefix);
  sweep_row_set(r, col, gsl_stats_quantile_from_sorted_data(v, 1, n, 0.75));
  snprintf(col, sizeof col, "%s_max", prefix);
  sweep_row_set(r, col, v[n - 1]);
}

void sweep_row_status(struct sweep_row *r, const char *status)
{
  snprintf(r->status, sizeof r->status, "%s", status);
  for (char *p = r->status; *p; p++)
    if (*p == ',' || *p == '\n' || *p == ' ') *p = '_';
}

/* Joins parts with commas into a malloc'd string. */
static char *join(int n, const char *const *parts)
{
  size_t len = 1;
  for (int i = 0; i < n; i++)
    len += strlen(parts[i] ? parts[i] : "") + 1;
  char *out = malloc(len), *p = out;
  if (!out) return NULL;
  for (int i = 0; i < n; i++) {
    size_t l = strlen(parts[i] ? parts[i] : "");
    if (i) *p++ = ',';
    memcpy(p, parts[i] ? parts[i] : "", l);
    p += l;
  }
  *p = '\0';
  return out;
}

/* The first failed write of the task running in this process (sweep_task_write_failed); "" when none. */
static char task_write_error[1024];

void sweep_task_write_failed(const char *fmt, ...)
{
  va_list ap;
  if (task_write_error[0]) return;
  va_start(ap, fmt);
  vsnprintf(task_write_error, sizeof task_write_error, fmt, ap);
  va_end(ap);
}

char *sweep_task_execute(const struct sweep *s, long id)
{
  const struct sweep_driver *d = s->d;
  const char **values = calloc((size_t)d->n_axes + 1, sizeof *values);
  const char **parts = calloc((size_t)d->n_columns + 1, sizeof *parts);
  struct sweep_task task = {0};
  struct sweep_row row = {d, "", calloc((size_t)d->n_columns + 1, sizeof(char *))};
  char *out = NULL;
  if (!values || !parts || !row.field) goto cleanup;
  sweep_task_values(s, id, values);
  task.driver = d;
  task.id = id;
  task.n_axes = d->n_axes;
  task.value = values;
  task.time_limit = s->time_limit;
  if (s->step_axis >= 0)
    task.steps =
        s->fixed_steps ? s->fixed_steps : run_step_count(s->sim_t_end, strtod(values[s->step_axis], NULL));
  task.trace_dir = s->trace_dir;
  task.dump_dir = s->dump_dir;
  task.row = &row;
  task.capture = &s->capture;
  task.rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!task.rng) goto cleanup;
  task.instance_seed = sweep_instance_seed(s, values);
  gsl_rng_set(task.rng, task.instance_seed);
  const char *unread = NULL;
  task_write_error[0] = '\0';
  if (sweep_task_options(s, id, &task.options, &unread)) {
    fprintf(stderr, "error: %s task %ld: cannot make its options object\n", d->experiment, id);
    goto cleanup;
  }
  int run_rc = 0;
  if (unread) /* the methods do not read this axis: the task would repeat the one with its first value */
    sweep_row_status(&row, "not_applicable");
  else
    run_rc = d->run(&task, s->ctx, &row);
  if (task_write_error[0]) { /* not a row: the run stops (sweep_run.c) */
    size_t n = strlen(task_write_error) + 2;
    if ((out = malloc(n))) snprintf(out, n, "%c%s", SWEEP_WRITE_FAILED, task_write_error);
    goto cleanup;
  }
  if (run_rc) goto cleanup;
  if (!row.status[0]) {
    fprintf(stderr, "error: %s task %ld: the driver set no status\n", d->experiment, id);
    goto cleanup;
  }
  parts[0] = row.status;
  for (int j = 0; j < d->n_columns; j++)
    parts[j + 1] = row.field[j];
  out = join(d->n_columns + 1, parts);
cleanup:
  if (task.options) PetscOptionsDestroy(&task.options);
  if (task.rng) gsl_rng_free(task.rng);
  if (row.field)
    for (int j = 0; j < d->n_columns; j++)
      free(row.field[j]);
  free(row.field);
  free(parts);
  free(values);
  return out;
}

char *sweep_ledger_line(const struct sweep *s, long id, const char *fragment, const char *status,
                        double seconds)
{
  const struct sweep_driver *d = s->d;
  int n = 1 + d->n_axes + 1 + d->n_columns + 3, k = 0;
  const char **parts = calloc((size_t)n, sizeof *parts);
  char ids[32], secs[40], rank[16];
  if (!parts) return NULL;
  snprintf(ids, sizeof ids, "%ld", id);
  snprintf(secs, sizeof secs, "%.6g", seconds);
  snprintf(rank, sizeof rank, "%d", s->rank);
  parts[k++] = ids;
  sweep_task_values(s, id, parts + k);
  k += d->n_axes;
  if (fragment) {
    parts[k++] = fragment; /* status and the driver's columns, already joined */
  } else {
    parts[k++] = status;
    for (int j = 0; j < d->n_columns; j++)
      parts[k++] = "";
  }
  parts[k++] = secs;
  parts[k++] = rank;
  parts[k++] = s->host;
  char *line = join(k, parts);
  free(parts);
  return line;
}

char *sweep_header_line(const struct sweep *s)
{
  const struct sweep_driver *d = s->d;
  int n = 1 + d->n_axes + 1 + d->n_columns + 3, k = 0;
  const char **parts = calloc((size_t)n, sizeof *parts);
  if (!parts) return NULL;
  parts[k++] = "task_id";
  for (int j = 0; j < d->n_axes; j++)
    parts[k++] = d->axes[j].name;
  parts[k++] = "status";
  for (int j = 0; j < d->n_columns; j++)
    parts[k++] = d->columns[j].name;
  parts[k++] = "task_seconds";
  parts[k++] = "rank";
  parts[k++] = "host";
  char *line = join(k, parts);
  free(parts);
  return line;
}

struct world *sweep_task_world(const struct sweep_task *t, const char *fmt, ...)
{
  char spec[SCENE_SPEC_MAX], msg[512] = "";
  struct world *w = NULL;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(spec, sizeof spec, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof spec)
    fprintf(stderr, "error: %s task %ld: scene spec longer than %d characters\n", t->driver->experiment,
            t->id, SCENE_SPEC_MAX - 1);
  else if (scene_create_from_options(spec, t->options, NULL, t->rng, &w, msg, sizeof msg))
    fprintf(stderr, "error: %s task %ld: %s\n", t->driver->experiment, t->id, msg);
  else if (t->driver->steps_observed && sweep_perturb_world(t, w, msg, sizeof msg)) {
    fprintf(stderr, "error: %s task %ld: %s\n", t->driver->experiment, t->id, msg);
    world_destroy(&w);
  }
  return w;
}
