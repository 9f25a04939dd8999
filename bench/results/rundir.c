/* rundir.c — reading a run directory (experiment.txt + tasks.csv) and grouping its rows; see rundir.h.
 * Grouping sorts the rows by a canonical key (numbers as %.17g of their value, other fields as text) and
 * then renumbers the groups by first appearance, so it is O(n log n) and its order is the table's. */
#include "rundir.h"

#include "results.h"
#include "run_files.h"
#include "strmap.h"

#include <errno.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static void list_free(struct rundir_list *l)
{
  for (int i = 0; i < l->n; i++)
    free(l->name[i]);
  free(l->name);
  l->name = NULL;
  l->n = 0;
}

/* Splits a comma-separated value into l (empty items skipped). */
static int list_parse(struct rundir_list *l, const char *value)
{
  list_free(l);
  size_t len = strlen(value);
  l->name = calloc(len / 2 + 2, sizeof *l->name);
  if (!l->name) return 1;
  const char *p = value;
  while (*p) {
    const char *c = strchr(p, ',');
    size_t k = c ? (size_t)(c - p) : strlen(p);
    while (k > 0 && p[k - 1] == ' ')
      k--;
    while (k > 0 && *p == ' ')
      p++, k--;
    if (k > 0) {
      char *s = malloc(k + 1);
      if (!s) return 1;
      memcpy(s, p, k);
      s[k] = '\0';
      l->name[l->n++] = s;
    }
    if (!c) break;
    p = c + 1;
  }
  return 0;
}

int rundir_list_set(struct rundir_list *l, const char *value) { return list_parse(l, value); }

/* Appends "axis=values" (a values_<axis> line) to l. 0, or 1 out of memory. */
static int sweep_append(struct rundir_list *l, const char *axis, const char *values)
{
  size_t n = strlen(axis) + strlen(values) + 2;
  char **grown = realloc(l->name, (size_t)(l->n + 1) * sizeof *grown), *item = malloc(n);
  if (grown) l->name = grown;
  if (!grown || !item) {
    free(item);
    return 1;
  }
  snprintf(item, n, "%s=%s", axis, values);
  l->name[l->n++] = item;
  return 0;
}

int rundir_list_find(const struct rundir_list *l, const char *name)
{
  for (int i = 0; i < l->n; i++)
    if (strcmp(l->name[i], name) == 0) return i;
  return -1;
}

void rundir_destroy(struct rundir **rp)
{
  if (!rp || !*rp) return;
  struct rundir *r = *rp;
  free(r->dir);
  free(r->experiment);
  free(r->title);
  free(r->plot_x);
  free(r->options);
  free(r->labels);
  struct rundir_list *lists[] = {&r->axes,     &r->group,  &r->metrics,       &r->costs,  &r->info,
                                 &r->series,   &r->units,  &r->higher_better, &r->floors, &r->counts,
                                 &r->per_step, &r->sweeps, &r->shares};
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
    list_free(lists[i]);
  table_destroy(&r->tasks);
  free(r);
  *rp = NULL;
}

/* Parses experiment.txt: "key value" lines, the value being the rest of the line. Unknown keys are
 * ignored (newer engines may add some); "experiment", "axes", "group" and "metrics" are required. */
