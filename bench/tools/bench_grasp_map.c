/* NAME    bench_grasp_map — the grasp study's success map from a bench_grasp run directory.
 * PURPOSE per (friction range, method, x, y) cell: trials, successes, the success probability with its
 *         Wilson score 95 % interval, and each outcome's share -> RUN_DIR/grasp_cells.csv; per friction
 *         range and method: the best cell, the sweet spot weighted for positioning error (the mean
 *         probability over the cells within +-3 mm in x and y, as the paper's "+-3 mm" reads), the plateau
 *         (cells with probability >= 0.9) -> RUN_DIR/grasp_sweet.txt and stdout; and the map in the style of
 *         Fig. 10 of Chakraborty et al. (x right, y up, probability as colour, the engine's success-map
 *         palette) with the sweet spot and its +-3 mm box marked -> RUN_DIR/plots/grasp_map_<range>.png.
 * USAGE   bench_grasp_map RUN_DIR [-no_plots] [-window 3]; -help lists the options
 * PAPER   Chakraborty, Berard, Akella & Trinkle, Sec. 6.4, Fig. 10 (sweet spot about (0, -11) mm). */
#include "program.h"
#include "share.h"
#include "table.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const outcomes[] = {"outer_teeth", "other_teeth", "round",
                                       "diametric",   "lost",        "solver_failure"};
#define N_OUT 6

struct cell {
  char group[96]; /* friction range / formulation / solver */
  double x, y;
  int n, k, out[N_OUT + 1]; /* the last: any other status (engine: time_limit, crashed, error) */
};

static int find(struct cell *c, int nc, const char *g, double x, double y)
{
  for (int i = 0; i < nc; i++)
    if (c[i].x == x && c[i].y == y && strcmp(c[i].group, g) == 0) return i;
  return -1;
}

static double prob(const struct cell *c) { return c->n ? (double)c->k / c->n : NAN; }

/* The gnuplot map of one group (cells of that group only). */
static int plot_group(const char *dir, const char *g, const struct cell *c, int nc, const struct cell *best,
                      double wx, double wy, double win)
{
  char name[128], path[4200];
  snprintf(name, sizeof name, "grasp_map_%s", g);
  for (char *p = name; *p; p++)
    if (*p == '/') *p = '_';
  snprintf(path, sizeof path, "%s/plots", dir);
  mkdir(path, 0777);
  snprintf(path, sizeof path, "%s/plots/%s.gp", dir, name);
  FILE *gp = fopen(path, "w");
  if (!gp) return 1;
  fprintf(gp,
          "# success probability per gripper position, %s (bench_grasp_map)\n"
          "set terminal pngcairo noenhanced size 900,800\nset output '%s.png'\n"
          "set title \"grasping the lock piece: success probability, %s\\n(Chakraborty et al. Fig. 10 "
          "style; circle: best cell, box: +-%g mm sweet spot)\"\n"
          "set xlabel 'x: gripper centre right of the part centre [mm]'\n"
          "set ylabel 'y: gripper centre above the part centre [mm]'\n"
          "set cblabel 'success probability'\nset cbrange [0:1]\nset size ratio -1\n"
          "set palette defined (0 '#67000d', 25 '#d7301f', 50 '#fc8d59', 75 '#fdd49e', 100 '#fff7ec')\n"
          "$cells << EOD\n",
          g, name, g, win);
  for (int i = 0; i < nc; i++)
    if (strcmp(c[i].group, g) == 0) fprintf(gp, "%g %g %.6g\n", c[i].x, c[i].y, prob(&c[i]));
  fprintf(gp, "EOD\n");
  double dx = INFINITY, dy = INFINITY; /* the grid's spacing: the cells' size */
  for (int i = 0; i < nc; i++)
    for (int j = 0; j < nc; j++)
      if (strcmp(c[i].group, g) == 0 && strcmp(c[j].group, g) == 0) {
        double ex = fabs(c[i].x - c[j].x), ey = fabs(c[i].y - c[j].y);
        if (ex > 1e-9 && ex < dx) dx = ex;
        if (ey > 1e-9 && ey < dy) dy = ey;
      }
  if (!isfinite(dx)) dx = 1.0;
  if (!isfinite(dy)) dy = 1.0;
  fprintf(gp,
          "set object 1 circle at %g,%g size 0.45 front fs empty border lc rgb '#0072b2' lw 3\n"
          "set object 2 rectangle from %g,%g to %g,%g front fs empty border lc rgb '#0072b2' lw 2 dt 2\n"
          "plot $cells using 1:2:(%g):(%g):3 with boxxyerror fs solid 1.0 noborder fc palette notitle\n",
          best->x, best->y, wx - win, wy - win, wx + win, wy + win, dx / 2, dy / 2);
  fclose(gp);
  pid_t pid = fork();
  if (pid == 0) {
    snprintf(path, sizeof path, "%s/plots", dir);
    if (chdir(path) == 0) {
      char script[160];
      snprintf(script, sizeof script, "%s.gp", name);
      if (!freopen("/dev/null", "w", stderr)) _exit(127);
      execlp("gnuplot", "gnuplot", script, (char *)NULL);
    }
    _exit(127);
  }
  int st = 0;
  if (pid > 0) waitpid(pid, &st, 0);
  return pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
}

