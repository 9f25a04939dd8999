/* plot_stat.c — the "median and interquartile range against x" plot of one accuracy metric or cost, per
 * series: log y only when the values span more than SPAN_LOG; what a log axis cannot show (<= 0,
 * rounding noise) clamped to a floor and marked, failed cells marked on the bottom, identical series
 * shifted and drawn open, many series split into panels (plot_facets.c). A share column (0/1 per task,
 * sweep.h) is drawn as its share with the Wilson 95 % interval (share.h) in place of median and quartiles. */
#include "cellstats.h"
#include "plot_impl.h"
#include "share.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPAN_LOG 30.0 /* max/min of the positive values above which y is logarithmic */
/* On a log y, values under this are drawn at it and marked: double rounding of quantities of order one
 * (errors, residuals, drifts) is about 1e-16 to 1e-13, and their ups and downs there are not a trend. */
#define NOISE_FLOOR 1e-13

/* 1 when two numbers agree to rounding (relative 1e-9): identical series and flat data. */
static int same_value(double a, double b)
{
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) || a == b;
}

/* Series t drawn exactly under series s: the same cells present and the same median and quartiles. */
static int same_series(const double *q, const int *count, int nx, int s, int t)
{
  int drawn = 0; /* two series with nothing drawn do not repeat each other */
  for (int i = 0; i < nx; i++) {
    int a = s * nx + i, b = t * nx + i;
    if ((count[a] > 0) != (count[b] > 0)) return 0;
    drawn += count[a] > 0;
    for (int j = 0; count[a] && j < 3; j++)
      if (!same_value(q[3 * a + j], q[3 * b + j])) return 0;
  }
  return drawn > 0;
}

/* The y axis: logarithmic, or linear (flat: the data agree to rounding); the floor values under which are
 * drawn at it (log; the lowest value on a linear axis), the range [y0, y1] and the height of the failed
 * marks; lo and hi: the smallest and largest positive values (lo raised to the floor on a log axis). */
struct stat_axis {
  int log_y, flat;
  double lo, hi, floor_y, y0, y1, y_fail;
};

/* One plot: the statistics of its cells (series s at x position i: cell s * nx + i), the axis, and how the
 * data file is laid out. */
struct stat_plot {
  const struct rundir *r;
  const struct plot_series *ps;
  const struct plot_x *x;
  const struct plot_facets *f;
  const char *col_name;
  int share; /* a share column: q holds the share and its Wilson interval */
  int ns, nx;
  double *q;           /* median, q1, q3 per cell (cell_stats) */
  int *count, *failed; /* successful and failed tasks per cell */
  int *dup;            /* the earlier series that series s repeats exactly, or -1 */
  double *xs;          /* the x each cell is drawn at */
  int *block;          /* the data block of series s, or -1 when it has no successful cell */
  int mark_block;      /* the block of panel 0's failed marks; its clamped marks follow, then panel 1's */
  int *marks;          /* per panel: failed marks, clamped marks */
  int n_failed, n_clamped, n_dup;
  int crowded;             /* a panel has more than BAND_MAX series: no bands */
  int single;              /* no cell has more than one task: each point is a task's value */
  int heat;                /* a share column of more than BAND_MAX series in a panel: drawn as a map */
  struct plot_facets kept; /* the facets less the panels with nothing to draw (stat_leave_out_panels) */
  char left_out[256];      /* their names */
  struct stat_axis ax;
  char name[256], file[300];
};

static void stat_plot_free(struct stat_plot *sp)
{
  free(sp->q);
  free(sp->count);
  free(sp->failed);
  free(sp->dup);
  free(sp->xs);
  free(sp->block);
  free(sp->marks);
  free(sp->kept.panel);
  free(sp->kept.name);
}

/* The panels with something to draw (a value or a failed cell) when there are two or more of them: a panel
 * with neither (a column not measured for its series: matches_paper of stewart_trinkle) took a grid cell
 * to say "no value"; it is left out and named in the title's notes. sp->f then points at sp->kept, a copy
 * of the facets whose panel numbers skip it (its series in panel -1, drawn nowhere). 0, or 1. */
