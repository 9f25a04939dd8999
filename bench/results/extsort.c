/* extsort.c — see extsort.h. Chunks are sorted as arrays of pointers (qsort, strcmp) and merged by picking
 * the least head among the chunks: a chunk is budget bytes, so a million-task table makes a handful. */
#include "extsort.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct chunk {
  FILE *fp;
  char *line; /* its current head, NULL when drained */
  size_t cap;
};

struct extsort {
  size_t budget;
  char *buf; /* the lines in memory, NUL-terminated side by side */
  size_t len, cap;
  size_t *at; /* their offsets */
  size_t n, at_cap;
  char **sorted; /* the last chunk, sorted, when it stayed in memory */
  size_t next;
  struct chunk *chunk;
  int n_chunk, cap_chunk;
  int last; /* the chunk whose head was returned last: advanced at the next call */
  int merging, failed;
};

struct extsort *extsort_create(size_t budget)
{
  struct extsort *s = calloc(1, sizeof *s);
  if (s) s->budget = budget > 4096 ? budget : 4096, s->last = -1;
  return s;
}

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The lines in memory as sorted pointers (into buf). */
static char **sort_memory(struct extsort *s)
{
  char **p = malloc((s->n + 1) * sizeof *p);
  if (!p) return NULL;
  for (size_t i = 0; i < s->n; i++)
    p[i] = s->buf + s->at[i];
  qsort(p, s->n, sizeof *p, by_text);
  return p;
}

/* An unlinked temporary file: gone when closed, whatever happens to the process. */
static FILE *temp_file(void)
{
  const char *dir = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/cb_sort.XXXXXX", dir && dir[0] ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) {
    fprintf(stderr, "error: cannot create a temporary file in %s: %s\n", dir && dir[0] ? dir : "/tmp",
            strerror(errno));
    return NULL;
  }
  unlink(path);
  FILE *fp = fdopen(fd, "w+");
  if (!fp) close(fd);
  return fp;
}

/* Writes the lines in memory, sorted, as a chunk on disk and empties the memory. */
static int spill(struct extsort *s)
{
  if (s->n_chunk == s->cap_chunk) {
    int cap = s->cap_chunk ? 2 * s->cap_chunk : 8;
    struct chunk *c = realloc(s->chunk, (size_t)cap * sizeof *c);
    if (!c) return 1;
    s->chunk = c, s->cap_chunk = cap;
  }
  char **p = sort_memory(s);
  FILE *fp = p ? temp_file() : NULL;
  int bad = !fp;
  for (size_t i = 0; fp && i < s->n; i++)
    bad |= fputs(p[i], fp) < 0 || fputc('\n', fp) == EOF;
  free(p);
  if (fp && (bad || fflush(fp) || fseek(fp, 0, SEEK_SET))) {
    fprintf(stderr, "error: cannot write a temporary file of the sort: %s\n", strerror(errno));
    fclose(fp);
    return 1;
  }
  if (bad) return 1;
  s->chunk[s->n_chunk++] = (struct chunk){fp, NULL, 0};
  s->n = s->len = 0;
  return 0;
}

int extsort_add(struct extsort *s, const char *line)
{
  size_t n = strlen(line) + 1;
  if (s->n && s->len + n > s->budget && spill(s)) return 1;
  if (s->len + n > s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 65536;
    while (cap < s->len + n)
      cap *= 2;
    char *b = realloc(s->buf, cap);
    if (!b) goto oom;
    s->buf = b, s->cap = cap;
  }
  if (s->n == s->at_cap) {
    size_t cap = s->at_cap ? 2 * s->at_cap : 4096;
    size_t *a = realloc(s->at, cap * sizeof *a);
    if (!a) goto oom;
    s->at = a, s->at_cap = cap;
  }
  memcpy(s->buf + s->len, line, n);
  s->at[s->n++] = s->len;
  s->len += n;
  return 0;
oom:
  fprintf(stderr, "error: out of memory sorting\n");
  return 1;
}

/* Reads chunk c's next line as its head (NULL at its end). */
static int advance(struct extsort *s, struct chunk *c)
{
  ssize_t got = getline(&c->line, &c->cap, c->fp);
  if (got <= 0) {
    if (ferror(c->fp)) {
      fprintf(stderr, "error: reading a temporary file of the sort failed\n");
      s->failed = 1;
    }
    free(c->line);
    c->line = NULL, c->cap = 0;
    return 0;
  }
  if (c->line[got - 1] == '\n') c->line[got - 1] = '\0';
  return 1;
}

int extsort_finish(struct extsort *s)
{
  if (!s->n_chunk) { /* everything fitted: sort in memory */
    s->next = 0;
    if (!(s->sorted = sort_memory(s))) {
      fprintf(stderr, "error: out of memory sorting\n");
      return 1;
    }
    return 0;
  }
  if (s->n && spill(s)) return 1;
  free(s->buf), free(s->at);
  s->buf = NULL, s->at = NULL, s->cap = s->at_cap = 0;
  for (int k = 0; k < s->n_chunk; k++)
    advance(s, &s->chunk[k]);
  s->merging = 1;
  return s->failed;
}

const char *extsort_next(struct extsort *s)
{
  if (!s->merging) return s->sorted && s->next < s->n ? s->sorted[s->next++] : NULL;
  if (s->last >= 0) advance(s, &s->chunk[s->last]);
  s->last = -1;
  for (int k = 0; k < s->n_chunk; k++)
    if (s->chunk[k].line && (s->last < 0 || strcmp(s->chunk[k].line, s->chunk[s->last].line) < 0))
      s->last = k;
  return s->last >= 0 && !s->failed ? s->chunk[s->last].line : NULL;
}

int extsort_failed(const struct extsort *s) { return s->failed; }

int extsort_chunks(const struct extsort *s) { return s->n_chunk; }

void extsort_destroy(struct extsort **sp)
{
  if (!sp || !*sp) return;
  struct extsort *s = *sp;
  for (int k = 0; k < s->n_chunk; k++) {
    fclose(s->chunk[k].fp);
    free(s->chunk[k].line);
  }
  free(s->chunk);
  free(s->buf);
  free(s->at);
  free(s->sorted);
  free(s);
  *sp = NULL;
}
