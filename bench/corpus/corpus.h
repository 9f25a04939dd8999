/* corpus.h — a problem corpus: the complementarity problems real runs produced, in an HDF5 file (libhdf5
 * C API), so that every solver can replay the same subproblems (the FCLIB idea, Acary et al. 2014, for our
 * LCP / MLCP / box MCP kinds). Schema (README "Problem corpus"), version CORPUS_SCHEMA_VERSION in the root
 * attribute schema_version. Version 2: four 1-D chunked, extendible datasets a problem appends to (a
 * problem is one table row plus two slices, not an HDF5 group with ~25 objects: capture is cheap):
 *   /problems   compound, one row per problem: name (EXPERIMENT_task<ID>_step<K>, unique in a file), kind
 *               (lcp, mlcp, box_mcp, ncp), driver, formulation, solver, status (the run's), axes
 *               ("h=0.01;formulation=peg;..."), git_sha, M_format (dense | csr | none), h, t, step, task_id,
 *               seed, rows[6] (normal, friction, slack, joint, velocity, other), n, n_eq, captured (1; 0: a
 *               callback problem, no data), values_offset, indices_offset, nnz
 *   /values     double: per problem at values_offset q[n], lo[n], hi[n] (+-inf as IEEE infinities), then
 *               M[n][n] row-major (dense) or the nnz CSR values (csr: under a quarter of M is nonzero)
 *   /indices    int32: per csr problem at indices_offset the row pointers [n+1], then the nnz columns
 *   /name_hash  uint64: FNV-1a of each problem's name, row for row (read by a writer appending to the
 *               file to refuse a duplicate name without reading the names)
 * A writer buffers problems and appends them in batches (CORPUS_BATCH_*), each batch written values and
 * indices first (then the hashes), the table rows last, then H5Fflush; HDF5 is not called between batches, so
 * a killed run leaves a readable file holding every batch before the last. Version 1 files (one group per
 * problem with attributes) are still read (corpus_v1.c); `corpus_merge` into a new file converts them. */
#ifndef CB_CORPUS_H
#define CB_CORPUS_H

#include "cp.h"

#include <stddef.h>

#define CORPUS_SCHEMA_VERSION 2
/* A writer's batch: appended and flushed when it holds this many problems, this many bytes, or when the
 * first problem after this many seconds since the last flush arrives; and at close. */
#define CORPUS_BATCH_PROBLEMS 256
#define CORPUS_BATCH_BYTES    (1L << 20)
#define CORPUS_BATCH_SECONDS  1.0

struct corpus_meta {
  char name[128];
  char kind[16];
  char driver[64], formulation[64], solver[64], status[64];
  char axes[512];
  char git_sha[64];
  double h, t;
  long step, task_id;
  unsigned long seed;
  int rows[6]; /* normal, friction, slack, joint, velocity, other */
  int n, n_eq;
  int captured; /* 0: a callback problem (no M, q): recorded, not replayable */
};

/* Appends p as problem m->name to path (created with the schema version when absent). cap > 0: nothing is
 * written once the file holds cap problems. Returns 0 written, 1 error (err says why), 3 cap reached. */
int corpus_append(const char *path, const struct cp_problem *p, const struct corpus_meta *m, long cap,
                  char *err, size_t len);

/* Initialises the HDF5 library (~4 ms, its first call otherwise pays it): a process that forks a writer per
 * task calls it once before forking. 0, or 1 when HDF5 cannot start. */
int corpus_init(void);

/* A writer kept open over a run: problems are buffered and written in batches (see above), so a killed run
 * leaves the problems of every batch but the last readable. p NULL: a problem recorded without data (kind,
 * n, n_eq from m; captured 0), as merge copies one. Same return values as corpus_append. */
struct corpus_writer;
int corpus_writer_open(const char *path, struct corpus_writer **w, char *err, size_t len);
int corpus_writer_add(struct corpus_writer *w, const struct cp_problem *p, const struct corpus_meta *m,
                      long cap, char *err, size_t len);
int corpus_writer_has(const struct corpus_writer *w, const char *name); /* 1: a problem of that name is in */
int corpus_writer_close(struct corpus_writer **w); /* writes the last batch: 0, or 1 when that failed */

struct corpus;
/* Opens a corpus for reading: 0; 2 with err when the file is missing, not HDF5, truncated or of another
 * schema version. */
int corpus_open(const char *path, struct corpus **c, char *err, size_t len);
int corpus_count(const struct corpus *c);
int corpus_schema(const struct corpus *c); /* the file's schema version (1 or 2) */
/* Metadata of problem i (read on open). */
const struct corpus_meta *corpus_meta_at(const struct corpus *c, int i);
/* Index of the problem named name, -1 when absent. */
int corpus_find(const struct corpus *c, const char *name);
/* Reads problem i: 0 with *p (cp_destroy it); 1 with err (unreadable, or a callback problem). */
int corpus_read(const struct corpus *c, int i, struct cp_problem **p, char *err, size_t len);
void corpus_close(struct corpus **c);

/* Copies every problem of the inputs (version 1 or 2) into out (version 2: created, or appended to); a
 * name already present gets the input's index as a suffix. 0, or 2 with err on a bad input. */
int corpus_merge(const char *out, const char *const *in, int n_in, char *err, size_t len);

/* Writes a linear LCP (lo = 0, hi = inf) or MLCP as a Siconos numerics .dat file (the format cp_io.c
 * reads). 0; 1 with err for another kind or an I/O error. */
int corpus_write_siconos(const char *path, const struct cp_problem *p, char *err, size_t len);

#endif