static int stat_leave_out_panels(struct stat_plot *sp)
{
  const struct plot_facets *f = sp->f;
  int *to = calloc((size_t)f->n + 1, sizeof *to), n_kept = 0;
  if (!to) return 1;
  for (int c = 0; c < sp->ns * sp->nx; c++)
    if (sp->count[c] || sp->failed[c]) to[f->panel[c / sp->nx]] = 1;
  for (int p = 0; p < f->n; p++)
    n_kept += to[p];
  if (n_kept < 2 || n_kept == f->n) {
    free(to);
    return 0;
  }
  sp->kept = *f;
  sp->kept.panel = calloc((size_t)sp->ns + 1, sizeof *sp->kept.panel);
  sp->kept.name = calloc((size_t)n_kept + 1, sizeof *sp->kept.name);
  if (!sp->kept.panel || !sp->kept.name) {
    free(to);
    return 1;
  }
  sp->kept.n = 0;
  for (int p = 0, at = 0; p < f->n; p++) {
    if (!to[p]) {
      at += snprintf(sp->left_out + at, sizeof sp->left_out - (size_t)at, "%s%s", at ? ", " : "", f->name[p]);
      if (at >= (int)sizeof sp->left_out) at = (int)sizeof sp->left_out - 1;
    }
    to[p] = to[p] ? sp->kept.n++ : -1;
    if (to[p] >= 0) sp->kept.name[to[p]] = f->name[p]; /* borrowed */
  }
  for (int s = 0; s < sp->ns; s++)
    sp->kept.panel[s] = to[f->panel[s]];
  sp->f = &sp->kept;
  free(to);
  return 0;
}

/* 0, or 1 when an allocation failed (sp is then still safe to free). */
static int stat_plot_alloc(struct stat_plot *sp)
{
  size_t ns = (size_t)sp->ns, cells = ns * (size_t)sp->nx;
  sp->q = calloc(3 * cells + 1, sizeof *sp->q);
  sp->count = calloc(cells + 1, sizeof *sp->count);
  sp->failed = calloc(cells + 1, sizeof *sp->failed);
  sp->dup = calloc(ns + 1, sizeof *sp->dup);
  sp->xs = calloc(cells + 1, sizeof *sp->xs);
  sp->block = calloc(ns + 1, sizeof *sp->block);
  sp->marks = calloc((size_t)2 * sp->f->n + 1, sizeof *sp->marks);
  return !sp->q || !sp->count || !sp->failed || !sp->dup || !sp->xs || !sp->block || !sp->marks;
}

/* The y axis of the cells with a success; 0 when there is none. Its range is set here, not by gnuplot, so
 * that the marks under the data have their place. */
static int stat_axis_make(struct stat_plot *sp)
{
  const double *q = sp->q;
  const int *count = sp->count;
  int n_cells = sp->ns * sp->nx;
  struct stat_axis *ax = &sp->ax;
  double lo = INFINITY, hi = 0.0, lin_lo = INFINITY, lin_hi = -INFINITY;
  int any = 0;
  for (int c = 0; c < n_cells; c++) {
    if (!count[c]) continue;
    any = 1;
    for (int j = 0; j < 3; j++) {
      double v = q[3 * c + j];
      if (v > 0.0) lo = fmin(lo, v), hi = fmax(hi, v);
      lin_lo = fmin(lin_lo, v), lin_hi = fmax(lin_hi, v);
    }
  }
  if (!any) return 0;
  ax->log_y = !sp->share && hi > 0.0 && hi / lo > SPAN_LOG; /* a share is read on a linear scale */
  if (sp->share) { /* 0 to 1 whatever the data, room under 0 only for the failed marks */
    ax->y0 = sp->n_failed ? -0.16 : -0.04, ax->y1 = 1.04, ax->y_fail = -0.11, ax->floor_y = 0.0;
    ax->lo = lo, ax->hi = hi;
    return 1;
  }
  /* the floor: 1e-12 of the largest value, and at least NOISE_FLOOR (a trend under it is rounding) */
  ax->floor_y = ax->log_y ? fmax(lo, fmin(hi, fmax(hi * 1e-12, NOISE_FLOOR))) : lin_lo;
  ax->flat = !ax->log_y && same_value(lin_lo, lin_hi);
  if (ax->log_y) {
    lo = ax->floor_y;
    /* room under the floor for the failed marks: a fixed share of the decades shown */
    double decades = log10(hi * 2.0 / lo);
    ax->y0 = lo / pow(10.0, (sp->n_failed ? 0.16 : 0.06) * decades), ax->y1 = hi * 2.0;
    ax->y_fail = lo / pow(10.0, 0.1 * decades);
  } else if (ax->flat) { /* flat to rounding: a range round the value, so the noise stays flat */
    double c = 0.5 * (lin_lo + lin_hi), half = c != 0.0 ? 0.1 * fabs(c) : 1.0;
    ax->y0 = c - half, ax->y1 = c + half, ax->y_fail = c - 0.85 * half;
  } else { /* room under the data for the failed marks only when there are some; times and counts, never
            * negative, do not get an axis reaching far under 0 */
    double span = lin_hi - lin_lo;
    ax->y0 = lin_lo - (sp->n_failed ? 0.16 : 0.06) * span, ax->y1 = lin_hi + 0.08 * span;
    ax->y_fail = lin_lo - 0.11 * span;
    if (!sp->n_failed && lin_lo >= 0.0) ax->y0 = fmax(ax->y0, -0.02 * span);
  }
  ax->lo = lo, ax->hi = hi;
  return 1;
}

