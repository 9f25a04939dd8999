/* corpus.h — a problem corpus: the complementarity problems real runs produced, in an HDF5 file (libhdf5
 * C API), so that every solver can replay the same subproblems (the FCLIB idea, Acary et al. 2014, for our
 * LCP / MLCP / box MCP / frictional-contact kinds). Schema (docs/solvers.md, "The problem corpus"), version
 * CORPUS_SCHEMA_VERSION in the root attribute schema_version. Version 4 (version 3 plus fc_dim, for the exact
 * Coulomb cone; version 3: version 2 plus the callback problems' fields and /text):
 * five 1-D chunked, extendible datasets a problem appends to (a problem is one table row plus two slices, not
 * an HDF5 group with ~25 objects: capture is cheap): /problems   compound, one row per problem: name
 * (EXPERIMENT_task<ID>_step<K>, unique in a file), kind (lcp, mlcp, box_mcp, ncp, fc), driver, formulation,
 * solver, status (the run's), axes
 *               ("h=0.01;formulation=peg;..."), git_sha, M_format (dense | csr | none), h, t, step, task_id,
 *               seed, rows[6] (normal, friction, slack, joint, velocity, other), n, n_eq, captured (1: linear
 *               data; 2: a callback problem with what rebuilds it; 0: a callback problem, no data),
 *               values_offset, indices_offset, nnz; version 3: text_offset, world_len, options_len,
 *               carry_n, warm (captured 2); version 4: fc_dim (kind fc: unknowns per contact, 2 or 3;
 *               0 for the other kinds), fc_relaxed (kind fc: 1 for the cone complementarity relaxation,
 *               cp.h)
 *   /values     double: per problem at values_offset q[n], lo[n], hi[n] (+-inf as IEEE infinities), then
 *               M[n][n] row-major (dense) or the nnz CSR values (csr: under a quarter of M is nonzero),
 *               then for kind fc the n / fc_dim friction coefficients mu (lo = -inf, hi = +inf: the cone,
 *               not bounds, constrains r);
 *               captured 2: lo[n], hi[n], z0[n] (the run's initial guess: the previous step's answer when
 *               warm = 1, else mid(lo, hi, 0)), F(z0)[n] as the run evaluated it, then carry_n doubles of
 *               the formulation's carried state (formulation.h carry_get)
 *   /text       uint8: captured 2 at text_offset the world at the step's start (world_io.h, world_len
 *               bytes) then the formulation's option values in effect ("-name value" lines,
 *               options_len bytes); corpus_rebuild.h assembles the problem again from them
 *   /indices    int32: per csr problem at indices_offset the row pointers [n+1], then the nnz columns
 *   /name_hash  uint64: FNV-1a of each problem's name, row for row (read by a writer appending to the
 *               file to refuse a duplicate name without reading the names)
 * Root attribute committed (int64[5]): the rows of /problems and the elements of /values, /indices, /text,
 *               /name_hash that a writer flushed whole (absent in files of older builds: the extents)
 * A writer buffers problems and appends them in batches (CORPUS_BATCH_*), each batch written values and
 * indices first (then the hashes), the table rows last, then H5Fflush, then the committed sizes and a second
 * H5Fflush; HDF5 is not called between batches, so a killed run leaves a readable file holding every batch
 * before the last, and a batch whose write failed (a full disk) is not committed: readers take the
 * committed sizes. One writer per file: FILE.lock beside it (corpus_lock.h). Version 1 files (one group per
 * problem with attributes), version 2 and version 3 files are still read (corpus_v1.c; version 2 through the
 * row type without its version 3 fields, version 3 without fc_dim); `corpus_merge` into a new file converts
 * them.
 * Reading trusts nothing in the file: corpus_open has a child process read it all first (corpus_check.c; a
 * crash of libhdf5 there is an error here), every size and offset is checked against the file and the
 * schema before anything is allocated, and a problem whose row or data is damaged is corrupt
 * (corpus_corrupt: the reason), never read. */
#ifndef CB_CORPUS_H
#define CB_CORPUS_H

#include "cp.h"

#include <stddef.h>

#define CORPUS_SCHEMA_VERSION 4
/* A writer's batch: appended and flushed when it holds this many problems, this many bytes, or when the
 * first problem after this many seconds since the last flush arrives; and at close. */
#define CORPUS_BATCH_PROBLEMS 256
#define CORPUS_BATCH_BYTES    (1L << 20)
#define CORPUS_BATCH_SECONDS  1.0

#define CORPUS_NAME_MAX 128
struct corpus_meta {
  char name[CORPUS_NAME_MAX]; /* letters, digits, '_', '-', '.' (a file name, an item of a list) */
  char kind[16];
  char driver[64], formulation[64], solver[64], status[64];
  char axes[512];
  char git_sha[64];
  double h, t;
  long step, task_id;
  unsigned long seed;
  int rows[6]; /* normal, friction, slack, joint, velocity, other */
  int n, n_eq;
  int fc_dim;     /* kind fc: unknowns per contact (2 or 3); 0 otherwise (and in files before version 4) */
  int fc_relaxed; /* kind fc: 1 for the cone complementarity relaxation (cp.h), else 0 */
  int captured;   /* 1: linear data; 2: a rebuildable callback problem; 0: a callback problem, no data */
};

/* 0 when name may name a problem (letters, digits, '_', '-', '.'; not empty, not "." or ".."): it becomes a
 * file name (-export_siconos), an item of a comma-separated -problem list and a field of a run's tables.
 * Otherwise 1 with why naming the first character that may not and where: a newline, a comma, a '/' or a
 * control character in the words of run_text_check (run_files.h), the one check of such text, which it
 * runs first ("a comma (the run's tables are comma-separated) at character 2 of 'a,b'"); any other in
 * the same form ("a ' ' at character 2 of 'a b'"). */
