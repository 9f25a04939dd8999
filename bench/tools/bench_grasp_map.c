/* NAME    bench_grasp_map — the grasp study's success map from a bench_grasp run directory.
 * PURPOSE per (friction range, method, x, y) cell: trials, successes, the success probability with its
 *         Wilson score 95 % interval, and each outcome's share -> RUN_DIR/grasp_cells.csv; per friction
 *         range and method: the best cell, the sweet spot weighted for positioning error (the mean
 *         probability over the cells within +-3 mm in x and y, as the paper's "+-3 mm" reads), the plateau
 *         (cells with probability >= 0.9) -> RUN_DIR/grasp_sweet.txt and stdout; and the map in the style of
 *         Fig. 10 of Chakraborty et al. (x right, y up, probability as colour, the engine's success-map
 *         palette) with the sweet spot and its +-3 mm box marked -> RUN_DIR/plots/grasp_map_<range>.png.
 *         With -compare OTHER_RUN: cell by cell against another run (the same friction range and
 *         sensitivity settings, any formulation and solver), the two-proportion z of the success counts
 *         per cell and per row y -> RUN_DIR/grasp_compare.csv, RUN_DIR/grasp_compare.txt and stdout.
 * USAGE   bench_grasp_map RUN_DIR [-no_plots] [-full_windows] [-window 3] [-bootstrap 200] [-bootstrap_seed
 * 1] [-compare OTHER_RUN]; -help lists the options
 * PAPER   Chakraborty, Berard, Akella & Trinkle, Sec. 6.4, Fig. 10 (sweet spot about (0, -11) mm). */
#include "grasp_table.h"
#include "program.h"
#include "share.h"
#include "strmap.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct cell {
  char group[GRASP_GROUP_MAX]; /* friction range / formulation / solver [/ sensitivity axis=value] */
  double x, y;
  int n, k, out[GRASP_OUTCOMES + 1]; /* the last: any other status (engine: time_limit, crashed, error) */
};

static double prob(const struct cell *c) { return c->n ? (double)c->k / c->n : NAN; }

/* Is c[i] its group's first cell (so that each group is reported once)? */
static int group_first(const struct cell *c, int i)
{
  for (int j = 0; j < i; j++)
    if (strcmp(c[j].group, c[i].group) == 0) return 0;
  return 1;
}

/* The gnuplot map of one group (cells of that group only). */
static int plot_group(const char *dir, const char *g, const struct cell *c, int nc, const struct cell *best,
                      double wx, double wy, double win)
{
  char name[sizeof((struct cell *)0)->group + 16], path[4200]; /* grasp_map_ + a group */
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
      char script[sizeof name + 8];
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
  int bootstrap;                   /* resamples (0: none) */
  int bootstrap_seed;              /* GSL mt19937 seed, set again for each group */
  int full_windows;                /* sweet spots only where the window lies wholly inside the grid */
  char compare[OPTION_STRING_MAX]; /* another run to compare with cell by cell ("none": no comparison) */
};

static const struct option_decl map_options[] = {
    {"window", OPT_REAL, offsetof(struct map_settings, window), "3", "[0,inf)",
     "half-width of the sweet spot's box in x and y [mm]"},
    {"no_plots", OPT_BOOL, offsetof(struct map_settings, no_plots), "0", NULL,
     "tables and text only, no gnuplot maps (a flag: takes no value)"},
    {"full_windows", OPT_BOOL, offsetof(struct map_settings, full_windows), "0", NULL,
     "a sweet spot's window must lie wholly inside the grid (as many cells as the largest window): on a "
     "grid cut short, a window at its edge averages fewer cells (a flag)"},
    {"bootstrap", OPT_INT, offsetof(struct map_settings, bootstrap), "200", "[0,100000]",
     "resamples of the trials (per cell, with replacement) for the sweet spot's and the best cell's "
     "location (0: none)"},
    {"bootstrap_seed", OPT_INT, offsetof(struct map_settings, bootstrap_seed), "1", "[0,2147483647]",
     "seed of the bootstrap's GSL generator (mt19937), the same for every group"},
    {"compare", OPT_STRING, offsetof(struct map_settings, compare), "none", NULL,
     "another bench_grasp run directory (its tasks.csv, or its grasp_cells.csv): per cell and per row y the "
     "two-proportion z of the success counts -> grasp_compare.csv, grasp_compare.txt"},
};
#define N_MAP_OPTIONS ((int)(sizeof map_options / sizeof map_options[0]))