/* The series drawn exactly over an earlier one in the same panel (dup), and how many there are. */
static void stat_find_duplicates(struct stat_plot *sp)
{
  const struct plot_facets *f = sp->f;
  for (int s = 0; s < sp->ns; s++) {
    sp->dup[s] = -1;
    for (int t = 0; t < s && sp->dup[s] < 0; t++)
      if (f->panel[t] == f->panel[s] && sp->dup[t] < 0 && same_series(sp->q, sp->count, sp->nx, s, t))
        sp->dup[s] = t;
    sp->n_dup += sp->dup[s] >= 0;
  }
}

/* x of series s at position i: categories side by side within a category, a repeated series shifted. */
static void stat_x_positions(struct stat_plot *sp)
{
  const struct plot_x *x = sp->x;
  const struct plot_facets *f = sp->f;
  int ns = sp->ns, nx = sp->nx, most = 1;
  double span_x = x->numeric && nx > 1 ? x->value[nx - 1] - x->value[0] : 1.0;
  for (int s = 0; s < ns; s++) { /* the most repeats of one series: their shifts share 4 % of the span */
    int rank = 1;
    for (int t = 0; t < s && sp->dup[s] >= 0; t++)
      rank += sp->dup[t] == sp->dup[s];
    if (sp->dup[s] >= 0 && rank > most) most = rank;
  }
  double shift = fmin(0.012, 0.04 / most);
  for (int s = 0; s < ns; s++) {
    int rank = 0, at = 0, in_panel = 0; /* at: its place among the series of its panel */
    for (int t = 0; t < ns; t++) {
      rank += t < s && sp->dup[s] >= 0 && sp->dup[t] == sp->dup[s];
      at += t < s && f->panel[t] == f->panel[s];
      in_panel += f->panel[t] == f->panel[s];
    }
    rank += sp->dup[s] >= 0;
    for (int i = 0; i < nx; i++) {
      double xv = x->value[i];
      if (!x->numeric)
        xv += (at - 0.5 * (in_panel - 1)) * fmin(0.15, 0.6 / in_panel);
      else if (sp->r->log_x && x->value[0] > 0.0)
        xv *= pow(1.0 + 3.0 * shift, rank);
      else
        xv += shift * span_x * rank;
      sp->xs[s * nx + i] = xv;
    }
  }
}

/* A block per series with a successful cell: x, median, q1, q3, count (on a log axis clamped to the floor,
 * and counted in n_clamped). The number of blocks. */
static int stat_write_series(FILE *dat, struct stat_plot *sp)
{
  int nb = 0, nx = sp->nx;
  for (int s = 0; s < sp->ns; s++) {
    sp->block[s] = -1;
    for (int i = 0; i < nx; i++) {
      int c = s * nx + i;
      if (!sp->count[c]) continue;
      double med = sp->q[3 * c], q1 = sp->q[3 * c + 1], q3 = sp->q[3 * c + 2], floor_y = sp->ax.floor_y;
      if (sp->block[s] < 0) fprintf(dat, "%s# %s\n", nb ? "\n\n" : "", sp->ps->label[s]), sp->block[s] = nb++;
      if (sp->ax.log_y) { /* clamp to the floor (marked below) */
        sp->n_clamped += !(med >= floor_y);
        med = fmax(med, floor_y), q1 = fmax(q1, floor_y), q3 = fmax(q3, floor_y);
      }
      fprintf(dat, "%.17g %.17g %.17g %.17g %d\n", sp->xs[c], med, q1, q3, sp->count[c]);
    }
  }
  return nb;
}

/* The marks after the nb series blocks, per panel: failed cells on the bottom (block mark_block + 2 p),
 * clamped medians at the floor (+ 1); x, y, colour, or one NaN line when there are none. */
static void stat_write_marks(FILE *dat, struct stat_plot *sp, int nb)
{
  const struct plot_facets *f = sp->f;
  int ns = sp->ns, nx = sp->nx;
  double floor_y = sp->ax.floor_y;
  sp->mark_block = nb;
  for (int p = 0; p < f->n; p++) {
    int n_f = 0, n_c = 0;
    fprintf(dat, "%s# panel %d, failed: every task of the cell failed (x, y on the bottom, colour)\n",
            nb || p ? "\n\n" : "", p);
    for (int c = 0; c < ns * nx; c++)
      if (f->panel[c / nx] == p && !sp->count[c] && sp->failed[c])
        fprintf(dat, "%.17g %.17g %ld\n", sp->xs[c], sp->ax.y_fail, plot_color_int(plot_look(f, c / nx))),
            n_f++;
    if (!n_f) fprintf(dat, "NaN NaN 0\n");
    fprintf(dat, "\n\n# panel %d, clamped: medians under the floor %.3g drawn at it\n", p, floor_y);
    for (int c = 0; sp->ax.log_y && c < ns * nx; c++)
      if (f->panel[c / nx] == p && sp->count[c] && !(sp->q[3 * c] >= floor_y))
        fprintf(dat, "%.17g %.17g %ld\n", sp->xs[c], floor_y, plot_color_int(plot_look(f, c / nx))), n_c++;
    if (!n_c) fprintf(dat, "NaN NaN 0\n");
    sp->marks[2 * p] = n_f, sp->marks[2 * p + 1] = n_c;
  }
}

