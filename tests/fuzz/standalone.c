/*
 * standalone.c - replays a fuzz target's corpus without libFuzzer, so every
 * corpus file is also a regression test in `make check` (libgit2's pattern).
 * usage: replay_<target> DIR|FILE...   prints "ok - <target> <n> inputs"
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	size_t n = 0, cap = 0, r;
	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			uint8_t *np;
			cap = cap ? cap * 2 : 65536;
			np = realloc(p, cap);
			if (!np) { free(p); fclose(f); return -1; }
			p = np;
		}
		r = fread(p + n, 1, cap - n, f);
		if (r == 0)
			break;
		n += r;
	}
	fclose(f);
	/* hand the target an exact-size copy so ASan sees any overread */
	{
		uint8_t *exact = malloc(n ? n : 1);
		if (!exact) { free(p); return -1; }
		memcpy(exact, p, n);
		free(p);
		LLVMFuzzerTestOneInput(exact, n);
		free(exact);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	int i, count = 0, errors = 0;
	for (i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: missing\n", argv[i]);
			errors++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *de;
			if (!d) { errors++; continue; }
			while ((de = readdir(d)) != NULL) {
				char path[4096];
				if (de->d_name[0] == '.')
					continue;
				snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
				if (run_file(path) != 0) errors++; else count++;
			}
			closedir(d);
		} else {
			if (run_file(argv[i]) != 0) errors++; else count++;
		}
	}
	printf("%s - %s replayed %d inputs\n", errors ? "not ok" : "ok", argv[0], count);
	return errors ? 1 : 0;
}
