/* grasp_table.c — a bench_grasp run's tasks.csv as the grasp tools read it (grasp_table.h). */
#include "grasp_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const grasp_outcomes[GRASP_OUTCOMES] = {"outer_teeth", "other_teeth", "round",
                                                    "diametric",   "lost",        "solver_failure"};

int grasp_outcome_index(const char *name)
{
  int o = 0;
  while (o < GRASP_OUTCOMES && strcmp(name, grasp_outcomes[o]) != 0)
    o++;
  return o;
}

static const char *const known_axes[] = {"friction", "y", "x", "seed", "formulation", "solver"};
static const char *const axis_defaults[][2] = {
    {"friction_support", "friction"}, {"friction_gripper", "friction"}, {"close_force", "1"}};

/* Is axis column `name` to be named in the groups: it varies, or its one value (first) is not its default.
 * n_rows: the table's rows. */
static int axis_in_group(const char *name, int varies, const char *first, long n_rows)
{
  for (size_t i = 0; i < sizeof known_axes / sizeof known_axes[0]; i++)
    if (strcmp(name, known_axes[i]) == 0) return 0;
  if (varies) return 1;
  for (size_t i = 0; i < sizeof axis_defaults / sizeof axis_defaults[0]; i++)
    if (strcmp(name, axis_defaults[i][0]) == 0) return n_rows > 0 && strcmp(first, axis_defaults[i][1]) != 0;
  return 1;
}

/* Which axis columns (1 .. n_axes) name the groups: a first pass over the rows, keeping each axis's first
 * value and whether it varies. 0, or 2 with a message. */
static int axes_in_group(const char *path, int n_axes, int *in_group)
{
  struct table_stream ts;
  char **first = calloc((size_t)n_axes + 1, sizeof *first);
  int *varies = calloc((size_t)n_axes + 1, sizeof *varies), got = 2;
  long n_rows = 0;
  if (first && varies && table_stream_open(&ts, path, TABLE_STRICT) == 0) {
    int oom = 0;
    while (!oom && (got = table_stream_next(&ts)) == 1) {
      n_rows++;
      for (int c = 1; c <= n_axes && !oom; c++)
        if (!first[c] && !(first[c] = strdup(ts.field[c])))
          oom = 1;
        else
          varies[c] |= strcmp(ts.field[c], first[c]) != 0;
    }
    if (oom) got = 2;
    for (int c = 1; !got && c <= n_axes; c++)
      in_group[c] = axis_in_group(ts.col[c], varies[c], first[c] ? first[c] : "", n_rows);
    table_stream_close(&ts);
  }
  for (int c = 0; first && c <= n_axes; c++)
    free(first[c]);
  free(first);
  free(varies);
  return got ? 2 : 0;
}

int grasp_table_open(struct grasp_table *g, const char *path, const char *who)
{
  memset(g, 0, sizeof *g);
  int rc = table_stream_open(&g->ts, path, TABLE_STRICT);
  if (rc) return rc;
  struct table_stream *ts = &g->ts;
  g->friction = table_stream_column(ts, "friction");
  g->formulation = table_stream_column(ts, "formulation");
  g->solver = table_stream_column(ts, "solver");
  g->x = table_stream_column(ts, "x");
  g->y = table_stream_column(ts, "y");
  g->seed = table_stream_column(ts, "seed");
  g->status = table_stream_column(ts, "status");
  g->outcome = table_stream_column(ts, "outcome");
  g->n_axes = g->status - 1;
  if (g->friction < 0 || g->formulation < 0 || g->solver < 0 || g->x < 0 || g->y < 0 || g->seed < 0 ||
      g->outcome < 0 || g->n_axes < 1) {
    fprintf(stderr, "%s: %s is not a bench_grasp table\n", who, path);
    rc = 2;
  } else if (!(g->in_group = calloc((size_t)g->n_axes + 1, sizeof *g->in_group))) {
    fprintf(stderr, "%s: out of memory reading %s\n", who, path);
    rc = 2;
  }
  if (!rc) rc = axes_in_group(path, g->n_axes, g->in_group);
  if (rc) grasp_table_close(g);
  return rc;
}

void grasp_table_close(struct grasp_table *g)
{
  table_stream_close(&g->ts);
  free(g->in_group);
  g->in_group = NULL;
}

void grasp_table_group(const struct grasp_table *g, char *out, size_t len)
{
  char *const *f = g->ts.field;
  int w = snprintf(out, len, "%s/%s/%s", f[g->friction], f[g->formulation], f[g->solver]);
  for (int c = 1; c <= g->n_axes && w >= 0 && (size_t)w < len; c++)
    if (g->in_group[c]) w += snprintf(out + w, len - (size_t)w, "/%s=%s", g->ts.col[c], f[c]);
}

void grasp_group_key(const char *group, char *key, size_t len)
{
  const char *slash = strchr(group, '/');
  size_t head = slash ? (size_t)(slash - group) : strlen(group);
  const char *rest = slash ? strchr(slash + 1, '/') : NULL;
  rest = rest ? strchr(rest + 1, '/') : NULL; /* after friction/formulation/solver */
  snprintf(key, len, "%.*s%s", (int)head, group, rest ? rest : "");
}

double grasp_number(const char *s)
{
  char *end;
  if (!s[0]) return NAN;
  double v = strtod(s, &end);
  return *end ? NAN : v;
}

void grasp_cell_key(char *key, size_t len, const char *group, double x, double y)
{
  snprintf(key, len, "%s\x1f%.17g\x1f%.17g", group, x == 0.0 ? 0.0 : x, y == 0.0 ? 0.0 : y);
}
