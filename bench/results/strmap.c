/* strmap.c — see strmap.h. The table is kept at most half full, so a probe ends soon. */
#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fnv1a(const char *s)
{
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t slot(const struct strmap *m, const char *key)
{
  size_t i = (size_t)fnv1a(key) & (m->cap - 1);
  while (m->key[i] && strcmp(m->key[i], key) != 0)
    i = (i + 1) & (m->cap - 1);
  return i;
}

int strmap_find(const struct strmap *m, const char *key)
{
  if (!m->cap) return -1;
  size_t i = slot(m, key);
  return m->key[i] ? m->val[i] : -1;
}

static int grow(struct strmap *m)
{
  size_t cap = m->cap ? 2 * m->cap : 64;
  char **key = calloc(cap, sizeof *key);
  int *val = calloc(cap, sizeof *val);
  if (!key || !val) {
    free(key);
    free(val);
    return 1;
  }
  for (size_t i = 0; i < m->cap; i++) /* each key to its slot in the bigger table */
    if (m->key[i]) {
      size_t j = (size_t)fnv1a(m->key[i]) & (cap - 1);
      while (key[j])
        j = (j + 1) & (cap - 1);
      key[j] = m->key[i];
      val[j] = m->val[i];
    }
  char **old_key = m->key;
  int *old_val = m->val;
  m->key = key, m->val = val, m->cap = cap;
  free(old_key);
  free(old_val);
  return 0;
}

int strmap_put(struct strmap *m, const char *key, int val)
{
  if (2 * (m->n + 1) > m->cap && grow(m)) return 1;
  size_t i = slot(m, key);
  if (!m->key[i]) {
    size_t n = strlen(key) + 1;
    if (!(m->key[i] = malloc(n))) return 1;
    memcpy(m->key[i], key, n);
    m->n++;
  }
  m->val[i] = val;
  return 0;
}

void strmap_free(struct strmap *m)
{
  for (size_t i = 0; i < m->cap; i++)
    free(m->key[i]);
  free(m->key);
  free(m->val);
  memset(m, 0, sizeof *m);
}
