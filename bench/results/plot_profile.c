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

int plot_profile(const struct rundir *r, const struct plot_series *ps, const char *plots_dir,
                 const char *cost)
{
  int ns = ps->g->n, col = table_column(r->tasks, cost), rc = 2, n_inst_keys = 0;
  char **inst_keys = calloc((size_t)r->axes.n + 1, sizeof *inst_keys);
  struct rundir_groups *inst = NULL;
  double *t = NULL, *ratio = NULL;
  FILE *dat = NULL, *gp = NULL;
  char name[256], file[300], qt[512], lab[256], keys_text[512] = "";
  if (!inst_keys) goto cleanup;
  if (ns < 2) {
    rc = 1;
    goto cleanup;
  }
  size_t at = 0;
  for (int k = 0; k < r->axes.n; k++)
    if (rundir_list_find(&r->series, r->axes.name[k]) < 0) {
      inst_keys[n_inst_keys++] = r->axes.name[k];
      at += (size_t)snprintf(keys_text + at, sizeof keys_text - at, "%s%s", at ? " x " : "", r->axes.name[k]);
      if (at >= sizeof keys_text) at = sizeof keys_text - 1;
    }
  if (rundir_group(r, n_inst_keys, inst_keys, &inst)) goto cleanup;
  int np = inst->n;
  t = malloc(((size_t)np * ns + 1) * sizeof *t);
  ratio = malloc(((size_t)np + 1) * sizeof *ratio);
  if (!t || !ratio) goto cleanup;
  double floor_cost = INFINITY;
  for (int i = 0; i < r->tasks->nrow; i++) {
    double v = table_number(r->tasks, i, col);
    if (rundir_outcome(r, i) == 1 && v > 0.0 && isfinite(v)) floor_cost = fmin(floor_cost, v);
  }
  for (size_t k = 0; k < (size_t)np * ns; k++)
    t[k] = INFINITY;
  int any = 0, floored = 0;
  for (int i = 0; i < r->tasks->nrow; i++) {
    double v = table_number(r->tasks, i, col);
    if (rundir_outcome(r, i) != 1 || !isfinite(v)) continue;
    if (!(v > 0.0)) {
      if (!isfinite(floor_cost)) continue; /* every successful cost is zero: no ratios to speak of */
      v = floor_cost, floored++;
    }
    t[(size_t)inst->of_row[i] * ns + ps->g->of_row[i]] = v;
    any = 1;
  }
  rc = 1;
  if (!any) goto cleanup;
  rc = 2;
  int unsolved = 0;
  double tau_max = 2.0;
  for (int p = 0; p < np; p++) {
    double best = INFINITY;
    for (int s = 0; s < ns; s++)
      best = fmin(best, t[(size_t)p * ns + s]);
    unsolved += !isfinite(best);
    for (int s = 0; s < ns; s++) {
      double *c = &t[(size_t)p * ns + s]; /* the cost becomes the ratio */
      *c = isfinite(best) && isfinite(*c) ? *c / best : INFINITY;
      if (isfinite(*c)) tau_max = fmax(tau_max, 1.5 * *c);
    }
  }
  snprintf(name, sizeof name, "profile_%s", cost);
  snprintf(file, sizeof file, "%s.dat", name);
  if (!(dat = plot_data_open(plots_dir, file))) goto cleanup;
  fprintf(dat,
          "# performance profile of %s: tau, fraction of the %d instances with cost <= tau x the best, "
          "one block per %s\n",
          cost, np, ps->title);
  double *solved = calloc((size_t)ns + 1, sizeof *solved);
  if (!solved) goto cleanup;
  for (int s = 0; s < ns; s++) {
    int n = 0;
    for (int p = 0; p < np; p++)
      if (isfinite(t[(size_t)p * ns + s])) ratio[n++] = t[(size_t)p * ns + s];
    gsl_sort(ratio, 1, (size_t)n);
    fprintf(dat, "%s# %s\n", s ? "\n\n" : "", ps->label[s]);
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
    fprintf(dat, "%.17g %.17g\n", tau_max, (double)n / np);
    solved[s] = 100.0 * n / np;
  }
  int bad = ferror(dat) != 0;
  bad |= fclose(dat) != 0;
  dat = NULL;
  char what[512];
  snprintf(what, sizeof what, "Dolan-More performance profile of %s per %s", cost, ps->title);
  if (bad || !(gp = plot_script_open(plots_dir, name, what))) {
    free(solved);
    goto cleanup;
  }
  /* many series: one panel per family (the facets of the other plots), every curve of the other panels
   * drawn thin and grey behind, so each panel still reads against the whole field */
  struct plot_facets f = {0};
  if (plot_facets_make(r, ps, NULL, &f)) {
    plot_facets_free(&f);
    free(solved);
    fclose(gp);
    gp = NULL;
    goto cleanup;
  }
  int rows = 1, cols = 1, w = 1000, h = 700;
  if (f.n > 1) {
    cols = (int)ceil(sqrt((double)f.n)), rows = (f.n + cols - 1) / cols;
    w = 620 * cols > 1900 ? 1900 : 620 * cols, h = 520 * rows > 1600 ? 1600 : 520 * rows;
  }
  char head[2048], xnote[600], xnote_q[1300];
  plot_quote(r->title, qt, sizeof qt);
  int hat = snprintf(head, sizeof head, "%s\\nperformance profile (Dolan-More) of %s over %d instances (%s)",
                     qt, cost, np, keys_text);
  if (unsolved || floored) hat += snprintf(head + hat, sizeof head - (size_t)hat, "\\n");
  if (unsolved) hat += snprintf(head + hat, sizeof head - (size_t)hat, "%d solved by none", unsolved);
  if (floored)
    hat += snprintf(head + hat, sizeof head - (size_t)hat, "%s%d zero costs raised to %.3g",
                    unsolved ? "; " : "", floored, floor_cost);
  if (f.n > 1)
    hat += snprintf(head + hat, sizeof head - (size_t)hat,
                    "\\ngrey: the curves of the other panels (ratios to the best %s of all)", ps->title);
  /* the cost's definition in the title (the whole help text), the axis only says what tau is */
  rundir_help_label(r, cost, lab, sizeof lab);
  snprintf(xnote, sizeof xnote, "cost: %s", lab);
  plot_quote(xnote, xnote_q, sizeof xnote_q);
  snprintf(head + hat, sizeof head - (size_t)hat, "\\n%s", xnote_q);
  plot_quote(ps->title, qt, sizeof qt);
  fprintf(gp,
          "set xlabel \"tau = cost / the best %s's cost on the instance (log2)\"\n"
          "set ylabel \"fraction of instances within tau of the best\"\n"
          "set logscale x 2\nset xrange [1:%.17g]\nset yrange [0:1.05]\nset ytics 0,0.2,1\n",
          qt, tau_max);
  plot_script_png_size(gp, name, w, h);
  if (f.n > 1)
    fprintf(gp, "set multiplot layout %d,%d title \"%s\"\n", rows, cols, head);
  else
    fprintf(gp, "set title \"%s\"\n", head);
  /* the keys carry " (solved NN%)" too: 13 characters more */
  fprintf(gp, "set key maxcols %d\n", plot_key_cols(f.panel_label, ns, w / cols - 9 * 13));
  plot_quote(f.key_title, qt, sizeof qt);
  fprintf(gp, "set key title \"%s\"\n", qt);
  for (int p = 0; p < f.n; p++) {
    if (f.n > 1) {
      plot_quote(f.name[p], qt, sizeof qt);
      fprintf(gp, "set title \"%s\"\n", qt);
    }
    fprintf(gp, "plot");
    int first = 1;
    for (int s = 0; s < ns && f.n > 1; s++)
      if (f.panel[s] != p)
        fprintf(gp, "%s \\\n  '%s' index %d using 1:2 with steps lw 0.8 lc rgb '#c8c8c8' notitle",
                first ? "" : ",", file, s),
            first = 0;
    for (int s = 0; s < ns; s++) {
      if (f.panel[s] != p) continue;
      /* a curve identical to an earlier one of the panel (the same ratio on every instance) lies under
       * it: its key says so */
      int same = -1;
      for (int u = 0; u < s && same < 0; u++) {
        int eq = f.panel[u] == p;
        for (int q = 0; eq && q < np; q++)
          eq = t[(size_t)q * ns + u] == t[(size_t)q * ns + s];
        if (eq) same = u;
      }
      char key[600];
      snprintf(key, sizeof key, "%s%s%s%s", f.panel_label[s], same >= 0 ? " (= " : "",
               same >= 0 ? f.panel_label[same] : "", same >= 0 ? ")" : "");
      plot_quote(key, qt, sizeof qt);
      fprintf(gp,
              "%s \\\n  '%s' index %d using 1:2 with steps lw %.2g dt %d lc rgb '%s' title \"%s (solved "
              "%.0f%%)\"",
              first ? "" : ",", file, s, plot_look_width(&f, s, ns), plot_dash(plot_look(&f, s)),
              plot_color(plot_look(&f, s)), qt, solved[s]);
      first = 0;
    }
    fprintf(gp, "\n");
  }
  if (f.n > 1) fprintf(gp, "unset multiplot\n");
  plot_facets_free(&f);
  free(solved);
  rc = plot_script_close(gp, name) ? 2 : 0;
cleanup:
  if (dat) fclose(dat);
  free(t);
  free(ratio);
  free(inst_keys);
  rundir_groups_destroy(&inst);
  return rc;
}