/* The cells in order of first appearance, found by (group, x, y) in a hash map: memory for the cells, not
 * the trials. */
struct cells {
  struct cell *c;
  int n, cap;
  struct strmap at;
};

/* One trial into its cell (a new cell when the group and (x, y) are new). 0, or 1 when out of memory. */
static int add_trial(struct cells *cs, const char *g, double x, double y, const char *outcome)
{
  char key[sizeof cs->c->group + 64];
  grasp_cell_key(key, sizeof key, g, x, y);
  int i = isnan(x) || isnan(y) ? -1 : strmap_find(&cs->at, key);
  if (i < 0) {
    if (cs->n == cs->cap || !cs->c) {
      int cap = cs->cap ? 2 * cs->cap : 256;
      struct cell *b = realloc(cs->c, (size_t)cap * sizeof *b);
      if (!b) return 1;
      cs->c = b, cs->cap = cap;
    }
    i = cs->n++;
    memset(&cs->c[i], 0, sizeof cs->c[i]);
    snprintf(cs->c[i].group, sizeof cs->c[i].group, "%s", g);
    cs->c[i].x = x, cs->c[i].y = y;
    if (!isnan(x) && !isnan(y) && strmap_put(&cs->at, key, i)) return 1;
  }
  if (!cs->c) return 1; /* a key found before any cell was made cannot happen */
  struct cell *c = &cs->c[i];
  c->n++;
  const int o = grasp_outcome_index(outcome); /* the status says whether it ran */
  c->k += o == GRASP_SUCCESS;
  c->out[o]++;
  return 0;
}

/* The cells of a former bench_map's grasp_cells.csv (a run kept without its tasks.csv: the counts are all
 * the map and the bootstrap need). 0, or 2 with a message. */
static int read_cells_table(const char *path, struct cell **out, int *nc)
{
  struct table *t = NULL;
  if (table_read(path, TABLE_STRICT, &t)) {
    if (!t) fprintf(stderr, "bench_grasp_map: neither tasks.csv nor %s can be read\n", path);
    return 2;
  }
  int cg = table_column(t, "group"), cx = table_column(t, "x"), cy = table_column(t, "y");
  int cn = table_column(t, "trials"), ck = table_column(t, "successes"), cs[GRASP_OUTCOMES + 1], rc = 0;
  for (int o = 0; o <= GRASP_OUTCOMES; o++) {
    char name[64];
    snprintf(name, sizeof name, "share_%s", o < GRASP_OUTCOMES ? grasp_outcomes[o] : "engine_failure");
    cs[o] = table_column(t, name);
    rc |= cs[o] < 0;
  }
  struct cell *c = NULL;
  if (rc || cg < 0 || cx < 0 || cy < 0 || cn < 0 || ck < 0 || !(c = calloc((size_t)t->nrow + 1, sizeof *c))) {
    fprintf(stderr, "bench_grasp_map: %s is not a grasp_cells.csv\n", path);
    table_destroy(&t);
    return 2;
  }
  for (int r = 0; r < t->nrow; r++) {
    snprintf(c[r].group, sizeof c[r].group, "%s", table_get(t, r, cg));
    c[r].x = table_number(t, r, cx), c[r].y = table_number(t, r, cy);
    c[r].n = (int)lround(table_number(t, r, cn)), c[r].k = (int)lround(table_number(t, r, ck));
    for (int o = 0; o <= GRASP_OUTCOMES; o++)
      c[r].out[o] = (int)lround(table_number(t, r, cs[o]) * c[r].n);
  }
  *out = c, *nc = t->nrow;
  table_destroy(&t);
  return 0;
}

/* The cells of a bench_grasp run: its tasks.csv streamed twice (the axes that name groups, then the
 * trials into their cells), or without one its grasp_cells.csv (*nc of them, malloc'd in *out). 0, or 2 / 1
 * with a message. */