static int read_experiment(struct rundir *r, const char *path)
{
  FILE *fp = fopen(path, "r");
  if (!fp) {
    fprintf(stderr, "error: cannot read %s: %s%s\n", path, strerror(errno),
            errno == ENOENT ? " (not a run directory?)" : "");
    return 2;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int rc = 0, seen = 0;
  while (!rc && (n = getline(&line, &cap, fp)) > 0) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = '\0';
    char *sp = strchr(line, ' ');
    const char *value = sp ? sp + 1 : "";
    if (sp) *sp = '\0';
    struct {
      const char *key;
      struct rundir_list *list;
      char **text;
      int bit;
    } keys[] = {{"experiment", NULL, &r->experiment, 1},
                {"title", NULL, &r->title, 0},
                {"plot_x", NULL, &r->plot_x, 0},
                {"options", NULL, &r->options, 0},
                {"labels", NULL, &r->labels, 0},
                {"axes", &r->axes, NULL, 2},
                {"group", &r->group, NULL, 4},
                {"metrics", &r->metrics, NULL, 8},
                {"costs", &r->costs, NULL, 0},
                {"info", &r->info, NULL, 0},
                {"series", &r->series, NULL, 0},
                {"units", &r->units, NULL, 0},
                {"higher_better", &r->higher_better, NULL, 0},
                {"floors", &r->floors, NULL, 0},
                {"counts", &r->counts, NULL, 0},
                {"per_step", &r->per_step, NULL, 0},
                {"shares", &r->shares, NULL, 0}};
    if (strcmp(line, "log_x") == 0) r->log_x = atoi(value) != 0;
    if (strncmp(line, "values_", 7) == 0) rc = sweep_append(&r->sweeps, line + 7, value);
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
      if (strcmp(line, keys[k].key) != 0) continue;
      seen |= keys[k].bit;
      if (keys[k].list)
        rc = list_parse(keys[k].list, value);
      else {
        free(*keys[k].text);
        rc = !(*keys[k].text = dup_str(value));
      }
    }
  }
  free(line);
  fclose(fp);
  if (rc) {
    fprintf(stderr, "error: out of memory reading %s\n", path);
    return 2;
  }
  if ((seen & 15) != 15) {
    fprintf(stderr, "error: %s lacks the key '%s'\n", path,
            !(seen & 1)   ? "experiment"
            : !(seen & 2) ? "axes"
            : !(seen & 4) ? "group"
                          : "metrics");
    return 2;
  }
  if (!r->title && !(r->title = dup_str(r->experiment))) return 2;
  if (!r->plot_x && !(r->plot_x = dup_str(""))) return 2;
  if (!r->options && !(r->options = dup_str(""))) return 2;
  if (!r->labels && !(r->labels = dup_str(""))) return 2;
  return 0;
}

static int require_columns(const struct rundir *r, const char *path, const char *key,
                           const struct rundir_list *l)
{
  for (int i = 0; i < l->n; i++)
    if (table_column(r->tasks, l->name[i]) < 0) {
      fprintf(stderr, "error: %s has no column '%s' (named by '%s' in experiment.txt)\n", path, l->name[i],
              key);
      return 2;
    }
  return 0;
}

/* tasks.csv's header alone, as a table without rows: 0, 1 (no such file), 2 (with a message). */
static int read_header(const char *path, struct table **t)
{
  struct table_stream ts;
  int rc = table_stream_open(&ts, path, TABLE_STRICT);
  if (!rc && !(*t = table_create(ts.ncol, (const char *const *)ts.col))) rc = 2;
  table_stream_close(&ts);
  return rc;
}

/* tasks.csv's columns that have a role in experiment.txt (status, axes, group, metrics, costs, series,
 * plot_x): read with rows mode 2. */
static int read_roles(const struct rundir *r, const char *path, struct table **t)
{
  const struct rundir_list *l[] = {&r->axes, &r->group, &r->metrics, &r->costs, &r->series};
  int n = 2, k = 0;
  for (size_t i = 0; i < sizeof l / sizeof l[0]; i++)
    n += l[i]->n;
  const char **keep = calloc((size_t)n, sizeof *keep);
  if (!keep) return 2;
  keep[k++] = "status";
  keep[k++] = r->plot_x;
  for (size_t i = 0; i < sizeof l / sizeof l[0]; i++)
    for (int j = 0; j < l[i]->n; j++)
      keep[k++] = l[i]->name[j];
  int rc = table_read_columns(path, TABLE_STRICT, k, keep, t);
  free(keep);
  return rc;
}

