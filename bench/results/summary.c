/* summary.c — sweep_summarize: tasks.csv -> summary.csv and summary.md, one row per group (the "group"
 * axes of experiment.txt, in order of first appearance in tasks.csv).
 * Per group: count (rows), applicable (rows not "not_applicable" or "corrupt_input"), successes
 * ("ok"/"converged"), success_rate = successes / applicable (empty when nothing is applicable); for each
 * accuracy metric the median and quartiles (GSL, linear interpolation between order statistics) over the
 * successful rows with a finite value; for each cost the median over successful rows (a fast failure must not
 * make a method look cheap) and the total over every row with a value (what the sweep spent). No value =
 * empty field. A share metric (0/1 per task, sweep.h) gets its share over the successful rows and its Wilson
 * 95 % interval (NAME_share, NAME_lo95, NAME_hi95) in place of the median and quartiles. */
#include "results.h"
#include "run_files.h"
#include "rundir.h"
#include "share.h"
#include "summary_acc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY_NUM 40 /* room for one %.17g number */

static void put_number(char *buf, double v)
{
  if (isfinite(v))
    snprintf(buf, SUMMARY_NUM, "%.17g", v);
  else
    buf[0] = '\0';
}

/* The columns of summary.csv in order, and their number. */
static int summary_columns(const struct rundir *r, char ***names)
{
  int n = r->group.n + 4 + 3 * r->metrics.n + 2 * r->costs.n, k = 0;
  char **c = calloc((size_t)n, sizeof *c);
  if (!c) return -1;
  const char *fixed[] = {"count", "applicable", "successes", "success_rate"};
  for (int j = 0; j < r->group.n; j++)
    c[k++] = strdup(r->group.name[j]);
  for (int j = 0; j < 4; j++)
    c[k++] = strdup(fixed[j]);
  const char *ms[] = {"median", "q1", "q3"}, *ss[] = {"share", "lo95", "hi95"}, *cs[] = {"median", "total"};
  for (int m = 0; m < r->metrics.n; m++) {
    const int share = rundir_list_find(&r->shares, r->metrics.name[m]) >= 0;
    for (int j = 0; j < 3; j++)
      if ((c[k] = malloc(strlen(r->metrics.name[m]) + 8)))
        sprintf(c[k++], "%s_%s", r->metrics.name[m], share ? ss[j] : ms[j]);
  }
  for (int m = 0; m < r->costs.n; m++)
    for (int j = 0; j < 2; j++)
      if ((c[k] = malloc(strlen(r->costs.name[m]) + 8))) sprintf(c[k++], "%s_%s", r->costs.name[m], cs[j]);
  *names = c;
  if (k == n) return n;
  for (int j = 0; j < n; j++)
    free(c[j]);
  free(c);
  return -1;
}

/* The numbers of group grp in summary.csv's order after its keys: count, applicable, successes, success_rate,
 * each metric's median, q1, q3 (a share metric's share and Wilson interval), each cost's median and total
 * (summary_acc.h: a->st's columns). */
static int group_numbers(const struct summary_acc *a, int grp, double *x)
{
  const struct summary_group *g = &a->g[grp];
  int k = 0;
  x[k++] = g->count, x[k++] = g->applicable, x[k++] = g->successes;
  x[k++] = g->applicable ? (double)g->successes / g->applicable : NAN;
  for (int m = 0; m < a->n_metrics; m++, k += 3)
    memcpy(x + k, cellstats_q(&a->st, grp, m), 3 * sizeof *x);
  for (int c = 0; c < a->n_costs; c++) {
    x[k++] = cellstats_q(&a->st, grp, a->n_metrics + c)[0];
    x[k++] = cellstats_q(&a->st, grp, a->n_metrics + a->n_costs + c)[0];
  }
  return k;
}

