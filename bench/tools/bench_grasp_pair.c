/* NAME    bench_grasp_pair — two bench_grasp runs compared trial by trial.
 * PURPOSE Both runs draw each trial's friction, tripod and placement from the trial's cell and seed, not
 *         from the method, so a trial of one run has a twin in the other: the same friction range,
 *         sensitivity axes, (x, y) and seed (any formulation and solver). Per group (friction range and
 *         sensitivity axes): the trials matched, those only one run holds, those both finished (status
 *         ok), how many of them end alike, the discordant successes (outer_teeth in one run only) with
 *         McNemar's exact two-sided test (binomial at 1/2 on the discordant pairs) and z = (here only -
 *         there only) / sqrt(sum), the outcome changes (this run's -> the other's, most common first),
 *         and the rows y whose discordant successes alone give p < 0.05 -> RUN_DIR/grasp_pair.txt and
 *         stdout; every outcome pair with its count -> RUN_DIR/grasp_pair.csv. Where bench_grasp_map
 *         -compare asks whether two maps differ cell by cell (two-proportion z, a weak test when both runs
 *         share every draw), this asks on which trials and how.
 * USAGE   bench_grasp_pair RUN_DIR OTHER_RUN (each with its tasks.csv; a run holds one method, each draw
 *         once)
 * EXIT    0 written; 2 a run that cannot be read, holds a draw twice, or a file that cannot be written. */
#include "grasp_table.h"
#include "program.h"
#include "strmap.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_CAT    (GRASP_OUTCOMES + 1) /* the outcomes and any other status */
#define DRAW_MAX 1024                 /* a draw's key: its axes' names and values */

/* A trial of the other run: its outcome, finished (status ok), matched by a trial of this run, group. */
struct other_trial {
  unsigned char outcome, finished, matched;
  int group;
};

/* Discordant successes on one row y of a group (both runs finished). */
struct pair_row {
  double y;
  long here, there;
};

struct pair_group {
  char key[GRASP_GROUP_MAX];                          /* friction range and sensitivity axes */
  char here[GRASP_GROUP_MAX], there[GRASP_GROUP_MAX]; /* the runs' groups, methods included */
  long matched, here_only, there_only, finished, same, only_here, only_there;
  long change[N_CAT][N_CAT]; /* matched trials by this run's outcome, the other's */
  struct pair_row *rows;
  int n_rows, cap_rows;
};

struct pairing {
  struct pair_group *g;
  int ng, cap_g;
  struct other_trial *t;
  long nt, cap_t;
  struct strmap draws; /* the other run's draws -> index into t */
};

/* The group with key (added when new); -1 when out of memory. */
static int group_index(struct pairing *p, const char *key)
{
  for (int i = 0; i < p->ng; i++)
    if (strcmp(p->g[i].key, key) == 0) return i;
  if (p->ng == p->cap_g) {
    int cap = p->cap_g ? 2 * p->cap_g : 8;
    struct pair_group *b = realloc(p->g, (size_t)cap * sizeof *b);
    if (!b) return -1;
    p->g = b, p->cap_g = cap;
  }
  struct pair_group *g = &p->g[p->ng];
  memset(g, 0, sizeof *g);
  snprintf(g->key, sizeof g->key, "%s", key);
  return p->ng++;
}

/* The current row's group (into group), group key (into key) and draw key (into draw): every axis but the
 * formulation and the solver, by name, a number by its value (so that -0 and 0, or 5e-1 and 0.5, are one
 * draw) — whether a run names a sensitivity axis in its groups or not, its trials meet their twins. */
static void row_keys(const struct grasp_table *gt, char *group, char *key, char *draw, size_t len)
{
  char *const *f = gt->ts.field;
  grasp_table_group(gt, group, GRASP_GROUP_MAX);
  grasp_group_key(group, key, GRASP_GROUP_MAX);
  size_t w = 0;
  draw[0] = 0;
  for (int c = 1; c <= gt->n_axes && w < len; c++) {
    if (c == gt->formulation || c == gt->solver) continue;
    double v = grasp_number(f[c]);
    int k = isnan(v) ? snprintf(draw + w, len - w, "%s=%s\x1f", gt->ts.col[c], f[c])
                     : snprintf(draw + w, len - w, "%s=%.17g\x1f", gt->ts.col[c], v == 0.0 ? 0.0 : v);
    if (k < 0) break;
    w += (size_t)k;
  }
}

