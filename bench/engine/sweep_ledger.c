/* sweep_ledger.c — the run directory: where it is, when a run may write into it, the ledger (one line per
 * finished task, written and flushed at once: the checkpoint), resume, meta.json
 * and progress. Refusals (exit 2, nothing touched): a directory that holds another experiment or the same
 * one with other options; a ledger that exists without -resume/-rerun_failed; a corrupt ledger line (a
 * damaged LAST line — what kill -9 leaves, with or without a newline after it — is set aside and its task
 * redone). The merge into tasks.csv is in
 * sweep_merge.c. */
#include "solver.h"
#include "sweep_impl.h"
#include "table.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <gsl/gsl_version.h>
#include <math.h>
#include <petscsys.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int mkdir_p(const char *path)
{
  char buf[SWEEP_PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(buf, 0777) && errno != EEXIST) return 1;
      *p = '/';
    }
  return mkdir(buf, 0777) && errno != EEXIST;
}

/* Is name an item of the comma list? */
static int list_has(const char *list, const char *name)
{
  size_t n = strlen(name);
  for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0')) return 1;
  return 0;
}

static int has_axis(const struct sweep_driver *d, const char *name)
{
  for (int k = 0; k < d->n_axes; k++)
    if (strcmp(d->axes[k].name, name) == 0) return 1;
  return 0;
}

static void put_list(FILE *fp, const char *key, const struct sweep_driver *d, int role, int costs)
{
  fprintf(fp, "%s ", key);
  int first = 1;
  for (int j = 0; j < d->n_columns; j++) { /* "metrics" lists both directions */
    int r = (int)d->columns[j].role, in = r == role || (role == SWEEP_METRIC && r == SWEEP_METRIC_HIGHER);
    if (in) fprintf(fp, "%s%s", first ? "" : ",", d->columns[j].name), first = 0;
  }
  if (costs) fprintf(fp, "%stask_seconds", first ? "" : ",");
  fputc('\n', fp);
}

/* The solve tolerance of the run, the noise floor of its per-step metrics (sweep.h): -cp_tol as the run
 * gives it (the smallest value of a list: the strictest solves), else the harness's declared default. Read
 * from the run's pairs, so that a run without solvers does not count it as used. */
static double solve_tolerance(const struct sweep *s)
{
  const struct option_decl *o = solver_option_decl("-cp_tol");
  double tol = o ? strtod(o->def, NULL) : 0.0, best = INFINITY;
  for (int i = 0; i < s->n_pairs; i++) {
    if (strcmp(s->pair_name[i], "-cp_tol") != 0 || !s->pair_value[i]) continue;
    for (const char *p = s->pair_value[i]; *p;) {
      char *end = NULL;
      double v = strtod(p, &end);
      if (end == p) break;
      if (v > 0.0 && v < best) best = v;
      p = *end == ',' ? end + 1 : end;
    }
  }
  return isfinite(best) ? best : tol;
}

/* experiment.txt: what aggregation, plots and bench_compare read (see sweep.h). Written atomically, so
 * that array elements starting together never see half a file. */
/* Axis j, or column j - n_axes: its name and help (for the units and labels lines). */
static void axis_or_column(const struct sweep_driver *d, int j, const char **name, const char **help)
{
  *name = j < d->n_axes ? d->axes[j].name : d->columns[j - d->n_axes].name;
  *help = j < d->n_axes ? d->axes[j].help : d->columns[j - d->n_axes].help;
}

/* "units name=unit,...": from a trailing "[unit]" in the help of an axis (for the x of the plots) or a
 * column; task_seconds last. */
static void put_units(FILE *fp, const struct sweep_driver *d)
{
  int first = 1;
  fprintf(fp, "units ");
  for (int j = 0; j < d->n_axes + d->n_columns; j++) {
    const char *name, *h;
    axis_or_column(d, j, &name, &h);
    const char *lb = h ? strrchr(h, '[') : NULL, *rb = lb ? strchr(lb, ']') : NULL;
    if (lb && rb && rb[1] == '\0')
      fprintf(fp, "%s%s=%.*s", first ? "" : ",", name, (int)(rb - lb - 1), lb + 1), first = 0;
  }
  fprintf(fp, "%stask_seconds=s\n", first ? "" : ",");
}