/* rows: 0 the header only, 1 every column, 2 the columns with a role. */
static int rundir_open(const char *dir, int rows, struct rundir **out)
{
  *out = NULL;
  char path[SWEEP_PATH_MAX + 32];
  struct rundir *r = calloc(1, sizeof *r);
  int rc = 2;
  if (!r || !(r->dir = dup_str(dir))) goto cleanup;
  if (sweep_path(path, sizeof path, "%s/experiment.txt", dir)) goto cleanup;
  if (read_experiment(r, path)) goto cleanup;
  if (sweep_path(path, sizeof path, "%s/tasks.csv", dir)) goto cleanup;
  int t = rows == 2 ? read_roles(r, path, &r->tasks)
          : rows    ? table_read(path, TABLE_STRICT, &r->tasks)
                    : read_header(path, &r->tasks);
  if (t == 1) fprintf(stderr, "error: %s does not exist (run bench_merge on an unmerged run)\n", path);
  if (t) goto cleanup;
  if ((r->status_col = table_column(r->tasks, "status")) < 0) {
    fprintf(stderr, "error: %s has no 'status' column\n", path);
    goto cleanup;
  }
  struct rundir_list x = {r->plot_x[0] ? 1 : 0, &r->plot_x};
  if (require_columns(r, path, "axes", &r->axes) || require_columns(r, path, "group", &r->group) ||
      require_columns(r, path, "metrics", &r->metrics) || require_columns(r, path, "costs", &r->costs) ||
      require_columns(r, path, "series", &r->series) || require_columns(r, path, "plot_x", &x))
    goto cleanup;
  for (int i = 0; i < r->higher_better.n; i++)
    if (rundir_list_find(&r->metrics, r->higher_better.name[i]) < 0) {
      fprintf(stderr, "error: %s/experiment.txt: higher_better names '%s', which is not a metric\n", dir,
              r->higher_better.name[i]);
      goto cleanup;
    }
  *out = r;
  r = NULL;
  rc = 0;
cleanup:
  rundir_destroy(&r);
  return rc;
}

int rundir_read(const char *dir, struct rundir **out) { return rundir_open(dir, 1, out); }

int rundir_read_header(const char *dir, struct rundir **out) { return rundir_open(dir, 0, out); }

int rundir_read_roles(const char *dir, struct rundir **out) { return rundir_open(dir, 2, out); }

const char *rundir_unit(const struct rundir *r, const char *name)
{
  size_t k = strlen(name);
  for (int i = 0; i < r->units.n; i++)
    if (strncmp(r->units.name[i], name, k) == 0 && r->units.name[i][k] == '=' && r->units.name[i][k + 1])
      return r->units.name[i] + k + 1;
  return NULL;
}

double rundir_floor(const struct rundir *r, const char *name)
{
  size_t k = strlen(name);
  for (int i = 0; i < r->floors.n; i++)
    if (strncmp(r->floors.name[i], name, k) == 0 && r->floors.name[i][k] == '=') {
      double v = strtod(r->floors.name[i] + k + 1, NULL);
      return v > 0.0 ? v : 0.0;
    }
  return 0.0;
}

void rundir_label(const struct rundir *r, const char *name, char *buf, size_t n)
{
  const char *u = rundir_unit(r, name);
  if (u)
    snprintf(buf, n, "%s [%s]", name, u);
  else
    snprintf(buf, n, "%s", name);
}

void rundir_help_label(const struct rundir *r, const char *name, char *buf, size_t n)
{
  size_t k = strlen(name), at = 0;
  const char *p = r->labels;
  /* entries split at a '|' that no backslash escapes; a backslash keeps the next character as it is */
  while (p && *p) {
    int match = strncmp(p, name, k) == 0 && p[k] == '=';
    if (match) p += k + 1;
    for (; *p && *p != '|'; p++) {
      if (*p == '\\' && p[1]) p++;
      if (match && at + 1 < n) buf[at++] = *p;
    }
    if (match && at) {
      const char *u = rundir_unit(r, name);
      buf[at] = '\0';
      if (u) snprintf(buf + at, n - at, " [%s]", u);
      return;
    }
    if (*p) p++;
  }
  rundir_label(r, name, buf, n);
}