struct map_settings {
  double window;
  int no_plots;
};

static const struct option_decl map_options[] = {
    {"window", OPT_REAL, offsetof(struct map_settings, window), "3", "[0,inf)",
     "half-width of the sweet spot's box in x and y [mm]"},
    {"no_plots", OPT_BOOL, offsetof(struct map_settings, no_plots), "0", NULL,
     "tables and text only, no gnuplot maps (a flag: takes no value)"},
};
#define N_MAP_OPTIONS ((int)(sizeof map_options / sizeof map_options[0]))

/* The cells of a bench_grasp tasks.csv (*nc of them, malloc'd in *out). 0, or 2 / 1 with a message. */
static int read_cells(const char *dir, struct cell **out, int *nc)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/tasks.csv", dir);
  struct table *t = NULL;
  *out = NULL;
  *nc = 0;
  if (table_read(path, TABLE_STRICT, &t)) {
    if (!t) fprintf(stderr, "bench_grasp_map: cannot read %s\n", path);
    return 2;
  }
  int cf = table_column(t, "friction"), cx = table_column(t, "x"), cy = table_column(t, "y");
  int cs = table_column(t, "status"), co = table_column(t, "outcome"), cm = table_column(t, "formulation");
  int cv = table_column(t, "solver"), rc = 0;
  struct cell *c = NULL;
  if (cf < 0 || cx < 0 || cy < 0 || cs < 0 || co < 0 || cm < 0 || cv < 0) {
    fprintf(stderr, "bench_grasp_map: %s is not a bench_grasp table\n", path);
    rc = 2;
  } else if (!(c = calloc((size_t)t->nrow + 1, sizeof *c))) {
    rc = 1;
  }
  for (int r = 0; !rc && r < t->nrow; r++) {
    char g[96];
    snprintf(g, sizeof g, "%s/%s/%s", table_get(t, r, cf), table_get(t, r, cm), table_get(t, r, cv));
    double x = table_number(t, r, cx), y = table_number(t, r, cy);
    int i = find(c, *nc, g, x, y);
    if (i < 0) {
      i = (*nc)++;
      snprintf(c[i].group, sizeof c[i].group, "%s", g);
      c[i].x = x, c[i].y = y;
    }
    c[i].n++;
    c[i].k += strcmp(table_get(t, r, co), "outer_teeth") == 0; /* the success; the status says it ran */
    int o = 0;
    while (o < N_OUT && strcmp(table_get(t, r, co), outcomes[o]) != 0)
      o++;
    c[i].out[o]++;
  }
  table_destroy(&t);
  *out = c;
  return rc;
}

/* RUN_DIR/grasp_cells.csv: one row per cell with its Wilson interval and outcome shares. 0, or 1. */
static int write_cells(const char *dir, const struct cell *c, int nc)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/grasp_cells.csv", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "bench_grasp_map: cannot write %s\n", path);
    return 1;
  }
  fprintf(f, "group,x,y,trials,successes,p,wilson_lo,wilson_hi");
  for (int o = 0; o < N_OUT; o++)
    fprintf(f, ",share_%s", outcomes[o]);
  fprintf(f, ",share_engine_failure\n");
  for (int i = 0; i < nc; i++) {
    double lo, hi;
    share_wilson(c[i].k, c[i].n, &lo, &hi);
    fprintf(f, "%s,%g,%g,%d,%d,%.6g,%.6g,%.6g", c[i].group, c[i].x, c[i].y, c[i].n, c[i].k, prob(&c[i]), lo,
            hi);
    for (int o = 0; o <= N_OUT; o++)
      fprintf(f, ",%.6g", (double)c[i].out[o] / c[i].n);
    fprintf(f, "\n");
  }
  fclose(f);
  return 0;
}