static int read_cells(const char *dir, struct cell **out, int *nc)
{
  char path[4200];
  struct grasp_table gt;
  struct cells cs = {0};
  int got = 0;
  snprintf(path, sizeof path, "%s/tasks.csv", dir);
  *out = NULL;
  *nc = 0;
  int rc = grasp_table_open(&gt, path, "bench_grasp_map");
  if (rc == 1) {
    snprintf(path, sizeof path, "%s/grasp_cells.csv", dir);
    return read_cells_table(path, out, nc);
  }
  if (rc) return 2;
  while (!rc && (got = table_stream_next(&gt.ts)) == 1) {
    char g[sizeof cs.c->group];
    grasp_table_group(&gt, g, sizeof g);
    char *const *f = gt.ts.field;
    if (add_trial(&cs, g, grasp_number(f[gt.x]), grasp_number(f[gt.y]), f[gt.outcome])) rc = 1;
  }
  if (!rc && got) rc = 2;
  grasp_table_close(&gt);
  strmap_free(&cs.at);
  *out = cs.c, *nc = cs.n;
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
  for (int o = 0; o < GRASP_OUTCOMES; o++)
    fprintf(f, ",share_%s", grasp_outcomes[o]);
  fprintf(f, ",share_engine_failure\n");
  for (int i = 0; i < nc; i++) {
    double lo, hi;
    share_wilson(c[i].k, c[i].n, &lo, &hi);
    fprintf(f, "%s,%g,%g,%d,%d,%.6g,%.6g,%.6g", c[i].group, c[i].x, c[i].y, c[i].n, c[i].k, prob(&c[i]), lo,
            hi);
    for (int o = 0; o <= GRASP_OUTCOMES; o++)
      fprintf(f, ",%.6g", (double)c[i].out[o] / c[i].n);
    fprintf(f, "\n");
  }
  fclose(f);
  return 0;
}

/* The cells of group g (indices into c, *m of them) and, for each, the cells of its +-win window (CSR: the
 * window of cell j is nb[start[j]] .. nb[start[j + 1] - 1], indices into idx). 0, or 1 out of memory. */
struct group_cells {
  int m, *idx, *start, *nb;
  int need; /* a sweet spot's window holds at least this many cells (the largest window's with -full_windows)
             */
};

static int group_cells_make(const struct cell *c, int nc, const char *g, double win, int full,
                            struct group_cells *gc)
{
  gc->m = 0;
  gc->idx = malloc((size_t)nc * sizeof *gc->idx);
  gc->start = malloc(((size_t)nc + 1) * sizeof *gc->start);
  if (!gc->idx || !gc->start) return 1;
  for (int j = 0; j < nc; j++)
    if (strcmp(c[j].group, g) == 0) gc->idx[gc->m++] = j;
  size_t cap = (size_t)gc->m * 64 + 1, n = 0;
  gc->nb = malloc(cap * sizeof *gc->nb);
  for (int a = 0; gc->nb && a < gc->m; a++) {
    gc->start[a] = (int)n;
    for (int b = 0; b < gc->m; b++) {
      const struct cell *p = &c[gc->idx[a]], *q = &c[gc->idx[b]];
      if (fabs(q->x - p->x) > win + 1e-9 || fabs(q->y - p->y) > win + 1e-9) continue;
      if (n == cap) {
        int *grown = realloc(gc->nb, 2 * cap * sizeof *gc->nb);
        if (!grown) return 1;
        gc->nb = grown, cap *= 2;
      }
      gc->nb[n++] = b;
    }
  }
  if (!gc->nb) return 1;
  gc->start[gc->m] = (int)n;
  gc->need = 1;
  for (int a = 0; full && a < gc->m; a++)
    if (gc->start[a + 1] - gc->start[a] > gc->need) gc->need = gc->start[a + 1] - gc->start[a];
  return 0;
}

static void group_cells_free(struct group_cells *gc)
{
  free(gc->idx);
  free(gc->start);
  free(gc->nb);
}

/* With successes k[a] of the group's cells: the best cell and the sweet spot (the best window mean, *mean);
 * ties keep the first, as the point estimate does. */