/* dir/tasks.csv (its path into path) opened: 0, or 2 with a message. */
static int open_tasks(struct grasp_table *gt, const char *dir, char *path, size_t len)
{
  snprintf(path, len, "%s/tasks.csv", dir);
  int rc = grasp_table_open(gt, path, "bench_grasp_pair");
  if (rc == 1) fprintf(stderr, "bench_grasp_pair: %s cannot be read\n", path);
  return rc ? 2 : 0;
}

/* The other run's trials into p (by draw). 0, or 2 with a message. */
static int read_other(struct pairing *p, const char *dir)
{
  char path[4200], group[GRASP_GROUP_MAX], key[GRASP_GROUP_MAX], draw[DRAW_MAX];
  struct grasp_table gt;
  int rc = open_tasks(&gt, dir, path, sizeof path), got = 0;
  if (rc) return rc;
  while (!rc && (got = table_stream_next(&gt.ts)) == 1) {
    row_keys(&gt, group, key, draw, sizeof draw);
    if (strmap_find(&p->draws, draw) >= 0) {
      fprintf(stderr,
              "bench_grasp_pair: %s holds the trial %s (%s, %s) mm, seed %s twice: compare runs of one "
              "method each\n",
              path, key, gt.ts.field[gt.x], gt.ts.field[gt.y], gt.ts.field[gt.seed]);
      rc = 2;
      break;
    }
    int gi = group_index(p, key);
    if (p->nt == p->cap_t) {
      long cap = p->cap_t ? 2 * p->cap_t : 1024;
      struct other_trial *b = realloc(p->t, (size_t)cap * sizeof *b);
      if (b) p->t = b, p->cap_t = cap;
    }
    if (gi < 0 || p->nt == p->cap_t || strmap_put(&p->draws, draw, (int)p->nt)) {
      fprintf(stderr, "bench_grasp_pair: out of memory reading %s\n", path);
      rc = 2;
      break;
    }
    if (!p->g[gi].there[0]) snprintf(p->g[gi].there, sizeof p->g[gi].there, "%s", group);
    const int outcome = grasp_outcome_index(gt.ts.field[gt.outcome]);
    p->t[p->nt++] = (struct other_trial){.outcome = (unsigned char)outcome,
                                         .finished = strcmp(gt.ts.field[gt.status], "ok") == 0,
                                         .group = gi};
  }
  if (!rc && got) rc = 2;
  grasp_table_close(&gt);
  return rc;
}

/* One discordant success on row y of g (here: this run's). 0, or 1 when out of memory. */
static int add_row(struct pair_group *g, double y, int here)
{
  int r = 0;
  while (r < g->n_rows && g->rows[r].y != y)
    r++;
  if (r == g->n_rows) {
    if (g->n_rows == g->cap_rows) {
      int cap = g->cap_rows ? 2 * g->cap_rows : 32;
      struct pair_row *b = realloc(g->rows, (size_t)cap * sizeof *b);
      if (!b) return 1;
      g->rows = b, g->cap_rows = cap;
    }
    g->rows[g->n_rows++] = (struct pair_row){.y = y};
  }
  if (here)
    g->rows[r].here++;
  else
    g->rows[r].there++;
  return 0;
}

