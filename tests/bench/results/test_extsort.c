/* test_extsort.c — the external sort behind bench_compare (extsort.c): lines that fit the budget come back
 * in strcmp order from memory; 30,000 lines through the smallest budget (4 KB) go to many chunks on disk and
 * come back in the same order as an in-memory qsort of them, every line once, duplicates included; no
 * input gives no line; a line longer than the budget still passes. */
#include "check.h"
#include "extsort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* n lines "KEY-ROW" with KEY from a fixed LCG (keys repeat: duplicates of the key part), sorted through a
 * sorter of the given budget and checked against qsort. */
static void sort_case(int n, size_t budget, int expect_disk, const char *what)
{
  struct extsort *s = extsort_create(budget);
  char **want = calloc((size_t)n + 1, sizeof *want);
  unsigned long x = 12345;
  int ok = s && want, got = 0, in_order = 1;
  for (int i = 0; ok && i < n; i++) {
    char line[64];
    x = x * 6364136223846793005UL + 1442695040888963407UL;
    snprintf(line, sizeof line, "%05lu\x1f%d", (x >> 33) % 5000, i % 7); /* some lines equal */
    ok = (want[i] = strdup(line)) && extsort_add(s, line) == 0;
  }
  ok = ok && extsort_finish(s) == 0;
  CHECK(ok, "%s: %d lines added", what, n);
  if (!ok || !want || !s) goto done;
  qsort(want, (size_t)n, sizeof *want, by_text);
  const char *l;
  while ((l = extsort_next(s))) {
    in_order &= got < n && strcmp(l, want[got]) == 0;
    got++;
  }
  CHECK(got == n && in_order && !extsort_failed(s), "%s: %d lines back in strcmp order (%d)", what, n, got);
  CHECK((extsort_chunks(s) > 1) == expect_disk, "%s: %d chunks on disk", what, extsort_chunks(s));
done:
  for (int i = 0; want && i < n; i++)
    free(want[i]);
  free(want);
  extsort_destroy(&s);
}

static void test_edges(void)
{
  struct extsort *s = extsort_create(0);
  CHECK(s && extsort_finish(s) == 0 && extsort_next(s) == NULL, "no input: no line");
  extsort_destroy(&s);
  CHECK(s == NULL, "destroy NULLs the pointer");
  extsort_destroy(&s); /* NULL accepted */
  s = extsort_create(4096);
  char *big = malloc(10000);
  if (!s || !big) {
    CHECK(0, "allocations");
    free(big);
    extsort_destroy(&s);
    return;
  }
  memset(big, 'b', 9999);
  big[9999] = '\0';
  int ok = extsort_add(s, "c") == 0 && extsort_add(s, big) == 0 && extsort_add(s, "a") == 0 &&
           extsort_finish(s) == 0;
  const char *l1 = ok ? extsort_next(s) : NULL;
  int first_a = l1 && strcmp(l1, "a") == 0;
  const char *l2 = first_a ? extsort_next(s) : NULL;
  int second_big = l2 && strlen(l2) == 9999;
  const char *l3 = second_big ? extsort_next(s) : NULL;
  CHECK(first_a && second_big && l3 && strcmp(l3, "c") == 0 && !extsort_next(s),
        "a line longer than the budget (10 KB through 4 KB) sorts with the others");
  free(big);
  extsort_destroy(&s);
}

int main(void)
{
  sort_case(1000, (size_t)1 << 20, 0, "in memory");
  sort_case(30000, 4096, 1, "on disk");
  test_edges();
  return check_finish();
}
