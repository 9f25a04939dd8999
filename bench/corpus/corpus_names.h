/* corpus_names.h — the problem names a corpus writer knows (a duplicate is refused): their FNV-1a hashes
 * (the file's /name_hash, 8 bytes a problem, so that a writer opening a file need not read the names: one
 * field of the 1.1 kB rows costs ~3 us a problem, 30 ms for 10000), each with its problem's index. Open
 * addressing, at most half full, row -1 marks a free slot. Internal to bench/corpus. */
#ifndef CB_CORPUS_NAMES_H
#define CB_CORPUS_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct corpus_names {
  uint64_t *hash;
  long *row;
  size_t cap, n;
};

uint64_t corpus_name_hash(const char *s); /* FNV-1a, 64 bits */
/* Room for at least want names: 0, or 1 out of memory. */
int corpus_names_grow(struct corpus_names *s, size_t want);
int corpus_names_insert(struct corpus_names *s, uint64_t h, long row); /* 0, or 1 out of memory */
/* The next slot holding hash h from slot *j on (start: *j = -1): its row, or -1 when none is left. */
long corpus_names_next(const struct corpus_names *s, uint64_t h, long *j);
void corpus_names_free(struct corpus_names *s);

#endif