/* Builds the summary table (text fields). */
static int build_summary(const struct rundir *r, const struct summary_acc *a, struct table **out)
{
  char **names = NULL, *cells = NULL;
  const char **f = NULL;
  int n = summary_columns(r, &names), rc = 1;
  double *x = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof *x);
  *out = NULL;
  if (n < 0 || !x) goto cleanup;
  struct table *t = table_create(n, (const char *const *)names);
  f = calloc((size_t)n + 1, sizeof *f);
  cells = calloc((size_t)n + 1, SUMMARY_NUM);
  if (!t || !f || !cells) {
    table_destroy(&t);
    goto cleanup;
  }
  for (int grp = 0; grp < a->n; grp++) {
    int k = 0;
    for (int j = 0; j < a->n_keys; j++)
      f[k++] = a->g[grp].key[j];
    int nx = group_numbers(a, grp, x);
    for (int j = 0; j < nx; j++, k++)
      put_number(cells + (size_t)k * SUMMARY_NUM, x[j]), f[k] = cells + (size_t)k * SUMMARY_NUM;
    if (table_append(t, f)) {
      table_destroy(&t);
      goto cleanup;
    }
  }
  *out = t;
  rc = 0;
cleanup:
  for (int j = 0; names && j < n; j++)
    free(names[j]);
  free(names);
  free(f);
  free(cells);
  free(x);
  return rc;
}

/* A number for a reader: 3 significant digits, "-" when there is none. */
static void short_number(const char *field, char *buf, size_t n)
{
  char *end;
  double v = field[0] ? strtod(field, &end) : NAN;
  if (!field[0] || *end || !isfinite(v))
    snprintf(buf, n, "-");
  else
    snprintf(buf, n, "%.3g", v);
}

/* The first lines of summary.md: the title, the experiment and its options, and the group keys that never
 * vary (keep[j] = 0: stated here instead of repeated in every row). */
static void markdown_header(const struct rundir *r, const struct summary_acc *a, const struct table *s,
                            int *keep, FILE *fp)
{
  fprintf(fp, "# %s\n\nExperiment `%s`: %ld tasks in %d groups", r->title, r->experiment, a->nrow, a->n);
  if (r->options[0]) fprintf(fp, "; options `%s`", r->options);
  fprintf(fp, ".\n");
  int constant = 0;
  for (int j = 0; j < a->n_keys; j++) {
    keep[j] = 0;
    for (int i = 1; i < s->nrow && !keep[j]; i++)
      keep[j] = strcmp(table_get(s, i, j), table_get(s, 0, j)) != 0;
    if (!keep[j] && s->nrow > 1)
      fprintf(fp, "%s %s = %s", constant++ ? "," : "Every group has", s->col[j], table_get(s, 0, j));
    else
      keep[j] = 1;
  }
  if (constant) fprintf(fp, ".\n");
}

/* The failures by status, in order of first appearance, the not_applicable and corrupt_input tasks, and
 * what the table's numbers are. */
static void markdown_failures(const struct rundir *r, const struct summary_acc *a, FILE *fp)
{
  int nfail = a->nfail, nna = a->nna, ncorrupt = a->ncorrupt;
  if (nfail) {
    fprintf(fp, "Failures: %d of %ld applicable tasks (", nfail, a->nrow - nna);
    for (int k = 0; k < a->ndistinct; k++)
      fprintf(fp, "%s%d %s", k ? ", " : "", a->tally[k], a->distinct[k]);
    fprintf(fp, ").");
  } else
    fprintf(fp, "No failures.");
  if (nna - ncorrupt)
    fprintf(fp, " %d not_applicable tasks are left out of the success rates.", nna - ncorrupt);
  if (ncorrupt)
    fprintf(fp, " %d corrupt_input tasks (damaged input, no method's failure) are left out of them too.",
            ncorrupt);
  fprintf(fp, "\nMedians over successful tasks; quartiles and cost totals are in summary.csv.");
  for (int k = 0; k < r->shares.n; k++)
    fprintf(fp, "%s%s",
            k ? ", " : " Shares of the successful tasks (Wilson 95 % intervals in summary.csv) for ",
            r->shares.name[k]);
  if (r->shares.n) fprintf(fp, ".");
  for (int k = 0; k < r->higher_better.n; k++)
    fprintf(fp, "%s%s", k ? ", " : " Higher is better for ", r->higher_better.name[k]);
  fprintf(fp, "%s\n\n", r->higher_better.n ? "; lower for the other metrics." : "");
}

