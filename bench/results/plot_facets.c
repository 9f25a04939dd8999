/* plot_facets.c — facets: which panel each series goes to when there are too many series for one graph
 * (or bench_plot -facet asks for panels), and the look of a series in an overlay of runs (baseline and
 * variant in the same colour, the variant dashed with open points). */
#include "plot_impl.h"

#include <stdlib.h>
#include <string.h>

void plot_facets_free(struct plot_facets *f)
{
  for (int k = 0; f->name && k < f->n; k++)
    free(f->name[k]);
  free(f->name);
  free(f->panel);
  free(f->panel_label);
  free(f->at);
  free(f->in_size);
  free(f->base_of);
  memset(f, 0, sizeof *f);
}

/* The look of series s: its own, or in an overlay that of the same series of the baseline. */
int plot_look(const struct plot_facets *f, int s)
{
  if (f->base_of && f->base_of[s] >= 0) s = f->base_of[s];
  return f->n > 1 && f->at ? f->at[s] : s;
}
double plot_look_width(const struct plot_facets *f, int s, int ns)
{
  return f->n > 1 && f->at ? plot_width(f->at[s], f->in_size[s]) : plot_width(s, ns);
}
/* 1 for a series of a variant run in an overlay: dashed with open points. */
int plot_variant(const struct plot_facets *f, int s) { return f->base_of && f->base_of[s] != s; }

/* The panel key of series s: the value of facet series column fk (-1: the family prefix). */
static void facet_key(const struct rundir *r, const struct plot_series *ps, int s, int fk, char *buf,
                      size_t n)
{
  const char *v = ps->g->n_keys ? table_get(r->tasks, ps->g->first[s], ps->g->key_col[fk < 0 ? 0 : fk]) : "";
  size_t len = strlen(v);
  if (fk < 0 && strchr(v, '_')) len = (size_t)(strchr(v, '_') - v);
  snprintf(buf, n, "%.*s", (int)len, v);
}

/* The panels of the series (see plot_impl.h). */
static int facets_assign(const struct rundir *r, const struct plot_series *ps, const char *facet,
                         struct plot_facets *f)
{
  int ns = ps->g->n;
  memset(f, 0, sizeof *f);
  f->panel = calloc((size_t)ns + 1, sizeof *f->panel);
  f->panel_label = calloc((size_t)ns + 1, sizeof *f->panel_label);
  f->name = calloc((size_t)ns + 1, sizeof *f->name);
  if (!f->panel || !f->panel_label || !f->name) return 1;
  for (int s = 0; s < ns; s++)
    f->panel_label[s] = ps->label[s];
  f->key_title = ps->title;
  int fk = -2; /* -2 none, -1 family of key 0, >= 0 the series key */
  if (facet && facet[0])
    fk = rundir_list_find(&r->series, facet);
  else if (ns > FACET_MIN)
    fk = r->series.n > 1 ? 0 : r->series.n == 1 ? -1 : -2;
  char key[256];
  for (int s = 0; fk > -2 && s < ns; s++) {
    facet_key(r, ps, s, fk, key, sizeof key);
    int k = 0;
    while (k < f->n && f->name[k] && strcmp(f->name[k], key) != 0)
      k++;
    if (k == f->n && !(f->name[f->n++] = strdup(key))) return 1;
    f->panel[s] = k;
  }
  /* a family split that explains nothing (one panel, or one series a panel): blocks of six instead */
  if (fk == -1 && (f->n < 2 || f->n >= ns - 1) && ns > FACET_MIN) {
    for (int k = 0; k < f->n; k++)
      free(f->name[k]);
    f->n = 0;
    for (int s = 0; s < ns; s++) {
      f->panel[s] = s / 6;
      if (s % 6 == 0) {
        snprintf(key, sizeof key, "series %d-%d", s + 1, s + 6 < ns ? s + 6 : ns);
        if (!(f->name[f->n++] = strdup(key))) return 1;
      }
    }
    return 0;
  }
  if (fk < 0) {
    if (!f->n && !(f->name[f->n++] = strdup(""))) return 1;
    return 0;
  }
  /* within a panel of a series axis the series are named by the other axes (after "fk value / ") */
  for (int s = 0; s < ns && r->series.n > 1; s++) {
    const char *l = ps->label[s];
    for (int k = 0; k < fk && strstr(l, " / "); k++)
      l = strstr(l, " / ") + 3;
    if (fk == 0 && strstr(l, " / ")) f->panel_label[s] = strstr(l, " / ") + 3;
  }
  if (fk == 0 && r->series.n > 1 && strstr(ps->title, " / ")) f->key_title = strstr(ps->title, " / ") + 3;
  return 0;
}

int plot_facets_make(const struct rundir *r, const struct plot_series *ps, const char *facet,
                     struct plot_facets *f)
{
  int ns = ps->g->n;
  if (facets_assign(r, ps, facet, f)) return 1;
  f->at = calloc((size_t)ns + 1, sizeof *f->at);
  f->in_size = calloc((size_t)ns + 1, sizeof *f->in_size);
  if (!f->at || !f->in_size) return 1;
  for (int s = 0; s < ns; s++)
    for (int t = 0; t < ns; t++) {
      f->at[s] += t < s && f->panel[t] == f->panel[s];
      f->in_size[s] += f->panel[t] == f->panel[s];
    }
  return 0;
}