/* Per group (its first cell is c[i]): the best cell, the sweet spot, the plateau and the outcome shares on
 * stdout and in sw, and its map. 0, or 1 when the plot failed. */
static int report_group(const char *dir, const struct cell *c, int nc, int i, double win, int plots, FILE *sw)
{
  const char *g = c[i].group;
  const struct cell *best = NULL;
  double best_w = -1, wx = NAN, wy = NAN;
  int plateau = 0, cells = 0, trials = 0, out[N_OUT + 1] = {0};
  for (int j = 0; j < nc; j++) {
    if (strcmp(c[j].group, g) != 0) continue;
    cells++;
    trials += c[j].n;
    for (int o = 0; o <= N_OUT; o++)
      out[o] += c[j].out[o];
    plateau += prob(&c[j]) >= 0.9;
    if (!best || prob(&c[j]) > prob(best)) best = &c[j];
    double s = 0;
    int m = 0;
    for (int k = 0; k < nc; k++)
      if (strcmp(c[k].group, g) == 0 && fabs(c[k].x - c[j].x) <= win + 1e-9 &&
          fabs(c[k].y - c[j].y) <= win + 1e-9)
        s += prob(&c[k]), m++;
    if (m && s / m > best_w) best_w = s / m, wx = c[j].x, wy = c[j].y;
  }
  double lo, hi;
  share_wilson(best->k, best->n, &lo, &hi);
  for (FILE *out_f = stdout; out_f; out_f = out_f == stdout ? sw : NULL) {
    fprintf(out_f,
            "%s: %d cells, %d trials; best cell (%g, %g) mm: %d/%d = %.3f (95%% Wilson %.3f-%.3f); "
            "sweet spot +-%g mm: centre (%g, %g) mm, mean probability %.3f; plateau (p >= 0.9): %d "
            "cells; outcomes:",
            g, cells, trials, best->x, best->y, best->k, best->n, prob(best), lo, hi, win, wx, wy, best_w,
            plateau);
    for (int o = 0; o < N_OUT; o++)
      fprintf(out_f, " %s %.3f", outcomes[o], (double)out[o] / trials);
    fprintf(out_f, " other %.3f\n", (double)out[N_OUT] / trials);
  }
  if (plots && plot_group(dir, g, c, nc, best, wx, wy, win)) {
    fprintf(stderr, "bench_grasp_map: the plot of %s failed (gnuplot)\n", g);
    return 1;
  }
  return 0;
}

static int grasp_map(const struct program *prog)
{
  struct map_settings set;
  struct cell *c = NULL;
  char msg[512], path[4200];
  int nc = 0, rc = 2;
  if (prog->help) {
    printf("bench_grasp_map RUN_DIR [options]: per-cell success probabilities with Wilson intervals, the\n"
           "sweet spot and the maps of a bench_grasp run (grasp_cells.csv, grasp_sweet.txt, plots/).\n");
    option_print(stdout, map_options, N_MAP_OPTIONS, NULL);
    return 0;
  }
  if (option_read(map_options, N_MAP_OPTIONS, prog->options, NULL, &set, msg, sizeof msg)) {
    fprintf(stderr, "error: %s\n", msg);
    return 2;
  }
  if (program_report_unused(prog, map_options, N_MAP_OPTIONS, NULL, 0, NULL)) return 2;
  const char *dir = prog->positional[0];
  if ((rc = read_cells(dir, &c, &nc)) || (rc = write_cells(dir, c, nc))) goto cleanup;
  snprintf(path, sizeof path, "%s/grasp_sweet.txt", dir);
  FILE *sw = fopen(path, "w");
  for (int i = 0; i < nc; i++) { /* each group once, at its first cell */
    int first = 1;
    for (int j = 0; j < i && first; j++)
      first = strcmp(c[j].group, c[i].group) != 0;
    if (first && report_group(dir, c, nc, i, set.window, !set.no_plots, sw)) rc = 1;
  }
  if (sw) fclose(sw);
cleanup:
  free(c);
  return rc;
}

int main(int argc, char **argv)
{
  static const char *const flags[] = {"-no_plots", NULL};
  static const struct program_spec spec = {.name = "bench_grasp_map",
                                           .usage = "RUN_DIR [-no_plots] [-window MM]",
                                           .positional_min = 1,
                                           .positional_max = 1,
                                           .flags = flags,
                                           .no_mpi = 1};
  return program_main(&spec, argc, argv, grasp_map);
}
