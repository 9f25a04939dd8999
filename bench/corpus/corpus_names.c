/* corpus_names.c — the hash table of a writer's problem names (corpus_names.h). */
#include "corpus_names.h"

#include <stdlib.h>
#include <string.h>

uint64_t corpus_name_hash(const char *s)
{
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

/* Puts (h, row) in the first free slot from h's own on (there is one: the table is at most half full). */
static void place(struct corpus_names *s, uint64_t h, long row)
{
  size_t j = (size_t)h & (s->cap - 1);
  while (s->row[j] >= 0)
    j = (j + 1) & (s->cap - 1);
  s->hash[j] = h;
  s->row[j] = row;
  s->n++;
}

int corpus_names_insert(struct corpus_names *s, uint64_t h, long row)
{
  if (2 * (s->n + 1) > s->cap && corpus_names_grow(s, s->n + 1)) return 1;
  place(s, h, row);
  return 0;
}

int corpus_names_grow(struct corpus_names *s, size_t want)
{
  if (2 * want <= s->cap) return 0;
  size_t cap = s->cap ? s->cap : 1024;
  while (cap < 2 * want)
    cap *= 2;
  struct corpus_names g = {malloc(cap * sizeof *g.hash), malloc(cap * sizeof *g.row), cap, 0};
  if (!g.hash || !g.row) {
    free(g.hash);
    free(g.row);
    return 1;
  }
  for (size_t i = 0; i < cap; i++)
    g.row[i] = -1;
  for (size_t i = 0; i < s->cap; i++)
    if (s->row[i] >= 0) place(&g, s->hash[i], s->row[i]);
  free(s->hash);
  free(s->row);
  *s = g;
  return 0;
}

long corpus_names_next(const struct corpus_names *s, uint64_t h, long *j)
{
  if (!s->cap) return -1;
  size_t k = *j < 0 ? (size_t)h & (s->cap - 1) : ((size_t)*j + 1) & (s->cap - 1);
  for (; s->row[k] >= 0; k = (k + 1) & (s->cap - 1))
    if (s->hash[k] == h) {
      *j = (long)k;
      return s->row[k];
    }
  return -1;
}

void corpus_names_free(struct corpus_names *s)
{
  free(s->hash);
  free(s->row);
  memset(s, 0, sizeof *s);
}
