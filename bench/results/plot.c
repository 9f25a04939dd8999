/* plot.c — sweep_plot: gnuplot plots of a run directory into RUN_DIR/plots/ (PNG and SVG, with the .gp
 * scripts and .dat files that make them): for each accuracy metric and each cost, the median against
 * plot_x per series with the interquartile range as a band (aggregated over every other axis, successful
 * tasks only); the success rate per x and series as clustered bars; the performance profile of each cost
 * (plot_profile.c) when the run is a solver benchmark (a "problem" axis and "solver" among the series).
 * Log y only when the values span more than SPAN_LOG decades-worth of ratio; values <= 0 cannot sit on a
 * log axis, so a band's lower edge is clamped to the bottom and a median <= 0 is left out and counted in
 * the plot's subtitle. Then gnuplot runs once per script (fork/exec, in plots/, output in gnuplot.log). */
#include "plot_impl.h"
#include "results.h"
#include "run_files.h"

#include <errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPAN_LOG 30.0 /* max/min of the positive values above which y is logarithmic */

/* The x values of a run: distinct plot_x values, in ascending order when all are numbers. */
struct plot_x {
  struct rundir_groups *g;
  int numeric;
  int *order; /* order[i]: the x group drawn at position i */
  int *pos;   /* pos[group] = i */
  double *value;
};

static const struct table *sort_table;
static int sort_col;
static int x_cmp(const void *a, const void *b)
{
  int ra = *(const int *)a, rb = *(const int *)b;
  double va = table_number(sort_table, ra, sort_col), vb = table_number(sort_table, rb, sort_col);
  return (va > vb) - (va < vb);
}

static void plot_x_free(struct plot_x *x)
{
  rundir_groups_destroy(&x->g);
  free(x->order);
  free(x->pos);
  free(x->value);
}

static int plot_x_make(const struct rundir *r, struct plot_x *x)
{
  memset(x, 0, sizeof *x);
  char *key = r->plot_x;
  if (rundir_group(r, r->plot_x[0] ? 1 : 0, &key, &x->g)) return 1;
  int n = x->g->n;
  x->order = calloc((size_t)n + 1, sizeof *x->order);
  x->pos = calloc((size_t)n + 1, sizeof *x->pos);
  x->value = calloc((size_t)n + 1, sizeof *x->value);
  if (!x->order || !x->pos || !x->value) return 1;
  x->numeric = r->plot_x[0] != 0;
  for (int i = 0; i < n; i++) {
    x->order[i] = x->g->first[i]; /* rows, sorted below, then mapped back to groups */
    if (x->numeric) x->numeric = isfinite(table_number(r->tasks, x->g->first[i], x->g->key_col[0]));
  }
  if (x->numeric) {
    sort_table = r->tasks, sort_col = x->g->key_col[0];
    qsort(x->order, (size_t)n, sizeof *x->order, x_cmp);
  }
  for (int i = 0; i < n; i++) {
    x->order[i] = x->g->of_row[x->order[i]];
    x->pos[x->order[i]] = i;
    x->value[i] = x->numeric ? table_number(r->tasks, x->g->first[x->order[i]], x->g->key_col[0]) : i;
  }
  return 0;
}

/* Text of the x value at position i (as tasks.csv has it). */
static const char *x_text(const struct rundir *r, const struct plot_x *x, int i)
{
  return x->g->n_keys ? table_get(r->tasks, x->g->first[x->order[i]], x->g->key_col[0]) : "all";
}

/* Axis settings for x: log when experiment.txt says so (and every x is positive), categories when the
 * values are not numbers. */