/* NAME.dat: the series, then the marks. 0, or 1 on a write error. */
static int stat_write_data(struct stat_plot *sp, const char *dir)
{
  FILE *dat = plot_data_open(dir, sp->file);
  if (!dat) return 1;
  const struct rundir *r = sp->r;
  fprintf(dat,
          "# %s: median, q1, q3 and count of %s over the successful tasks, per %s and %s; after the series "
          "the blocks 'failed' and 'clamped' (x, y, colour)\n",
          r->title, sp->col_name, r->plot_x[0] ? r->plot_x : "run", sp->ps->title);
  stat_write_marks(dat, sp, stat_write_series(dat, sp));
  return plot_file_close(dat, dir, sp->file);
}

/* The y label, tics, range, and the dotted line the marks sit on. */
static void stat_write_y_axis(FILE *gp, const struct stat_plot *sp)
{
  const struct stat_axis *ax = &sp->ax;
  char lab[256], qt[512];
  if (sp->share) /* the share, not the 0/1 of a task the help text describes (that is in the title) */
    snprintf(lab, sizeof lab, "share of tasks with %s = 1", sp->col_name);
  else
    plot_axis_label(sp->r, sp->col_name, lab, sizeof lab);
  plot_quote(lab, qt, sizeof qt);
  /* "higher is better" goes under the title: along the axis it would push a long label off the panel */
  fprintf(gp, "set ylabel \"%s\"\n", qt);
  if (ax->log_y &&
      ax->hi / ax->lo < 1e3) { /* under three decades: tics at 1, 2, 5 x 10^k, or there are only one or two */
    fprintf(gp, "set logscale y\nset format y '%%g'\nset ytics (");
    for (int k = (int)floor(log10(ax->y0)), first_tic = 1; k <= (int)ceil(log10(ax->hi)); k++)
      for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
        fprintf(gp, "%s%.0e", first_tic ? "" : ", ", m * pow(10.0, k)), first_tic = 0;
    fprintf(gp, ")\n");
  } else if (ax->log_y) /* plain numbers while they are short ("1000", not "1e+03"), else 1e-07 */
    fprintf(gp, "set logscale y\nset format y '%s'\n", ax->lo >= 1e-4 && ax->hi <= 1e5 ? "%g" : "%.0e");
  else if (ax->flat)
    fprintf(gp, "set format y '%%.6g'\n");
  else if (sp->share)
    fprintf(gp, "set format y '%%g'\nset ytics 0,0.2,1\n");
  else /* gnuplot's own format rounds 6.5e-05 and 7e-05 both to "0.00007" */
    fprintf(gp, "set format y '%%g'\n");
  fprintf(gp, "set yrange [%.17g:%.17g]\n", ax->y0, ax->y1);
  if (sp->n_failed || sp->n_clamped)
    fprintf(gp, "set arrow from graph 0, first %.17g to graph 1, first %.17g nohead lc rgb '#bbbbbb' dt 3\n",
            sp->n_failed ? ax->y_fail : ax->floor_y, sp->n_failed ? ax->y_fail : ax->floor_y);
}

/* The characters of the widest y tic label (as stat_write_y_axis formats them), for the panels' left
 * margin. Linear tics as gnuplot steps them: 1, 2 or 5 x 10^k, four to ten of them. */
static int stat_ytic_chars(const struct stat_plot *sp)
{
  const struct stat_axis *ax = &sp->ax;
  char buf[64];
  int longest = 1, plain = ax->lo >= 1e-4 && ax->hi <= 1e5;
  if (sp->share) return 3;
  if (ax->log_y && !plain) return 5;
  if (ax->log_y) {
    for (int k = (int)floor(log10(ax->y0)); k <= (int)ceil(log10(ax->y1)); k++)
      for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
        int len = snprintf(buf, sizeof buf, "%g", m * pow(10.0, k));
        if (len > longest) longest = len;
      }
    return longest;
  }
  double range = ax->y1 - ax->y0, step = pow(10.0, ceil(log10(range)));
  for (int k = 0; range / step < 4.0 && k < 12; k++)
    step /= k % 3 == 1 ? 2.5 : 2.0; /* 1 -> 0.5 -> 0.2 -> 0.1 */
  for (double v = ceil(ax->y0 / step) * step; v <= ax->y1 && range > 0.0; v += step) {
    int len = snprintf(buf, sizeof buf, ax->flat ? "%.6g" : "%g", fabs(v) < 1e-9 * step ? 0.0 : v);
    if (len > longest) longest = len;
  }
  return longest;
}

