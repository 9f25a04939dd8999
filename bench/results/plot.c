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
/* On a log y, values under this are drawn at it and marked: double rounding of quantities of order one
 * (errors, residuals, drifts) is about 1e-16 to 1e-13, and their ups and downs there are not a trend. */
#define NOISE_FLOOR 1e-13

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

/* An axis label: the help text and unit of a column (rundir_help_label), a long help cut at its first
 * clause ("; ", " (", ": ", ", ") so that it fits along the axis; the unit kept. */
static void axis_label(const struct rundir *r, const char *name, char *buf, size_t n)
{
  rundir_help_label(r, name, buf, n);
  const char *u = rundir_unit(r, name);
  char unit[128] = "";
  size_t len = strlen(buf);
  if (u) {
    snprintf(unit, sizeof unit, " [%s]", u);
    if (len >= strlen(unit) && strcmp(buf + len - strlen(unit), unit) == 0) len -= strlen(unit);
  }
  if (len <= 50) return;
  static const char *const cuts[] = {"; ", " (", ": ", ", "};
  size_t cut = len > 50 ? 50 : len;
  for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
    /* the first such separator outside parentheses (a formula's "mid(lo, hi, ...)" is not a clause) */
    for (const char *c = strstr(buf, cuts[k]); c; c = strstr(c + 1, cuts[k])) {
      int depth = 0;
      for (const char *t = buf; t < c; t++)
        depth += (*t == '(') - (*t == ')');
      if (depth != 0) continue;
      if (k == 1 && buf[len - 1] != ')') break; /* only a closing remark in parentheses is cut off */
      if ((size_t)(c - buf) >= 8 && (size_t)(c - buf) < cut) cut = (size_t)(c - buf);
      break;
    }
  }
  int cut_word = cut == 50 && cut < len; /* no clause to cut at: the last whole word, then "..." */
  while (cut_word && cut > 30 && buf[cut] != ' ')
    cut--;
  snprintf(buf + cut, n - cut, "%s%s", cut_word ? "..." : "", unit);
}

/* Whether the x tic labels need turning: many categories, or long ones, or many explicit numbers. */
static int x_crowded(const struct rundir *r, const struct plot_x *x)
{
  size_t chars = 0;
  for (int i = 0; i < x->g->n; i++)
    chars += strlen(x_text(r, x, i)) + 1;
  return x->g->n > 8 || chars > 60;
}

/* Axis settings for x: log when experiment.txt says so (and every x is positive), categories when the
 * values are not numbers; crowded tic labels turned 45 degrees so they do not run into each other. */