/* The markdown table's columns that are not a summary column: n and "succeeded/applicable". */
enum { MD_COUNT = -1, MD_SUCCEEDED = -2 };

/* The markdown table's columns: the kept keys, n, succeeded, the metric medians, the cost medians; src[j]
 * is the summary column of column j, or MD_COUNT / MD_SUCCEEDED. Their number. */
static int markdown_columns(const struct rundir *r, int n_keys, const int *keep, int *src)
{
  int ncol = 0;
  for (int j = 0; j < n_keys; j++)
    if (keep[j]) src[ncol++] = j;
  src[ncol++] = MD_COUNT;
  src[ncol++] = MD_SUCCEEDED;
  for (int m = 0; m < r->metrics.n; m++)
    src[ncol++] = n_keys + 4 + 3 * m; /* <metric>_median */
  for (int c = 0; c < r->costs.n; c++)
    src[ncol++] = n_keys + 4 + 3 * r->metrics.n + 2 * c; /* <cost>_median */
  return ncol;
}

/* The head of the column whose source is sj: a key's or a metric's or a cost's label. */
static void markdown_head(const struct rundir *r, int n_keys, const struct table *s, int sj, char *head,
                          size_t size)
{
  if (sj == MD_COUNT)
    snprintf(head, size, "n");
  else if (sj == MD_SUCCEEDED)
    snprintf(head, size, "succeeded");
  else if (sj < n_keys)
    rundir_label(r, s->col[sj], head, size);
  else {
    const char *base = sj < n_keys + 4 + 3 * r->metrics.n
                           ? r->metrics.name[(sj - n_keys - 4) / 3]
                           : r->costs.name[(sj - n_keys - 4 - 3 * r->metrics.n) / 2];
    rundir_label(r, base, head, size);
  }
}

/* The text of summary row i in the column whose source is sj: a key as it is, numbers shortened. */
static void markdown_cell(int n_keys, const struct table *s, int i, int sj, char *buf, size_t size)
{
  if (sj == MD_SUCCEEDED) {
    int app = atoi(table_get(s, i, n_keys + 1)), suc = atoi(table_get(s, i, n_keys + 2));
    if (app)
      snprintf(buf, size, "%d/%d", suc, app);
    else
      snprintf(buf, size, "n/a");
  } else if (sj == MD_COUNT)
    snprintf(buf, size, "%s", table_get(s, i, n_keys));
  else if (sj < n_keys)
    snprintf(buf, size, "%s", table_get(s, i, sj));
  else
    short_number(table_get(s, i, sj), buf, size);
}

/* The cells, row-major: the heads, then a row per group. 0, or 1 when out of memory. */
static int markdown_fill(const struct rundir *r, int n_keys, const struct table *s, const int *src, int ncol,
                         char **cell)
{
  for (int j = 0; j < ncol; j++) {
    char head[256];
    markdown_head(r, n_keys, s, src[j], head, sizeof head);
    if (!(cell[j] = strdup(head))) return 1;
    for (int i = 0; i < s->nrow; i++) {
      char buf[64];
      markdown_cell(n_keys, s, i, src[j], buf, sizeof buf);
      if (!(cell[(size_t)(i + 1) * ncol + j] = strdup(buf))) return 1;
    }
  }
  return 0;
}

/* The aligned table: keys and text left-aligned, numbers right-aligned (so marked under the head). 0, or 1
 * when out of memory. */