int corpus_name_bad(const char *name, char *why, size_t n);

/* What rebuilds a callback problem (captured 2; layout above). Read: every pointer malloc'd
 * (corpus_callback_free); written: the caller's. */
struct corpus_callback {
  char *world, *options;
  size_t world_len, options_len;
  double *lo, *hi, *z0, *Fz0; /* n each */
  double *carry;
  int carry_n, warm;
};
void corpus_callback_free(struct corpus_callback *cb);

/* Appends p as problem m->name to path (created with the schema version when absent). cap > 0: nothing is
 * written once the file holds cap problems. Returns 0 written, 1 error (err says why: also another writer
 * holding the file, a name with a character a name may not hold, a full disk), 3 cap reached. */
int corpus_append(const char *path, const struct cp_problem *p, const struct corpus_meta *m, long cap,
                  char *err, size_t len);

/* Initialises the HDF5 library (~4 ms, its first call otherwise pays it): a process that forks a writer per
 * task calls it once before forking. 0, or 1 when HDF5 cannot start. */
int corpus_init(void);

/* A writer kept open over a run: problems are buffered and written in batches (see above), so a killed run
 * leaves the problems of every batch but the last readable. p NULL: a problem recorded without data (kind,
 * n, n_eq from m; captured 0), as merge copies one. Same return values as corpus_append. Open refuses a
 * file another writer holds (its lock names it) and a damaged one (read through corpus_open first); a
 * batch that cannot be written (no room for it on the file system, or HDF5's write failed) makes this and
 * every later add fail, saying so and how many problems the file holds. */
struct corpus_writer;
int corpus_writer_open(const char *path, struct corpus_writer **w, char *err, size_t len);
int corpus_writer_add(struct corpus_writer *w, const struct cp_problem *p, const struct corpus_meta *m,
                      long cap, char *err, size_t len);
/* A callback problem p with what rebuilds it (cb; NULL: recorded without data, captured 0). */
int corpus_writer_add_callback(struct corpus_writer *w, const struct cp_problem *p,
                               const struct corpus_meta *m, const struct corpus_callback *cb, long cap,
                               char *err, size_t len);
int corpus_writer_has(const struct corpus_writer *w, const char *name); /* 1: a problem of that name is in */
int corpus_writer_failed(const struct corpus_writer *w); /* 1 once a batch could not be written */
/* Writes the last batch, closes the file and lets its lock go: 0, or 1 with err (may be NULL). */
int corpus_writer_close(struct corpus_writer **w, char *err, size_t len);

struct corpus;
/* Opens a corpus for reading: 0; 2 with err when the file is missing, not HDF5, truncated, of another
 * schema version, damaged beyond its problems (a table claiming more than the file stores, a missing
 * dataset) or when reading it crashed libhdf5 or did not end (in the child process that reads it first). */
int corpus_open(const char *path, struct corpus **c, char *err, size_t len);
int corpus_count(const struct corpus *c);
int corpus_schema(const struct corpus *c);       /* the file's schema version (1, 2 or 3) */
long corpus_uncommitted(const struct corpus *c); /* table rows past the committed ones: left out */
/* Metadata of problem i (read on open). */
const struct corpus_meta *corpus_meta_at(const struct corpus *c, int i);
/* NULL, or why problem i is corrupt (a field, a size or its data out of what the schema allows: a name
 * with a character a name may not hold, data overlapping another problem's, NaN, bounds that are not its
 * kind's, ...). Its data is never read. */
const char *corpus_corrupt(const struct corpus *c, int i);
/* The time limit of the child process that reads a file through before corpus_open returns (seconds;
 * 0: the default, 30 s plus 1 s per 10 MB). */
void corpus_set_check_limit(double seconds);
/* Index of the problem named name, -1 when absent. */
int corpus_find(const struct corpus *c, const char *name);
/* Reads problem i: 0 with *p (cp_destroy it); 1 with err (unreadable, or a callback problem: see
 * corpus_read_callback and corpus_rebuild.h). */
int corpus_read(const struct corpus *c, int i, struct cp_problem **p, char *err, size_t len);
/* Reads what rebuilds callback problem i (captured 2) into *cb: 0; 1 with err. */
int corpus_read_callback(const struct corpus *c, int i, struct corpus_callback *cb, char *err, size_t len);
void corpus_close(struct corpus **c);

/* Copies every problem of the inputs (version 1, 2 or 3; corrupt problems left out with a note) and those of
 * out when it exists into out (version 3), through a temporary file beside it that replaces out only when
 * all is written; a name already present gets the input's index as a suffix. 0; 2 with err on a bad input
 * (also one file given twice: out among the inputs, an input twice, compared by device and inode; out held
 * by another writer); 1 when writing failed (out untouched). */
int corpus_merge(const char *out, const char *const *in, int n_in, char *err, size_t len);

/* Writes a linear LCP (lo = 0, hi = inf), MLCP or frictional-contact problem as a Siconos numerics .dat file
 * (the formats cp_io.c reads). 0; 1 with err for another kind or an I/O error. */
int corpus_write_siconos(const char *path, const struct cp_problem *p, char *err, size_t len);
/* Every linear LCP / MLCP / fc problem of c as dir/NAME_lcp.dat, NAME_mlcp.dat or NAME_fc3d.dat (fc2d in 2D),
 * all or nothing (a folder beside dir,
 * renamed to it at the end; dir absent or an empty folder, not a link); other and corrupt problems are left
 * out with a note. 0 with the counts; 2 with err when dir may not be the export; 1 when a write failed
 * (err names the file; nothing is left). */
int corpus_export_siconos(const struct corpus *c, const char *dir, int *written, int *left_out, char *err,
                          size_t len);

#endif
