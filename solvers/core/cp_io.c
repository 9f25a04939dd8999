/* cp_io.c — problem files (see cp_io.h).
 * Plain format (line oriented, '#' starts a comment, blank lines ignored):
 *   n            (or "n n_eq" for a mixed LCP whose first n_eq unknowns are free, or "n boxed" for a boxed
 * LCP with friction index, cp.h) n lines, each holding one row of M (n numbers) 1 line holding q (n numbers)
 *   boxed only: 1 line of lo, 1 line of hi (n numbers each, inf / -inf allowed), 1 line of findex (n
 *   integers, -1 for none; a friction row's lo and hi are -mu and mu)
 * and nothing else. Siconos .dat formats (see ../shared/data/siconos/README.md): whitespace-separated
 * tokens; LCP: n, storage (0 dense: rows cols, rows cols again, then M COLUMN BY COLUMN; 1 sparse block:
 * rows cols then the SparseBlockStructuredMatrix), then q, the rest ignored. MLCP: st1 st2 n m; if st1: the
 * cumulative block rows ending at n+m, one 0/1 per block, M (as LCP storage) and q; if st2: A, B, C, D row
 * by row, then a, b; the rest ignored. When both are present the A..b form is used (design.md: the
 * Anitescu-Hart form A u + C v + a = 0, 0 <= v perp D u + B v + b >= 0). */
#include "cp_io.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct lexer {
  const char *text, *name;
  size_t pos;
  size_t len; /* strlen(text) */
  size_t tok_start,
      tok_len;   /* the last token in text: numbers are parsed there, whole, whatever their length */
  int line;      /* line of the last token returned */
  int next_line; /* line at pos */
  char *err;
  size_t errlen;
};