static void write_x_axis(FILE *fp, const struct rundir *r, const struct plot_x *x)
{
  char lab[256], q[512];
  if (r->plot_x[0])
    axis_label(r, r->plot_x, lab, sizeof lab);
  else
    snprintf(lab, sizeof lab, "all tasks");
  plot_quote(lab, q, sizeof q);
  fprintf(fp, "set xlabel \"%s\"\n", q);
  int n = x->g->n, log_x = r->log_x && x->numeric && x->value[0] > 0.0, explicit_tics = 0;
  if (!x->numeric) {
    fprintf(fp, "set xrange [-0.5:%d.5]\nset xtics (", n - 1);
    for (int i = 0; i < n; i++) {
      plot_quote(x_text(r, x, i), q, sizeof q);
      fprintf(fp, "%s\"%s\" %d", i ? ", " : "", q, i);
    }
    fprintf(fp, ")\n");
    explicit_tics = 1;
  } else if (log_x) {
    /* a little room either side so the end points and their bands are not on the frame */
    fprintf(fp, "set logscale x\nset format x '%%g'\nset xrange [%.17g:%.17g]\n", x->value[0] / 1.25,
            x->value[n - 1] * 1.25);
    if (x->value[n - 1] / x->value[0] < 100.0) { /* few decades: label the values themselves */
      fprintf(fp, "set xtics (");
      for (int i = 0; i < n; i++)
        fprintf(fp, "%s%.6g", i ? ", " : "", x->value[i]);
      fprintf(fp, ")\n");
      explicit_tics = 1;
    }
  } else {
    double span = n > 1 ? x->value[n - 1] - x->value[0] : fabs(x->value[0]) + 1.0;
    fprintf(fp, "set xrange [%.17g:%.17g]\n", x->value[0] - 0.05 * span, x->value[n - 1] + 0.05 * span);
  }
  if (explicit_tics && x_crowded(r, x)) fprintf(fp, "set xtics rotate by 45 right\n");
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

/* Facets: panel[s] is the panel of series s (0.. n_panels-1), panel_label[s] the series' name within its
 * panel (the full label less the facet part). One panel unless there are more than FACET_MIN series or a
 * facet column is asked for: then one panel per value of the facet column (by default the first series
 * axis when there are several, else the family of the one series axis: its values' prefix up to '_',
 * else blocks of six). */
#define FACET_MIN 8
struct plot_facets {
  int period; /* overlay: series s + period is series s of the next run, drawn in the same colour */
  int n;
  int *panel;
  char **name; /* per panel */
  const char **panel_label;
};

static void facets_free(struct plot_facets *f)
{
  for (int k = 0; f->name && k < f->n; k++)
    free(f->name[k]);
  free(f->name);
  free(f->panel);
  free(f->panel_label);
  memset(f, 0, sizeof *f);
}

/* The look of series s: its own, or in an overlay that of the same series of the baseline. */
static int look(const struct plot_facets *f, int s) { return f->period ? s % f->period : s; }
/* 1 for a series of a variant run in an overlay: dashed with open points. */
static int variant(const struct plot_facets *f, int s) { return f->period && s >= f->period; }

/* The panel key of series s: the value of facet series column fk (-1: the family prefix). */
static void facet_key(const struct rundir *r, const struct plot_series *ps, int s, int fk, char *buf,
                      size_t n)
{
  const char *v = ps->g->n_keys ? table_get(r->tasks, ps->g->first[s], ps->g->key_col[fk < 0 ? 0 : fk]) : "";
  size_t len = strlen(v);
  if (fk < 0 && strchr(v, '_')) len = (size_t)(strchr(v, '_') - v);
  snprintf(buf, n, "%.*s", (int)len, v);
}

static int facets_make(const struct rundir *r, const struct plot_series *ps, const char *facet,
                       struct plot_facets *f)
{
  int ns = ps->g->n;
  memset(f, 0, sizeof *f);
  f->panel = calloc((size_t)ns + 1, sizeof *f->panel);
  f->panel_label = calloc((size_t)ns + 1, sizeof *f->panel_label);
  f->name = calloc((size_t)ns + 1, sizeof *f->name);
  if (!f->panel || !f->panel_label || !f->name) return 1;
  for (int s = 0; s < ns; s++)
    f->panel_label[s] = ps->label[s];
  int fk = -2; /* -2 none, -1 family of key 0, >= 0 the series key */
  if (facet && facet[0])
    fk = rundir_list_find(&r->series, facet);
  else if (ns > FACET_MIN)
    fk = r->series.n > 1 ? 0 : r->series.n == 1 ? -1 : -2;
  char key[256];
  for (int s = 0; fk > -2 && s < ns; s++) {
    facet_key(r, ps, s, fk, key, sizeof key);
    int k = 0;
    while (k < f->n && strcmp(f->name[k], key) != 0)
      k++;
    if (k == f->n && !(f->name[f->n++] = strdup(key))) return 1;
    f->panel[s] = k;
  }
  /* a family split that explains nothing (one panel, or one series a panel): blocks of six instead */
  if (fk == -1 && (f->n < 2 || f->n >= ns - 1) && ns > FACET_MIN) {
    for (int k = 0; k < f->n; k++)
      free(f->name[k]);
    f->n = 0;
    for (int s = 0; s < ns; s++) {
      f->panel[s] = s / 6;
      if (s % 6 == 0) {
        snprintf(key, sizeof key, "series %d-%d", s + 1, s + 6 < ns ? s + 6 : ns);
        if (!(f->name[f->n++] = strdup(key))) return 1;
      }
    }
    return 0;
  }
  if (fk < 0) {
    if (!f->n && !(f->name[f->n++] = strdup(""))) return 1;
    return 0;
  }
  /* within a panel of a series axis the series are named by the other axes (after "fk value / ") */
  for (int s = 0; s < ns && r->series.n > 1; s++) {
    const char *l = ps->label[s];
    for (int k = 0; k < fk && strstr(l, " / "); k++)
      l = strstr(l, " / ") + 3;
    if (fk == 0 && strstr(l, " / ")) f->panel_label[s] = strstr(l, " / ") + 3;
  }
  return 0;
}

/* One "median and IQR band vs x" plot of column col: NAME.dat, NAME.gp. 0 written, 1 nothing to plot
 * (no successful or failed task anywhere), 2 write error. The y range is set here, not by gnuplot, so
 * that the marks under the data have their place: a cell whose tasks all failed is a cross on the bottom
 * of the frame ("failed"); on a log axis a value under the floor (<= 0, under 1e-12 of the largest or
 * under NOISE_FLOOR: rounding noise) is drawn at the floor as an open triangle ("clamped"); data flat to
 * rounding get a range round their value instead of a magnified noise; a series identical to an earlier one
 * is drawn with open points, shifted a little right, and its key says which one it repeats. */
static int plot_stat(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
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
        fprintf(dat, "%.17g %.17g %ld\n", xs[c], y_fail, plot_color_int(look(f, c / nx))), n_f++;
    if (!n_f) fprintf(dat, "NaN NaN 0\n");
    fprintf(dat, "\n\n# panel %d, clamped: medians under the floor %.3g drawn at it\n", p, floor_y);
    for (int c = 0; log_y && c < ns * nx; c++)
      if (f->panel[c / nx] == p && count[c] && !(q[3 * c] >= floor_y))
        fprintf(dat, "%.17g %.17g %ld\n", xs[c], floor_y, plot_color_int(look(f, c / nx))), n_c++;
    if (!n_c) fprintf(dat, "NaN NaN 0\n");
    marks[2 * p] = n_f, marks[2 * p + 1] = n_c;
  }
  free(xs);
  int bad = ferror(dat) != 0;
  bad |= fclose(dat) != 0;
  dat = NULL;
  aggregated_over(r, over, sizeof over);
  char what[1024];
  snprintf(what, sizeof what, "%s vs %s: median (line) and interquartile range (band) per %s", col_name,
           r->plot_x[0] ? r->plot_x : "run", ps->title);
  if (bad || !(gp = plot_script_open(dir, name, what))) {
    free(marks);
    goto cleanup;
  }
  write_x_axis(gp, r, x);
  axis_label(r, col_name, lab, sizeof lab);
  plot_quote(lab, qt, sizeof qt);
  fprintf(gp, "set ylabel \"%s%s\"\n", qt,
          rundir_list_find(&r->higher_better, col_name) >= 0 ? " (higher is better)" : "");
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
  const char *note[] = {over[0] ? "aggregated over " : NULL,
                        n_failed ? "x on the bottom: every task failed" : NULL,
                        n_clamped ? "open triangles: under the floor, drawn at it" : NULL,
                        n_dup ? "open points shifted right: same values as an earlier series" : NULL,
                        flat ? "flat to rounding" : NULL};
  char notes[1024] = "";
  for (size_t k = 0, at = 0; k < sizeof note / sizeof note[0] && at < sizeof notes; k++)
    if (note[k])
      at += (size_t)snprintf(notes + at, sizeof notes - at, "%s%s%s", at ? "; " : "", note[k], k ? "" : over);
  plot_quote(r->title, qt, sizeof qt);
  char head[2048];
  snprintf(head, sizeof head, "%s\\nmedian (%s) and interquartile range (%s) over the successful tasks%s%s",
           qt, x->numeric ? "line" : "point", x->numeric ? "band" : "bar", notes[0] ? "\\n" : "", notes);
  if (f->n > 1)
    fprintf(gp, "set multiplot layout %d,%d title \"%s\"\nset key below horizontal center maxcols 3\n", rows,
            cols, head);
  else
    fprintf(gp, "set title \"%s\"\n", head);
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
            first ? "" : ",", file, block[s], plot_color(look(f, s)), file, block[s], plot_color(look(f, s)),
            file, block[s], plot_color(look(f, s)));
      else
        fprintf(gp, "%s \\\n  '%s' index %d using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '%s' notitle",
                first ? "" : ",", file, block[s], plot_color(look(f, s)));
      /* categories are not a continuum: points only, no line between them */
      fprintf(gp,
              ", \\\n  '%s' index %d using 1:2 with %s lw %.2g pt %d ps %.2g dt %d lc rgb '%s' title \"%s\"",
              file, block[s], x->numeric ? "linespoints" : "points", plot_width(s, ns),
              dup[s] >= 0 || variant(f, s) ? plot_point_hollow(look(f, s)) : plot_point(look(f, s)),
              dup[s] >= 0 ? 1.6 : 1.3,
              variant(f, s) ? 2
              : f->period   ? 1
                            : plot_dash(s),
              plot_color(look(f, s)), qt);
      first = 0;
    }
    if (first) fprintf(gp, " NaN notitle");
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