/* "KEY name,...": the columns whose count (per_step 0) or per_step (1) flag is set. */
enum column_flag { FLAG_COUNT, FLAG_PER_STEP, FLAG_SHARE };

static int column_flagged(const struct sweep_column *c, enum column_flag flag)
{
  return flag == FLAG_COUNT ? c->count : flag == FLAG_PER_STEP ? c->per_step : c->share;
}

/* "key name,name,..." of the columns with the flag; with optional, no line when there is none (a key that
 * older runs lack, so that their experiment.txt stays as it was). */
static void put_flagged(FILE *fp, const char *key, const struct sweep_driver *d, enum column_flag flag,
                        int optional)
{
  int first = 1;
  for (int j = 0; j < d->n_columns; j++)
    if (column_flagged(&d->columns[j], flag)) {
      if (first) fprintf(fp, "%s ", key);
      fprintf(fp, "%s%s", first ? "" : ",", d->columns[j].name), first = 0;
    }
  if (first && !optional) fprintf(fp, "%s ", key);
  if (!first || !optional) fputc('\n', fp);
}

/* "labels name=help|...": for the plots' axis labels, the help without its "[unit]" (units says that),
 * task_seconds last; '|' between entries since help text has commas; a '|' or backslash inside a help gets
 * a backslash before it (helps write |v| for a magnitude), a newline becomes a space. */
static void put_labels(FILE *fp, const struct sweep_driver *d)
{
  int first = 1;
  fprintf(fp, "labels ");
  for (int j = 0; j < d->n_axes + d->n_columns; j++) {
    const char *name, *h;
    axis_or_column(d, j, &name, &h);
    if (!h || !h[0]) continue;
    const char *lb = strrchr(h, '['), *rb = lb ? strchr(lb, ']') : NULL;
    size_t len = lb && rb && rb[1] == '\0' ? (size_t)(lb - h) : strlen(h);
    while (len > 0 && h[len - 1] == ' ')
      len--;
    if (!len) continue;
    fprintf(fp, "%s%s=", first ? "" : "|", name), first = 0;
    for (size_t i = 0; i < len; i++) {
      if (h[i] == '|' || h[i] == '\\') fputc('\\', fp);
      fputc(h[i] == '\n' || h[i] == '\r' ? ' ' : h[i], fp);
    }
  }
  /* the engine's own column, which a plot would otherwise label with its bare name */
  fprintf(fp, "%stask_seconds=wall time of the whole task (fork, set-up, run, checks, its row)\n",
          first ? "" : "|");
}