static int lex_error(struct lexer *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Bytes of untrusted text as they may appear in a message: printable ASCII as is, anything else (control
 * bytes, a BOM, other non-ASCII) as \xNN, at most max_in bytes of input ("..." when cut). */
static void cp_io_escape(const char *in, size_t len, size_t max_in, char *out, size_t outlen)
{
  size_t k = 0;
  if (outlen == 0) return;
  for (size_t i = 0; i < len && i < max_in; i++) {
    unsigned char c = (unsigned char)in[i];
    char buf[8];
    int m = (c >= 0x20 && c < 0x7f) ? snprintf(buf, sizeof buf, "%c", c)
                                    : snprintf(buf, sizeof buf, "\\x%02x", c);
    if (k + (size_t)m + 4 >= outlen) break;
    memcpy(out + k, buf, (size_t)m);
    k += (size_t)m;
  }
  if (len > max_in && k + 4 < outlen) {
    memcpy(out + k, "...", 3);
    k += 3;
  }
  out[k] = '\0';
}

/* The last token, escaped for a message. */
static const char *lex_shown(const struct lexer *lx, char *buf, size_t len)
{
  cp_io_escape(lx->text + lx->tok_start, lx->tok_len, 40, buf, len);
  return buf;
}

static int lex_error(struct lexer *lx, const char *fmt, ...)
{
  char name[256];
  cp_io_escape(lx->name, strlen(lx->name), 200, name, sizeof name);
  int k = snprintf(lx->err, lx->errlen, "%s:%d: ", name, lx->line);
  if (k < 0 || (size_t)k >= lx->errlen) return 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(lx->err + k, lx->errlen - (size_t)k, fmt, ap);
  va_end(ap);
  return 1;
}

/* Next whitespace-separated token; stop_at_newline makes a newline end the search (returns 0 there). */
static int lex_token(struct lexer *lx, char *tok, size_t toklen, int stop_at_newline)
{
  const char *t = lx->text;
  for (;;) {
    char c = t[lx->pos];
    if (c == '\0') return 0;
    if (c == '\n') {
      if (stop_at_newline) return 0;
      lx->next_line++;
      lx->pos++;
    } else if (c == '#') {
      while (t[lx->pos] && t[lx->pos] != '\n')
        lx->pos++;
    } else if (isspace((unsigned char)c)) {
      lx->pos++;
    } else {
      break;
    }
  }
  size_t k = 0;
  lx->line = lx->next_line;
  lx->tok_start = lx->pos;
  while (t[lx->pos] && !isspace((unsigned char)t[lx->pos]) && t[lx->pos] != '#') {
    if (k + 1 < toklen) tok[k++] = t[lx->pos];
    lx->pos++;
  }
  tok[k] = '\0';
  lx->tok_len = lx->pos - lx->tok_start;
  return 1;
}

/* The last token as a double: whole (not cut to a buffer), finite, or an infinity when allow_inf and the
 * token is inf, +inf or -inf (a boxed problem's bounds). */
static int lex_parse_number(struct lexer *lx, double *x, const char *what, int allow_inf)
{
  char shown[200];
  /* Parsed in place, not from a copy: a number longer than a token buffer (e.g. 1. and 140 zeros then 1e5)
   * is read whole instead of cut. The token ends at whitespace or '#', where strtod stops as well. */
  const char *start = lx->text + lx->tok_start;
  size_t len = lx->tok_len;
  if (allow_inf && ((len == 3 && strncmp(start, "inf", 3) == 0) ||
                    (len == 4 && (strncmp(start, "+inf", 4) == 0 || strncmp(start, "-inf", 4) == 0)))) {
    *x = start[0] == '-' ? -INFINITY : INFINITY;
    return 0;
  }
  char *end;
  errno = 0;
  double v = strtod(start, &end);
  if (end == start || end != start + len)
    return lex_error(lx, "%s: '%s' is not a number", what, lex_shown(lx, shown, sizeof shown));
  /* ERANGE on underflow still returns the nearest double (a subnormal or 0, as -write may produce);
   * only an overflow (HUGE_VAL) or a NaN/Inf literal is refused. */
  if (!isfinite(v) || (errno == ERANGE && fabs(v) == HUGE_VAL))
    return lex_error(lx, "%s: '%s' is not a finite number", what, lex_shown(lx, shown, sizeof shown));
  *x = v;
  return 0;
}

static int lex_number(struct lexer *lx, double *x, const char *what, int stop_at_newline)
{
  char tok[128];
  if (!lex_token(lx, tok, sizeof tok, stop_at_newline)) {
    if (!stop_at_newline) lx->line = lx->next_line;
    return lex_error(lx, "%s: %s", what,
                     stop_at_newline ? "too few numbers on this line" : "file ends early");
  }
  return lex_parse_number(lx, x, what, 0);
}

static int lex_int(struct lexer *lx, int *v, int lo, int hi, const char *what)
{
  char tok[128], shown[200];
  if (!lex_token(lx, tok, sizeof tok, 0)) {
    lx->line = lx->next_line;
    lex_error(lx, "%s: file ends early", what);
    return 1; /* not lex_error's value: the analyzer does not follow variadic calls, and *v is unset */
  }
  char *end;
  errno = 0;
  long x = strtol(tok, &end, 10);
  if (end == tok || *end != '\0' || errno || lx->tok_len >= sizeof tok) {
    lex_error(lx, "%s: '%s' is not an integer", what, lex_shown(lx, shown, sizeof shown));
    return 1;
  }
  if (x < lo || x > hi) {
    lex_error(lx, "%s: %ld is outside [%d, %d]", what, x, lo, hi);
    return 1;
  }
  *v = (int)x;
  return 0;
}

/* Plain format: one record per line. */
static int skip_to_record(struct lexer *lx)
{
  /* Skip blank and comment lines; leave pos at the start of the next record's first token. */
  const char *t = lx->text;
  for (;;) {
    while (t[lx->pos] == ' ' || t[lx->pos] == '\t' || t[lx->pos] == '\r')
      lx->pos++;
    if (t[lx->pos] == '#')
      while (t[lx->pos] && t[lx->pos] != '\n')
        lx->pos++;
    if (t[lx->pos] == '\n') {
      lx->pos++;
      lx->next_line++;
      continue;
    }
    return t[lx->pos] != '\0';
  }
}

static int end_of_record(struct lexer *lx, const char *what)
{
  char tok[128], shown[200];
  if (lex_token(lx, tok, sizeof tok, 1))
    return lex_error(lx, "%s: extra value '%s' on this line", what, lex_shown(lx, shown, sizeof shown));
  return 0;
}

#define CB_MAX_N 100000
/* The largest dense n x n matrix the reader allocates (8 GiB: n = 32768); a header may not ask for more. */
#define CP_IO_MAX_DENSE_BYTES (8.0 * 1024 * 1024 * 1024)
/* The largest dense matrix a matrix stored in sparse blocks is expanded to (512 MiB: n = 8192). The file
 * need not hold n x n numbers then (its blocks may hold few), so its size bounds nothing: without this
 * limit a header of a few bytes could make the reader allocate 8 GiB, twice (the matrix and the problem). */
#define CP_IO_MAX_SPARSE_DENSE_BYTES (512.0 * 1024 * 1024)

/* Before allocating an n x n matrix for a header's n: the rest of the file must hold at least min_numbers
 * numbers (each one byte and a separator), and the matrix must fit the reader's limit. A header saying
 * n = 100000 over two lines of data is refused here, not after allocating 80 GB. */
static int lex_need(struct lexer *lx, int n, double min_numbers, const char *what)
{
  double bytes = (double)n * (double)n * sizeof(double);
  if (bytes > CP_IO_MAX_DENSE_BYTES)
    return lex_error(lx, "n = %d needs a %.3g GB dense matrix, above the reader's limit of %.3g GB", n,
                     bytes / 1e9, CP_IO_MAX_DENSE_BYTES / 1e9);
  double left = (double)(lx->len - lx->pos);
  if (2.0 * min_numbers - 1.0 > left)
    return lex_error(lx, "%s: file ends early: n = %d needs at least %.0f numbers, only %.0f bytes are left",
                     what, n, min_numbers, left);
  return 0;
}

/* One record of the plain format: n numbers on one line (infinities allowed when allow_inf). */
static int read_plain_record(struct lexer *lx, int n, double *out, const char *what, const char *expected,
                             int allow_inf)
{
  char tok[128];
  if (!skip_to_record(lx)) {
    lx->line = lx->next_line;
    return lex_error(lx, "%s: file ends early (expected %s)", what, expected);
  }
  for (int j = 0; j < n; j++) {
    if (!lex_token(lx, tok, sizeof tok, 1)) return lex_error(lx, "%s: too few numbers on this line", what);
    if (lex_parse_number(lx, &out[j], what, allow_inf)) return 1;
  }
  return end_of_record(lx, what);
}

/* A boxed problem's last three records: lo, hi, findex; then the whole problem checked (cp_boxed_invalid). */
static int read_plain_boxed(struct lexer *lx, struct cp_problem *p)
{
  int n = p->n;
  char why[200];
  if (read_plain_record(lx, n, p->lo, "lo", "a line of n lower bounds", 1) ||
      read_plain_record(lx, n, p->hi, "hi", "a line of n upper bounds", 1))
    return 1;
  if (!skip_to_record(lx)) {
    lx->line = lx->next_line;
    return lex_error(lx, "findex: file ends early (expected a line of %d friction indices)", n);
  }
  for (int j = 0; j < n; j++) {
    char tok[128];
    if (!lex_token(lx, tok, sizeof tok, 1)) return lex_error(lx, "findex: too few integers on this line");
    lx->pos = lx->tok_start; /* read it again as an integer, with lex_int's checks */
    if (lex_int(lx, &p->findex[j], -1, n - 1, "findex")) return 1;
  }
  if (end_of_record(lx, "findex")) return 1;
  if (cp_boxed_invalid(p, why, sizeof why)) return lex_error(lx, "boxed problem: %s", why);
  return 0;
}

/* The header's optional second word: n_eq (an integer in [0, n]) or "boxed". */
static int read_plain_header(struct lexer *lx, int n, int *n_eq, int *boxed)
{
  char tok[128], shown[200];
  *n_eq = *boxed = 0;
  if (!lex_token(lx, tok, sizeof tok, 1)) return 0;
  if (strcmp(tok, "boxed") == 0) {
    *boxed = 1;
    return end_of_record(lx, "header");
  }
  char *end;
  long v = strtol(tok, &end, 10);
  if (end == tok || *end || v < 0 || v > n || lx->tok_len >= sizeof tok)
    return lex_error(lx, "n_eq: '%s' is not an integer in [0, n] nor 'boxed'",
                     lex_shown(lx, shown, sizeof shown));
  *n_eq = (int)v;
  return end_of_record(lx, "header");
}

static int read_plain(struct lexer *lx, struct cp_problem **out)
{
  int n = 0, n_eq = 0, boxed = 0;
  if (!skip_to_record(lx)) {
    lx->line = lx->next_line;
    return lex_error(lx, "empty file: expected the dimension n");
  }
  if (lex_int(lx, &n, 1, CB_MAX_N, "dimension n") || read_plain_header(lx, n, &n_eq, &boxed)) return 1;
  char tok[128], shown[200];
  if (lex_need(lx, n, (double)n * (n + 1 + 3 * boxed), "M and q")) return 1;
  struct cp_problem *p = boxed  ? cp_boxed_create(n)
                         : n_eq ? cp_mlcp_create(n_eq, n - n_eq)
                                : cp_lcp_create(n);
  if (!p) return lex_error(lx, "out of memory for n = %d", n);
  char what[64], expected[64];
  for (int i = 0; i < n; i++) {
    snprintf(what, sizeof what, "row %d of M", i + 1);
    snprintf(expected, sizeof expected, "%d rows of M, then q", n);
    if (read_plain_record(lx, n, p->M + (size_t)i * n, what, expected, 0)) goto fail;
  }
  snprintf(expected, sizeof expected, "a line with %d numbers", n);
  if (read_plain_record(lx, n, p->q, "q", expected, 0)) goto fail;
  if (boxed && read_plain_boxed(lx, p)) goto fail;
  if (skip_to_record(lx)) {
    lex_token(lx, tok, sizeof tok, 1);
    lex_error(lx, "unexpected content after %s ('%s'): expected %d rows of M and one line of q%s",
              boxed ? "findex" : "q", lex_shown(lx, shown, sizeof shown), n,
              boxed ? ", lo, hi and findex" : "");
    goto fail;
  }
  *out = p;
  return 0;
fail:
  cp_destroy(&p);
  return 1;
}

/* Before allocating a dense rows x cols matrix for a header: refused when the rest of the file cannot hold
 * its rows x cols numbers (each one byte and a separator) and it is above CP_IO_MAX_SPARSE_DENSE_BYTES,
 * the most a matrix the file does not give whole (sparse blocks) is expanded to. */
static int dense_refused(struct lexer *lx, int rows, int cols)
{
  double numbers = (double)rows * (double)cols, bytes = numbers * sizeof(double);
  double room = 0.5 * (double)(lx->len - lx->pos + 1);
  if (bytes <= CP_IO_MAX_SPARSE_DENSE_BYTES || numbers <= room) return 0;
  return lex_error(
      lx,
      "a %d x %d matrix is a %.3g GB dense one, but the rest of the file holds at most %.0f of its "
      "%.0f numbers: a matrix not given whole (sparse blocks) is expanded up to the reader's "
      "limit of %.3g GB (n = 8192)",
      rows, cols, bytes / 1e9, room, numbers, CP_IO_MAX_SPARSE_DENSE_BYTES / 1e9);
}

/* The next token must be word (a fixed part of a printed layout). */
static int lex_expect(struct lexer *lx, const char *word, const char *what)
{
  char tok[128], shown[200];
  if (!lex_token(lx, tok, sizeof tok, 0)) {
    lx->line = lx->next_line;
    return lex_error(lx, "%s: file ends early (expected '%s')", what, word);
  }
  if (strcmp(tok, word) != 0)
    return lex_error(lx, "%s: '%s' where '%s' was expected", what, lex_shown(lx, shown, sizeof shown), word);
  return 0;
}

/* A whole number followed by a comma in one token ("3822,"), as CSparse prints its counts. */
static int lex_int_comma(struct lexer *lx, long *v, const char *what)
{
  char tok[128], shown[200], *end;
  if (!lex_token(lx, tok, sizeof tok, 0)) return lex_error(lx, "%s: file ends early", what);
  errno = 0;
  *v = strtol(tok, &end, 10);
  if (end == tok || strcmp(end, ",") != 0 || errno)
    return lex_error(lx, "%s: '%s' is not a count followed by ','", what, lex_shown(lx, shown, sizeof shown));
  return 0;
}

/* Siconos' storage 2 (a NumericsSparseMatrix), as NM_write_in_file prints it: its origin (2: compressed
 * columns; the only one read here), then CSparse's cs_print text: a version line, "M-by-N, nzmax: Z nnz:
 * K, 1-norm: X", then per column "col j : locations a to b" and its entries "i : value" (cs_print's %g:
 * the file holds 6 significant digits, and so do Siconos' own readers). Into the zeroed row-major M. */
static int read_csc_print(struct lexer *lx, double *M, int rows, int cols)
{
  int origin = 0, m = 0, ncols = 0, at = 0;
  char tok[128], shown[200];
  if (lex_int(lx, &origin, 0, 3, "sparse matrix origin")) return 1;
  if (origin != 2)
    return lex_error(lx, "sparse matrix origin %d: only 2 (compressed columns) is read", origin);
  for (int k = 0;; k++) { /* the version line's words, up to "M-by-N," */
    if (k > 32 || !lex_token(lx, tok, sizeof tok, 0)) return lex_error(lx, "no 'M-by-N,' size line");
    if (strstr(tok, "-by-")) break;
  }
  if (sscanf(tok, "%d-by-%d,", &m, &ncols) != 2 || m != rows || ncols != cols)
    return lex_error(lx, "sparse size '%s', expected %d-by-%d,", lex_shown(lx, shown, sizeof shown), rows,
                     cols);
  long nnz = 0; /* nzmax and the 1-norm are not needed: skipped as words */
  if (lex_expect(lx, "nzmax:", "sparse header")) return 1;
  if (!lex_token(lx, tok, sizeof tok, 0)) return lex_error(lx, "sparse header: file ends early");
  if (lex_expect(lx, "nnz:", "sparse header") || lex_int_comma(lx, &nnz, "nnz") ||
      lex_expect(lx, "1-norm:", "sparse header"))
    return 1;
  if (!lex_token(lx, tok, sizeof tok, 0)) return lex_error(lx, "sparse header: file ends early");
  if (nnz < 0 || nnz > (long)rows * cols)
    return lex_error(lx, "nnz %ld outside [0, %d x %d]", nnz, rows, cols);
  for (int j = 0; j < cols; j++) {
    int jj = 0, a = 0, b = 0;
    if (lex_expect(lx, "col", "sparse column") || lex_int(lx, &jj, j, j, "column number") ||
        lex_expect(lx, ":", "sparse column") || lex_expect(lx, "locations", "sparse column") ||
        lex_int(lx, &a, at, at, "first location") || lex_expect(lx, "to", "sparse column") ||
        lex_int(lx, &b, a - 1, (int)nnz - 1, "last location"))
      return 1;
    for (int k = a; k <= b; k++) {
      int i = 0;
      if (lex_int(lx, &i, 0, rows - 1, "row index") || lex_expect(lx, ":", "sparse entry") ||
          lex_number(lx, &M[(size_t)i * cols + j], "sparse entry", 0))
        return 1;
    }
    at = b + 1;
  }
  if (at != nnz) return lex_error(lx, "the columns hold %d entries, the header says nnz %ld", at, nnz);
  return 0;
}

/* A Siconos NumericsMatrix (storage 0: dense column-major; 1: sparse block; 2: sparse, printed) of the
 * dimensions the file declares, allocated here into *M (row-major, zero-filled). *rows_out, *cols_out: on
 * entry the expected size (0 = any), on return the size read. */
static int read_numerics_matrix(struct lexer *lx, double **Mout, int *rows_out, int *cols_out)
{
  int storage = 0, rows = 0, cols = 0, size0 = 0, size1 = 0;
  *Mout = NULL;
  if (lex_int(lx, &storage, 0, 2, "matrix storage type")) return 1;
  if (lex_int(lx, &rows, 1, CB_MAX_N, "matrix rows") || lex_int(lx, &cols, 1, CB_MAX_N, "matrix columns"))
    return 1;
  if ((*rows_out && rows != *rows_out) || (*cols_out && cols != *cols_out))
    return lex_error(lx, "M is %d x %d, expected %d x %d", rows, cols, *rows_out, *cols_out);
  if (lex_need(lx, rows > cols ? rows : cols, storage == 0 ? (double)rows * cols : 1.0, "the matrix") ||
      dense_refused(lx, rows, cols))
    return 1;
  double *M = calloc((size_t)rows * cols, sizeof *M);
  if (!M) return lex_error(lx, "out of memory for a %d x %d matrix", rows, cols);
  int ld = cols, rc = 1;
  int *bs0 = NULL, *bs1 = NULL, *idx1 = NULL, *idx2 = NULL;
  if (storage == 2) {
    rc = read_csc_print(lx, M, rows, cols);
    goto done;
  }
  if (storage == 0) {
    if (lex_int(lx, &size0, rows, rows, "dense rows") || lex_int(lx, &size1, cols, cols, "dense columns"))
      goto done;
    for (int j = 0; j < cols; j++)
      for (int i = 0; i < rows; i++)
        if (lex_number(lx, &M[(size_t)i * ld + j], "matrix entry", 0)) goto done;
    rc = 0;
    goto done;
  }
  int nbblocks = 0, nb0 = 0, nb1 = 0, filled1 = 0, filled2 = 0;
  if (lex_int(lx, &nbblocks, 0, CB_MAX_N, "number of blocks")) goto done;
  if (nbblocks == 0) {
    rc = 0;
    goto done;
  }
  if (lex_int(lx, &nb0, 1, rows, "block rows") || lex_int(lx, &nb1, 1, cols, "block columns")) goto done;
  bs0 = malloc(sizeof(int) * (size_t)nb0);
  bs1 = malloc(sizeof(int) * (size_t)nb1);
  if (!bs0 || !bs1) goto done;
  for (int i = 0; i < nb0; i++)
    if (lex_int(lx, &bs0[i], i ? bs0[i - 1] + 1 : 1, rows, "cumulative block row size")) goto done;
  for (int i = 0; i < nb1; i++)
    if (lex_int(lx, &bs1[i], i ? bs1[i - 1] + 1 : 1, cols, "cumulative block column size")) goto done;
  if (bs0[nb0 - 1] != rows || bs1[nb1 - 1] != cols) {
    lex_error(lx, "block sizes end at %d x %d, expected %d x %d", bs0[nb0 - 1], bs1[nb1 - 1], rows, cols);
    goto done;
  }
  if (lex_int(lx, &filled1, nb0 + 1, nb0 + 1, "filled1") ||
      lex_int(lx, &filled2, nbblocks, nbblocks, "filled2"))
    goto done;
  idx1 = malloc(sizeof(int) * (size_t)filled1);
  idx2 = malloc(sizeof(int) * (size_t)filled2);
  if (!idx1 || !idx2) goto done;
  for (int i = 0; i < filled1; i++)
    if (lex_int(lx, &idx1[i], i ? idx1[i - 1] : 0, filled2, "block row pointer")) goto done;
  for (int i = 0; i < filled2; i++)
    if (lex_int(lx, &idx2[i], 0, nb1 - 1, "block column index")) goto done;
  for (int br = 0; br < nb0; br++)
    for (int k = idx1[br]; k < idx1[br + 1]; k++) {
      int bc = idx2[k], id = 0;
      int r0 = br ? bs0[br - 1] : 0, c0 = bc ? bs1[bc - 1] : 0;
      int nr = bs0[br] - r0, nc = bs1[bc] - c0;
      if (lex_int(lx, &id, k, k, "block number")) goto done;
      for (int j = 0; j < nc; j++)
        for (int i = 0; i < nr; i++)
          if (lex_number(lx, &M[(size_t)(r0 + i) * ld + c0 + j], "block entry", 0)) goto done;
    }
  rc = 0;
done:
  free(bs0);
  free(bs1);
  free(idx1);
  free(idx2);
  if (rc)
    free(M);
  else {
    *Mout = M;
    *rows_out = rows;
    *cols_out = cols;
  }
  return rc;
}

static int read_siconos_lcp(struct lexer *lx, struct cp_problem **out)
{
  int n = 0;
  if (lex_int(lx, &n, 1, CB_MAX_N, "dimension n") || lex_need(lx, n, n, "q") || dense_refused(lx, n, n))
    return 1;
  struct cp_problem *p = cp_lcp_create(n);
  if (!p) return lex_error(lx, "out of memory for n = %d", n);
  double *M = NULL;
  int rows = n, cols = n;
  if (read_numerics_matrix(lx, &M, &rows, &cols)) goto fail;
  memcpy(p->M, M, sizeof(double) * (size_t)n * n);
  free(M);
  for (int i = 0; i < n; i++)
    if (lex_number(lx, &p->q[i], "q", 0)) goto fail;
  *out = p;
  return 0;
fail:
  cp_destroy(&p);
  return 1;
}

/* Siconos' FrictionContactProblem text (frictionContact_printInFile): d (2 or 3), nc, W as a
 * NumericsMatrix of d nc rows and columns, q (d nc), mu (nc); the rest ignored. */
static int read_siconos_fc(struct lexer *lx, struct cp_problem **out)
{
  int d = 0, nc = 0;
  if (lex_int(lx, &d, 2, 3, "contact dimension") || lex_int(lx, &nc, 1, CB_MAX_N / 3, "number of contacts"))
    return 1;
  int n = d * nc;
  if (lex_need(lx, n, (double)n + nc, "q and mu") || dense_refused(lx, n, n)) return 1;
  struct cp_problem *p = cp_fc_create(d, nc);
  if (!p) return lex_error(lx, "out of memory for %d contacts", nc);
  double *M = NULL;
  int rows = n, cols = n;
  if (read_numerics_matrix(lx, &M, &rows, &cols)) goto fail;
  memcpy(p->M, M, sizeof(double) * (size_t)n * n);
  free(M);
  for (int i = 0; i < n; i++)
    if (lex_number(lx, &p->q[i], "q", 0)) goto fail;
  for (int c = 0; c < nc; c++) {
    if (lex_number(lx, &p->mu[c], "mu", 0)) goto fail;
    if (p->mu[c] < 0.0) {
      lex_error(lx, "mu: friction coefficient %g of contact %d is negative", p->mu[c], c);
      goto fail;
    }
  }
  *out = p;
  return 0;
fail:
  cp_destroy(&p);
  return 1;
}

/* rows x cols block, row by row, into M at (r0, c0). */
static int read_block_rows(struct lexer *lx, struct cp_problem *p, int r0, int c0, int rows, int cols,
                           const char *what)
{
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      if (lex_number(lx, &p->M[(size_t)(r0 + i) * p->n + c0 + j], what, 0)) return 1;
  return 0;
}

static int read_siconos_mlcp(struct lexer *lx, struct cp_problem **out)
{
  int st1 = 0, st2 = 0, n = 0, m = 0;
  if (lex_int(lx, &st1, 0, 1, "isStorageType1") || lex_int(lx, &st2, 0, 1, "isStorageType2") ||
      lex_int(lx, &n, 0, CB_MAX_N, "n (equalities)") || lex_int(lx, &m, 0, CB_MAX_N, "m (complementarities)"))
    return 1;
  if (n + m < 1) return lex_error(lx, "empty problem (n + m = 0)");
  if (!st1 && !st2) return lex_error(lx, "neither storage form is present (both flags 0)");
  if (lex_need(lx, n + m, st2 ? (double)(n + m) * (n + m + 1) : (double)(n + m), "the data") ||
      dense_refused(lx, n + m, n + m))
    return 1;
  struct cp_problem *p = cp_mlcp_create(n, m);
  if (!p) return lex_error(lx, "out of memory for n + m = %d", n + m);
  if (st1) {
    /* Cumulative block rows (first entry 0) up to n + m, then one flag per block. */
    int nb = 0, v = 0, leading_eq = 1, eq_rows = 0, prev = 0;
    int flags_ok = 1;
    int bounds[4096];
    do {
      if (nb >= 4096) {
        lex_error(lx, "too many blocks");
        goto fail;
      }
      if (lex_int(lx, &v, prev, n + m, "blocksRows")) goto fail;
      bounds[nb++] = prev = v;
    } while (v < n + m);
    for (int b = 0; b + 1 < nb; b++) {
      int comp = 0;
      if (lex_int(lx, &comp, 0, 1, "blocksIsComp")) goto fail;
      if (!comp && !leading_eq) flags_ok = 0;
      if (comp)
        leading_eq = 0;
      else
        eq_rows = bounds[b + 1];
    }
    if (st2 == 0 && (!flags_ok || eq_rows != n)) {
      lex_error(lx, "block flags do not put the %d equality rows first", n);
      goto fail;
    }
    /* The first form may be rectangular (Rectangular_mlcp.dat); it is only used when the second is absent. */
    double *M1 = NULL;
    int rows = st2 ? 0 : n + m, cols = rows;
    if (read_numerics_matrix(lx, &M1, &rows, &cols)) goto fail;
    int bad = 0;
    for (int i = 0; !bad && i < n + m; i++)
      if (lex_number(lx, &p->q[i], "q", 0)) bad = 1;
    if (!bad && !st2) memcpy(p->M, M1, sizeof(double) * (size_t)(n + m) * (n + m));
    free(M1);
    if (bad) goto fail;
  }
  if (st2) {
    if (read_block_rows(lx, p, 0, 0, n, n, "A") || read_block_rows(lx, p, n, n, m, m, "B") ||
        read_block_rows(lx, p, 0, n, n, m, "C") || read_block_rows(lx, p, n, 0, m, n, "D"))
      goto fail;
    for (int i = 0; i < n + m; i++)
      if (lex_number(lx, &p->q[i], i < n ? "a" : "b", 0)) goto fail;
  }
  *out = p;
  return 0;
fail:
  cp_destroy(&p);
  return 1;
}

enum cp_file_format cp_file_format_guess(const char *path)
{
  size_t len = strlen(path);
  if (len < 4 || strcmp(path + len - 4, ".dat") != 0) return CP_FILE_PLAIN;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  /* Siconos keeps its frictional-contact files in folders of their own (FrictionContact/test/data,
   * copied to fc3d/): the folder or the name says which kind, since the text alone can be read both ways */
  if (strstr(path, "fc3d/") || strstr(path, "fc2d/") || strstr(base, "fc3d") || strstr(base, "fc2d"))
    return CP_FILE_SICONOS_FC;
  return strstr(base, "mlcp") ? CP_FILE_SICONOS_MLCP : CP_FILE_SICONOS_LCP;
}

int cp_read_text(const char *text, const char *name, enum cp_file_format format, struct cp_problem **p,
                 char *err, size_t errlen)
{
  /* A UTF-8 byte order mark (editors on Windows write one) is not content. */
  if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
    text += 3;
  struct lexer lx = {.text = text,
                     .len = strlen(text),
                     .name = name,
                     .line = 1,
                     .next_line = 1,
                     .err = err,
                     .errlen = errlen};
  *p = NULL;
  if (format == CP_FILE_AUTO) format = cp_file_format_guess(name);
  int rc;
  switch (format) {
  case CP_FILE_SICONOS_LCP: rc = read_siconos_lcp(&lx, p); break;
  case CP_FILE_SICONOS_MLCP: rc = read_siconos_mlcp(&lx, p); break;
  case CP_FILE_SICONOS_FC: rc = read_siconos_fc(&lx, p); break;
  default: rc = read_plain(&lx, p); break;
  }
  if (rc == 0) {
    const char *base = strrchr(name, '/');
    snprintf((*p)->name, sizeof(*p)->name, "%s", base ? base + 1 : name);
  }
  return rc;
}

int cp_read_file(const char *path, enum cp_file_format format, struct cp_problem **p, char *err,
                 size_t errlen)
{
  return cp_read_file_limited(path, format, CP_IO_MAX_FILE_BYTES, p, err, errlen);
}

int cp_read_file_limited(const char *path, enum cp_file_format format, size_t max_bytes,
                         struct cp_problem **p, char *err, size_t errlen)
{
  *p = NULL;
  char shown[256];
  cp_io_escape(path, strlen(path), 200, shown, sizeof shown);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open: %s", shown, strerror(errno));
    return 1;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) { /* fopen succeeds on a directory */
    fclose(f);
    snprintf(err, errlen, "%s: is a directory, not a problem file", shown);
    return 1;
  }
  /* Read in chunks, refusing NUL bytes as they arrive and stopping at max_bytes: /dev/zero or an endless
   * pipe ends with a message, not with the memory. */
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  const char *why = NULL;
  int read_errno = 0;
  while (buf && !why) {
    size_t got = fread(buf + len, 1, cap - len - 1, f);
    if (memchr(buf + len, '\0', got)) why = "binary data (NUL byte) in a text format";
    len += got;
    if (len > max_bytes) why = "larger than the reader's limit";
    if (why || len + 1 < cap) break;
    size_t next = cap * 2 > max_bytes + 2 ? max_bytes + 2 : cap * 2;
    char *nb = realloc(buf, next);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap = next;
  }
  if (ferror(f)) read_errno = errno ? errno : EIO;
  fclose(f);
  if (why) {
    if (len > max_bytes)
      snprintf(err, errlen, "%s: more than %zu bytes: larger than the reader's limit", shown, max_bytes);
    else
      snprintf(err, errlen, "%s: %s", shown, why);
    free(buf);
    return 1;
  }
  if (!buf || read_errno) {
    free(buf);
    if (read_errno)
      snprintf(err, errlen, "%s: cannot read the file: %s", shown, strerror(read_errno));
    else
      snprintf(err, errlen, "%s: out of memory reading the file", shown);
    return 1;
  }
  buf[len] = '\0';
  int rc = cp_read_text(buf, path, format, p, err, errlen);
  free(buf);
  return rc;
}

