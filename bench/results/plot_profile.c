/* plot_profile.c — the Dolan-More performance profile (Dolan & More, Math. Program. 91 (2002), eqs. 1-2)
 * of one cost column: an instance is one combination of every axis that is not a series axis (problem,
 * formulation, h, seed, ...); its cost for series s is t[p][s] over a successful task, infinity for any
 * other outcome (failure or not_applicable: the series did not solve it). With r = t / min_s t, the
 * profile rho_s(tau) = |{p : r[p][s] <= tau}| / n_p is drawn as a step function on a log2 axis. Instances
 * no series solved stay in n_p (no curve reaches 1 then). Costs <= 0 (a timer's resolution, zero
 * iterations) are raised to the smallest positive cost of the column so the ratios stay finite. More than
 * FACET_MIN series are split into panels as the other plots are (plot_facets.c): the ratios stay those to
 * the best of all series, and each panel draws the other panels' curves in grey behind its own. */
#include "plot_impl.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One profile: the instances, the ratios, and the data file's name. */
struct profile {
  const struct rundir *r;
  const struct plot_series *ps;
  const char *cost;
  int ns, np;        /* series, instances */
  double *t;         /* t[p * ns + s]: the cost of instance p for series s, then its ratio to the best */
  double *solved;    /* per series: the percentage of instances it solved */
  double floor_cost; /* the smallest positive successful cost: what costs <= 0 are raised to */
  int floored, unsolved;
  double tau_max; /* the right end of the x axis */
  char keys_text[512], name[256], file[300];
};

/* The axes that are not series axes (an instance is one combination of their values) into keys, and
 * "a x b x ..." into pr->keys_text. Their number. */
static int profile_instance_keys(struct profile *pr, char **keys)
{
  const struct rundir *r = pr->r;
  int n = 0;
  size_t at = 0, size = sizeof pr->keys_text;
  for (int k = 0; k < r->axes.n; k++)
    if (rundir_list_find(&r->series, r->axes.name[k]) < 0) {
      keys[n++] = r->axes.name[k];
      at += (size_t)snprintf(pr->keys_text + at, size - at, "%s%s", at ? " x " : "", r->axes.name[k]);
      if (at >= size) at = size - 1;
    }
  return n;
}

/* The cost of every (instance, series) over a successful task into pr->t, infinity where there is none;
 * costs <= 0 raised to the smallest positive cost of the column. 0 when no cost was set. */
static int profile_costs(struct profile *pr, const struct rundir_groups *inst, int col)
{
  const struct rundir *r = pr->r;
  int ns = pr->ns, any = 0;
  pr->floor_cost = INFINITY;
  for (int i = 0; i < r->tasks->nrow; i++) {
    double v = table_number(r->tasks, i, col);
    if (rundir_outcome(r, i) == 1 && v > 0.0 && isfinite(v)) pr->floor_cost = fmin(pr->floor_cost, v);
  }
  for (size_t k = 0; k < (size_t)pr->np * ns; k++)
    pr->t[k] = INFINITY;
  for (int i = 0; i < r->tasks->nrow; i++) {
    double v = table_number(r->tasks, i, col);
    if (rundir_outcome(r, i) != 1 || !isfinite(v)) continue;
    if (!(v > 0.0)) {
      if (!isfinite(pr->floor_cost)) continue; /* every successful cost is zero: no ratios to speak of */
      v = pr->floor_cost, pr->floored++;
    }
    pr->t[(size_t)inst->of_row[i] * ns + pr->ps->g->of_row[i]] = v;
    any = 1;
  }
  return any;
}

/* Each instance's costs become ratios to its best (infinity where none solved it); the instances no series
 * solved counted, and the x axis's end: past the largest finite ratio, at least 2. */
static void profile_ratios(struct profile *pr)
{
  int ns = pr->ns;
  pr->tau_max = 2.0;
  for (int p = 0; p < pr->np; p++) {
    double best = INFINITY;
    for (int s = 0; s < ns; s++)
      best = fmin(best, pr->t[(size_t)p * ns + s]);
    pr->unsolved += !isfinite(best);
    for (int s = 0; s < ns; s++) {
      double *c = &pr->t[(size_t)p * ns + s]; /* the cost becomes the ratio */
      *c = isfinite(best) && isfinite(*c) ? *c / best : INFINITY;
      if (isfinite(*c)) pr->tau_max = fmax(pr->tau_max, 1.5 * *c);
    }
  }
}

/* profile_COST.dat: a block per series, the step function's corners (tau, fraction of instances within
 * tau of the best); each series' solved percentage into pr->solved. ratio: np doubles of scratch. 0, or 1
 * on a write error. */
