/* corpus_v1.h — reading corpus files of schema version 1 (one HDF5 group per problem with ~20 attributes
 * and 4-6 datasets; corpus.h describes version 2). Internal to corpus.c: version 1 files stay readable so
 * that `corpus_merge` can convert them. */
#ifndef CB_CORPUS_V1_H
#define CB_CORPUS_V1_H

#include "corpus.h"

#include <hdf5.h>
#include <stddef.h>
#include <sys/types.h>

/* The metadata of every problem of the open version 1 file f: 0 with *meta (malloc'ed, *n entries); 1 with
 * err. */
int corpus_v1_list(hid_t f, const char *path, struct corpus_meta **meta, int *n, char *err, size_t len);
/* 0 when the datasets of problem m hold what its n says (q of n elements, M of n x n or M_indptr of n + 1,
 * as stored: not more than their storage) and a dense M fits in the file: checked before m's problem is
 * allocated. 1 otherwise. */
int corpus_v1_sizes(hid_t f, const struct corpus_meta *m, off_t file_size);
/* Reads the data of the version 1 problem m (its group m->name) into p, created by the caller with m's kind
 * and sizes: 0, or 1 when unreadable. */
int corpus_v1_read(hid_t f, const struct corpus_meta *m, struct cp_problem *p);

#endif