static void argmaxes(const struct cell *c, const struct group_cells *gc, const int *k, int *best, int *sweet,
                     double *mean)
{
  *best = *sweet = 0;
  *mean = -1;
  double best_p = -1;
  for (int a = 0; a < gc->m; a++) {
    const int n = c[gc->idx[a]].n;
    const double p = n ? (double)k[a] / n : 0;
    if (p > best_p) best_p = p, *best = a;
    if (gc->start[a + 1] - gc->start[a] < gc->need) continue; /* a window cut by the grid's edge */
    double s = 0;
    for (int e = gc->start[a]; e < gc->start[a + 1]; e++) {
      const int b = gc->nb[e], nb = c[gc->idx[b]].n;
      s += nb ? (double)k[b] / nb : 0;
    }
    s /= gc->start[a + 1] - gc->start[a];
    if (s > *mean) *mean = s, *sweet = a;
  }
}

static int cmp_double(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The bootstrap's report line: how often the sweet spot and the best cell stay where the estimate put them,
 * where the sweet spot goes (the five most frequent centres), the 95 % range of its y and of its mean p, and
 * how often it meets the paper's description (within 1 mm of (0, -11) mm in x and y, window mean >= 0.9). */
static void boot_report(FILE *f, const struct cell *c, const struct group_cells *gc, int B, int seed,
                        int best0, int *count, int same_sweet, int same_best, int paper, double *ys,
                        double *means)
{
  const double p0 = prob(&c[gc->idx[best0]]);
  int tied = 0; /* cells at the estimate's best p: a tie keeps the first in the table's order */
  for (int a = 0; a < gc->m; a++)
    tied += prob(&c[gc->idx[a]]) == p0;
  qsort(ys, (size_t)B, sizeof *ys, cmp_double);
  qsort(means, (size_t)B, sizeof *means, cmp_double);
  const int lo = (int)floor(0.025 * (B - 1)), hi = (int)ceil(0.975 * (B - 1));
  fprintf(
      f,
      "  bootstrap (%d resamples of the trials per cell, GSL mt19937 seed %d): the sweet spot stays at the "
      "estimate's centre in %.3f, the best cell in %.3f (%d cells share its p %.3f; ties keep the first); "
      "sweet spot centres:",
      B, seed, (double)same_sweet / B, (double)same_best / B, tied, p0);
  int shown = 0, left = B;
  for (int top = 0; top < 5; top++) {
    int a_max = -1;
    for (int a = 0; a < gc->m; a++)
      if (count[a] > 0 && (a_max < 0 || count[a] > count[a_max])) a_max = a;
    if (a_max < 0) break;
    const struct cell *p = &c[gc->idx[a_max]];
    fprintf(f, "%s (%g, %g) %.3f", shown++ ? "," : "", p->x, p->y, (double)count[a_max] / B);
    left -= count[a_max];
    count[a_max] = -count[a_max]; /* shown: out of the next searches (the caller restores it) */
  }
  if (left > 0) fprintf(f, ", elsewhere %.3f", (double)left / B);
  fprintf(f,
          "; its y 95 %% range [%g, %g] mm, its mean p 95 %% range [%.3f, %.3f]; within 1 mm of the paper's "
          "(0, -11) mm with mean p >= 0.9 in %.3f\n",
          ys[lo], ys[hi], means[lo], means[hi], (double)paper / B);
}

/* The bootstrap over the trials of group g: each resample draws every cell's n trials with replacement from
 * its own trials. Only the success count enters the argmaxes, and the count of successes among n trials drawn
 * with replacement is binomial(n, k / n): drawn as such, the same distribution without the rows. Reports on
 * each of outs (NULL-terminated). 0, or 1 out of memory. */
static int bootstrap_group(const struct cell *c, int nc, const char *g, double win,
                           const struct map_settings *set, FILE *const *outs)
{
  const int B = set->bootstrap;
  struct group_cells gc = {0};
  int *k = NULL, *count = NULL, rc = 1;
  double *ys = NULL, *means = NULL;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng || group_cells_make(c, nc, g, win, set->full_windows, &gc)) goto done;
  if (gc.m < 1) { /* no cell: nothing to resample (report_group's own group always has one) */
    rc = 0;
    goto done;
  }
  if (!(k = malloc((size_t)gc.m * sizeof *k)) || !(count = calloc((size_t)gc.m, sizeof *count)) ||
      !(ys = malloc((size_t)B * sizeof *ys)) || !(means = malloc((size_t)B * sizeof *means)))
    goto done;
  gsl_rng_set(rng, (unsigned long)set->bootstrap_seed);
  for (int a = 0; a < gc.m; a++)
    k[a] = c[gc.idx[a]].k;
  int best0 = 0, sweet0 = 0, best = 0, sweet = 0, same_sweet = 0, same_best = 0, paper = 0;
  double mean;
  argmaxes(c, &gc, k, &best0, &sweet0, &mean);
  for (int b = 0; b < B; b++) {
    for (int a = 0; a < gc.m; a++) {
      const struct cell *p = &c[gc.idx[a]];
      k[a] = p->n ? (int)gsl_ran_binomial(rng, (double)p->k / p->n, (unsigned)p->n) : 0;
    }
    argmaxes(c, &gc, k, &best, &sweet, &means[b]);
    const struct cell *s = &c[gc.idx[sweet]];
    count[sweet]++;
    same_sweet += sweet == sweet0, same_best += best == best0;
    paper += fabs(s->x) <= 1 + 1e-9 && fabs(s->y + 11) <= 1 + 1e-9 && means[b] >= 0.9;
    ys[b] = s->y;
  }
  for (FILE *const *f = outs; *f; f++) {
    boot_report(*f, c, &gc, B, set->bootstrap_seed, best0, count, same_sweet, same_best, paper, ys, means);
    for (int a = 0; a < gc.m; a++) /* boot_report marks the centres it listed */
      count[a] = abs(count[a]);
  }
  rc = 0;
done:
  gsl_rng_free(rng);
  group_cells_free(&gc);
  free(k);
  free(count);
  free(ys);
  free(means);
  return rc;
}

