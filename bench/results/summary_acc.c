/* summary_acc.c — see summary_acc.h. A row's group is found by its key text as written (one hash lookup);
 * only a key text not seen before is put in canonical form, so that 1e-3 and 0.001 still share a group. */
#include "summary_acc.h"

#include "run_files.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The key of the stream's row into *buf (grown as needed): each field, canonical or as written, followed by
 * a separator no field holds. 0, or 1 when out of memory. */
static int key_text(const struct summary_acc *a, const struct table_stream *ts, int canonical, char **buf,
                    size_t *cap)
{
  size_t len = 1, at = 0;
  for (int k = 0; k < a->n_keys; k++)
    len += strlen(ts->field[a->key_col[k]]) + 32;
  if (len > *cap || !*buf) {
    size_t want = len < 256 ? 256 : len;
    char *b = realloc(*buf, want);
    if (!b) return 1;
    *buf = b, *cap = want;
  }
  for (int k = 0; k < a->n_keys; k++) {
    const char *f = ts->field[a->key_col[k]];
    if (canonical)
      rundir_canonical(f, *buf + at, len - at);
    else
      snprintf(*buf + at, len - at, "%s", f);
    at += strlen(*buf + at);
    (*buf)[at++] = '\x1f';
  }
  (*buf)[at] = '\0';
  return 0;
}

static int new_group(struct summary_acc *a, const struct table_stream *ts)
{
  if (a->n == a->cap) {
    int cap = a->cap ? 2 * a->cap : 16;
    struct summary_group *g = realloc(a->g, (size_t)cap * sizeof *g);
    if (!g) return -1;
    a->g = g, a->cap = cap;
  }
  struct summary_group *g = &a->g[a->n];
  memset(g, 0, sizeof *g);
  g->key = calloc((size_t)a->n_keys + 1, sizeof *g->key);
  a->n++; /* freed with the others whatever failed below */
  if (!g->key) return -1;
  for (int k = 0; k < a->n_keys; k++)
    if (!(g->key[k] = strdup(ts->field[a->key_col[k]]))) return -1;
  return a->n - 1;
}

/* The group of the stream's row, made when it is the first of its keys; -1 when out of memory. */
static int group_of(struct summary_acc *a, const struct table_stream *ts, char **buf, size_t *cap)
{
  if (key_text(a, ts, 0, buf, cap)) return -1;
  int g = strmap_find(&a->raw, *buf);
  if (g >= 0) return g;
  char *raw = strdup(*buf);
  if (!raw || key_text(a, ts, 1, buf, cap)) {
    free(raw);
    return -1;
  }
  g = strmap_find(&a->canon, *buf);
  if (g < 0 && ((g = new_group(a, ts)) < 0 || strmap_put(&a->canon, *buf, g))) g = -1;
  if (g >= 0 && strmap_put(&a->raw, raw, g)) g = -1;
  free(raw);
  return g;
}

/* A failure's status into the tallies (the first SUMMARY_STATUSES distinct ones are named). */
static int tally_failure(struct summary_acc *a, const char *st)
{
  int k = 0;
  while (k < a->ndistinct && strcmp(a->distinct[k], st) != 0)
    k++;
  if (k == a->ndistinct && a->ndistinct < SUMMARY_STATUSES) {
    if (!(a->distinct[k] = strdup(st))) return 1;
    a->ndistinct++;
  }
  if (k < a->ndistinct) a->tally[k]++;
  return 0;
}

