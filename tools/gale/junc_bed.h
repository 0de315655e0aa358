/*
 * gale zdrop --junc-bed: annotated introns as minimap2 2.24 reads them (index.c,
 * mm_idx_read_bed with read_junc = 1, then mm_idx_bed_junc), turned into ksw_exts2_sse's
 * junction array for a target (gale_task.junc, GALE_ZD_JUNC_* bits).
 */
#ifndef GALE_CLI_JUNC_BED_H
#define GALE_CLI_JUNC_BED_H

#include <stddef.h>
#include <stdint.h>

typedef struct junc_bed junc_bed;

/* Reads the BED file path ('-' = stdin; plain or gzipped). 0 with *out set, or
 * EXIT_FAIL after a message naming the file and the line. warn: say so (a warning)
 * when no line has a strand, since such lines mark nothing. */
int junc_bed_read(const char *path, int warn, junc_bed **out);
/* Whether the target called name has an intron that marks a base of a target of len
 * bases (any work for junc_bed_fill). */
int junc_bed_marks(const junc_bed *jb, const char *name, size_t len);
/* s[0..len): the bits of the target called name over its whole length, as
 * mm_idx_bed_junc(mi, id, 0, len, s) sets them; reversed (s[len-1-i] for base i) when
 * reverse, as minimap2 reverses its array with the target for a left extension. */
void junc_bed_fill(const junc_bed *jb, const char *name, uint8_t *s, size_t len, int reverse);
void junc_bed_free(junc_bed *jb);

#endif