static int write_experiment(const struct sweep *s, const char *path)
{
  const struct sweep_driver *d = s->d;
  char tmp[SWEEP_PATH_MAX + 320]; /* host and pid: elements on several nodes may share the directory */
  if (sweep_path(tmp, sizeof tmp, "%s.%s.%d.tmp", path, s->host, (int)getpid())) return 1;
  FILE *fp = fopen(tmp, "w");
  if (!fp) return 1;
  fprintf(fp, "experiment %s\ntitle %s\naxes ", d->experiment, sweep_title(s));
  for (int k = 0; k < d->n_axes; k++)
    fprintf(fp, "%s%s", k ? "," : "", d->axes[k].name);
  fprintf(fp, "\ngroup ");
  int first = 1;
  for (int k = 0; k < d->n_axes; k++)
    if (!d->axes[k].not_grouped && strcmp(d->axes[k].name, SWEEP_SEEDS_AXIS) != 0)
      fprintf(fp, "%s%s", first ? "" : ",", d->axes[k].name), first = 0;
  fputc('\n', fp);
  put_list(fp, "metrics", d, SWEEP_METRIC, 0);
  put_list(fp, "higher_better", d, SWEEP_METRIC_HIGHER, 0);
  put_list(fp, "costs", d, SWEEP_COST, 1);
  put_list(fp, "info", d, SWEEP_INFO, 0);
  const char *x = d->plot_x ? d->plot_x : (has_axis(d, "h") ? "h" : "");
  fprintf(fp, "plot_x %s\n", x);
  fprintf(fp, "series ");
  first = 1;
  if (d->series) {
    fprintf(fp, "%s", d->series), first = !d->series[0];
  } else {
    if (has_axis(d, "formulation")) fprintf(fp, "formulation"), first = 0;
    if (has_axis(d, "solver")) fprintf(fp, "%ssolver", first ? "" : ","), first = 0;
  }
  /* an option axis is a method: its values are series of their own, never merged into one line */
  for (int k = 0; k < d->n_axes; k++)
    if (d->axes[k].kind == SWEEP_OPTION && strcmp(d->axes[k].name, x) != 0 &&
        !(d->series && list_has(d->series, d->axes[k].name)))
      fprintf(fp, "%s%s", first ? "" : ",", d->axes[k].name), first = 0;
  fputc('\n', fp);
  int log_x = 0; /* log scale when the x axis is numeric and positive */
  for (int k = 0; k < d->n_axes; k++)
    if (x[0] && strcmp(d->axes[k].name, x) == 0 && d->axes[k].kind == SWEEP_REAL) {
      log_x = 1;
      for (int i = 0; i < s->ax[k].n; i++)
        if (!(strtod(s->ax[k].v[i], NULL) > 0.0)) log_x = 0;
    }
  fprintf(fp, "log_x %d\ntasks %ld\noptions %s\n", log_x, s->total, s->fingerprint);
  /* what the driver adds to every task's object: not in the fingerprint (a release that changes a driver's
   * defaults changes its results; the line says which were in force) */
  fprintf(fp, "driver_options ");
  sweep_driver_options_print(s, fp);
  fputc('\n', fp);
  /* The axis values of this sweep, in order: task ids are positions in their product (sweep_merge). */
  for (int k = 0; k < d->n_axes; k++) {
    fprintf(fp, "values_%s ", d->axes[k].name);
    for (int i = 0; i < s->ax[k].n; i++)
      fprintf(fp, "%s%s", i ? "," : "", s->ax[k].v[i]);
    fputc('\n', fp);
  }
  put_units(fp, d);
  fprintf(fp, "floors ");
  first = 1; /* %.17g: the floor bench_compare reads back is the declared double */
  double tol = solve_tolerance(s);
  for (int j = 0; j < d->n_columns; j++) {
    const struct sweep_column *c = &d->columns[j];
    int metric = c->role == SWEEP_METRIC || c->role == SWEEP_METRIC_HIGHER;
    double floor_v = c->per_step && metric ? fmax(c->floor, tol) : c->floor;
    if (floor_v > 0.0) fprintf(fp, "%s%s=%.17g", first ? "" : ",", c->name, floor_v), first = 0;
  }
  fputc('\n', fp);
  put_flagged(fp, "counts", d, FLAG_COUNT, 0);
  put_flagged(fp, "per_step", d, FLAG_PER_STEP, 0);
  put_flagged(fp, "shares", d, FLAG_SHARE, 1);
  put_labels(fp, d);
  int bad = ferror(fp) != 0;
  bad |= fclose(fp) != 0;
  if (bad || rename(tmp, path)) {
    unlink(tmp);
    return 1;
  }
  return 0;
}

/* The damaged last line of this run's ledger (line number lineno; what kill -9 leaves mid-write, with a
 * newline after it when an editor saved the file since) is moved to LEDGER.damaged (appended: every such
 * line is kept) and cut from the ledger, so that new rows start on a line of their own and its task runs
 * again. 0, or 2 with a message. */
