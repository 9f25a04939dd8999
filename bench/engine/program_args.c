/* program_args.c — the one reader of a program's command line, options files and PETSC_OPTIONS
 * (program.h): every word is an option, its one value, a declared positional or list word, or an error
 * naming it and where it came from; files are checked before they are read (regular, under the size cap,
 * not already being read: an include cycle is named). Sources give events (name, value, where, source,
 * order); sorting them by name then gives the same-source conflicts and the precedence notes. Pure: no
 * MPI, no PETSc; messages are returned. */
#include "program.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_MAX_LEN 256 /* PETSc keeps names in 512-byte buffers with a prefix added */
#define SHOWN_MAX    64  /* longer values are shortened in messages */

enum source_kind { SRC_COMMAND_LINE, SRC_ENV, SRC_FILE };

struct word {
  char *text;
  int line, quoted; /* a quoted word is always a value, never an option name */
};

struct words {
  struct word *w;
  int n, cap;
};

/* One option as one source gave it. level 1: the command line's own words, which outrank every file. */
struct event {
  char *name, *value, *where;
  char **words; /* list options */
  int n_words, source, level;
  long seq;
};

struct reader {
  const struct program_spec *spec;
  struct program_args *args;
  char *msg;
  size_t len;
  struct event *ev;
  long n_ev, cap_ev, seq;
  int n_sources;
  char **chain_real; /* the files being read, outermost first: realpath and name as given */
  const char **chain_shown;
  int depth, cap_chain;
};

/* Where a source's words came from, for messages: "" (command line), "PETSC_OPTIONS: ", "FILE:LINE: ". */
struct source {
  enum source_kind kind;
  const char *file;
  int id;
};

static int fail(struct reader *r, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct reader *r, int rc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->msg, r->len, fmt, ap);
  va_end(ap);
  return rc;
}

static void where_prefix(char *buf, size_t n, const struct source *s, int line)
{
  if (s->kind == SRC_COMMAND_LINE)
    buf[0] = '\0';
  else if (s->kind == SRC_ENV)
    snprintf(buf, n, "PETSC_OPTIONS: ");
  else
    snprintf(buf, n, "%s:%d: ", s->file, line);
}

static char *where_text(const struct source *s, int line)
{
  char buf[64];
  const char *fixed = s->kind == SRC_COMMAND_LINE ? "command line" : "PETSC_OPTIONS";
  size_t n = s->kind == SRC_FILE ? strlen(s->file) + sizeof buf : strlen(fixed) + 1;
  char *out = malloc(n);
  if (!out) return NULL;
  if (s->kind == SRC_FILE)
    snprintf(out, n, "%s:%d", s->file, line);
  else
    snprintf(out, n, "%s", fixed);
  return out;
}

/* A value as messages show it: whole when short, else its start and its length. */
static const char *shorten(const char *text, char *buf, size_t n)
{
  size_t l = strlen(text);
  if (l <= SHOWN_MAX) return text;
  snprintf(buf, n, "%.40s... (%zu characters)", text, l);
  return buf;
}

/* PETSc's rule (PetscOptionsValidKey): '-' or "--", then a letter, and not a number ("-inf", "-nan"). */
static int is_key(const char *w)
{
  if (w[0] != '-') return 0;
  const char *k = w[1] == '-' ? w + 1 : w;
  if (!isalpha((unsigned char)k[1])) return 0;
  char *end = NULL;
  (void)strtod(k, &end);
  return end == k || *end == '_' || isalnum((unsigned char)*end);
}

static int in_list(const char *const *list, const char *name)
{
  for (int i = 0; list && list[i]; i++)
    if (strcasecmp(list[i], name) == 0) return 1;
  return 0;
}

static int push_word(struct words *ws, const char *start, size_t n, int line, int quoted)
{
  if (ws->n == ws->cap) {
    int cap = ws->cap ? 2 * ws->cap : 64;
    struct word *w = realloc(ws->w, (size_t)cap * sizeof *w);
    if (!w) return 1;
    ws->w = w, ws->cap = cap;
  }
  char *t = malloc(n + 1);
  if (!t) return 1;
  memcpy(t, start, n);
  t[n] = '\0';
  ws->w[ws->n++] = (struct word){t, line, quoted};
  return 0;
}