int cp_write_plain(const char *path, const struct cp_problem *p, char *err, size_t errlen)
{
  if (!cp_is_linear(p) || (p->kind != CP_LCP && p->kind != CP_MLCP && p->kind != CP_BOXED)) {
    snprintf(err, errlen, "%s: only LCPs, mixed LCPs and boxed LCPs have a plain file format", path);
    return 1;
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open for writing: %s", path, strerror(errno));
    return 1;
  }
  int n = p->n;
  int boxed = p->kind == CP_BOXED;
  fprintf(f, "# %s written by contactbench: n%s, then M row by row, then q%s\n", p->name,
          boxed     ? " boxed"
          : p->n_eq ? " n_eq"
                    : "",
          boxed ? ", lo, hi, findex" : "");
  if (boxed)
    fprintf(f, "%d boxed\n", n);
  else if (p->n_eq)
    fprintf(f, "%d %d\n", n, p->n_eq);
  else
    fprintf(f, "%d\n", n);
  for (int i = 0; i <= n + 2 * boxed; i++) {
    const double *row = i < n ? p->M + (size_t)i * n : i == n ? p->q : i == n + 1 ? p->lo : p->hi;
    for (int j = 0; j < n; j++) /* an infinite bound as inf / -inf, which the reader takes */
      fprintf(f, "%s%.17g", j ? " " : "", row[j]);
    fputc('\n', f);
  }
  for (int j = 0; boxed && j <= n; j++)
    fprintf(f, j < n ? "%s%d" : "\n", j ? " " : "", j < n ? p->findex[j] : 0);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    snprintf(err, errlen, "%s: write failed", path);
    return 1;
  }
  return 0;
}