static int set_aside_last_line(const struct sweep *s, const char *path, int lineno)
{
  char aside[SWEEP_PATH_MAX + 16];
  FILE *in = fopen(path, "r"), *out = NULL;
  long start = 0, pos = 0;
  int c, line = 1, rc = 2;
  while (in && line < lineno && (c = fgetc(in)) != EOF) { /* the byte where the damaged line starts */
    pos++;
    if (c == '\n') line++, start = pos;
  }
  if (!in || line != lineno || sweep_path(aside, sizeof aside, "%s.damaged", path)) goto cleanup;
  if (!(out = fopen(aside, "a"))) goto cleanup;
  int last = '\n';
  while ((c = fgetc(in)) != EOF)
    fputc(last = c, out);
  if (last != '\n') fputc('\n', out);
  if (fclose(out) == 0 && !ferror(in) && truncate(path, start) == 0) rc = 0;
  out = NULL;
cleanup:
  if (rc)
    fprintf(stderr, "error: cannot set aside the damaged last line %d of %s: %s\n", lineno, path,
            strerror(errno));
  else
    fprintf(stderr,
            "[%s] %s: its last line %d was damaged (a torn or edited row): set aside in %s; its task "
            "runs again\n",
            s->d->experiment, path, lineno, aside);
  if (out) fclose(out);
  if (in) fclose(in);
  return rc;
}

/* Marks in done[] the ids whose last ledger row counts as finished (any row, interrupted ones passed over;
 * with rerun_failed, a row that is not a failure). Checks the header; sets a damaged last line of this run's
 * own ledger aside. A damaged line before the last is no torn write: table_read refuses it, naming the line.
 */
static int read_ledger(struct sweep *s, const char *path, const char *header, char *done, int own)
{
  struct table *t = NULL;
  int rc = table_read(path, TABLE_TORN_LAST, &t);
  if (rc == 1) return 0;
  if (rc) return 2;
  char *have = NULL;
  {
    size_t len = 1;
    for (int j = 0; j < t->ncol; j++)
      len += strlen(t->col[j]) + 1;
    have = calloc(len, 1);
    for (int j = 0; have && j < t->ncol; j++)
      strcat(strcat(have, j ? "," : ""), t->col[j]);
  }
  if (!have || strcmp(have, header) != 0) {
    fprintf(stderr, "error: %s: its columns (%s) are not this driver's (%s)\n", path, have ? have : "?",
            header);
    free(have);
    table_destroy(&t);
    return 2;
  }
  free(have);
  int cid = table_column(t, "task_id"), cst = table_column(t, "status");
  for (int i = 0; i < t->nrow; i++) {
    char *end;
    long old_id = strtol(table_get(t, i, cid), &end, 10);
    if (*end || old_id < 0) {
      fprintf(stderr, "error: %s: row %d has task_id '%s', not a task id\n", path, i + 1,
              table_get(t, i, cid));
      table_destroy(&t);
      return 2;
    }
    /* a task is its axis values: find this row's place in the current sweep (columns 1..n_axes) */
    long id = 0;
    for (int k = 0; k < s->d->n_axes && id >= 0; k++) {
      int found = -1;
      for (int v = 0; v < s->ax[k].n && found < 0; v++)
        if (strcmp(s->ax[k].v[v], table_get(t, i, 1 + k)) == 0) found = v;
      id = found < 0 ? -1 : id * s->ax[k].n + found;
    }
    if (id < 0) continue; /* a value no longer in the sweep: kept in the ledger, not in this run's tables */
    const char *st = table_get(t, i, cst);
    if (strcmp(st, SWEEP_INTERRUPTED) == 0) continue; /* no result, as in the merge: the task runs again */
    done[id] = !(s->rerun_failed && sweep_status_is_failure(st));
  }
  rc = t->n_dropped && own ? set_aside_last_line(s, path, t->dropped_line) : 0;
  table_destroy(&t);
  return rc;
}

struct cost_id {
  double cost;
  long id;
};