/* The cells with a value. */
static int stat_cells(const struct stat_plot *sp)
{
  int n = 0;
  for (int c = 0; c < sp->ns * sp->nx; c++)
    n += sp->count[c] > 0;
  return n;
}

/* The notes under the title, "; " between those that apply, a new line instead once a line would pass ~90
 * characters (a 1000-px title holds about 110). over: the note on the axes aggregated over. */
static void stat_notes(const struct stat_plot *sp, const char *over, char *notes, size_t size)
{
  char left_out[300] = "";
  if (sp->left_out[0]) snprintf(left_out, sizeof left_out, "no value (not measured) for %s", sp->left_out);
  const char *note[] = {
      over[0] ? over : NULL,
      rundir_list_find(&sp->r->higher_better, sp->col_name) >= 0 ? "higher is better" : NULL,
      sp->n_failed && !sp->heat ? "x on the bottom: every task failed" : NULL,
      sp->n_clamped ? "open triangles: under the floor, drawn at it" : NULL,
      sp->n_dup && !sp->heat ? sp->x->numeric ? "open points shifted right: same values as an earlier series"
                                              : "open points: same values as an earlier series"
                             : NULL, /* categories stand side by side: nothing is shifted */
      sp->ax.flat && stat_cells(sp) > 1 ? "flat to rounding" : NULL, /* one point is not flat */
      sp->crowded ? "no quartile bands: more than 5 series in a panel (summary.csv has them)" : NULL,
      left_out[0] ? left_out : NULL};
  notes[0] = '\0';
  for (size_t k = 0, at = 0, line = 0; k < sizeof note / sizeof note[0] && at < size; k++)
    if (note[k]) {
      size_t len = strlen(note[k]);
      const char *sep = !at ? "" : line + 2 + len > 90 ? "\\n" : "; ";
      line = (sep[0] == '\\' ? 0 : line + strlen(sep)) + len;
      at += (size_t)snprintf(notes + at, size - at, "%s%s", sep, note[k]);
    }
}

/* The figure's title text, quoted for gnuplot ("\\n" between its lines), its lines broken to fit width
 * pixels. */
static void stat_title_text(const struct stat_plot *sp, const char *over, int width, char *head, size_t len)
{
  char notes[1024], qt[512], ynote[600], ynote_q[1300];
  stat_notes(sp, over, notes, sizeof notes);
  plot_quote(sp->r->title, qt, sizeof qt);
  if (sp->share) { /* the y label says "share of tasks with NAME = 1": what a 1 is, always */
    char help[512];
    rundir_help_label(sp->r, sp->col_name, help, sizeof help);
    snprintf(ynote, sizeof ynote, "%s: %s", sp->col_name, help);
  } else
    plot_axis_note(sp->r, "y", sp->col_name, ynote, sizeof ynote);
  plot_quote(ynote, ynote_q, sizeof ynote_q);
  char what[300];
  if (sp->heat) /* a share column of many series: its map */
    snprintf(what, sizeof what,
             "share of tasks with %s = 1 (colour) over the tasks that ran (status ok); in each cell: tasks "
             "with 1 / tasks that ran",
             sp->col_name);
  else if (sp->single) /* a median and quartiles of one task are its value */
    snprintf(what, sizeof what, "the value of each cell's one %s (%s)",
             sp->share ? "task that ran (status ok)" : "successful task", sp->x->numeric ? "line" : "point");
  else
    snprintf(what, sizeof what, "%s (%s) and %s (%s) over the %s",
             sp->share ? "share of tasks with 1" : "median", sp->x->numeric ? "line" : "point",
             sp->share ? "Wilson 95 % interval" : "interquartile range", sp->x->numeric ? "band" : "bar",
             sp->share ? "tasks that ran (status ok)" : "successful tasks");
  snprintf(head, len, "%s\\n%s%s%s%s%s", qt, what, notes[0] ? "\\n" : "", notes, ynote[0] ? "\\n" : "",
           ynote_q);
  plot_wrap(head, len, PLOT_TITLE_CHARS(width));
}

/* The title (the run's, what is drawn, the notes, the y label's whole definition when the label had to be
 * cut), as the multiplot's over the panels; the key's columns and title. */
