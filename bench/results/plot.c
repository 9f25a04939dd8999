/* plot.c — sweep_plot and plot_runs: gnuplot plots of a run directory into RUN_DIR/plots/ (PNG and SVG,
 * with the .gp scripts and .dat files that make them): for each accuracy metric and each cost, the median
 * against plot_x per series with the interquartile range as a band (aggregated over every other axis,
 * successful tasks only); the success rate per x and series as clustered bars, or as a heat map when
 * there are too many bars to read; the performance profile of each cost (plot_profile.c) when the run is
 * a solver benchmark (a "problem" axis and "solver" among the series). Axis labels are the help texts of
 * experiment.txt's "labels". Log y only when the values span more than SPAN_LOG; what a log axis cannot
 * show (<= 0, rounding noise) is clamped to a floor and marked, failed cells are marked on the bottom,
 * more than FACET_MIN series are split into panels. plot_runs also takes bench_plot's view options and
 * overlays runs. Then gnuplot runs once per script (fork/exec, in plots/, output in gnuplot.log). */
#include "cellstats.h"
#include "plot_impl.h"
#include "results.h"
#include "run_files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int plot_gnuplot(const char *dir, const char *script)
{
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    FILE *log = chdir(dir) == 0 ? freopen("gnuplot.log", "a", stderr) : NULL;
    if (log) dup2(fileno(stderr), STDOUT_FILENO);
    execlp("gnuplot", "gnuplot", script, (char *)NULL);
    _exit(127);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return 1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* Overlay: each series' counterpart in the baseline run (plot_impl.h, base_of): the series whose "run"
 * value is the baseline's and whose other series values are the same. */
static int overlay_bases(const struct rundir *r, const struct plot_series *ps, struct plot_facets *f)
{
  const struct rundir_groups *g = ps->g;
  if (!(f->base_of = calloc((size_t)g->n + 1, sizeof *f->base_of))) return 1;
  for (int s = 0; s < g->n; s++) {
    f->base_of[s] = -1;
    for (int b = 0; b < g->n && f->base_of[s] < 0 && g->n_keys > 0; b++) {
      const char *run = table_get(r->tasks, g->first[b], g->key_col[0]);
      if (strncmp(run, PLOT_BASELINE_TAG, strlen(PLOT_BASELINE_TAG)) == 0 &&
          rundir_same_keys(r->tasks, g->first[s], g->key_col + 1, r->tasks, g->first[b], g->key_col + 1,
                           g->n_keys - 1))
        f->base_of[s] = b;
    }
  }
  return 0;
}

/* The runs of an overlay must be one experiment, unless asked (-force): 0, or 2 with a message. */
static int overlay_same_experiment(const struct rundir *r, struct rundir *const *other, int n_other,
                                   const struct plot_options *o)
{
  for (int k = 0; k < n_other && !o->force; k++)
    if (strcmp(other[k]->experiment, r->experiment) != 0) {
      fprintf(stderr,
              "error: -overlay: %s is experiment '%s' but %s is '%s' (bench_compare refuses the pair "
              "too); -force overlays them anyway\n",
              r->dir, r->experiment, other[k]->dir, other[k]->experiment);
      return 2;
    }
  return 0;
}

int plot_runs(int n_dirs, const char *const *dirs, const struct plot_options *o)
{
  struct rundir *r = NULL, *other[16] = {NULL};
  struct plot_series ps = {0};
  struct plot_x x = {0};
  struct plot_facets f = {0};
  struct cellstats cells = {0};
  char dir[SWEEP_PATH_MAX + 16], path[SWEEP_PATH_MAX + 64];
  char *made[256];
  int n_made = 0, rc = 2, n_other = n_dirs - 1;
  if (n_dirs < 1 || n_other > 16) goto cleanup;
  /* the plots of a run as it is read the columns with a role only; a view may name any column */
  int view = n_other || (o->x && o->x[0]) || (o->series && o->series[0]) || (o->facet && o->facet[0]) ||
             (o->where && o->where[0]);
  int skeleton = 0; /* the run as it is: read as a stream, the tasks never held (plot_read.c) */
  if ((view ? rundir_read(dirs[0], &r) : plot_read_run(dirs[0], &r, &skeleton))) goto cleanup;
  for (int k = 0; k < n_other; k++)
    if (rundir_read(dirs[k + 1], &other[k])) goto cleanup;
  if (n_other && (overlay_same_experiment(r, other, n_other, o) || plot_overlay_runs(r, other, n_other)))
    goto cleanup;
  if (plot_apply_options(r, o) || plot_leave_out_idle(r, o->facet)) goto cleanup;
  if (o->out && o->out[0]) {
    if (sweep_path(dir, sizeof dir, "%s", o->out)) goto cleanup;
  } else if (sweep_path(dir, sizeof dir, "%s/plots", dirs[0]))
    goto cleanup;
  if (mkdir(dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "error: cannot create %s: %s\n", dir, strerror(errno));
    goto cleanup;
  }
  if (plot_series_make(r, &ps) || plot_x_make(r, &x) ||
      plot_cells_make(r, &ps, &x, skeleton ? dirs[0] : NULL, &cells))
    goto cleanup;
  /* an overlay with many series: one panel per value of the first series axis of the runs, baseline and
   * variants side by side in it, never one panel per run; more series along a numeric x than keep their
   * bands (BAND_MAX) and two series axes: a panel per value of the first */
  const char *facet = o->facet && o->facet[0]                                          ? o->facet
                      : n_other && ps.g->n > FACET_MIN && r->series.n > 1              ? r->series.name[1]
                      : !n_other && x.numeric && ps.g->n > BAND_MAX && r->series.n > 1 ? r->series.name[0]
                                                                                       : NULL;
  if (plot_facets_make(r, &ps, facet, &f)) goto cleanup;
  if (facet && facet != o->facet && (f.n < 2 || f.n >= ps.g->n)) { /* a split that groups nothing */
    plot_facets_free(&f);
    if (plot_facets_make(r, &ps, NULL, &f)) goto cleanup;
  }
  if (n_other && overlay_bases(r, &ps, &f)) goto cleanup;
  /* each plot: its name, made only when it has something to show */
  for (int pass = 0; pass < 2; pass++) {
    const struct rundir_list *cols = pass ? &r->costs : &r->metrics;
    for (int k = 0; k < cols->n && n_made < 250; k++) {
      int st = plot_stat(r, &ps, &x, &f, &cells, pass ? r->metrics.n + k : k, dir, pass ? "cost" : "accuracy",
                         cols->name[k]);
      if (st == 2) goto cleanup;
      if (st == 0 && (made[n_made] = malloc(strlen(cols->name[k]) + 16)))
        sprintf(made[n_made++], "%s_%s", pass ? "cost" : "accuracy", cols->name[k]);
    }
  }
  if (plot_success(r, &ps, &x, &cells, dir)) goto cleanup;
  if ((made[n_made] = strdup("success_rate"))) n_made++;
  if (rundir_list_find(&r->axes, "problem") >= 0 && rundir_list_find(&r->series, "solver") >= 0)
    for (int k = 0; k < r->costs.n && n_made < 250; k++) {
      int st = plot_profile(r, &ps, dir, r->costs.name[k]);
      if (st == 2) goto cleanup;
      if (st == 0 && (made[n_made] = malloc(strlen(r->costs.name[k]) + 16)))
        sprintf(made[n_made++], "profile_%s", r->costs.name[k]);
    }
  if (sweep_path(path, sizeof path, "%s/gnuplot.log", dir)) goto cleanup;
  remove(path);
  rc = 0; /* every script and its data are written: what fails from here on is gnuplot's drawing */
  for (int i = 0; i < n_made; i++) {
    char script[300];
    snprintf(script, sizeof script, "%s.gp", made[i]);
    int st = plot_gnuplot(dir, script);
    if (st == 127) {
      fprintf(stderr,
              "error: gnuplot is not installed (Debian: gnuplot-nox); the plot scripts are in %s "
              "(cd there and run gnuplot NAME.gp)\n",
              dir);
      rc = 1;
      break;
    }
    if (st) {
      fprintf(stderr, "error: gnuplot failed on %s/%s (see %s)\n", dir, script, path);
      rc = 1;
    }
  }
cleanup:
  for (int i = 0; i < n_made; i++)
    free(made[i]);
  cellstats_free(&cells);
  plot_facets_free(&f);
  plot_x_free(&x);
  plot_series_free(&ps);
  rundir_destroy(&r);
  for (int k = 0; k < 16; k++)
    rundir_destroy(&other[k]);
  return rc;
}

int sweep_plot(const char *run_dir)
{
  struct plot_options o = {0};
  return plot_runs(1, &run_dir, &o);
}
