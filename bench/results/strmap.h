/* strmap.h — a string -> int map (open addressing, FNV-1a): the streaming readers of a run's tables find a
 * row's group in constant time, with memory for the distinct keys only. */
#ifndef CB_STRMAP_H
#define CB_STRMAP_H

#include <stddef.h>

struct strmap {
  size_t cap, n; /* slots (a power of two, or 0) and keys */
  char **key;    /* cap slots, NULL when empty; owned copies */
  int *val;
};

/* The value of key, or -1 when it is not there. */
int strmap_find(const struct strmap *m, const char *key);
/* Adds key (copied) with val, or replaces its value; 0, or 1 when out of memory. */
int strmap_put(struct strmap *m, const char *key, int val);
void strmap_free(struct strmap *m);

#endif