static void write_x_axis(FILE *fp, const struct rundir *r, const struct plot_x *x)
{
  char lab[256], q[512];
  if (r->plot_x[0])
    rundir_label(r, r->plot_x, lab, sizeof lab);
  else
    snprintf(lab, sizeof lab, "all tasks");
  plot_quote(lab, q, sizeof q);
  fprintf(fp, "set xlabel \"%s\"\n", q);
  int n = x->g->n, log_x = r->log_x && x->numeric && x->value[0] > 0.0;
  if (!x->numeric) {
    fprintf(fp, "set xrange [-0.5:%d.5]\nset xtics (", n - 1);
    for (int i = 0; i < n; i++) {
      plot_quote(x_text(r, x, i), q, sizeof q);
      fprintf(fp, "%s\"%s\" %d", i ? ", " : "", q, i);
    }
    fprintf(fp, ")\n");
  } else if (log_x) {
    /* a little room either side so the end points and their bands are not on the frame */
    fprintf(fp, "set logscale x\nset format x '%%g'\nset xrange [%.17g:%.17g]\n", x->value[0] / 1.25,
            x->value[n - 1] * 1.25);
    if (x->value[n - 1] / x->value[0] < 100.0) { /* few decades: label the values themselves */
      fprintf(fp, "set xtics (");
      for (int i = 0; i < n; i++)
        fprintf(fp, "%s%.17g", i ? ", " : "", x->value[i]);
      fprintf(fp, ")\n");
    }
  } else {
    double span = n > 1 ? x->value[n - 1] - x->value[0] : fabs(x->value[0]) + 1.0;
    fprintf(fp, "set xrange [%.17g:%.17g]\n", x->value[0] - 0.05 * span, x->value[n - 1] + 0.05 * span);
  }
}

/* What the plots aggregate over: the axes that are neither the x nor a series axis. */
static void aggregated_over(const struct rundir *r, char *buf, size_t n)
{
  size_t at = 0;
  buf[0] = '\0';
  for (int k = 0; k < r->axes.n && at < n; k++) {
    const char *a = r->axes.name[k];
    if (strcmp(a, r->plot_x) == 0 || rundir_list_find(&r->series, a) >= 0) continue;
    at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? ", " : "", a);
  }
}

/* Median, quartiles and count of one column per (series, x) cell; q[3 * (s * nx + i) + 0..2]. */
static int cell_stats(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x, int col,
                      double *q, int *count)
{
  int ns = ps->g->n, nx = x->g->n;
  double *v = calloc((size_t)r->tasks->nrow + 1, sizeof *v);
  int *fill = calloc((size_t)ns * nx + 1, sizeof *fill);
  if (!v || !fill) {
    free(v);
    free(fill);
    return 1;
  }
  /* rows of each cell, in table order: a counting pass then a fill pass into v-sized index space */
  int *start = calloc((size_t)ns * nx + 2, sizeof *start),
      *rows = calloc((size_t)r->tasks->nrow + 1, sizeof *rows);
  if (!start || !rows) {
    free(v), free(fill), free(start), free(rows);
    return 1;
  }
  for (int i = 0; i < r->tasks->nrow; i++)
    start[ps->g->of_row[i] * nx + x->pos[x->g->of_row[i]] + 1]++;
  for (int c = 0; c < ns * nx; c++)
    start[c + 1] += start[c];
  for (int i = 0; i < r->tasks->nrow; i++) {
    int c = ps->g->of_row[i] * nx + x->pos[x->g->of_row[i]];
    rows[start[c] + fill[c]++] = i;
  }
  for (int c = 0; c < ns * nx; c++) {
    int n = 0;
    for (int k = start[c]; k < start[c + 1]; k++) {
      double val = table_number(r->tasks, rows[k], col);
      if (rundir_outcome(r, rows[k]) == 1 && isfinite(val)) v[n++] = val;
    }
    count[c] = n;
    q[3 * c] = q[3 * c + 1] = q[3 * c + 2] = NAN;
    if (n == 0) continue;
    gsl_sort(v, 1, (size_t)n);
    q[3 * c] = gsl_stats_median_from_sorted_data(v, 1, (size_t)n);
    q[3 * c + 1] = gsl_stats_quantile_from_sorted_data(v, 1, (size_t)n, 0.25);
    q[3 * c + 2] = gsl_stats_quantile_from_sorted_data(v, 1, (size_t)n, 0.75);
  }
  free(v), free(fill), free(start), free(rows);
  return 0;
}

/* One "median and IQR band vs x" plot of column col: NAME.dat, NAME.gp. 0 written, 1 nothing to plot
 * (no successful value anywhere), 2 write error. */