static int take_row(struct summary_acc *a, const struct table_stream *ts, char **buf, size_t *cap)
{
  int gi = group_of(a, ts, buf, cap);
  if (gi < 0) return 1;
  struct summary_group *g = &a->g[gi];
  const char *st = ts->field[a->status_col];
  int o = sweep_status_is_success(st) ? 1 : sweep_status_is_failure(st) ? 0 : -1;
  a->nrow++;
  g->count++;
  g->applicable += o >= 0;
  g->successes += o == 1;
  a->nfail += o == 0, a->nna += o < 0;
  a->ncorrupt += o < 0 && strcmp(st, "corrupt_input") == 0;
  if (o == 0 && tally_failure(a, st)) return 1;
  int nv = a->n_metrics + a->n_costs;
  for (int j = 0; j < nv; j++)
    a->v[j] = table_field_number(ts->field[a->val_col[j]]);
  for (int j = 0; j < a->n_costs; j++)
    a->v[nv + j] = a->v[a->n_metrics + j];
  return cellstats_add(&a->st, gi, o, a->v);
}

/* The columns a reads, from r's header. */
static int find_columns(const struct rundir *r, struct summary_acc *a)
{
  const struct table *t = r->tasks;
  a->n_keys = r->group.n, a->n_metrics = r->metrics.n, a->n_costs = r->costs.n;
  a->key_col = calloc((size_t)a->n_keys + 1, sizeof *a->key_col);
  a->val_col = calloc((size_t)(a->n_metrics + a->n_costs) + 1, sizeof *a->val_col);
  if (!a->key_col || !a->val_col) return 1;
  for (int k = 0; k < a->n_keys; k++)
    a->key_col[k] = table_column(t, r->group.name[k]);
  for (int j = 0; j < a->n_metrics; j++)
    a->val_col[j] = table_column(t, r->metrics.name[j]);
  for (int j = 0; j < a->n_costs; j++)
    a->val_col[a->n_metrics + j] = table_column(t, r->costs.name[j]);
  a->status_col = r->status_col;
  int nv = a->n_metrics + 2 * a->n_costs;
  unsigned char *kind = calloc((size_t)nv + 1, 1);
  if (!kind || !(a->v = calloc((size_t)nv + 1, sizeof *a->v))) {
    free(kind);
    return 1;
  }
  for (int j = 0; j < a->n_metrics; j++)
    kind[j] = rundir_list_find(&r->shares, r->metrics.name[j]) >= 0 ? CELLSTATS_SHARE : CELLSTATS_QUARTILES;
  for (int j = 0; j < a->n_costs; j++)
    kind[a->n_metrics + a->n_costs + j] = CELLSTATS_TOTAL;
  int rc = cellstats_init(&a->st, nv, kind, CELLSTATS_BUDGET);
  free(kind);
  return rc;
}

int summary_acc_read(const struct rundir *r, struct summary_acc *a)
{
  char path[SWEEP_PATH_MAX + 32], *buf = NULL;
  size_t cap = 0;
  struct table_stream ts;
  memset(a, 0, sizeof *a);
  if (sweep_path(path, sizeof path, "%s/tasks.csv", r->dir)) return 2;
  int rc = table_stream_open(&ts, path, TABLE_STRICT), got = 0;
  if (!rc && find_columns(r, a)) rc = 2;
  while (!rc && (got = table_stream_next(&ts)) == 1)
    if (take_row(a, &ts, &buf, &cap)) {
      fprintf(stderr, "error: out of memory summarising %s\n", path);
      rc = 2;
    }
  table_stream_close(&ts);
  free(buf);
  if (!rc && !got && cellstats_finish(&a->st)) rc = 2;
  return rc ? 2 : got ? 2 : 0;
}

void summary_acc_free(struct summary_acc *a)
{
  for (int i = 0; a->g && i < a->n; i++) {
    struct summary_group *g = &a->g[i];
    for (int k = 0; g->key && k < a->n_keys; k++)
      free(g->key[k]);
    free(g->key);
  }
  for (int k = 0; k < a->ndistinct; k++)
    free(a->distinct[k]);
  free(a->g);
  free(a->key_col);
  free(a->val_col);
  free(a->v);
  cellstats_free(&a->st);
  strmap_free(&a->raw);
  strmap_free(&a->canon);
  memset(a, 0, sizeof *a);
}