static void free_words(struct words *ws)
{
  for (int i = 0; i < ws->n; i++)
    free(ws->w[i].text);
  free(ws->w);
  ws->w = NULL;
  ws->n = ws->cap = 0;
}

/* A list option's words (n of them; NULL entries allowed) and the array. */
static void free_list(char **w, int n)
{
  for (int i = 0; w && i < n; i++)
    free(w[i]);
  free(w);
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Words of a file or of PETSC_OPTIONS: blanks separate, '#' starts a comment in files, "..." is one word. */
static int tokenize(struct reader *r, const char *buf, size_t n, const struct source *s, struct words *ws)
{
  char at[PATH_MAX + 64];
  int line = 1, comments = s->kind == SRC_FILE;
  for (size_t i = 0; i < n;) {
    char c = buf[i];
    if (c == '\n' || blank(c)) {
      line += c == '\n';
      i++;
    } else if (c == '#' && comments) {
      while (i < n && buf[i] != '\n')
        i++;
    } else if (c == '"') {
      size_t j = i + 1;
      while (j < n && buf[j] != '"' && buf[j] != '\n')
        j++;
      where_prefix(at, sizeof at, s, line);
      if (j >= n || buf[j] != '"') return fail(r, 2, "%sunterminated quote", at);
      if (j + 1 < n && !blank(buf[j + 1]) && buf[j + 1] != '\n' && !(buf[j + 1] == '#' && comments))
        return fail(r, 2, "%stext right after a closing quote", at);
      if (push_word(ws, buf + i + 1, j - i - 1, line, 1)) return fail(r, 1, "out of memory");
      i = j + 1;
    } else {
      size_t j = i;
      while (j < n && !blank(buf[j]) && buf[j] != '\n' && buf[j] != '"' && !(buf[j] == '#' && comments))
        j++;
      if (j < n && buf[j] == '"') {
        where_prefix(at, sizeof at, s, line);
        return fail(r, 2, "%sa quote inside a word (quote the whole value)", at);
      }
      if (push_word(ws, buf + i, j - i, line, 0)) return fail(r, 1, "out of memory");
      i = j;
    }
  }
  return 0;
}

static int add_event(struct reader *r, const struct source *s, int line, const char *name, const char *value,
                     char **words, int n_words)
{
  char at[PATH_MAX + 64], sh[128];
  where_prefix(at, sizeof at, s, line);
  if (value && value[0] && is_key(value))
    return fail(r, 2, "%sthe value '%s' of %s would be read as an option name by PETSc (not supported)", at,
                shorten(value, sh, sizeof sh), name);
  if (r->n_ev == r->cap_ev) {
    long cap = r->cap_ev ? 2 * r->cap_ev : 64;
    struct event *e = realloc(r->ev, (size_t)cap * sizeof *e);
    if (!e) {
      free_list(words, n_words);
      return fail(r, 1, "out of memory");
    }
    r->ev = e, r->cap_ev = cap;
  }
  struct event *e = &r->ev[r->n_ev];
  *e = (struct event){.name = strdup(name),
                      .value = value && value[0] ? strdup(value) : NULL,
                      .where = where_text(s, line),
                      .words = words,
                      .n_words = n_words,
                      .source = s->id,
                      .level = s->kind == SRC_COMMAND_LINE,
                      .seq = r->seq++};
  r->n_ev++;
  if (!e->name || !e->where || (value && value[0] && !e->value)) return fail(r, 1, "out of memory");
  return 0;
}

static int read_file(struct reader *r, const char *file, const char *from, int optional);

/* What a stray word follows, for its message: the option just before it, or nothing. */
struct last_option {
  const char *name, *value;
  int end, line; /* index of the word after it (and its value); its line */
};

static const char *not_options(int n)
{
  return n == 1 ? "word that is not an option" : "words that are not options";
}

static int stray(struct reader *r, const struct source *s, const struct word *w, int i,
                 const struct last_option *last)
{
  char at[PATH_MAX + 64], ctx[512] = "", tail[512] = "", a[128], b[128];
  const struct program_spec *sp = r->spec;
  where_prefix(at, sizeof at, s, w->line);
  const char *word = shorten(w->text, a, sizeof a);
  if (s->kind == SRC_FILE && !w->quoted && strcasecmp(w->text, "alias") == 0 &&
      (i == 0 || w[-1].line != w->line))
    return fail(r, 2, "%salias lines are not supported (write the option's own name)", at);
  /* the option just before, when it is on the same line */
  int after = last->name && last->end == i && (s->kind != SRC_FILE || last->line == w->line);
  if (after && last->value) {
    const char *v = shorten(last->value, b, sizeof b);
    snprintf(ctx, sizeof ctx, " after %s %s (a list is one word: %s %s,%s)", last->name, v, last->name, v,
             word);
  } else if (after)
    snprintf(ctx, sizeof ctx, " after %s (%s takes no value)", last->name, last->name);
  if (s->kind != SRC_COMMAND_LINE && !ctx[0])
    snprintf(tail, sizeof tail, " (%s holds -name value pairs)",
             s->kind == SRC_FILE ? "an options file" : "PETSC_OPTIONS");
  else if (s->kind == SRC_COMMAND_LINE && sp->positional_max > 0)
    snprintf(tail, sizeof tail, "%s%s takes at most %d %s (usage: %s %s)", ctx[0] ? "; " : ": ", sp->name,
             sp->positional_max, not_options(sp->positional_max), sp->name, sp->usage ? sp->usage : "");
  else if (s->kind == SRC_COMMAND_LINE && !ctx[0])
    snprintf(tail, sizeof tail, ": %s takes no words that are not options", sp->name);
  return fail(r, 2, "%sstray word '%s'%s%s", at, word, ctx, tail);
}

/* Is w[j] a value for the option at w[i]: there, a bare word, and on the option's line in a file? */
static int bare(const struct source *s, const struct word *w, int n, int i, int j)
{
  return j < n && (s->kind != SRC_FILE || w[j].line == w[i].line) && (w[j].quoted || !is_key(w[j].text));
}

/* Options the reader answers itself (help, files, what it refuses): *taken = 1 when w[*i] was one (*i
 * then moved past what it took), 0 for an ordinary option. Returns 0, or 2 (bad input) / 1 (out of memory)
 * with the message. */
static int special(struct reader *r, const struct source *s, const struct word *w, int n, int *i,
                   struct last_option *last, int *taken)
{
  static const char *const refused[] = {"-prefix_push", "-prefix_pop", "-options_file_yaml",
                                        "-options_string_yaml", NULL};
  char at[PATH_MAX + 64];
  const char *name = w[*i].text;
  int next = bare(s, w, n, *i, *i + 1);
  *taken = 1;
  where_prefix(at, sizeof at, s, w[*i].line);
  if (strcasecmp(name, "-help") == 0 || strcasecmp(name, "--help") == 0) {
    r->args->help = 1;
    if (next && strcmp(w[*i + 1].text, "petsc") == 0) r->args->help_petsc = 1, (*i)++;
    *last = (struct last_option){name, NULL, *i + 1, w[*i].line};
    return 0;
  }
  if (name[1] == '-') return fail(r, 2, "%s%s: options take one dash (-%s)", at, name, name + 2);
  if (strchr(name, '=')) return fail(r, 2, "%s%s: the value is a word of its own (-name value)", at, name);
  if (strlen(name) > NAME_MAX_LEN) return fail(r, 2, "%san option name over %d characters", at, NAME_MAX_LEN);
  if (in_list(refused, name)) return fail(r, 2, "%s%s is not supported", at, name);
  int help_h = strcasecmp(name, "-h") == 0 && !(r->spec->h_is_time_step && next);
  if (help_h || strcasecmp(name, "-skip_petscrc") == 0) { /* flags: the next word is not theirs */
    if (!help_h && s->kind != SRC_COMMAND_LINE)
      return fail(r, 2, "%s-skip_petscrc is read from the command line only", at);
    r->args->help |= help_h;
    *last = (struct last_option){name, NULL, *i + 1, w[*i].line};
    return 0;
  }
  if (strcasecmp(name, "-options_file") != 0) return *taken = 0, 0;
  if (!next || !w[*i + 1].text[0]) return fail(r, 2, "%s-options_file needs a file name", at);
  (*i)++;
  *last = (struct last_option){name, w[*i].text, *i + 1, w[*i].line};
  return read_file(r, w[*i].text, at, 0);
}

/* An option declared a list takes every following bare word (up to the end of the line in a file). */
static int list_option(struct reader *r, const struct source *s, const struct word *w, int n, int *i,
                       struct last_option *last)
{
  int k = 0, at = *i;
  while (bare(s, w, n, at, at + 1 + k))
    k++;
  char **words = calloc((size_t)k + 1, sizeof *words);
  int ok = words != NULL;
  for (int j = 0; ok && j < k; j++)
    ok = (words[j] = strdup(w[at + 1 + j].text)) != NULL;
  if (!ok) {
    free_list(words, k);
    return fail(r, 1, "out of memory");
  }
  *i = at + k;
  *last = (struct last_option){w[at].text, k ? w[*i].text : NULL, *i + 1, w[at].line};
  return add_event(r, s, w[at].line, w[at].text, NULL, words, k);
}

/* One source's words in order: options with at most one value, list options, positional words. */
static int scan(struct reader *r, const struct source *s, const struct word *w, int n)
{
  const struct program_spec *sp = r->spec;
  struct last_option last = {NULL, NULL, -1, 0};
  for (int i = 0; i < n; i++) {
    int rc = 0, taken = 0;
    if (w[i].quoted || !is_key(w[i].text)) { /* a quoted word is always a value */
      if (s->kind != SRC_COMMAND_LINE || r->args->n_positional >= sp->positional_max)
        return stray(r, s, &w[i], i, &last);
      if (!(r->args->positional[r->args->n_positional] = strdup(w[i].text)))
        return fail(r, 1, "out of memory");
      r->args->n_positional++;
      continue;
    }
    if ((rc = special(r, s, w, n, &i, &last, &taken)) || taken) {
      if (rc) return rc;
      continue;
    }
    const char *name = w[i].text, *value = NULL;
    int line = w[i].line;
    if (in_list(sp->lists, name)) {
      if ((rc = list_option(r, s, w, n, &i, &last))) return rc;
      continue;
    }
    if (bare(s, w, n, i, i + 1) && !in_list(sp->flags, name)) value = w[++i].text;
    if ((rc = add_event(r, s, line, name, value, NULL, 0))) return rc;
    last = (struct last_option){name, value, i + 1, line};
  }
  return 0;
}

static const char *file_kind(mode_t m)
{
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

static int ends_with(const char *s, const char *tail)
{
  size_t a = strlen(s), b = strlen(tail);
  return a >= b && strcasecmp(s + a - b, tail) == 0;
}

/* The whole file, checked: regular (never opened otherwise, so that a FIFO is not waited on), within the
 * cap, no NUL byte. *buf is malloc'd; 0, or an error code with the message set. */
static int load(struct reader *r, const char *file, const char *from, char **buf, size_t *n)
{
  struct stat st;
  int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail(r, 2, "%scannot read the options file %s: %s", from, file, strerror(errno));
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)PROGRAM_OPTIONS_FILE_MAX) {
    close(fd); /* changed since stat: a race, reported as what it is now */
    return fail(r, 2, "%sthe options file %s changed while it was opened", from, file);
  }
  size_t cap = (size_t)st.st_size + 1, got = 0; /* one byte more than stat said: growth is seen */
  *buf = calloc(cap + 1, 1);
  if (!*buf) return close(fd), fail(r, 1, "out of memory");
  while (got < cap) {
    ssize_t k = read(fd, *buf + got, cap - got);
    if (k == 0) break;
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      int e = errno;
      close(fd);
      return fail(r, 2, "%scannot read the options file %s: %s", from, file, strerror(e));
    }
    got += (size_t)k;
  }
  close(fd);
  if (got > (size_t)st.st_size) return fail(r, 2, "%sthe options file %s grew while it was read", from, file);
  (*buf)[got] = '\0';
  *n = got;
  const char *nul = memchr(*buf, '\0', got);
  if (nul) {
    int line = 1;
    for (const char *c = *buf; c < nul; c++)
      line += *c == '\n';
    return fail(r, 2, "%s%s:%d: binary data (a NUL byte): not an options file", from, file, line);
  }
  if (strncmp(*buf, "%YAML", 5) == 0)
    return fail(r, 2, "%s%s: YAML options files are not supported", from, file);
  return 0;
}