static int plot_stat(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
                     const char *dir, const char *kind, const char *col_name)
{
  int ns = ps->g->n, nx = x->g->n, col = table_column(r->tasks, col_name), rc = 2;
  double *q = calloc((size_t)3 * ns * nx + 1, sizeof *q);
  int *count = calloc((size_t)ns * nx + 1, sizeof *count);
  char name[256], file[300], lab[256], qt[512], over[512];
  FILE *dat = NULL, *gp = NULL;
  if (!q || !count || cell_stats(r, ps, x, col, q, count)) goto cleanup;
  double lo = INFINITY, hi = 0.0;
  int any = 0, nonpos = 0;
  for (int c = 0; c < ns * nx; c++) {
    if (!count[c]) continue;
    any = 1;
    for (int j = 0; j < 3; j++)
      if (q[3 * c + j] > 0.0) lo = fmin(lo, q[3 * c + j]), hi = fmax(hi, q[3 * c + j]);
  }
  rc = 1;
  if (!any) goto cleanup;
  int log_y = hi > 0.0 && hi / lo > SPAN_LOG;
  rc = 2;
  snprintf(name, sizeof name, "%s_%s", kind, col_name);
  snprintf(file, sizeof file, "%s.dat", name);
  if (!(dat = plot_data_open(dir, file))) goto cleanup;
  fprintf(dat, "# %s: median, q1, q3 and count of %s over the successful tasks, per %s and %s\n", r->title,
          col_name, r->plot_x[0] ? r->plot_x : "run", ps->title);
  int *block = calloc((size_t)ns + 1, sizeof *block), nb = 0; /* gnuplot index of each series, -1 empty */
  if (!block) goto cleanup;
  for (int s = 0; s < ns; s++) {
    block[s] = -1;
    for (int i = 0; i < nx; i++) {
      int c = s * nx + i;
      if (!count[c]) continue;
      double med = q[3 * c], q1 = q[3 * c + 1], q3 = q[3 * c + 2];
      if (log_y && !(med > 0.0)) {
        nonpos++;
        continue;
      }
      if (block[s] < 0) fprintf(dat, "%s# %s\n", nb ? "\n\n" : "", ps->label[s]), block[s] = nb++;
      if (log_y) q1 = q1 > 0.0 ? q1 : lo / 2.0, q3 = q3 > 0.0 ? q3 : lo / 2.0; /* clamp to the bottom */
      /* categories: the series side by side within a category (numbers stay where they are) */
      double xv = x->numeric ? x->value[i] : x->value[i] + (s - 0.5 * (ns - 1)) * fmin(0.15, 0.6 / ns);
      fprintf(dat, "%.17g %.17g %.17g %.17g %d\n", xv, med, q1, q3, count[c]);
    }
  }
  int bad = ferror(dat) != 0;
  bad |= fclose(dat) != 0;
  dat = NULL;
  aggregated_over(r, over, sizeof over);
  char what[1024];
  snprintf(what, sizeof what, "%s vs %s: median (line) and interquartile range (band) per %s", col_name,
           r->plot_x[0] ? r->plot_x : "run", ps->title);
  if (bad || !(gp = plot_script_open(dir, name, what))) {
    free(block);
    goto cleanup;
  }
  plot_quote(r->title, qt, sizeof qt);
  fprintf(gp,
          "set title \"%s\\nmedian (%s) and interquartile range (%s) over the successful tasks%s%s%s%s\"\n",
          qt, x->numeric ? "line" : "point", x->numeric ? "band" : "bar", over[0] || nonpos ? "\\n" : "",
          over[0] ? "aggregated over " : "", over,
          nonpos ? (over[0] ? "; medians <= 0 not drawn on the log scale"
                            : "medians <= 0 not drawn on the log scale")
                 : "");
  write_x_axis(gp, r, x);
  rundir_label(r, col_name, lab, sizeof lab);
  plot_quote(lab, qt, sizeof qt);
  fprintf(gp, "set ylabel \"%s%s\"\n", qt,
          rundir_list_find(&r->higher_better, col_name) >= 0 ? " (higher is better)" : "");
  if (log_y &&
      hi / lo < 1e3) { /* under three decades: tics at 1, 2, 5 x 10^k, or there are only one or two */
    fprintf(gp, "set logscale y\nset format y '%%g'\nset ytics (");
    for (int k = (int)floor(log10(lo / 2.0)), first_tic = 1; k <= (int)ceil(log10(hi)); k++)
      for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
        fprintf(gp, "%s%.0e", first_tic ? "" : ", ", m * pow(10.0, k)), first_tic = 0;
    fprintf(gp, ")\n");
  } else if (log_y)
    fprintf(gp, "set logscale y\nset format y '%%.0e'\n");
  /* autoscale to the data (not to the next tic), then a margin so that no point sits on the frame */
  fprintf(gp, "set autoscale yfix\nset offsets 0, 0, graph 0.06, graph 0.06\n");
  plot_script_png(gp, name);
  fprintf(gp, "plot");
  int first = 1;
  for (int s = 0; s < ns; s++) {
    if (block[s] < 0) continue;
    plot_quote(ps->label[s], qt, sizeof qt);
    /* the band needs two x values; a single point gets error bars instead */
    int npts = 0;
    for (int i = 0; i < nx; i++)
      npts += count[s * nx + i] > 0;
    /* a light band with dashed edges in the series colour: overlapping bands stay tellable apart */
    if (npts > 1 && x->numeric)
      fprintf(gp,
              "%s \\\n  '%s' index %d using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb "
              "'%s' "
              "notitle, \\\n  '%s' index %d using 1:3 with lines lw 0.8 dt 2 lc rgb '%s' notitle, \\\n"
              "  '%s' index %d using 1:4 with lines lw 0.8 dt 2 lc rgb '%s' notitle",
              first ? "" : ",", file, block[s], plot_color(s), file, block[s], plot_color(s), file, block[s],
              plot_color(s));
    else
      fprintf(gp, "%s \\\n  '%s' index %d using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '%s' notitle",
              first ? "" : ",", file, block[s], plot_color(s));
    /* categories are not a continuum: points only, no line between them */
    fprintf(gp, ", \\\n  '%s' index %d using 1:2 with %s lw %.2g pt %d ps 1.3 dt %d lc rgb '%s' title \"%s\"",
            file, block[s], x->numeric ? "linespoints" : "points", plot_width(s, ns), plot_point(s),
            plot_dash(s), plot_color(s), qt);
    first = 0;
  }
  fprintf(gp, "\n");
  rc = plot_script_close(gp, name) ? 2 : 0;
  free(block);
cleanup:
  if (dat) fclose(dat);
  free(q);
  free(count);
  return rc;
}