/* This run's trials, each against its twin. 0, or 2 with a message. */
static int pair_trials(struct pairing *p, const char *dir)
{
  char path[4200], group[GRASP_GROUP_MAX], key[GRASP_GROUP_MAX], draw[DRAW_MAX];
  struct grasp_table gt;
  int rc = open_tasks(&gt, dir, path, sizeof path), got = 0, oom = 0;
  if (rc) return rc;
  while (!rc && !oom && (got = table_stream_next(&gt.ts)) == 1) {
    row_keys(&gt, group, key, draw, sizeof draw);
    int gi = group_index(p, key), j = strmap_find(&p->draws, draw);
    if (gi < 0) {
      oom = 1;
      break;
    }
    struct pair_group *g = &p->g[gi];
    if (!g->here[0]) snprintf(g->here, sizeof g->here, "%s", group);
    if (j < 0 || !p->t) { /* no twin (p->t is NULL only when the other run is empty) */
      g->here_only++;
      continue;
    }
    struct other_trial *o = &p->t[j];
    if (o->matched) {
      fprintf(stderr, "bench_grasp_pair: %s holds the trial %s (%s, %s) mm, seed %s twice\n", path, key,
              gt.ts.field[gt.x], gt.ts.field[gt.y], gt.ts.field[gt.seed]);
      rc = 2;
      break;
    }
    o->matched = 1;
    if (!g->there[0]) snprintf(g->there, sizeof g->there, "%s", p->g[o->group].there);
    int a = grasp_outcome_index(gt.ts.field[gt.outcome]), b = o->outcome;
    g->matched++;
    g->change[a][b]++;
    if (strcmp(gt.ts.field[gt.status], "ok") != 0 || !o->finished) continue;
    g->finished++;
    g->same += a == b;
    if ((a == GRASP_SUCCESS) != (b == GRASP_SUCCESS)) {
      g->only_here += a == GRASP_SUCCESS, g->only_there += b == GRASP_SUCCESS;
      oom = add_row(g, grasp_number(gt.ts.field[gt.y]), a == GRASP_SUCCESS);
    }
  }
  if (oom) fprintf(stderr, "bench_grasp_pair: out of memory reading %s\n", path);
  if (!rc && (oom || got)) rc = 2;
  grasp_table_close(&gt);
  for (long i = 0; !rc && p->t && i < p->nt; i++)
    if (!p->t[i].matched) p->g[p->t[i].group].there_only++;
  return rc;
}

/* McNemar's exact two-sided p of discordant counts b and c: twice the smaller binomial tail at 1/2. */
static double mcnemar_p(long b, long c)
{
  long n = b + c, k = b < c ? b : c;
  if (n == 0) return 1.0;
  double p = 2.0 * gsl_cdf_binomial_P((unsigned)k, 0.5, (unsigned)n);
  return p < 1.0 ? p : 1.0;
}

static double mcnemar_z(long b, long c) { return b + c ? (double)(b - c) / sqrt((double)(b + c)) : 0.0; }

struct change_count {
  int a, b;
  long n;
};

static int by_count(const void *x, const void *y)
{
  const struct change_count *u = x, *v = y;
  if (u->n != v->n) return u->n < v->n ? 1 : -1;
  return u->a != v->a ? u->a - v->a : u->b - v->b;
}

static const char *category(int o) { return o < GRASP_OUTCOMES ? grasp_outcomes[o] : "other"; }

/* One group's lines into f. */
static void report_group(FILE *f, const struct pair_group *g)
{
  fprintf(
      f,
      "%s against %s: %ld trials matched by draw (%ld only here, %ld only there); both finished %ld, "
      "same outcome %ld (%.2f %%); a success (outer_teeth) here only %ld, there only %ld (McNemar exact p "
      "%.3g, z %.2f)\n",
      g->here[0] ? g->here : g->key, g->there[0] ? g->there : "-", g->matched, g->here_only, g->there_only,
      g->finished, g->same, g->finished ? 100.0 * g->same / g->finished : 0.0, g->only_here, g->only_there,
      mcnemar_p(g->only_here, g->only_there), mcnemar_z(g->only_here, g->only_there));
  struct change_count ch[N_CAT * N_CAT];
  int n = 0;
  for (int a = 0; a < N_CAT; a++)
    for (int b = 0; b < N_CAT; b++)
      if (a != b && g->change[a][b]) ch[n++] = (struct change_count){a, b, g->change[a][b]};
  qsort(ch, (size_t)n, sizeof *ch, by_count);
  fprintf(f, "  outcome here -> there where they differ (matched trials, most common first):");
  for (int i = 0; i < n; i++)
    fprintf(f, "%s %s -> %s %ld", i ? ";" : "", category(ch[i].a), category(ch[i].b), ch[i].n);
  fprintf(f, n ? "\n" : " none\n");
  fprintf(f, "  rows y whose discordant successes give McNemar p < 0.05:");
  int rows = 0;
  for (int r = 0; r < g->n_rows; r++) {
    const struct pair_row *w = &g->rows[r];
    double pr = mcnemar_p(w->here, w->there);
    if (pr < 0.05)
      fprintf(f, "%s %g: here only %ld, there only %ld (p %.3g)", rows++ ? ";" : "", w->y, w->here, w->there,
              pr);
  }
  fprintf(f, rows ? "\n" : " none\n");
}