/* The file's checks before it is opened, and its place in the chain of files being read. */
static int check_file(struct reader *r, const char *file, const char *from, int optional, char **real)
{
  struct stat st;
  *real = NULL;
  if (ends_with(file, ".yaml") || ends_with(file, ".yml") || ends_with(file, ".json") ||
      ends_with(file, ":yaml"))
    return fail(r, 2, "%s%s: YAML options files are not supported", from, file);
  if (stat(file, &st)) {
    if (optional && errno == ENOENT) return -1;
    return fail(r, 2, "%scannot read the options file %s: %s", from, file, strerror(errno));
  }
  if (optional && S_ISDIR(st.st_mode)) return -1;
  if (!S_ISREG(st.st_mode))
    return fail(r, 2, "%sthe options file %s is %s, not a regular file", from, file, file_kind(st.st_mode));
  if (st.st_size > (off_t)PROGRAM_OPTIONS_FILE_MAX)
    return fail(r, 2, "%sthe options file %s is larger than %u MiB (%lld bytes)", from, file,
                PROGRAM_OPTIONS_FILE_MAX >> 20, (long long)st.st_size);
  if (!(*real = realpath(file, NULL)))
    return fail(r, 2, "%scannot read the options file %s: %s", from, file, strerror(errno));
  for (int k = 0; k < r->depth; k++) {
    if (strcmp(r->chain_real[k], *real) != 0) continue;
    size_t used = (size_t)snprintf(r->msg, r->len, "%soptions file cycle: ", from);
    for (int j = k; j < r->depth && used < r->len; j++)
      used += (size_t)snprintf(r->msg + used, r->len - used, "%s -> ", r->chain_shown[j]);
    if (used < r->len) snprintf(r->msg + used, r->len - used, "%s", file);
    free(*real);
    *real = NULL;
    return 2;
  }
  if (r->depth == r->cap_chain) {
    int cap = r->cap_chain ? 2 * r->cap_chain : 8;
    char **a = realloc(r->chain_real, (size_t)cap * sizeof *a);
    if (a) r->chain_real = a;
    const char **b = a ? realloc(r->chain_shown, (size_t)cap * sizeof *b) : NULL;
    if (!b) {
      free(*real);
      *real = NULL;
      return fail(r, 1, "out of memory");
    }
    r->chain_shown = b, r->cap_chain = cap;
  }
  return 0;
}