int rundir_outcome(const struct rundir *r, int row)
{
  const char *s = table_get(r->tasks, row, r->status_col);
  if (sweep_status_is_success(s)) return 1;
  return sweep_status_is_failure(s) ? 0 : -1;
}

/* 1 when s is a decimal integer that %.17g prints as it is: an optional '-', then "0" or up to 15 digits
 * without a leading zero (every such number is a double exactly and has no exponent in %.17g). */
static int plain_integer(const char *s)
{
  const char *d = s + (s[0] == '-');
  size_t k = 0;
  while (d[k] >= '0' && d[k] <= '9')
    k++;
  return k > 0 && k <= 15 && !d[k] && (d[0] != '0' || k == 1);
}

void rundir_canonical(const char *s, char *buf, size_t n)
{
  if (plain_integer(s) &&
      n > 0) { /* seeds, ids, sizes: their own canonical form, without strtod and printf */
    size_t len = strlen(s);
    if (len >= n) len = n - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return;
  }
  char *end = NULL;
  double v = s[0] ? strtod(s, &end) : 0.0;
  if (end && end != s && !*end)
    snprintf(buf, n, "%.17g", v);
  else
    snprintf(buf, n, "%s", s);
}

static int fields_equal(const char *a, const char *b)
{
  if (strcmp(a, b) == 0) return 1;
  char *ea, *eb;
  if (!a[0] || !b[0]) return 0;
  double x = strtod(a, &ea), y = strtod(b, &eb);
  return !*ea && !*eb && x == y;
}

int rundir_in_sweep(const struct rundir *r, const char *axis, const char *value)
{
  size_t k = strlen(axis);
  for (int i = 0; i < r->sweeps.n; i++) {
    const char *e = r->sweeps.name[i];
    if (strncmp(e, axis, k) != 0 || e[k] != '=') continue;
    for (const char *p = e + k + 1; *p;) {
      const char *c = strchr(p, ',');
      size_t len = c ? (size_t)(c - p) : strlen(p);
      char item[256];
      snprintf(item, sizeof item, "%.*s", (int)len, p);
      if (fields_equal(item, value)) return 1;
      if (!c) break;
      p = c + 1;
    }
    return 0;
  }
  return 1; /* not declared (an older run): every value counts as asked for */
}

int rundir_same_keys(const struct table *ta, int a, const int *ca, const struct table *tb, int b,
                     const int *cb, int n_keys)
{
  for (int k = 0; k < n_keys; k++)
    if (!fields_equal(table_get(ta, a, ca[k]), table_get(tb, b, cb[k]))) return 0;
  return 1;
}

void rundir_groups_destroy(struct rundir_groups **gp)
{
  if (!gp || !*gp) return;
  struct rundir_groups *g = *gp;
  free(g->key_col);
  free(g->of_row);
  free(g->first);
  free(g->start);
  free(g->rows);
  free(g);
  *gp = NULL;
}

/* Row i's key into *buf (grown as needed): each key column as written (canonical: in canonical form),
 * each followed by a separator no field holds. 0, or 1 when out of memory. */
static int row_key(const struct table *t, int i, const int *cols, int n_keys, int canonical, char **buf,
                   size_t *cap)
{
  size_t len = 1, at = 0;
  for (int k = 0; k < n_keys; k++)
    len += strlen(table_get(t, i, cols[k])) + 32;
  if (!*buf || len > *cap) {
    char *b = realloc(*buf, len);
    if (!b) return 1;
    *buf = b, *cap = len;
  }
  for (int k = 0; k < n_keys; k++) {
    const char *f = table_get(t, i, cols[k]);
    if (canonical) {
      rundir_canonical(f, *buf + at, len - at);
      at += strlen(*buf + at);
    } else {
      size_t n = strlen(f);
      memcpy(*buf + at, f, n);
      at += n;
    }
    (*buf)[at++] = '\x1f';
  }
  (*buf)[at] = '\0';
  return 0;
}

/* The group of each row (of_row), numbered in order of first appearance (first): a row's key text as
 * written is looked up in a hash map, and only a text not seen before is put in canonical form, so that 1e-3
 * and 0.001 share a group. Memory for the distinct keys, not a sort of the rows. -1 when out of memory. */
