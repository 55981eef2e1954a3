/* mutate.c - N mutated copies of the seed files through the replay, under ASan (make check). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"

struct seed {
	uint8_t *p;
	size_t len;
};

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Values that break careless length and offset arithmetic. */
static const uint64_t nasty[] = { 0, 1, 7, 8, 0xff, 0xffff, 0x7fffffff, 0xffffffff,
				  0x100000000ull, 0x7fffffffffffffffull, ~0ull, 104, 4096 };

static void mutate(uint8_t *p, size_t *len)
{
	int n = 1 + (int)(rnd() % 6);

	for (int i = 0; i < n && *len; i++) {
		size_t at = (size_t)(rnd() % *len);

		switch (rnd() % 6) {
		case 0: /* flip a bit */
			p[at] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 1: /* a random byte */
			p[at] = (uint8_t)rnd();
			break;
		case 2: /* a nasty value in an aligned word: lengths, offsets, sizes */
			at &= ~(size_t)7;
			if (at + 8 <= *len) {
				uint64_t v = nasty[rnd() % (sizeof(nasty) / sizeof(nasty[0]))];

				memcpy(p + at, &v, 8);
			}
			break;
		case 3: /* a nasty 16-bit record size */
			at &= ~(size_t)1;
			if (at + 2 <= *len) {
				uint16_t v = (uint16_t)nasty[rnd() % (sizeof(nasty) / sizeof(nasty[0]))];

				memcpy(p + at, &v, 2);
			}
			break;
		case 4: /* truncate */
			*len = at;
			break;
		default: /* copy a chunk over another place */
		{
			size_t from = (size_t)(rnd() % *len), n2 = (size_t)(rnd() % 64);

			if (from + n2 <= *len && at + n2 <= *len)
				memmove(p + at, p + from, n2);
		}
		}
	}
}

static int load(const char *dir, struct seed *seeds, int max)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		char path[512];
		FILE *f;
		long len;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		seeds[n].p = malloc((size_t)len + 1);
		seeds[n].len = fread(seeds[n].p, 1, (size_t)len, f);
		fclose(f);
		n++;
	}
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	struct seed seeds[64];
	int nseeds, iterations = argc > 2 ? atoi(argv[2]) : 10000;
	long read_ok = 0, rejected = 0, silent = 0, seeds_ok = 0;
	char err[512];

	nseeds = load(argc > 1 ? argv[1] : "tests/fuzz/corpus", seeds, 64);
	if (nseeds == 0) {
		fprintf(stderr, "mutate: no seed files\n");
		return 1;
	}
	for (int s = 0; s < nseeds; s++)
		seeds_ok += fuzz_one(seeds[s].p, seeds[s].len, err, sizeof(err)) == 1;
	for (int i = 0; i < iterations; i++) {
		struct seed *s = &seeds[rnd() % (uint64_t)nseeds];
		uint8_t *p = malloc(s->len + 1);
		size_t len = s->len;
		int r;

		memcpy(p, s->p, s->len);
		mutate(p, &len);
		r = fuzz_one(p, len, err, sizeof(err));
		if (r > 0)
			read_ok++;
		else if (r == 0)
			rejected++;
		else
			silent++;
		free(p);
	}
	printf("mutate: %d seeds (%ld read), %d mutated files: %ld read, %ld rejected with a "
	       "message, %ld rejected silently\n",
	       nseeds, seeds_ok, iterations, read_ok, rejected, silent);
	fflush(stdout);
	for (int s = 0; s < nseeds; s++)
		free(seeds[s].p);
	unlink("/dev/shm/locus-fuzz-mutate");
	return silent || seeds_ok != nseeds ? 1 : 0;
}