static int markdown_table(FILE *fp, char *const *cell, const int *src, int ncol, int nrow, int n_keys)
{
  size_t *width = calloc((size_t)ncol, sizeof *width);
  if (!width) return 1;
  for (int i = 0; i < nrow; i++)
    for (int j = 0; j < ncol; j++) {
      size_t w = strlen(cell[(size_t)i * ncol + j]);
      if (w > width[j]) width[j] = w;
    }
  for (int i = 0; i < nrow; i++) {
    for (int j = 0; j < ncol; j++) {
      int right = src[j] < 0 || src[j] >= n_keys;
      fprintf(fp, "| %*s%-*s ", right ? (int)width[j] : 0, right ? cell[(size_t)i * ncol + j] : "",
              right ? 0 : (int)width[j], right ? "" : cell[(size_t)i * ncol + j]);
    }
    fprintf(fp, "|\n");
    if (i == 0) {
      for (int j = 0; j < ncol; j++) {
        int right = src[j] < 0 || src[j] >= n_keys;
        fputs("|", fp);
        for (size_t k = 0; k < width[j] + 2; k++)
          fputc(right && k == width[j] + 1 ? ':' : '-', fp);
      }
      fprintf(fp, "|\n");
    }
  }
  free(width);
  return 0;
}

/* summary.md: the title, what is constant, the failures by status, then an aligned markdown table with a
 * row per group (group keys that never vary are stated above the table instead of repeated). */
static int write_markdown(const struct rundir *r, const struct summary_acc *a, const struct table *s,
                          FILE *fp)
{
  int ncol = 0, rc = 1, nrow = s->nrow + 1;
  int *src = calloc((size_t)s->ncol + 1, sizeof *src), *keep = calloc((size_t)a->n_keys + 1, sizeof *keep);
  char **cell = NULL;
  if (!src || !keep) goto cleanup;
  markdown_header(r, a, s, keep, fp);
  markdown_failures(r, a, fp);
  ncol = markdown_columns(r, a->n_keys, keep, src);
  cell = calloc((size_t)ncol * (size_t)nrow, sizeof *cell);
  if (!cell || markdown_fill(r, a->n_keys, s, src, ncol, cell) ||
      markdown_table(fp, cell, src, ncol, nrow, a->n_keys))
    goto cleanup;
  rc = ferror(fp) != 0;
cleanup:
  for (size_t i = 0; cell && i < (size_t)ncol * (size_t)nrow; i++)
    free(cell[i]);
  free(cell);
  free(src);
  free(keep);
  return rc;
}

/* Writes dir/name through a temporary file and a rename, so a reader never sees half a file. */
static int write_atomically(const struct rundir *r, const struct summary_acc *a, const struct table *s,
                            const char *name, int markdown)
{
  char path[SWEEP_PATH_MAX + 32], tmp[SWEEP_PATH_MAX + 64];
  if (sweep_path(path, sizeof path, "%s/%s", r->dir, name) || sweep_path(tmp, sizeof tmp, "%s.tmp", path))
    return 1;
  FILE *fp = fopen(tmp, "w");
  if (!fp) {
    fprintf(stderr, "error: cannot write %s: %s\n", tmp, strerror(errno));
    return 1;
  }
  errno = 0;
  int bad = markdown ? write_markdown(r, a, s, fp) : table_write(s, fp);
  bad |= fclose(fp) != 0;
  if (bad || rename(tmp, path)) {
    fprintf(stderr, "error: cannot write %s: %s\n", path, errno ? strerror(errno) : "write error");
    remove(tmp);
    return 1;
  }
  return 0;
}

int sweep_summarize(const char *run_dir)
{
  struct rundir *r = NULL;
  struct summary_acc a;
  struct table *s = NULL;
  int rc = 2;
  memset(&a, 0, sizeof a);
  if (rundir_read_header(run_dir, &r) || summary_acc_read(r, &a)) goto cleanup;
  rc = 1;
  if (build_summary(r, &a, &s)) goto cleanup;
  if (write_atomically(r, &a, s, "summary.csv", 0) || write_atomically(r, &a, s, "summary.md", 1))
    goto cleanup;
  rc = 0;
cleanup:
  table_destroy(&s);
  summary_acc_free(&a);
  rundir_destroy(&r);
  return rc;
}