/* The success rate per x and series as clustered bars, labelled with their percentage (a 0% bar is
 * otherwise invisible). */
static int plot_success(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
                        const char *dir)
{
  int ns = ps->g->n, nx = x->g->n, rc = 2;
  int *app = calloc((size_t)ns * nx + 1, sizeof *app), *suc = calloc((size_t)ns * nx + 1, sizeof *suc);
  char qt[512], over[512];
  FILE *dat = NULL, *gp = NULL;
  if (!app || !suc) goto cleanup;
  for (int i = 0; i < r->tasks->nrow; i++) {
    int c = ps->g->of_row[i] * nx + x->pos[x->g->of_row[i]], o = rundir_outcome(r, i);
    app[c] += o >= 0;
    suc[c] += o == 1;
  }
  if (!(dat = plot_data_open(dir, "success_rate.dat"))) goto cleanup;
  fprintf(dat,
          "# %s: success rate [%%] (successes / applicable tasks) per %s; columns: x, then per %s the "
          "rate (NaN: no applicable task), successes, applicable tasks\n",
          r->title, r->plot_x[0] ? r->plot_x : "run", ps->title);
  for (int i = 0; i < nx; i++) {
    fprintf(dat, "\"%s\"", x_text(r, x, i));
    for (int s = 0; s < ns; s++) {
      int c = s * nx + i;
      if (app[c])
        fprintf(dat, " %.17g %d %d", 100.0 * suc[c] / app[c], suc[c], app[c]);
      else
        fprintf(dat, " NaN 0 0");
    }
    fprintf(dat, "\n");
  }
  int bad = ferror(dat) != 0;
  bad |= fclose(dat) != 0;
  dat = NULL;
  aggregated_over(r, over, sizeof over);
  if (bad || !(gp = plot_script_open(dir, "success_rate", "success rate per x value and series (bars)")))
    goto cleanup;
  plot_quote(r->title, qt, sizeof qt);
  fprintf(gp, "set title \"%s\\nsuccesses / applicable tasks (not_applicable left out)%s%s\"\n", qt,
          over[0] ? "\\naggregated over " : "", over);
  char lab[256];
  if (r->plot_x[0])
    rundir_label(r, r->plot_x, lab, sizeof lab);
  else
    snprintf(lab, sizeof lab, "all tasks");
  plot_quote(lab, qt, sizeof qt);
  fprintf(gp,
          "set xlabel \"%s\"\nset ylabel 'success rate [%%]'\nset yrange [0:115]\nset ytics 0,20,100\n"
          "set style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid 0.85 border -1\nset boxwidth 0.9 relative\nset xrange [-0.5:%d.5]\n",
          qt, nx - 1);
  plot_script_png(gp, "success_rate");
  fprintf(gp, "plot");
  for (int s = 0; s < ns; s++) {
    plot_quote(ps->label[s], qt, sizeof qt);
    fprintf(gp, "%s \\\n  'success_rate.dat' using %d%s lc rgb '%s' title \"%s\"", s ? "," : "", 2 + 3 * s,
            s ? "" : ":xtic(1)", plot_color(s), qt);
  }
  if (ns * nx <=
      48) /* successes/applicable over each bar: bar k of cluster i is at i + (k - (ns-1)/2) / (ns+1) */
    for (int s = 0; s < ns; s++)
      fprintf(gp,
              ", \\\n  'success_rate.dat' using ($0 + (%d - %d / 2.0) / %d.0):(column(%d) + 3):"
              "(sprintf('%%d/%%d', column(%d), column(%d))) with labels font ',8' notitle",
              s, ns - 1, ns + 1, 2 + 3 * s, 3 + 3 * s, 4 + 3 * s);
  fprintf(gp, "\n");
  rc = plot_script_close(gp, "success_rate") ? 2 : 0;
cleanup:
  if (dat) fclose(dat);
  free(app);
  free(suc);
  return rc;
}