static int profile_write_data(struct profile *pr, const char *plots_dir, double *ratio)
{
  int ns = pr->ns, np = pr->np;
  FILE *dat = plot_data_open(plots_dir, pr->file);
  if (!dat) return 1;
  fprintf(dat,
          "# performance profile of %s: tau, fraction of the %d instances with cost <= tau x the best, "
          "one block per %s\n",
          pr->cost, np, pr->ps->title);
  for (int s = 0; s < ns; s++) {
    int n = 0;
    for (int p = 0; p < np; p++)
      if (isfinite(pr->t[(size_t)p * ns + s])) ratio[n++] = pr->t[(size_t)p * ns + s];
    gsl_sort(ratio, 1, (size_t)n);
    fprintf(dat, "%s# %s\n", s ? "\n\n" : "", pr->ps->label[s]);
    int k = 0;
    while (k < n && ratio[k] <= 1.0)
      k++;
    fprintf(dat, "1 %.17g\n", (double)k / np);
    while (k < n) {
      double tau = ratio[k];
      while (k < n && ratio[k] <= tau)
        k++;
      fprintf(dat, "%.17g %.17g\n", tau, (double)k / np);
    }
    fprintf(dat, "%.17g %.17g\n", pr->tau_max, (double)n / np);
    pr->solved[s] = 100.0 * n / np;
  }
  return plot_file_close(dat, plots_dir, pr->file);
}

/* The title: the run's, what the profile is over, the unsolved and raised costs, the grey curves of
 * panels, and the cost's definition (the whole help text; the axis only says what tau is). */
static void profile_title(const struct profile *pr, int n_panels, char *head, size_t size)
{
  char qt[512], lab[256], xnote[600], xnote_q[1300];
  plot_quote(pr->r->title, qt, sizeof qt);
  int hat = snprintf(head, size, "%s\\nperformance profile (Dolan-More) of %s over %d instances (%s)", qt,
                     pr->cost, pr->np, pr->keys_text);
  if (pr->unsolved || pr->floored) hat += snprintf(head + hat, size - (size_t)hat, "\\n");
  if (pr->unsolved) hat += snprintf(head + hat, size - (size_t)hat, "%d solved by none", pr->unsolved);
  if (pr->floored)
    hat += snprintf(head + hat, size - (size_t)hat, "%s%d zero costs raised to %.3g",
                    pr->unsolved ? "; " : "", pr->floored, pr->floor_cost);
  if (n_panels > 1)
    hat += snprintf(head + hat, size - (size_t)hat,
                    "\\ngrey: the curves of the other panels (ratios to the best %s of all)", pr->ps->title);
  rundir_help_label(pr->r, pr->cost, lab, sizeof lab);
  snprintf(xnote, sizeof xnote, "cost: %s", lab);
  plot_quote(xnote, xnote_q, sizeof xnote_q);
  snprintf(head + hat, size - (size_t)hat, "\\n%s", xnote_q);
}

/* An earlier series of panel p whose curve is that of series s (the same ratio on every instance: it lies
 * under it), or -1. */
static int profile_same_curve(const struct profile *pr, const struct plot_facets *f, int p, int s)
{
  for (int u = 0; u < s; u++) {
    int eq = f->panel[u] == p;
    for (int q = 0; eq && q < pr->np; q++)
      eq = pr->t[(size_t)q * pr->ns + u] == pr->t[(size_t)q * pr->ns + s];
    if (eq) return u;
  }
  return -1;
}

/* The plot command of panel p: the other panels' curves thin and grey behind, then its own, each key with
 * its solved percentage (and the curve it repeats). */
static void profile_write_panel(FILE *gp, const struct profile *pr, const struct plot_facets *f,
                                const struct plot_grid *grid, int p)
{
  int ns = pr->ns, first = 1;
  char qt[512];
  if (f->n > 1) {
    plot_grid_panel(gp, grid, p);
    plot_quote(f->name[p], qt, sizeof qt);
    fprintf(gp, "set title \"%s\"\n", qt);
  }
  fprintf(gp, "plot");
  for (int s = 0; s < ns && f->n > 1; s++)
    if (f->panel[s] != p)
      fprintf(gp, "%s \\\n  '%s' index %d using 1:2 with steps lw 0.8 lc rgb '#c8c8c8' notitle",
              first ? "" : ",", pr->file, s),
          first = 0;
  for (int s = 0; s < ns; s++) {
    if (f->panel[s] != p) continue;
    int same = profile_same_curve(pr, f, p, s);
    char key[600];
    snprintf(key, sizeof key, "%s%s%s%s", f->panel_label[s], same >= 0 ? " (= " : "",
             same >= 0 ? f->panel_label[same] : "", same >= 0 ? ")" : "");
    plot_quote(key, qt, sizeof qt);
    fprintf(gp,
            "%s \\\n  '%s' index %d using 1:2 with steps lw %.2g dt %d lc rgb '%s' title \"%s (solved "
            "%.0f%%)\"",
            first ? "" : ",", pr->file, s, plot_look_width(f, s, ns), plot_dash(plot_look(f, s)),
            plot_color(plot_look(f, s)), qt, pr->solved[s]);
    first = 0;
  }
  fprintf(gp, "\n");
}