/* The success rate as a heat map (bars for 20 x values times 14 series are unreadable): x along the
 * bottom, series up the side, the rate as colour (a sequential palette from dark red through orange to
 * light yellow, readable for the common colour-vision deficiencies and in grey) and successes/applicable
 * written in each cell; a cell with no applicable task is grey and says "n/a". Writes success_rate_map.dat
 * and the rest of the script gp (which it closes). */
static int success_heat_map(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
                            FILE *gp, const int *app, const int *suc)
{
  int ns = ps->g->n, nx = x->g->n;
  char qt[512], lab[256];
  fprintf(gp,
          "unset grid\nset border 15\nset tics nomirror out\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
          "set xtics (",
          nx - 1, ns - 1);
  for (int i = 0; i < nx; i++) {
    plot_quote(x_text(r, x, i), qt, sizeof qt);
    fprintf(gp, "%s\"%s\" %d", i ? ", " : "", qt, i);
  }
  fprintf(gp, ")\n%sset ytics (", x_crowded(r, x) || nx > 6 ? "set xtics rotate by 45 right\n" : "");
  for (int s = 0; s < ns; s++) {
    plot_quote(ps->label[s], qt, sizeof qt);
    fprintf(gp, "%s\"%s\" %d", s ? ", " : "", qt, s);
  }
  if (r->plot_x[0])
    axis_label(r, r->plot_x, lab, sizeof lab);
  else
    snprintf(lab, sizeof lab, "all tasks");
  plot_quote(lab, qt, sizeof qt);
  fprintf(gp, ")\nset xlabel \"%s\"\n", qt);
  plot_quote(ps->title, qt, sizeof qt);
  fprintf(gp,
          "set ylabel \"%s\"\nset cblabel 'success rate [%%]'\nset cbrange [0:100]\nunset key\n"
          "set palette defined (0 '#67000d', 25 '#d7301f', 50 '#fc8d59', 75 '#fdd49e', 100 '#fff7ec')\n"
          "$cells << EOD\n",
          qt);
  /* the cells inline, so the script stands alone; a NaN cell (no applicable task) is not drawn: the grey
   * background shows */
  for (int s = 0; s < ns; s++)
    for (int i = 0; i < nx; i++) {
      int c = s * nx + i;
      if (app[c])
        fprintf(gp, "%d %d %.6g \"%d/%d\"\n", i, s, 100.0 * suc[c] / app[c], suc[c], app[c]);
      else
        fprintf(gp, "%d %d NaN \"n/a\"\n", i, s);
    }
  fprintf(gp, "EOD\n");
  int w = 260 + 62 * nx, h = 260 + 34 * ns;
  plot_script_png_size(gp, "success_rate",
                       w < 1000   ? 1000
                       : w > 2200 ? 2200
                                  : w,
                       h < 700    ? 700
                       : h > 1600 ? 1600
                                  : h);
  fprintf(gp, "set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#d9d9d9' fs "
              "solid 1.0\n"
              "plot $cells using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \\\n"
              "  $cells using 1:2:(strcol(4)):($3 < 45 ? 0xffffff : 0x000000) with labels font ',8' tc rgb "
              "variable\n");
  return plot_script_close(gp, "success_rate");
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
  if (ns > FACET_MIN || ns * nx > 48) { /* too many bars to read: a heat map, x by series */
    rc = success_heat_map(r, ps, x, gp, app, suc) ? 2 : 0;
    goto cleanup;
  }
  char lab[256];
  if (r->plot_x[0])
    axis_label(r, r->plot_x, lab, sizeof lab);
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

/* The x, series and row filter of the options applied to r (experiment.txt's choice where an option is
 * not given). 0 on success, 2 with a message when an option names no column or a -where item is not
 * name=value. */
static int apply_options(struct rundir *r, const struct plot_options *o)
{
  if (o->x && o->x[0]) {
    if (strcmp(o->x, "none") != 0 && table_column(r->tasks, o->x) < 0) {
      fprintf(stderr, "error: -x %s: %s/tasks.csv has no such column\n", o->x, r->dir);
      return 2;
    }
    /* a new x is logarithmic when positive numbers spanning two decades or more */
    if (strcmp(o->x, r->plot_x) != 0) {
      int col = table_column(r->tasks, o->x);
      double mn = INFINITY, mx = 0.0;
      for (int i = 0; col >= 0 && i < r->tasks->nrow; i++) {
        double v = table_number(r->tasks, i, col);
        mn = v > 0.0 ? fmin(mn, v) : -INFINITY, mx = fmax(mx, v);
      }
      r->log_x = col >= 0 && mn > 0.0 && mx / mn >= 100.0;
    }
    free(r->plot_x);
    if (!(r->plot_x = strdup(strcmp(o->x, "none") == 0 ? "" : o->x))) return 2;
  }
  if (o->series) {
    if (rundir_list_set(&r->series, strcmp(o->series, "none") == 0 ? "" : o->series)) return 2;
    for (int k = 0; k < r->series.n; k++)
      if (table_column(r->tasks, r->series.name[k]) < 0) {
        fprintf(stderr, "error: -series %s: %s/tasks.csv has no column %s\n", o->series, r->dir,
                r->series.name[k]);
        return 2;
      }
  }
  /* a facet that is not a series axis splits the series by it: it goes first */
  if (o->facet && o->facet[0] && rundir_list_find(&r->series, o->facet) < 0) {
    if (table_column(r->tasks, o->facet) < 0) {
      fprintf(stderr, "error: -facet %s: %s/tasks.csv has no such column\n", o->facet, r->dir);
      return 2;
    }
    size_t len = strlen(o->facet) + 2;
    for (int k = 0; k < r->series.n; k++)
      len += strlen(r->series.name[k]) + 1;
    char *list = malloc(len);
    if (!list) return 2;
    strcpy(list, o->facet);
    for (int k = 0; k < r->series.n; k++)
      strcat(strcat(list, ","), r->series.name[k]);
    int bad = rundir_list_set(&r->series, list);
    free(list);
    if (bad) return 2;
  }
  if (!o->where || !o->where[0]) return 0;
  /* -where name=value,...: the rows matching every item (values compared as rundir_group does: text, or
   * equal numbers); several items on one name are alternatives */
  struct rundir_list w = {0, NULL};
  struct table *kept = NULL;
  int rc = 2, *wc = NULL;
  if (rundir_list_set(&w, o->where)) goto cleanup;
  if (!(wc = calloc((size_t)w.n + 1, sizeof *wc))) goto cleanup;
  for (int k = 0; k < w.n; k++) {
    char *eq = strchr(w.name[k], '=');
    if (eq) *eq = '\0';
    if (!eq || (wc[k] = table_column(r->tasks, w.name[k])) < 0) {
      fprintf(stderr, "error: -where %s: %s\n", o->where,
              eq ? "no such column in tasks.csv" : "items are name=value");
      goto cleanup;
    }
  }
  if (!(kept = table_create(r->tasks->ncol, (const char *const *)r->tasks->col))) goto cleanup;
  for (int i = 0; i < r->tasks->nrow; i++) {
    int keep = 1;
    for (int k = 0; k < w.n && keep; k++) {
      int hit = 0;
      for (int j = 0; j < w.n; j++) {
        if (strcmp(w.name[j], w.name[k]) != 0) continue;
        const char *have = table_get(r->tasks, i, wc[j]), *want = w.name[j] + strlen(w.name[j]) + 1;
        char *e1, *e2;
        double a = strtod(have, &e1), b = strtod(want, &e2);
        hit |= strcmp(have, want) == 0 || (have[0] && want[0] && !*e1 && !*e2 && a == b);
      }
      keep = hit;
    }
    if (keep && table_append(kept, (const char *const *)&r->tasks->cell[(size_t)i * r->tasks->ncol]))
      goto cleanup;
  }
  if (!kept->nrow) {
    fprintf(stderr, "error: -where %s leaves no task of %s\n", o->where, r->dir);
    goto cleanup;
  }
  table_destroy(&r->tasks);
  r->tasks = kept, kept = NULL;
  rc = 0;
cleanup:
  table_destroy(&kept);
  free(wc);
  for (int k = 0; k < w.n; k++)
    free(w.name[k]);
  free(w.name);
  return rc;
}

/* Overlay: the tasks of the other runs appended to base's under a new first column "run" (baseline,
 * variant, variant2, ...), which becomes the first series axis, so that every figure draws the same
 * metric of each run. Columns are matched by name; one missing in a later run is left empty. */
static int overlay_runs(struct rundir *base, struct rundir **other, int n_other)
{
  const struct table *t = base->tasks;
  int nc = t->ncol + 1, rc = 2;
  const char **names = calloc((size_t)nc + 1, sizeof *names), **row = calloc((size_t)nc + 1, sizeof *row);
  int *map = calloc((size_t)nc + 1, sizeof *map);
  struct table *all = NULL;
  char tag[32], *series = NULL;
  if (!names || !row || !map) goto cleanup;
  if (table_column(t, "run") >= 0) {
    fprintf(stderr, "error: -overlay: %s/tasks.csv already has a column 'run'\n", base->dir);
    goto cleanup;
  }
  names[0] = "run";
  for (int c = 0; c < t->ncol; c++)
    names[c + 1] = t->col[c];
  if (!(all = table_create(nc, names))) goto cleanup;
  for (int k = -1; k < n_other; k++) {
    const struct table *src = k < 0 ? t : other[k]->tasks;
    if (k < 0)
      snprintf(tag, sizeof tag, "baseline");
    else if (n_other == 1)
      snprintf(tag, sizeof tag, "variant");
    else
      snprintf(tag, sizeof tag, "variant%d", k + 1);
    for (int c = 0; c < t->ncol; c++)
      map[c] = table_column(src, t->col[c]);
    for (int i = 0; i < src->nrow; i++) {
      row[0] = tag;
      for (int c = 0; c < t->ncol; c++)
        row[c + 1] = map[c] >= 0 ? table_get(src, i, map[c]) : "";
      if (table_append(all, row)) goto cleanup;
    }
  }
  size_t len = 8;
  for (int k = 0; k < base->series.n; k++)
    len += strlen(base->series.name[k]) + 1;
  if (!(series = malloc(len))) goto cleanup;
  strcpy(series, "run");
  for (int k = 0; k < base->series.n; k++)
    strcat(strcat(series, ","), base->series.name[k]);
  if (rundir_list_set(&base->series, series)) goto cleanup;
  table_destroy(&base->tasks);
  base->tasks = all, all = NULL;
  base->status_col = table_column(base->tasks, "status");
  rc = 0;
cleanup:
  table_destroy(&all);
  free(names);
  free(row);
  free(map);
  free(series);
  return rc;
}

int plot_runs(int n_dirs, const char *const *dirs, const struct plot_options *o)
{
  struct rundir *r = NULL, *other[16] = {NULL};
  struct plot_series ps = {0};
  struct plot_x x = {0};
  struct plot_facets f = {0};
  char dir[SWEEP_PATH_MAX + 16], path[SWEEP_PATH_MAX + 64];
  char *made[256];
  int n_made = 0, rc = 2, n_other = n_dirs - 1;
  if (n_dirs < 1 || n_other > 16) goto cleanup;
  if (rundir_read(dirs[0], &r)) goto cleanup;
  for (int k = 0; k < n_other; k++)
    if (rundir_read(dirs[k + 1], &other[k])) goto cleanup;
  if (n_other && overlay_runs(r, other, n_other)) goto cleanup;
  if (apply_options(r, o)) goto cleanup;
  rc = 1;
  if (o->out && o->out[0]) {
    if (sweep_path(dir, sizeof dir, "%s", o->out)) goto cleanup;
  } else if (sweep_path(dir, sizeof dir, "%s/plots", dirs[0]))
    goto cleanup;
  if (mkdir(dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "error: cannot create %s: %s\n", dir, strerror(errno));
    goto cleanup;
  }
  if (plot_series_make(r, &ps) || plot_x_make(r, &x)) goto cleanup;
  /* an overlay with many series: one panel per series of the runs, baseline and variant side by side */
  /* an overlay of runs with the same series: each series keeps its colour, the variants dashed and open */
  int period = n_other && r->series.n > 1 && ps.g->n % n_dirs == 0 ? ps.g->n / n_dirs : 0;
  if (facets_make(r, &ps,
                  o->facet && o->facet[0]                             ? o->facet
                  : n_other && ps.g->n > FACET_MIN && r->series.n > 1 ? r->series.name[1]
                                                                      : NULL,
                  &f))
    goto cleanup;
  f.period = f.n == 1 ? period : 0;
  /* each plot: its name, made only when it has something to show */
  for (int pass = 0; pass < 2; pass++) {
    const struct rundir_list *cols = pass ? &r->costs : &r->metrics;
    for (int k = 0; k < cols->n && n_made < 250; k++) {
      int st = plot_stat(r, &ps, &x, &f, dir, pass ? "cost" : "accuracy", cols->name[k]);
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
  facets_free(&f);
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
