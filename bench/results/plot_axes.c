/* plot_axes.c — the x axis of every plot (the distinct plot_x values, numeric and sorted or categories)
 * and the axis labels: a column's help text and unit from experiment.txt's "labels" and "units", a long
 * help cut to what fits along an axis (the full text goes into the plot's footnote, plot_axis_note). */
#include "plot_impl.h"
#include "results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LABEL 50 /* characters of an axis label before the unit: what fits along a 700-pixel axis */

static const struct table *sort_table;
static int sort_col;
static int x_cmp(const void *a, const void *b)
{
  int ra = *(const int *)a, rb = *(const int *)b;
  double va = table_number(sort_table, ra, sort_col), vb = table_number(sort_table, rb, sort_col);
  return (va > vb) - (va < vb);
}

void plot_x_free(struct plot_x *x)
{
  rundir_groups_destroy(&x->g);
  free(x->order);
  free(x->pos);
  free(x->value);
}

int plot_x_make(const struct rundir *r, struct plot_x *x)
{
  memset(x, 0, sizeof *x);
  char *key = r->plot_x;
  if (rundir_group(r, r->plot_x[0] ? 1 : 0, &key, &x->g)) return 1;
  int n = x->g->n;
  x->order = calloc((size_t)n + 1, sizeof *x->order);
  x->pos = calloc((size_t)n + 1, sizeof *x->pos);
  x->value = calloc((size_t)n + 1, sizeof *x->value);
  if (!x->order || !x->pos || !x->value) return 1;
  /* one x value is a category: the series then stand side by side at it, not on top of each other */
  x->numeric = r->plot_x[0] != 0 && n > 1;
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
const char *plot_x_text(const struct rundir *r, const struct plot_x *x, int i)
{
  return x->g->n_keys ? table_get(r->tasks, x->g->first[x->order[i]], x->g->key_col[0]) : "all";
}

/* 1 when the first cut characters of a help text make no label: a formula's start, or one word. */
static int label_too_short(const char *buf, size_t cut)
{
  size_t words = 0;
  for (size_t k = 0; k < cut; k++)
    words += buf[k] != ' ' && (k == 0 || buf[k - 1] == ' ');
  return cut == 0 || strchr("|(", buf[0]) != NULL || words < 2;
}

/* An axis label: the help text and unit of a column (rundir_help_label), a long help cut so that it fits
 * along the axis, the unit kept: before a formula (the first word after the eighth character holding '|',
 * '=' or '^': "natural-map residual ||z - mid(lo, hi, z - F(z))||_inf" -> "natural-map residual"), else
 * at its first clause ("; ", " (", ": ", ", "), else (or when that leaves one word or a formula's start) the
 * column's name with spaces for '_' ("energy gain" for a help "max over steps of (energy - initial energy) /
 * initial kinetic energy", "energy drift" for "largest |E - E_ref| ..."). Returns 1 when the help was
 * cut: the plot then gives the whole text (plot_axis_note). */
int plot_axis_label(const struct rundir *r, const char *name, char *buf, size_t n)
{
  rundir_help_label(r, name, buf, n);
  const char *u = rundir_unit(r, name);
  char unit[128] = "";
  size_t len = strlen(buf);
  if (u) {
    snprintf(unit, sizeof unit, " [%s]", u);
    if (len >= strlen(unit) && strcmp(buf + len - strlen(unit), unit) == 0) len -= strlen(unit);
  }
  size_t cut = len > MAX_LABEL ? MAX_LABEL : len;
  for (size_t w = 8; w < len; w++) { /* a formula: cut before the word that starts it */
    if (buf[w - 1] != ' ') continue;
    size_t e = w;
    while (e < len && buf[e] != ' ')
      e++;
    if (memchr(buf + w, '|', e - w) || memchr(buf + w, '=', e - w) || memchr(buf + w, '^', e - w)) {
      if (w - 1 < cut) cut = w - 1;
      break;
    }
  }
  if (cut == len) return 0;
  static const char *const cuts[] = {"; ", " (", ": ", ", "};
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
  /* no clause to cut at, or what is left says nothing (one word, "largest" of "largest |E - E_ref| ...", or
   * the start of a formula, "|measured -"): the column's name, its words spaced */
  if ((cut == MAX_LABEL && cut < len) || label_too_short(buf, cut)) {
    snprintf(buf, n, "%s", name);
    for (char *c = buf; *c; c++)
      if (*c == '_') *c = ' ';
    cut = strlen(buf);
  }
  snprintf(buf + cut, n - cut, "%s", unit);
  return 1;
}

/* The whole help text of a column for a plot's title when its axis label was cut: "AXIS: help [unit]"
 * (empty when the label is the whole help). */
void plot_axis_note(const struct rundir *r, const char *axis, const char *name, char *buf, size_t n)
{
  char lab[512];
  buf[0] = '\0';
  if (plot_axis_label(r, name, lab, sizeof lab)) {
    rundir_help_label(r, name, lab, sizeof lab);
    snprintf(buf, n, "%s: %s", axis, lab);
  }
}

/* Whether the x tic labels need turning: many categories, or long ones, or many explicit numbers, or two
 * neighbours closer on the axis than their labels are wide (0.004 and 0.005 on a log axis of a few
 * decades: "0.0040.005"). A panel's plot area is taken as PANEL_PX wide, 9 px a character. */
int plot_x_crowded(const struct rundir *r, const struct plot_x *x)
{
  enum { PANEL_PX = 480, CHAR_PX = 9 };
  size_t chars = 0, longest = 0;
  int n = x->g->n;
  for (int i = 0; i < n; i++) {
    size_t len = strlen(plot_x_text(r, x, i));
    chars += len + 1;
    if (len > longest) longest = len;
  }
  if (n > 8 || chars > 60) return 1;
  double closest = n > 1 ? 1.0 / n : 1.0; /* categories: evenly spaced */
  if (x->numeric && n > 1 && r->log_x && x->value[0] > 0.0) {
    double span = log(x->value[n - 1] * 1.25) - log(x->value[0] / 1.25);
    for (int i = 1; i < n; i++)
      closest = fmin(closest, (log(x->value[i]) - log(x->value[i - 1])) / span);
  }
  return closest * PANEL_PX < CHAR_PX * (double)(longest + 1);
}

/* Whether the x tics are labels of their own (categories, or the values of a few decades), which
 * plot_write_x_axis turns when crowded. */
static int x_tics_explicit(const struct rundir *r, const struct plot_x *x)
{
  int n = x->g->n, log_x = r->log_x && x->numeric && x->value[0] > 0.0;
  return !x->numeric || (log_x && x->value[n - 1] / x->value[0] < 100.0);
}

int plot_x_tics_px(const struct rundir *r, const struct plot_x *x)
{
  enum { LABEL_LINES = 64 }; /* the tic labels' line and the x label's, with their gaps */
  if (!x_tics_explicit(r, x) || !plot_x_crowded(r, x)) return LABEL_LINES;
  size_t longest = 1;
  for (int i = 0; i < x->g->n; i++)
    if (strlen(plot_x_text(r, x, i)) > longest) longest = strlen(plot_x_text(r, x, i));
  return (int)(6.6 * (double)longest) + 12 + LABEL_LINES; /* turned 45 degrees: 9 px a character x 0.71 */
}

/* Axis settings for x: log when experiment.txt says so (and every x is positive), categories when the
 * values are not numbers; crowded tic labels turned 45 degrees so they do not run into each other. */
void plot_write_x_axis(FILE *fp, const struct rundir *r, const struct plot_x *x)
{
  char lab[256], q[512];
  if (r->plot_x[0])
    plot_axis_label(r, r->plot_x, lab, sizeof lab);
  else
    snprintf(lab, sizeof lab, "all tasks");
  plot_quote(lab, q, sizeof q);
  fprintf(fp, "set xlabel \"%s\"\n", q);
  int n = x->g->n, log_x = r->log_x && x->numeric && x->value[0] > 0.0, explicit_tics = 0;
  if (!x->numeric) {
    fprintf(fp, "set xrange [-0.5:%d.5]\nset xtics (", n - 1);
    for (int i = 0; i < n; i++) {
      plot_quote(plot_x_text(r, x, i), q, sizeof q);
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
  if (explicit_tics && plot_x_crowded(r, x)) fprintf(fp, "set xtics rotate by 45 right\n");
}

/* The note on what the plots aggregate over: the axes that are neither the x nor a series axis, "aggregated
 * over a, b"; those with one value in every row (a -where filter, or a run of one value) are not aggregated
 * and are named with it instead, "at c = v". "" when neither. */
void plot_aggregated_over(const struct rundir *r, char *buf, size_t n)
{
  char over[512] = "", at[512] = "";
  size_t no = 0, na = 0;
  const struct table *t = r->tasks;
  for (int k = 0; k < r->axes.n; k++) {
    const char *a = r->axes.name[k];
    if (strcmp(a, r->plot_x) == 0 || rundir_list_find(&r->series, a) >= 0) continue;
    int c = table_column(t, a), one = c >= 0 && t->nrow > 0;
    for (int i = 1; one && i < t->nrow; i++)
      one = strcmp(table_get(t, i, c), table_get(t, 0, c)) == 0;
    if (one && na < sizeof at)
      na += (size_t)snprintf(at + na, sizeof at - na, "%s%s = %s", na ? ", " : "", a, table_get(t, 0, c));
    else if (!one && no < sizeof over)
      no += (size_t)snprintf(over + no, sizeof over - no, "%s%s", no ? ", " : "", a);
  }
  snprintf(buf, n, "%s%s%s%s%s", no ? "aggregated over " : "", over, no && na ? "; " : "", na ? "at " : "",
           at);
}

void plot_write_key_title(FILE *fp, const struct rundir *r, const char *title, int below)
{
  char lab[256], text[400], qt[900];
  snprintf(text, sizeof text, "%s", title);
  /* one axis whose label is more than its name ("solver" / "solvers" is not) */
  if (!strstr(title, " / ") && table_column(r->tasks, title) >= 0) {
    plot_axis_label(r, title, lab, sizeof lab);
    if (strncmp(lab, title, strlen(title)) != 0) snprintf(text, sizeof text, "%s: %s", title, lab);
  }
  plot_quote(text, qt, sizeof qt);
  fprintf(fp, "set key title \"%s%s\"\n", below ? "\\n" : "", qt);
}