static void stat_write_title(FILE *gp, const struct stat_plot *sp, const char *over, int width)
{
  const struct plot_facets *f = sp->f;
  char head[4096];
  stat_title_text(sp, over, width, head, sizeof head);
  if (f->n > 1) /* no layout: each panel's margins are set (plot_grid_panel) */
    fprintf(gp, "set multiplot title \"%s\"\n", head);
  else
    fprintf(gp, "set title \"%s\"\n", head);
  /* a reader of "closest / lemke / 0" learns what each part is */
  plot_write_key_title(gp, sp->r, f->key_title, f->n == 1);
}

/* Whether series s gets its interquartile band: not when its panel has more than BAND_MAX series. */
static int stat_bands(const struct stat_plot *sp, int s) { return sp->f->in_size[s] <= BAND_MAX; }

/* The plot clauses of series s (with a data block): its band or error bars, then its median line. */
static void stat_write_series_plot(FILE *gp, const struct stat_plot *sp, int s, int first)
{
  const struct plot_facets *f = sp->f;
  int look = plot_look(f, s), dup = sp->dup[s], block = sp->block[s];
  char key[600], qt[512]; /* a key longer than qt holds is cut */
  if (dup >= 0)
    snprintf(key, sizeof key, "%s (= %s)", f->panel_label[s], f->panel_label[dup]);
  else
    snprintf(key, sizeof key, "%s", f->panel_label[s]);
  plot_quote(key, qt, sizeof qt);
  /* the band needs two x values; a single point gets error bars instead */
  int npts = 0;
  for (int i = 0; i < sp->nx; i++)
    npts += sp->count[s * sp->nx + i] > 0;
  /* a light band with dashed edges in the series colour: overlapping bands stay tellable apart; none for a
   * repeat (its band is the earlier series') nor in a crowded panel (stat_bands) */
  int band = dup < 0 && (stat_bands(sp, s) || !sp->x->numeric);
  if (band && npts > 1 && sp->x->numeric)
    fprintf(gp,
            "%s \\\n  '%s' index %d using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb "
            "'%s' notitle, \\\n  '%s' index %d using 1:3 with lines lw 0.8 dt 2 lc rgb '%s' notitle, \\\n"
            "  '%s' index %d using 1:4 with lines lw 0.8 dt 2 lc rgb '%s' notitle",
            first ? "" : ",", sp->file, block, plot_color(look), sp->file, block, plot_color(look), sp->file,
            block, plot_color(look));
  else if (band)
    fprintf(gp, "%s \\\n  '%s' index %d using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '%s' notitle",
            first ? "" : ",", sp->file, block, plot_color(look));
  /* categories are not a continuum: points only, no line between them */
  fprintf(gp, "%s \\\n  '%s' index %d using 1:2 with %s lw %.2g pt %d ps %.2g dt %d lc rgb '%s' title \"%s\"",
          band || !first ? "," : "", sp->file, block, sp->x->numeric ? "linespoints" : "points",
          plot_look_width(f, s, sp->ns),
          dup >= 0 || plot_variant(f, s) ? plot_point_hollow(look) : plot_point(look), dup >= 0 ? 1.6 : 1.3,
          plot_variant(f, s) ? 2
          : f->base_of       ? 1
                             : plot_dash(look),
          plot_color(look), qt);
}

/* The key columns of panel p that fit across width pixels for every entry of its key (stat_write_panel's
 * titles): from the series labels alone, a key with "lemke (every task failed)" or "failed (no successful
 * task)" got fewer columns from gnuplot than its band was made for, and ran over the panel under it. */
static int stat_key_cols(const struct stat_plot *sp, int p, int width)
{
  char longest[700] = "", e[700];
  for (int s = 0; s < sp->ns; s++) {
    if (sp->f->panel[s] != p) continue;
    const char *l = sp->f->panel_label[s];
    if (sp->dup[s] >= 0)
      snprintf(e, sizeof e, "%s (= %s)", l, sp->f->panel_label[sp->dup[s]]);
    else
      snprintf(e, sizeof e, "%s%s", l, sp->block[s] < 0 ? " (every task failed)" : "");
    if (strlen(e) > strlen(longest)) snprintf(longest, sizeof longest, "%s", e);
  }
  if (sp->marks[2 * p] && strlen(longest) < sizeof "failed (no successful task)")
    snprintf(longest, sizeof longest, "failed (no successful task)");
  if (sp->marks[2 * p + 1] && strlen(longest) < sizeof "clamped (under 1e-13)")
    snprintf(longest, sizeof longest, "clamped (under 1e-13)");
  const char *one = longest;
  return plot_key_cols(&one, 1, width);
}

/* The plot command of panel p: its series, a key entry for each series with failures only, a word when
 * there is nothing to draw, and the panel's marks. */