static int label_groups(const struct table *t, struct rundir_groups *g, int **first)
{
  struct strmap raw = {0}, canon = {0};
  char *buf = NULL, *as_written = NULL;
  size_t cap = 0;
  int cap_first = 0, rc = -1;
  for (int i = 0; i < t->nrow; i++) {
    if (row_key(t, i, g->key_col, g->n_keys, 0, &buf, &cap)) goto cleanup;
    int k = strmap_find(&raw, buf);
    if (k < 0) {
      if (!(as_written = strdup(buf)) || row_key(t, i, g->key_col, g->n_keys, 1, &buf, &cap)) goto cleanup;
      if ((k = strmap_find(&canon, buf)) < 0) {
        if (g->n == cap_first) {
          int c = cap_first ? 2 * cap_first : 16;
          int *f = realloc(*first, (size_t)c * sizeof *f);
          if (!f) goto cleanup;
          *first = f, cap_first = c;
        }
        (*first)[g->n] = i;
        k = g->n++;
        if (strmap_put(&canon, buf, k)) goto cleanup;
      }
      if (strmap_put(&raw, as_written, k)) goto cleanup;
      free(as_written);
      as_written = NULL;
    }
    g->of_row[i] = k;
  }
  rc = 0;
cleanup:
  free(as_written);
  free(buf);
  strmap_free(&raw);
  strmap_free(&canon);
  return rc;
}

int rundir_group(const struct rundir *r, int n_keys, char *const *keys, struct rundir_groups **out)
{
  *out = NULL;
  const struct table *t = r->tasks;
  int nrow = t->nrow, rc = 1, missing = 0, *fill = NULL;
  struct rundir_groups *g = calloc(1, sizeof *g);
  if (!g) goto cleanup;
  g->n_keys = n_keys;
  g->key_col = calloc((size_t)n_keys + 1, sizeof *g->key_col);
  g->of_row = calloc((size_t)nrow + 1, sizeof *g->of_row);
  g->rows = calloc((size_t)nrow + 1, sizeof *g->rows);
  if (!g->key_col || !g->of_row || !g->rows) goto cleanup;
  for (int k = 0; k < n_keys; k++)
    if ((g->key_col[k] = table_column(t, keys[k])) < 0) {
      fprintf(stderr, "error: %s/tasks.csv has no column '%s' to group by\n", r->dir, keys[k]);
      missing = 1;
      goto cleanup;
    }
  if (label_groups(t, g, &g->first)) goto cleanup;
  if (!g->first && !(g->first = calloc(1, sizeof *g->first))) goto cleanup;
  if (!(g->start = calloc((size_t)g->n + 2, sizeof *g->start))) goto cleanup;
  for (int i = 0; i < nrow; i++)
    g->start[g->of_row[i] + 1]++;
  for (int k = 0; k < g->n; k++)
    g->start[k + 1] += g->start[k];
  if (!(fill = calloc((size_t)g->n + 1, sizeof *fill))) goto cleanup;
  for (int i = 0; i < nrow; i++) {
    int k = g->of_row[i];
    g->rows[g->start[k] + fill[k]++] = i;
  }
  *out = g;
  g = NULL;
  rc = 0;
cleanup:
  if (rc && !missing) fprintf(stderr, "error: out of memory grouping %s/tasks.csv\n", r->dir);
  free(fill);
  rundir_groups_destroy(&g);
  return rc;
}

int rundir_values(const struct rundir *r, const struct rundir_groups *g, int grp, int col, int success_only,
                  double *out)
{
  int n = 0;
  for (int k = g->start[grp]; k < g->start[grp + 1]; k++) {
    int i = g->rows[k];
    if (success_only && rundir_outcome(r, i) != 1) continue;
    double v = table_number(r->tasks, i, col);
    if (isfinite(v)) out[n++] = v;
  }
  gsl_sort(out, 1, (size_t)n);
  return n;
}