/* Per group (its first cell is c[i]): the best cell, the sweet spot, the plateau and the outcome shares on
 * stdout and in sw, and its map. 0, or 1 when the plot failed. */
static int report_group(const char *dir, const struct cell *c, int nc, int i, const struct map_settings *set,
                        FILE *sw)
{
  const double win = set->window;
  const char *g = c[i].group;
  int plateau = 0, cells = 0, trials = 0, out[GRASP_OUTCOMES + 1] = {0};
  for (int j = 0; j < nc; j++) {
    if (strcmp(c[j].group, g) != 0) continue;
    cells++;
    trials += c[j].n;
    for (int o = 0; o <= GRASP_OUTCOMES; o++)
      out[o] += c[j].out[o];
    plateau += prob(&c[j]) >= 0.9;
  }
  struct group_cells gc = {0};
  int *k = NULL, a_best = 0, a_sweet = 0;
  double best_w = NAN;
  if (group_cells_make(c, nc, g, win, set->full_windows, &gc) || !(k = malloc((size_t)gc.m * sizeof *k))) {
    fprintf(stderr, "bench_grasp_map: out of memory\n");
    group_cells_free(&gc);
    return 1;
  }
  for (int a = 0; a < gc.m; a++)
    k[a] = c[gc.idx[a]].k;
  argmaxes(c, &gc, k, &a_best, &a_sweet, &best_w);
  const struct cell *best = &c[gc.idx[a_best]];
  const double wx = c[gc.idx[a_sweet]].x, wy = c[gc.idx[a_sweet]].y;
  free(k);
  group_cells_free(&gc);
  double lo, hi;
  share_wilson(best->k, best->n, &lo, &hi);
  for (FILE *out_f = stdout; out_f; out_f = out_f == stdout ? sw : NULL) {
    fprintf(out_f,
            "%s: %d cells, %d trials; best cell (%g, %g) mm: %d/%d = %.3f (95%% Wilson %.3f-%.3f); "
            "sweet spot +-%g mm: centre (%g, %g) mm, mean probability %.3f; plateau (p >= 0.9): %d "
            "cells; outcomes:",
            g, cells, trials, best->x, best->y, best->k, best->n, prob(best), lo, hi, win, wx, wy, best_w,
            plateau);
    for (int o = 0; o < GRASP_OUTCOMES; o++)
      fprintf(out_f, " %s %.3f", grasp_outcomes[o], (double)out[o] / trials);
    fprintf(out_f, " other %.3f\n", (double)out[GRASP_OUTCOMES] / trials);
  }
  FILE *const outs[] = {stdout, sw, NULL};
  if (set->bootstrap > 0 && bootstrap_group(c, nc, g, win, set, outs)) {
    fprintf(stderr, "bench_grasp_map: out of memory in the bootstrap of %s\n", g);
    return 1;
  }
  if (!set->no_plots && plot_group(dir, g, c, nc, best, wx, wy, win)) {
    fprintf(stderr, "bench_grasp_map: the plot of %s failed (gnuplot)\n", g);
    return 1;
  }
  return 0;
}