/* Reads one options file at its include point (from: "" or "FILE:LINE: " of the -options_file). optional:
 * a default file, skipped when absent or a directory. */
static int read_file(struct reader *r, const char *file, const char *from, int optional)
{
  char *real = NULL, *buf = NULL;
  size_t n = 0;
  struct words ws = {0};
  int rc = check_file(r, file, from, optional, &real);
  if (rc) return rc < 0 ? 0 : rc;
  r->chain_real[r->depth] = real;
  r->chain_shown[r->depth++] = file;
  struct source s = {SRC_FILE, file, ++r->n_sources};
  rc = load(r, file, from, &buf, &n);
  if (!rc) rc = tokenize(r, buf, n, &s, &ws);
  free(buf);
  if (!rc) rc = scan(r, &s, ws.w, ws.n);
  free_words(&ws);
  free(r->chain_real[--r->depth]);
  return rc;
}

/* ---- after the sources: conflicts, precedence, notes ---- */

static int same_value(const struct event *a, const struct event *b)
{
  if (a->words || b->words) {
    if (!a->words || !b->words || a->n_words != b->n_words) return 0;
    for (int i = 0; i < a->n_words; i++)
      if (strcmp(a->words[i], b->words[i]) != 0) return 0;
    return 1;
  }
  if (!a->value || !b->value) return a->value == b->value;
  return strcmp(a->value, b->value) == 0;
}