/* RUN_DIR/grasp_pair.txt (and stdout) and grasp_pair.csv. 0, or 2 with a message. */
static int write_pairing(const struct pairing *p, const char *dir, const char *other)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/grasp_pair.csv", dir);
  FILE *csv = fopen(path, "w");
  snprintf(path, sizeof path, "%s/grasp_pair.txt", dir);
  FILE *txt = csv ? fopen(path, "w") : NULL;
  if (!csv || !txt) {
    fprintf(stderr, "bench_grasp_pair: cannot write %s/grasp_pair.csv and .txt\n", dir);
    if (csv) fclose(csv);
    return 2;
  }
  fprintf(csv, "group,other_group,outcome,other_outcome,trials\n");
  FILE *const outs[] = {stdout, txt};
  for (int k = 0; k < 2; k++)
    fprintf(outs[k], "bench_grasp_pair %s %s: trial by trial (this run first)\n", dir, other);
  for (int i = 0; i < p->ng; i++) {
    const struct pair_group *g = &p->g[i];
    /* a group of the other run whose every trial met its twin under this run's group name */
    if (!g->matched && !g->here_only && !g->there_only) continue;
    for (int k = 0; k < 2; k++)
      report_group(outs[k], g);
    for (int a = 0; a < N_CAT; a++)
      for (int b = 0; b < N_CAT; b++)
        if (g->change[a][b])
          fprintf(csv, "%s,%s,%s,%s,%ld\n", g->here, g->there, category(a), category(b), g->change[a][b]);
  }
  int bad = ferror(csv) | ferror(txt);
  bad |= fclose(csv) != 0;
  bad |= fclose(txt) != 0;
  if (bad) fprintf(stderr, "bench_grasp_pair: writing %s/grasp_pair.csv or .txt failed\n", dir);
  return bad ? 2 : 0;
}

static int grasp_pair(const struct program *prog)
{
  if (prog->help) {
    printf("bench_grasp_pair RUN_DIR OTHER_RUN: two bench_grasp runs trial by trial, each trial matched with "
           "its\n"
           "twin (the same friction range, sensitivity axes, (x, y) and seed; any method): outcomes alike,\n"
           "McNemar's test of the discordant successes, the outcome changes, per row y (grasp_pair.txt,\n"
           "grasp_pair.csv in RUN_DIR).\n");
    return 0;
  }
  if (program_report_unused(prog, NULL, 0, NULL, 0, NULL)) return 2;
  struct pairing p = {0};
  int rc = read_other(&p, prog->positional[1]);
  if (!rc) rc = pair_trials(&p, prog->positional[0]);
  if (!rc) rc = write_pairing(&p, prog->positional[0], prog->positional[1]);
  for (int i = 0; i < p.ng; i++)
    free(p.g[i].rows);
  free(p.g);
  free(p.t);
  strmap_free(&p.draws);
  return rc;
}

int main(int argc, char **argv)
{
  static const struct program_spec spec = {.name = "bench_grasp_pair",
                                           .usage = "RUN_DIR OTHER_RUN",
                                           .positional_min = 2,
                                           .positional_max = 2,
                                           .no_mpi = 1};
  return program_main(&spec, argc, argv, grasp_pair);
}