/* 1 when k1 / n1 against k2 / n2 is a test: both sides have trials and the pooled share is strictly
 * between 0 and 1 (not identical counts of nothing or everything). */
static int pooled_share_open(int k1, int n1, int k2, int n2)
{
  return n1 > 0 && n2 > 0 && k1 + k2 > 0 && k1 + k2 < n1 + n2;
}

/* The pooled two-proportion z of k1 / n1 against k2 / n2: 0 when the pooled share is 0 or 1, NAN when a
 * side has no trial. */
static double two_proportion_z(int k1, int n1, int k2, int n2)
{
  if (n1 <= 0 || n2 <= 0) return NAN;
  if (!pooled_share_open(k1, n1, k2, n2)) return 0.0;
  double p = (double)(k1 + k2) / (n1 + n2);
  return ((double)k1 / n1 - (double)k2 / n2) / sqrt(p * (1.0 - p) * (1.0 / n1 + 1.0 / n2));
}

/* Per group of this run's cells c: the matching cells of the other run (o, by group key and (x, y)) into
 * the csv, and the group's tallies (cells, equal counts, the most apart, |z| beyond 1.96 and 3.29, the
 * rows y summed over x whose |z| > 1.96) into the text outputs. */
static void compare_group(const struct cell *c, int nc, int i, const struct cell *o, const int *match,
                          FILE *csv, FILE *const *txt)
{
  int cells = 0, equal = 0, unmatched = 0, informative = 0, z196 = 0, z329 = 0, k1 = 0, n1 = 0, k2 = 0,
      n2 = 0, apart = -1;
  double most = -1.0;
  const char *other = NULL;
  for (int j = i; j < nc; j++) {
    if (strcmp(c[j].group, c[i].group) != 0) continue;
    if (match[j] < 0) {
      unmatched++;
      continue;
    }
    const struct cell *a = &c[j], *b = &o[match[j]];
    double z = two_proportion_z(a->k, a->n, b->k, b->n), d = fabs(prob(a) - prob(b));
    other = b->group;
    fprintf(csv, "%s,%s,%g,%g,%d,%d,%d,%d,%.6g,%.6g,%.4f\n", a->group, b->group, a->x, a->y, a->n, a->k, b->n,
            b->k, prob(a), prob(b), z);
    cells++;
    equal += a->k == b->k && a->n == b->n;
    informative += pooled_share_open(a->k, a->n, b->k, b->n); /* a test, even at z 0 */
    z196 += fabs(z) > 1.96, z329 += fabs(z) > 3.29;
    k1 += a->k, n1 += a->n, k2 += b->k, n2 += b->n;
    if (d > most) most = d, apart = j;
  }
  for (int t = 0; txt[t]; t++) {
    fprintf(txt[t],
            "%s against %s: %d cells (%d without a match); equal success counts %d; successes %d/%d "
            "against %d/%d (z %.2f); |z| > 1.96 in %d cells, > 3.29 in %d (of %d with a pooled share "
            "strictly between 0 and 1: about 5 %% and 0.1 %% of them by chance)",
            c[i].group, other ? other : "-", cells, unmatched, equal, k1, n1, k2, n2,
            two_proportion_z(k1, n1, k2, n2), z196, z329, informative);
    if (apart >= 0)
      fprintf(txt[t], "; most apart (%g, %g) mm: %d/%d against %d/%d", c[apart].x, c[apart].y, c[apart].k,
              c[apart].n, o[match[apart]].k, o[match[apart]].n);
    fprintf(txt[t], "; rows y with |z| > 1.96 (summed over x):");
    int rows = 0;
    for (int j = i; j < nc; j++) { /* each row y once, at its first matched cell */
      int first = strcmp(c[j].group, c[i].group) == 0 && match[j] >= 0;
      for (int m = i; m < j && first; m++)
        first = !(strcmp(c[m].group, c[i].group) == 0 && match[m] >= 0 && c[m].y == c[j].y);
      if (!first) continue;
      int a = 0, an = 0, b = 0, bn = 0;
      for (int m = j; m < nc; m++)
        if (strcmp(c[m].group, c[i].group) == 0 && match[m] >= 0 && c[m].y == c[j].y)
          a += c[m].k, an += c[m].n, b += o[match[m]].k, bn += o[match[m]].n;
      double z = two_proportion_z(a, an, b, bn);
      if (fabs(z) > 1.96)
        fprintf(txt[t], " %g: %d/%d against %d/%d (z %.2f);", c[j].y, a, an, b, bn, z), rows++;
    }
    fprintf(txt[t], rows ? "\n" : " none\n");
  }
}

