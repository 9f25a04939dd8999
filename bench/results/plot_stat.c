/* plot_stat.c — the "median and interquartile range against x" plot of one accuracy metric or cost, per
 * series: log y only when the values span more than SPAN_LOG; what a log axis cannot show (<= 0,
 * rounding noise) clamped to a floor and marked, failed cells marked on the bottom, identical series
 * shifted and drawn open, many series split into panels (plot_facets.c). */
#include "plot_impl.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPAN_LOG 30.0 /* max/min of the positive values above which y is logarithmic */
/* On a log y, values under this are drawn at it and marked: double rounding of quantities of order one
 * (errors, residuals, drifts) is about 1e-16 to 1e-13, and their ups and downs there are not a trend. */
#define NOISE_FLOOR 1e-13

/* Median, quartiles and count of one column per (series, x) cell; q[3 * (s * nx + i) + 0..2]; failed[c]:
 * the cell's failed tasks (a cell with failures and no success is drawn as "failed"). */
static int cell_stats(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x, int col,
                      double *q, int *count, int *failed)
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
    failed[c] = 0;
    for (int k = start[c]; k < start[c + 1]; k++) {
      double val = table_number(r->tasks, rows[k], col);
      int o = rundir_outcome(r, rows[k]);
      if (o == 1 && isfinite(val)) v[n++] = val;
      failed[c] += o == 0;
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

/* 1 when two numbers agree to rounding (relative 1e-9): identical series and flat data. */
static int same_value(double a, double b)
{
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) || a == b;
}

/* Series t drawn exactly under series s: the same cells present and the same median and quartiles. */
static int same_series(const double *q, const int *count, int nx, int s, int t)
{
  for (int i = 0; i < nx; i++) {
    int a = s * nx + i, b = t * nx + i;
    if ((count[a] > 0) != (count[b] > 0)) return 0;
    for (int j = 0; count[a] && j < 3; j++)
      if (!same_value(q[3 * a + j], q[3 * b + j])) return 0;
  }
  return 1;
}

/* One "median and IQR band vs x" plot of column col: NAME.dat, NAME.gp. 0 written, 1 nothing to plot
 * (no successful or failed task anywhere), 2 write error. The y range is set here, not by gnuplot, so
 * that the marks under the data have their place: a cell whose tasks all failed is a cross on the bottom
 * of the frame ("failed"); on a log axis a value under the floor (<= 0, under 1e-12 of the largest or
 * under NOISE_FLOOR: rounding noise) is drawn at the floor as an open triangle ("clamped"); data flat to
 * rounding get a range round their value instead of a magnified noise; a series identical to an earlier one
 * is drawn with open points, shifted a little right, and its key says which one it repeats. */