static int by_cost(const void *a, const void *b)
{
  const struct cost_id *x = a, *y = b;
  if (x->cost != y->cost) return x->cost < y->cost ? 1 : -1;
  return (x->id > y->id) - (x->id < y->id);
}

int sweep_build_todo(struct sweep *s, const char *done)
{
  struct cost_id *list = malloc((size_t)s->total * sizeof *list + 1);
  const char **values = calloc((size_t)s->d->n_axes + 1, sizeof *values);
  if (!list || !values) {
    free(list);
    free(values);
    return 1;
  }
  long n = 0;
  s->n_selected = 0;
  for (long id = s->task_lo; id < s->task_hi; id++) {
    if (s->slice_n > 0 && id % s->slice_n != s->slice_k) continue;
    s->n_selected++;
    if (done[id]) continue;
    list[n].id = id;
    list[n].cost = 0.0;
    if (s->d->cost) {
      struct sweep_task t = {
          .driver = s->d, .id = id, .n_axes = s->d->n_axes, .value = values, .time_limit = s->time_limit};
      sweep_task_values(s, id, values);
      list[n].cost = s->d->cost(&t, s->ctx);
    }
    n++;
  }
  qsort(list, (size_t)n, sizeof *list, by_cost);
  s->todo = malloc((size_t)n * sizeof *s->todo + 1);
  double *weight = s->d->cost ? malloc((size_t)n * sizeof *weight + 1) : NULL;
  int bad = !s->todo || (s->d->cost && !weight);
  for (long i = 0; !bad && i < n; i++) {
    s->todo[i] = list[i].id;
    if (weight) weight[i] = list[i].cost;
  }
  s->n_todo = n;
  sweep_schedule_free(&s->sched);
  if (!bad) bad = sweep_schedule_init(&s->sched, weight, n, s->size, s->task_chunk);
  free(weight);
  free(list);
  free(values);
  return bad;
}

/* A new ledger appears with its header already in it: written to a private file, then linked into place
 * (link fails rather than replace a ledger that appeared meanwhile). Job-array elements that resume side
 * by side read each other's ledgers, and an empty or half-headed one would stop them as corrupt. */
static int create_ledger(const struct sweep *s, const char *header)
{
  char tmp[SWEEP_PATH_MAX + 320];
  if (sweep_path(tmp, sizeof tmp, "%s.%s.%d.tmp", s->ledger_path, s->host, (int)getpid())) return 1;
  FILE *fp = fopen(tmp, "w");
  if (!fp) return 1;
  int bad = fprintf(fp, "%s\n", header) < 0;
  bad |= fclose(fp) != 0;
  if (!bad && link(tmp, s->ledger_path) && errno != EEXIST) bad = 1;
  int saved = errno;
  unlink(tmp);
  errno = saved;
  return bad;
}

/* The value of option name in a fingerprint ("-a v -b w x": a value runs to the next word that starts with
 * '-' and a letter), malloc'd; NULL when absent, "" for a flag. */
static char *fingerprint_value(const char *fp, const char *name)
{
  size_t ln = strlen(name);
  for (const char *p = fp; (p = strstr(p, name)) != NULL; p += ln) {
    if ((p != fp && p[-1] != ' ') || (p[ln] != ' ' && p[ln] != '\0')) continue;
    const char *v = p[ln] ? p + ln + 1 : p + ln, *end = v;
    while (*end && !(end[0] == ' ' && end[1] == '-' &&
                     ((end[2] >= 'a' && end[2] <= 'z') || (end[2] >= 'A' && end[2] <= 'Z'))))
      end++;
    char *out = malloc((size_t)(end - v) + 1);
    if (out) memcpy(out, v, (size_t)(end - v)), out[end - v] = '\0';
    return out;
  }
  return NULL;
}

