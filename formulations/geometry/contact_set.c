/* contact_set.c — the growable contact set (contact_set.h) and the names of contact feature pairs. */
#include "contact_set.h"

#include <stdlib.h>

int contact_set_push(struct contact_set *s, const struct contact *c)
{
  if (s->n == s->cap) {
    int nc = s->cap ? 2 * s->cap : 64;
    struct contact *p = realloc(s->c, (size_t)nc * sizeof *p);
    if (!p) return 1;
    s->c = p;
    s->cap = nc;
  }
  s->c[s->n++] = *c;
  return 0;
}

void contact_set_clear(struct contact_set *s) { s->n = 0; }

void contact_set_free(struct contact_set *s)
{
  free(s->c);
  s->c = NULL;
  s->n = s->cap = 0;
}

double contact_set_max_penetration(const struct contact_set *s)
{
  double m = 0.0;
  for (int i = 0; i < s->n; i++)
    if (-s->c[i].gap > m) m = -s->c[i].gap;
  return m;
}

const char *contact_feature_name(const struct contact *c)
{
  static const char *const names[5][5] = {
      {"none-none", "none-vertex", "none-edge", "none-face", "none-surface"},
      {"vertex-none", "vertex-vertex", "vertex-edge", "vertex-face", "vertex-surface"},
      {"edge-none", "edge-vertex", "edge-edge", "edge-face", "edge-surface"},
      {"face-none", "face-vertex", "face-edge", "face-face", "face-surface"},
      {"surface-none", "surface-vertex", "surface-edge", "surface-face", "surface-surface"},
  };
  int a = (int)c->fa, b = (int)c->fb;
  if (a < 0 || a > 4 || b < 0 || b > 4) return "unknown";
  return names[a][b];
}