static void stat_write_panel(FILE *gp, const struct stat_plot *sp, const struct plot_grid *grid, int width,
                             int p)
{
  const struct plot_facets *f = sp->f;
  char qt[512];
  fprintf(gp, "set key maxcols %d\n", stat_key_cols(sp, p, width));
  if (f->n > 1) {
    plot_grid_panel(gp, grid, p);
    plot_quote(f->name[p], qt, sizeof qt);
    fprintf(gp, "set title \"%s\"\n", qt);
  }
  fprintf(gp, "plot");
  int first = 1;
  for (int s = 0; s < sp->ns; s++)
    if (f->panel[s] == p && sp->block[s] >= 0) stat_write_series_plot(gp, sp, s, first), first = 0;
  /* a series with no successful cell at all still gets its key entry (its crosses are in its colour), or
   * its failures would be the only trace of it, under no name */
  for (int s = 0; s < sp->ns; s++) {
    int n_fail = 0;
    for (int i = 0; i < sp->nx; i++)
      n_fail += sp->failed[s * sp->nx + i] > 0;
    if (f->panel[s] != p || sp->block[s] >= 0 || !n_fail) continue;
    plot_quote(f->panel_label[s], qt, sizeof qt);
    fprintf(gp, "%s \\\n  NaN with points pt 2 ps 1.6 lw 2 lc rgb '%s' title \"%s (every task failed)\"",
            first ? "" : ",", plot_color(plot_look(f, s)), qt);
    first = 0;
  }
  /* a panel with nothing to draw says so (the column is empty for its series: not measured there) */
  if (first && !sp->marks[2 * p])
    fprintf(gp, " NaN notitle, \\\n  NaN with points lc rgb '#ffffff' title \"(no value: not measured for "
                "these series)\"");
  else if (first)
    fprintf(gp, " NaN notitle");
  /* the marks of the panel, their points in the series colour, and a grey key entry for them */
  if (sp->marks[2 * p])
    fprintf(gp,
            ", \\\n  '%s' index %d using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \\\n"
            "  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title \"failed (no successful task)\"",
            sp->file, sp->mark_block + 2 * p);
  if (sp->marks[2 * p + 1])
    fprintf(gp,
            ", \\\n  '%s' index %d using 1:2:3 with points pt 10 ps 2.2 lw 1.5 lc rgb variable notitle, \\\n"
            "  NaN with points pt 10 ps 2 lc rgb '#444444' title \"clamped (under %.2g)\"",
            sp->file, sp->mark_block + 2 * p + 1, sp->ax.floor_y);
  fprintf(gp, "\n");
}

/* The entries of panel p's key (stat_write_panel's titled clauses). */
static int stat_key_entries(const struct stat_plot *sp, int p)
{
  int n = 0, any = 0;
  for (int s = 0; s < sp->ns; s++) {
    if (sp->f->panel[s] != p) continue;
    int n_fail = 0;
    for (int i = 0; i < sp->nx; i++)
      n_fail += sp->failed[s * sp->nx + i] > 0;
    any += sp->block[s] >= 0 || n_fail;
    n += sp->block[s] >= 0 || n_fail;
  }
  return n + !any + (sp->marks[2 * p] > 0) + (sp->marks[2 * p + 1] > 0);
}

/* The panels' grid: the title's lines over it, the x tics, and room for the largest key. */
static struct plot_grid stat_grid(const struct stat_plot *sp, const char *head, int width)
{
  int lines = 1, rows = 1;
  for (const char *c = head; *c; c++)
    lines += c[0] == '\\' && c[1] == 'n';
  for (int p = 0; p < sp->f->n; p++) {
    int k = plot_key_rows(stat_key_entries(sp, p), stat_key_cols(sp, p, width));
    if (k > rows) rows = k;
  }
  struct plot_grid g = plot_grid_make(sp->f->n, lines, plot_x_tics_px(sp->r, sp->x), rows);
  g.left = plot_grid_left(stat_ytic_chars(sp));
  return g;
}

/* A share column of many series (stat_plot.heat): the map of its shares, series by x (plot_heat_map), the
 * tasks with 1 and the tasks that ran written in each cell. 0, or 1 on a write error. */
static int stat_write_heat_map(FILE *gp, struct stat_plot *sp, const char *over, const char *dir)
{
  int n = sp->ns * sp->nx, rc = 1;
  int *ones = calloc((size_t)n + 1, sizeof *ones);
  char head[4096], cb[300];
  if (!ones) {
    fclose(gp);
    return 1;
  }
  for (int c = 0; c < n; c++) /* the share of count[c] 0/1 values is a whole number of them */
    ones[c] = sp->count[c] ? (int)lround(sp->q[3 * c] * sp->count[c]) : 0;
  stat_title_text(sp, over, plot_heat_map_width(sp->nx) - 200, head, sizeof head);
  fprintf(gp, "set title \"%s\"\n", head);
  snprintf(cb, sizeof cb, "share of tasks with %s = 1 [%%]", sp->col_name);
  rc = plot_heat_map(sp->r, sp->ps, sp->x, gp, dir, sp->name, sp->count, ones, cb);
  free(ones);
  return rc;
}