/* profile_COST.gp: the axes, the title, and a panel per facet (many series: one panel per family, as the
 * other plots have, every curve of the other panels drawn thin and grey behind, so each panel still reads
 * against the whole field). 0, or 1 on a write error. */
static int profile_write_script(const struct profile *pr, const char *plots_dir)
{
  char what[512], head[2048], qt[512];
  snprintf(what, sizeof what, "Dolan-More performance profile of %s per %s", pr->cost, pr->ps->title);
  FILE *gp = plot_script_open(plots_dir, pr->name, what);
  if (!gp) return 1;
  struct plot_facets f = {0};
  if (plot_facets_make(pr->r, pr->ps, NULL, &f)) {
    plot_facets_free(&f);
    fclose(gp);
    return 1;
  }
  struct plot_layout lay = plot_layout_panels(f.n);
  /* the keys carry " (solved NN%)" too: 13 characters more */
  int key_cols = plot_key_cols(f.panel_label, pr->ns, lay.width / lay.cols - 9 * 13), lines = 1, rows = 1;
  profile_title(pr, f.n, head, sizeof head);
  plot_wrap(head, sizeof head, PLOT_TITLE_CHARS(lay.width));
  struct plot_grid grid = {0};
  if (f.n > 1) { /* one plot-area size for every panel, each key in its own band (plot_grid) */
    for (const char *c = head; *c; c++)
      lines += c[0] == '\\' && c[1] == 'n';
    for (int p = 0; p < f.n; p++) {
      int n = 0;
      for (int s = 0; s < pr->ns; s++)
        n += f.panel[s] == p;
      if (plot_key_rows(n, key_cols) > rows) rows = plot_key_rows(n, key_cols);
    }
    grid = plot_grid_make(f.n, lines, 64, rows);
    lay.width = grid.width, lay.height = grid.height;
  }
  plot_quote(pr->ps->title, qt, sizeof qt);
  fprintf(gp,
          "set xlabel \"tau = cost / the best %s's cost on the instance\"\n"
          "set ylabel \"fraction of instances within tau of the best\"\n"
          "set logscale x 2\nset xrange [1:%.17g]\nset yrange [0:1.05]\nset ytics 0,0.2,1\n",
          qt, pr->tau_max);
  plot_script_png_size(gp, pr->name, lay.width, lay.height);
  if (f.n > 1)
    fprintf(gp, "set multiplot title \"%s\"\n", head);
  else
    fprintf(gp, "set title \"%s\"\n", head);
  fprintf(gp, "set key maxcols %d\n", key_cols);
  plot_write_key_title(gp, pr->r, f.key_title, f.n == 1);
  for (int p = 0; p < f.n; p++)
    profile_write_panel(gp, pr, &f, &grid, p);
  if (f.n > 1) fprintf(gp, "unset multiplot\n");
  plot_facets_free(&f);
  return plot_script_close(gp, plots_dir, pr->name) != 0;
}

int plot_profile(const struct rundir *r, const struct plot_series *ps, const char *plots_dir,
                 const char *cost)
{
  struct profile pr = {.r = r, .ps = ps, .cost = cost, .ns = ps->g->n};
  int col = table_column(r->tasks, cost), rc = 2;
  char **inst_keys = calloc((size_t)r->axes.n + 1, sizeof *inst_keys);
  struct rundir_groups *inst = NULL;
  double *ratio = NULL;
  if (!inst_keys) goto cleanup;
  if (pr.ns < 2) {
    rc = 1;
    goto cleanup;
  }
  if (rundir_group(r, profile_instance_keys(&pr, inst_keys), inst_keys, &inst)) goto cleanup;
  pr.np = inst->n;
  pr.t = malloc(((size_t)pr.np * pr.ns + 1) * sizeof *pr.t);
  ratio = malloc(((size_t)pr.np + 1) * sizeof *ratio);
  pr.solved = calloc((size_t)pr.ns + 1, sizeof *pr.solved);
  if (!pr.t || !ratio || !pr.solved) goto cleanup;
  rc = 1;
  if (!profile_costs(&pr, inst, col)) goto cleanup;
  rc = 2;
  profile_ratios(&pr);
  snprintf(pr.name, sizeof pr.name, "profile_%s", cost);
  snprintf(pr.file, sizeof pr.file, "%s.dat", pr.name);
  if (profile_write_data(&pr, plots_dir, ratio) || profile_write_script(&pr, plots_dir)) goto cleanup;
  rc = 0;
cleanup:
  free(pr.t);
  free(pr.solved);
  free(ratio);
  free(inst_keys);
  rundir_groups_destroy(&inst);
  return rc;
}