/* Runs gnuplot on dir/script in dir, its output appended to dir/gnuplot.log. 0 success, 127 gnuplot is
 * missing, other nonzero on failure. */
static int run_gnuplot(const char *dir, const char *script)
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

int sweep_plot(const char *run_dir)
{
  struct rundir *r = NULL;
  struct plot_series ps = {0};
  struct plot_x x = {0};
  char dir[SWEEP_PATH_MAX + 16], path[SWEEP_PATH_MAX + 64];
  char *made[256];
  int n_made = 0, rc = 2;
  if (rundir_read(run_dir, &r)) goto cleanup;
  rc = 1;
  if (sweep_path(dir, sizeof dir, "%s/plots", run_dir)) goto cleanup;
  if (mkdir(dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "error: cannot create %s: %s\n", dir, strerror(errno));
    goto cleanup;
  }
  if (plot_series_make(r, &ps) || plot_x_make(r, &x)) goto cleanup;
  /* each plot: its name, made only when it has something to show */
  for (int pass = 0; pass < 2; pass++) {
    const struct rundir_list *cols = pass ? &r->costs : &r->metrics;
    for (int k = 0; k < cols->n && n_made < 250; k++) {
      int st = plot_stat(r, &ps, &x, dir, pass ? "cost" : "accuracy", cols->name[k]);
      if (st == 2) goto cleanup;
      if (st == 0 && (made[n_made] = malloc(strlen(cols->name[k]) + 16)))
        sprintf(made[n_made++], "%s_%s", pass ? "cost" : "accuracy", cols->name[k]);
    }
  }
  if (plot_success(r, &ps, &x, dir)) goto cleanup;
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
  rc = 0;
  for (int i = 0; i < n_made; i++) {
    char script[300];
    snprintf(script, sizeof script, "%s.gp", made[i]);
    int st = run_gnuplot(dir, script);
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
  plot_x_free(&x);
  plot_series_free(&ps);
  rundir_destroy(&r);
  return rc;
}