/* Names every method option whose value differs between the run there and this one. */
static void report_other_options(const char *out, const char *exp, const char *there, const char *here)
{
  fprintf(stderr, "error: %s holds a run of '%s' with other method options:\n", out, exp);
  for (int side = 0; side < 2; side++) {
    const char *fp = side ? there : here, *other = side ? here : there;
    for (const char *p = fp; *p; p++) {
      if (!(p[0] == '-' && (p == fp || p[-1] == ' ') &&
            ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z'))))
        continue;
      char name[160];
      size_t n = strcspn(p, " ");
      snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
      char *a = fingerprint_value(fp, name), *b = fingerprint_value(other, name);
      if (!b)
        fprintf(stderr, "  %s %s: only %s\n", name, a ? a : "", side ? "there" : "here");
      else if (!side && a && strcmp(a, b) != 0)
        fprintf(stderr, "  %s: %s here, %s there\n", name, a, b);
      free(a);
      free(b);
    }
  }
  fprintf(stderr, "resume it with the same method options (observer options such as -trace may differ), or "
                  "choose another -out\n");
}

/* Refuses (2, with a message) a directory whose experiment.txt names another experiment or other options.
 * Read-only, so -dry_run can run it before anything is queued. */
int sweep_check_run_dir(const struct sweep *s)
{
  char path[SWEEP_PATH_MAX + 64];
  if (sweep_path(path, sizeof path, "%s/experiment.txt", s->out)) return 2;
  char *exp = sweep_experiment_value(path, "experiment"), *opts = sweep_experiment_value(path, "options");
  int clash = exp && (strcmp(exp, s->d->experiment) != 0 || !opts || strcmp(opts, s->fingerprint) != 0);
  if (clash) {
    if (strcmp(exp, s->d->experiment) != 0)
      fprintf(stderr, "error: %s holds a run of experiment '%s', not '%s'; choose another -out\n", s->out,
              exp, s->d->experiment);
    else
      report_other_options(s->out, exp, opts ? opts : "", s->fingerprint);
  }
  free(exp);
  free(opts);
  return clash ? 2 : 0;
}

/* The lock file of this run's ledger: ledger.lock, ledger.K-of-N.lock. Nonzero when the path is too long. */
static int lock_path(const struct sweep *s, char *path, size_t len)
{
  size_t n = strlen(s->ledger_path);
  return n < 4 || sweep_path(path, len, "%.*s.lock", (int)(n - 4), s->ledger_path);
}

/* Two runs appending to one ledger would both compute every task left (and write each row twice). Rank 0
 * holds an flock on the ledger's own lock file (ledger.lock, ledger.K-of-N.lock) for the whole run, so job
 * -array slices, which write different ledgers, still share a directory. The lock goes with the process
 * (kill -9 included): a stale lock file is harmless. Its text names the holder for the refusal. */
static int take_lock(struct sweep *s)
{
  char path[SWEEP_PATH_MAX + 16], holder[512] = "";
  if (lock_path(s, path, sizeof path)) return 2;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    fprintf(stderr, "error: cannot create the lock file %s: %s\n", path, strerror(errno));
    return 2;
  }
  if (flock(fd, LOCK_EX | LOCK_NB)) {
    int saved = errno;
    ssize_t got = saved == EWOULDBLOCK ? pread(fd, holder, sizeof holder - 1, 0) : -1;
    holder[got > 0 ? got : 0] = '\0';
    holder[strcspn(holder, "\n")] = '\0';
    if (saved == EWOULDBLOCK)
      fprintf(
          stderr,
          "error: %s is in use by another run (%s; lock %s): wait for it to end, or choose another -out\n",
          s->ledger_path, holder[0] ? holder : "holder unknown", path);
    else
      fprintf(stderr, "error: cannot lock %s: %s\n", path, strerror(saved));
    close(fd);
    return 2;
  }
  snprintf(holder, sizeof holder, "host %s, pid %d\n", s->host, (int)getpid());
  if (ftruncate(fd, 0) || pwrite(fd, holder, strlen(holder), 0) != (ssize_t)strlen(holder)) {
    fprintf(stderr, "error: cannot write the lock file %s: %s\n", path, strerror(errno));
    close(fd);
    return 2;
  }
  s->lock_fd = fd;
  return 0;
}

/* The run directory; *fresh says whether this run made it (then a refusal removes it again). A time-stamped
 * name is made with mkdir, which fails when it exists: runs started in the same second get -2, -3, ...
 * after the stamp (still in time order), each a folder of its own. 0, or 2 with a message. */
static int make_run_dir(struct sweep *s, int *fresh)
{
  char stamp[SWEEP_PATH_MAX], name[SWEEP_PATH_MAX + 16];
  *fresh = access(s->out, F_OK) != 0;
  if (!s->stamped) {
    if (!mkdir_p(s->out)) return 0;
  } else {
    snprintf(stamp, sizeof stamp, "%s", s->out);
    *strrchr(s->out, '/') = '\0'; /* results/<experiment> first */
    int made = mkdir_p(s->out) == 0;
    snprintf(s->out, sizeof s->out, "%s", stamp);
    for (int k = 1; made && k <= 1000; k++) {
      if (k == 1 ? sweep_path(name, sizeof name, "%s", stamp)
                 : sweep_path(name, sizeof name, "%s-%d", stamp, k))
        return 2;
      if (mkdir(name, 0777) == 0) {
        *fresh = 1;
        return sweep_set_out(s, name) ? 2 : 0;
      }
      if (errno != EEXIST) break;
    }
  }
  *fresh = 0;
  fprintf(stderr, "error: cannot create the run directory %s: %s\n", s->out, strerror(errno));
  return 2;
}

int sweep_setup_files(const struct sweep *s, char (*path)[SWEEP_PATH_MAX + 320], int max)
{
  char exp[SWEEP_PATH_MAX + 32], meta[SWEEP_PATH_MAX + 96];
  const size_t len = sizeof path[0];
  int n = 0;
  if (sweep_path(exp, sizeof exp, "%s/experiment.txt", s->out) ||
      (s->slice_tag[0] ? sweep_path(meta, sizeof meta, "%s/meta.%s.json", s->out, s->slice_tag)
                       : sweep_path(meta, sizeof meta, "%s/meta.json", s->out)))
    return 0;
  if (n < max && !lock_path(s, path[n], len)) n++;
  const char *fixed[3] = {exp, s->ledger_path, meta};
  for (int k = 0; k < 3; k++) { /* each file and the temporary file it is written through */
    if (n < max && !sweep_path(path[n], len, "%s", fixed[k])) n++;
    if (n < max && !(k == 2 ? sweep_path(path[n], len, "%s.tmp", meta)
                            : sweep_path(path[n], len, "%s.%s.%d.tmp", fixed[k], s->host, (int)getpid())))
      n++;
  }
  return n;
}

/* A run refused after it made its directory leaves nothing: what it wrote there, then the folder. */
static void discard_run_dir(const struct sweep *s)
{
  char path[8][SWEEP_PATH_MAX + 320];
  sweep_signals_folder(NULL, 0);
  for (int i = 0, n = sweep_setup_files(s, path, 8); i < n; i++)
    unlink(path[i]);
  rmdir(s->out);
}

int sweep_prepare_run_dir(struct sweep *s)
{
  char path[SWEEP_PATH_MAX + 64];
  char *header = sweep_header_line(s), *done = calloc((size_t)s->total + 1, 1);
  int rc = 2, fresh = 0;
  glob_t g = {0};
  if (!header || !done) goto cleanup;
  /* the observers' directories first: a trace or dump that cannot be written must stop the run before a
   * task, and before it has a folder */
  const char *obs_dir[2] = {s->trace_dir, s->dump_dir}, *obs_opt[2] = {"-trace", "-cp_dump_failed"};
  for (int k = 0; k < 2; k++)
    if (obs_dir[k][0] && mkdir_p(obs_dir[k])) {
      fprintf(stderr, "error: %s: cannot create the directory %s: %s\n", obs_opt[k], obs_dir[k],
              strerror(errno));
      goto cleanup;
    }
  if (sweep_check_run_dir(s)) goto cleanup; /* refuse a clash before touching */
  /* a signal between the folder's mkdir and the handler's knowing of it would leave the folder behind */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigprocmask(SIG_BLOCK, &block, &old);
  int made = make_run_dir(s, &fresh);
  if (!made) sweep_signals_folder(s, fresh);
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (made || take_lock(s)) goto cleanup;
  sweep_path(path, sizeof path, "%s/experiment.txt", s->out);
  if (access(s->ledger_path, F_OK) == 0 && !s->resume && !s->rerun_failed) {
    fprintf(stderr,
            "error: %s already exists: continue that run with -resume (or -rerun_failed), or choose another "
            "-out\n",
            s->ledger_path);
    goto cleanup;
  }
  if (write_experiment(s, path)) {
    fprintf(stderr, "error: cannot write %s\n", path);
    goto cleanup;
  }
  if (s->resume || s->rerun_failed) { /* every ledger of the directory: slices may have done some tasks */
    sweep_path(path, sizeof path, "%s/ledger*.csv", s->out);
    if (glob(path, 0, NULL, &g) == 0)
      for (size_t i = 0; i < g.gl_pathc; i++)
        if (read_ledger(s, g.gl_pathv[i], header, done, strcmp(g.gl_pathv[i], s->ledger_path) == 0))
          goto cleanup;
  }
  if (access(s->ledger_path, F_OK) != 0 && create_ledger(s, header)) {
    fprintf(stderr, "error: cannot create the ledger %s: %s\n", s->ledger_path, strerror(errno));
    goto cleanup;
  }
  s->ledger = fopen(s->ledger_path, "a");
  if (!s->ledger) {
    fprintf(stderr, "error: cannot open the ledger %s: %s\n", s->ledger_path, strerror(errno));
    goto cleanup;
  }
  if (sweep_build_todo(s, done)) goto cleanup;
  rc = 0;
cleanup:
  if (rc && fresh) discard_run_dir(s);
  globfree(&g);
  free(header);
  free(done);
  return rc;
}

/* One write of the whole line to the O_APPEND descriptor, past stdio: a failed write (a full disk) must
 * not stay in a buffer that a later flush or fclose would add to the ledger after the run has stopped. A
 * part of a line that did reach the disk is a torn last line, which -resume cuts off. */
int sweep_ledger_append(struct sweep *s, const char *line, char *why, size_t why_len)
{
  size_t n = strlen(line);
  char *buf = malloc(n + 2);
  int rc = 1;
  if (!buf) goto cleanup;
  snprintf(buf, n + 2, "%s\n", line);
  for (size_t off = 0; off <= n;) {
    ssize_t w = write(fileno(s->ledger), buf + off, n + 1 - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = ENOSPC;
      goto cleanup;
    }
    off += (size_t)w;
  }
  rc = 0;
cleanup:
  if (rc) snprintf(why, why_len, "writing the ledger %s failed: %s", s->ledger_path, strerror(errno));
  free(buf);
  return rc;
}

void sweep_progress(struct sweep *s, int final)
{
  static double last;
  double now = MPI_Wtime();
  if (s->quiet || (!final && (now - last < 2.0 || s->n_done == s->n_todo))) return;
  last = now;
  double el = now - s->t_start, rate = el > 0.0 ? s->n_done / el : 0.0;
  long left = s->n_todo - s->n_done;
  fprintf(stderr, "[%s] %ld/%ld done, %ld failed, %.2f tasks/s", s->d->experiment, s->n_done, s->n_todo,
          s->n_failed, rate);
  if (!final && rate > 0.0 && left > 0) fprintf(stderr, ", ETA %.0f s", left / rate);
  if (final) fprintf(stderr, ", wall %.2f s", el);
  fputc('\n', stderr);
}