/* -compare: this run's cells c against those of the run in dir; RUN_DIR/grasp_compare.csv and .txt. 0, or
 * 1 / 2 with a message. */
static int compare_runs(const char *dir, const struct cell *c, int nc, const char *other_dir)
{
  struct cell *o = NULL;
  struct strmap at = {0};
  int no = 0, *match = NULL, rc = read_cells(other_dir, &o, &no), oom = 0;
  char path[4200], key[sizeof c->group + 64], gk[sizeof c->group];
  if (!rc && !(match = malloc(((size_t)nc + 1) * sizeof *match))) oom = 1;
  for (int j = 0; !rc && !oom && j < no; j++) {
    grasp_group_key(o[j].group, gk, sizeof gk);
    grasp_cell_key(key, sizeof key, gk, o[j].x, o[j].y);
    if (strmap_find(&at, key) < 0 && strmap_put(&at, key, j)) oom = 1;
  }
  if (oom) {
    fprintf(stderr, "bench_grasp_map: out of memory comparing with %s\n", other_dir);
    rc = 1;
  }
  for (int j = 0; !rc && j < nc; j++) {
    grasp_group_key(c[j].group, gk, sizeof gk);
    grasp_cell_key(key, sizeof key, gk, c[j].x, c[j].y);
    match[j] = strmap_find(&at, key);
  }
  snprintf(path, sizeof path, "%s/grasp_compare.csv", dir);
  FILE *csv = rc ? NULL : fopen(path, "w");
  snprintf(path, sizeof path, "%s/grasp_compare.txt", dir);
  FILE *txt = csv ? fopen(path, "w") : NULL;
  if (!rc && (!csv || !txt)) {
    fprintf(stderr, "bench_grasp_map: cannot write %s/grasp_compare.csv and .txt\n", dir);
    rc = 1;
  }
  if (!rc) {
    fprintf(csv, "group,other_group,x,y,trials,successes,other_trials,other_successes,p,other_p,z\n");
    fprintf(txt,
            "bench_grasp_map %s -compare %s: pooled two-proportion z of the success counts (this run "
            "first), per cell and per row y\n",
            dir, other_dir);
    FILE *const outs[] = {stdout, txt, NULL};
    for (int i = 0; i < nc; i++)
      if (group_first(c, i)) compare_group(c, nc, i, o, match, csv, outs);
  }
  if (csv) fclose(csv);
  if (txt) fclose(txt);
  strmap_free(&at);
  free(match);
  free(o);
  return rc;
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
  for (int i = 0; i < nc; i++)
    if (group_first(c, i) && report_group(dir, c, nc, i, &set, sw)) rc = 1;
  if (sw) fclose(sw);
  if (!rc && strcmp(set.compare, "none") != 0) rc = compare_runs(dir, c, nc, set.compare);
cleanup:
  free(c);
  return rc;
}

int main(int argc, char **argv)
{
  static const char *const flags[] = {"-no_plots", "-full_windows", NULL};
  static const struct program_spec spec = {
      .name = "bench_grasp_map",
      .usage = "RUN_DIR [-no_plots] [-full_windows] [-window MM] [-bootstrap B] [-bootstrap_seed S] "
               "[-compare OTHER_RUN]",
      .positional_min = 1,
      .positional_max = 1,
      .flags = flags,
      .no_mpi = 1};
  return program_main(&spec, argc, argv, grasp_map);
}