int plot_stat(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
              const struct plot_facets *f, const char *dir, const char *kind, const char *col_name)
{
  int ns = ps->g->n, nx = x->g->n, col = table_column(r->tasks, col_name), rc = 2;
  double *q = calloc((size_t)3 * ns * nx + 1, sizeof *q);
  int *count = calloc((size_t)ns * nx + 1, sizeof *count),
      *failed = calloc((size_t)ns * nx + 1, sizeof *failed);
  int *block = calloc((size_t)ns + 1, sizeof *block), *dup = calloc((size_t)ns + 1, sizeof *dup);
  char name[256], file[300], lab[256], qt[512], over[512];
  FILE *dat = NULL, *gp = NULL;
  if (!q || !count || !failed || !block || !dup || cell_stats(r, ps, x, col, q, count, failed)) goto cleanup;
  double lo = INFINITY, hi = 0.0, lin_lo = INFINITY, lin_hi = -INFINITY;
  int any = 0, n_failed = 0, n_clamped = 0, n_dup = 0;
  for (int c = 0; c < ns * nx; c++) {
    n_failed += !count[c] && failed[c];
    if (!count[c]) continue;
    any = 1;
    for (int j = 0; j < 3; j++) {
      double v = q[3 * c + j];
      if (v > 0.0) lo = fmin(lo, v), hi = fmax(hi, v);
      lin_lo = fmin(lin_lo, v), lin_hi = fmax(lin_hi, v);
    }
  }
  rc = 1;
  if (!any) goto cleanup;
  int log_y = hi > 0.0 && hi / lo > SPAN_LOG;
  /* the floor: 1e-12 of the largest value, and at least NOISE_FLOOR (a trend under it is rounding) */
  double floor_y = log_y ? fmax(lo, fmin(hi, fmax(hi * 1e-12, NOISE_FLOOR))) : lin_lo, y0, y1, y_fail;
  int flat = !log_y && same_value(lin_lo, lin_hi);
  if (log_y) {
    lo = floor_y;
    /* room under the floor for the failed marks: a fixed share of the decades shown */
    double decades = log10(hi * 2.0 / lo);
    y0 = lo / pow(10.0, 0.16 * decades), y1 = hi * 2.0, y_fail = lo / pow(10.0, 0.1 * decades);
  } else if (flat) { /* flat to rounding: a range round the value, so the noise stays flat */
    double c = 0.5 * (lin_lo + lin_hi), half = c != 0.0 ? 0.1 * fabs(c) : 1.0;
    y0 = c - half, y1 = c + half, y_fail = c - 0.85 * half;
  } else {
    double span = lin_hi - lin_lo;
    y0 = lin_lo - 0.16 * span, y1 = lin_hi + 0.06 * span, y_fail = lin_lo - 0.11 * span;
  }
  /* series drawn exactly over an earlier one in the same panel */
  for (int s = 0; s < ns; s++) {
    dup[s] = -1;
    for (int t = 0; t < s && dup[s] < 0; t++)
      if (f->panel[t] == f->panel[s] && dup[t] < 0 && same_series(q, count, nx, s, t)) dup[s] = t;
    n_dup += dup[s] >= 0;
  }
  rc = 2;
  snprintf(name, sizeof name, "%s_%s", kind, col_name);
  snprintf(file, sizeof file, "%s.dat", name);
  if (!(dat = plot_data_open(dir, file))) goto cleanup;
  fprintf(dat,
          "# %s: median, q1, q3 and count of %s over the successful tasks, per %s and %s; after the series "
          "the blocks 'failed' and 'clamped' (x, y, colour)\n",
          r->title, col_name, r->plot_x[0] ? r->plot_x : "run", ps->title);
  int nb = 0;
  double span_x = x->numeric && nx > 1 ? x->value[nx - 1] - x->value[0] : 1.0;
  /* x of series s at position i: categories side by side within a category, a repeated series shifted */
  double *xs = calloc((size_t)ns * nx + 1, sizeof *xs);
  if (!xs) goto cleanup;
  for (int s = 0; s < ns; s++) {
    int rank = 0, at = 0, in_panel = 0; /* at: its place among the series of its panel */
    for (int t = 0; t < ns; t++) {
      rank += t < s && dup[s] >= 0 && dup[t] == dup[s];
      at += t < s && f->panel[t] == f->panel[s];
      in_panel += f->panel[t] == f->panel[s];
    }
    rank += dup[s] >= 0;
    for (int i = 0; i < nx; i++) {
      double xv = x->value[i];
      if (!x->numeric)
        xv += (at - 0.5 * (in_panel - 1)) * fmin(0.15, 0.6 / in_panel);
      else if (r->log_x && x->value[0] > 0.0)
        xv *= pow(1.035, rank);
      else
        xv += 0.012 * span_x * rank;
      xs[s * nx + i] = xv;
    }
  }
  for (int s = 0; s < ns; s++) {
    block[s] = -1;
    for (int i = 0; i < nx; i++) {
      int c = s * nx + i;
      if (!count[c]) continue;
      double med = q[3 * c], q1 = q[3 * c + 1], q3 = q[3 * c + 2];
      if (block[s] < 0) fprintf(dat, "%s# %s\n", nb ? "\n\n" : "", ps->label[s]), block[s] = nb++;
      if (log_y) { /* clamp to the floor (marked below) */
        n_clamped += !(med >= floor_y);
        med = fmax(med, floor_y), q1 = fmax(q1, floor_y), q3 = fmax(q3, floor_y);
      }
      fprintf(dat, "%.17g %.17g %.17g %.17g %d\n", xs[c], med, q1, q3, count[c]);
    }
  }
  /* the marks: failed cells on the bottom, clamped medians at the floor */
  /* per panel: failed (index mark_block + 2 p) and clamped (+ 1) */
  int mark_block = nb, *marks = calloc((size_t)2 * f->n + 1, sizeof *marks); /* failed, clamped per panel */
  if (!marks) {
    free(xs);
    goto cleanup;
  }
  for (int p = 0; p < f->n; p++) {
    int n_f = 0, n_c = 0;
    fprintf(dat, "%s# panel %d, failed: every task of the cell failed (x, y on the bottom, colour)\n",
            nb || p ? "\n\n" : "", p);
    for (int c = 0; c < ns * nx; c++)
      if (f->panel[c / nx] == p && !count[c] && failed[c])
        fprintf(dat, "%.17g %.17g %ld\n", xs[c], y_fail, plot_color_int(plot_look(f, c / nx))), n_f++;
    if (!n_f) fprintf(dat, "NaN NaN 0\n");
    fprintf(dat, "\n\n# panel %d, clamped: medians under the floor %.3g drawn at it\n", p, floor_y);
    for (int c = 0; log_y && c < ns * nx; c++)
      if (f->panel[c / nx] == p && count[c] && !(q[3 * c] >= floor_y))
        fprintf(dat, "%.17g %.17g %ld\n", xs[c], floor_y, plot_color_int(plot_look(f, c / nx))), n_c++;
    if (!n_c) fprintf(dat, "NaN NaN 0\n");
    marks[2 * p] = n_f, marks[2 * p + 1] = n_c;
  }
  free(xs);
  int bad = ferror(dat) != 0;
  bad |= fclose(dat) != 0;
  dat = NULL;
  plot_aggregated_over(r, over, sizeof over);
  char what[1024];
  snprintf(what, sizeof what, "%s vs %s: median (line) and interquartile range (band) per %s", col_name,
           r->plot_x[0] ? r->plot_x : "run", ps->title);
  if (bad || !(gp = plot_script_open(dir, name, what))) {
    free(marks);
    goto cleanup;
  }
  plot_write_x_axis(gp, r, x);
  plot_axis_label(r, col_name, lab, sizeof lab);
  plot_quote(lab, qt, sizeof qt);
  /* "higher is better" goes under the title: along the axis it would push a long label off the panel */
  fprintf(gp, "set ylabel \"%s\"\n", qt);
  if (log_y &&
      hi / lo < 1e3) { /* under three decades: tics at 1, 2, 5 x 10^k, or there are only one or two */
    fprintf(gp, "set logscale y\nset format y '%%g'\nset ytics (");
    for (int k = (int)floor(log10(y0)), first_tic = 1; k <= (int)ceil(log10(hi)); k++)
      for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
        fprintf(gp, "%s%.0e", first_tic ? "" : ", ", m * pow(10.0, k)), first_tic = 0;
    fprintf(gp, ")\n");
  } else if (log_y)
    fprintf(gp, "set logscale y\nset format y '%%.0e'\n");
  else if (flat)
    fprintf(gp, "set format y '%%.6g'\n");
  fprintf(gp, "set yrange [%.17g:%.17g]\n", y0, y1);
  if (n_failed || n_clamped)
    fprintf(gp, "set arrow from graph 0, first %.17g to graph 1, first %.17g nohead lc rgb '#bbbbbb' dt 3\n",
            n_failed ? y_fail : floor_y, n_failed ? y_fail : floor_y);
  int rows = 1, cols = 1, w = 1000, h = 700;
  if (f->n > 1) {
    cols = (int)ceil(sqrt((double)f->n)), rows = (f->n + cols - 1) / cols;
    w = 620 * cols > 1900 ? 1900 : 620 * cols, h = 520 * rows > 1600 ? 1600 : 520 * rows;
  }
  plot_script_png_size(gp, name, w, h);
  /* the notes under the title, "; " between those that apply */
  const char *note[] = {over[0] ? over : NULL,
                        rundir_list_find(&r->higher_better, col_name) >= 0 ? "higher is better" : NULL,
                        n_failed ? "x on the bottom: every task failed" : NULL,
                        n_clamped ? "open triangles: under the floor, drawn at it" : NULL,
                        n_dup ? "open points shifted right: same values as an earlier series" : NULL,
                        flat ? "flat to rounding" : NULL};
  char notes[1024] = "";
  /* a new line instead of "; " once a line would pass ~90 characters: a 1000-px title holds about 110 */
  for (size_t k = 0, at = 0, line = 0; k < sizeof note / sizeof note[0] && at < sizeof notes; k++)
    if (note[k]) {
      size_t len = strlen(note[k]);
      const char *sep = !at ? "" : line + 2 + len > 90 ? "\\n" : "; ";
      line = (sep[0] == '\\' ? 0 : line + strlen(sep)) + len;
      at += (size_t)snprintf(notes + at, sizeof notes - at, "%s%s", sep, note[k]);
    }
  plot_quote(r->title, qt, sizeof qt);
  /* the y label's whole definition when the label had to be cut */
  char ynote[600], ynote_q[1300];
  plot_axis_note(r, "y", col_name, ynote, sizeof ynote);
  plot_quote(ynote, ynote_q, sizeof ynote_q);
  char head[4096];
  snprintf(head, sizeof head,
           "%s\\nmedian (%s) and interquartile range (%s) over the successful tasks%s%s%s%s", qt,
           x->numeric ? "line" : "point", x->numeric ? "band" : "bar", notes[0] ? "\\n" : "", notes,
           ynote[0] ? "\\n" : "", ynote_q);
  if (f->n > 1)
    fprintf(gp, "set multiplot layout %d,%d title \"%s\"\nset key maxcols %d\n", rows, cols, head,
            plot_key_cols(f->panel_label, ns, w / cols));
  else
    fprintf(gp, "set title \"%s\"\nset key maxcols %d\n", head, plot_key_cols(f->panel_label, ns, w));
  plot_quote(f->key_title, qt, sizeof qt);
  fprintf(gp, "set key title \"%s\"\n", qt); /* a reader of "closest / lemke / 0" learns what each part is */
  for (int p = 0; p < f->n; p++) {
    if (f->n > 1) {
      plot_quote(f->name[p], qt, sizeof qt);
      fprintf(gp, "set title \"%s\"\n", qt);
    }
    fprintf(gp, "plot");
    int first = 1;
    for (int s = 0; s < ns; s++) {
      if (f->panel[s] != p || block[s] < 0) continue;
      char key[600];
      if (dup[s] >= 0)
        snprintf(key, sizeof key, "%s (= %s)", f->panel_label[s], f->panel_label[dup[s]]);
      else
        snprintf(key, sizeof key, "%s", f->panel_label[s]);
      plot_quote(key, qt, sizeof qt);
      /* the band needs two x values; a single point gets error bars instead */
      int npts = 0;
      for (int i = 0; i < nx; i++)
        npts += count[s * nx + i] > 0;
      /* a light band with dashed edges in the series colour: overlapping bands stay tellable apart */
      if (npts > 1 && x->numeric)
        fprintf(
            gp,
            "%s \\\n  '%s' index %d using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb "
            "'%s' notitle, \\\n  '%s' index %d using 1:3 with lines lw 0.8 dt 2 lc rgb '%s' notitle, \\\n"
            "  '%s' index %d using 1:4 with lines lw 0.8 dt 2 lc rgb '%s' notitle",
            first ? "" : ",", file, block[s], plot_color(plot_look(f, s)), file, block[s],
            plot_color(plot_look(f, s)), file, block[s], plot_color(plot_look(f, s)));
      else
        fprintf(gp, "%s \\\n  '%s' index %d using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '%s' notitle",
                first ? "" : ",", file, block[s], plot_color(plot_look(f, s)));
      /* categories are not a continuum: points only, no line between them */
      fprintf(gp,
              ", \\\n  '%s' index %d using 1:2 with %s lw %.2g pt %d ps %.2g dt %d lc rgb '%s' title \"%s\"",
              file, block[s], x->numeric ? "linespoints" : "points", plot_look_width(f, s, ns),
              dup[s] >= 0 || plot_variant(f, s) ? plot_point_hollow(plot_look(f, s))
                                                : plot_point(plot_look(f, s)),
              dup[s] >= 0 ? 1.6 : 1.3,
              plot_variant(f, s) ? 2
              : f->period        ? 1
                                 : plot_dash(plot_look(f, s)),
              plot_color(plot_look(f, s)), qt);
      first = 0;
    }
    /* a series with no successful cell at all still gets its key entry (its crosses are in its colour),
     * or its failures would be the only trace of it, under no name */
    for (int s = 0; s < ns; s++) {
      int n_fail = 0;
      for (int i = 0; i < nx; i++)
        n_fail += failed[s * nx + i] > 0;
      if (f->panel[s] != p || block[s] >= 0 || !n_fail) continue;
      plot_quote(f->panel_label[s], qt, sizeof qt);
      fprintf(gp, "%s \\\n  NaN with points pt 2 ps 1.6 lw 2 lc rgb '%s' title \"%s (every task failed)\"",
              first ? "" : ",", plot_color(plot_look(f, s)), qt);
      first = 0;
    }
    /* a panel with nothing to draw says so (the column is empty for its series: not measured there) */
    if (first && !marks[2 * p])
      fprintf(gp, " NaN notitle, \\\n  NaN with points lc rgb '#ffffff' title \"(no value: not measured for "
                  "these series)\"");
    else if (first)
      fprintf(gp, " NaN notitle");
    /* the marks of the panel, their points in the series colour, and a grey key entry for them */
    if (marks[2 * p])
      fprintf(gp,
              ", \\\n  '%s' index %d using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \\\n"
              "  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title \"failed (no successful task)\"",
              file, mark_block + 2 * p);
    if (marks[2 * p + 1])
      fprintf(
          gp,
          ", \\\n  '%s' index %d using 1:2:3 with points pt 10 ps 2.2 lw 1.5 lc rgb variable notitle, \\\n"
          "  NaN with points pt 10 ps 2 lc rgb '#444444' title \"clamped (under %.2g)\"",
          file, mark_block + 2 * p + 1, floor_y);
    fprintf(gp, "\n");
  }
  if (f->n > 1) fprintf(gp, "unset multiplot\n");
  free(marks);
  rc = plot_script_close(gp, name) ? 2 : 0;
cleanup:
  if (dat) fclose(dat);
  free(q);
  free(count);
  free(failed);
  free(block);
  free(dup);
  return rc;
}
