/* corpus_v1.h — reading corpus files of schema version 1 (one HDF5 group per problem with ~20 attributes
 * and 4-6 datasets; corpus.h describes version 2). Internal to corpus.c: version 1 files stay readable so
 * that `corpus_merge` can convert them. */
#ifndef CB_CORPUS_V1_H
#define CB_CORPUS_V1_H

#include "corpus.h"

#include <hdf5.h>
#include <stddef.h>

/* The metadata of every problem of the open version 1 file f: 0 with *meta (malloc'ed, *n entries); 1 with
 * err. */
int corpus_v1_list(hid_t f, const char *path, struct corpus_meta **meta, int *n, char *err, size_t len);
/* Reads the data of the version 1 problem m (its group m->name) into p, created by the caller with m's kind
 * and sizes: 0, or 1 when unreadable. */
int corpus_v1_read(hid_t f, const struct corpus_meta *m, struct cp_problem *p);

#endif
