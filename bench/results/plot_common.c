/* plot_common.c — the pieces every plot shares (plot_impl.h): series, colours, quoting, and the frame of
 * a gnuplot script. The look is fixed here so all plots agree: the Tableau 10 palette (distinguishable,
 * and readable in grey), a distinct point type per series and line widths that shrink from the first series
 * to the last, so a series drawn over an identical earlier one leaves that one showing round it, the key
 * below the graph (it never covers data), text without enhanced mode (names hold underscores), 1000x700 PNG
 * and SVG. */
#include "plot_impl.h"
#include "results.h"
#include "run_files.h"

#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
#define N_PALETTE ((int)(sizeof palette / sizeof palette[0]))
static const int points[] = {7, 5, 9, 11, 13, 15, 4, 6, 8, 10, 12, 14};
#define N_POINTS ((int)(sizeof points / sizeof points[0]))

const char *plot_color(int k) { return palette[k % N_PALETTE]; }
int plot_point(int k) { return points[k % N_POINTS]; }
int plot_dash(int k) { return 1 + (k / N_PALETTE) % 5; } /* solid until the colours repeat */
double plot_width(int k, int n) { return n > 1 ? 3.2 - 2.0 * k / (n - 1) : 2.0; }

void plot_quote(const char *s, char *buf, size_t n)
{
  size_t k = 0;
  for (; *s && k + 3 < n; s++) {
    if (*s == '"' || *s == '\\') buf[k++] = '\\';
    buf[k++] = *s;
  }
  buf[k] = '\0';
}

int plot_series_make(const struct rundir *r, struct plot_series *ps)
{
  memset(ps, 0, sizeof *ps);
  if (rundir_group(r, r->series.n, r->series.name, &ps->g)) return 1;
  ps->label = calloc((size_t)ps->g->n + 1, sizeof *ps->label);
  size_t tl = 8;
  for (int k = 0; k < r->series.n; k++)
    tl += strlen(r->series.name[k]) + 3;
  ps->title = malloc(tl);
  if (!ps->label || !ps->title) return 1;
  ps->title[0] = '\0';
  for (int k = 0; k < r->series.n; k++)
    strcat(strcat(ps->title, k ? " / " : ""), r->series.name[k]);
  if (!r->series.n) strcpy(ps->title, "run");
  for (int s = 0; s < ps->g->n; s++) {
    size_t len = 8;
    for (int k = 0; k < ps->g->n_keys; k++)
      len += strlen(table_get(r->tasks, ps->g->first[s], ps->g->key_col[k])) + 3;
    if (!(ps->label[s] = malloc(len))) return 1;
    ps->label[s][0] = '\0';
    for (int k = 0; k < ps->g->n_keys; k++)
      strcat(strcat(ps->label[s], k ? " / " : ""), table_get(r->tasks, ps->g->first[s], ps->g->key_col[k]));
    if (!ps->g->n_keys) strcpy(ps->label[s], "all tasks");
  }
  return 0;
}

void plot_series_free(struct plot_series *ps)
{
  for (int s = 0; ps->label && ps->g && s < ps->g->n; s++)
    free(ps->label[s]);
  free(ps->label);
  free(ps->title);
  rundir_groups_destroy(&ps->g);
  memset(ps, 0, sizeof *ps);
}

static FILE *open_in(const char *dir, const char *name)
{
  char path[SWEEP_PATH_MAX + 300];
  if (sweep_path(path, sizeof path, "%s/%s", dir, name)) return NULL;
  FILE *fp = fopen(path, "w");
  if (!fp) fprintf(stderr, "error: cannot write %s\n", path);
  return fp;
}

FILE *plot_data_open(const char *plots_dir, const char *name) { return open_in(plots_dir, name); }

FILE *plot_script_open(const char *plots_dir, const char *name, const char *what)
{
  char file[300];
  snprintf(file, sizeof file, "%s.gp", name);
  FILE *fp = open_in(plots_dir, file);
  if (!fp) return NULL;
  fprintf(fp,
          "# %s.gp — %s.\n"
          "# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make %s.png and %s.svg by\n"
          "# running `gnuplot %s.gp` in this directory (the run directory's plots/).\n"
          "reset\n"
          "set encoding utf8\n"
          "set key below horizontal center maxcols 4 spacing 1.1 samplen 3 noenhanced title \" \"\n"
          "set grid back lt 1 lc rgb '#e4e4e4' lw 1\n"
          "set border 3 lw 1.2\nset tics nomirror out\n"
          "set datafile missing 'NaN'\n"
          "set mxtics default\n",
          name, what, name, name, name);
  return fp;
}

void plot_script_png(FILE *fp, const char *name)
{
  fprintf(fp, "set terminal pngcairo size 1000,700 noenhanced font 'sans,11'\nset output '%s.png'\n", name);
}

int plot_script_close(FILE *fp, const char *name)
{
  fprintf(fp,
          "set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'\n"
          "set output '%s.svg'\nreplot\nunset output\n",
          name);
  int bad = ferror(fp) != 0;
  bad |= fclose(fp) != 0;
  if (bad) fprintf(stderr, "error: cannot write %s.gp\n", name);
  return bad;
}