/* One "median and IQR band vs x" plot of column col: NAME.dat, NAME.gp. 0 written, 1 nothing to plot
 * (no successful or failed task anywhere), 2 write error. The y range is set here, not by gnuplot, so
 * that the marks under the data have their place: a cell whose tasks all failed is a cross on the bottom
 * of the frame ("failed"); on a log axis a value under the floor (<= 0, under 1e-12 of the largest or
 * under NOISE_FLOOR: rounding noise) is drawn at the floor as an open triangle ("clamped"); data flat to
 * rounding get a range round their value instead of a magnified noise; a series identical to an earlier one
 * is drawn with open points, shifted a little right, and its key says which one it repeats. */
int plot_stat(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
              const struct plot_facets *f, const struct cellstats *cells, int col, const char *dir,
              const char *kind, const char *col_name)
{
  struct stat_plot sp = {.r = r,
                         .ps = ps,
                         .x = x,
                         .f = f,
                         .col_name = col_name,
                         .share = rundir_list_find(&r->shares, col_name) >= 0,
                         .ns = ps->g->n,
                         .nx = x->g->n};
  int rc = 2;
  FILE *gp = NULL;
  if (stat_plot_alloc(&sp)) goto cleanup;
  for (int c = 0; c < sp.ns * sp.nx; c++) {
    memcpy(sp.q + 3 * c, cellstats_q(cells, c, col), 3 * sizeof *sp.q);
    sp.count[c] = cellstats_count(cells, c, col), sp.failed[c] = cells->failed[c];
  }
  if (stat_leave_out_panels(&sp)) goto cleanup;
  f = sp.f;
  sp.single = !sp.share; /* a share of one task still has its Wilson interval */
  for (int c = 0; c < sp.ns * sp.nx; c++)
    sp.n_failed += !sp.count[c] && sp.failed[c], sp.single &= sp.count[c] <= 1;
  for (int s = 0; s < sp.ns; s++)
    sp.crowded |= !stat_bands(&sp, s) && x->numeric && !sp.single;
  sp.heat = sp.share && sp.crowded;
  sp.crowded &= !sp.heat;
  rc = 1;
  if (!stat_axis_make(&sp)) goto cleanup;
  rc = 2;
  stat_find_duplicates(&sp);
  stat_x_positions(&sp);
  snprintf(sp.name, sizeof sp.name, "%s_%s", kind, col_name);
  snprintf(sp.file, sizeof sp.file, "%s.dat", sp.name);
  if (stat_write_data(&sp, dir)) goto cleanup;
  char over[512], what[1024];
  plot_aggregated_over(r, over, sizeof over);
  snprintf(what, sizeof what, "%s vs %s: %s per %s", col_name, r->plot_x[0] ? r->plot_x : "run",
           sp.heat    ? "share of tasks with 1 per cell (a map, series by x)"
           : sp.share ? "share of tasks with 1 (line) and Wilson 95 % interval (band)"
                      : "median (line) and interquartile range (band)",
           ps->title);
  if (!(gp = plot_script_open(dir, sp.name, what))) goto cleanup;
  if (sp.heat) {
    rc = stat_write_heat_map(gp, &sp, over, dir) ? 2 : 0;
    goto cleanup;
  }
  plot_write_x_axis(gp, r, x);
  stat_write_y_axis(gp, &sp);
  struct plot_layout lay = plot_layout_panels(f->n);
  int panel_w = f->n > 1 ? lay.width / lay.cols : lay.width;
  struct plot_grid grid = {0};
  if (f->n > 1) {
    char head[4096];
    stat_title_text(&sp, over, lay.width, head, sizeof head);
    grid = stat_grid(&sp, head, panel_w);
    lay.width = grid.width, lay.height = grid.height;
  } else { /* a long key below one plot: the figure grows, the plot area keeps its height */
    int rows = plot_key_rows(stat_key_entries(&sp, 0), stat_key_cols(&sp, 0, panel_w)) + 1;
    lay.height += rows > 6 ? (rows - 6) * 19 : 0;
  }
  plot_script_png_size(gp, sp.name, lay.width, lay.height);
  stat_write_title(gp, &sp, over, lay.width);
  for (int p = 0; p < f->n; p++)
    stat_write_panel(gp, &sp, &grid, panel_w, p);
  if (f->n > 1) fprintf(gp, "unset multiplot\n");
  rc = plot_script_close(gp, dir, sp.name) ? 2 : 0;
cleanup:
  stat_plot_free(&sp);
  return rc;
}