static int by_name_source(const void *x, const void *y)
{
  const struct event *a = *(struct event *const *)x, *b = *(struct event *const *)y;
  int c = strcasecmp(a->name, b->name);
  if (c) return c;
  if (a->source != b->source) return a->source < b->source ? -1 : 1;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Precedence order: the command line's own words last, then reading order. */
static int by_name_order(const void *x, const void *y)
{
  const struct event *a = *(struct event *const *)x, *b = *(struct event *const *)y;
  int c = strcasecmp(a->name, b->name);
  if (c) return c;
  if (a->level != b->level) return a->level - b->level;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

/* "-name value" for messages (list words joined by blanks), shortened. */
static void show_event(const struct event *e, char *buf, size_t n)
{
  size_t used = (size_t)snprintf(buf, n, "%s", e->name);
  char sh[128];
  if (e->value && used < n) snprintf(buf + used, n - used, " %s", shorten(e->value, sh, sizeof sh));
  for (int i = 0; e->words && i < e->n_words && used < n && i < 4; i++)
    used +=
        (size_t)snprintf(buf + used, n - used, " %s", i < 3 ? shorten(e->words[i], sh, sizeof sh) : "...");
}

static int conflicts(struct reader *r, struct event **p)
{
  qsort(p, (size_t)r->n_ev, sizeof(struct event *), by_name_source);
  const struct event *first = NULL, *second = NULL; /* the conflict read first */
  for (long k = 1; k < r->n_ev; k++)
    if (p[k]->source == p[k - 1]->source && strcasecmp(p[k]->name, p[k - 1]->name) == 0 &&
        !same_value(p[k], p[k - 1]) && (!second || p[k]->seq < second->seq))
      first = p[k - 1], second = p[k];
  if (!second) return 0;
  char a[256], b[256];
  show_event(first, a, sizeof a);
  show_event(second, b, sizeof b);
  return fail(r, 2, "%s (%s) and %s (%s): one source gives the option two values (ambiguous; give it once)",
              a, first->where, b, second->where);
}

struct note {
  int level;
  long seq;
  char *text;
};

static int by_note_order(const void *x, const void *y)
{
  const struct note *a = x, *b = y;
  if (a->level != b->level) return a->level - b->level;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The value in force of each option (the last in precedence order), a note per replaced value. */
static int resolve(struct reader *r, struct event **p)
{
  struct program_args *a = r->args;
  struct note *notes = calloc((size_t)r->n_ev + 1, sizeof *notes);
  a->pairs = calloc((size_t)r->n_ev + 1, sizeof *a->pairs);
  if (!notes || !a->pairs) return free(notes), fail(r, 1, "out of memory");
  qsort(p, (size_t)r->n_ev, sizeof(struct event *), by_name_order);
  long n_notes = 0;
  for (long k = 0; k < r->n_ev;) {
    long e = k + 1;
    struct event *cur = p[k];
    for (; e < r->n_ev && strcasecmp(p[e]->name, cur->name) == 0; e++) {
      if (!same_value(p[e], cur)) {
        char was[256], now[256], text[700];
        show_event(cur, was, sizeof was);
        show_event(p[e], now, sizeof now);
        snprintf(text, sizeof text, "%s (%s) replaces %s (%s)", now, p[e]->where, was, cur->where);
        notes[n_notes] = (struct note){p[e]->level, p[e]->seq, strdup(text)};
        if (!notes[n_notes++].text) break;
      }
      cur = p[e];
    }
    struct program_pair *pp = &a->pairs[a->n_pairs++];
    pp->name = p[k]->name, p[k]->name = NULL; /* as first written */
    pp->value = cur->value, cur->value = NULL;
    pp->where = cur->where, cur->where = NULL;
    pp->words = cur->words, cur->words = NULL;
    pp->n_words = cur->n_words;
    k = e;
  }
  qsort(notes, (size_t)n_notes, sizeof *notes, by_note_order);
  a->notes = calloc((size_t)n_notes + 1, sizeof *a->notes);
  for (long i = 0; i < n_notes; i++)
    if (a->notes && notes[i].text)
      a->notes[a->n_notes++] = notes[i].text;
    else
      free(notes[i].text);
  free(notes);
  return a->notes && a->n_notes == n_notes ? 0 : fail(r, 1, "out of memory");
}

static void free_events(struct reader *r)
{
  for (long k = 0; k < r->n_ev; k++) {
    struct event *e = &r->ev[k];
    free(e->name), free(e->value), free(e->where);
    free_list(e->words, e->n_words);
  }
  free(r->ev);
}

/* The sources in precedence order (lowest first); the command line's files are read at their place in it
 * but its own words are level 1, above every file. */
static int read_sources(struct reader *r, int argc, char **argv, const struct program_sources *src)
{
  int skip_defaults = 0, rc = 0;
  for (int i = 1; i < argc; i++)
    skip_defaults |= strcasecmp(argv[i], "-skip_petscrc") == 0;
  if (src && src->petsc_options_yaml && src->petsc_options_yaml[0])
    return fail(r, 2, "PETSC_OPTIONS_YAML is not supported (use an options file or PETSC_OPTIONS)");
  for (int i = 0; src && src->default_files && !skip_defaults && src->default_files[i] && !rc; i++)
    rc = read_file(r, src->default_files[i], "", 1);
  if (!rc && src && src->petsc_options) {
    struct source s = {SRC_ENV, NULL, ++r->n_sources};
    struct words ws = {0};
    rc = tokenize(r, src->petsc_options, strlen(src->petsc_options), &s, &ws);
    if (!rc) rc = scan(r, &s, ws.w, ws.n);
    free_words(&ws);
  }
  if (rc) return rc;
  struct source s = {SRC_COMMAND_LINE, NULL, ++r->n_sources};
  struct words ws = {0};
  ws.w = calloc((size_t)argc + 1, sizeof *ws.w);
  if (!ws.w) return fail(r, 1, "out of memory");
  for (int i = 1; i < argc; i++) /* borrowed: argv outlives the scan */
    ws.w[ws.n++] = (struct word){argv[i], 1, 0};
  rc = scan(r, &s, ws.w, ws.n);
  free(ws.w);
  return rc;
}

int program_args_parse(const struct program_spec *spec, int argc, char **argv,
                       const struct program_sources *src, struct program_args *args, char *msg, size_t len)
{
  struct reader r = {.spec = spec, .args = args, .msg = msg, .len = len};
  struct event **p = NULL;
  memset(args, 0, sizeof *args);
  if (len) msg[0] = '\0';
  args->positional =
      calloc((size_t)(spec->positional_max > 0 ? spec->positional_max : 0) + 1, sizeof *args->positional);
  int rc = args->positional ? read_sources(&r, argc, argv, src) : fail(&r, 1, "out of memory");
  if (!rc) { /* the events by pointer, to be sorted twice */
    p = malloc(((size_t)r.n_ev + 1) * sizeof(struct event *));
    if (!p) rc = fail(&r, 1, "out of memory");
    for (long k = 0; p && k < r.n_ev; k++)
      p[k] = &r.ev[k];
    if (p) rc = conflicts(&r, p);
    if (p && !rc) rc = resolve(&r, p);
  }
  if (!rc && !args->help && args->n_positional < spec->positional_min)
    rc = fail(&r, 2, "%s needs %s%d %s, got %d; usage: %s %s", spec->name,
              spec->positional_max > spec->positional_min ? "at least " : "", spec->positional_min,
              not_options(spec->positional_min), args->n_positional, spec->name,
              spec->usage ? spec->usage : "");
  free(p);
  free_events(&r);
  for (int k = 0; k < r.depth; k++)
    free(r.chain_real[k]);
  free(r.chain_real);
  free(r.chain_shown);
  return rc;
}

void program_args_free(struct program_args *args)
{
  for (int i = 0; i < args->n_pairs; i++) {
    struct program_pair *pp = &args->pairs[i];
    free(pp->name), free(pp->value), free(pp->where);
    free_list(pp->words, pp->n_words);
  }
  free_list(args->positional, args->n_positional);
  free_list(args->notes, args->n_notes);
  free(args->pairs);
  memset(args, 0, sizeof *args);
}
